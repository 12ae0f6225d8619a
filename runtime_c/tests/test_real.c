/* test_real.c: REAL (X.690 8.5) and its DER form (11.3.1).
 *
 * DER: base 2, scale factor 0, the mantissa odd (or the value 0, with no contents octets),
 * the exponent in the fewest two's-complement octets.  First contents octet, binary form:
 * bit 8 = 1, bit 7 = sign, bits 6-5 = base (00: 2, 01: 8, 10: 16), bits 4-3 = scale factor F,
 * bits 2-1 = exponent length - 1 (11: a length octet follows).  value = sign x N x 2^F x B^E.
 */
#include <float.h>
#include <math.h>

#include "check.h"
#include "tests.h"
#include "types.h"

#define H(s) s, sizeof(s) - 1

static const struct { double value; const char *der; size_t len; } canonical[] = {
    /* 8.5.2: zero has no contents octets */
    { 0.0, H("\x09\x00") },
    /* 1 = 1 x 2^0: N = 1, E = 0 */
    { 1.0, H("\x09\x03\x80\x00\x01") },
    { -1.0, H("\x09\x03\xC0\x00\x01") },
    /* 0.5 = 1 x 2^-1: E = -1 = FF */
    { 0.5, H("\x09\x03\x80\xFF\x01") },
    /* 2 = 1 x 2^1, not 2 x 2^0: the mantissa is odd */
    { 2.0, H("\x09\x03\x80\x01\x01") },
    { 3.0, H("\x09\x03\x80\x00\x03") },
    /* -2.5 = -(5 x 2^-1) */
    { -2.5, H("\x09\x03\xC0\xFF\x05") },
    /* 0.1 as a double is 0x1999999999999A x 2^-56 = 0xCCCCCCCCCCCCD x 2^-55; -55 = C9 */
    { 0.1, H("\x09\x09\x80\xC9\x0C\xCC\xCC\xCC\xCC\xCC\xCD") },
    /* 2^-128: E = -128 = 80 still fits one octet; 2^-127 = 81 */
    { 0x1p-128, H("\x09\x03\x80\x80\x01") },
    { 0x1p-127, H("\x09\x03\x80\x81\x01") },
    /* 2^128: E = 128 needs two octets, 00 80; exponent length 2 sets bits 2-1 to 01 */
    { 0x1p128, H("\x09\x04\x81\x00\x80\x01") },
    /* 2^1000: E = 1000 = 03 E8 */
    { 0x1p1000, H("\x09\x04\x81\x03\xE8\x01") },
    /* the smallest subnormal, 2^-1074: E = -1074 = FB CE */
    { 0x1p-1074, H("\x09\x04\x81\xFB\xCE\x01") },
    /* DBL_MAX = (2^53 - 1) x 2^971: N = 1F FF FF FF FF FF FF, E = 971 = 03 CB */
    { DBL_MAX, H("\x09\x0A\x81\x03\xCB\x1F\xFF\xFF\xFF\xFF\xFF\xFF") },
};

void test_real_der_encoding(void)
{
    size_t i;
    for (i = 0; i < sizeof canonical / sizeof canonical[0]; i++) {
        double x = canonical[i].value, y = 12345.0;
        asn1h_error err;
        check_encodes(__FILE__, __LINE__, &Real_type, &x, (const uint8_t *)canonical[i].der,
                      canonical[i].len);
        CHECK_EQ(dec(&Real_type, &y, (const uint8_t *)canonical[i].der, canonical[i].len,
                     ASN1H_DER, &err), ASN1H_OK);
        CHECK(y == x);
    }
}

/* 8.5.9: the special values, one octet each. */
void test_real_special_values(void)
{
    double x, y;
    asn1h_error err;
    x = HUGE_VAL;
    CHECK_ENCODES(&Real_type, &x, "\x09\x01\x40");
    x = -HUGE_VAL;
    CHECK_ENCODES(&Real_type, &x, "\x09\x01\x41");
    x = NAN;
    CHECK_ENCODES(&Real_type, &x, "\x09\x01\x42");
    x = -0.0;
    CHECK_ENCODES(&Real_type, &x, "\x09\x01\x43");
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x01\x40"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(isinf(y) && y > 0);
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x01\x41"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(isinf(y) && y < 0);
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x01\x42"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(isnan(y));
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x01\x43"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(y == 0 && signbit(y));
    /* 0 and -0 are different values */
    x = 0.0;
    CHECK(!asn1h_equal(&Real_type, &x, &y));
}

