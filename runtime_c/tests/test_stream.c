/* test_stream.c: the stream framer (asn1h_stream), arena scopes and element-wise walks.
 * The PDUs are written out by hand from X.690 (8.1.3: definite lengths in short and long
 * form, indefinite ones closed by 00 00). */
#include <stdlib.h>

#include "check.h"
#include "tests.h"
#include "types.h"

/* What a feed handed over: the PDUs, one after another, and how many. */
typedef struct collected {
    uint8_t bytes[512];
    size_t len, count, stop_after;
} collected;

static int collect(void *ctx, const uint8_t *pdu, size_t len)
{
    collected *c = (collected *)ctx;
    if (c->len + len <= sizeof c->bytes) {
        memcpy(c->bytes + c->len, pdu, len);
        c->len += len;
    }
    c->count++;
    return c->stop_after && c->count == c->stop_after;
}

/* Three PDUs: definite short form; indefinite with a nested indefinite and a definite
 * element inside; definite long form (81 82) around 130 octets. */
static size_t three_pdus(uint8_t *b)
{
    size_t n = 0, i;
    static const uint8_t first[] = {0x02, 0x01, 0x05};
    static const uint8_t second[] = {0x30, 0x80, 0x30, 0x80, 0x04, 0x02, 0x00, 0x00,
                                      0x00, 0x00, 0x02, 0x01, 0x07, 0x00, 0x00};
    memcpy(b + n, first, sizeof first);
    n += sizeof first;
    memcpy(b + n, second, sizeof second);
    n += sizeof second;
    b[n++] = 0x04;
    b[n++] = 0x81;
    b[n++] = 130;
    for (i = 0; i < 130; i++)
        b[n++] = (uint8_t)i;
    return n;
}

/* Every way of cutting the stream in two, and one octet at a time: the same PDUs. */
void test_stream_fragments(void)
{
    uint8_t b[256];
    size_t n = three_pdus(b), cut, i, used;
    asn1h_stream s;
    collected c;
    asn1h_error err;

    for (cut = 0; cut <= n; cut++) {
        memset(&c, 0, sizeof c);
        asn1h_stream_init(&s, ASN1H_FRAME_BER, 1000);
        CHECK_EQ(asn1h_stream_feed(&s, b, cut, collect, &c, &used, &err), ASN1H_OK);
        CHECK_EQ(used, cut);
        CHECK_EQ(asn1h_stream_feed(&s, b + cut, n - cut, collect, &c, NULL, &err), ASN1H_OK);
        CHECK_EQ(asn1h_stream_end(&s, &err), ASN1H_OK);
        CHECK_EQ(c.count, 3);
        CHECK(c.len == n && memcmp(c.bytes, b, n) == 0);
        asn1h_stream_free(&s);
    }
    memset(&c, 0, sizeof c);
    asn1h_stream_init(&s, ASN1H_FRAME_BER, 1000);
    for (i = 0; i < n; i++) {
        CHECK_EQ(asn1h_stream_feed(&s, b + i, 1, collect, &c, NULL, &err), ASN1H_OK);
        /* each PDU as soon as its last octet is in: after octets 3, 18 and n */
        CHECK_EQ(c.count, (i + 1 >= 3) + (i + 1 >= 18) + (i + 1 >= n));
    }
    CHECK(c.len == n && memcmp(c.bytes, b, n) == 0);
    /* only the incomplete PDU is buffered: never more than the largest, 133 octets */
    CHECK(s.cap <= 256);
    asn1h_stream_free(&s);
}

