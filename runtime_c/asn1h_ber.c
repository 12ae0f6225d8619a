/* asn1h_ber.c: the primitives of BER and DER, below the interpreter and compiled code:
 * errors, identifiers and lengths, skipping values, INTEGER contents, the DER order of
 * SET and SET OF encodings, and reading the tables' shared pools. */
#include <stdlib.h>

#include "asn1h_ber.h"

/* ---- Errors -------------------------------------------------------------------------- */

ASN1H_COLD const uint8_t *asn1h_fail(asn1h_dec *d, asn1h_code code, const uint8_t *at)
{
    asn1h_error *err = d->err;
    if (err->code == ASN1H_OK) {            /* keep the first, innermost failure */
        err->code = code;
        err->offset = (size_t)(at - d->base);
        err->depth = 0;
        err->truncated = false;
    }
    return NULL;
}

ASN1H_COLD void asn1h_path_push(asn1h_error *err, const asn1h_member *m, size_t index)
{
    if (err->depth < ASN1H_PATH_MAX) {
        err->path[err->depth].member = m;
        err->path[err->depth].index = index;
        err->depth++;
    } else {
        err->truncated = true;
    }
}

/* ---- Identifiers and lengths --------------------------------------------------------- */

/* Any header: the identifier in either form, then the length in any form. */
const uint8_t *asn1h_get_tl_other(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  uint32_t *tag, unsigned *form, const uint8_t **content_end)
{
    const uint8_t *start = p;
    uint32_t number;
    size_t len, n, i;

    if (end - p < 2)
        return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
    number = *p & 0x1Fu;
    *form = (*p >> 5) & 1u;
    if (number == 0x1F) {
        if ((*++p & 0x7F) == 0)             /* X.690 8.1.2.4.2 c: no leading zero bits */
            return asn1h_fail(d, ASN1H_ERR_TAG, start);
        number = 0;
        do {
            if (p >= end)
                return asn1h_fail(d, ASN1H_ERR_TRUNCATED, start);
            if (number > (0x3FFFFFFFu >> 7))
                return asn1h_fail(d, ASN1H_ERR_TAG, start);
            number = (number << 7) | (*p & 0x7Fu);
        } while (*p++ & 0x80);
        if (number < 31)                    /* X.690 8.1.2.2: those take one octet */
            return asn1h_fail(d, ASN1H_ERR_TAG, start);
    } else {
        p++;
    }
    *tag = ASN1H_TAG(start[0] >> 6, number);
    if (p >= end)
        return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
    start = p;                              /* the length octets */
    len = *p++;
    if (len == 0x80) {
        if (!(*form & ASN1H_FORM_CONSTRUCTED))
            return asn1h_fail(d, ASN1H_ERR_LENGTH, start);
        if (d->flags & ASN1H_DER)
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, start);
        *form |= ASN1H_FORM_INDEF;
        *content_end = end;
        return p;
    }
    if (len > 0x80) {
        n = len & 0x7Fu;
        if (n == 0x7F)                      /* reserved (X.690 8.1.3.5 c) */
            return asn1h_fail(d, ASN1H_ERR_LENGTH, start);
        if ((size_t)(end - p) < n)
            return asn1h_overrun(d, start, p, n);
        for (len = 0, i = 0; i < n; i++) {
            if (len > (SIZE_MAX >> 8))
                return asn1h_fail(d, ASN1H_ERR_LENGTH, start);
            len = (len << 8) | p[i];
        }
        if ((d->flags & ASN1H_DER) && (len < 0x80 || p[0] == 0))
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, start);
        p += n;
    }
    if ((size_t)(end - p) < len)
        return asn1h_overrun(d, start, p, len);
    *content_end = p + len;
    return p;
}

ASN1H_COLD uint32_t asn1h_peek_tag_long(const uint8_t *p, const uint8_t *end)
{
    uint32_t number = 0, cls = p[0] >> 6;
    if (++p < end && (*p & 0x7F) == 0)
        return 0;
    do {
        if (p >= end || number > (0x3FFFFFFFu >> 7))
            return 0;
        number = (number << 7) | (*p & 0x7Fu);
    } while (*p++ & 0x80);
    return number < 31 ? 0 : ASN1H_TAG(cls, number);
}

/* One identifier and length, read without checks beyond the bounds: the contents, their
 * length and whether it is indefinite; 0 when the header is malformed or cut short. */
static int raw_tl(const uint8_t *p, const uint8_t *end, const uint8_t **contents,
                  size_t *len, int *indefinite)
{
    size_t n;
    if (p >= end)
        return 0;
    if ((*p++ & 0x1F) == 0x1F)
        do {
            if (p >= end)
                return 0;
        } while (*p++ & 0x80);
    if (p >= end)
        return 0;
    *indefinite = *p == 0x80;
    *len = 0;
    if (*p < 0x80) {
        *len = *p++;
    } else if (*p++ != 0x80) {
        for (n = p[-1] & 0x7Fu; n > 0; n--) {
            if (p >= end || *len > (SIZE_MAX >> 8))
                return 0;
            *len = *len << 8 | *p++;
        }
    }
    *contents = p;
    return 1;
}

