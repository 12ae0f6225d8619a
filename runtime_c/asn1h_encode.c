/* asn1h_encode.c: DER encoding, the interpreter's half that writes.
 *
 * Everything is written backwards: a routine receives the position its output must end
 * at and returns where its output starts, so every length is known before its header.
 */
#include <math.h>

#include "asn1h_ber.h"

uint8_t *asn1h_enc_fail(asn1h_enc *e, asn1h_code code)
{
    if (e->err->code == ASN1H_OK) {
        e->err->code = code;
        e->err->offset = 0;
        e->err->depth = 0;
        e->err->truncated = false;
    }
    return NULL;
}

#define ROOM(e, p, n) \
    do { if (ASN1H_UNLIKELY((size_t)((p) - (e)->start) < (size_t)(n))) \
             return asn1h_enc_fail((e), ASN1H_ERR_BUFFER); } while (0)

uint8_t *asn1h_put_len_long(asn1h_enc *e, uint8_t *p, size_t len)
{
    unsigned n = 0;
    if (len < 0x80) {
        ROOM(e, p, 1);
        *--p = (uint8_t)len;
        return p;
    }
    for (; len; len >>= 8, n++) {
        ROOM(e, p, 1);
        *--p = (uint8_t)len;
    }
    ROOM(e, p, 1);
    *--p = (uint8_t)(0x80 | n);
    return p;
}

uint8_t *asn1h_put_tag_long(asn1h_enc *e, uint8_t *p, uint32_t tag, unsigned constructed)
{
    uint32_t number = tag & 0x3FFFFFFFu;
    uint8_t first = (uint8_t)((tag >> 30) << 6 | constructed << 5);
    uint8_t more = 0;
    if (number < 31) {
        ROOM(e, p, 1);
        *--p = (uint8_t)(first | number);
        return p;
    }
    do {
        ROOM(e, p, 1);
        *--p = (uint8_t)((number & 0x7F) | more);
        more = 0x80;
        number >>= 7;
    } while (number);
    ROOM(e, p, 1);
    *--p = (uint8_t)(first | 0x1F);
    return p;
}

uint8_t *asn1h_put_int64(asn1h_enc *e, uint8_t *p, int64_t v)
{
    uint64_t u = (uint64_t)v, sign = v < 0 ? ~(uint64_t)0 : 0;
    do {
        ROOM(e, p, 1);
        *--p = (uint8_t)u;
        u = (u >> 8) | (sign << 56);
    } while (u != sign || ((*p >> 7) != (sign & 1)));
    return p;
}

uint8_t *asn1h_put_uint64(asn1h_enc *e, uint8_t *p, uint64_t u)
{
    do {
        ROOM(e, p, 1);
        *--p = (uint8_t)u;
        u >>= 8;
    } while (u);
    if (*p & 0x80) {
        ROOM(e, p, 1);
        *--p = 0;
    }
    return p;
}

uint8_t *asn1h_enc_int(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    switch (t->aux) {
    case ASN1H_INT_BIG: {
        const asn1h_int *x = (const asn1h_int *)v;
        const uint8_t *b = x->big;
        size_t n = x->big_len;
        if (!b || n == 0)
            return asn1h_put_int64(e, p, x->v);
        while (n > 1 && ((b[0] == 0x00 && !(b[1] & 0x80)) || (b[0] == 0xFF && (b[1] & 0x80)))) {
            b++;                            /* DER: the fewest octets */
            n--;
        }
        return asn1h_put_raw(e, p, b, n);
    }
    case ASN1H_INT_I8: return asn1h_put_int64(e, p, *(const int8_t *)v);
    case ASN1H_INT_U8: return asn1h_put_uint64(e, p, *(const uint8_t *)v);
    case ASN1H_INT_I16: return asn1h_put_int64(e, p, *(const int16_t *)v);
    case ASN1H_INT_U16: return asn1h_put_uint64(e, p, *(const uint16_t *)v);
    case ASN1H_INT_I32: return asn1h_put_int64(e, p, *(const int32_t *)v);
    case ASN1H_INT_U32: return asn1h_put_uint64(e, p, *(const uint32_t *)v);
    case ASN1H_INT_I64: return asn1h_put_int64(e, p, *(const int64_t *)v);
    case ASN1H_INT_U64: return asn1h_put_uint64(e, p, *(const uint64_t *)v);
    default: return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
    }
}

