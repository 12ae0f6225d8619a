/* asn1h_decode.c: BER decoding, the interpreter's half that reads.
 *
 * Every routine takes the bounds of what it may read and returns the position after what
 * it read, or NULL after recording an error with asn1h_fail.  While an error unwinds,
 * each level adds its component name to the error's path.
 */
#include <math.h>
#include <stdlib.h>

#include "asn1h_ber.h"

/* ---- Errors -------------------------------------------------------------------------- */

const uint8_t *asn1h_fail(asn1h_dec *d, asn1h_code code, const uint8_t *at)
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

void asn1h_path_push(asn1h_error *err, const char *name, size_t index)
{
    if (err->depth < ASN1H_PATH_MAX) {
        err->path[err->depth].name = name;
        err->path[err->depth].index = index;
        err->depth++;
    } else {
        err->truncated = true;
    }
}

/* ---- Identifiers and lengths --------------------------------------------------------- */

const uint8_t *asn1h_get_tag_long(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  uint32_t *tag, unsigned *form)
{
    const uint8_t *start = p;
    uint32_t number = 0;
    uint32_t cls = p[0] >> 6;

    *form = (p[0] >> 5) & 1u;
    p++;
    if (p < end && (*p & 0x7F) == 0)        /* X.690 8.1.2.4.2 c: no leading zero bits */
        return asn1h_fail(d, ASN1H_ERR_TAG, start);
    do {
        if (p >= end)
            return asn1h_fail(d, ASN1H_ERR_TRUNCATED, start);
        if (number > (0x3FFFFFFFu >> 7))
            return asn1h_fail(d, ASN1H_ERR_TAG, start);
        number = (number << 7) | (*p & 0x7Fu);
    } while (*p++ & 0x80);
    if (number < 31 && (d->flags & ASN1H_DER))
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, start);
    *tag = (cls << 30) | number;
    return p;
}