/* Walks the values in [p, end), up to an end-of-contents when `indefinite`: 1 when `at`
 * lies in the contents of a definite-length value that [p, end) holds whole, 0 when it
 * does not, -1 when it lies beyond what was walked (*next: where the walk stopped). */
ASN1H_COLD static int enclosing_definite(const uint8_t *p, const uint8_t *end, int indefinite,
                                         const uint8_t *at, unsigned depth,
                                         const uint8_t **next)
{
    while (p < end) {
        const uint8_t *contents = NULL;     /* set by raw_tl; gcc's size build cannot tell */
        size_t len = 0;
        int open = 0, found;
        if (indefinite && end - p >= 2 && p[0] == 0 && p[1] == 0) {
            *next = p + 2;
            return -1;
        }
        if (!raw_tl(p, end, &contents, &len, &open) || at < contents)
            return 0;
        if (!open) {
            if (len > (size_t)(end - contents))
                return 0;
            if (at < contents + len)
                return 1;
            p = contents + len;
        } else {
            if (depth == 0)
                return 0;
            found = enclosing_definite(contents, end, 1, at, depth - 1, &p);
            if (found >= 0)
                return found;
        }
    }
    *next = p;
    return 0;
}

/* Cold: a length running past the input's end is truncation unless a definite-length value
 * that the input holds whole encloses it (then it overruns that value).  Only indefinite
 * lengths let an inner length reach past the end of a complete input, so the check walks
 * the input again from its start. */
ASN1H_COLD const uint8_t *asn1h_overrun(asn1h_dec *d, const uint8_t *at,
                                        const uint8_t *contents, size_t len)
{
    const uint8_t *next;
    int truncated = d->input_end && len > (size_t)(d->input_end - contents)
                    && enclosing_definite(d->base, d->input_end, 0, at, ASN1H_MAX_DEPTH,
                                          &next) != 1;
    return asn1h_fail(d, truncated ? ASN1H_ERR_TRUNCATED : ASN1H_ERR_LENGTH, at);
}

const uint8_t *asn1h_read_tl(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                             uint32_t *tag, unsigned *form, const uint8_t **content_end)
{
    if (ASN1H_LIKELY(asn1h_usual_header(p, end)))
        return asn1h_got_tl(p, 2, p[1], tag, form, content_end);
    return asn1h_get_tl_other(d, p, end, tag, form, content_end);
}

const uint8_t *asn1h_close(asn1h_dec *d, const uint8_t *p, const uint8_t *end, unsigned form)
{
    if (!(form & ASN1H_FORM_INDEF)) {
        if (p != end)
            return asn1h_fail(d, ASN1H_ERR_TRAILING, p);
        return p;
    }
    if (end - p < 2)
        return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
    if (p[0] != 0 || p[1] != 0)
        return asn1h_fail(d, ASN1H_ERR_TRAILING, p);
    return p + 2;
}

/* Skips one TLV reading every level of it: what is kept as received (an open type, an
 * unknown alternative) must be well-formed throughout, since it is re-encoded with DER
 * framing later, and in strict DER mode its framing must be DER at every level. */
const uint8_t *asn1h_skip_whole(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                unsigned depth)
{
    uint32_t tag;
    unsigned form;
    const uint8_t *content_end, *at = p;
    if (!(p = asn1h_read_tl(d, p, end, &tag, &form, &content_end)))
        return NULL;
    if (tag == 0)
        return asn1h_fail(d, ASN1H_ERR_TAG, at);
    if (!(form & ASN1H_FORM_CONSTRUCTED))
        return content_end;
    if (depth == 0)
        return asn1h_fail(d, ASN1H_ERR_DEPTH, at);
    while (!asn1h_at_end(p, content_end, form))
        if (!(p = asn1h_skip_whole(d, p, content_end, depth - 1)))
            return NULL;
    return asn1h_close(d, p, content_end, form);
}