/* REAL in DER (X.690 11.3.1): base 2, scale 0, odd mantissa, fewest exponent octets. */
static uint8_t *enc_real(asn1h_enc *e, uint8_t *p, double v)
{
    uint64_t mantissa;
    long exponent;
    int exp2, negative = signbit(v) != 0;
    uint8_t *q, header;

    if (isnan(v)) {
        ROOM(e, p, 1);
        *--p = 0x42;
        return p;
    }
    if (isinf(v)) {
        ROOM(e, p, 1);
        *--p = negative ? 0x41 : 0x40;
        return p;
    }
    if (v == 0) {
        if (negative) {
            ROOM(e, p, 1);
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
        ROOM(e, p, 1);
        *--p = (uint8_t)mantissa;
        mantissa >>= 8;
    } while (mantissa);
    q = p;
    if (!(p = asn1h_put_int64(e, p, exponent)))     /* the fewest exponent octets */
        return NULL;
    header = (uint8_t)(0x80 | (negative ? 0x40 : 0) | ((size_t)(q - p) - 1));
    ROOM(e, p, 1);
    *--p = header;
    return p;
}

/* BIT STRING: the unused-bits octet, then the bits with unused ones cleared; with named
 * bits, DER also drops trailing zero bits (X.690 11.2.2). */
static uint8_t *enc_bits(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const asn1h_bits *v)
{
    size_t len = v->len;
    unsigned unused = len ? (v->unused & 7u) : 0;
    uint8_t last;

    if (t->flags & ASN1H_T_NAMED_BITS) {
        while (len && (v->buf[len - 1] & (uint8_t)(0xFFu << (len == v->len ? unused : 0))) == 0)
            len--;
        if (len) {
            uint8_t byte = (uint8_t)(v->buf[len - 1] & (0xFFu << (len == v->len ? unused : 0)));
            unused = 0;
            while (!(byte & (1u << unused)))
                unused++;
        } else {
            unused = 0;
        }
    }
    if (len) {
        last = (uint8_t)(v->buf[len - 1] & (0xFFu << unused));
        ROOM(e, p, len + 1);
        *--p = last;
        p -= len - 1;
        memcpy(p, v->buf, len - 1);
    } else {
        ROOM(e, p, 1);
    }
    *--p = (uint8_t)unused;
    return p;
}

/* DER order of SET OF elements: as octet strings, the shorter padded with zeros. */
static int der_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen, i;
    int c = memcmp(a, b, n);
    if (c)
        return c;
    for (i = n; i < alen; i++)
        if (a[i])
            return 1;
    for (i = n; i < blen; i++)
        if (b[i])
            return -1;
    return 0;
}

/* Length of the DER TLV at p (written by this encoder, so well formed). */
static size_t tlv_size(const uint8_t *p)
{
    const uint8_t *q = p + 1;
    size_t len = 0, n;
    if ((p[0] & 0x1F) == 0x1F)
        while (*q++ & 0x80) {}
    if (*q < 0x80)
        return (size_t)(q + 1 - p) + *q;
    n = *q++ & 0x7Fu;
    while (n--)
        len = (len << 8) | *q++;
    return (size_t)(q - p) + len;
}

static void reverse(uint8_t *a, uint8_t *b)
{
    while (a < b) {
        uint8_t t = *a;
        *a++ = *--b;
        *b = t;
    }
}

/* The tag of the TLV at p as one number: ASN1H_TAG values sort in the canonical order of
 * tags (X.680 8.6: class, then number). */
static uint32_t tlv_tag(const uint8_t *p)
{
    uint32_t number = p[0] & 0x1Fu;
    const uint8_t *q = p;
    if (number == 0x1F) {                   /* long form: base 128, bit 8 = more */
        number = 0;
        do
            number = (number << 7) | (*++q & 0x7Fu);
        while (*q & 0x80);
    }
    return ASN1H_TAG(p[0] >> 6, number);
}

static int tag_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    uint32_t x = tlv_tag(a), y = tlv_tag(b);
    (void)alen;
    (void)blen;
    return x < y ? -1 : x > y;
}