/* A PDU cut short, one whose length is too big, and what the stream does after. */
void test_stream_errors(void)
{
    uint8_t b[256];
    size_t n = three_pdus(b), used;
    asn1h_stream s;
    collected c;
    asn1h_error err;

    /* truncated: the end comes inside the third PDU, after 18 + 10 octets */
    memset(&c, 0, sizeof c);
    asn1h_stream_init(&s, ASN1H_FRAME_BER, 1000);
    CHECK_EQ(asn1h_stream_feed(&s, b, 28, collect, &c, NULL, &err), ASN1H_OK);
    CHECK_EQ(asn1h_stream_end(&s, &err), ASN1H_ERR_TRUNCATED);
    CHECK_EQ(err.offset, 28);
    CHECK_EQ(c.count, 2);
    asn1h_stream_free(&s);

    /* the third PDU (133 octets) over a maximum of 100: refused from its header, at
     * offset 18; skip drops it, and the stream goes on with the next PDU */
    memset(&c, 0, sizeof c);
    asn1h_stream_init(&s, ASN1H_FRAME_BER, 100);
    CHECK_EQ(asn1h_stream_feed(&s, b, n, collect, &c, &used, &err), ASN1H_ERR_TOO_BIG);
    CHECK_EQ(err.offset, 18);
    CHECK_EQ(used, 18);
    CHECK_EQ(c.count, 2);
    CHECK_EQ(asn1h_stream_feed(&s, b + used, 1, collect, &c, NULL, &err), ASN1H_ERR_TOO_BIG);
    CHECK_EQ(asn1h_stream_skip(&s), ASN1H_OK);
    CHECK_EQ(asn1h_stream_feed(&s, b + used, n - used, collect, &c, NULL, &err), ASN1H_OK);
    CHECK_EQ(asn1h_stream_feed(&s, b, 3, collect, &c, NULL, &err), ASN1H_OK);
    CHECK_EQ(c.count, 3);
    CHECK(c.len == 21 && memcmp(c.bytes + 18, b, 3) == 0);
    asn1h_stream_free(&s);

    /* an indefinite length that never ends: refused once it passes the maximum, and the
     * stream holds no more than that */
    {
        uint8_t open[64];
        size_t i;
        asn1h_code code = ASN1H_OK;
        memset(&c, 0, sizeof c);
        asn1h_stream_init(&s, ASN1H_FRAME_BER, 40);
        for (i = 0; i < sizeof open; i += 2) {
            open[i] = 0x30;
            open[i + 1] = 0x80;
        }
        for (i = 0; i < 10 && code == ASN1H_OK; i++)
            code = asn1h_stream_feed(&s, open, sizeof open, collect, &c, NULL, &err);
        CHECK_EQ(code, ASN1H_ERR_TOO_BIG);
        CHECK(s.len <= 40 + 16);
        CHECK_EQ(asn1h_stream_skip(&s), ASN1H_ERR_TOO_BIG);     /* no end to skip to */
        asn1h_stream_reset(&s);
        CHECK_EQ(asn1h_stream_feed(&s, b, 3, collect, &c, NULL, &err), ASN1H_OK);
        CHECK_EQ(c.count, 1);
        asn1h_stream_free(&s);
    }

    /* garbage between PDUs: end-of-contents octets where a PDU starts, a length of
     * 0xFF, a primitive value with an indefinite length */
    {
        static const uint8_t garbage[][5] = {
            {0x02, 0x01, 0x05, 0x00, 0x00}, {0x02, 0x01, 0x05, 0x04, 0xFF},
            {0x02, 0x01, 0x05, 0x04, 0x80},
        };
        static const asn1h_code codes[] = {ASN1H_ERR_TAG, ASN1H_ERR_LENGTH, ASN1H_ERR_FORM};
        size_t k;
        for (k = 0; k < 3; k++) {
            memset(&c, 0, sizeof c);
            asn1h_stream_init(&s, ASN1H_FRAME_BER, 100);
            CHECK_EQ(asn1h_stream_feed(&s, garbage[k], 5, collect, &c, &used, &err), codes[k]);
            CHECK_EQ(err.offset, 3);
            CHECK_EQ(used, 3);
            CHECK_EQ(c.count, 1);
            /* and it stays failed until reset */
            CHECK_EQ(asn1h_stream_feed(&s, b, 3, collect, &c, NULL, &err), codes[k]);
            asn1h_stream_free(&s);
        }
    }
}

/* The PER trace framing: a 4-octet length, then the PDU, which is handed over alone;
 * and a callback that stops the feed. */
