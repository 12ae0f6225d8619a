/* stream_jer.c: PDUs decoded as their octets arrive, printed as JER (X.697).
 *
 *   stream_jer -p Module.Type [--walk Module.Type.list] [-o jer|null] [--framed]
 *              [--max-pdu BYTES] [--max-memory BYTES] [--chunks N,N,...] [--stats] [FILE]
 *
 * Reads FILE, or standard input, fragment by fragment, and prints one JER line per PDU as
 * soon as its last octet is in (asn1h_stream); `-o null` decodes only (benchmarks).
 *
 * --walk names a SEQUENCE OF or SET OF type inside the PDU, such as
 * PKIX1Explicit88.TBSCertList.revokedCertificates: then each PDU is decoded while it
 * arrives, with one line per element of that list (asn1h_walk), and memory stays bounded
 * by one element however long the list (see "Walking PDUs as they arrive" below).
 *
 * --chunks N,N,... cuts the input into fragments of these sizes, in turn (the tests feed
 * it one octet at a time, or cut it at random points); otherwise a fragment is what one
 * read returns.  --framed reads PER PDUs behind a 4-octet length (docs/selection.md).
 * --max-pdu is the largest PDU accepted: 16 MiB by default, no limit under --walk (a
 * walked PDU is not held whole).  --stats writes to standard error the PDUs and elements,
 * and the most memory that the arena and the input held.
 *
 * Build it with a spec generated under the name `streamspec` (the Makefile here does).
 * It is a POSIX program: read(2) for fragments as they come, mmap(2) and madvise(2) for
 * walked PDUs; the runtime itself needs none of them.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "streamspec.h"

static const asn1h_type *find_type(const char *path)
{
    return asn1h_find_type(&streamspec_spec.spec, path);
}

/* ---- Where the octets come from ------------------------------------------------------- */

typedef struct source {
    int fd;
    const uint8_t *data;                    /* --chunks: the input, read whole */
    size_t size, at;
    size_t chunks[64], nchunks, next_chunk;
} source;

/* The next fragment, up to cap octets; 0 at the end. */
static size_t source_read(source *s, uint8_t *buf, size_t cap)
{
    size_t n;
    if (s->data) {
        n = s->chunks[s->next_chunk++ % s->nchunks];
        if (n > cap)
            n = cap;
        if (n > s->size - s->at)
            n = s->size - s->at;
        memcpy(buf, s->data + s->at, n);
        s->at += n;
        return n;
    }
    {
        ssize_t r = read(s->fd, buf, cap);
        return r > 0 ? (size_t)r : 0;
    }
}

static uint8_t *read_whole(int fd, size_t *size)
{
    uint8_t *buf = NULL, *grown;
    size_t cap = 0;
    source s;
    memset(&s, 0, sizeof s);
    s.fd = fd;
    *size = 0;
    for (;;) {
        size_t n;
        if (*size == cap) {
            cap = cap ? cap * 2 : 65536;
            if (!(grown = (uint8_t *)realloc(buf, cap))) {
                free(buf);
                return NULL;
            }
            buf = grown;
        }
        if ((n = source_read(&s, buf + *size, cap - *size)) == 0)
            return buf;
        *size += n;
    }
}

/* ---- Decoding and printing ------------------------------------------------------------ */

typedef struct walk_input walk_input;

typedef struct job {
    const char *file;
    const asn1h_type *type;
    const asn1h_type *element;              /* --walk: the list's element type */
    asn1h_walk walk;
    asn1h_decode_opts opts;
    asn1h_arena arena;
    void *value;
    int framed, quiet;
    size_t offset;                          /* of the PDU in the input */
    unsigned long pdus;
    size_t arena_peak, input_peak;
    walk_input *input;                      /* --walk: the PDU being walked */
} job;

static int print_element(void *ctx, const void *value, size_t index, const uint8_t *tlv,
                         size_t len)
{
    job *j = (job *)ctx;
    (void)index;
    (void)tlv;
    (void)len;
    if (!j->quiet && (asn1h_print_jer(stdout, j->element, value) || putchar('\n') == EOF))
        return ASN1H_WALK_STOP;
    return ASN1H_WALK_NEXT;
}

static int report(const job *j, const asn1h_error *err)
{
    char message[512];
    asn1h_error_format(err, message, sizeof message);
    fprintf(stderr, "%s:%lu: %s\n", j->file, (unsigned long)(j->offset + err->offset), message);
    return 1;
}

