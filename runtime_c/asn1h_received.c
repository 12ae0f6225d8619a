/* asn1h_received.c: values kept as received (open types, unknown extensions): decoded
 * through their tables when a table constraint names their type, compared as values
 * whatever their BER framing, and re-encoded with DER framing.  Linked only when a spec
 * has open types or extensible types (spec->codecs). */
#include "asn1h_ber.h"

/* ---- Open types decoded through their table --------------------------------------- */

/* Decodes `open` through the table of open type `ot`, whose key is member ot->extra - 1 of the
 * struct v of type t.  A key outside the table leaves the value raw; so does, when
 * `lenient`, a value that does not decode (OCTET STRING CONTAINING: CMS puts id-data's
 * octets in eContent as they are, where RFC 5912's table says an OCTET STRING's DER). */
static const uint8_t *resolve_open(asn1h_dec *d, const asn1h_type *t, const void *v,
                                   const asn1h_type *ot, asn1h_open *open, int lenient)
{
    const asn1h_member *key = &d->spec->members[t->first + ot->extra - 1];
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

static int resolve_ber(void *d, const asn1h_type *t, const void *v, const asn1h_type *ot,
                       asn1h_open *open, int lenient)
{
    return resolve_open((asn1h_dec *)d, t, v, ot, open, lenient) != NULL;
}

const uint8_t *asn1h_resolve_open_types(asn1h_dec *d, const asn1h_type *t, void *v)
{
    return asn1h_each_open_type(d, t, v, resolve_ber, d) ? (const uint8_t *)v : NULL;
}

/* ---- Values kept as received (open types, unknown extensions) ----------------------
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
                                    size_t *size, int *indefinite);

/* The DER size of the contents of the value with header h, in *contents; *after is where
 * the value ends.  0 when something inside is malformed or nests too deep. */
static int received_contents(const received *h, const uint8_t *end, unsigned depth,
                             size_t *contents, const uint8_t **after, int *indefinite)
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
    *indefinite |= h->indefinite;
    while (h->indefinite ? !(bound - p >= 2 && p[0] == 0 && p[1] == 0) : p < bound) {
        if (!(p = received_size(p, bound, depth - 1, &child, indefinite)))
            return 0;
        *contents += child;
    }
    *after = h->indefinite ? p + 2 : p;
    return 1;
}

/* The DER size of the TLV at p, in *size; returns the position after it, or NULL. */
/* *indefinite is set when an indefinite length is met: DER framing then differs even where
 * the sizes happen to be equal (80 + 00 00 against 82 xx xx). */
static const uint8_t *received_size(const uint8_t *p, const uint8_t *end, unsigned depth,
                                    size_t *size, int *indefinite)
{
    received h;
    size_t contents;
    const uint8_t *after;
    if (!received_header(p, end, &h)
        || !received_contents(&h, end, depth, &contents, &after, indefinite))
        return NULL;
    *size = header_size(h.number, contents) + contents;
    return after;
}

/* Writes the TLV at *in with DER framing forwards from out, moves *in past it and returns
 * the end of what it wrote.  received_size() has accepted the TLV. */
ASN1H_COLD static uint8_t *received_write(uint8_t *out, const uint8_t **in,
                                          const uint8_t *end, unsigned depth)
{
    received h;
    size_t contents;
    const uint8_t *after, *p;
    int indefinite = 0;
    uint8_t header[16], *q = header + sizeof header;  /* DER's header: 15 octets at most */
    asn1h_enc scratch = {0};
    received_header(*in, end, &h);
    received_contents(&h, end, depth, &contents, &after, &indefinite);
    scratch.start = header;                 /* the encoder's writers, backwards, then copied */
    q = asn1h_put_len_long(&scratch, q, contents);
    q = asn1h_put_tag_long(&scratch, q, ASN1H_TAG(h.first >> 6, h.number),
                           (h.first >> 5) & 1u);
    memcpy(out, q, (size_t)(header + sizeof header - q));
    out += header + sizeof header - q;
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
    if (!a || !b)
        return 0;
    while (pa < a + alen && pb < b + blen)  /* TLV by TLV */
        if (!received_same(&pa, a + alen, &pb, b + blen, RECEIVED_DEPTH))
            return 0;
    return pa == a + alen && pb == b + blen;
}

