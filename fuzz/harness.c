/* harness.c: one input through a generated PDU type, checked end to end.
 *
 * Built with generated code for one specification and these definitions:
 *   FUZZ_HEADER  the generated header, as a string ("spec.h")
 *   FUZZ_TYPE    the PDU's descriptor (PersonnelRecord_type)
 *   FUZZ_PER     (optional) ASN1H_UPER or ASN1H_APER: the input is PER, not BER
 *   FUZZ_SPEC    with FUZZ_PER: the generated unit's name (spec), whose <spec>_decode_per
 *                and <spec>_encode_per take its compiled types' PER routines
 *
 * Decoding may fail, with an error that must be well formed.  When it succeeds, the value
 * must print as JER, re-encode (in DER, or in PER), that encoding must decode (in strict
 * DER mode for DER) to an equal value and re-encode to the same octets, and an input that
 * strict DER mode accepts must be exactly that DER.  Any violation aborts, which the fuzzer
 * and the sanitizers report.
 *
 * As a libFuzzer target (clang -fsanitize=fuzzer) it defines LLVMFuzzerTestOneInput; with
 * replay.c it runs the same check over files of messages, for tests and for any compiler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include FUZZ_HEADER

#ifdef FUZZ_PER
#define FUZZ_CAT_(a, b) a##b
#define FUZZ_CAT(a, b) FUZZ_CAT_(a, b)
#define DECODE(v, buf, len, arena, opts, consumed, err) \
    FUZZ_CAT(FUZZ_SPEC, _decode_per)(&FUZZ_TYPE, (v), (buf), (len), FUZZ_PER, (arena), (opts), \
                                     (consumed), (err))
#define ENCODE(v, out, cap, len, err) \
    FUZZ_CAT(FUZZ_SPEC, _encode_per)(&FUZZ_TYPE, (v), FUZZ_PER, (out), (cap), (len), (err))
#define STRICT 0u                   /* PER has no looser form to refuse */
#else
#define DECODE(v, buf, len, arena, opts, consumed, err) \
    asn1h_decode(&FUZZ_TYPE, (v), (buf), (len), (arena), (opts), (consumed), (err))
#define ENCODE(v, out, cap, len, err) asn1h_encode(&FUZZ_TYPE, (v), (out), (cap), (len), (err))
#define STRICT ASN1H_DER
#endif

/* Decoding uses a caller's buffer and no heap at all: a message that needs more is refused
 * with ASN1H_ERR_MEMORY, like any other error. */
#ifndef FUZZ_ARENA_SIZE
#define FUZZ_ARENA_SIZE (1u << 20)
#endif
typedef union { uint64_t align; uint8_t bytes[FUZZ_ARENA_SIZE]; } arena_memory;
static arena_memory first_memory, second_memory;

static void violation(const char *what, const fuzz_result *r)
{
    fprintf(stderr, "harness: %s (decoded %lu octets)\n", what, (unsigned long)r->consumed);
    abort();
}

static void check_error(const asn1h_error *err, size_t size)
{
    char text[512], name[ASN1H_NAME_MAX];
    size_t n;
    if (err->code <= ASN1H_OK || err->code >= ASN1H_ERR_COUNT || err->offset > size
        || err->type != &FUZZ_TYPE || err->depth > ASN1H_PATH_MAX) {
        fprintf(stderr, "harness: malformed error: code %d offset %lu of %lu\n",
                (int)err->code, (unsigned long)err->offset, (unsigned long)size);
        abort();
    }
    n = asn1h_error_format(err, text, sizeof text);
    asn1h_type_name(&FUZZ_TYPE, name, sizeof name);
    if (n == 0 || strncmp(text, name, strlen(name)) != 0) {
        fprintf(stderr, "harness: unreadable error text: %s\n", text);
        abort();
    }
}

/* Encodes into a growing heap buffer; returns its length, the octets in *out.  0 (and no
 * buffer) when the value has no DER form, which only a value from BER may lack (a local
 * time: X.690 11.7.1 wants "Z"). */
