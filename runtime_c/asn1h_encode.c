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

uint8_t *asn1h_put_primitive(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len,
                             uint8_t id)
{
    if (!(p = asn1h_put_raw(e, p, buf, len)))
        return NULL;
    return asn1h_put_tl1(e, p, len, id);
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

/* ---- Values kept as received (open types, unknown CHOICE alternatives) -------------
 * They may come from BER: DER wants definite lengths in the fewest octets and short
 * identifiers below 31 (X.690 10.1), so their framing is redone when it is not already
 * that.  Their primitive contents are copied as they are: without the type nothing more is
 * known.  Deeper than RECEIVED_DEPTH levels, or when not a well-formed TLV, they are
 * copied whole. */
#define RECEIVED_DEPTH ASN1H_MAX_DEPTH

typedef struct received {
    uint32_t number;
    uint8_t first;                          /* class and constructed bits of the identifier */
    int indefinite;
    const uint8_t *contents, *contents_end; /* contents_end: definite lengths only */
} received;

/* Reads the identifier and length at p; NULL when they are malformed or overrun `end`. */
static const uint8_t *received_header(const uint8_t *p, const uint8_t *end, received *h)
{
    size_t len = 0, n;
    if (end - p < 2)
        return NULL;
    h->first = p[0] & 0xE0;
    h->number = p[0] & 0x1Fu;
    if (h->number == 0x1F) {
        h->number = 0;
        do {
            if (++p >= end || h->number > (0x3FFFFFFFu >> 7))
                return NULL;
            h->number = (h->number << 7) | (*p & 0x7Fu);
        } while (*p & 0x80);
    }
    if (++p >= end)
        return NULL;
    h->indefinite = *p == 0x80;
    if (*p < 0x80) {
        len = *p++;
    } else if (!h->indefinite) {
        n = *p++ & 0x7Fu;
        if (n > sizeof len || (size_t)(end - p) < n)
            return NULL;
        while (n--)
            len = (len << 8) | *p++;
    } else {
        p++;
    }
    if (h->indefinite ? !(h->first & 0x20) : (size_t)(end - p) < len)
        return NULL;
    h->contents = p;
    h->contents_end = h->indefinite ? NULL : p + len;
    return p;
}

/* Octets of a DER identifier and length for this tag number and contents length. */
static size_t header_size(uint32_t number, size_t len)
{
    size_t size = 2;
    if (number >= 31)
        for (; number; number >>= 7)
            size++;
    if (len >= 0x80)
        for (; len; len >>= 8)
            size++;
    return size;
}

static const uint8_t *received_size(const uint8_t *p, const uint8_t *end, unsigned depth,
                                    size_t *size);

/* The DER size of the contents of the value with header h, in *contents; *after is where
 * the value ends.  0 when something inside is malformed or nests too deep. */
static int received_contents(const received *h, const uint8_t *end, unsigned depth,
                             size_t *contents, const uint8_t **after)
{
    const uint8_t *p = h->contents, *bound = h->indefinite ? end : h->contents_end;
    size_t child;
    *contents = 0;
    if (!(h->first & 0x20)) {
        *contents = (size_t)(h->contents_end - h->contents);
        *after = h->contents_end;
        return 1;
    }
    if (depth == 0)
        return 0;
    while (h->indefinite ? !(bound - p >= 2 && p[0] == 0 && p[1] == 0) : p < bound) {
        if (!(p = received_size(p, bound, depth - 1, &child)))
            return 0;
        *contents += child;
    }
    *after = h->indefinite ? p + 2 : p;
    return 1;
}

/* The DER size of the TLV at p, in *size; returns the position after it, or NULL. */
static const uint8_t *received_size(const uint8_t *p, const uint8_t *end, unsigned depth,
                                    size_t *size)
{
    received h;
    size_t contents;
    const uint8_t *after;
    if (!received_header(p, end, &h) || !received_contents(&h, end, depth, &contents, &after))
        return NULL;
    *size = header_size(h.number, contents) + contents;
    return after;
}

/* Writes the TLV at *in with DER framing forwards from out, moves *in past it and returns
 * the end of what it wrote.  received_size() has accepted the TLV. */
static uint8_t *received_write(uint8_t *out, const uint8_t **in, const uint8_t *end,
                               unsigned depth)
{
    received h;
    size_t contents;
    const uint8_t *after, *p;
    unsigned shift = 0, n = 0;
    received_header(*in, end, &h);
    received_contents(&h, end, depth, &contents, &after);
    if (h.number < 31) {
        *out++ = (uint8_t)(h.first | h.number);
    } else {                                /* base 128, bit 8 set on all but the last */
        *out++ = (uint8_t)(h.first | 0x1F);
        while (shift + 7 < 32 && (h.number >> (shift + 7)))
            shift += 7;
        for (;; shift -= 7) {
            *out++ = (uint8_t)(((h.number >> shift) & 0x7F) | (shift ? 0x80 : 0));
            if (!shift)
                break;
        }
    }
    if (contents < 0x80) {
        *out++ = (uint8_t)contents;
    } else {
        size_t v;
        for (v = contents; v; v >>= 8)
            n++;
        *out++ = (uint8_t)(0x80 | n);
        while (n--)
            *out++ = (uint8_t)(contents >> (8 * n));
    }
    p = h.contents;
    if (!(h.first & 0x20)) {
        memcpy(out, p, contents);
        out += contents;
    } else {
        const uint8_t *bound = h.indefinite ? end : h.contents_end;
        while (h.indefinite ? !(p[0] == 0 && p[1] == 0) : p < bound)
            out = received_write(out, &p, bound, depth - 1);
    }
    *in = after;
    return out;
}

/* Whether the TLVs at *pa and *pb are the same value but for their framing; moves both
 * past them. */
static int received_same(const uint8_t **pa, const uint8_t *ea, const uint8_t **pb,
                         const uint8_t *eb, unsigned depth)
{
    received x, y;
    const uint8_t *p, *q, *bound_p, *bound_q;
    if (!received_header(*pa, ea, &x) || !received_header(*pb, eb, &y)
        || x.number != y.number || x.first != y.first)
        return 0;
    if (!(x.first & 0x20)) {
        size_t n = (size_t)(x.contents_end - x.contents);
        if (n != (size_t)(y.contents_end - y.contents) || memcmp(x.contents, y.contents, n) != 0)
            return 0;
        *pa = x.contents_end;
        *pb = y.contents_end;
        return 1;
    }
    if (depth == 0)
        return 0;
    p = x.contents;
    q = y.contents;
    bound_p = x.indefinite ? ea : x.contents_end;
    bound_q = y.indefinite ? eb : y.contents_end;
    for (;;) {
        int done_p = x.indefinite ? bound_p - p >= 2 && p[0] == 0 && p[1] == 0 : p >= bound_p;
        int done_q = y.indefinite ? bound_q - q >= 2 && q[0] == 0 && q[1] == 0 : q >= bound_q;
        if (done_p || done_q) {
            if (!(done_p && done_q))
                return 0;
            break;
        }
        if (!received_same(&p, bound_p, &q, bound_q, depth - 1))
            return 0;
    }
    *pa = x.indefinite ? p + 2 : p;
    *pb = y.indefinite ? q + 2 : q;
    return 1;
}

int asn1h_received_equal(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    const uint8_t *pa = a, *pb = b;
    if (alen == blen && (alen == 0 || memcmp(a, b, alen) == 0))
        return 1;
    return a && b && received_same(&pa, a + alen, &pb, b + blen, RECEIVED_DEPTH)
           && pa == a + alen && pb == b + blen;
}

static uint8_t *put_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len)
{
    size_t size;
    const uint8_t *in = buf;
    if (!buf || received_size(buf, buf + len, RECEIVED_DEPTH, &size) != buf + len
        || size == len)                     /* already DER-framed (BER never is smaller) */
        return asn1h_put_raw(e, p, buf, len);
    ROOM(e, p, size);
    received_write(p - size, &in, buf + len, RECEIVED_DEPTH);
    return p - size;
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
        if (t->aux == 23 || t->aux == 24)
            return asn1h_put_time(e, p, (const asn1h_bytes *)v, t->aux);
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
            return put_received(e, p, raw->buf, raw->len);
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
        return put_received(e, p, open->buf, open->len);
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