/* asn1h_stream's callback: one PDU, whole in pdu[0..len). */
static int decode_pdu(void *ctx, const uint8_t *pdu, size_t len)
{
    job *j = (job *)ctx;
    asn1h_error err;
    size_t prefix = j->framed ? 4 : 0;
    asn1h_arena_reset(&j->arena);
    j->offset += prefix;
    if (asn1h_decode(j->type, j->value, pdu, len, &j->arena, &j->opts, NULL, &err) != ASN1H_OK)
        return report(j, &err);
    if (asn1h_arena_used(&j->arena) > j->arena_peak)
        j->arena_peak = asn1h_arena_used(&j->arena);
    j->pdus++;
    j->offset += len;
    if (!j->quiet && (asn1h_print_jer(stdout, j->type, j->value) || putchar('\n') == EOF))
        return 1;
    return fflush(stdout) != 0;
}

static int stream_pdus(job *j, source *src, size_t max_pdu)
{
    static uint8_t fragment[65536];
    asn1h_stream stream;
    asn1h_error err;
    asn1h_code code = ASN1H_OK;
    size_t n;

    asn1h_stream_init(&stream, j->framed ? ASN1H_FRAME_LEN32 : ASN1H_FRAME_BER, max_pdu);
    while (code == ASN1H_OK && (n = source_read(src, fragment, sizeof fragment)) > 0) {
        code = asn1h_stream_feed(&stream, fragment, n, decode_pdu, j, NULL, &err);
        if (stream.cap > j->input_peak)
            j->input_peak = stream.cap;
    }
    if (code == ASN1H_OK)
        code = asn1h_stream_end(&stream, &err);
    asn1h_stream_free(&stream);
    if (code == ASN1H_ERR_STOPPED)
        return 1;                           /* decode_pdu has said why */
    if (code != ASN1H_OK) {
        fprintf(stderr, "%s:%lu: %s\n", j->file, (unsigned long)err.offset,
                asn1h_strerror(code));
        return 1;
    }
    if (j->pdus == 0) {
        char name[ASN1H_NAME_MAX];
        fprintf(stderr, "%s:0: empty: no %s in it\n", j->file,
                asn1h_type_name(j->type, name, sizeof name));
        return 1;
    }
    return 0;
}

/* ---- Walking PDUs as they arrive -----------------------------------------------------
 *
 * A walked PDU may be far larger than memory should hold (a CRL with a million entries).
 * Its header gives its length, which reserves its address space at once, so that the
 * decoder's pointers into it stay valid while its octets arrive.  The decode starts on a
 * prefix; the walk pulls each element before reading it and releases it after its
 * callback, and the pages of released elements go back to the system.  What stays
 * resident is the prefix, one element, and what follows the list.  A PDU whose list
 * starts beyond the prefix is decoded again on twice as much, before any element was
 * handed over. */

#define PREFIX 65536u

struct walk_input {
    source *src;
    uint8_t *pdu;
    size_t len, have;                       /* the PDU's octets, and how many are in */
    int mapped, ended;
    size_t page;                            /* the system's page size */
    const uint8_t *list, *released;         /* the list's start; pages given back below */
};

static int fill(job *j, walk_input *w, size_t upto)
{
    size_t resident;
    while (w->have < upto) {                /* read ahead: a read per element is slow */
        size_t want = upto - w->have < 65536 ? 65536 : upto - w->have;
        size_t n = source_read(w->src, w->pdu + w->have,
                               want < w->len - w->have ? want : w->len - w->have);
        if (n == 0) {
            w->ended = 1;
            return 0;
        }
        w->have += n;
    }
    resident = w->have - (w->list ? (size_t)(w->released - w->list) : 0);
    if (resident > j->input_peak)
        j->input_peak = resident;
    return 1;
}

static int pull(void *ctx, const uint8_t *upto)
{
    job *j = (job *)ctx;
    walk_input *w = j->input;
    size_t at = (size_t)(upto - w->pdu);
    if (at <= w->have && w->list)
        return 1;                           /* in already: the usual case */
    if (!w->list) {                         /* the list starts here */
        if (at > w->have)
            return 0;                       /* the decoder read beyond what was in */
        w->list = w->released = upto;
    }
    return fill(j, w, at);
}

static void release(void *ctx, const uint8_t *upto)
{
    job *j = (job *)ctx;
    walk_input *w = j->input;
    if (w->mapped && (size_t)(upto - w->released) >= 17 * w->page) {  /* in batches */
        uintptr_t from = ((uintptr_t)w->released + w->page - 1) / w->page * w->page;
        uintptr_t to = (uintptr_t)upto / w->page * w->page;
        madvise((void *)from, to - from, MADV_DONTNEED);
        w->released = (const uint8_t *)to;
    }
}

