/* The measured program of the personnel demo: 100 DER encodings of the `smithperson`
 * value (from the specification's value notation), then 100 decodings of the result,
 * each in a function of its own so that callgrind can count it alone. */
#include <stdio.h>

#include "personnel.h"

static uint8_t encoding[1024];
static union { double align; uint8_t bytes[16384]; } arena_buffer;

__attribute__((noinline)) size_t encode_100(void)
{
    size_t len = 0;
    int i;
    for (i = 0; i < 100; i++)
        if (asn1h_encode(&PersonnelRecord_type, &smithperson, encoding, sizeof encoding, &len,
                         NULL) != ASN1H_OK)
            return 0;
    return len;
}

__attribute__((noinline)) int decode_100(const uint8_t *der, size_t len)
{
    static PersonnelRecord record;
    asn1h_arena arena;
    int i, failed = 0;
    asn1h_arena_init(&arena, arena_buffer.bytes, sizeof arena_buffer.bytes, 0);
    for (i = 0; i < 100; i++) {
        failed |= asn1h_decode(&PersonnelRecord_type, &record, der, len, &arena, NULL, NULL,
                               NULL) != ASN1H_OK;
        asn1h_arena_reset(&arena);
    }
    return failed;
}

int main(void)
{
    size_t len = encode_100();
    int failed = len == 0 || decode_100(encoding, len);
    printf("%lu bytes, %s\n", (unsigned long)len, failed ? "FAILED" : "ok");
    return failed;
}
