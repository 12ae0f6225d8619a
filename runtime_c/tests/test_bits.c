/* test_bits.c: BIT STRING (X.690 8.6, 11.2) and OCTET STRING / OBJECT IDENTIFIER contents. */
#include "check.h"
#include "tests.h"
#include "types.h"

static asn1h_bits bits(const char *octets, size_t len, unsigned unused)
{
    asn1h_bits b;
    b.buf = (const uint8_t *)octets;
    b.len = len;
    b.unused = (uint8_t)unused;
    return b;
}

void test_bits_decode(void)
{
    asn1h_bits b;
    asn1h_error err;
    /* 8.6.2: the initial octet gives the unused bits of the last octet */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x01\x00"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(b.len == 0 && b.unused == 0);
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x02\x00\xA5"), ASN1H_DER, &err), ASN1H_OK);
    CHECK_BYTES(b.buf, b.len, "\xA5");
    CHECK(b.buf == dec_input() + 3);                /* zero copy */
    /* '1011'B: B0 with 4 unused bits */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x02\x04\xB0"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(b.len == 1 && b.unused == 4 && b.buf[0] == 0xB0);
    /* 11.2.1: DER wants the unused bits zero; BER does not care */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x02\x04\xB8"), 0, &err), ASN1H_OK);
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x02\x04\xB8"), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 3);
    /* 8.6.2.3: an empty string has initial octet 0 and nothing else */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x01\x03"), 0, &err), ASN1H_ERR_VALUE);
    /* 8.6.2.2: 0..7 unused bits */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x02\x08\x00"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x03\x00"), 0, &err), ASN1H_ERR_VALUE);
}

/* 8.6.3/8.6.4: the constructed form (BER only): segments, only the last with unused bits. */
void test_bits_constructed(void)
{
    asn1h_bits b;
    asn1h_error err;
    static const char segmented[] = "\x23\x80\x03\x02\x00\x0A\x03\x02\x04\xB0\x00\x00";
    CHECK_EQ(dec(&Bits_type, &b, LIT(segmented), 0, &err), ASN1H_OK);
    CHECK_BYTES(b.buf, b.len, "\x0A\xB0");
    CHECK_EQ(b.unused, 4);
    CHECK_EQ(dec_consumed, sizeof segmented - 1);
    CHECK_EQ(dec(&Bits_type, &b, LIT(segmented), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    /* nested segments */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x23\x09\x23\x04\x03\x02\x00\x0A\x03\x01\x00"), 0, &err),
             ASN1H_OK);
    CHECK_BYTES(b.buf, b.len, "\x0A");
    /* unused bits in a segment that is not the last */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x23\x08\x03\x02\x04\xB0\x03\x02\x00\x0A"), 0, &err),
             ASN1H_ERR_VALUE);
    /* a segment of another type */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x23\x04\x04\x02\x00\x0A"), 0, &err), ASN1H_ERR_TAG);
    /* a segment that overruns its parent */
    CHECK_EQ(dec(&Bits_type, &b, LIT("\x23\x04\x03\x03\x00\x0A\x0B"), 0, &err), ASN1H_ERR_LENGTH);
}

void test_bits_encode(void)
{
    asn1h_bits b = bits("\xA5", 1, 0);
    CHECK_ENCODES(&Bits_type, &b, "\x03\x02\x00\xA5");
    /* 11.2.1: unused bits are written as zero */
    b = bits("\xFF", 1, 3);
    CHECK_ENCODES(&Bits_type, &b, "\x03\x02\x03\xF8");
    b = bits("", 0, 0);
    CHECK_ENCODES(&Bits_type, &b, "\x03\x01\x00");
    /* without named bits, trailing zero bits stay */
    b = bits("\x40\x00", 2, 0);
    CHECK_ENCODES(&Bits_type, &b, "\x03\x03\x00\x40\x00");
}