void test_stream_len32_and_stop(void)
{
    static const uint8_t frames[] = {0, 0, 0, 2, 0xAB, 0xCD, 0, 0, 0, 0, 0, 0, 0, 1, 0x42};
    size_t i, used;
    asn1h_stream s;
    collected c;
    asn1h_error err;

    memset(&c, 0, sizeof c);
    asn1h_stream_init(&s, ASN1H_FRAME_LEN32, 100);
    for (i = 0; i < sizeof frames; i++)
        CHECK_EQ(asn1h_stream_feed(&s, frames + i, 1, collect, &c, NULL, &err), ASN1H_OK);
    CHECK_EQ(c.count, 3);
    CHECK_BYTES(c.bytes, c.len, "\xAB\xCD\x42");
    asn1h_stream_free(&s);

    memset(&c, 0, sizeof c);
    c.stop_after = 1;
    asn1h_stream_init(&s, ASN1H_FRAME_LEN32, 100);
    CHECK_EQ(asn1h_stream_feed(&s, frames, sizeof frames, collect, &c, &used, &err),
             ASN1H_ERR_STOPPED);
    CHECK_EQ(used, 6);
    CHECK_EQ(c.count, 1);
    c.stop_after = 0;
    CHECK_EQ(asn1h_stream_feed(&s, frames + used, sizeof frames - used, collect, &c, NULL,
                               &err), ASN1H_OK);
    CHECK_EQ(c.count, 3);
    asn1h_stream_free(&s);

    /* a frame longer than the maximum, refused from its prefix */
    asn1h_stream_init(&s, ASN1H_FRAME_LEN32, 5);
    CHECK_EQ(asn1h_stream_feed(&s, (const uint8_t *)"\0\0\0\x10", 4, collect, &c, NULL, &err),
             ASN1H_ERR_TOO_BIG);
    asn1h_stream_free(&s);
}

/* Scopes: a rollback frees what the scope took, zeroed, in the caller's buffer and over
 * heap blocks; the kept block serves the next scope without a heap call. */
void test_arena_scopes(void)
{
    static union { uint64_t align; uint8_t bytes[256]; } buffer;
    asn1h_arena a;
    asn1h_arena_mark m;
    uint8_t *p, *q;
    unsigned long before;
    int round;

    asn1h_arena_init(&a, buffer.bytes, sizeof buffer.bytes, 1 << 20);
    CHECK(asn1h_arena_alloc(&a, 16) != NULL);
    CHECK_EQ(asn1h_arena_used(&a), 16);
    asn1h_arena_save(&a, &m);
    p = (uint8_t *)asn1h_arena_alloc(&a, 64);
    memset(p, 0xAB, 64);
    CHECK_EQ(asn1h_arena_used(&a), 80);
    asn1h_arena_rollback(&a, &m);
    CHECK_EQ(asn1h_arena_used(&a), 16);
    q = (uint8_t *)asn1h_arena_alloc(&a, 64);
    CHECK(q == p && q[0] == 0 && q[63] == 0);
    asn1h_arena_rollback(&a, &m);

    /* a scope larger than the buffer's rest takes a heap block; later scopes reuse it */
    for (round = 0; round < 3; round++) {
        before = heap_calls;
        p = (uint8_t *)asn1h_arena_alloc(&a, 200);
        q = (uint8_t *)asn1h_arena_alloc(&a, 200);
        CHECK(p && q && p[0] == 0 && q[199] == 0);
        memset(p, 0xAB, 200);
        memset(q, 0xAB, 200);
        CHECK_EQ(heap_calls - before, round == 0 ? 1 : 0);
        asn1h_arena_rollback(&a, &m);
    }
    CHECK(a.blocks != NULL && a.heap_used == ASN1H_ARENA_BLOCK);
    asn1h_arena_reset(&a);
    CHECK(buffer.bytes[16] == 0 && buffer.bytes[255] == 0);
    asn1h_arena_free(&a);
}

/* What a walk saw: the elements' values and encodings. */
typedef struct seen {
    int64_t values[8];
    size_t count, bytes;
    int answer;                     /* what the callback returns from the second on */
} seen;

static int on_int(void *ctx, const void *value, size_t index, const uint8_t *tlv, size_t len)
{
    seen *s = (seen *)ctx;
    CHECK_EQ(index, s->count);
    CHECK(tlv[0] == 0x02);
    s->values[s->count++ % 8] = ((const asn1h_int *)value)->v;
    s->bytes += len;
    return s->count >= 2 ? s->answer : ASN1H_WALK_NEXT;
}

static int on_int_any(void *ctx, const void *value, size_t index, const uint8_t *tlv,
                      size_t len)
{
    seen *s = (seen *)ctx;
    (void)index;
    (void)tlv;
    (void)len;
    s->values[s->count++ % 8] = ((const asn1h_int *)value)->v;
    return ASN1H_WALK_NEXT;
}

/* A walked list hands each element over and stays empty; the callback can skip the rest
 * (the decode goes on) or stop it (ASN1H_ERR_STOPPED, with the element's path). */
