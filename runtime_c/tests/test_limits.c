/* test_limits.c: the nesting limit, on every way a message can nest: SEQUENCE through a
 * pointer, CHOICE through explicit tags, SEQUENCE OF, constructed strings, and unknown
 * extensions being skipped.  A message nested far deeper than the limit must give
 * ASN1H_ERR_DEPTH, not exhaust the stack. */
#include <stdlib.h>

#include "check.h"
#include "tests.h"
#include "types.h"

/* `levels` copies of `open`, then `middle`, then `levels` copies of `close`. */
static uint8_t *nest(size_t levels, const char *open, size_t open_len, const char *middle,
                     size_t middle_len, const char *close, size_t close_len, size_t *len)
{
    uint8_t *buf, *p;
    size_t i;
    *len = levels * (open_len + close_len) + middle_len;
    buf = p = (uint8_t *)malloc(*len ? *len : 1);
    for (i = 0; i < levels; i++, p += open_len)
        memcpy(p, open, open_len);
    memcpy(p, middle, middle_len);
    p += middle_len;
    for (i = 0; i < levels; i++, p += close_len)
        memcpy(p, close, close_len);
    return buf;
}

#define S(s) s, sizeof(s) - 1

/* Decodes `levels` of nesting with the given limit; returns the code. */
static asn1h_code nested(const asn1h_type *type, size_t levels, const char *open,
                         size_t open_len, const char *middle, size_t middle_len,
                         const char *close, size_t close_len, unsigned max_depth)
{
    static union { uint64_t align; uint8_t bytes[1 << 20]; } storage;
    uint8_t value[64];
    asn1h_arena a;
    asn1h_error err;
    asn1h_decode_opts opts = { 0, 0, NULL, NULL };
    size_t len;
    uint8_t *buf = nest(levels, open, open_len, middle, middle_len, close, close_len, &len);
    asn1h_code code;
    opts.max_depth = max_depth;
    asn1h_arena_init(&a, storage.bytes, sizeof storage.bytes, (size_t)64 << 20);
    code = asn1h_decode(type, value, buf, len, &a, &opts, NULL, &err);
    asn1h_arena_free(&a);
    free(buf);
    return code;
}

/* Chain ::= SEQUENCE { value INTEGER, next Chain OPTIONAL }: each level one SEQUENCE. */
void test_depth_sequence(void)
{
#define CHAIN(levels, limit) \
    nested(&Chain_type, levels, S("\x30\x80\x02\x01\x01"), S(""), S("\x00\x00"), limit)
    CHECK_EQ(CHAIN(5, 5), ASN1H_OK);
    CHECK_EQ(CHAIN(6, 5), ASN1H_ERR_DEPTH);
    CHECK_EQ(CHAIN(ASN1H_MAX_DEPTH, 0), ASN1H_OK);              /* 0: the default */
    CHECK_EQ(CHAIN(ASN1H_MAX_DEPTH + 1, 0), ASN1H_ERR_DEPTH);
    CHECK_EQ(CHAIN(1000, 1000), ASN1H_OK);
    CHECK_EQ(CHAIN(200000, 0), ASN1H_ERR_DEPTH);
#undef CHAIN
}

/* Tree ::= CHOICE { leaf NULL, node [0] EXPLICIT Tree }: no SEQUENCE at all, each level
 * one explicit tag.  An explicit tag is a constructed encoding like any other, so it counts
 * as a level. */
void test_depth_explicit_choice(void)
{
#define TREE(levels, limit) nested(&Tree_type, levels, S("\xA0\x80"), S("\x05\x00"), S("\x00\x00"), limit)
    CHECK_EQ(TREE(5, 5), ASN1H_OK);
    CHECK_EQ(TREE(6, 5), ASN1H_ERR_DEPTH);
    CHECK_EQ(TREE(ASN1H_MAX_DEPTH + 1, 0), ASN1H_ERR_DEPTH);
    CHECK_EQ(TREE(500000, 0), ASN1H_ERR_DEPTH);
#undef TREE
}

/* Nest ::= SEQUENCE OF Nest: each level one SEQUENCE OF, indefinite and definite. */
void test_depth_sequence_of(void)
{
    size_t levels, len, i;
    uint8_t *buf;
    CHECK_EQ(nested(&Nest_type, 5, S("\x30\x80"), S(""), S("\x00\x00"), 5), ASN1H_OK);
    CHECK_EQ(nested(&Nest_type, 6, S("\x30\x80"), S(""), S("\x00\x00"), 5), ASN1H_ERR_DEPTH);
    CHECK_EQ(nested(&Nest_type, 300000, S("\x30\x80"), S(""), S("\x00\x00"), 0), ASN1H_ERR_DEPTH);
    /* definite lengths, built backwards from the innermost 30 00: short lengths up to
     * 127, then 30 81 xx, 30 82 xx xx, 30 83 xx xx xx */
    for (levels = 5; levels <= 200000; levels = levels < 100 ? levels + 95 : levels * 20) {
        size_t cap = levels * 6;
        uint8_t *p;
        buf = (uint8_t *)malloc(cap);
        p = buf + cap;
        for (i = 0; i < levels; i++) {
            size_t n = (size_t)(buf + cap - p);
            if (n < 128) {
                *--p = (uint8_t)n;
            } else {
                unsigned octets = 0;
                while (n) {
                    *--p = (uint8_t)n;
                    n >>= 8;
                    octets++;
                }
                *--p = (uint8_t)(0x80 | octets);
            }
            *--p = 0x30;
        }
        len = (size_t)(buf + cap - p);
        {
            static union { uint64_t align; uint8_t bytes[1 << 16]; } storage;
            uint8_t value[64];
            asn1h_arena a;
            asn1h_error err;
            asn1h_decode_opts opts = { 0, 0, NULL, NULL };
            opts.max_depth = 100;
            asn1h_arena_init(&a, storage.bytes, sizeof storage.bytes, 0);
            CHECK_EQ(asn1h_decode(&Nest_type, value, p, len, &a, &opts, NULL, &err),
                     levels <= 100 ? ASN1H_OK : ASN1H_ERR_DEPTH);
        }
        free(buf);
    }
}

/* A constructed OCTET STRING whose segments nest: the limit applies too. */
void test_depth_constructed_string(void)
{
#define STR(levels, limit) nested(&Octets_type, levels, S("\x24\x80"), S("\x04\x01\x41"), S("\x00\x00"), limit)
    CHECK_EQ(STR(5, 10), ASN1H_OK);
    CHECK_EQ(STR(20, 10), ASN1H_ERR_DEPTH);
    CHECK_EQ(STR(300000, 0), ASN1H_ERR_DEPTH);
#undef STR
}

/* An unknown extension addition nested deep inside a Record is skipped only within the
 * limit. */
void test_depth_skipped_extension(void)
{
    size_t levels;
    for (levels = 10; levels <= 100000; levels *= 100) {
        size_t len;
        uint8_t *inner = nest(levels, S("\xBF\x28\x80"), S(""), S("\x00\x00"), &len);
        uint8_t *msg = (uint8_t *)malloc(len + 7);
        uint8_t value[sizeof(Record)];
        asn1h_error err;
        asn1h_code code;
        memcpy(msg, "\x30\x80\x02\x01\x07", 5);
        memcpy(msg + 5, inner, len);
        msg[5 + len] = 0;
        msg[6 + len] = 0;
        code = dec(&Record_type, value, msg, len + 7, 0, &err);
        CHECK_EQ(code, levels < ASN1H_MAX_DEPTH ? ASN1H_OK : ASN1H_ERR_DEPTH);
        free(inner);
        free(msg);
    }
}
