/* asn1h_jer.c: a table-driven value printer, writing JSON as X.697 (JER) does.
 *
 * OCTET STRING as hex, BIT STRING as {"value": hex, "length": bits} (bare hex when its
 * size is fixed), OBJECT IDENTIFIER as dotted text, character strings as JSON strings in
 * UTF-8, CHOICE as {"alternative": value}, REAL specials as "INF", "-INF", "NaN", "-0".
 * Unknown extensions, which X.697 has no notation for, are hex under the key "...", which
 * no ASN.1 identifier can be: {"known": 1, "...": "0A0101"} for a SEQUENCE's or SET's
 * unknown additions (their TLVs as received, concatenated), {"...": "8001FF"} for a
 * CHOICE's unknown alternative; an ENUMERATED's unknown addition is its number, or
 * {"...": 2} for one received in PER, which gives its index among the additions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asn1h_ber.h"

static int put_hex(FILE *out, const uint8_t *buf, size_t len)
{
    static const char digits[] = "0123456789ABCDEF";
    size_t i;
    for (i = 0; i < len; i++) {
        putc(digits[buf[i] >> 4], out);
        putc(digits[buf[i] & 15], out);
    }
    return 0;
}

static void put_unknown(FILE *out, const char *separator, const asn1h_bytes *kept)
{
    fprintf(out, "%s\"...\":\"", separator);
    put_hex(out, kept->buf, kept->len);
    putc('"', out);
}

static void put_code_point(FILE *out, uint32_t c)
{
    if (c == '"' || c == '\\') {
        putc('\\', out);
        putc((int)c, out);
    } else if (c < 0x20 || c == 0x7F) {
        fprintf(out, "\\u%04x", (unsigned)c);
    } else if (c < 0x80) {
        putc((int)c, out);
    } else if (c < 0x800) {
        putc((int)(0xC0 | (c >> 6)), out);
        putc((int)(0x80 | (c & 0x3F)), out);
    } else if (c < 0x10000) {
        putc((int)(0xE0 | (c >> 12)), out);
        putc((int)(0x80 | ((c >> 6) & 0x3F)), out);
        putc((int)(0x80 | (c & 0x3F)), out);
    } else {
        putc((int)(0xF0 | (c >> 18)), out);
        putc((int)(0x80 | ((c >> 12) & 0x3F)), out);
        putc((int)(0x80 | ((c >> 6) & 0x3F)), out);
        putc((int)(0x80 | (c & 0x3F)), out);
    }
}

/* A character string: UTF-8 as it is, BMPString and UniversalString from UCS-2/UCS-4,
 * the 8-bit string types as Latin-1. */
static void put_string(FILE *out, const asn1h_bytes *s, unsigned universal)
{
    size_t i;
    putc('"', out);
    if (universal == 30) {                                  /* BMPString */
        for (i = 0; i + 1 < s->len; i += 2)
            put_code_point(out, (uint32_t)s->buf[i] << 8 | s->buf[i + 1]);
    } else if (universal == 28) {                           /* UniversalString */
        for (i = 0; i + 3 < s->len; i += 4)
            put_code_point(out, (uint32_t)s->buf[i] << 24 | (uint32_t)s->buf[i + 1] << 16
                                | (uint32_t)s->buf[i + 2] << 8 | s->buf[i + 3]);
    } else if (universal == 12) {                           /* UTF8String: as received */
        for (i = 0; i < s->len; i++) {
            uint8_t c = s->buf[i];
            if (c < 0x80)
                put_code_point(out, c);
            else
                putc(c, out);
        }
    } else {
        for (i = 0; i < s->len; i++)
            put_code_point(out, s->buf[i]);
    }
    putc('"', out);
}

static int put_big(FILE *out, const uint8_t *buf, size_t len);