void test_walk_list(void)
{
    static const uint8_t list[] = {0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02,
                                   0x02, 0x01, 0x03};
    asn1h_arena a;
    asn1h_walk w;
    asn1h_decode_opts opts;
    asn1h_error err;
    Ints ints;
    seen s;
    size_t used;
    char message[128];

    asn1h_arena_init(&a, NULL, 0, 1 << 20);
    memset(&opts, 0, sizeof opts);
    opts.walk = &w;
    memset(&s, 0, sizeof s);
    asn1h_walk_init(&w, &IntList_type, on_int, &s);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, list, sizeof list, &a, &opts, &used, &err),
             ASN1H_OK);
    CHECK_EQ(used, sizeof list);
    CHECK(ints.count == 0 && ints.items == NULL);
    CHECK_EQ(s.count, 3);
    CHECK_EQ(w.count, 3);
    CHECK(s.values[0] == 1 && s.values[1] == 2 && s.values[2] == 3);
    CHECK_EQ(s.bytes, 9);

    memset(&s, 0, sizeof s);
    s.answer = ASN1H_WALK_SKIP;
    asn1h_walk_init(&w, &IntList_type, on_int, &s);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, list, sizeof list, &a, &opts, &used, &err),
             ASN1H_OK);
    CHECK_EQ(used, sizeof list);
    CHECK_EQ(s.count, 2);

    memset(&s, 0, sizeof s);
    s.answer = ASN1H_WALK_STOP;
    asn1h_walk_init(&w, &IntList_type, on_int, &s);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, list, sizeof list, &a, &opts, &used, &err),
             ASN1H_ERR_STOPPED);
    CHECK_EQ(s.count, 2);
    asn1h_error_format(&err, message, sizeof message);
    CHECK(strcmp(message, "T.IntList[1]: stopped by the caller") == 0);

    /* a malformed element is reported as without the walk */
    memset(&s, 0, sizeof s);
    asn1h_walk_init(&w, &IntList_type, on_int, &s);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, LIT("\x30\x06\x02\x01\x01\x04\x01\x03"), &a,
                          &opts, NULL, &err), ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 5);
    asn1h_arena_free(&a);
}

static int inside(const void *p, const uint8_t *buf, size_t len)
{
    return (const uint8_t *)p >= buf && (const uint8_t *)p < buf + len;
}

/* Records with an octet string, a bit string, a big integer and an unknown extension:
 * decoded by asn1h_decode_owned, nothing points into the input, and asn1h_copy makes a
 * value that points only into its arena; both equal the value decoded in place. */
void test_owned_values(void)
{
    /* SEQUENCE OF { Record { id 2^72 + 1 (10 octets), data [0] "ab", bits [1] { 03 '101'B },
     * an unknown addition [9] 01 } } */
    static const uint8_t pdu[] = {
        0x30, 0x1B, 0x30, 0x19,
        0x02, 0x0A, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
        0x80, 0x02, 'a', 'b',
        0xA1, 0x04, 0x03, 0x02, 0x05, 0xA0,
        0x89, 0x01, 0x01};
    uint8_t *input = (uint8_t *)malloc(sizeof pdu);
    asn1h_arena in_place, owned, copied;
    asn1h_error err;
    Records a, b, c;
    size_t used;

    asn1h_arena_init(&in_place, NULL, 0, 1 << 20);
    asn1h_arena_init(&owned, NULL, 0, 1 << 20);
    asn1h_arena_init(&copied, NULL, 0, 1 << 20);
    CHECK_EQ(asn1h_decode(&Records_type, &a, pdu, sizeof pdu, &in_place, NULL, &used, &err),
             ASN1H_OK);
    CHECK_EQ(used, sizeof pdu);
    CHECK(a.count == 1 && a.items[0].id.big_len == 10 && a.items[0].unknown_.len == 3);
    CHECK(inside(a.items[0].data.buf, pdu, sizeof pdu));

    memcpy(input, pdu, sizeof pdu);
    CHECK_EQ(asn1h_decode_owned(&Records_type, &b, input, sizeof pdu, &owned, NULL, &used,
                                &err), ASN1H_OK);
    CHECK_EQ(used, sizeof pdu);
    CHECK(!inside(b.items[0].id.big, input, sizeof pdu));
    CHECK(!inside(b.items[0].data.buf, input, sizeof pdu));
    CHECK(!inside(b.items[0].bits.buf, input, sizeof pdu));
    CHECK(!inside(b.items[0].unknown_.buf, input, sizeof pdu));

    CHECK_EQ(asn1h_copy(&Records_type, &c, &a, &copied), ASN1H_OK);
    CHECK(c.items != a.items);
    CHECK(!inside(c.items[0].id.big, pdu, sizeof pdu));
    CHECK(!inside(c.items[0].data.buf, pdu, sizeof pdu));
    CHECK(!inside(c.items[0].bits.buf, pdu, sizeof pdu));
    CHECK(!inside(c.items[0].unknown_.buf, pdu, sizeof pdu));

    memset(input, 0xA5, sizeof pdu);        /* the input is gone */
    free(input);
    CHECK(asn1h_equal(&Records_type, &a, &b));
    CHECK(asn1h_equal(&Records_type, &a, &c));
    CHECK_BYTES(b.items[0].data.buf, b.items[0].data.len, "ab");
    CHECK_BYTES(c.items[0].unknown_.buf, c.items[0].unknown_.len, "\x89\x01\x01");

    /* a full arena: asn1h_copy says so */
    {
        static union { uint64_t align; uint8_t bytes[24]; } tiny;
        asn1h_arena small;
        asn1h_arena_init(&small, tiny.bytes, sizeof tiny.bytes, 0);
        CHECK_EQ(asn1h_copy(&Records_type, &c, &a, &small), ASN1H_ERR_MEMORY);
    }
    asn1h_arena_free(&in_place);
    asn1h_arena_free(&owned);
    asn1h_arena_free(&copied);
}

