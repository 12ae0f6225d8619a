/* kept_check.c: a Versions.Record (tests/specs/versions/Old.asn) whose unknown additions
 * are the record given in hex, as decoding PER keeps them (asn1h_kept_in_per), written in
 * UPER and in DER (tests/test_fidelity.py).
 *
 *   kept_check HEX
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
    Record v;
    asn1h_error err;
    asn1h_code code;
    if (argc != 2 || strlen(argv[1]) % 2 || strlen(argv[1]) / 2 > sizeof record)
        return 2;
    for (; argv[1][2 * n] && sscanf(argv[1] + 2 * n, "%2x", &x) == 1; n++)
        record[n] = (uint8_t)x;
    memset(&v, 0, sizeof v);
    v.id.v = 1;
    v.checksum.buf = checksum;
    v.checksum.len = sizeof checksum;
    Record_set_checksum(&v);
    v.unknown_.buf = record;
    v.unknown_.len = n;
    code = asn1h_encode_per(&Record_type, &v, ASN1H_UPER, out, sizeof out, &len, &err);
    show("uper", code, out, len);
    code = asn1h_encode(&Record_type, &v, out, sizeof out, &len, &err);
    show("der", code, out, len);
    return 0;
}