/* One BER TLV, any depth of indefinite lengths. */
ASN1H_NOINLINE static const uint8_t *skip_ber(asn1h_dec *d, const uint8_t *p,
                                              const uint8_t *end)
{
    unsigned open = 0;                      /* indefinite-length values not yet closed */
    do {
        uint32_t tag;
        unsigned form;
        const uint8_t *content_end;
        size_t room = (size_t)(end - p);
        if (open && room >= 2 && p[0] == 0 && p[1] == 0) {
            p += 2;
            open--;
            continue;
        }
        /* one identifier octet, then a short length or a constructed value's 0x80 */
        if (room >= 2 && asn1h_one_octet_tag(p[0])) {
            if (p[1] < 0x80 && p[1] <= room - 2) {
                p += 2 + p[1];
                continue;
            }
            if (p[1] == 0x80 && (p[0] & 0x20) && open < d->depth) {
                p += 2;
                open++;
                continue;
            }
        }
        content_end = NULL;
        if (!(p = asn1h_read_tl(d, p, end, &tag, &form, &content_end)))
            return NULL;
        if (tag == 0)                       /* end-of-contents where a value must be */
            return asn1h_fail(d, ASN1H_ERR_TAG, p - 2);
        if (form & ASN1H_FORM_INDEF) {
            if (open >= d->depth)
                return asn1h_fail(d, ASN1H_ERR_DEPTH, p);
            open++;
        } else {
            p = content_end;
        }
    } while (open);
    return p;
}

const uint8_t *asn1h_skip_tlv(asn1h_dec *d, const uint8_t *p, const uint8_t *end)
{
    size_t room = (size_t)(end - p), head, len;
    if (d->flags & ASN1H_DER)               /* DER framing at every level */
        return asn1h_skip_whole(d, p, end, d->depth);
    /* what asn1h_skip_definite leaves here most: a length in the 0x81 or 0x82 form */
    if (room >= 4 && asn1h_one_octet_tag(p[0]) && p[1] - 0x81u < 2u) {
        head = p[1] - 0x7Eu;
        len = head == 3 ? p[2] : (size_t)p[2] << 8 | p[3];
        if (len <= room - head)
            return p + head + len;
    }
    return skip_ber(d, p, end);
}

/* ---- INTEGER contents ------------------------------------------------------------------ */

int64_t asn1h_load_int(unsigned storage, const void *v)
{
    switch (storage) {
    case ASN1H_INT_I8: return *(const int8_t *)v;
    case ASN1H_INT_U8: return *(const uint8_t *)v;
    case ASN1H_INT_I16: return *(const int16_t *)v;
    case ASN1H_INT_U16: return *(const uint16_t *)v;
    case ASN1H_INT_I32: return *(const int32_t *)v;
    case ASN1H_INT_U32: return (int64_t)*(const uint32_t *)v;
    default: return *(const int64_t *)v;
    }
}

const uint8_t *asn1h_check_oid(asn1h_dec *d, const uint8_t *p, const uint8_t *end, int relative)
{
    const uint8_t *q;
    if (p == end && !relative)
        return asn1h_fail(d, ASN1H_ERR_VALUE, p);
    if (p != end && (end[-1] & 0x80))
        return asn1h_fail(d, ASN1H_ERR_VALUE, end - 1);
    for (q = p; q < end; q++)
        if (*q == 0x80 && (q == p || !(q[-1] & 0x80)))
            return asn1h_fail(d, ASN1H_ERR_VALUE, q);
    return end;
}

/* DER: SET OF elements in ascending order of their encodings (X.690 11.6). */
int asn1h_der_ascending(const uint8_t *previous, const uint8_t *at, const uint8_t *end)
{
    size_t alen = (size_t)(at - previous), blen = (size_t)(end - at);
    int c = memcmp(previous, at, alen < blen ? alen : blen);
    return c < 0 || (c == 0 && alen <= blen);
}

/* ---- Encoding: identifiers, lengths, INTEGER contents --------------------------------- */

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

uint8_t *asn1h_put_raw_out(asn1h_enc *e, uint8_t *p, const void *buf, size_t len)
{
    return asn1h_put_raw_inline(e, p, buf, len);
}

uint8_t *asn1h_put_len_long(asn1h_enc *e, uint8_t *p, size_t len)
{
    unsigned n = 0;
    if (len < 0x80) {
        ASN1H_ROOM(e, p, 1);
        *--p = (uint8_t)len;
        return p;
    }
    for (; len; len >>= 8, n++) {
        ASN1H_ROOM(e, p, 1);
        *--p = (uint8_t)len;
    }
    ASN1H_ROOM(e, p, 1);
    *--p = (uint8_t)(0x80 | n);
    return p;
}

