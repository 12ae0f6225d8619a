/* The adapter for asn1c-hybrid's generated code: asn1h_decode into an arena on a fixed
 * buffer (no heap), asn1h_arena_reset to free, asn1h_encode.  BENCH_DESCRIPTOR names the
 * PDU's descriptor, BENCH_HEADER the generated header. */
#include <stdlib.h>

#include "adapter.h"
#include "asn1h.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#include STR(BENCH_HEADER)

#define ARENA_BYTES (1u << 20)
#define VALUE_BYTES (1u << 16)

static union { max_align_t align; uint8_t bytes[ARENA_BYTES]; } arena_buffer;
static union { max_align_t align; uint8_t bytes[VALUE_BYTES]; } value_buffer;
static asn1h_arena arena;
static asn1h_arena *kept_arenas;
static void **kept_values;

int adapter_init(size_t nmessages)
{
    if (BENCH_DESCRIPTOR.size > VALUE_BYTES)
        return -1;
    asn1h_arena_init(&arena, arena_buffer.bytes, sizeof arena_buffer.bytes, 0);
    kept_arenas = calloc(nmessages ? nmessages : 1, sizeof *kept_arenas);
    kept_values = calloc(nmessages ? nmessages : 1, sizeof *kept_values);
    return kept_arenas && kept_values ? 0 : -1;
}

int adapter_decode_free(const uint8_t *msg, size_t len)
{
    asn1h_error err;
    asn1h_code code = asn1h_decode(&BENCH_DESCRIPTOR, value_buffer.bytes, msg, len, &arena,
                                   NULL, NULL, &err);
    asn1h_arena_reset(&arena);
    return (int)code;
}

int adapter_decode_keep(size_t slot, const uint8_t *msg, size_t len)
{
    asn1h_error err;
    asn1h_arena_init(&kept_arenas[slot], NULL, 0, (size_t)-1);
    kept_values[slot] = calloc(1, BENCH_DESCRIPTOR.size ? BENCH_DESCRIPTOR.size : 1);
    if (!kept_values[slot])
        return 1;
    return asn1h_decode(&BENCH_DESCRIPTOR, kept_values[slot], msg, len, &kept_arenas[slot],
                        NULL, NULL, &err) != ASN1H_OK;
}

int adapter_encode(size_t slot, uint8_t *buf, size_t cap, const uint8_t **out,
                   size_t *out_len)
{
    asn1h_error err;
    if (asn1h_encode(&BENCH_DESCRIPTOR, kept_values[slot], buf, cap, out_len, &err) !=
        ASN1H_OK)
        return 1;
    *out = buf;
    return 0;
}
