/* ilp.c: the passes that Integrated Layer Processing would fuse, measured one by one
 * (bench/stream.py).
 *
 *   ilp -p Module.Type MODE N FILE
 *
 * FILE holds concatenated BER PDUs of the type.  MODE is what the loop does to each PDU,
 * N times over the file:
 *   decode         asn1h_decode (values point into the input)
 *   copy           asn1h_decode_owned (values own their octets: the fused copy)
 *   deep           asn1h_decode, then asn1h_copy into a second arena
 *   encode         asn1h_encode of the decoded value (decoded once, before the loop)
 *   encode-sha256  asn1h_encode, then SHA-256 of the encoding (OpenSSL)
 *   encode-crc32   asn1h_encode, then CRC-32 of the encoding
 *   sha256, crc32  the digest of the PDU alone
 * Prints the nanoseconds per PDU.  Under callgrind, --toggle-collect=measured counts the
 * loop alone.
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/sha.h>

#include "spec.h"

enum mode { DECODE, COPY, DEEP, ENCODE, ENCODE_SHA256, ENCODE_CRC32, SHA256_ONLY, CRC32_ONLY };
static const char *const MODES[] = {"decode", "copy", "deep", "encode", "encode-sha256",
                                    "encode-crc32", "sha256", "crc32"};

static uint32_t crc_table[256];

static void crc32_init(void)
{
    uint32_t i, k, c;
    for (i = 0; i < 256; i++) {
        for (c = i, k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

typedef struct corpus {
    const asn1h_type *type;
    const uint8_t **pdus;
    size_t *lens, count;
    void **values;                          /* encode modes: each PDU decoded once */
} corpus;

static volatile uint32_t sink;              /* keeps the digests from being optimized out */

/* The measured loop: `rounds` passes over the corpus (extern: callgrind finds it by name). */
int measured(const corpus *c, enum mode mode, long rounds, asn1h_arena *arena,
             asn1h_arena *second, void *value, void *copy, uint8_t *out, size_t cap);
int measured(const corpus *c, enum mode mode, long rounds,
             asn1h_arena *arena, asn1h_arena *second, void *value, void *copy,
             uint8_t *out, size_t cap)
{
    unsigned char md[SHA256_DIGEST_LENGTH];
    asn1h_error err;
    size_t i, len;
    long r;

    for (r = 0; r < rounds; r++)
        for (i = 0; i < c->count; i++) {
            switch (mode) {
            case DECODE:
            case COPY:
            case DEEP:
                asn1h_arena_reset(arena);
                if ((mode == COPY ? asn1h_decode_owned : asn1h_decode)(
                        c->type, value, c->pdus[i], c->lens[i], arena, NULL, NULL, &err)
                    != ASN1H_OK)
                    return 1;
                if (mode == DEEP) {
                    asn1h_arena_reset(second);
                    if (asn1h_copy(c->type, copy, value, second) != ASN1H_OK)
                        return 1;
                }
                break;
            case ENCODE:
            case ENCODE_SHA256:
            case ENCODE_CRC32:
                if (asn1h_encode(c->type, c->values[i], out, cap, &len, &err) != ASN1H_OK)
                    return 1;
                if (mode == ENCODE_SHA256) {
                    SHA256(out, len, md);
                    sink ^= md[0];
                } else if (mode == ENCODE_CRC32) {
                    sink ^= crc32(out, len);
                }
                break;
            case SHA256_ONLY:
                SHA256(c->pdus[i], c->lens[i], md);
                sink ^= md[0];
                break;
            case CRC32_ONLY:
                sink ^= crc32(c->pdus[i], c->lens[i]);
                break;
            }
        }
    return 0;
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    *size = (size_t)n;
    if ((buf = (uint8_t *)malloc(*size)) && fread(buf, 1, *size, f) != *size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    static asn1h_arena keep, arena, second;
    corpus c;
    enum mode mode = DECODE;
    uint8_t *data, *out;
    size_t size, at = 0, cap = 1 << 20, m;
    long rounds;
    void *value, *copy;
    struct timespec t0, t1;
    asn1h_error err;

    if (argc != 6 || strcmp(argv[1], "-p") != 0
        || !(c.type = asn1h_find_type(&spec_spec.spec, argv[2]))) {
        fprintf(stderr, "usage: %s -p Module.Type MODE N FILE\n", argv[0]);
        return 2;
    }
    for (m = 0; m < sizeof MODES / sizeof MODES[0] && strcmp(MODES[m], argv[3]); m++)
        ;
    if (m == sizeof MODES / sizeof MODES[0] || (rounds = atol(argv[4])) <= 0
        || !(data = read_file(argv[5], &size)))
        return 2;
    mode = (enum mode)m;
    crc32_init();
    c.count = 0;
    c.pdus = (const uint8_t **)malloc(size * sizeof *c.pdus);
    c.lens = (size_t *)malloc(size * sizeof *c.lens);
    c.values = (void **)malloc(size * sizeof *c.values);
    asn1h_arena_init(&keep, NULL, 0, (size_t)1 << 32);
    asn1h_arena_init(&arena, NULL, 0, (size_t)1 << 30);
    asn1h_arena_init(&second, NULL, 0, (size_t)1 << 30);
    while (at < size) {                     /* the PDUs, each decoded once to keep */
        size_t used;
        void *v = asn1h_arena_alloc(&keep, c.type->size);
        if (!v || asn1h_decode(c.type, v, data + at, size - at, &keep, NULL, &used, &err)
                  != ASN1H_OK) {
            fprintf(stderr, "%s: PDU at %lu does not decode\n", argv[5], (unsigned long)at);
            return 1;
        }
        c.pdus[c.count] = data + at;
        c.lens[c.count] = used;
        c.values[c.count++] = v;
        at += used;
    }
    value = malloc(c.type->size);
    copy = malloc(c.type->size);
    out = (uint8_t *)malloc(cap);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (measured(&c, mode, rounds, &arena, &second, value, copy, out, cap)) {
        fprintf(stderr, "%s: %s failed\n", argv[0], MODES[mode]);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.1f\n", ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec))
                     / ((double)rounds * (double)c.count));
    return 0;
}