const uint8_t *asn1h_get_len_long(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  unsigned *form, const uint8_t **content_end)
{
    const uint8_t *start = p;
    size_t len = 0, n, i;

    if (p >= end)
        return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
    if (*p == 0x80) {
        if (!(*form & ASN1H_FORM_CONSTRUCTED))
            return asn1h_fail(d, ASN1H_ERR_LENGTH, start);
        if (d->flags & ASN1H_DER)
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, start);
        *form |= ASN1H_FORM_INDEF;
        *content_end = end;
        return p + 1;
    }
    n = *p++ & 0x7Fu;
    if (n == 0x7F)                          /* reserved (X.690 8.1.3.5 c) */
        return asn1h_fail(d, ASN1H_ERR_LENGTH, start);
    if ((size_t)(end - p) < n)
        return asn1h_overrun(d, start, p, n);
    for (i = 0; i < n; i++) {
        if (len > (SIZE_MAX >> 8))
            return asn1h_fail(d, ASN1H_ERR_LENGTH, start);
        len = (len << 8) | p[i];
    }
    if ((d->flags & ASN1H_DER) && (n == 0 || len < 0x80 || p[0] == 0))
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, start);
    p += n;
    if ((size_t)(end - p) < len)
        return asn1h_overrun(d, start, p, len);
    *content_end = p + len;
    return p;
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
static int enclosing_definite(const uint8_t *p, const uint8_t *end, int indefinite,
                              const uint8_t *at, unsigned depth, const uint8_t **next)
{
    while (p < end) {
        const uint8_t *contents;
        size_t len;
        int open, found;
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
const uint8_t *asn1h_overrun(asn1h_dec *d, const uint8_t *at, const uint8_t *contents,
                             size_t len)
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
    return asn1h_get_tl(d, p, end, tag, form, content_end);
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
static const uint8_t *skip_whole(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
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
        if (!(p = skip_whole(d, p, content_end, depth - 1)))
            return NULL;
    return asn1h_close(d, p, content_end, form);
}

const uint8_t *asn1h_skip_value(asn1h_dec *d, const uint8_t *p, const uint8_t *end)
{
    return skip_whole(d, p, end, d->depth);
}

const uint8_t *asn1h_skip_tlv(asn1h_dec *d, const uint8_t *p, const uint8_t *end)
{
    unsigned open = 0;                      /* indefinite-length values not yet closed */
    if (d->flags & ASN1H_DER)               /* DER framing at every level */
        return skip_whole(d, p, end, d->depth);
    do {
        uint32_t tag;
        unsigned form;
        const uint8_t *content_end;
        if (open && end - p >= 2 && p[0] == 0 && p[1] == 0) {
            p += 2;
            open--;
            continue;
        }
        content_end = NULL;
        if (!(p = asn1h_get_tl(d, p, end, &tag, &form, &content_end)))
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

/* ---- Members and tags ---------------------------------------------------------------- */

int asn1h_type_accepts(const asn1h_type *t, uint32_t tag)
{
    unsigned i;
    if (t->ntags)
        return t->tags[0] == tag;
    if (t->kind == ASN1H_CHOICE) {
        for (i = 0; i < t->nmembers; i++)
            if (asn1h_member_accepts(&t->members[i], tag))
                return 1;
        return 0;
    }
    return tag != 0;                        /* an untagged open type takes any value */
}

int asn1h_member_accepts(const asn1h_member *m, uint32_t tag)
{
    if (m->flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT))
        return m->tag == tag;
    return asn1h_type_accepts(m->type, tag);
}

void asn1h_set_default(const asn1h_member *m, void *base)
{
    if (m->dflt && !(m->flags & ASN1H_M_POINTER))
        memcpy((uint8_t *)base + m->offset, m->dflt, m->type->size);
}

/* The effective tags of member m: its own tag applied to those of its type. */
static unsigned member_tags(const asn1h_member *m, uint32_t *buf, const uint32_t **tags)
{
    const asn1h_type *t = m->type;
    unsigned skip;
    if (!(m->flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT))) {
        *tags = t->tags;
        return t->ntags;
    }
    skip = (m->flags & ASN1H_M_IMPLICIT) ? 1u : 0u;
    buf[0] = m->tag;
    if (t->ntags > skip)                    /* an untagged CHOICE has no tags array */
        memcpy(buf + 1, t->tags + skip, (t->ntags - skip) * sizeof *buf);
    *tags = buf;
    return t->ntags - skip + 1;
}

/* Reads the tags of a value (explicit wrappers, then its own identifier) and decodes it. */
static const uint8_t *decode_tagged(asn1h_dec *d, const asn1h_type *t, const uint32_t *tags,
                                    unsigned ntags, const uint8_t *p, const uint8_t *end,
                                    void *v)
{
    const uint8_t *bounds[ASN1H_MAX_TAGS];
    unsigned forms[ASN1H_MAX_TAGS];
    unsigned nwrap = asn1h_has_own_tlv(t) ? ntags - 1 : ntags;
    unsigned i, form = 0;
    uint32_t tag;

    for (i = 0; i < nwrap; i++) {
        const uint8_t *at = p;
        ASN1H_ENTER(d, at);                 /* an explicit tag nests like any constructed value */
        if (!(p = asn1h_read_tl(d, p, end, &tag, &forms[i], &end)))
            return NULL;
        if (tag != tags[i])
            return asn1h_fail(d, ASN1H_ERR_TAG, at);
        if (!(forms[i] & ASN1H_FORM_CONSTRUCTED))
            return asn1h_fail(d, ASN1H_ERR_FORM, at);
        bounds[i] = end;
    }
    if (nwrap < ntags) {
        const uint8_t *at = p;
        if (!(p = asn1h_read_tl(d, p, end, &tag, &form, &end)))
            return NULL;
        if (tag != tags[nwrap])
            return asn1h_fail(d, ASN1H_ERR_TAG, at);
    }
    if (!(p = asn1h_decode_contents(d, t, p, end, form, v)))
        return NULL;
    while (i-- > 0)
        if (!(p = asn1h_close(d, p, bounds[i], forms[i])))
            return NULL;
    d->depth += nwrap;
    return p;
}

const uint8_t *asn1h_decode_member(asn1h_dec *d, const asn1h_member *m, const uint8_t *p,
                                   const uint8_t *end, void *base)
{
    uint32_t buf[ASN1H_MAX_TAGS];
    const uint32_t *tags;
    unsigned ntags = member_tags(m, buf, &tags);
    void *v = (uint8_t *)base + m->offset;

    if (m->flags & ASN1H_M_POINTER) {
        void *target = asn1h_arena_alloc(d->arena, m->type->size);
        if (!target)
            return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
        memcpy(v, &target, sizeof target);
        v = target;
    }
    return decode_tagged(d, m->type, tags, ntags, p, end, v);
}

/* The tag a member's encoding starts with; 0 when its type has none of its own (an
 * untagged CHOICE or open type), which asn1h_member_accepts then decides. */
static uint32_t first_tag(const asn1h_member *m)
{
    if (m->flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT))
        return m->tag;
    return m->type->ntags ? m->type->tags[0] : 0;
}

static int member_matches(const asn1h_member *m, uint32_t tag)
{
    uint32_t first = first_tag(m);
    return first ? first == tag : asn1h_type_accepts(m->type, tag);
}

/* Member m, whose identifier and length at `at` were already read (tag, form, contents
 * [c, content_end)).  The usual member, one tag and stored inline, goes straight to its
 * contents; the others take the general route. */
ASN1H_INLINE const uint8_t *decode_read_member(asn1h_dec *d, const asn1h_member *m, const uint8_t *at,
                                         const uint8_t *end, unsigned form, const uint8_t *c,
                                         const uint8_t *content_end, void *base)
{
    const asn1h_type *t = m->type;
    void *v = (uint8_t *)base + m->offset;
    if ((m->flags & (ASN1H_M_EXPLICIT | ASN1H_M_POINTER)) || t->ntags != 1 || !asn1h_has_own_tlv(t))
        return asn1h_decode_member(d, m, at, end, base);
    return t->decode ? t->decode(d, c, content_end, form, v)
                     : asn1h_interpret_contents(d, t, c, content_end, form, v);
}

/* ---- Primitive contents -------------------------------------------------------------- */

static const uint8_t *require_primitive(asn1h_dec *d, const uint8_t *p, unsigned form)
{
    if (form & ASN1H_FORM_CONSTRUCTED)
        return asn1h_fail(d, ASN1H_ERR_FORM, p);
    return p;
}

static const uint8_t *dec_boolean(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  unsigned form, bool *v)
{
    if (!require_primitive(d, p, form))
        return NULL;
    if (end - p != 1)
        return asn1h_fail(d, ASN1H_ERR_VALUE, p);
    if ((d->flags & ASN1H_DER) && p[0] != 0 && p[0] != 0xFF)
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
    *v = p[0] != 0;
    return end;
}

static const uint8_t *dec_null(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                               unsigned form)
{
    if (!require_primitive(d, p, form))
        return NULL;
    if (p != end)
        return asn1h_fail(d, ASN1H_ERR_VALUE, p);
    return end;
}

/* Stores a value that fits 64 bits into the C storage of an INTEGER or ENUMERATED. */
static int store_int(unsigned storage, void *v, int64_t s, uint64_t u, int negative)
{
    switch (storage) {
    case ASN1H_INT_I8:
        if (negative ? s < INT8_MIN : u > INT8_MAX) return 0;
        *(int8_t *)v = (int8_t)s;
        return 1;
    case ASN1H_INT_U8:
        if (negative || u > UINT8_MAX) return 0;
        *(uint8_t *)v = (uint8_t)u;
        return 1;
    case ASN1H_INT_I16:
        if (negative ? s < INT16_MIN : u > INT16_MAX) return 0;
        *(int16_t *)v = (int16_t)s;
        return 1;
    case ASN1H_INT_U16:
        if (negative || u > UINT16_MAX) return 0;
        *(uint16_t *)v = (uint16_t)u;
        return 1;
    case ASN1H_INT_I32:
        if (negative ? s < INT32_MIN : u > INT32_MAX) return 0;
        *(int32_t *)v = (int32_t)s;
        return 1;
    case ASN1H_INT_U32:
        if (negative || u > UINT32_MAX) return 0;
        *(uint32_t *)v = (uint32_t)u;
        return 1;
    case ASN1H_INT_I64:
        if (!negative && u > INT64_MAX) return 0;
        *(int64_t *)v = s;
        return 1;
    case ASN1H_INT_U64:
        if (negative) return 0;
        *(uint64_t *)v = u;
        return 1;
    default:
        return 0;
    }
}

const uint8_t *asn1h_dec_int(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                             const uint8_t *end, void *v)
{
    size_t len = (size_t)(end - p), i;
    int negative;
    uint64_t u;

    if (len == 0)
        return asn1h_fail(d, ASN1H_ERR_VALUE, p);
    if (len > 1 && ((p[0] == 0x00 && !(p[1] & 0x80)) || (p[0] == 0xFF && (p[1] & 0x80)))
        && (d->flags & ASN1H_DER))
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
    negative = p[0] >> 7;
    /* Leading octets that only repeat the sign (BER allows them) do not count against
     * 64 bits: an octet goes when it and the next one's top bit are all sign. */
    while (len > 8 && p[0] == (uint8_t)(0u - (unsigned)negative) && (p[1] >> 7) == negative) {
        p++;
        len--;
    }
    if (len > 8) {
        if (t->aux == ASN1H_INT_BIG) {
            asn1h_int *x = (asn1h_int *)v;  /* exact: keep the octets where they are */
            x->big = p;
            x->big_len = len;
            return end;
        }
        if (len > 9 || negative || p[0] != 0)   /* only 00 + 8 octets fits (uint64_t) */
            return asn1h_fail(d, ASN1H_ERR_CONSTRAINT, p);
        p++;
        len--;
    }
    u = negative ? ~(uint64_t)0 : 0;
    for (i = 0; i < len; i++)
        u = (u << 8) | p[i];
    if (t->aux == ASN1H_INT_BIG) {
        ((asn1h_int *)v)->v = (int64_t)u;
        return end;
    }
    if (!store_int(t->aux, v, (int64_t)u, u, negative))
        return asn1h_fail(d, ASN1H_ERR_CONSTRAINT, p);
    return end;
}

static int64_t load_int(unsigned storage, const void *v)
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

ASN1H_NOINLINE static const uint8_t *dec_enumerated(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                     const uint8_t *end, void *v)
{
    const asn1h_enum_info *info = (const asn1h_enum_info *)t->info;
    int64_t value;
    unsigned i;

    if (!asn1h_dec_int(d, t, p, end, v))
        return NULL;
    if (!info || (t->flags & ASN1H_T_EXTENSIBLE))
        return end;
    value = load_int(t->aux, v);
    for (i = 0; i < info->count; i++)
        if (info->items[i].value == value)
            return end;
    return asn1h_fail(d, ASN1H_ERR_VALUE, p);
}

/* Total length of a constructed string's segments, each with universal tag `segment_tag`.
 * BIT STRING segments each start with an unused-bits octet, only the last may be non-0. */
static const uint8_t *segments(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                               unsigned form, uint32_t segment_tag, uint8_t *out,
                               size_t *total, unsigned depth, uint8_t *unused)
{
    while (!asn1h_at_end(p, end, form)) {
        const uint8_t *at = p, *content_end;
        uint32_t tag;
        unsigned seg_form;
        if (*unused)                        /* only the last BIT STRING segment has any */
            return asn1h_fail(d, ASN1H_ERR_VALUE, at);
        if (!(p = asn1h_read_tl(d, p, end, &tag, &seg_form, &content_end)))
            return NULL;
        if (tag != segment_tag)
            return asn1h_fail(d, ASN1H_ERR_TAG, at);
        if (seg_form & ASN1H_FORM_CONSTRUCTED) {
            if (depth == 0)
                return asn1h_fail(d, ASN1H_ERR_DEPTH, at);
            if (!(p = segments(d, p, content_end, seg_form, segment_tag, out, total,
                               depth - 1, unused)))
                return NULL;
            continue;
        }
        if (segment_tag == ASN1H_TAG(ASN1H_UNIVERSAL, 3)) {
            if (p == content_end || p[0] > 7 || (p[0] && content_end - p == 1))
                return asn1h_fail(d, ASN1H_ERR_VALUE, p);
            *unused = p[0];
            p++;
        }
        if (out)
            memcpy(out + *total, p, (size_t)(content_end - p));
        *total += (size_t)(content_end - p);
        p = content_end;
    }
    return asn1h_close(d, p, end, form);
}

/* A constructed string (BER only): the segments, concatenated into the arena. */
static const uint8_t *dec_constructed_string(asn1h_dec *d, const uint8_t *p,
                                             const uint8_t *end, unsigned form,
                                             uint32_t segment_tag, asn1h_bytes *v,
                                             uint8_t *unused)
{
    size_t total = 0;
    uint8_t *buf;
    const uint8_t *q;

    if (d->flags & ASN1H_DER)
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
    *unused = 0;
    if (!(q = segments(d, p, end, form, segment_tag, NULL, &total, d->depth, unused)))
        return NULL;
    buf = (uint8_t *)asn1h_arena_alloc(d->arena, total);
    if (!buf && total)
        return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
    total = 0;
    *unused = 0;
    segments(d, p, end, form, segment_tag, buf, &total, d->depth, unused);
    v->buf = buf;
    v->len = total;
    return q;
}

const uint8_t *asn1h_dec_bytes(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                               unsigned form, asn1h_bytes *v)
{
    uint8_t unused;
    if (form & ASN1H_FORM_CONSTRUCTED)
        return dec_constructed_string(d, p, end, form, ASN1H_TAG(ASN1H_UNIVERSAL, 4), v,
                                      &unused);
    v->buf = p;
    v->len = (size_t)(end - p);
    return end;
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

ASN1H_NOINLINE static const uint8_t *dec_bits(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                               const uint8_t *end, unsigned form, asn1h_bits *v)
{
    if (form & ASN1H_FORM_CONSTRUCTED) {
        asn1h_bytes joined;
        if (!(p = dec_constructed_string(d, p, end, form, ASN1H_TAG(ASN1H_UNIVERSAL, 3),
                                         &joined, &v->unused)))
            return NULL;
        v->buf = joined.buf;
        v->len = joined.len;
        return p;
    }
    if (p == end || p[0] > 7 || (p[0] && end - p == 1))
        return asn1h_fail(d, ASN1H_ERR_VALUE, p);
    if (d->flags & ASN1H_DER) {
        uint8_t last = end - p > 1 ? end[-1] : 0;
        if (last & ((1u << p[0]) - 1))      /* unused bits must be zero */
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, end - 1);
        if ((t->flags & ASN1H_T_NAMED_BITS) && end - p > 1 && !(last & (1u << p[0])))
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, end - 1);   /* trailing 0 bits */
    }
    v->unused = p[0];
    v->buf = p + 1;
    v->len = (size_t)(end - p - 1);
    return end;
}

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