/* Insertion sort with rotations: no extra memory (SET OF values are small in practice). */
static void sort_tlvs(uint8_t *p, uint8_t *end,
                      int (*compare)(const uint8_t *, size_t, const uint8_t *, size_t))
{
    uint8_t *next = p + (p < end ? tlv_size(p) : 0);
    while (next < end) {
        size_t size = tlv_size(next);
        uint8_t *at = p;
        while (at < next && compare(at, tlv_size(at), next, size) <= 0)
            at += tlv_size(at);
        if (at < next) {                    /* rotate [at, next + size) right by size */
            reverse(at, next);
            reverse(next, next + size);
            reverse(at, next + size);
        }
        next += size;
    }
}

void asn1h_sort_set_of(uint8_t *p, uint8_t *end)
{
    sort_tlvs(p, end, der_compare);
}

void asn1h_sort_set_components(uint8_t *p, uint8_t *end)
{
    sort_tlvs(p, end, tag_compare);
}

/* Whether a SET has a component whose place in DER depends on its value: an untagged
 * CHOICE or open type, placed by the tag of what it holds. */
static int untagged_choice(const asn1h_type *t)
{
    unsigned i;
    for (i = 0; i < t->nmembers; i++)
        if (!(t->members[i].flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT))
            && t->members[i].type->ntags == 0)
            return 1;
    return 0;
}

static uint8_t *encode_tagged(asn1h_enc *e, const asn1h_type *t, const uint32_t *tags,
                              unsigned ntags, uint8_t *p, const void *v)
{
    uint8_t *q = asn1h_encode_contents(e, t, p, v);
    unsigned i = ntags;
    if (!q)
        return NULL;
    if (asn1h_has_own_tlv(t) && i) {
        i--;
        if (!(q = asn1h_put_len(e, q, (size_t)(p - q))))
            return NULL;
        if (!(q = asn1h_put_tag(e, q, tags[i], asn1h_constructed_form(t))))
            return NULL;
    }
    while (i-- > 0) {
        if (!(q = asn1h_put_len(e, q, (size_t)(p - q))))
            return NULL;
        if (!(q = asn1h_put_tag(e, q, tags[i], 1)))
            return NULL;
    }
    return q;
}

uint8_t *asn1h_encode_member(asn1h_enc *e, const asn1h_member *m, uint8_t *p,
                             const void *base)
{
    const asn1h_type *t = m->type;
    const void *v = (const uint8_t *)base + m->offset;
    uint32_t buf[ASN1H_MAX_TAGS];
    unsigned skip;

    if (m->flags & ASN1H_M_POINTER) {
        memcpy(&v, v, sizeof v);
        if (!v)
            return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
    }
    if (!(m->flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT)))
        return encode_tagged(e, t, t->tags, t->ntags, p, v);
    skip = (m->flags & ASN1H_M_IMPLICIT) ? 1u : 0u;
    buf[0] = m->tag;
    if (t->ntags > skip)                    /* an untagged CHOICE has no tags array */
        memcpy(buf + 1, t->tags + skip, (t->ntags - skip) * sizeof *buf);
    return encode_tagged(e, t, buf, t->ntags - skip + 1, p, v);
}

int asn1h_member_encoded(const asn1h_member *m, const void *base, uint32_t present_offset)
{
    if (m->bit == ASN1H_NO_BIT)
        return 1;
    if (!asn1h_get_bit(base, present_offset, m->bit))
        return 0;
    if ((m->flags & ASN1H_M_DEFAULT) && m->dflt && !(m->flags & ASN1H_M_POINTER)
        && asn1h_equal(m->type, (const uint8_t *)base + m->offset, m->dflt))
        return 0;
    return 1;
}

/* Member m: the usual one (one tag, stored inline) straight to its contents, then its
 * length and identifier; the others by the general route. */
ASN1H_INLINE uint8_t *encode_any_member(asn1h_enc *e, const asn1h_member *m, uint8_t *p,
                                        const void *base)
{
    const asn1h_type *t = m->type;
    const void *v = (const uint8_t *)base + m->offset;
    uint8_t *q;
    if ((m->flags & (ASN1H_M_EXPLICIT | ASN1H_M_POINTER)) || t->ntags != 1 || !asn1h_has_own_tlv(t))
        return asn1h_encode_member(e, m, p, base);
    if (!(q = t->encode ? t->encode(e, p, v) : asn1h_interpret_encode(e, t, p, v))
        || !(q = asn1h_put_len(e, q, (size_t)(p - q))))
        return NULL;
    return asn1h_put_tag(e, q, (m->flags & ASN1H_M_IMPLICIT) ? m->tag : t->tags[0],
                         asn1h_constructed_form(t));
}