/* The other BER forms decode to the same value; DER refuses each of them. */
void test_real_ber_forms(void)
{
    static const struct { const char *ber; size_t len; double value; } forms[] = {
        /* base 8: 1 x 8^1 */
        { H("\x09\x03\x90\x01\x01"), 8.0 },
        /* base 16: 1 x 16^1 */
        { H("\x09\x03\xA0\x01\x01"), 16.0 },
        /* scale factor F = 1: 1 x 2^1 x 2^0 */
        { H("\x09\x03\x84\x00\x01"), 2.0 },
        /* an even mantissa: 2 x 2^0 */
        { H("\x09\x03\x80\x00\x02"), 2.0 },
        /* a two-octet exponent where one does: 00 01 */
        { H("\x09\x04\x81\x00\x01\x01"), 2.0 },
        /* a leading zero octet in the mantissa */
        { H("\x09\x04\x80\x00\x00\x01"), 1.0 },
        /* zero as a binary encoding rather than no contents */
        { H("\x09\x03\x80\x00\x00"), 0.0 },
        /* decimal forms (8.5.8, ISO 6093): NR1, NR2 with a comma, NR3 */
        { H("\x09\x03\x01" "42"), 42.0 },
        { H("\x09\x05\x02" "-2,5"), -2.5 },
        { H("\x09\x06\x03" "1.5E1"), 15.0 },
    };
    size_t i;
    for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        double y = -1;
        asn1h_error err;
        CHECK_EQ(dec(&Real_type, &y, (const uint8_t *)forms[i].ber, forms[i].len, 0, &err),
                 ASN1H_OK);
        CHECK(y == forms[i].value);
        if (forms[i].ber[2] & 0x80) {       /* the decimal forms are allowed in DER */
            CHECK_EQ(dec(&Real_type, &y, (const uint8_t *)forms[i].ber, forms[i].len,
                         ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
        }
    }
}

/* A mantissa longer than a double's: 2^64 + 1 (odd, so canonical) rounds to 2^64. */
void test_real_long_mantissa(void)
{
    double y;
    asn1h_error err;
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x0B\x80\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01"),
                 ASN1H_DER, &err), ASN1H_OK);
    CHECK(y == 18446744073709551616.0);
}

void test_real_malformed(void)
{
    static const struct { const char *ber; size_t len; asn1h_code code; } bad[] = {
        { H("\x09\x01\x80"), ASN1H_ERR_VALUE },             /* no exponent */
        { H("\x09\x02\x80\x00"), ASN1H_ERR_VALUE },         /* no mantissa */
        { H("\x09\x02\x81\x00"), ASN1H_ERR_VALUE },         /* exponent cut short */
        { H("\x09\x01\x83"), ASN1H_ERR_VALUE },             /* no exponent length */
        { H("\x09\x03\x83\x00\x01"), ASN1H_ERR_VALUE },     /* exponent length 0 */
        { H("\x09\x03\x83\x09\x01"), ASN1H_ERR_VALUE },     /* exponent longer than the rest */
        { H("\x09\x03\xB0\x00\x01"), ASN1H_ERR_VALUE },     /* base 11: reserved */
        { H("\x09\x01\x44"), ASN1H_ERR_VALUE },             /* an undefined special value */
        { H("\x09\x02\x40\x00"), ASN1H_ERR_VALUE },         /* a special value, two octets */
        { H("\x09\x01\x03"), ASN1H_ERR_VALUE },             /* decimal, no digits */
        { H("\x09\x02\x04\x31"), ASN1H_ERR_VALUE },         /* decimal form 4: undefined */
        { H("\x09\x03\x03\x31\x78"), ASN1H_ERR_VALUE },     /* decimal junk */
        { H("\x29\x00"), ASN1H_ERR_FORM },                  /* constructed */
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double y;
        asn1h_error err;
        CHECK_EQ(dec(&Real_type, &y, (const uint8_t *)bad[i].ber, bad[i].len, 0, &err), bad[i].code);
    }
}

/* Exponents far outside a double's range: infinity or zero, never undefined arithmetic. */
void test_real_extreme_exponents(void)
{
    double y;
    asn1h_error err;
    /* E = 2^63 - 1 (eight octets, format 11) */
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x0B\x83\x08\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01"), 0,
                 &err), ASN1H_OK);
    CHECK(isinf(y) && y > 0);
    /* E = -2^63 */
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x0B\xC3\x08\x80\x00\x00\x00\x00\x00\x00\x00\x01"), 0,
                 &err), ASN1H_OK);
    CHECK(y == 0 && signbit(y));
    /* E = 1100 with base 16: 16^1100 overflows */
    CHECK_EQ(dec(&Real_type, &y, LIT("\x09\x04\xA1\x04\x4C\x01"), 0, &err), ASN1H_OK);
    CHECK(isinf(y));
}
