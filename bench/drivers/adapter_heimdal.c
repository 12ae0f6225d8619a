/* The adapter for Heimdal's asn1_compile output (generated code or templates):
 * decode_T / free_T / encode_T.  BENCH_PDU names the type, BENCH_HEADER the generated
 * header. */
#include <stdint.h>
#include <stdlib.h>

#include "adapter.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(x) #x
#define STR(x) STR_(x)
#include STR(BENCH_HEADER)

typedef BENCH_PDU pdu_t;

static pdu_t *kept;

int adapter_init(size_t nmessages)
{
    kept = calloc(nmessages ? nmessages : 1, sizeof *kept);
    return kept ? 0 : -1;
}

int adapter_decode_free(const uint8_t *msg, size_t len)
{
    pdu_t value;
    size_t size;
    int error = CAT(decode_, BENCH_PDU)(msg, len, &value, &size);
    if (error != 0)
        return error;  /* Heimdal's decoders free what they built when they fail */
    CAT(free_, BENCH_PDU)(&value);
    return 0;
}

int adapter_decode_keep(size_t slot, const uint8_t *msg, size_t len)
{
    size_t size;
    return CAT(decode_, BENCH_PDU)(msg, len, &kept[slot], &size) != 0;
}

int adapter_encode(size_t slot, uint8_t *buf, size_t cap, const uint8_t **out,
                   size_t *out_len)
{
    size_t size;
    /* Heimdal encodes backwards from the last byte of the buffer. */
    if (CAT(encode_, BENCH_PDU)(buf + cap - 1, cap, &kept[slot], &size) != 0)
        return 1;
    *out = buf + cap - size;
    *out_len = size;
    return 0;
}
