/* span_check.c: the TLVs that --keep-encoding keeps (tests/test_stream.py).
 *
 *   span_check certificate|crl|crl-walk FILE
 *
 * For each PDU of FILE (concatenated Certificates or CertificateLists, BER), one line:
 * the offset and length of its tbsCertificate (tbsCertList) as `encoding_` says, relative
 * to the PDU's first octet.  crl-walk walks the revoked certificates meanwhile (the
 * interpreter then decodes the TBSCertList around them, and must keep its encoding too);
 * its lines end with the number of entries walked.  The spec is RFC 5280's, generated with --keep-encoding
 * PKIX1Explicit88.TBSCertificate and PKIX1Explicit88.TBSCertList.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

static int count_entry(void *ctx, const void *value, size_t index, const uint8_t *tlv,
                       size_t len)
{
    (void)ctx;
    (void)value;
    (void)index;
    (void)tlv;
    (void)len;
    return ASN1H_WALK_NEXT;
}

int main(int argc, char **argv)
{
    static uint8_t data[1 << 22];
    int certificate, walking;
    size_t size, at = 0;
    asn1h_walk walk;
    asn1h_decode_opts opts = {0, 0, NULL, NULL};
    FILE *f;
    asn1h_arena arena;
    asn1h_error err;

    if (argc != 3 || !(f = fopen(argv[2], "rb")))
        return 2;
    certificate = strcmp(argv[1], "certificate") == 0;
    walking = strcmp(argv[1], "crl-walk") == 0;
    if (walking) {
        asn1h_walk_init(&walk, asn1h_find_type(&spec_spec.spec,
                                               "PKIX1Explicit88.TBSCertList.revokedCertificates"),
                        count_entry, NULL);
        opts.walk = &walk;
    }
    size = fread(data, 1, sizeof data, f);
    fclose(f);
    asn1h_arena_init(&arena, NULL, 0, (size_t)1 << 30);
    while (at < size) {
        Certificate c;
        CertificateList l;
        const asn1h_bytes *kept = certificate ? &c.tbsCertificate.encoding_
                                              : &l.tbsCertList.encoding_;
        size_t used;
        asn1h_arena_reset(&arena);
        if (asn1h_decode(certificate ? &Certificate_type : &CertificateList_type,
                         certificate ? (void *)&c : (void *)&l, data + at, size - at, &arena,
                         &opts, &used, &err) != ASN1H_OK) {
            fprintf(stderr, "PDU at %lu does not decode\n", (unsigned long)at);
            return 1;
        }
        printf("%ld %lu", (long)(kept->buf - (data + at)), (unsigned long)kept->len);
        if (walking)
            printf(" %lu", (unsigned long)walk.count);
        printf("\n");
        walk.count = 0;
        at += used;
    }
    asn1h_arena_free(&arena);
    return 0;
}
