/* asn1h_received.c: values kept as received (open types, unknown CHOICE alternatives):
 * decoded through their tables when a table constraint names their type, compared as
 * values whatever their BER framing, and re-encoded with DER framing.  Linked only when a
 * spec has open types or extensible CHOICEs (spec->codecs). */
#include "asn1h_ber.h"

/* ---- Open types decoded through their table --------------------------------------- */

/* Decodes `open` through the table of open type `ot`, whose key is member ot->extra of the
 * struct v of type t.  A key outside the table leaves the value raw; so does, when
 * `lenient`, a value that does not decode (OCTET STRING CONTAINING: CMS puts id-data's
 * octets in eContent as they are, where RFC 5912's table says an OCTET STRING's DER). */
static const uint8_t *resolve_open(asn1h_dec *d, const asn1h_type *t, const void *v,
                                   const asn1h_type *ot, asn1h_open *open, int lenient)
{
    const asn1h_member *key = &d->spec->members[t->first + ot->extra];
    const asn1h_type *key_type = asn1h_member_type(d->types, key);
    asn1h_bytes key_bytes;
    uint8_t scratch[10];
    unsigned j;

    if (!open->buf)
        return (const uint8_t *)v;
    if (key_type->kind == ASN1H_BYTES) {
        key_bytes = *(const asn1h_bytes *)((const uint8_t *)v + key->offset);
    } else {                                /* INTEGER keys: compare their encodings */
        key_bytes.buf = asn1h_int_octets(key_type, (const uint8_t *)v + key->offset, scratch,
                                         &key_bytes.len);
    }
    for (j = 0; j < ot->count; j++) {
        const asn1h_open_entry *entry = &d->spec->open[ot->first + j];
        if (entry->key_len == key_bytes.len
            && memcmp(d->spec->data + entry->key, key_bytes.buf, key_bytes.len) == 0) {
            const asn1h_type *et = d->types + entry->type;
            void *value = asn1h_arena_alloc(d->arena, et->size);
            unsigned depth = d->depth;
            const uint8_t *q;
            if (!value)
                return asn1h_fail(d, ASN1H_ERR_MEMORY, open->buf);
            q = asn1h_decode_tagged(d, et, open->buf, open->buf + open->len, value);
            if (q && q != open->buf + open->len)
                q = asn1h_fail(d, ASN1H_ERR_TRAILING, q);
            if (!q && lenient && d->err->code != ASN1H_ERR_MEMORY) {
                d->err->code = ASN1H_OK;            /* not of the table's type: raw */
                d->err->depth = 0;
                d->err->truncated = false;
                d->depth = depth;
                return (const uint8_t *)v;
            }
            if (!q)
                return NULL;
            open->type = et;
            open->value = value;
            break;
        }
    }
    return (const uint8_t *)v;
}

const uint8_t *asn1h_resolve_open_types(asn1h_dec *d, const asn1h_type *t, void *v)
{
    unsigned i;
    for (i = 0; i < t->count; i++) {
        const asn1h_member *m = &d->spec->members[t->first + i];
        const asn1h_type *mt = asn1h_member_type(d->types, m);
        if (m->flags & ASN1H_M_POINTER)
            continue;
        if ((mt->kind == ASN1H_OPEN || (mt->flags & ASN1H_T_CONTAINING)) && mt->count) {
            if (!resolve_open(d, t, v, mt, (asn1h_open *)((uint8_t *)v + m->offset),
                              mt->kind != ASN1H_OPEN))
                return asn1h_unwind(d, m);
        } else if (mt->kind == ASN1H_SEQUENCE_OF || mt->kind == ASN1H_SET_OF) {
            /* the values of an attribute: each element keyed by a member beside the list */
            const asn1h_member *element = &d->spec->members[mt->first];
            const asn1h_type *et = asn1h_member_type(d->types, element);
            void *items;
            size_t count, k;
            if (et->kind != ASN1H_OPEN || !et->count || (element->flags & ASN1H_M_POINTER))
                continue;
            asn1h_array_get((uint8_t *)v + m->offset, &items, &count);
            for (k = 0; k < count; k++)
                if (!resolve_open(d, t, v, et, (asn1h_open *)items + k, 0)) {
                    asn1h_unwind_index(d, k);
                    return asn1h_unwind(d, m);
                }
        }
    }
    return (const uint8_t *)v;
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

uint8_t *asn1h_put_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len)
{
    size_t size;
    const uint8_t *in = buf;
    if (!buf || received_size(buf, buf + len, RECEIVED_DEPTH, &size) != buf + len
        || size == len)                     /* already DER-framed (BER never is smaller) */
        return asn1h_put_raw(e, p, buf, len);
    ASN1H_ROOM(e, p, size);
    received_write(p - size, &in, buf + len, RECEIVED_DEPTH);
    return p - size;
}
