/* fastpath_check.c: layout fast paths against the general decoder (tests/test_fast_paths.py).
 *
 *   fastpath_check TYPE [--strict-der] FILE
 *
 * FILE holds PDUs, each after a 4-octet big-endian length.  The same specification is
 * built twice: general.h (prefix g_, no fast paths) and fast.h (prefix f_, with them).
 * Each PDU is decoded by both, as TYPE ("Module.Type"): both must give the same result
 * code, error offset and error path, and a decoded value must DER-encode to the same
 * octets, whichever build's encoder writes the value the general decoder made.  Prints
 * "PDUS HITS ENCODE_HITS RESUMES" (PDUs that a fast path decoded, counted through
 * ASN1H_FAST_PATH_HIT; values that an encoding path wrote, through ASN1H_FAST_ENCODE_HIT,
 * two per PDU: the fast build's own value and the general decoder's; misses that a slot
 * tree resumed, through ASN1H_FAST_PATH_RESUMED) and a line per disagreement; exits 1 on
 * any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "general.h"
#include "fast.h"

unsigned long fast_path_hits, fast_encode_hits, fast_path_resumes;

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    *size = (size_t)n;
    if ((buf = (uint8_t *)malloc(*size ? *size : 1)) && fread(buf, 1, *size, f) != *size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

typedef struct outcome {
    asn1h_code code;
    char error[512];
    uint8_t der[65536];
    size_t der_len;
} outcome;

static void run(const asn1h_type *type, const asn1h_type *encoder, const uint8_t *pdu,
                size_t len, unsigned flags, outcome *out)
{
    static uint8_t value[1 << 16];
    asn1h_arena arena;
    asn1h_decode_opts opts;
    asn1h_error err;
    size_t used = 0;

    memset(&opts, 0, sizeof opts);
    opts.flags = flags;
    asn1h_arena_init(&arena, NULL, 0, (size_t)1 << 26);
    out->code = asn1h_decode(type, value, pdu, len, &arena, &opts, &used, &err);
    out->error[0] = 0;
    out->der_len = 0;
    if (out->code != ASN1H_OK)
        asn1h_error_format(&err, out->error, sizeof out->error);
    else if (used != len)
        snprintf(out->error, sizeof out->error, "%zu octets used of %zu", used, len);
    else if (asn1h_encode(encoder, value, out->der, sizeof out->der, &out->der_len, &err)
             != ASN1H_OK)
        asn1h_error_format(&err, out->error, sizeof out->error);
    asn1h_arena_free(&arena);
}

int main(int argc, char **argv)
{
    static outcome general, fast, cross;
    const asn1h_type *g, *f;
    unsigned flags = 0;
    unsigned long pdus = 0, bad = 0;
    size_t size, pos = 0;
    uint8_t *data;
    int arg = 2;

    if (argc > 3 && strcmp(argv[2], "--strict-der") == 0) {
        flags = ASN1H_DER;
        arg = 3;
    }
    if (argc != arg + 1) {
        fprintf(stderr, "usage: %s TYPE [--strict-der] FILE\n", argv[0]);
        return 2;
    }
    g = asn1h_find_type(&g_general_spec.spec, argv[1]);
    f = asn1h_find_type(&f_fast_spec.spec, argv[1]);
    if (!g || !f || !(data = read_file(argv[arg], &size))) {
        fprintf(stderr, "%s: no such type, or %s unreadable\n", argv[1], argv[arg]);
        return 2;
    }
    while (pos + 4 <= size) {
        size_t len = (size_t)data[pos] << 24 | (size_t)data[pos + 1] << 16
                     | (size_t)data[pos + 2] << 8 | data[pos + 3];
        const uint8_t *pdu = data + pos + 4;
        if (len > size - pos - 4)
            break;
        run(g, g, pdu, len, flags, &general);
        run(f, f, pdu, len, flags, &fast);
        run(g, f, pdu, len, flags, &cross);
        if (general.code != fast.code || strcmp(general.error, fast.error) != 0
            || general.der_len != fast.der_len
            || memcmp(general.der, fast.der, general.der_len) != 0
            || general.der_len != cross.der_len
            || memcmp(general.der, cross.der, general.der_len) != 0) {
            bad++;
            printf("PDU %lu: general %d \"%s\" (%zu octets of DER), fast %d \"%s\" (%zu)\n",
                   pdus, general.code, general.error, general.der_len, fast.code,
                   fast.error, fast.der_len);
        }
        pdus++;
        pos += 4 + len;
    }
    printf("%lu %lu %lu %lu\n", pdus, fast_path_hits, fast_encode_hits, fast_path_resumes);
    free(data);
    return bad ? 1 : 0;
}