/* An arc of more than 63 bits (septets p[0..n)), less `minus`, in decimal. */
static int put_big_arc(FILE *out, const uint8_t *p, size_t n, unsigned minus)
{
    size_t len = (7 * n + 7) / 8 + 1, i, bit;   /* a leading 0 octet: positive */
    uint8_t *mag = (uint8_t *)calloc(len, 1);
    int rc;
    if (!mag)
        return -1;
    for (i = 0; i < n; i++)                     /* append the septets' bits */
        for (bit = 0; bit < 7; bit++) {
            size_t k, carry = (p[i] >> (6 - bit)) & 1u;
            for (k = len; k-- > 0;) {
                unsigned x = (unsigned)mag[k] << 1 | (unsigned)carry;
                mag[k] = (uint8_t)x;
                carry = x >> 8;
            }
        }
    for (i = len; i-- > 0 && minus;) {          /* subtract the first arc's share */
        unsigned x = mag[i];
        mag[i] = (uint8_t)(x - (minus & 0xFFu));
        minus = (minus >> 8) + (x < (minus & 0xFFu));
    }
    rc = put_big(out, mag, len);
    free(mag);
    return rc;
}

static int put_oid(FILE *out, const asn1h_bytes *s, int relative)
{
    size_t i, start = 0;
    uint64_t arc = 0;
    int first = !relative, sep = 0;
    putc('"', out);
    for (i = 0; i < s->len; i++) {
        arc = (arc << 7) | (s->buf[i] & 0x7Fu);
        if (s->buf[i] & 0x80)
            continue;
        if (sep)
            putc('.', out);
        if (i + 1 - start > 9) {                /* beyond 63 bits: exact, in decimal */
            if (first)
                fputs("2.", out);               /* a subidentifier this large is 80 + x */
            if (put_big_arc(out, s->buf + start, i + 1 - start, first ? 80 : 0))
                return -1;
        } else if (first) {
            unsigned top = arc < 40 ? 0 : arc < 80 ? 1 : 2;
            fprintf(out, "%u.%llu", top, (unsigned long long)(arc - 40u * top));
        } else {
            fprintf(out, "%llu", (unsigned long long)arc);
        }
        first = 0;
        sep = 1;
        arc = 0;
        start = i + 1;
    }
    putc('"', out);
    return 0;
}

/* A two's-complement number of any length, in decimal. */
static int put_big(FILE *out, const uint8_t *buf, size_t len)
{
    uint8_t *mag = (uint8_t *)malloc(len ? len : 1);
    char *digits = (char *)malloc(len * 3 + 2);
    size_t n = 0, i, start = 0;
    int negative = len && (buf[0] & 0x80);
    if (!mag || !digits) {
        free(mag);
        free(digits);
        return -1;
    }
    memcpy(mag, buf, len);
    if (negative) {                         /* magnitude = two's complement negated */
        int carry = 1;
        for (i = len; i-- > 0;) {
            unsigned x = (uint8_t)~mag[i] + (unsigned)carry;
            mag[i] = (uint8_t)x;
            carry = x >> 8;
        }
    }
    while (start < len) {                   /* repeated division by 10 */
        unsigned rem = 0;
        for (i = start; i < len; i++) {
            unsigned cur = rem << 8 | mag[i];
            mag[i] = (uint8_t)(cur / 10);
            rem = cur % 10;
        }
        digits[n++] = (char)('0' + rem);
        while (start < len && mag[start] == 0)
            start++;
    }
    if (n == 0)
        digits[n++] = '0';
    if (negative)
        putc('-', out);
    while (n-- > 0)
        putc(digits[n], out);
    free(mag);
    free(digits);
    return 0;
}

static int put_integer(FILE *out, const asn1h_type *t, const void *v)
{
    switch (asn1h_storage(t)) {
    case ASN1H_INT_BIG: {
        const asn1h_int *x = (const asn1h_int *)v;
        if (x->big && x->big_len)
            return put_big(out, x->big, x->big_len);
        fprintf(out, "%lld", (long long)x->v);
        return 0;
    }
    case ASN1H_INT_I8: fprintf(out, "%d", *(const int8_t *)v); return 0;
    case ASN1H_INT_U8: fprintf(out, "%u", *(const uint8_t *)v); return 0;
    case ASN1H_INT_I16: fprintf(out, "%d", *(const int16_t *)v); return 0;
    case ASN1H_INT_U16: fprintf(out, "%u", *(const uint16_t *)v); return 0;
    case ASN1H_INT_I32: fprintf(out, "%ld", (long)*(const int32_t *)v); return 0;
    case ASN1H_INT_U32: fprintf(out, "%lu", (unsigned long)*(const uint32_t *)v); return 0;
    case ASN1H_INT_I64: fprintf(out, "%lld", (long long)*(const int64_t *)v); return 0;
    case ASN1H_INT_U64: fprintf(out, "%llu", (unsigned long long)*(const uint64_t *)v); return 0;
    default: return -1;
    }
}