static int next_octet(source *src, uint8_t *h, size_t *n)
{
    if (*n >= 16 || source_read(src, h + *n, 1) != 1)
        return 0;
    (*n)++;
    return 1;
}

/* A PDU's header, into h[0..*n): 1 with its whole length in *total, 0 at the clean end
 * of the input, -1 when it ends inside the header, -2 for an indefinite length. */
static int read_header(source *src, uint8_t *h, size_t *n, size_t *total)
{
    size_t len = 0, k;
    *n = 0;
    if (!next_octet(src, h, n))
        return 0;
    if ((h[0] & 0x1F) == 0x1F)              /* a tag number in several octets */
        do {
            if (!next_octet(src, h, n))
                return -1;
        } while ((h[*n - 1] & 0x80) && *n < 6);
    if (!next_octet(src, h, n))
        return -1;
    if (h[*n - 1] == 0x80)
        return -2;
    if (h[*n - 1] < 0x80) {
        len = h[*n - 1];
    } else {
        for (k = h[*n - 1] & 0x7Fu; k > 0; k--) {
            if (!next_octet(src, h, n) || len >> (8 * sizeof len - 8))
                return -1;
            len = len << 8 | h[*n - 1];
        }
    }
    *total = *n + len;
    return *total >= len ? 1 : -1;
}

static int walk_one(job *j, walk_input *w, const uint8_t *header, size_t hlen)
{
    asn1h_error err;
    asn1h_code code;
    size_t prefix;

    memcpy(w->pdu, header, hlen);
    w->have = hlen;
    /* The decode's result holds when the walk began (everything before the list was in,
     * and the walk pulled the rest), or else on the whole PDU: a value read before its
     * octets were in would be zeros. */
    for (prefix = PREFIX;; prefix *= 2) {
        fill(j, w, prefix < w->len ? prefix : w->len);
        w->list = w->released = NULL;
        asn1h_arena_reset(&j->arena);
        code = asn1h_decode(j->type, j->value, w->pdu, w->len, &j->arena, &j->opts, NULL, &err);
        if (w->list || w->have == w->len || w->ended)
            break;
    }
    if (code != ASN1H_OK && w->ended && err.offset >= w->have) {
        fprintf(stderr, "%s:%lu: input ends inside a value\n", j->file,
                (unsigned long)(j->offset + w->have));
        return 1;
    }
    if (code != ASN1H_OK)
        return report(j, &err);
    if (asn1h_arena_used(&j->arena) > j->arena_peak)
        j->arena_peak = asn1h_arena_used(&j->arena);
    j->pdus++;
    j->offset += w->len;
    return fflush(stdout) != 0;
}

