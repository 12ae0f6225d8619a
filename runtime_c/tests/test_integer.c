/* test_integer.c: INTEGER and ENUMERATED (X.690 8.3, 8.4): two's complement in the fewest
 * octets, at the boundaries of every C storage and beyond 64 bits. */
#include "check.h"
#include "tests.h"
#include "types.h"

#define H(s) s, sizeof(s) - 1

/* Values that fit 64 bits: each TLV decodes to `value` in BER and in DER, and `value`
 * encodes to the same TLV.  Octets worked out from 8.3.2: the shortest two's complement,
 * so that the first nine bits are never all equal. */
static const struct { const char *der; size_t len; int64_t value; } small[] = {
    { H("\x02\x01\x00"), 0 },
    { H("\x02\x01\x01"), 1 },
    { H("\x02\x01\xFF"), -1 },
    { H("\x02\x01\x7F"), 127 },
    { H("\x02\x02\x00\x80"), 128 },                 /* 0x80 alone would be -128 */
    { H("\x02\x01\x80"), -128 },
    { H("\x02\x02\xFF\x7F"), -129 },
    { H("\x02\x02\x00\xFF"), 255 },
    { H("\x02\x02\x01\x00"), 256 },
    { H("\x02\x02\x7F\xFF"), 32767 },
    { H("\x02\x03\x00\x80\x00"), 32768 },
    { H("\x02\x02\x80\x00"), -32768 },
    { H("\x02\x03\x01\x86\x9F"), 99999 },           /* 0x01869F */
    { H("\x02\x04\x7F\xFF\xFF\xFF"), 2147483647 },
    { H("\x02\x05\x00\x80\x00\x00\x00"), 2147483648 },
    { H("\x02\x04\x80\x00\x00\x00"), -2147483647 - 1 },
    { H("\x02\x08\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), INT64_MAX },
    { H("\x02\x08\x80\x00\x00\x00\x00\x00\x00\x00"), INT64_MIN },
    { H("\x02\x08\x80\x00\x00\x00\x00\x00\x00\x01"), INT64_MIN + 1 },
};

void test_integer_native_boundaries(void)
{
    size_t i;
    for (i = 0; i < sizeof small / sizeof small[0]; i++) {
        asn1h_int x;
        asn1h_error err;
        int64_t wide;
        CHECK_EQ(dec(&Int_type, &x, (const uint8_t *)small[i].der, small[i].len, 0, &err), ASN1H_OK);
        CHECK_EQ(x.v, small[i].value);
        CHECK(x.big == NULL);
        CHECK_EQ(dec_consumed, small[i].len);
        CHECK_EQ(dec(&Int_type, &x, (const uint8_t *)small[i].der, small[i].len, ASN1H_DER, &err),
                 ASN1H_OK);
        check_encodes(__FILE__, __LINE__, &Int_type, &x, (const uint8_t *)small[i].der,
                      small[i].len);
        /* the same through int64_t storage */
        CHECK_EQ(dec(&I64_type, &wide, (const uint8_t *)small[i].der, small[i].len, ASN1H_DER,
                     &err), ASN1H_OK);
        CHECK_EQ(wide, small[i].value);
        check_encodes(__FILE__, __LINE__, &I64_type, &wide, (const uint8_t *)small[i].der,
                      small[i].len);
    }
}

/* Beyond 64 bits: the octets are kept exactly (certificate serials, RSA moduli). */
void test_integer_big(void)
{
    /* 2^63 = 0x00 80 00 00 00 00 00 00 00: nine octets, one more than int64_t holds */
    static const char two_63[] = "\x02\x09\x00\x80\x00\x00\x00\x00\x00\x00\x00";
    /* -2^63 - 1: nine octets FF 7F FF .. FF */
    static const char below_min[] = "\x02\x09\xFF\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
    uint8_t modulus[3 + 129];
    asn1h_int x, y;
    asn1h_error err;
    size_t i;

    CHECK_EQ(dec(&Int_type, &x, LIT(two_63), ASN1H_DER, &err), ASN1H_OK);
    CHECK(x.big != NULL);
    if (x.big)
        CHECK_BYTES(x.big, x.big_len, "\x00\x80\x00\x00\x00\x00\x00\x00\x00");
    CHECK_ENCODES(&Int_type, &x, two_63);
    CHECK_EQ(dec(&Int_type, &x, LIT(below_min), ASN1H_DER, &err), ASN1H_OK);
    CHECK(x.big != NULL);
    CHECK_ENCODES(&Int_type, &x, below_min);

    /* a 1024-bit modulus: 0x00 then 128 octets with the top bit set, 02 81 81 ... */
    modulus[0] = 0x02;
    modulus[1] = 0x81;
    modulus[2] = 0x81;
    modulus[3] = 0x00;
    for (i = 4; i < sizeof modulus; i++)
        modulus[i] = (uint8_t)(0xC5 ^ i);
    CHECK_EQ(dec(&Int_type, &x, modulus, sizeof modulus, ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(x.big_len, 129);
    CHECK(x.big == dec_input() + 3);                /* zero copy: points into the input */
    check_encodes(__FILE__, __LINE__, &Int_type, &x, modulus, sizeof modulus);

    /* a value given with redundant sign octets encodes in the fewest (8.3.2) */
    memset(&y, 0, sizeof y);
    y.big = (const uint8_t *)"\x00\x00\x00\x80";
    y.big_len = 4;
    CHECK_ENCODES(&Int_type, &y, "\x02\x02\x00\x80");
    y.big = (const uint8_t *)"\xFF\xFF\xFF\x80";
    CHECK_ENCODES(&Int_type, &y, "\x02\x01\x80");
    /* and equals the same number held natively */
    memset(&x, 0, sizeof x);
    x.v = -128;
    CHECK(asn1h_equal(&Int_type, &x, &y));
    x.v = 128;
    CHECK(!asn1h_equal(&Int_type, &x, &y));
}

/* BER allows redundant leading octets; they decode to the same value, and DER refuses them
 * (8.3.2). */
void test_integer_not_minimal(void)
{
    asn1h_int x;
    int32_t i32;
    asn1h_error err;

    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x02\x00\x7F"), 0, &err), ASN1H_OK);
    CHECK_EQ(x.v, 127);
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x02\x00\x7F"), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 2);
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x02\xFF\x80"), 0, &err), ASN1H_OK);
    CHECK_EQ(x.v, -128);
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x02\xFF\x80"), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    /* ten octets for 5, and for -2: the value still fits the native form, so it is held
     * there (asn1h.h: decoding uses `v` whenever it fits) */
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x0A\x00\x00\x00\x00\x00\x00\x00\x00\x00\x05"), 0, &err),
             ASN1H_OK);
    CHECK(x.big == NULL && x.v == 5);
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x0A\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFE"), 0, &err),
             ASN1H_OK);
    CHECK(x.big == NULL && x.v == -2);
    CHECK_EQ(dec(&I32_type, &i32, LIT("\x02\x0A\x00\x00\x00\x00\x00\x00\x00\x00\x00\x05"), 0,
                 &err), ASN1H_OK);
    CHECK_EQ(i32, 5);
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x0A\x00\x00\x00\x00\x00\x00\x00\x00\x00\x05"),
                 ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
}

void test_integer_malformed(void)
{
    asn1h_int x;
    asn1h_error err;
    /* 8.3.1: one or more contents octets */
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x00"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(err.offset, 2);
    /* 8.3.1: primitive */
    CHECK_EQ(dec(&Int_type, &x, LIT("\x22\x03\x02\x01\x01"), 0, &err), ASN1H_ERR_FORM);
    CHECK_EQ(dec(&Int_type, &x, LIT("\x22\x80\x02\x01\x01\x00\x00"), 0, &err), ASN1H_ERR_FORM);
    /* another type's tag */
    CHECK_EQ(dec(&Int_type, &x, LIT("\x0A\x01\x01"), 0, &err), ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 0);
    /* the input ends inside the value */
    CHECK_EQ(dec(&Int_type, &x, LIT("\x02\x02\x01"), 0, &err), ASN1H_ERR_TRUNCATED);
}

/* Each C storage takes exactly its range; one past either end is refused. */
void test_integer_storage_ranges(void)
{
    static const struct {
        const asn1h_type *type;
        const char *der;
        size_t len;
        asn1h_code code;
        int64_t value;          /* for the signed storages and the unsigned up to 2^63 */
    } cases[] = {
        { &I8_type, H("\x02\x01\x7F"), ASN1H_OK, 127 },
        { &I8_type, H("\x02\x02\x00\x80"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I8_type, H("\x02\x01\x80"), ASN1H_OK, -128 },
        { &I8_type, H("\x02\x02\xFF\x7F"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U8_type, H("\x02\x02\x00\xFF"), ASN1H_OK, 255 },
        { &U8_type, H("\x02\x02\x01\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U8_type, H("\x02\x01\xFF"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I16_type, H("\x02\x02\x7F\xFF"), ASN1H_OK, 32767 },
        { &I16_type, H("\x02\x03\x00\x80\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I16_type, H("\x02\x02\x80\x00"), ASN1H_OK, -32768 },
        { &I16_type, H("\x02\x03\xFF\x7F\xFF"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U16_type, H("\x02\x03\x00\xFF\xFF"), ASN1H_OK, 65535 },
        { &U16_type, H("\x02\x03\x01\x00\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I32_type, H("\x02\x04\x7F\xFF\xFF\xFF"), ASN1H_OK, 2147483647 },
        { &I32_type, H("\x02\x05\x00\x80\x00\x00\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I32_type, H("\x02\x04\x80\x00\x00\x00"), ASN1H_OK, -2147483647 - 1 },
        { &I32_type, H("\x02\x05\xFF\x7F\xFF\xFF\xFF"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U32_type, H("\x02\x05\x00\xFF\xFF\xFF\xFF"), ASN1H_OK, 4294967295 },
        { &U32_type, H("\x02\x05\x01\x00\x00\x00\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U32_type, H("\x02\x01\x80"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I64_type, H("\x02\x09\x00\x80\x00\x00\x00\x00\x00\x00\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &I64_type, H("\x02\x09\xFF\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U64_type, H("\x02\x09\x01\x00\x00\x00\x00\x00\x00\x00\x00"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U64_type, H("\x02\x01\xFF"), ASN1H_ERR_CONSTRAINT, 0 },
        { &U64_type, H("\x02\x08\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), ASN1H_OK, INT64_MAX },
    };
    union { int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32;
            int64_t i64; uint64_t u64; } v;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        asn1h_error err;
        const asn1h_type *t = cases[i].type;
        int64_t got = 0;
        char name[ASN1H_NAME_MAX];
        asn1h_code code = dec(t, &v, (const uint8_t *)cases[i].der, cases[i].len, 0, &err);
        if (code != cases[i].code) {
            printf("  case %lu (%s): code %d, expected %d\n", (unsigned long)i,
                   asn1h_type_name(t, name, sizeof name),
                   (int)code, (int)cases[i].code);
            check_failures++;
            continue;
        }
        if (code != ASN1H_OK)
            continue;
        switch (t->aux) {
        case ASN1H_INT_I8: got = v.i8; break;
        case ASN1H_INT_U8: got = v.u8; break;
        case ASN1H_INT_I16: got = v.i16; break;
        case ASN1H_INT_U16: got = v.u16; break;
        case ASN1H_INT_I32: got = v.i32; break;
        case ASN1H_INT_U32: got = (int64_t)v.u32; break;
        case ASN1H_INT_I64: got = v.i64; break;
        default: got = (int64_t)v.u64; break;
        }
        CHECK_EQ(got, cases[i].value);
        check_encodes(__FILE__, __LINE__, t, &v, (const uint8_t *)cases[i].der, cases[i].len);
    }
}

/* The largest unsigned 64-bit value needs nine octets: 0x00 then eight 0xFF. */
void test_integer_uint64_max(void)
{
    static const char der[] = "\x02\x09\x00\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF";
    uint64_t u = 0;
    asn1h_error err;
    CHECK_EQ(dec(&U64_type, &u, LIT(der), ASN1H_DER, &err), ASN1H_OK);
    CHECK(u == UINT64_MAX);
    CHECK_ENCODES(&U64_type, &u, der);
    u = (uint64_t)1 << 63;
    CHECK_ENCODES(&U64_type, &u, "\x02\x09\x00\x80\x00\x00\x00\x00\x00\x00\x00");
}

/* The compiled routines' inline reads, against the same table. */
void test_integer_fast_paths(void)
{
    size_t i;
    for (i = 0; i < sizeof small / sizeof small[0]; i++) {
        uint8_t buf[32];
        int64_t value = 0;
        const uint8_t *q;
        size_t len = small[i].len;
        memset(buf, 0xEE, sizeof buf);
        memcpy(buf, small[i].der, len);
        /* word-wide: eight octets can be read past the identifier and length */
        q = asn1h_word_int(buf, asn1h_safe(buf, buf + sizeof buf), 0x02, 1, &value);
        CHECK(q == buf + len);
        CHECK_EQ(value, small[i].value);
        /* octet by octet, with the value ending the input */
        value = 0;
        q = asn1h_fast_int(buf, buf + len, asn1h_safe(buf, buf + len), 0x02, 1, &value);
        CHECK(q == buf + len);
        CHECK_EQ(value, small[i].value);
    }
    {
        /* not minimal: refused in strict mode, so that the general path reports it */
        static const uint8_t loose[12] = { 0x02, 0x02, 0x00, 0x05 };
        int64_t value = 0;
        CHECK(asn1h_word_int(loose, asn1h_safe(loose, loose + 12), 0x02, 1, &value) == NULL);
        CHECK(asn1h_fast_int(loose, loose + 4, asn1h_safe(loose, loose + 4), 0x02, 1, &value) == NULL);
        CHECK(asn1h_word_int(loose, asn1h_safe(loose, loose + 12), 0x02, 0, &value) == loose + 4);
        CHECK_EQ(value, 5);
        /* nine octets never take the fast path */
        CHECK(asn1h_fast_int((const uint8_t *)"\x02\x09\x00\x80\x00\x00\x00\x00\x00\x00\x00",
                             (const uint8_t *)"\x02\x09\x00\x80\x00\x00\x00\x00\x00\x00\x00" + 11,
                             0, 0x02, 0, &value) == NULL);
    }
}

/* ENUMERATED (8.4): encoded as INTEGER; a value outside the root is refused unless the type
 * is extensible. */
void test_enumerated(void)
{
    int32_t color = -1;
    asn1h_error err;
    CHECK_EQ(dec(&Color_type, &color, LIT("\x0A\x01\x05"), ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(color, 5);
    CHECK_ENCODES(&Color_type, &color, "\x0A\x01\x05");
    CHECK_EQ(dec(&Color_type, &color, LIT("\x0A\x01\x02"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Color_type, &color, LIT("\x02\x01\x01"), 0, &err), ASN1H_ERR_TAG);
}

/* A type with two tags of its own: [APPLICATION 5] EXPLICIT INTEGER. */
void test_explicit_wrapper(void)
{
    asn1h_int x;
    asn1h_error err;
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x65\x03\x02\x01\x2A"), ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(x.v, 42);
    CHECK_ENCODES(&Wrapped_type, &x, "\x65\x03\x02\x01\x2A");
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x65\x80\x02\x01\x2A\x00\x00"), 0, &err), ASN1H_OK);
    CHECK_EQ(x.v, 42);
    CHECK_EQ(dec_consumed, 7);
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x65\x80\x02\x01\x2A\x00\x00"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    /* 8.14.2: an explicit tag is always constructed */
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x45\x03\x02\x01\x2A"), 0, &err), ASN1H_ERR_FORM);
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x65\x03\x0A\x01\x2A"), 0, &err), ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 2);
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x65\x04\x02\x01\x2A\x00"), 0, &err), ASN1H_ERR_TRAILING);
    CHECK_EQ(err.offset, 5);
    CHECK_EQ(dec(&Wrapped_type, &x, LIT("\x65\x80\x02\x01\x2A\x00"), 0, &err), ASN1H_ERR_TRUNCATED);
}
