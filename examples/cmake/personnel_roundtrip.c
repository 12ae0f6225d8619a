/* personnel_roundtrip: decodes a DER personnel record, prints a few of its fields,
 * encodes it again and checks that the bytes are the ones it read.
 *
 *   personnel_roundtrip smithperson.der
 *
 * Exit status 0 when the re-encoding is identical, 1 otherwise.  Decoding needs no heap:
 * the arena works from a buffer on the stack.
 */
#include <stdio.h>
#include <string.h>

#include "personnel.h"

static int read_file(const char *path, uint8_t *buf, size_t cap, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    *len = fread(buf, 1, cap, f);
    if (ferror(f) || !feof(f)) {
        fprintf(stderr, "%s: unreadable or larger than %lu bytes\n", path, (unsigned long)cap);
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

/* IA5String values are asn1h_bytes: the contents octets, not NUL-terminated. */
static void print_text(const char *label, asn1h_bytes text)
{
    printf("%s: %.*s\n", label, (int)text.len, (const char *)text.buf);
}

static void print_name(const char *label, const Name *name)
{
    printf("%s: %.*s %.*s %.*s\n", label,
           (int)name->givenName.len, (const char *)name->givenName.buf,
           (int)name->initial.len, (const char *)name->initial.buf,
           (int)name->familyName.len, (const char *)name->familyName.buf);
}

int main(int argc, char **argv)
{
    static uint8_t input[4096], output[4096];
    union { double align; uint8_t bytes[8192]; } arena_buffer;
    asn1h_arena arena;
    asn1h_error err;
    PersonnelRecord record;
    size_t in_len, out_len, i;
    char message[256];

    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.der\n", argv[0]);
        return 2;
    }
    if (read_file(argv[1], input, sizeof input, &in_len) != 0)
        return 1;

    asn1h_arena_init(&arena, arena_buffer.bytes, sizeof arena_buffer.bytes, 0);
    if (asn1h_decode(&PersonnelRecord_type, &record, input, in_len, &arena, NULL, NULL,
                     &err) != ASN1H_OK) {
        asn1h_error_format(&err, message, sizeof message);
        fprintf(stderr, "%s:%lu: %s\n", argv[1], (unsigned long)err.offset, message);
        return 1;
    }

    print_name("name", &record.name);
    print_text("title", record.title);
    printf("number: %lld\n", (long long)record.number.v);
    print_text("date of hire", record.dateOfHire);
    print_name("spouse", &record.nameOfSpouse);
    /* children is DEFAULT {}: its presence bit says whether the encoding held it */
    printf("children: %s\n", PersonnelRecord_has_children(&record) ? "present" : "absent");
    for (i = 0; i < record.children.count; i++)
        print_name("child", &record.children.items[i].name);
    printf("same as smithperson: %s\n",
           asn1h_equal(&PersonnelRecord_type, &record, &smithperson) ? "yes" : "no");

    if (asn1h_encode(&PersonnelRecord_type, &record, output, sizeof output, &out_len,
                     &err) != ASN1H_OK) {
        asn1h_error_format(&err, message, sizeof message);
        fprintf(stderr, "encoding: %s\n", message);
        return 1;
    }
    if (out_len != in_len || memcmp(output, input, in_len) != 0) {
        printf("re-encoding: %lu bytes, DIFFERENT from the %lu bytes read\n",
               (unsigned long)out_len, (unsigned long)in_len);
        return 1;
    }
    printf("re-encoding: %lu bytes, identical\n", (unsigned long)out_len);
    asn1h_arena_free(&arena);
    return 0;
}