static uint8_t *enc_members(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v,
                            const uint16_t *order)
{
    unsigned k = t->nmembers;
    while (k-- > 0) {
        const asn1h_member *m = &t->members[order ? order[k] : k];
        if (m->bit != ASN1H_NO_BIT && !asn1h_member_encoded(m, v, t->aux))
            continue;
        if (!(p = encode_any_member(e, m, p, v)))
            return asn1h_enc_unwind(e, m->name);
    }
    return p;
}

static uint8_t *enc_array(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    const asn1h_member *element = &t->members[0];
    size_t size = (element->flags & ASN1H_M_POINTER) ? sizeof(void *) : element->type->size;
    uint8_t *end = p;
    void *items;
    size_t count, i;

    asn1h_array_get(v, &items, &count);
    for (i = count; i-- > 0;) {
        if (!(p = encode_any_member(e, element, p, (const uint8_t *)items + i * size))) {
            asn1h_path_push(e->err, NULL, i);
            return NULL;
        }
    }
    if (t->kind == ASN1H_SET_OF)
        asn1h_sort_set_of(p, end);
    return p;
}

uint8_t *asn1h_encode_contents(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    if (t->encode)
        return t->encode(e, p, v);
    return asn1h_interpret_encode(e, t, p, v);
}

uint8_t *asn1h_interpret_encode(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        ROOM(e, p, 1);
        *--p = *(const bool *)v ? 0xFF : 0x00;
        return p;
    case ASN1H_INTEGER:
    case ASN1H_ENUMERATED:
        return asn1h_enc_int(e, t, p, v);
    case ASN1H_REAL:
        return enc_real(e, p, *(const double *)v);
    case ASN1H_BIT_STRING:
        return enc_bits(e, t, p, (const asn1h_bits *)v);
    case ASN1H_BYTES:
        return asn1h_put_raw(e, p, ((const asn1h_bytes *)v)->buf, ((const asn1h_bytes *)v)->len);
    case ASN1H_NULL:
        return p;
    case ASN1H_SEQUENCE:
        return enc_members(e, t, p, v, NULL);
    case ASN1H_SET: {
        uint8_t *q = enc_members(e, t, p, v, (const uint16_t *)t->info);
        if (q && untagged_choice(t))        /* X.690 10.3 */
            asn1h_sort_set_components(q, p);
        return q;
    }
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF:
        return enc_array(e, t, p, v);
    case ASN1H_CHOICE: {
        uint32_t which;
        memcpy(&which, v, sizeof which);
        if (which == ASN1H_WHICH_UNKNOWN && (t->flags & ASN1H_T_EXTENSIBLE)) {
            const asn1h_bytes *raw = (const asn1h_bytes *)((const uint8_t *)v + t->aux);
            return asn1h_put_raw(e, p, raw->buf, raw->len);
        }
        if (which == 0 || which > t->nmembers)
            return asn1h_enc_fail(e, ASN1H_ERR_CHOICE);
        if (!(p = asn1h_encode_member(e, &t->members[which - 1], p, v)))
            return asn1h_enc_unwind(e, t->members[which - 1].name);
        return p;
    }
    case ASN1H_OPEN: {
        const asn1h_open *open = (const asn1h_open *)v;
        if (open->type && open->value)
            return encode_tagged(e, open->type, open->type->tags, open->type->ntags, p,
                                 open->value);
        if (!open->buf)
            return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
        return asn1h_put_raw(e, p, open->buf, open->len);
    }
    }
    return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
}

asn1h_code asn1h_encode(const asn1h_type *type, const void *value, uint8_t *buf, size_t cap,
                        size_t *len, asn1h_error *err)
{
    asn1h_error local;
    asn1h_enc e;
    uint8_t *q;

    err = asn1h_error_reset(err ? err : &local, type);
    e.start = buf;
    e.err = err;
    q = encode_tagged(&e, type, type->tags, type->ntags, buf + cap, value);
    if (!q)
        return err->code == ASN1H_OK ? ASN1H_ERR_VALUE : err->code;
    *len = (size_t)(buf + cap - q);
    memmove(buf, q, *len);
    return ASN1H_OK;
}