/* Types by name: named types, components, list elements; nothing else. */
void test_find_type(void)
{
    const asn1h_spec *spec = &T_spec.spec;
    CHECK(asn1h_find_type(spec, "T.Records") == &Records_type);
    CHECK(asn1h_find_type(spec, "T.Records.*") == &Record_type);
    CHECK(asn1h_find_type(spec, "T.Records.*.data") == &Octets_type);
    CHECK(asn1h_find_type(spec, "T.Record.bits") == &Bits_type);
    CHECK(asn1h_find_type(spec, "T.Record.nothing") == NULL);
    CHECK(asn1h_find_type(spec, "T.Record.id.more") == NULL);
    CHECK(asn1h_find_type(spec, "T.Records.data") == NULL);
    CHECK(asn1h_find_type(spec, "T.Nothing") == NULL);
    CHECK(asn1h_find_type(spec, "T.Record.") == NULL);
    CHECK(asn1h_find_type(spec, "") == NULL);
}

/* A walk inside a stream's callback: each PDU as it completes, its list element-wise. */
typedef struct walked_stream {
    asn1h_arena arena;
    asn1h_walk walk;
    asn1h_decode_opts opts;
    seen elements;
    unsigned pdus;
} walked_stream;

static int decode_walked(void *ctx, const uint8_t *pdu, size_t len)
{
    walked_stream *ws = (walked_stream *)ctx;
    Ints ints;
    asn1h_error err;
    size_t used;
    asn1h_arena_reset(&ws->arena);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, pdu, len, &ws->arena, &ws->opts, &used, &err),
             ASN1H_OK);
    CHECK_EQ(used, len);
    ws->pdus++;
    return 0;
}

void test_walk_from_a_stream(void)
{
    /* three lists, the second indefinite: {1 2} {3} {4 5 6} */
    static const uint8_t lists[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02,
                                    0x30, 0x80, 0x02, 0x01, 0x03, 0x00, 0x00,
                                    0x30, 0x09, 0x02, 0x01, 0x04, 0x02, 0x01, 0x05,
                                    0x02, 0x01, 0x06};
    walked_stream ws;
    asn1h_stream s;
    asn1h_error err;
    size_t i;

    memset(&ws, 0, sizeof ws);
    asn1h_arena_init(&ws.arena, NULL, 0, 1 << 20);
    ws.opts.walk = &ws.walk;
    asn1h_walk_init(&ws.walk, &IntList_type, on_int_any, &ws.elements);
    asn1h_stream_init(&s, ASN1H_FRAME_BER, 64);
    for (i = 0; i < sizeof lists; i++)
        CHECK_EQ(asn1h_stream_feed(&s, lists + i, 1, decode_walked, &ws, NULL, &err), ASN1H_OK);
    CHECK_EQ(asn1h_stream_end(&s, &err), ASN1H_OK);
    CHECK_EQ(ws.pdus, 3);
    CHECK_EQ(ws.walk.count, 6);
    for (i = 0; i < 6; i++)
        CHECK_EQ(ws.elements.values[i], (long long)i + 1);
    asn1h_stream_free(&s);
    asn1h_arena_free(&ws.arena);
}