/* The DER size of the TLVs [p, end), in *size; 0 when one is not well formed. */
static int received_run_size(const uint8_t *p, const uint8_t *end, size_t *size,
                             int *indefinite)
{
    size_t one;
    *size = 0;
    while (p < end) {
        if (!(p = received_size(p, end, RECEIVED_DEPTH, &one, indefinite)))
            return 0;
        *size += one;
    }
    return 1;
}

/* The TLVs [buf, buf + len), whose DER size is `size`, written with DER framing. */
ASN1H_COLD static uint8_t *put_reframed(asn1h_enc *e, uint8_t *p, const uint8_t *buf,
                                        size_t len, size_t size)
{
    uint8_t *out;
    const uint8_t *in = buf;
    ASN1H_ROOM(e, p, size);
    for (out = p - size; in < buf + len;)   /* framing redone, contents copied */
        out = received_write(out, &in, buf + len, RECEIVED_DEPTH);
    return p - size;
}

/* Values kept as received: written as they came when every header is DER's already (BER's
 * are never shorter) or one is not well formed, else with their framing redone. */
uint8_t *asn1h_put_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len)
{
    size_t size;
    int indefinite = 0;
    if (!buf || !received_run_size(buf, buf + len, &size, &indefinite)
        || (size == len && !indefinite))
        return asn1h_put_raw(e, p, buf, len);
    return put_reframed(e, p, buf, len, size);
}

/* The same in a build of DER's forms (--encoding der), which keeps no code to redo the
 * framing: refused when it is not DER's.  The test is written out in each: an inline
 * predicate shared by the two made asn1h_put_received 17 bytes larger (gcc 12). */
uint8_t *asn1h_put_der_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len)
{
    size_t size;
    int indefinite = 0;
    if (buf && received_run_size(buf, buf + len, &size, &indefinite)
        && (size != len || indefinite))
        return asn1h_enc_fail(e, ASN1H_ERR_NO_DER);
    return asn1h_put_raw(e, p, buf, len);
}

/* ---- Unknown extensions (X.680 52) --------------------------------------------------
 * A later version of a specification adds components at the extension marker of a
 * SEQUENCE or SET and alternatives to an extensible CHOICE.  The decoder keeps what it
 * does not know and the encoder writes it back.  In a SEQUENCE, additions come at the
 * place of the marker only (X.680 3.8.29, the insertion point; the extension entry says
 * where): elsewhere an unknown tag is an error, so that what is kept goes back where it
 * came from. */

static int members_take(const asn1h_dec *d, const asn1h_type *t, unsigned from, uint32_t tag)
{
    unsigned i;
    for (i = from; i < t->count; i++)
        if (asn1h_member_accepts(d, &d->spec->members[t->first + i], tag))
            return 1;
    return 0;
}

static asn1h_bytes *kept_unknown(const asn1h_spec *spec, const asn1h_type *t, const void *v)
{
    return (asn1h_bytes *)(void *)((uint8_t *)(uintptr_t)v
                                   + asn1h_extension_entry(spec, t)->offset);
}

const uint8_t *asn1h_take_unknown(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                  const uint8_t *end, unsigned form, void *v)
{
    const asn1h_member *members = d->spec->members + t->first;
    const uint8_t *start = p;
    unsigned known = asn1h_extension_entry(d->spec, t)->type;
    /* an addition's tag differs from those of the members after the marker and from those
     * of the OPTIONAL and DEFAULT members right before it (X.680 25: a run of OPTIONAL
     * components and what follows have distinct tags, additions included): such a tag
     * ends the additions */
    while (known > 0 && asn1h_member_absent_ok(&members[known - 1]))
        known--;
    while (!asn1h_at_end(p, end, form) && p < end) {
        uint32_t tag = asn1h_peek_tag(d, p, end);
        if (!tag || members_take(d, t, known, tag))
            break;
        if (!(p = asn1h_skip_value(d, p, end)))   /* kept: well formed throughout */
            return NULL;
    }
    if (p != start && !(d->flags & ASN1H_DROP_UNKNOWN)) {
        asn1h_bytes *kept = kept_unknown(d->spec, t, v);
        kept->buf = start;
        kept->len = (size_t)(p - start);
    }
    return p;
}

/* BER lets a SET's components come in any order, so its unknown additions need not be
 * next to each other: the decoder has checked the components [p, end), this copies the
 * unknown ones out with DER framing and sorts them by tag, as the DER encoder writes them.
 * Cold: only a SET with unknown additions comes here. */