static int64_t enum_value(const asn1h_type *t, const void *v)
{
    switch (asn1h_storage(t)) {
    case ASN1H_INT_I8: return *(const int8_t *)v;
    case ASN1H_INT_U8: return *(const uint8_t *)v;
    case ASN1H_INT_I16: return *(const int16_t *)v;
    case ASN1H_INT_U16: return *(const uint16_t *)v;
    case ASN1H_INT_I32: return *(const int32_t *)v;
    case ASN1H_INT_U32: return *(const uint32_t *)v;
    default: return *(const int64_t *)v;
    }
}

static void put_real(FILE *out, double x)
{
    if (isnan(x))
        fputs("\"NaN\"", out);
    else if (isinf(x))
        fputs(x > 0 ? "\"INF\"" : "\"-INF\"", out);
    else if (x == 0 && signbit(x))
        fputs("\"-0\"", out);
    else
        fprintf(out, "%.17g", x);
}

static const void *member_value(const asn1h_member *m, const void *base)
{
    const void *v = (const uint8_t *)base + m->offset;
    if (m->flags & ASN1H_M_POINTER)
        memcpy(&v, v, sizeof v);
    return v;
}

static int print(FILE *out, const asn1h_spec *spec, const asn1h_type *t, const void *v);

/* JER names members and enumeration items: a build without names cannot print it. */
int asn1h_print_jer(FILE *out, const asn1h_type *t, const void *v)
{
    const asn1h_spec *spec = asn1h_spec_of(t);
    if (!spec->names)
        return -1;
    return print(out, spec, t, v);
}

/* Prints `"name"` of an ENUMERATED item or a member (by its number). */
static void put_name(FILE *out, const asn1h_spec *spec, size_t number)
{
    char name[ASN1H_NAME_MAX];
    asn1h_name(spec, number, name, sizeof name);
    fprintf(out, "\"%s\"", name);
}

