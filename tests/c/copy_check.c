/* copy_check.c: values that must outlive their input (tests/test_stream.py).
 *
 *   copy_check -p Module.Type FILE
 *
 * For each PDU of FILE, three JER lines: the value decoded in place; the value decoded
 * by asn1h_decode_owned from a heap copy of the PDU that is then overwritten and freed; an
 * asn1h_copy of a value decoded in place from another heap copy, also overwritten and
 * freed before the copy is printed.  Under AddressSanitizer a pointer left into a freed
 * input is a use after free; the test compares the three lines.  The two owned values
 * must also be asn1h_equal to the one decoded in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streamspec.h"

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

/* A heap copy of the PDU, to decode from and then destroy. */
static uint8_t *scratch(const uint8_t *pdu, size_t len)
{
    uint8_t *copy = (uint8_t *)malloc(len);
    if (copy)
        memcpy(copy, pdu, len);
    return copy;
}

static void destroy(uint8_t *input, size_t len)
{
    memset(input, 0xA5, len);
    free(input);
}

static int fail(const char *what, const asn1h_error *err, size_t offset)
{
    char message[256];
    asn1h_error_format(err, message, sizeof message);
    fprintf(stderr, "%s at %lu: %s\n", what, (unsigned long)offset, message);
    return 1;
}

int main(int argc, char **argv)
{
    const asn1h_type *type;
    asn1h_arena in_place, owned, copied;
    asn1h_error err;
    void *value, *fused, *deep, *shallow;
    uint8_t *data;
    size_t size, offset = 0;
    int status = 0;

    if (argc != 4 || strcmp(argv[1], "-p") != 0
        || !(type = asn1h_find_type(&streamspec_spec.spec, argv[2]))) {
        fprintf(stderr, "usage: %s -p Module.Type FILE\n", argv[0]);
        return 2;
    }
    if (!(data = read_file(argv[3], &size))) {
        perror(argv[3]);
        return 1;
    }
    value = malloc(type->size);
    fused = malloc(type->size);
    deep = malloc(type->size);
    shallow = malloc(type->size);
    asn1h_arena_init(&in_place, NULL, 0, (size_t)1 << 30);
    asn1h_arena_init(&owned, NULL, 0, (size_t)1 << 30);
    asn1h_arena_init(&copied, NULL, 0, (size_t)1 << 30);
    while (status == 0 && offset < size) {
        size_t used, len;
        uint8_t *input;
        asn1h_arena_reset(&in_place);
        asn1h_arena_reset(&owned);
        asn1h_arena_reset(&copied);
        if (asn1h_decode(type, value, data + offset, size - offset, &in_place, NULL, &used,
                         &err) != ASN1H_OK) {
            status = fail("decode", &err, offset);
            break;
        }
        len = used;
        /* asn1h_decode_owned: decoded from an input that is gone when the value is printed */
        input = scratch(data + offset, len);
        if (asn1h_decode_owned(type, fused, input, len, &owned, NULL, &used, &err) != ASN1H_OK
            || used != len)
            status = fail("asn1h_decode_owned", &err, offset);
        destroy(input, len);
        /* asn1h_copy: a value decoded in place, copied, then its input destroyed */
        input = scratch(data + offset, len);
        if (asn1h_decode(type, shallow, input, len, &copied, NULL, &used, &err) != ASN1H_OK
            || asn1h_copy(type, deep, shallow, &owned) != ASN1H_OK)
            status = fail("asn1h_copy", &err, offset);
        destroy(input, len);
        asn1h_arena_reset(&copied);          /* the shallow value's arena goes too */
        if (status)
            break;
        if (!asn1h_equal(type, value, fused) || !asn1h_equal(type, value, deep)) {
            fprintf(stderr, "at %lu: an owned value differs\n", (unsigned long)offset);
            status = 1;
        }
        asn1h_print_jer(stdout, type, value);
        putchar('\n');
        asn1h_print_jer(stdout, type, fused);
        putchar('\n');
        asn1h_print_jer(stdout, type, deep);
        putchar('\n');
        offset += len;
    }
    asn1h_arena_free(&in_place);
    asn1h_arena_free(&owned);
    asn1h_arena_free(&copied);
    free(value);
    free(fused);
    free(deep);
    free(shallow);
    free(data);
    return status;
}