ASN1H_COLD int asn1h_keep_set_unknown(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                      const uint8_t *end, void *v)
{
    size_t total = 0, size;
    const uint8_t *q, *next;
    uint8_t *out, *w;
    int indefinite = 0;
    asn1h_bytes *kept = kept_unknown(d->spec, t, v);
    if (d->flags & ASN1H_DROP_UNKNOWN)
        return 1;
    for (q = p; q < end; q = next) {
        if (!(next = received_size(q, end, RECEIVED_DEPTH, &size, &indefinite)))
            return asn1h_fail(d, ASN1H_ERR_DEPTH, q) != NULL;   /* deeper than it keeps */
        if (!members_take(d, t, 0, asn1h_peek_tag(d, q, end)))
            total += size;
    }
    if (!(out = (uint8_t *)asn1h_arena_alloc(d->arena, total)))
        return asn1h_fail(d, ASN1H_ERR_MEMORY, p) != NULL;
    for (q = p, w = out; q < end;) {
        if (members_take(d, t, 0, asn1h_peek_tag(d, q, end)))
            q = received_size(q, end, RECEIVED_DEPTH, &size, &indefinite);
        else
            w = received_write(w, &q, end, RECEIVED_DEPTH);
    }
    asn1h_sort_set_components(out, w);
    kept->buf = out;
    kept->len = total;
    return 1;
}

/* Where it is mandatory, the CHOICE takes any tag (the TLV stands in its place); where it
 * may be absent, a tag that no later member takes. */
int asn1h_unknown_alternative(const asn1h_dec *d, const asn1h_type *t, unsigned i,
                              uint32_t tag)
{
    const asn1h_member *m = &d->spec->members[t->first + i];
    const asn1h_type *mt = asn1h_member_type(d->types, m);
    return !m->tag && mt->kind == ASN1H_CHOICE && (mt->flags & ASN1H_T_EXTENSIBLE)
           && (!asn1h_member_absent_ok(m) || !members_take(d, t, i + 1, tag));
}

int asn1h_member_present(asn1h_dec *d, const asn1h_type *t, unsigned i, const uint8_t *p,
                         const uint8_t *end, unsigned form)
{
    uint32_t tag;
    if (asn1h_at_end(p, end, form) || p >= end || !(tag = asn1h_peek_tag(d, p, end)))
        return 0;
    return asn1h_member_accepts(d, &d->spec->members[t->first + i], tag)
           || asn1h_unknown_alternative(d, t, i, tag);
}

uint8_t *asn1h_put_unknown(asn1h_enc *e, uint8_t *p, const asn1h_bytes *kept)
{
    return asn1h_kept_in_per(kept) ? p : e->spec->codecs->put_received(e, p, kept->buf,
                                                                       kept->len);
}

/* A SEQUENCE's additions go back at its extension marker; a SET's (DER, in tag order)
 * each before the first member whose tag is above its own (X.690 10.3).  Cold: only a
 * value that holds unknown additions comes here. */
ASN1H_COLD uint8_t *asn1h_encode_with_unknown(asn1h_enc *e, const asn1h_type *t,
                                              uint8_t *p, const void *v)
{
    static const uint8_t nothing[1] = {0};
    static const asn1h_bytes none = {nothing, 0};
    const asn1h_member *members = e->spec->members + t->first;
    const asn1h_bytes *kept = kept_unknown(e->spec, t, v);
    unsigned k = t->count, at = members[t->count].type;
    const uint8_t *rest;                    /* those not written yet */
    if (asn1h_kept_in_per(kept))            /* from PER: no tags to place them by */
        kept = &none;
    rest = kept->buf + kept->len;
    for (;;) {
        const uint8_t *split = rest;        /* written here: [split, rest) */
        if (t->kind != ASN1H_SEQUENCE)      /* an untagged CHOICE (tag 0) is sorted later */
            split = k ? asn1h_tags_above(kept->buf, rest,
                                         asn1h_member_tag(e->spec, &members[k - 1]))
                      : kept->buf;
        else if (k == at)
            split = kept->buf;
        if (split < rest
            && !(p = e->spec->codecs->put_received(e, p, split, (size_t)(rest - split))))
            return NULL;
        rest = split;
        if (k-- == 0)
            return p;
        if (asn1h_member_encoded(e->spec, &members[k], v)
            && !(p = asn1h_encode_member(e, &members[k], p, v)))
            return asn1h_enc_unwind(e, &members[k]);
    }
}
