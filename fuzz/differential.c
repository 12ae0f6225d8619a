/* differential.c: one input through the compiled, the interpreted and a mixed build of the
 * same specification, which must agree on everything.
 *
 * The point of the hybrid is that a type can change path without anything else changing,
 * so for every input, in BER and in strict DER mode (or in PER, and in CANONICAL-PER's
 * stricter decoding), the three builds must give
 *   - the same verdict, error code and error offset (the type path in the error text may
 *     end at a different depth: a compiled routine knows by position which member a
 *     malformed header was to be, where the interpreter, reading the header first, stops
 *     at the enclosing type);
 *   - the same octets consumed;
 *   - equal values (asn1h_equal, each build's value against the others' tables);
 *   - the same JER text and the same DER (or PER) re-encoding.
 * Any difference aborts, which the fuzzer reports.
 *
 * Built with three generated units of one specification (--prefix c_, i_ and m_) and one
 * runtime, and these definitions:
 *   DIFF_C_HEADER, DIFF_I_HEADER, DIFF_M_HEADER   the generated headers, as strings
 *   DIFF_C_TYPE, DIFF_I_TYPE, DIFF_M_TYPE         the PDU's descriptor in each
 *   DIFF_PER       (optional) ASN1H_UPER or ASN1H_APER: the input is PER, not BER
 *   DIFF_C_SPEC, DIFF_I_SPEC, DIFF_M_SPEC         with DIFF_PER: the generated units'
 *                  names with their prefix (c_c_spec), whose <spec>_decode_per,
 *                  <spec>_decode_per_canonical and <spec>_encode_per take the compiled
 *                  types' PER routines
 * As a libFuzzer target (clang -fsanitize=fuzzer) it defines LLVMFuzzerTestOneInput; with
 * DIFF_REPLAY it is a program that runs the same check over the files it is given.
 */
#define _POSIX_C_SOURCE 200809L             /* open_memstream, for the JER text */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include DIFF_C_HEADER
#include DIFF_I_HEADER
#include DIFF_M_HEADER

#define BUILDS 3
static const char *const build_names[BUILDS] = { "compiled", "interpreted", "mixed" };

#ifndef DIFF_ARENA_SIZE
#define DIFF_ARENA_SIZE (1u << 20)
#endif

typedef struct outcome {
    asn1h_code code;
    size_t consumed, offset;
    char message[512];
    char *jer;                      /* malloc'd */
    size_t jer_len;
    uint8_t *encoded;               /* malloc'd; NULL when the value has no DER (PER) form */
    size_t encoded_len;
    asn1h_code encoded_code;
} outcome;

static union { uint64_t align; uint8_t bytes[DIFF_ARENA_SIZE]; } arena_memory[BUILDS];
/* a C type's size is 16 bits in the tables: 64 KiB holds any PDU's value */
static union { uint64_t align; uint8_t bytes[1u << 16]; } value_memory[BUILDS];

#ifdef DIFF_PER
#define DIFF_CAT_(a, b) a##b
#define DIFF_CAT(a, b) DIFF_CAT_(a, b)
typedef struct per_codec {
    asn1h_code (*decode)(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
                         unsigned variant, asn1h_arena *arena, const asn1h_decode_opts *opts,
                         size_t *consumed, asn1h_error *err);
    asn1h_code (*encode)(const asn1h_type *type, const void *value, unsigned variant,
                         uint8_t *buf, size_t cap, size_t *len, asn1h_error *err);
    asn1h_code (*decode_canonical)(const asn1h_type *type, void *value, const uint8_t *buf,
                                   size_t len, unsigned variant, asn1h_arena *arena,
                                   const asn1h_decode_opts *opts, size_t *consumed,
                                   asn1h_error *err);
} per_codec;
#define PER_CODEC(spec) \
    { DIFF_CAT(spec, _decode_per), DIFF_CAT(spec, _encode_per), \
      DIFF_CAT(spec, _decode_per_canonical) }
static const per_codec per_codecs[BUILDS] = {
    PER_CODEC(DIFF_C_SPEC), PER_CODEC(DIFF_I_SPEC), PER_CODEC(DIFF_M_SPEC)
};
/* ASN1H_DER, PER's strict mode here: CANONICAL-PER's decoding, which refuses a SET OF out
 * of order */
#define DECODE(build, type, value, data, size, arena, opts, consumed, err) \
    ((opts)->flags & ASN1H_DER \
     ? per_codecs[build].decode_canonical((type), (value), (data), (size), DIFF_PER, \
                                          (arena), (opts), (consumed), (err)) \
     : per_codecs[build].decode((type), (value), (data), (size), DIFF_PER, (arena), \
                                (opts), (consumed), (err)))
#define ENCODE(build, type, value, out, cap, len, err) \
    per_codecs[build].encode((type), (value), DIFF_PER, (out), (cap), (len), (err))
#else
#define DECODE(build, type, value, data, size, arena, opts, consumed, err) \
    ((void)(build), asn1h_decode((type), (value), (data), (size), (arena), (opts), (consumed), \
                                 (err)))