/* 11.2.2: with named bits, DER drops trailing zero bits (bit 0 is the first, 0x80). */
void test_bits_named(void)
{
    asn1h_bits b, c;
    asn1h_error err;
    /* { b }: '01'B, two bits, 6 unused */
    b = bits("\x40\x00", 2, 0);
    CHECK_ENCODES(&Flags_type, &b, "\x03\x02\x06\x40");
    b = bits("\x40", 1, 4);
    CHECK_ENCODES(&Flags_type, &b, "\x03\x02\x06\x40");
    /* { a, c }: '101'B */
    b = bits("\xA0", 1, 0);
    CHECK_ENCODES(&Flags_type, &b, "\x03\x02\x05\xA0");
    /* { a }: '1'B */
    b = bits("\x80", 1, 7);
    CHECK_ENCODES(&Flags_type, &b, "\x03\x02\x07\x80");
    /* no bit set: the empty string */
    b = bits("\x00\x00", 2, 0);
    CHECK_ENCODES(&Flags_type, &b, "\x03\x01\x00");
    /* equal as abstract values whatever the trailing zeros */
    b = bits("\x40\x00", 2, 0);
    c = bits("\x40", 1, 6);
    CHECK(asn1h_equal(&Flags_type, &b, &c));
    c = bits("\x60", 1, 5);
    CHECK(!asn1h_equal(&Flags_type, &b, &c));
    /* strict DER: the last bit must be a one */
    CHECK_EQ(dec(&Flags_type, &b, LIT("\x03\x02\x06\x40"), ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(dec(&Flags_type, &b, LIT("\x03\x02\x05\x40"), 0, &err), ASN1H_OK);
    CHECK_EQ(dec(&Flags_type, &b, LIT("\x03\x02\x05\x40"), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(dec(&Flags_type, &b, LIT("\x03\x03\x06\x40\x00"), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(dec(&Flags_type, &b, LIT("\x03\x01\x00"), ASN1H_DER, &err), ASN1H_OK);
}

/* Primitive OCTET STRINGs point into the input; constructed ones (BER) are joined. */
void test_octet_strings(void)
{
    asn1h_bytes s;
    asn1h_error err;
    CHECK_EQ(dec(&Octets_type, &s, LIT("\x04\x03" "abc"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(s.buf == dec_input() + 2 && s.len == 3);
    CHECK_EQ(dec(&Octets_type, &s, LIT("\x24\x80\x04\x02" "ab" "\x24\x03\x04\x01" "c" "\x00\x00"), 0,
                 &err), ASN1H_OK);
    CHECK_BYTES(s.buf, s.len, "abc");
    CHECK_EQ(dec(&Octets_type, &s, LIT("\x24\x04\x04\x02" "ab"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    CHECK_EQ(dec(&Octets_type, &s, LIT("\x24\x04\x02\x02" "ab"), 0, &err), ASN1H_ERR_TAG);
    CHECK_EQ(dec(&Octets_type, &s, LIT("\x24\x80\x04\x02" "ab"), 0, &err), ASN1H_ERR_TRUNCATED);
    CHECK_EQ(dec(&Octets_type, &s, LIT("\x24\x00"), 0, &err), ASN1H_OK);
    CHECK_EQ(s.len, 0);
    s.buf = (const uint8_t *)"abc";
    s.len = 3;
    CHECK_ENCODES(&Octets_type, &s, "\x04\x03" "abc");
}

/* 8.19: subidentifiers in base 128, the fewest octets (no leading 0x80), the last with
 * bit 8 clear. */
void test_object_identifiers(void)
{
    asn1h_bytes s;
    asn1h_error err;
    /* 1.2.840.113549 = 2A 86 48 86 F7 0D */
    CHECK_EQ(dec(&Oid_type, &s, LIT("\x06\x06\x2A\x86\x48\x86\xF7\x0D"), ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(s.len, 6);
    CHECK_EQ(dec(&Oid_type, &s, LIT("\x06\x00"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Oid_type, &s, LIT("\x06\x02\x2A\x86"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Oid_type, &s, LIT("\x06\x03\x2A\x80\x01"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(err.offset, 3);
    CHECK_EQ(dec(&Oid_type, &s, LIT("\x06\x02\x80\x01"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Oid_type, &s, LIT("\x26\x03\x06\x01\x2A"), 0, &err), ASN1H_ERR_FORM);
}

/* Equality counts only the bits that count: never the unused ones, and with named bits not
 * the trailing zeros; at any length. */
void test_bits_equality(void)
{
    static uint8_t x[100], y[100];
    asn1h_bits a, b;
    memset(x, 0xA5, sizeof x);
    memset(y, 0xA5, sizeof y);
    x[99] = 0xA0;                           /* 1010 0000, 4 unused */
    y[99] = 0xAF;                           /* 1010 1111: differs only in unused bits */
    a = bits((const char *)x, 100, 4);
    b = bits((const char *)y, 100, 4);
    CHECK(asn1h_equal(&Bits_type, &a, &b));
    y[99] = 0xB0;                           /* a used bit differs */
    CHECK(!asn1h_equal(&Bits_type, &a, &b));
    b = bits((const char *)x, 100, 3);      /* one bit longer */
    CHECK(!asn1h_equal(&Bits_type, &a, &b));
    /* named bits: trailing zero bits do not count, whatever the length */
    memset(y, 0, sizeof y);
    y[0] = 0x40;
    a = bits((const char *)y, 100, 0);
    b = bits("\x40", 1, 6);
    CHECK(asn1h_equal(&Flags_type, &a, &b));
    CHECK(!asn1h_equal(&Bits_type, &a, &b));
    b = bits("", 0, 0);
    y[0] = 0;
    CHECK(asn1h_equal(&Flags_type, &a, &b));
}
