/* harness.h: the check of harness.c, shared by the libFuzzer target and replay.c. */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <stddef.h>

#include "asn1h.h"

typedef struct fuzz_result {
    asn1h_code code;
    size_t consumed;            /* on success: the octets decoded */
    size_t offset;              /* on failure: where */
    char message[512];          /* on failure: "Type.path: error" */
    uint8_t *der;               /* on success: the DER re-encoding (malloc'd) */
    size_t der_len;
} fuzz_result;

/* Decodes data[0..size) (flags: 0 or ASN1H_DER) and checks the outcome; aborts on any
 * violation.  The caller frees r->der. */
int fuzz_one(const uint8_t *data, size_t size, unsigned flags, fuzz_result *r);

#endif
