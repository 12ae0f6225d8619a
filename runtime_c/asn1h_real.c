/* asn1h_real.c: REAL contents (X.690 8.5): binary, decimal (ISO 6093) and the special
 * values when decoding, the DER form (11.3) when encoding.  Linked only when a spec has a
 * REAL type (spec->codecs). */
#include <math.h>
#include <stdlib.h>

#include "asn1h_ber.h"

/* X.690 11.3.2: the one decimal form DER allows, ISO 6093 NR3 with no spaces, a sign only
 * when negative, a mantissa without leading or trailing zero followed by ".E", and an
 * exponent that is "+0" or has no leading zero and no plus sign: "-15.E-3", "1.E+0". */
static int canonical_nr3(uint8_t first, const uint8_t *p, const uint8_t *end)
{
    const uint8_t *digits;
    if ((first & 0x3F) != 3)
        return 0;
    if (p < end && *p == '-')
        p++;
    for (digits = p; p < end && *p >= '0' && *p <= '9'; p++) {}
    if (p == digits || *digits == '0' || p[-1] == '0')
        return 0;
    if (end - p < 3 || p[0] != '.' || p[1] != 'E')
        return 0;
    p += 2;
    if (end - p == 2 && p[0] == '+' && p[1] == '0')
        return 1;
    if (*p == '-')
        p++;
    for (digits = p; p < end && *p >= '0' && *p <= '9'; p++) {}
    return p == end && p > digits && *digits != '0';
}

/* REAL (X.690 8.5): binary, decimal (ISO 6093) and the special values. */
const uint8_t *asn1h_dec_real(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                              unsigned form, double *v)
{
    size_t len = (size_t)(end - p);
    uint8_t b;

    ASN1H_REQUIRE_PRIMITIVE(d, p, form);
    if (len == 0) {
        *v = 0.0;
        return end;
    }
    b = p[0];
    if (b & 0x80) {                                         /* binary */
        static const uint8_t base_bits[4] = {1, 3, 4, 0};
        int bits = base_bits[(b >> 4) & 3], scale = (b >> 2) & 3;
        size_t elen = (b & 3) + 1, i;
        const uint8_t *q = p + 1;
        long exponent;
        uint64_t mantissa = 0;
        int shift = 0;
        if (bits == 0)
            return asn1h_fail(d, ASN1H_ERR_VALUE, p);
        if ((b & 3) == 3) {
            if (q >= end)
                return asn1h_fail(d, ASN1H_ERR_VALUE, p);
            elen = *q++;
        }
        if (elen == 0 || elen > 8 || (size_t)(end - q) < elen + 1)
            return asn1h_fail(d, ASN1H_ERR_VALUE, p);
        if ((d->flags & ASN1H_DER)
            && (((b >> 4) & 3) != 0 || scale != 0 || !(end[-1] & 1) || q[elen] == 0
                || (elen > 1 && ((q[0] == 0x00 && !(q[1] & 0x80))
                                 || (q[0] == 0xFF && (q[1] & 0x80))))))
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
        exponent = (q[0] & 0x80) ? -1 : 0;
        for (i = 0; i < elen; i++)
            exponent = (long)((unsigned long)exponent << 8) | q[i];
        q += elen;
        for (; q < end; q++) {              /* keep the top 64 bits, count the rest */
            if (mantissa >> 56)
                shift += 8;
            else
                mantissa = (mantissa << 8) | *q;
        }
        if (exponent > 100000 || exponent < -100000)
            *v = exponent > 0 && mantissa ? HUGE_VAL : 0.0;
        else
            *v = ldexp((double)mantissa, (int)(exponent * bits + scale + shift));
        if (b & 0x40)
            *v = -*v;
        return end;
    }
    if (b & 0x40) {                                         /* special values */
        if (len != 1)
            return asn1h_fail(d, ASN1H_ERR_VALUE, p);
        switch (b) {
        case 0x40: *v = HUGE_VAL; return end;
        case 0x41: *v = -HUGE_VAL; return end;
        case 0x42: *v = NAN; return end;
        case 0x43: *v = -0.0; return end;
        default: return asn1h_fail(d, ASN1H_ERR_VALUE, p);
        }
    }
    {                                                       /* decimal: NR1, NR2, NR3 */
        char small[64], *text = small;
        size_t i, n = len - 1;
        char *stop;
        if ((b & 0x3F) < 1 || (b & 0x3F) > 3 || n == 0)
            return asn1h_fail(d, ASN1H_ERR_VALUE, p);
        if ((d->flags & ASN1H_DER) && !canonical_nr3(b, p + 1, end))
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
        /* ISO 6093 sets no limit: a double in full NR1 or NR2 takes hundreds of digits */
        if (n >= sizeof small && !(text = (char *)asn1h_arena_alloc(d->arena, n + 1)))
            return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
        for (i = 0; i < n; i++) {
            char c = (char)p[1 + i];
            text[i] = c == ',' ? '.' : c;
        }
        text[n] = 0;
        *v = strtod(text, &stop);
        while (*stop == ' ')
            stop++;
        if (*stop != 0)
            return asn1h_fail(d, ASN1H_ERR_VALUE, p);
        return end;
    }
}

/* REAL in DER (X.690 11.3.1): base 2, scale 0, odd mantissa, fewest exponent octets. */
uint8_t *asn1h_enc_real(asn1h_enc *e, uint8_t *p, double v)
{
    uint64_t mantissa;
    long exponent;
    int exp2, negative = signbit(v) != 0;
    uint8_t *q, header;

    if (isnan(v)) {
        ASN1H_ROOM(e, p, 1);
        *--p = 0x42;
        return p;
    }
    if (isinf(v)) {
        ASN1H_ROOM(e, p, 1);
        *--p = negative ? 0x41 : 0x40;
        return p;
    }
    if (v == 0) {
        if (negative) {
            ASN1H_ROOM(e, p, 1);
            *--p = 0x43;
        }
        return p;
    }
    mantissa = (uint64_t)ldexp(frexp(fabs(v), &exp2), 53);
    exponent = (long)exp2 - 53;
    while (!(mantissa & 1)) {
        mantissa >>= 1;
        exponent++;
    }
    do {
        ASN1H_ROOM(e, p, 1);
        *--p = (uint8_t)mantissa;
        mantissa >>= 8;
    } while (mantissa);
    q = p;
    if (!(p = asn1h_put_int64(e, p, exponent)))     /* the fewest exponent octets */
        return NULL;
    header = (uint8_t)(0x80 | (negative ? 0x40 : 0) | ((size_t)(q - p) - 1));
    ASN1H_ROOM(e, p, 1);
    *--p = header;
    return p;
}