static size_t encode(const void *value, uint8_t **out, const fuzz_result *r)
{
    size_t cap = 4096, len = 0;
    asn1h_error err;
    for (;;) {
        asn1h_code code;
        *out = (uint8_t *)malloc(cap);
        if (!*out)
            violation("out of memory", r);
        code = ENCODE(value, *out, cap, &len, &err);
        if (code == ASN1H_OK)
            return len;
        free(*out);
        if (code == ASN1H_ERR_NO_DER) {
            *out = NULL;
            return 0;
        }
        if (code != ASN1H_ERR_BUFFER || cap > ((size_t)1 << 30)) {
            char text[512];
            asn1h_error_format(&err, text, sizeof text);
            fprintf(stderr, "harness: a decoded value does not encode: %s\n", text);
            violation("encoding failed", r);
        }
        cap *= 2;
    }
}

int fuzz_one(const uint8_t *data, size_t size, unsigned flags, fuzz_result *r)
{
    /* a C type's size is 16 bits in the tables: 64 KiB holds any PDU's value */
    static union { uint64_t align; uint8_t bytes[1u << 16]; } value_memory, again_memory;
    void *value = value_memory.bytes, *again = again_memory.bytes;
    asn1h_arena first, second;
    asn1h_decode_opts opts = { 0, 0, NULL, NULL }, der = { STRICT, 0, NULL, NULL };
    asn1h_error err;
    uint8_t *encoding, *encoding2;
    size_t len, len2, consumed2 = 0;

    memset(r, 0, sizeof *r);
    opts.flags = flags;
    asn1h_arena_init(&first, first_memory.bytes, sizeof first_memory.bytes, 0);
    r->code = DECODE(value, data, size, &first, &opts, &r->consumed, &err);
    if (r->code != ASN1H_OK) {
        check_error(&err, size);
        r->offset = err.offset;
        asn1h_error_format(&err, r->message, sizeof r->message);
        asn1h_arena_free(&first);
        return 0;
    }
    if (r->consumed == 0 || r->consumed > size)
        violation("consumed nothing, or more than the input", r);
    {   /* the JER printer walks the same value (its output is not looked at) */
        static FILE *sink;
        if (!sink && !(sink = fopen("/dev/null", "w")))
            violation("cannot open /dev/null", r);
        if (asn1h_print_jer(sink, &FUZZ_TYPE, value) != 0)
            violation("JER printing failed", r);
    }

    /* the round trip: DER, decoded strictly, equal, and stable */
    len = encode(value, &encoding, r);
    if (!encoding) {
        if (flags & ASN1H_DER)
            violation("strict DER accepted a value that has no DER form", r);
        asn1h_arena_free(&first);
        return 0;
    }
    asn1h_arena_init(&second, second_memory.bytes, sizeof second_memory.bytes, 0);
    if (DECODE(again, encoding, len, &second, &der, &consumed2, &err) != ASN1H_OK) {
        char text[512];
        asn1h_error_format(&err, text, sizeof text);
        fprintf(stderr, "harness: own DER refused at %lu: %s\n", (unsigned long)err.offset, text);
        violation("re-decoding the DER failed", r);
    }
    if (consumed2 != len)
        violation("the DER re-encoding was not consumed whole", r);
    if (!asn1h_equal(&FUZZ_TYPE, value, again))
        violation("the re-decoded value differs", r);
    len2 = encode(again, &encoding2, r);
    if (len2 != len || memcmp(encoding, encoding2, len) != 0)
        violation("DER is not stable", r);
    /* strict DER accepted the input: then it was this very DER */
    if ((flags & ASN1H_DER) && (r->consumed != len || memcmp(data, encoding, len) != 0))
        violation("strict DER accepted an input that is not the canonical encoding", r);
    r->der = encoding;
    r->der_len = len;
    free(encoding2);
    asn1h_arena_free(&first);
    asn1h_arena_free(&second);
    return 0;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_result r;
    int was_der;
    /* BER first; when the input is DER, strict mode must agree */
    fuzz_one(data, size, 0, &r);
    was_der = r.code == ASN1H_OK && r.consumed == r.der_len
        && memcmp(data, r.der, r.der_len) == 0;
    free(r.der);
    if (r.code == ASN1H_OK && STRICT) {
        fuzz_result strict;
        fuzz_one(data, size, STRICT, &strict);
        if (was_der && strict.code != ASN1H_OK)
            violation("strict DER refused a canonical encoding", &strict);
        free(strict.der);
    }
    return 0;
}
#endif