#define ENCODE(build, type, value, out, cap, len, err) \
    ((void)(build), asn1h_encode((type), (value), (out), (cap), (len), (err)))
#endif

static void disagree(const char *what, unsigned flags, const outcome *o, int a, int b)
{
    int k, which[2];
    which[0] = a;
    which[1] = b;
    fprintf(stderr, "differential: the %s and %s builds disagree on %s (flags %u)\n",
            build_names[a], build_names[b], what, flags);
    for (k = 0; k < 2; k++)
        fprintf(stderr, "  %s: code %d at %lu: %s\n", build_names[which[k]],
                (int)o[which[k]].code, (unsigned long)o[which[k]].offset,
                o[which[k]].message);
    abort();
}

static uint8_t *encode(int build, const asn1h_type *type, const void *value, size_t *len,
                       asn1h_code *code)
{
    size_t cap = 4096;
    asn1h_error err;
    for (;;) {
        uint8_t *out = (uint8_t *)malloc(cap);
        if (!out)
            abort();
        *code = ENCODE(build, type, value, out, cap, len, &err);
        if (*code == ASN1H_OK)
            return out;
        free(out);
        if (*code != ASN1H_ERR_BUFFER || cap > ((size_t)1 << 30))
            return NULL;
        cap *= 2;
    }
}

static void run(const asn1h_type *type, int build, const uint8_t *data, size_t size,
                unsigned flags, outcome *o)
{
    asn1h_arena arena;
    asn1h_decode_opts opts = { 0, 0, NULL, NULL };
    asn1h_error err;
    void *value = value_memory[build].bytes;
    FILE *jer;

    memset(o, 0, sizeof *o);
    opts.flags = flags;
    asn1h_arena_init(&arena, arena_memory[build].bytes, sizeof arena_memory[build].bytes, 0);
    o->code = DECODE(build, type, value, data, size, &arena, &opts, &o->consumed, &err);
    if (o->code != ASN1H_OK) {
        o->offset = err.offset;
        asn1h_error_format(&err, o->message, sizeof o->message);
        o->consumed = 0;
        asn1h_arena_free(&arena);
        return;
    }
    if (!(jer = open_memstream(&o->jer, &o->jer_len)) || asn1h_print_jer(jer, type, value))
        abort();
    fclose(jer);
    o->encoded = encode(build, type, value, &o->encoded_len, &o->encoded_code);
    /* the arena's values stay for the comparison: the caller frees the arenas' blocks,
     * which there are none of (heap limit 0) */
}

static void compare(const asn1h_type *const types[BUILDS], const uint8_t *data, size_t size,
                    unsigned flags)
{
    outcome o[BUILDS];
    int b;
    for (b = 0; b < BUILDS; b++)
        run(types[b], b, data, size, flags, &o[b]);
    for (b = 1; b < BUILDS; b++) {
        if (o[b].code != o[0].code)
            disagree("the verdict or error code", flags, o, b, 0);
        if (o[b].offset != o[0].offset)
            disagree("the error offset", flags, o, b, 0);
        if (o[b].consumed != o[0].consumed)
            disagree("the octets consumed", flags, o, b, 0);
        if (o[0].code != ASN1H_OK)
            continue;
        if (o[b].jer_len != o[0].jer_len || memcmp(o[b].jer, o[0].jer, o[0].jer_len) != 0)
            disagree("the JER text", flags, o, b, 0);
        if (o[b].encoded_code != o[0].encoded_code || o[b].encoded_len != o[0].encoded_len
            || (o[0].encoded && memcmp(o[b].encoded, o[0].encoded, o[0].encoded_len) != 0))
            disagree("the re-encoding", flags, o, b, 0);
    }
    if (o[0].code == ASN1H_OK) {            /* the values, through every build's tables */
        int x, y;
        for (x = 0; x < BUILDS; x++)
            for (y = 0; y < BUILDS; y++)
                if (!asn1h_equal(types[x], value_memory[x].bytes, value_memory[y].bytes))
                    disagree("the value", flags, o, y, x);
    }
    for (b = 0; b < BUILDS; b++) {
        free(o[b].jer);
        free(o[b].encoded);
    }
}

static int check(const uint8_t *data, size_t size)
{
    static const asn1h_type *types[BUILDS];
    types[0] = &DIFF_C_TYPE;
    types[1] = &DIFF_I_TYPE;
    types[2] = &DIFF_M_TYPE;
    compare(types, data, size, 0);
    compare(types, data, size, ASN1H_DER);
    compare(types, data, size, ASN1H_DROP_UNKNOWN);
    return 0;
}

#ifdef DIFF_REPLAY
/* Runs the check over each file given (one input per file); prints "ok N". */
int main(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        uint8_t *buf;
        long n;
        if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
            return fprintf(stderr, "%s: cannot read\n", argv[i]), 2;
        if (!(buf = (uint8_t *)malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n)
            return fprintf(stderr, "%s: cannot read\n", argv[i]), 2;
        fclose(f);
        check(buf, (size_t)n);
        free(buf);
    }
    printf("ok %d\n", argc - 1);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return check(data, size);
}
#endif
