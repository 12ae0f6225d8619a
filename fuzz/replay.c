/* replay.c: runs the harness over files of messages, without libFuzzer.
 *
 *   replay [--strict-der] [--framed] FILE...
 *
 * Each FILE is one message, or with --framed a sequence of messages each preceded by its
 * length in four octets, little-endian.  One line per message on stdout:
 *   N ok CONSUMED DER-IN-HEX
 *   N error CODE OFFSET Type.path: message
 * The harness aborts on any broken property, so a clean exit means every message was
 * handled properly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n;
    *size = 0;
    if (!f)
        return NULL;
    do {
        if (*size == cap) {
            uint8_t *grown;
            cap = cap ? cap * 2 : 65536;
            if (!(grown = (uint8_t *)realloc(buf, cap))) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        n = fread(buf + *size, 1, cap - *size, f);
        *size += n;
    } while (n > 0);
    fclose(f);
    return buf;
}

static void replay(unsigned long index, const uint8_t *data, size_t size, unsigned flags)
{
    /* a copy of exactly the message's size, so that a read past its end is caught */
    uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
    fuzz_result r;
    size_t i;
    if (size)
        memcpy(copy, data, size);
    fuzz_one(copy, size, flags, &r);
    if (r.code == ASN1H_OK) {
        uint64_t hash = 0xcbf29ce484222325u;
        for (i = 0; i < r.der_len; i++)
            hash = (hash ^ r.der[i]) * 0x100000001b3u;
        printf("%lu ok %lu %lu %016llx\n", index, (unsigned long)r.consumed,
               (unsigned long)r.der_len, (unsigned long long)hash);
    } else {
        printf("%lu error %d %lu %s\n", index, (int)r.code, (unsigned long)r.offset, r.message);
    }
    free(r.der);
    free(copy);
}

int main(int argc, char **argv)
{
    unsigned flags = 0;
    int framed = 0, i;
    unsigned long index = 0;
    for (i = 1; i < argc; i++) {
        size_t size, pos = 0;
        uint8_t *data;
        if (strcmp(argv[i], "--strict-der") == 0) {
            flags |= ASN1H_DER;
            continue;
        }
        if (strcmp(argv[i], "--framed") == 0) {
            framed = 1;
            continue;
        }
        if (!(data = read_all(argv[i], &size))) {
            perror(argv[i]);
            return 2;
        }
        if (!framed) {
            replay(index++, data, size, flags);
        } else {
            while (size - pos >= 4) {
                size_t n = (size_t)data[pos] | (size_t)data[pos + 1] << 8
                           | (size_t)data[pos + 2] << 16 | (size_t)data[pos + 3] << 24;
                pos += 4;
                if (n > size - pos) {
                    fprintf(stderr, "%s: truncated frame\n", argv[i]);
                    free(data);
                    return 2;
                }
                replay(index++, data + pos, n, flags);
                pos += n;
            }
        }
        free(data);
    }
    return 0;
}