static int walk_pdus(job *j, source *src, size_t max_pdu)
{
    static uint8_t small[PREFIX];           /* PDUs that fit need no reservation */
    uint8_t header[16];
    size_t hlen, total;
    int r, status = 0;

    while (status == 0 && (r = read_header(src, header, &hlen, &total)) != 0) {
        walk_input w;
        if (r < 0 || total > max_pdu) {
            fprintf(stderr, "%s:%lu: %s\n", j->file, (unsigned long)j->offset,
                    r == -2 ? "an indefinite-length PDU cannot be walked as it arrives"
                    : r < 0 ? "input ends inside a value" : "PDU larger than the maximum");
            return 1;
        }
        memset(&w, 0, sizeof w);
        w.src = src;
        w.len = total;
        w.page = (size_t)sysconf(_SC_PAGESIZE);
        w.pdu = small;
        if (total > sizeof small) {
            void *m = mmap(NULL, total, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            w.pdu = m == MAP_FAILED ? NULL : (uint8_t *)m;
            w.mapped = w.pdu != NULL;
            if (!w.pdu)
                w.pdu = (uint8_t *)malloc(total);
            if (!w.pdu) {
                fprintf(stderr, "%s: out of memory\n", j->file);
                return 1;
            }
        }
        j->input = &w;
        status = walk_one(j, &w, header, hlen);
        if (w.mapped)
            munmap(w.pdu, total);
        else if (w.pdu != small)
            free(w.pdu);
    }
    if (status == 0 && j->pdus == 0) {
        char name[ASN1H_NAME_MAX];
        fprintf(stderr, "%s:0: empty: no %s in it\n", j->file,
                asn1h_type_name(j->type, name, sizeof name));
        return 1;
    }
    return status;
}

/* ---- Command line --------------------------------------------------------------------- */

static int usage(const char *program)
{
    fprintf(stderr, "usage: %s -p Module.Type [--walk Module.Type.list] [-o jer|null] [--framed]\n"
                    "       [--max-pdu BYTES] [--max-memory BYTES] [--chunks N,N,...] [--stats]"
                    " [FILE]\n", program);
    return 2;
}

static int parse_chunks(source *s, const char *list)
{
    char *end;
    s->nchunks = 0;
    while (*list && s->nchunks < sizeof s->chunks / sizeof s->chunks[0]) {
        unsigned long n = strtoul(list, &end, 10);
        if (end == list || n == 0)
            return 0;
        s->chunks[s->nchunks++] = n;
        list = *end == ',' ? end + 1 : end;
    }
    return s->nchunks > 0 && *list == 0;
}

int main(int argc, char **argv)
{
    static job j;
    source src;
    const char *walked = NULL, *chunks = NULL;
    size_t max_pdu = 0, max_memory = (size_t)1 << 30;
    int i, stats = 0, status;
    uint8_t *whole = NULL;

    memset(&src, 0, sizeof src);
    j.file = "-";
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-p") == 0 && i + 1 < argc) {
            if (!(j.type = find_type(argv[++i]))) {
                fprintf(stderr, "%s: no type %s\n", argv[0], argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--walk") == 0 && i + 1 < argc) {
            walked = argv[++i];
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            j.quiet = strcmp(argv[++i], "null") == 0;
            if (!j.quiet && strcmp(argv[i], "jer") != 0)
                return usage(argv[0]);
        } else if (strcmp(a, "--framed") == 0) {
            j.framed = 1;
        } else if (strcmp(a, "--max-pdu") == 0 && i + 1 < argc) {
            max_pdu = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (strcmp(a, "--max-memory") == 0 && i + 1 < argc) {
            max_memory = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (strcmp(a, "--chunks") == 0 && i + 1 < argc) {
            chunks = argv[++i];
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (a[0] == '-' && a[1] != 0) {
            return usage(argv[0]);
        } else if (i + 1 == argc) {
            j.file = a;
        } else {
            return usage(argv[0]);
        }
    }
    if (!j.type || (chunks && !parse_chunks(&src, chunks)))
        return usage(argv[0]);
    if (max_pdu == 0)       /* a walked PDU is never held whole: only address space */
        max_pdu = walked ? SIZE_MAX / 4 : (size_t)16 << 20;
    if (walked) {
        const asn1h_type *list = find_type(walked);
        const asn1h_spec *spec;
        if (!list || (list->kind != ASN1H_SEQUENCE_OF && list->kind != ASN1H_SET_OF)) {
            fprintf(stderr, "%s: %s is not a SEQUENCE OF or SET OF type\n", argv[0], walked);
            return 2;
        }
        if (j.framed) {
            fprintf(stderr, "%s: --walk reads BER PDUs, not PER ones\n", argv[0]);
            return 2;
        }
        spec = asn1h_spec_of(list);
        j.element = &asn1h_spec_types(spec)[spec->members[list->first].type];
        asn1h_walk_init(&j.walk, list, print_element, &j);
        j.walk.pull = pull;
        j.walk.release = release;
        j.opts.walk = &j.walk;
    }
    if (strcmp(j.file, "-") != 0) {
        FILE *f = fopen(j.file, "rb");
        if (!f) {
            perror(j.file);
            return 1;
        }
        src.fd = dup(fileno(f));
        fclose(f);
    }
    if (chunks) {                           /* the input whole, cut as asked */
        if (!(whole = read_whole(src.fd, &src.size))) {
            fprintf(stderr, "%s: out of memory\n", argv[0]);
            return 1;
        }
        src.data = whole;
    }
    asn1h_arena_init(&j.arena, NULL, 0, max_memory);
    if (!(j.value = malloc(j.type->size))) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    status = walked ? walk_pdus(&j, &src, max_pdu) : stream_pdus(&j, &src, max_pdu);
    if (j.walk.high_water > j.arena_peak)     /* measured at each element's callback */
        j.arena_peak = j.walk.high_water;
    if (stats)
        fprintf(stderr, "pdus %lu elements %lu arena_peak %lu input_peak %lu\n", j.pdus,
                (unsigned long)j.walk.count, (unsigned long)j.arena_peak,
                (unsigned long)j.input_peak);
    asn1h_arena_free(&j.arena);
    free(j.value);
    free(whole);
    return status;
}
