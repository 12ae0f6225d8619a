/* kept_check.c: a Versions.Record or Versions.Framed (tests/specs/versions/Old.asn: one
 * known addition, none) whose unknown additions are the record given in hex, as decoding
 * PER keeps them (asn1h_kept_in_per), written in UPER and in DER (tests/test_fidelity.py).
 *
 *   kept_check Record|Framed HEX
 *
 * Prints "uper HEX" or "uper error CODE", then the same for "der".
 */
#include <stdio.h>
#include <string.h>

#include "spec.h"

static void show(const char *rules, asn1h_code code, const uint8_t *out, size_t len)
{
    size_t i;
    printf("%s ", rules);
    if (code != ASN1H_OK) {
        printf("error %d\n", (int)code);
        return;
    }
    for (i = 0; i < len; i++)
        printf("%02x", out[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    static const uint8_t checksum[] = {0x01};
    uint8_t record[256], out[512];
    size_t n = 0, len = 0;
    unsigned x;
    Record r;
    Framed f;
    const asn1h_type *type = &Record_type;
    const void *value = &r;
    asn1h_error err;
    asn1h_code code;
    if (argc != 3 || strlen(argv[2]) % 2 || strlen(argv[2]) / 2 > sizeof record)
        return 2;
    for (; argv[2][2 * n] && sscanf(argv[2] + 2 * n, "%2x", &x) == 1; n++)
        record[n] = (uint8_t)x;
    memset(&r, 0, sizeof r);
    memset(&f, 0, sizeof f);
    r.id.v = f.id.v = 1;
    r.checksum.buf = f.checksum.buf = checksum;
    r.checksum.len = f.checksum.len = sizeof checksum;
    Record_set_checksum(&r);
    r.unknown_.buf = f.unknown_.buf = record;
    r.unknown_.len = f.unknown_.len = n;
    if (!strcmp(argv[1], "Framed")) {
        type = &Framed_type;
        value = &f;
    }
    code = asn1h_encode_per(type, value, ASN1H_UPER, out, sizeof out, &len, &err);
    show("uper", code, out, len);
    code = asn1h_encode(type, value, out, sizeof out, &len, &err);
    show("der", code, out, len);
    return 0;
}
