/* bench_main.c: the driver every implementation is linked into.
 *
 *   driver decode CORPUS ROUNDS   decode-and-free every message ROUNDS times
 *   driver encode CORPUS ROUNDS   DER-encode every (pre-decoded) message ROUNDS times
 *   driver check CORPUS OUT       decode each message, write its DER re-encoding to OUT
 *
 * CORPUS holds the messages framed as a 4-byte little-endian length and the bytes.
 * Callgrind counts only inside bench_decode_once and bench_encode_once (see
 * bench/callgrind.py); each run makes one warm-up pass outside them first, so that lazy
 * initialisation (malloc's first arena, for one) is not counted.  Prints "calls N". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"

#define ENCODE_CAPACITY (1u << 20)

typedef struct message {
    const uint8_t *data;
    size_t len;
} message;

static uint8_t *encode_buffer;

__attribute__((noinline)) int bench_decode_once(const uint8_t *msg, size_t len)
{
    return adapter_decode_free(msg, len);
}

__attribute__((noinline)) int bench_encode_once(size_t slot)
{
    const uint8_t *out;
    size_t out_len;
    return adapter_encode(slot, encode_buffer, ENCODE_CAPACITY, &out, &out_len);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: read error\n", path);
        exit(2);
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static message *split_corpus(uint8_t *data, size_t size, size_t *count)
{
    size_t n = 0, pos = 0;
    while (pos + 4 <= size) {
        uint32_t len = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16 |
                       (uint32_t)data[pos + 3] << 24;
        pos += 4 + len;
        n++;
    }
    if (pos != size) {
        fprintf(stderr, "corpus: bad framing\n");
        exit(2);
    }
    message *messages = calloc(n ? n : 1, sizeof *messages);
    pos = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t len = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16 |
                       (uint32_t)data[pos + 3] << 24;
        /* Each message in its own allocation, so that a decoder reading past the end is
         * caught by valgrind and sanitizers rather than reading the next message. */
        uint8_t *copy = malloc(len ? len : 1);
        memcpy(copy, data + pos + 4, len);
        messages[i].data = copy;
        messages[i].len = len;
        pos += 4 + len;
    }
    *count = n;
    return messages;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s decode|encode CORPUS ROUNDS | check CORPUS OUT\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    size_t size, count;
    uint8_t *corpus = read_file(argv[2], &size);
    message *messages = split_corpus(corpus, size, &count);
    encode_buffer = malloc(ENCODE_CAPACITY);
    if (adapter_init(count) != 0) {
        fprintf(stderr, "adapter_init failed\n");
        return 1;
    }

    if (strcmp(mode, "check") == 0) {
        FILE *out = fopen(argv[3], "wb");
        if (!out) {
            perror(argv[3]);
            return 2;
        }
        for (size_t i = 0; i < count; i++) {
            const uint8_t *enc;
            size_t enc_len;
            int error = adapter_decode_free(messages[i].data, messages[i].len);
            if (error != 0 || adapter_decode_keep(i, messages[i].data, messages[i].len) != 0) {
                fprintf(stderr, "message %zu: decoding failed (error %d)\n", i, error);
                return 1;
            }
            if (adapter_encode(i, encode_buffer, ENCODE_CAPACITY, &enc, &enc_len) != 0) {
                fprintf(stderr, "message %zu: encoding failed\n", i);
                return 1;
            }
            uint8_t frame[4] = {(uint8_t)enc_len, (uint8_t)(enc_len >> 8),
                                (uint8_t)(enc_len >> 16), (uint8_t)(enc_len >> 24)};
            fwrite(frame, 1, 4, out);
            fwrite(enc, 1, enc_len, out);
        }
        fclose(out);
        printf("checked %zu\n", count);
        return 0;
    }

    long rounds = strtol(argv[3], NULL, 10);
    if (rounds <= 0) {
        fprintf(stderr, "ROUNDS must be positive\n");
        return 2;
    }
    unsigned long calls = 0;
    if (strcmp(mode, "decode") == 0) {
        for (size_t i = 0; i < count; i++)
            if (adapter_decode_free(messages[i].data, messages[i].len) != 0) {
                fprintf(stderr, "message %zu: decoding failed\n", i);
                return 1;
            }
        for (long r = 0; r < rounds; r++)
            for (size_t i = 0; i < count; i++, calls++)
                if (bench_decode_once(messages[i].data, messages[i].len) != 0)
                    return 1;
    } else if (strcmp(mode, "encode") == 0) {
        const uint8_t *enc;
        size_t enc_len;
        for (size_t i = 0; i < count; i++)
            if (adapter_decode_keep(i, messages[i].data, messages[i].len) != 0 ||
                adapter_encode(i, encode_buffer, ENCODE_CAPACITY, &enc, &enc_len) != 0) {
                fprintf(stderr, "message %zu: decoding or encoding failed\n", i);
                return 1;
            }
        for (long r = 0; r < rounds; r++)
            for (size_t i = 0; i < count; i++, calls++)
                if (bench_encode_once(i) != 0)
                    return 1;
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    printf("calls %lu\n", calls);
    return 0;
}