/* UTCTime, GeneralizedTime: a time of X.680, and in its DER form when strict. */
ASN1H_NOINLINE static const uint8_t *dec_time(asn1h_dec *d, const asn1h_type *t,
                                              const uint8_t *p, const uint8_t *end,
                                              unsigned form, asn1h_bytes *v)
{
    const uint8_t *q = asn1h_dec_bytes(d, p, end, form, v);
    int strict = (d->flags & ASN1H_DER) != 0;
    if (q && !(strict ? asn1h_is_der_time : asn1h_is_time)(v->buf, v->buf + v->len, t->aux))
        return asn1h_fail(d, strict ? ASN1H_ERR_NOT_DER : ASN1H_ERR_VALUE, p);
    return q;
}

/* REAL (X.690 8.5): binary, decimal (ISO 6093) and the special values. */
ASN1H_NOINLINE static const uint8_t *dec_real(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                               unsigned form, double *v)
{
    size_t len = (size_t)(end - p);
    uint8_t b;

    if (!require_primitive(d, p, form))
        return NULL;
    if (len == 0) {
        *v = 0.0;
        return end;
    }
    b = p[0];
    if (b & 0x80) {                                         /* binary */
        static const int base_bits[4] = {1, 3, 4, 0};
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

/* ---- Constructed contents ------------------------------------------------------------ */

/* Decodes `open` through the table `info`, whose key is member info->key_member of the
 * struct v of type t.  A key outside the table leaves the value raw; so does, when
 * `lenient`, a value that does not decode (OCTET STRING CONTAINING: CMS puts id-data's
 * octets in eContent as they are, where RFC 5912's table says an OCTET STRING's DER). */
static const uint8_t *resolve_open(asn1h_dec *d, const asn1h_type *t, const void *v,
                                   const asn1h_open_info *info, asn1h_open *open, int lenient)
{
    const asn1h_member *key = &t->members[info->key_member];
    asn1h_bytes key_bytes;
    uint8_t scratch[10];
    unsigned j;

    if (!open->buf)
        return (const uint8_t *)v;
    if (key->type->kind == ASN1H_BYTES) {
        key_bytes = *(const asn1h_bytes *)((const uint8_t *)v + key->offset);
    } else {                                /* INTEGER keys: compare their encodings */
        asn1h_enc e;
        asn1h_error err;
        uint8_t *q;
        e.start = scratch;
        e.err = &err;
        err.code = ASN1H_OK;
        q = asn1h_enc_int(&e, key->type, scratch + sizeof scratch,
                          (const uint8_t *)v + key->offset);
        if (!q)
            return (const uint8_t *)v;
        key_bytes.buf = q;
        key_bytes.len = (size_t)(scratch + sizeof scratch - q);
    }
    for (j = 0; j < info->count; j++) {
        const asn1h_open_entry *entry = &info->entries[j];
        if (entry->key_len == key_bytes.len
            && memcmp(entry->key, key_bytes.buf, key_bytes.len) == 0) {
            void *value = asn1h_arena_alloc(d->arena, entry->type->size);
            unsigned depth = d->depth;
            const uint8_t *q;
            if (!value)
                return asn1h_fail(d, ASN1H_ERR_MEMORY, open->buf);
            q = decode_tagged(d, entry->type, entry->type->tags, entry->type->ntags,
                              open->buf, open->buf + open->len, value);
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
            open->type = entry->type;
            open->value = value;
            break;
        }
    }
    return (const uint8_t *)v;
}

const uint8_t *asn1h_resolve_open_types(asn1h_dec *d, const asn1h_type *t, void *v)
{
    unsigned i;
    for (i = 0; i < t->nmembers; i++) {
        const asn1h_member *m = &t->members[i];
        const asn1h_type *mt = m->type;
        if (m->flags & ASN1H_M_POINTER)
            continue;
        if ((mt->kind == ASN1H_OPEN || (mt->flags & ASN1H_T_CONTAINING)) && mt->info) {
            if (!resolve_open(d, t, v, (const asn1h_open_info *)mt->info,
                              (asn1h_open *)((uint8_t *)v + m->offset),
                              mt->kind != ASN1H_OPEN))
                return asn1h_unwind(d, m->name);
        } else if ((mt->kind == ASN1H_SEQUENCE_OF || mt->kind == ASN1H_SET_OF)
                   && mt->members[0].type->kind == ASN1H_OPEN && mt->members[0].type->info
                   && !(mt->members[0].flags & ASN1H_M_POINTER)) {
            /* the values of an attribute: each element keyed by a member beside the list */
            const asn1h_open_info *info = (const asn1h_open_info *)mt->members[0].type->info;
            void *items;
            size_t count, k;
            asn1h_array_get((uint8_t *)v + m->offset, &items, &count);
            for (k = 0; k < count; k++)
                if (!resolve_open(d, t, v, info, (asn1h_open *)items + k, 0)) {
                    asn1h_unwind_index(d, k);
                    return asn1h_unwind(d, m->name);
                }
        }
    }
    return (const uint8_t *)v;
}

static int member_absent_ok(const asn1h_member *m)
{
    return (m->flags & (ASN1H_M_OPTIONAL | ASN1H_M_DEFAULT | ASN1H_M_EXTENSION)) != 0;
}

static int later_member_accepts(const asn1h_type *t, unsigned from, uint32_t tag)
{
    unsigned i;
    for (i = from; i < t->nmembers; i++)
        if (asn1h_member_accepts(&t->members[i], tag))
            return 1;
    return 0;
}

const uint8_t *asn1h_skip_unknown(asn1h_dec *d, const asn1h_type *t, unsigned from,
                                  const uint8_t *p, const uint8_t *end, unsigned form)
{
    while (!asn1h_at_end(p, end, form) && p < end) {
        uint32_t tag = asn1h_peek_tag(d, p, end);
        if (!tag || later_member_accepts(t, from, tag))
            break;
        if (!(p = asn1h_skip_tlv(d, p, end)))
            return NULL;
    }
    return p;
}

int asn1h_der_default_ok(asn1h_dec *d, const asn1h_member *m, const void *base,
                         uint32_t present_offset, const uint8_t *at)
{
    /* DER leaves out a DEFAULT member equal to its default (X.690 11.5): the encoder's own
     * test says whether it would have been written */
    if ((d->flags & ASN1H_DER) && !asn1h_member_encoded(m, base, present_offset)) {
        asn1h_fail(d, ASN1H_ERR_NOT_DER, at);
        return 0;
    }
    return 1;
}

const uint8_t *asn1h_decode_required(asn1h_dec *d, const asn1h_member *m, const uint8_t *p,
                                     const uint8_t *end, unsigned form, void *base)
{
    if (asn1h_at_end(p, end, form))
        return asn1h_fail(d, ASN1H_ERR_MISSING, p);
    return asn1h_decode_member(d, m, p, end, base);
}

ASN1H_NOINLINE static const uint8_t *dec_sequence(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                   const uint8_t *end, unsigned form, void *v)
{
    unsigned i = 0, form_read = 0;
    uint32_t tag = 0;
    const uint8_t *c = NULL, *content_end = NULL, *read_at = NULL;

    if (!(form & ASN1H_FORM_CONSTRUCTED))
        return asn1h_fail(d, ASN1H_ERR_FORM, p);
    ASN1H_ENTER(d, p);
    while (i < t->nmembers) {
        const asn1h_member *m = &t->members[i];
        if (read_at != p) {                 /* read the next identifier and length once */
            tag = 0;
            if (!asn1h_at_end(p, end, form)) {
                if (!(c = asn1h_read_tl(d, p, end, &tag, &form_read, &content_end)))
                    return NULL;
                if (!tag)                   /* end-of-contents inside a definite value */
                    return asn1h_fail(d, ASN1H_ERR_TAG, p);
            }
            read_at = p;
        }
        if (tag && member_matches(m, tag)) {
            const uint8_t *at = p;
            if (!(p = decode_read_member(d, m, p, end, form_read, c, content_end, v)))
                return asn1h_unwind(d, m->name);
            if (m->bit != ASN1H_NO_BIT)
                asn1h_set_bit(v, t->aux, m->bit);
            if ((m->flags & ASN1H_M_DEFAULT) && !asn1h_der_default_ok(d, m, v, t->aux, at))
                return asn1h_unwind(d, m->name);
            i++;
        } else if (tag && (t->flags & ASN1H_T_EXTENSIBLE) && !later_member_accepts(t, i, tag)) {
            if (!(p = asn1h_skip_tlv(d, p, end)))     /* an unknown extension addition */
                return NULL;
        } else if (member_absent_ok(m)) {
            asn1h_set_default(m, v);
            i++;
        } else {
            asn1h_fail(d, tag ? ASN1H_ERR_TAG : ASN1H_ERR_MISSING, p);
            return asn1h_unwind(d, m->name);
        }
    }
    while ((t->flags & ASN1H_T_EXTENSIBLE) && !asn1h_at_end(p, end, form))
        if (!(p = asn1h_skip_tlv(d, p, end)))
            return NULL;
    if (!(p = asn1h_close(d, p, end, form)))
        return NULL;
    if ((t->flags & ASN1H_T_OPEN_MEMBERS) && !asn1h_resolve_open_types(d, t, v))
        return NULL;
    ASN1H_LEAVE(d);
    return p;
}

ASN1H_NOINLINE static const uint8_t *dec_set(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                              const uint8_t *end, unsigned form, void *v)
{
    uint8_t seen[32] = {0};                 /* generated SETs have at most 256 members */
    unsigned i;
    uint32_t last_tag = 0;                  /* DER: the tag of the previous component */

    if (!(form & ASN1H_FORM_CONSTRUCTED))
        return asn1h_fail(d, ASN1H_ERR_FORM, p);
    ASN1H_ENTER(d, p);
    while (!asn1h_at_end(p, end, form)) {
        uint32_t tag;
        unsigned form_read;
        const uint8_t *c, *content_end;
        const asn1h_member *m = NULL;
        if (!(c = asn1h_read_tl(d, p, end, &tag, &form_read, &content_end)))
            return NULL;
        for (i = 0; i < t->nmembers; i++)
            if (member_matches(&t->members[i], tag)) {
                m = &t->members[i];
                break;
            }
        if (!m) {
            if (!tag || !(t->flags & ASN1H_T_EXTENSIBLE))
                return asn1h_fail(d, ASN1H_ERR_TAG, p);
            if (!(p = asn1h_skip_tlv(d, p, end)))
                return NULL;
            continue;
        }
        if (seen[i >> 3] & (1u << (i & 7))) {
            asn1h_fail(d, ASN1H_ERR_DUPLICATE, p);
            return asn1h_unwind(d, m->name);
        }
        /* DER: components in ascending order of their tags (X.690 10.3), an untagged
         * CHOICE by its alternative's: ASN1H_TAG numbers sort in that order */
        if ((d->flags & ASN1H_DER) && tag <= last_tag)
            return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
        last_tag = tag;
        seen[i >> 3] |= (uint8_t)(1u << (i & 7));
        {
            const uint8_t *at = p;
            if (!(p = decode_read_member(d, m, p, end, form_read, c, content_end, v)))
                return asn1h_unwind(d, m->name);
            if (m->bit != ASN1H_NO_BIT)
                asn1h_set_bit(v, t->aux, m->bit);
            if ((m->flags & ASN1H_M_DEFAULT) && !asn1h_der_default_ok(d, m, v, t->aux, at))
                return asn1h_unwind(d, m->name);
        }
    }
    for (i = 0; i < t->nmembers; i++) {
        const asn1h_member *m = &t->members[i];
        if (seen[i >> 3] & (1u << (i & 7)))
            continue;
        if (!member_absent_ok(m)) {
            asn1h_fail(d, ASN1H_ERR_MISSING, p);
            return asn1h_unwind(d, m->name);
        }
        asn1h_set_default(m, v);
    }
    if (!(p = asn1h_close(d, p, end, form)))
        return NULL;
    if ((t->flags & ASN1H_T_OPEN_MEMBERS) && !asn1h_resolve_open_types(d, t, v))
        return NULL;
    ASN1H_LEAVE(d);
    return p;
}

ASN1H_NOINLINE static const uint8_t *dec_choice(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                 const uint8_t *end, void *v)
{
    uint32_t tag = asn1h_peek_tag(d, p, end);
    unsigned i;

    if (!tag)
        return asn1h_fail(d, p >= end ? ASN1H_ERR_TRUNCATED : ASN1H_ERR_TAG, p);
    for (i = 0; i < t->nmembers; i++) {
        const asn1h_member *m = &t->members[i];
        if (asn1h_member_accepts(m, tag)) {
            uint32_t which = i + 1;
            memcpy(v, &which, sizeof which);
            if (!(p = asn1h_decode_member(d, m, p, end, v)))
                return asn1h_unwind(d, m->name);
            return p;
        }
    }
    if (t->flags & ASN1H_T_EXTENSIBLE) {    /* an unknown alternative: kept as raw TLV */
        const uint8_t *q = asn1h_skip_value(d, p, end);
        uint32_t which = ASN1H_WHICH_UNKNOWN;
        asn1h_bytes *raw = (asn1h_bytes *)((uint8_t *)v + t->aux);
        if (!q)
            return NULL;
        memcpy(v, &which, sizeof which);
        raw->buf = p;
        raw->len = (size_t)(q - p);
        return q;
    }
    return asn1h_fail(d, ASN1H_ERR_TAG, p);
}

/* DER: SET OF elements in ascending order of their encodings (X.690 11.6). */
int asn1h_der_ascending(const uint8_t *previous, const uint8_t *at, const uint8_t *end)
{
    size_t alen = (size_t)(at - previous), blen = (size_t)(end - at);
    int c = memcmp(previous, at, alen < blen ? alen : blen);
    return c < 0 || (c == 0 && alen <= blen);
}

ASN1H_NOINLINE static const uint8_t *dec_sequence_of(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                      const uint8_t *end, unsigned form, void *v)
{
    const asn1h_member *element = &t->members[0];
    size_t count = 0, i, size = element->type->size;
    const uint8_t *q = p, *previous = NULL;
    uint8_t *items;

    if (!(form & ASN1H_FORM_CONSTRUCTED))
        return asn1h_fail(d, ASN1H_ERR_FORM, p);
    ASN1H_ENTER(d, p);
    while (!asn1h_at_end(q, end, form)) {   /* count first: one exact allocation */
        if (!(q = asn1h_skip_tlv(d, q, end)))
            return asn1h_unwind_index(d, count);
        count++;
    }
    ASN1H_COUNT_ITEMS(d, t->id, count);
    if (count == 0) {
        asn1h_array_set(v, NULL, 0);
        ASN1H_LEAVE(d);
        return asn1h_close(d, q, end, form);
    }
    if (element->flags & ASN1H_M_POINTER)
        size = sizeof(void *);
    if (count > SIZE_MAX / size)
        return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
    items = (uint8_t *)asn1h_arena_alloc(d->arena, count * size);
    if (!items)
        return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
    asn1h_array_set(v, items, count);
    for (i = 0; i < count; i++) {
        const uint8_t *at = p, *c, *content_end;
        uint32_t tag;
        unsigned form_read;
        if (!(c = asn1h_read_tl(d, p, end, &tag, &form_read, &content_end)))
            return asn1h_unwind_index(d, i);
        /* every element is one: an unknown tag is an unknown alternative of an extensible
         * untagged CHOICE, which dec_choice keeps as it came */
        if (!member_matches(element, tag) && (first_tag(element) || !tag
                || element->type->kind != ASN1H_CHOICE
                || !(element->type->flags & ASN1H_T_EXTENSIBLE))) {
            asn1h_fail(d, ASN1H_ERR_TAG, p);
            return asn1h_unwind_index(d, i);
        }
        if (!(p = decode_read_member(d, element, p, end, form_read, c, content_end,
                                     items + i * size)))
            return asn1h_unwind_index(d, i);
        if ((d->flags & ASN1H_DER) && t->kind == ASN1H_SET_OF) {
            if (previous && !asn1h_der_ascending(previous, at, p))
                return asn1h_fail(d, ASN1H_ERR_NOT_DER, at);
            previous = at;
        }
    }
    ASN1H_LEAVE(d);
    return asn1h_close(d, p, end, form);
}

const uint8_t *asn1h_decode_contents(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                     const uint8_t *end, unsigned form, void *v)
{
    if (t->decode)
        return t->decode(d, p, end, form, v);
    return asn1h_interpret_contents(d, t, p, end, form, v);
}

const uint8_t *asn1h_interpret_contents(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                        const uint8_t *end, unsigned form, void *v)
{
    ASN1H_COUNT(d, t->id);
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        return dec_boolean(d, p, end, form, (bool *)v);
    case ASN1H_INTEGER:
        return require_primitive(d, p, form) ? asn1h_dec_int(d, t, p, end, v) : NULL;
    case ASN1H_ENUMERATED:
        return require_primitive(d, p, form) ? dec_enumerated(d, t, p, end, v) : NULL;
    case ASN1H_REAL:
        return dec_real(d, p, end, form, (double *)v);
    case ASN1H_BIT_STRING:
        return dec_bits(d, t, p, end, form, (asn1h_bits *)v);
    case ASN1H_BYTES:
        if (t->aux == 6 || t->aux == 13) {
            if (!require_primitive(d, p, form) || !asn1h_check_oid(d, p, end, t->aux == 13))
                return NULL;
        }
        if (t->aux == 23 || t->aux == 24)
            return dec_time(d, t, p, end, form, (asn1h_bytes *)v);
        return asn1h_dec_bytes(d, p, end, form, (asn1h_bytes *)v);
    case ASN1H_NULL:
        return dec_null(d, p, end, form);
    case ASN1H_SEQUENCE:
        return dec_sequence(d, t, p, end, form, v);
    case ASN1H_SET:
        return dec_set(d, t, p, end, form, v);
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF:
        return dec_sequence_of(d, t, p, end, form, v);
    case ASN1H_CHOICE:
        return dec_choice(d, t, p, end, v);
    case ASN1H_OPEN:
        return asn1h_decode_open(d, p, end, (asn1h_open *)v);
    }
    return asn1h_fail(d, ASN1H_ERR_VALUE, p);
}

const uint8_t *asn1h_decode_open(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                 asn1h_open *v)
{
    const uint8_t *q = asn1h_skip_value(d, p, end);
    if (!q)
        return NULL;
    v->buf = p;
    v->len = (size_t)(q - p);
    return q;
}

asn1h_code asn1h_decode(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
                        asn1h_arena *arena, const asn1h_decode_opts *opts,
                        size_t *consumed, asn1h_error *err)
{
    asn1h_error local;
    asn1h_dec d;
    const uint8_t *q;

    err = asn1h_error_reset(err ? err : &local, type);
    d.base = buf;
    d.input_end = buf + len;
    d.arena = arena;
    d.err = err;
    d.flags = opts ? opts->flags : 0;
    d.depth = opts && opts->max_depth ? opts->max_depth : ASN1H_MAX_DEPTH;
    d.profile = opts ? opts->profile : NULL;
    memset(value, 0, type->size);
    if (type->ntags == 1 && asn1h_has_own_tlv(type)) {   /* the usual PDU: one tag of its own */
        uint32_t tag;
        unsigned form;
        const uint8_t *end;
        q = asn1h_get_tl(&d, buf, buf + len, &tag, &form, &end);
        if (q && tag != type->tags[0])
            q = asn1h_fail(&d, ASN1H_ERR_TAG, buf);
        if (q)
            q = asn1h_decode_contents(&d, type, q, end, form, value);
    } else {
        q = decode_tagged(&d, type, type->tags, type->ntags, buf, buf + len, value);
    }
    if (!q) {
        if (err->code == ASN1H_OK)
            err->code = ASN1H_ERR_VALUE;
        return err->code;
    }
    if (consumed)
        *consumed = (size_t)(q - buf);
#ifdef ASN1H_PROFILE
    if (d.profile)
        d.profile->messages++;
#endif
    return ASN1H_OK;
}
