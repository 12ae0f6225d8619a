/* The adapter for asn1c's generated code: ber_decode, ASN_STRUCT_FREE,
 * der_encode_to_buffer.  BENCH_PDU names the C type (PersonnelRecord, MTS_APDU),
 * BENCH_HEADER its header (MTS-APDU.h). */
#include <stdlib.h>

#include "adapter.h"
#include <asn_application.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(x) #x
#define STR(x) STR_(x)
#include STR(BENCH_HEADER)

#define DESCRIPTOR CAT(asn_DEF_, BENCH_PDU)

static void **kept;

int adapter_init(size_t nmessages)
{
    kept = calloc(nmessages ? nmessages : 1, sizeof *kept);
    return kept ? 0 : -1;
}

int adapter_decode_free(const uint8_t *msg, size_t len)
{
    void *value = NULL;
    asn_dec_rval_t r = ber_decode(NULL, &DESCRIPTOR, &value, msg, len);
    ASN_STRUCT_FREE(DESCRIPTOR, value);
    return r.code == RC_OK ? 0 : (int)r.code;
}

int adapter_decode_keep(size_t slot, const uint8_t *msg, size_t len)
{
    asn_dec_rval_t r = ber_decode(NULL, &DESCRIPTOR, &kept[slot], msg, len);
    return r.code == RC_OK ? 0 : 1;
}

int adapter_encode(size_t slot, uint8_t *buf, size_t cap, const uint8_t **out,
                   size_t *out_len)
{
    asn_enc_rval_t r = der_encode_to_buffer(&DESCRIPTOR, kept[slot], buf, cap);
    if (r.encoded < 0)
        return 1;
    *out = buf;
    *out_len = (size_t)r.encoded;
    return 0;
}