ASN1H_COLD uint8_t *asn1h_put_tag_long(asn1h_enc *e, uint8_t *p, uint32_t tag,
                                       unsigned constructed)
{
    uint32_t number = tag & 0x3FFFFFFFu;
    uint8_t first = (uint8_t)((tag >> 30) << 6 | constructed << 5);
    uint8_t more = 0;
    if (number < 31) {
        ASN1H_ROOM(e, p, 1);
        *--p = (uint8_t)(first | number);
        return p;
    }
    do {
        ASN1H_ROOM(e, p, 1);
        *--p = (uint8_t)((number & 0x7F) | more);
        more = 0x80;
        number >>= 7;
    } while (number);
    ASN1H_ROOM(e, p, 1);
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

uint8_t *asn1h_put_uint64(asn1h_enc *e, uint8_t *p, uint64_t u)
{
    do {
        ASN1H_ROOM(e, p, 1);
        *--p = (uint8_t)u;
        u >>= 8;
    } while (u);
    if (*p & 0x80) {
        ASN1H_ROOM(e, p, 1);
        *--p = 0;
    }
    return p;
}

/* A negative value's octets are those of its complement, which is not negative, each
 * complemented: the same count, and the top bit set where the other's is clear. */
uint8_t *asn1h_put_int64(asn1h_enc *e, uint8_t *p, int64_t v)
{
    uint8_t *q, *o;
    if (v >= 0)
        return asn1h_put_uint64(e, p, (uint64_t)v);
    if ((q = asn1h_put_uint64(e, p, ~(uint64_t)v)))
        for (o = q; o < p; o++)
            *o = (uint8_t)~*o;
    return q;
}

uint8_t *asn1h_enc_int(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    switch (asn1h_storage(t)) {
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

/* DER order of SET OF elements: as octet strings, the shorter padded with zeros.  With
 * `first` 0xDF (the constructed bit left out of the first octet), the order of SET
 * components by their tags (X.680 8.6: class, then number): the identifier octets of two
 * different tags differ, a long form's first octet (number 31) is above every short form's,
 * and base 128 with a continuation bit orders the rest. */
static int der_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                       unsigned first)
{
    size_t n = alen < blen ? alen : blen, i;
    int c = (int)(a[0] & first) - (int)(b[0] & first);
    if (c || (c = memcmp(a + 1, b + 1, n - 1)))
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

/* Insertion sort with rotations, of the TLVs in [p, end), the first of which ends at next:
 * no extra memory (SET OF values are small in practice). */
ASN1H_NOINLINE static void insertion_sort(uint8_t *p, uint8_t *next, uint8_t *end,
                                          unsigned first)
{
    while (next < end) {
        size_t size = tlv_size(next);
        uint8_t *at = p;
        while (at < next && der_compare(at, tlv_size(at), next, size, first) <= 0)
            at += tlv_size(at);
        if (at < next) {                    /* rotate [at, next + size) right by size */
            reverse(at, next);
            reverse(next, next + size);
            reverse(at, next + size);
        }
        next += size;
    }
}

/* One TLV or none (the usual SET OF of a name) is sorted already. */
ASN1H_NOINLINE static void sort_tlvs(uint8_t *p, uint8_t *end, unsigned first)
{
    uint8_t *next;
    if (p < end && (next = p + tlv_size(p)) < end)
        insertion_sort(p, next, end, first);
}

void asn1h_sort_set_of(uint8_t *p, uint8_t *end)
{
    sort_tlvs(p, end, 0xFF);
}

void asn1h_sort_set_components(uint8_t *p, uint8_t *end)
{
    sort_tlvs(p, end, 0xDF);
}

const uint8_t *asn1h_tags_above(const uint8_t *p, const uint8_t *end, uint32_t tag)
{
    while (p < end && tlv_tag(p) <= tag)
        p += tlv_size(p);
    return p;
}

/* ---- The tables' pools ------------------------------------------------------------- */

/* An INTEGER's contents: its minimal two's-complement octets (in scratch, or in the
 * value's own `big` octets); *len their count. */
const uint8_t *asn1h_int_octets(const asn1h_type *t, const void *v, uint8_t scratch[10],
                                size_t *len)
{
    asn1h_enc e;
    asn1h_error err;
    const uint8_t *q;
    if (asn1h_storage(t) == ASN1H_INT_BIG && ((const asn1h_int *)v)->big) {
        const asn1h_int *x = (const asn1h_int *)v;
        const uint8_t *b = x->big;
        size_t n = x->big_len;
        while (n > 1 && ((b[0] == 0 && !(b[1] & 0x80)) || (b[0] == 0xFF && (b[1] & 0x80)))) {
            b++;
            n--;
        }
        *len = n;
        return b;
    }
    e.start = scratch;
    e.err = &err;
    err.code = ASN1H_OK;
    q = asn1h_enc_int(&e, t, scratch + 10, v);
    *len = (size_t)(scratch + 10 - q);
    return q;
}

const asn1h_default *asn1h_default_of(const asn1h_spec *spec, const asn1h_member *m)
{
    unsigned index = (unsigned)(m - spec->members), n = spec->ndefaults;
    const asn1h_default *d = spec->defaults;
    while (n > 1) {                         /* sorted by member index: the last <= index */
        unsigned half = n / 2;
        if (d[half].member <= index)
            d += half;
        n -= half;
    }
    return n && d->member == index ? d : NULL;
}