static int print(FILE *out, const asn1h_spec *spec, const asn1h_type *t, const void *v)
{
    const asn1h_type *types = asn1h_spec_types(spec);
    unsigned i;
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        fputs(*(const bool *)v ? "true" : "false", out);
        break;
    case ASN1H_INTEGER:
        if (put_integer(out, t, v))
            return -1;
        break;
    case ASN1H_ENUMERATED: {
        int64_t value = enum_value(t, v);
        for (i = 0; i < t->count; i++)
            if ((t->flags & ASN1H_T_DENSE) ? value == (int64_t)i
                                           : spec->enum_values[t->first + i] == value)
                break;
        if (i < t->count)
            put_name(out, spec, ASN1H_ITEM_NAME(spec, t->first + i));
        else if ((t->flags & ASN1H_T_EXTENSIBLE) && asn1h_enum_addition(value))
            fprintf(out, "{\"...\":%lld}",  /* kept by its index among the additions */
                    (long long)(value - ASN1H_ENUM_ADDITION(0)));
        else
            fprintf(out, "%lld", (long long)value);     /* an unknown extension value */
        break;
    }
    case ASN1H_REAL:
        put_real(out, *(const double *)v);
        break;
    case ASN1H_BIT_STRING: {
        const asn1h_bits *b = (const asn1h_bits *)v;
        size_t bits = b->len * 8 - (b->len ? b->unused : 0);
        if (t->flags & ASN1H_T_FIXED_SIZE) {
            putc('"', out);
            put_hex(out, b->buf, b->len);
            putc('"', out);
        } else {
            size_t len = b->len;
            /* with named bits, trailing 0 bits are not part of the value (X.680 22.7):
             * the value prints the same whichever BER it came in, as DER writes it */
            if (t->flags & ASN1H_T_NAMED_BITS) {
                while (bits && !(b->buf[(bits - 1) / 8] & (0x80u >> ((bits - 1) % 8))))
                    bits--;
                len = (bits + 7) / 8;
            }
            fputs("{\"value\":\"", out);
            put_hex(out, b->buf, len);
            fprintf(out, "\",\"length\":%lu}", (unsigned long)bits);
        }
        break;
    }
    case ASN1H_BYTES: {
        const asn1h_bytes *s = (const asn1h_bytes *)v;
        const asn1h_open *contained = (const asn1h_open *)v;
        if ((t->flags & ASN1H_T_CONTAINING) && contained->type && contained->value) {
            return print(out, spec, contained->type, contained->value);
        } else if (t->aux == 4) {
            putc('"', out);
            put_hex(out, s->buf, s->len);
            putc('"', out);
        } else if (t->aux == 6 || t->aux == 13) {
            if (put_oid(out, s, t->aux == 13))
                return -1;
        } else {
            put_string(out, s, t->aux);
        }
        break;
    }
    case ASN1H_NULL:
        fputs("null", out);
        break;
    case ASN1H_SEQUENCE:
    case ASN1H_SET: {
        int first = 1;
        putc('{', out);
        for (i = 0; i < t->count; i++) {
            const asn1h_member *m = &spec->members[t->first + i];
            const void *mv = member_value(m, v);
            if (m->bit != ASN1H_NO_BIT && !(m->flags & ASN1H_M_DEFAULT)
                && !asn1h_get_bit(v, m->bit))
                continue;
            if (!mv)
                continue;
            if (!first)
                fputc(',', out);
            put_name(out, spec, ASN1H_MEMBER_NAME(spec, m - spec->members));
            fputc(':', out);
            if (print(out, spec, types + m->type, mv))
                return -1;
            first = 0;
        }
        if (t->flags & ASN1H_T_EXTENSIBLE) {
            const asn1h_bytes *kept = (const asn1h_bytes *)(const void *)(
                (const uint8_t *)v + asn1h_extension_entry(spec, t)->offset);
            if (kept->len)
                put_unknown(out, first ? "" : ",", kept);
        }
        putc('}', out);
        break;
    }
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF: {
        const asn1h_member *element = &spec->members[t->first];
        const asn1h_type *et = types + element->type;
        size_t size = asn1h_element_size(types, element);
        void *items;
        size_t count, k;
        asn1h_array_get(v, &items, &count);
        putc('[', out);
        for (k = 0; k < count; k++) {
            if (k)
                putc(',', out);
            if (print(out, spec, et, member_value(element, (const uint8_t *)items + k * size)))
                return -1;
        }
        putc(']', out);
        break;
    }
    case ASN1H_CHOICE: {
        uint32_t which;
        const asn1h_member *m;
        memcpy(&which, v, sizeof which);
        if (which == ASN1H_WHICH_UNKNOWN && (t->flags & ASN1H_T_EXTENSIBLE)) {
            putc('{', out);
            put_unknown(out, "", (const asn1h_bytes *)(const void *)(
                (const uint8_t *)v + spec->members[t->first].offset));
            putc('}', out);
            break;
        }
        if (which == 0 || which > t->count) {
            fputs("{}", out);               /* nothing selected */
            break;
        }
        m = &spec->members[t->first + which - 1];
        fputc('{', out);
        put_name(out, spec, ASN1H_MEMBER_NAME(spec, m - spec->members));
        fputc(':', out);
        if (print(out, spec, types + m->type, member_value(m, v)))
            return -1;
        putc('}', out);
        break;
    }
    case ASN1H_OPEN: {
        const asn1h_open *o = (const asn1h_open *)v;
        if (o->type && o->value)
            return print(out, spec, o->type, o->value);
        putc('"', out);
        put_hex(out, o->buf, o->len);
        putc('"', out);
        break;
    }
    }
    return ferror(out) ? -1 : 0;
}
