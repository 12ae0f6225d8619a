/* asn1h_decode.c: BER decoding, the interpreter's half that reads.
 *
 * Every routine takes the bounds of what it may read and returns the position after what
 * it read, or NULL after recording an error with asn1h_fail.  While an error unwinds,
 * each level adds its component to the error's path.  Types and members come from the
 * compact tables (asn1h.h); d->types is the spec's type array.
 */
#include "asn1h_ber.h"

/* ---- Members and tags ---------------------------------------------------------------- */

int asn1h_type_accepts(const asn1h_dec *d, const asn1h_type *t, uint32_t tag)
{
    unsigned i;
    if (t->tag)
        return asn1h_first_tag(d->spec, t) == tag;
    if (t->kind == ASN1H_CHOICE) {
        for (i = 0; i < t->count; i++)
            if (asn1h_member_accepts(d, &d->spec->members[t->first + i], tag))
                return 1;
        return 0;
    }
    return tag != 0;                        /* an untagged open type takes any value */
}

int asn1h_member_accepts(const asn1h_dec *d, const asn1h_member *m, uint32_t tag)
{
    if (m->tag)
        return asn1h_member_tag(d->spec, m) == tag;
    return asn1h_type_accepts(d, asn1h_member_type(d->types, m), tag);
}

void asn1h_set_default(const asn1h_dec *d, const asn1h_member *m, void *base)
{
    const asn1h_default *dflt;
    if ((m->flags & (ASN1H_M_DEFAULT_VALUE | ASN1H_M_POINTER)) == ASN1H_M_DEFAULT_VALUE
        && (dflt = asn1h_default_of(d->spec, m)) != NULL && dflt->value)
        memcpy((uint8_t *)base + m->offset, dflt->value,
               asn1h_member_type(d->types, m)->size);
}

/* The effective tags of member m (of a type with a list of tags, with a long tag, or
 * stored through a pointer): its own tag applied to those of its type, in buf or in the
 * tag pool.  Reached through spec->codecs, so that a program whose specs have no such
 * member links none of it. */
unsigned asn1h_member_tags(const asn1h_spec *spec, const asn1h_type *types,
                           const asn1h_member *m, uint32_t *buf, const uint32_t **tags)
{
    const asn1h_type *t = asn1h_member_type(types, m);
    const uint32_t *own;
    unsigned n = asn1h_type_tags(spec, t, buf + 1, &own), skip, i;
    if (!(m->flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT))) {
        *tags = own;
        return n;
    }
    skip = (m->flags & ASN1H_M_IMPLICIT) ? 1u : 0u;
    for (i = skip; i < n; i++)              /* forwards: own may be buf + 1 (one own tag) */
        buf[1 + i - skip] = own[i];
    buf[0] = asn1h_member_tag(spec, m);
    *tags = buf;
    return n - skip + 1;
}

/* The contents of a type: by its compiled routines, else by the interpreter.  During a
 * walk, compiled types go to the walker (asn1h_walk.c), which has the interpreter decode
 * what encloses the walked list: compiled list routines do not look for walks. */
ASN1H_INLINE const uint8_t *decode_contents(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                            const uint8_t *end, unsigned form, void *v)
{
    if ((t->flags & ASN1H_T_COMPILED) && !d->walk)
        return d->spec->routines[t->aux - 1].decode(d, p, end, form, v);
    if (ASN1H_UNLIKELY(t->flags & ASN1H_T_COMPILED))
        return d->walk->run(d, t, p, end, form, v);
    return asn1h_interpret_contents(d, t, p, end, form, v);
}

/* A value with no explicit wrapper: its own identifier (none when ntags is 0: an untagged
 * CHOICE or open type, whose contents are a whole TLV), then its contents.  Apart from
 * decode_wrapped, whose wrappers' bounds and the registers to keep them take a large
 * stack frame, so that the usual value (a CHOICE's alternative, a PDU whose header is not
 * in the usual forms) keeps a small one. */
ASN1H_NOINLINE static const uint8_t *decode_own(asn1h_dec *d, const asn1h_type *t,
                                                const uint32_t *tags, unsigned ntags,
                                                const uint8_t *p, const uint8_t *end, void *v)
{
    unsigned form = 0;
    uint32_t tag;
    if (ntags) {
        const uint8_t *at = p;
        if (!(p = asn1h_read_tl(d, p, end, &tag, &form, &end)))
            return NULL;
        if (tag != tags[0])
            return asn1h_fail(d, ASN1H_ERR_TAG, at);
    }
    return decode_contents(d, t, p, end, form, v);
}

/* The explicit wrappers of a value, its first nwrap tags, around decode_own: the outermost
 * here, the others by recursion (at most ASN1H_MAX_TAGS deep). */
ASN1H_NOINLINE static const uint8_t *decode_wrapped(asn1h_dec *d, const asn1h_type *t,
                                                    const uint32_t *tags, unsigned ntags,
                                                    unsigned nwrap, const uint8_t *p,
                                                    const uint8_t *end, void *v)
{
    const uint8_t *at = p;
    unsigned form;
    uint32_t tag;

    ASN1H_ENTER(d, at);                     /* an explicit tag nests like any constructed value */
    if (!(p = asn1h_read_tl(d, p, end, &tag, &form, &end)))
        return NULL;
    if (tag != tags[0])
        return asn1h_fail(d, ASN1H_ERR_TAG, at);
    ASN1H_REQUIRE_CONSTRUCTED(d, at, form);
    if (!(p = nwrap > 1 ? decode_wrapped(d, t, tags + 1, ntags - 1, nwrap - 1, p, end, v)
                        : decode_own(d, t, tags + 1, ntags - 1, p, end, v))
        || !(p = asn1h_close(d, p, end, form)))
        return NULL;
    ASN1H_LEAVE(d);
    return p;
}

/* Reads the tags of a value (explicit wrappers, then its own identifier) and decodes it. */
ASN1H_NOINLINE static const uint8_t *decode_tagged(asn1h_dec *d, const asn1h_type *t,
                                                   const uint32_t *tags, unsigned ntags,
                                                   const uint8_t *p, const uint8_t *end,
                                                   void *v)
{
    unsigned nwrap = asn1h_has_own_tlv(t) ? ntags - 1 : ntags;
    if (nwrap)
        return decode_wrapped(d, t, tags, ntags, nwrap, p, end, v);
    return decode_own(d, t, tags, ntags, p, end, v);
}

const uint8_t *asn1h_decode_tagged(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                   const uint8_t *end, void *v)
{
    uint32_t buf[1];
    const uint32_t *tags;
    unsigned ntags = asn1h_type_tags(d->spec, t, buf, &tags);
    return decode_tagged(d, t, tags, ntags, p, end, v);
}

/* What lives in an optional part of the runtime that this spec did not link in: only a
 * broken table asks for it, or BER called on a build without BER's parts. */
ASN1H_COLD static const uint8_t *no_codec(asn1h_dec *d, const uint8_t *p)
{
    return asn1h_fail(d, ASN1H_ERR_VALUE, p);
}

/* Member m of a type with a list of tags, with a long tag, or stored through a pointer:
 * out of line, so that the usual member's path below keeps a small stack frame. */
ASN1H_NOINLINE static const uint8_t *decode_other_tags(asn1h_dec *d, const asn1h_member *m,
                                                       const asn1h_type *t, const uint8_t *p,
                                                       const uint8_t *end, void *v)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    uint32_t buf[ASN1H_MAX_TAGS + 1];
    const uint32_t *tags;
    unsigned ntags;
    if (!codecs->member_tags)               /* a build without BER's parts */
        return no_codec(d, p);
    ntags = codecs->member_tags(d->spec, d->types, m, buf, &tags);
    if (m->flags & ASN1H_M_POINTER) {
        void *target = asn1h_arena_alloc(d->arena, t->size);
        if (!target)
            return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
        memcpy(v, &target, sizeof target);
        v = target;
    }
    return decode_tagged(d, t, tags, ntags, p, end, v);
}

const uint8_t *asn1h_decode_member(asn1h_dec *d, const asn1h_member *m, const uint8_t *p,
                                   const uint8_t *end, void *base)
{
    uint32_t buf[2];
    unsigned ntags;
    const asn1h_type *t = asn1h_member_type(d->types, m);
    void *v = (uint8_t *)base + m->offset;

    if (!(m->flags & (ASN1H_M_POINTER | ASN1H_M_LONG_TAG)) && !(t->flags & ASN1H_T_TAG_LIST)) {
        ntags = 0;                          /* the usual: a wrapper, then one own tag */
        if (m->flags & ASN1H_M_EXPLICIT)
            buf[ntags++] = ASN1H_UNPACK_TAG(m->tag);
        if (t->tag)
            buf[ntags++] = ASN1H_UNPACK_TAG((m->flags & ASN1H_M_IMPLICIT) ? m->tag : t->tag);
        return decode_tagged(d, t, buf, ntags, p, end, v);
    }
    return decode_other_tags(d, m, t, p, end, v);
}

ASN1H_INLINE int member_matches(const asn1h_dec *d, const asn1h_member *m, uint32_t tag)
{
    if (ASN1H_LIKELY(m->tag))
        return asn1h_member_tag(d->spec, m) == tag;
    return asn1h_type_accepts(d, asn1h_member_type(d->types, m), tag);
}

/* The members decode_read_member does not take straight to their contents. */
ASN1H_NOINLINE static const uint8_t *decode_other_member(asn1h_dec *d, const asn1h_member *m,
                                                         const uint8_t *at, const uint8_t *end,
                                                         unsigned form, const uint8_t *c,
                                                         const uint8_t *content_end, void *base)
{
    const asn1h_type *t = asn1h_member_type(d->types, m);
    void *v = (uint8_t *)base + m->offset;
    const uint8_t *q, *inner_end;
    uint32_t inner_tag;
    unsigned inner_form;
    if ((m->flags & ASN1H_M_POINTER) || (t->flags & ASN1H_T_TAG_LIST))
        return asn1h_decode_member(d, m, at, end, base);
    if (!m->tag)                /* an untagged CHOICE or open type: the TLV is its contents */
        return decode_contents(d, t, at, end, 0, v);
    if (!(m->flags & ASN1H_M_EXPLICIT) || !t->tag)
        return asn1h_decode_member(d, m, at, end, base);
    /* an explicit tag around a type of one tag: the wrapper read, the inner one here */
    ASN1H_REQUIRE_CONSTRUCTED(d, at, form);
    ASN1H_ENTER(d, at);
    if (!(q = asn1h_read_tl(d, c, content_end, &inner_tag, &inner_form, &inner_end)))
        return NULL;
    if (inner_tag != ASN1H_UNPACK_TAG(t->tag))
        return asn1h_fail(d, ASN1H_ERR_TAG, c);
    if (!(q = decode_contents(d, t, q, inner_end, inner_form, v))
        || !(q = asn1h_close(d, q, content_end, form)))
        return NULL;
    ASN1H_LEAVE(d);
    return q;
}

/* Member m, whose identifier and length at `at` were already read (tag, form, contents
 * [c, content_end)).  The usual member, one tag and stored inline, goes straight to its
 * contents; the others take decode_other_member. */
ASN1H_INLINE const uint8_t *decode_read_member(asn1h_dec *d, const asn1h_member *m,
                                               const uint8_t *at, const uint8_t *end,
                                               unsigned form, const uint8_t *c,
                                               const uint8_t *content_end, void *base)
{
    const asn1h_type *t = asn1h_member_type(d->types, m);
    /* (a packed type tag is that of the type's own TLV: asn1h.h) */
    if (ASN1H_LIKELY(!(m->flags & (ASN1H_M_EXPLICIT | ASN1H_M_POINTER)) && m->tag
                     && !(t->flags & ASN1H_T_TAG_LIST)))
        return decode_contents(d, t, c, content_end, form, (uint8_t *)base + m->offset);
    return decode_other_member(d, m, at, end, form, c, content_end, base);
}

/* A decoded value of a constrained type (asn1h_check.c): refused unless it satisfies
 * the constraint, or the caller asked for none to be checked. */
ASN1H_NOINLINE static const uint8_t *check_decoded(asn1h_dec *d, const asn1h_type *t,
                                                   const uint8_t *at, const uint8_t *q,
                                                   const void *v)
{
    if (!q || (d->flags & ASN1H_SKIP_CONSTRAINTS) || !asn1h_constrained(t)
        || asn1h_check(d->spec, t, v))
        return q;
    return asn1h_fail(d, ASN1H_ERR_CONSTRAINT, at);
}

/* ---- Primitive contents -------------------------------------------------------------- */

static const uint8_t *dec_boolean(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  unsigned form, bool *v)
{
    ASN1H_REQUIRE_PRIMITIVE(d, p, form);
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
    ASN1H_REQUIRE_PRIMITIVE(d, p, form);
    if (p != end)
        return asn1h_fail(d, ASN1H_ERR_VALUE, p);
    return end;
}

/* Stores a value that fits 64 bits into the C storage of an INTEGER or ENUMERATED; 0 when
 * it does not fit there.  u: the value's 64 bits, sign-extended when negative. */
static int store_int(unsigned storage, void *v, uint64_t u, int negative)
{
    static const uint64_t highest[8] = {    /* I8, U8, I16, U16, I32, U32, I64, U64 */
        INT8_MAX, UINT8_MAX, INT16_MAX, UINT16_MAX,
        INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX
    };
    unsigned k = storage - ASN1H_INT_I8;
    if (negative ? (k & 1) || u < ~highest[k] : u > highest[k])
        return 0;                           /* (~highest: the lowest of a signed storage) */
    switch (k >> 1) {
    case 0: *(uint8_t *)v = (uint8_t)u; break;
    case 1: *(uint16_t *)v = (uint16_t)u; break;
    case 2: *(uint32_t *)v = (uint32_t)u; break;
    default: *(uint64_t *)v = u; break;
    }
    return 1;
}

ASN1H_NOINLINE const uint8_t *asn1h_dec_int(asn1h_dec *d, const asn1h_type *t,
                                            const uint8_t *p,
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
        if (asn1h_storage(t) == ASN1H_INT_BIG) {
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
    if (asn1h_storage(t) == ASN1H_INT_BIG) {
        ((asn1h_int *)v)->v = (int64_t)u;
        return end;
    }
    if (!store_int(asn1h_storage(t), v, u, negative))
        return asn1h_fail(d, ASN1H_ERR_CONSTRAINT, p);
    return end;
}

static const uint8_t *dec_integer(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                  const uint8_t *end, unsigned form, void *v)
{
    ASN1H_REQUIRE_PRIMITIVE(d, p, form);
    return asn1h_dec_int(d, t, p, end, v);
}

const uint8_t *asn1h_dec_enumerated(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                    const uint8_t *end, unsigned form, void *v)
{
    int64_t value;

    ASN1H_REQUIRE_PRIMITIVE(d, p, form);
    if (!asn1h_dec_int(d, t, p, end, v))
        return NULL;
    /* an addition's number is kept, but for the numbers that keep PER's additions by
     * index (asn1h.h): the 4 octets 80 00 xx xx */
    if ((t->flags & ASN1H_T_EXTENSIBLE) && (end - p != 4 || p[0] != 0x80 || p[1] != 0x00))
        return end;
    /* the usual storage, a C enum's int32_t, read without a call */
    value = asn1h_storage(t) == ASN1H_INT_I32 ? *(const int32_t *)v
                                              : asn1h_load_int(asn1h_storage(t), v);
    if (asn1h_enum_known(d->spec, t, value))
        return end;
    return asn1h_fail(d, ASN1H_ERR_VALUE, p);
}

/* A constructed string's segments, read twice: for their total length, then copied into
 * `out`.  Each has universal tag `tag`; BIT STRING segments each start with an unused-bits
 * octet, only the last may be non-0. */
typedef struct segment_walk {
    asn1h_dec *d;
    uint32_t tag;
    uint8_t unused;
    uint8_t *out;                           /* NULL: lengths only */
    size_t total;
} segment_walk;

ASN1H_COLD static const uint8_t *segments(segment_walk *w, const uint8_t *p,
                                          const uint8_t *end, unsigned form, unsigned depth)
{
    asn1h_dec *d = w->d;
    while (!asn1h_at_end(p, end, form)) {
        const uint8_t *at = p, *content_end;
        uint32_t tag;
        unsigned seg_form;
        if (w->unused)                      /* only the last BIT STRING segment has any */
            return asn1h_fail(d, ASN1H_ERR_VALUE, at);
        if (!(p = asn1h_read_tl(d, p, end, &tag, &seg_form, &content_end)))
            return NULL;
        if (tag != w->tag)
            return asn1h_fail(d, ASN1H_ERR_TAG, at);
        if (seg_form & ASN1H_FORM_CONSTRUCTED) {
            if (depth == 0)
                return asn1h_fail(d, ASN1H_ERR_DEPTH, at);
            if (!(p = segments(w, p, content_end, seg_form, depth - 1)))
                return NULL;
            continue;
        }
        if (w->tag == ASN1H_TAG(ASN1H_UNIVERSAL, 3)) {
            if (p == content_end || p[0] > 7 || (p[0] && content_end - p == 1))
                return asn1h_fail(d, ASN1H_ERR_VALUE, p);
            w->unused = p[0];
            p++;
        }
        if (w->out)
            memcpy(w->out + w->total, p, (size_t)(content_end - p));
        w->total += (size_t)(content_end - p);
        p = content_end;
    }
    return asn1h_close(d, p, end, form);
}

ASN1H_COLD const uint8_t *asn1h_dec_constructed(asn1h_dec *d, const uint8_t *p,
                                                const uint8_t *end, unsigned form,
                                                uint32_t segment_tag, asn1h_bytes *v,
                                                uint8_t *unused)
{
    segment_walk w = {0};
    const uint8_t *q;

    if (d->flags & ASN1H_DER)
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
    w.d = d;
    w.tag = segment_tag;
    if (!(q = segments(&w, p, end, form, d->depth)))
        return NULL;
    w.out = (uint8_t *)asn1h_arena_alloc(d->arena, w.total);
    if (!w.out && w.total)
        return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
    v->buf = w.out;
    v->len = w.total;
    w.total = 0;
    w.unused = 0;
    segments(&w, p, end, form, d->depth);
    *unused = w.unused;
    return q;
}

/* A constructed string, in a build that carries BER's forms (spec->codecs). */
ASN1H_COLD static const uint8_t *dec_constructed_string(asn1h_dec *d, const uint8_t *p,
                                                        const uint8_t *end, unsigned form,
                                                        uint32_t segment_tag,
                                                        asn1h_bytes *v, uint8_t *unused)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    if (!codecs->constructed_string)
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
    return codecs->constructed_string(d, p, end, form, segment_tag, v, unused);
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

ASN1H_NOINLINE static const uint8_t *dec_bits(asn1h_dec *d, const asn1h_type *t,
                                              const uint8_t *p, const uint8_t *end,
                                              unsigned form, asn1h_bits *v)
{
    if (form & ASN1H_FORM_CONSTRUCTED) {
        asn1h_bytes joined;
        const uint8_t *q = dec_constructed_string(d, p, end, form,
                                                  ASN1H_TAG(ASN1H_UNIVERSAL, 3), &joined,
                                                  &v->unused);
        if (!q)
            return NULL;
        v->buf = joined.buf;
        v->len = joined.len;
        return check_decoded(d, t, p, q, v);
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
    if (ASN1H_UNLIKELY(t->extra))
        return check_decoded(d, t, p, end, v);
    return end;
}

ASN1H_INLINE const uint8_t *dec_set(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                    const uint8_t *end, unsigned form, void *v)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->set_decode ? codecs->set_decode(d, t, p, end, form, v) : no_codec(d, p);
}

ASN1H_INLINE const uint8_t *dec_enumerated(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                           const uint8_t *end, unsigned form, void *v)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->enumerated_decode ? codecs->enumerated_decode(d, t, p, end, form, v)
                                     : no_codec(d, p);
}

ASN1H_NOINLINE static const uint8_t *dec_real(asn1h_dec *d, const uint8_t *p,
                                              const uint8_t *end, unsigned form, double *v)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->real_decode ? codecs->real_decode(d, p, end, form, v) : no_codec(d, p);
}

ASN1H_NOINLINE static const uint8_t *dec_time(asn1h_dec *d, const asn1h_type *t,
                                              const uint8_t *p, const uint8_t *end,
                                              unsigned form, asn1h_bytes *v)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->time_decode ? codecs->time_decode(d, t, p, end, form, v) : no_codec(d, p);
}

ASN1H_NOINLINE static const uint8_t *dec_oid(asn1h_dec *d, const asn1h_type *t,
                                             const uint8_t *p, const uint8_t *end,
                                             unsigned form, asn1h_bytes *v)
{
    ASN1H_REQUIRE_PRIMITIVE(d, p, form);
    if (!asn1h_check_oid(d, p, end, t->aux == 13))
        return NULL;
    v->buf = p;
    v->len = (size_t)(end - p);
    return end;
}

/* OCTET STRING, the character strings, the times and the object identifiers: every path
 * a tail call or a leaf, so that the dispatch above needs no stack frame. */
ASN1H_INLINE const uint8_t *dec_bytes_kind(asn1h_dec *d, const asn1h_type *t,
                                           const uint8_t *p, const uint8_t *end, unsigned form,
                                           asn1h_bytes *v)
{
    if (t->aux == 6 || t->aux == 13)
        return dec_oid(d, t, p, end, form, v);
    if (t->aux == 23 || t->aux == 24)
        return dec_time(d, t, p, end, form, v);
    return asn1h_dec_bytes(d, p, end, form, v);
}

/* ---- Constructed contents ------------------------------------------------------------ */

/* ---- Unknown extensions (X.680 52): asn1h_received.c, through spec->codecs ----------- */

ASN1H_NOINLINE static const uint8_t *take_unknown(asn1h_dec *d, const asn1h_type *t,
                                                  const uint8_t *p, const uint8_t *end,
                                                  unsigned form, void *v)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->take_unknown ? codecs->take_unknown(d, t, p, end, form, v) : no_codec(d, p);
}

ASN1H_NOINLINE static int keep_set_unknown(asn1h_dec *d, const asn1h_type *t, void *v,
                                           const uint8_t *contents, const uint8_t *end)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->keep_set_unknown ? codecs->keep_set_unknown(d, t, contents, end, v)
                                    : no_codec(d, contents) != NULL;
}

/* Whether untagged member i of SEQUENCE t takes a TLV that matches none of its tags: an
 * extensible CHOICE's unknown alternative. */
ASN1H_INLINE int unknown_alternative(const asn1h_dec *d, const asn1h_type *t, unsigned i,
                                     uint32_t tag)
{
    const asn1h_codecs *codecs = d->spec->codecs;
    return codecs->unknown_alternative && codecs->unknown_alternative(d, t, i, tag);
}

int asn1h_der_default_ok(asn1h_dec *d, const asn1h_member *m, const void *base,
                         const uint8_t *at)
{
    /* DER leaves out a DEFAULT member equal to its default (X.690 11.5): the encoder's own
     * test says whether it would have been written */
    if ((d->flags & ASN1H_DER) && !asn1h_member_encoded(d->spec, m, base)) {
        asn1h_fail(d, ASN1H_ERR_NOT_DER, at);
        return 0;
    }
    return 1;
}

ASN1H_COLD const uint8_t *asn1h_decode_required(asn1h_dec *d, const asn1h_member *m,
                                                const uint8_t *p, const uint8_t *end,
                                                unsigned form, void *base)
{
    if (asn1h_at_end(p, end, form))
        return asn1h_fail(d, ASN1H_ERR_MISSING, p);
    return asn1h_decode_member(d, m, p, end, base);
}

/* After a SEQUENCE's or SET's members: its open types decoded through their tables. */
ASN1H_NOINLINE static const uint8_t *resolve_open_types(asn1h_dec *d, const asn1h_type *t,
                                                        void *v, const uint8_t *p)
{
    if (!d->spec->codecs->resolve_open_types)
        return no_codec(d, p);
    return d->spec->codecs->resolve_open_types(d, t, v) ? p : NULL;
}

/* The end of a SEQUENCE's or SET's contents, then its open types. */
ASN1H_INLINE const uint8_t *finish_members(asn1h_dec *d, const asn1h_type *t, void *v,
                                           const uint8_t *p, const uint8_t *end, unsigned form)
{
    if (ASN1H_LIKELY(!(form & ASN1H_FORM_INDEF) && p == end)) {
        if (ASN1H_UNLIKELY(t->flags & ASN1H_T_OPEN_MEMBERS))
            return resolve_open_types(d, t, v, p);
        return p;
    }
    if (!(p = asn1h_close(d, p, end, form)))
        return NULL;
    return (t->flags & ASN1H_T_OPEN_MEMBERS) ? resolve_open_types(d, t, v, p) : p;
}

/* A header at p that asn1h_read_tl refused, where member i of SEQUENCE t is next.
 * Compiled routines look at an identifier first and read the rest where a member decodes
 * it: the error is the one of the member (or the unknown additions) that would read this
 * TLV, or else of the contents' end there (left over data, or truncation). */
ASN1H_COLD static const uint8_t *refused_header(asn1h_dec *d, const asn1h_type *t,
                                                unsigned i, unsigned unknown_at,
                                                const uint8_t *p, const uint8_t *end,
                                                unsigned form, void *v)
{
    const asn1h_member *members = d->spec->members + t->first;
    uint32_t tag = asn1h_peek_tag(d, p, end);
    d->err->code = ASN1H_OK;                /* the reader's error is reported instead */
    d->err->depth = 0;
    d->err->truncated = false;
    for (;; i++) {
        const uint8_t *q;
        if (i == unknown_at && (q = take_unknown(d, t, p, end, form, v)) != p)
            return q ? asn1h_close(d, q, end, form) : NULL;     /* the additions read it */
        if (i == t->count)
            return asn1h_close(d, p, end, form);
        if (tag && (asn1h_member_accepts(d, &members[i], tag)
                    || (!members[i].tag && unknown_alternative(d, t, i, tag))))
            q = asn1h_decode_member(d, &members[i], p, end, v);
        else if (!asn1h_member_absent_ok(&members[i]))
            q = asn1h_decode_required(d, &members[i], p, end, form, v);
        else
            continue;
        return q ? asn1h_close(d, q, end, form) : asn1h_unwind(d, &members[i]);
    }
}

ASN1H_NOINLINE static const uint8_t *dec_sequence(asn1h_dec *d, const asn1h_type *t,
                                                  const uint8_t *p, const uint8_t *end,
                                                  unsigned form, void *v)
{
    const asn1h_member *members = d->spec->members + t->first;
    unsigned i = 0, form_read = 0;
    /* the member before which unknown additions come (none when not extensible): the
     * members are read up to it, then the additions, then the rest */
    unsigned unknown_at = (t->flags & ASN1H_T_EXTENSIBLE) ? members[t->count].type
                                                          : t->count + 1u;
    unsigned stop = unknown_at < t->count ? unknown_at : t->count;
    uint32_t tag = 0;
    const uint8_t *c = NULL, *content_end = NULL, *read_at = NULL;

    ASN1H_REQUIRE_CONSTRUCTED(d, p, form);
    ASN1H_ENTER(d, p);
    for (;;) {
        while (i < stop) {
            const asn1h_member *m = &members[i];
            if (read_at != p) {                 /* read the next identifier and length once */
                tag = 0;
                if (!asn1h_at_end(p, end, form)
                    && !(c = asn1h_read_tl(d, p, end, &tag, &form_read, &content_end)))
                    return refused_header(d, t, i, unknown_at, p, end, form, v);
                read_at = p;
            }
            if (tag && (member_matches(d, m, tag)
                        || (!m->tag && unknown_alternative(d, t, i, tag)))) {
                const uint8_t *at = p;
                if (!(p = decode_read_member(d, m, p, end, form_read, c, content_end, v)))
                    return asn1h_unwind(d, m);
                if (m->bit != ASN1H_NO_BIT)
                    asn1h_set_bit(v, m->bit);
                if ((m->flags & ASN1H_M_DEFAULT) && !asn1h_der_default_ok(d, m, v, at))
                    return asn1h_unwind(d, m);
                i++;
            } else if (asn1h_member_absent_ok(m)) {
                asn1h_set_default(d, m, v);
                i++;
            } else {                            /* the error the compiled routines report */
                if (!(p = asn1h_decode_required(d, m, p, end, form, v)))
                    return asn1h_unwind(d, m);
                i++;
            }
        }
        if (ASN1H_LIKELY(i != unknown_at))
            break;
        if (!(p = take_unknown(d, t, p, end, form, v)))
            return NULL;
        if (stop == t->count)
            break;
        stop = t->count;                    /* the root's second part */
    }
    if (!(p = finish_members(d, t, v, p, end, form)))
        return NULL;
    ASN1H_LEAVE(d);
    return p;
}

/* Reached through spec->codecs, so that a program whose specs have no SET links none of
 * it (--gc-sections). */
ASN1H_NOINLINE const uint8_t *asn1h_dec_set(asn1h_dec *d, const asn1h_type *t,
                                            const uint8_t *p, const uint8_t *end,
                                            unsigned form, void *v)
{
    const asn1h_member *members = d->spec->members + t->first;
    uint8_t seen[32] = {0};                 /* generated SETs have at most 256 members */
    unsigned i;
    uint32_t last_tag = 0;                  /* DER: the tag of the previous component */
    const uint8_t *contents = p;
    int unknown = 0;                        /* unknown additions met */

    ASN1H_REQUIRE_CONSTRUCTED(d, p, form);
    ASN1H_ENTER(d, p);
    while (!asn1h_at_end(p, end, form)) {
        uint32_t tag;
        unsigned form_read;
        const uint8_t *c, *content_end;
        const asn1h_member *m = NULL;
        if (!(c = asn1h_read_tl(d, p, end, &tag, &form_read, &content_end)))
            return NULL;
        for (i = 0; i < t->count; i++)
            if (member_matches(d, &members[i], tag)) {
                m = &members[i];
                break;
            }
        if (!m) {                           /* an unknown extension addition */
            if (!tag || !(t->flags & ASN1H_T_EXTENSIBLE))
                return asn1h_fail(d, ASN1H_ERR_TAG, p);
            if ((d->flags & ASN1H_DER) && tag <= last_tag)
                return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
            last_tag = tag;
            if (!(p = asn1h_skip_value(d, p, end)))
                return NULL;
            unknown = 1;
            continue;
        }
        {
            const uint8_t *at = p;
            if (!(p = decode_read_member(d, m, p, end, form_read, c, content_end, v)))
                return asn1h_unwind(d, m);
            /* checked once decoded: a malformed component is reported as such first */
            if (seen[i >> 3] & (1u << (i & 7))) {
                asn1h_fail(d, ASN1H_ERR_DUPLICATE, at);
                return asn1h_unwind(d, m);
            }
            /* DER: components in ascending order of their tags (X.690 10.3), an untagged
             * CHOICE by its alternative's: ASN1H_TAG numbers sort in that order */
            if ((d->flags & ASN1H_DER) && tag <= last_tag)
                return asn1h_fail(d, ASN1H_ERR_NOT_DER, at);
            last_tag = tag;
            seen[i >> 3] |= (uint8_t)(1u << (i & 7));
            if (m->bit != ASN1H_NO_BIT)
                asn1h_set_bit(v, m->bit);
            if ((m->flags & ASN1H_M_DEFAULT) && !asn1h_der_default_ok(d, m, v, at))
                return asn1h_unwind(d, m);
        }
    }
    for (i = 0; i < t->count; i++) {
        const asn1h_member *m = &members[i];
        if (seen[i >> 3] & (1u << (i & 7)))
            continue;
        if (!asn1h_member_absent_ok(m)) {
            asn1h_fail(d, ASN1H_ERR_MISSING, p);
            return asn1h_unwind(d, m);
        }
        asn1h_set_default(d, m, v);
    }
    if (unknown && !keep_set_unknown(d, t, v, contents, p))
        return NULL;
    if (!(p = finish_members(d, t, v, p, end, form)))
        return NULL;
    ASN1H_LEAVE(d);
    return p;
}

ASN1H_NOINLINE static const uint8_t *dec_choice(asn1h_dec *d, const asn1h_type *t,
                                                const uint8_t *p, const uint8_t *end,
                                                void *v)
{
    const asn1h_member *members = d->spec->members + t->first;
    uint32_t tag = asn1h_peek_tag(d, p, end);
    unsigned i;

    if (!tag)
        return asn1h_fail(d, p >= end ? ASN1H_ERR_TRUNCATED : ASN1H_ERR_TAG, p);
    for (i = 0; i < t->count; i++) {
        const asn1h_member *m = &members[i];
        if (member_matches(d, m, tag)) {
            uint32_t which = i + 1;
            memcpy(v, &which, sizeof which);
            if (!(p = asn1h_decode_member(d, m, p, end, v)))
                return asn1h_unwind(d, m);
            return p;
        }
    }
    if (t->flags & ASN1H_T_EXTENSIBLE) {    /* an unknown alternative: kept as raw TLV */
        const uint8_t *q = asn1h_skip_value(d, p, end);
        uint32_t which = ASN1H_WHICH_UNKNOWN;
        asn1h_bytes *raw = (asn1h_bytes *)((uint8_t *)v + members[0].offset);
        if (!q)
            return NULL;
        memcpy(v, &which, sizeof which);
        raw->buf = p;
        raw->len = (size_t)(q - p);
        return q;
    }
    return asn1h_fail(d, ASN1H_ERR_TAG, p);
}

ASN1H_NOINLINE static const uint8_t *dec_sequence_of(asn1h_dec *d, const asn1h_type *t,
                                                     const uint8_t *p, const uint8_t *end,
                                                     unsigned form, void *v)
{
    const asn1h_member *element = &d->spec->members[t->first];
    const asn1h_type *et = asn1h_member_type(d->types, element);
    size_t count, i, size = et->size;
    const uint8_t *q = p, *previous = NULL, *contents = p;
    uint32_t first = element->tag ? asn1h_member_tag(d->spec, element) : 0;
    uint8_t *items;

    ASN1H_REQUIRE_CONSTRUCTED(d, p, form);
    ASN1H_ENTER(d, p);
    for (i = 0; !asn1h_at_end(q, end, form); i++)  /* count first: one exact allocation */
        if (!(q = asn1h_skip_element(d, q, end, form)))
            goto unwind;
    count = i;
    ASN1H_COUNT_ITEMS(d, t->self, count);
    items = NULL;
    if (count) {
        if (element->flags & ASN1H_M_POINTER)
            size = sizeof(void *);
        if (count > SIZE_MAX / size
            || !(items = (uint8_t *)asn1h_arena_alloc(d->arena, count * size)))
            return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
    }
    asn1h_array_set(v, items, count);
    for (i = 0; i < count; i++) {
        const uint8_t *at = p, *c, *content_end;
        uint32_t tag;
        unsigned form_read;
        if (!(c = asn1h_read_tl(d, p, end, &tag, &form_read, &content_end)))
            goto unwind;
        /* every element is one: an unknown tag is an unknown alternative of an extensible
         * untagged CHOICE, which dec_choice keeps as it came */
        if ((first ? first != tag : !asn1h_type_accepts(d, et, tag))
            && (first || !tag || et->kind != ASN1H_CHOICE
                || !(et->flags & ASN1H_T_EXTENSIBLE))) {
            asn1h_fail(d, ASN1H_ERR_TAG, p);
            goto unwind;
        }
        if (!(p = decode_read_member(d, element, p, end, form_read, c, content_end,
                                     items + i * size)))
            goto unwind;
        if ((d->flags & ASN1H_DER) && t->kind == ASN1H_SET_OF) {
            if (previous && !asn1h_der_ascending(previous, at, p))
                return asn1h_fail(d, ASN1H_ERR_NOT_DER, at);
            previous = at;
        }
    }
    ASN1H_LEAVE(d);
    q = asn1h_close(d, p, end, form);
    return ASN1H_UNLIKELY(t->extra) ? check_decoded(d, t, contents, q, v) : q;
unwind:                                     /* element i failed */
    return asn1h_unwind_index(d, i);
}

const uint8_t *asn1h_decode_contents(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                     const uint8_t *end, unsigned form, void *v)
{
    return decode_contents(d, t, p, end, form, v);
}

/* An INTEGER or a string of a type with a constraint record: decoded, then checked (BIT
 * STRING and the lists check their own at their end). */
ASN1H_NOINLINE static const uint8_t *dec_constrained(asn1h_dec *d, const asn1h_type *t,
                                                     const uint8_t *p, const uint8_t *end,
                                                     unsigned form, void *v)
{
    const uint8_t *q = t->kind == ASN1H_BYTES
                       ? dec_bytes_kind(d, t, p, end, form, (asn1h_bytes *)v)
                       : dec_integer(d, t, p, end, form, v);
    return check_decoded(d, t, p, q, v);
}

/* Every case is a tail call or a leaf, so that the dispatch needs no stack frame: the kinds
 * with a constraint record test `extra` first and take dec_constrained. */
const uint8_t *asn1h_interpret_contents(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                        const uint8_t *end, unsigned form, void *v)
{
    ASN1H_COUNT(d, t->self);
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        return dec_boolean(d, p, end, form, (bool *)v);
    case ASN1H_INTEGER:
        if (ASN1H_UNLIKELY(t->extra))
            return dec_constrained(d, t, p, end, form, v);
        return dec_integer(d, t, p, end, form, v);
    case ASN1H_ENUMERATED:
        return dec_enumerated(d, t, p, end, form, v);
    case ASN1H_REAL:
        return dec_real(d, p, end, form, (double *)v);
    case ASN1H_BIT_STRING:
        return dec_bits(d, t, p, end, form, (asn1h_bits *)v);
    case ASN1H_BYTES:
        if (ASN1H_UNLIKELY(t->extra))
            return dec_constrained(d, t, p, end, form, v);
        return dec_bytes_kind(d, t, p, end, form, (asn1h_bytes *)v);
    case ASN1H_NULL:
        return dec_null(d, p, end, form);
    case ASN1H_SEQUENCE:
        return dec_sequence(d, t, p, end, form, v);
    case ASN1H_SET:
        return dec_set(d, t, p, end, form, v);
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF:
        if (ASN1H_WALKED(d, t))
            return d->walk->run(d, t, p, end, form, v);
        return dec_sequence_of(d, t, p, end, form, v);
    case ASN1H_CHOICE:
        return dec_choice(d, t, p, end, v);
    case ASN1H_OPEN:
        return asn1h_decode_open(d, p, end, (asn1h_open *)v);
    }
    return asn1h_fail(d, ASN1H_ERR_VALUE, p);
}

ASN1H_NOINLINE const uint8_t *asn1h_decode_open(asn1h_dec *d, const uint8_t *p,
                                                const uint8_t *end, asn1h_open *v)
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
    const uint8_t *q, *end;
    uint32_t tag;
    unsigned form;

    err = asn1h_error_reset(err ? err : &local, type);
    /* A PDU with layout fast paths opens their door before the rest of the setup, so that
     * a hit costs its path alone (the flag's bit is also an OCTET STRING's CONTAINING: the
     * door, which knows its PDU, turns those away) */
    if (ASN1H_UNLIKELY(type->flags & ASN1H_T_LAYOUTS)) {
        const asn1h_codecs *codecs = asn1h_spec_of(type)->codecs;
        size_t taken;
        if (codecs->layouts && (taken = codecs->layouts(type, value, buf, len, arena, opts))) {
            q = buf + taken;
            goto decoded;
        }
    }
    asn1h_dec_start(&d, type, buf, len, arena, opts, err);
    memset(value, 0, type->size);
    /* the usual PDU, one tag of its own in the usual header, here; any other by the
     * general route, which reads and checks every form */
    if (type->tag && !(type->flags & ASN1H_T_TAG_LIST)
        && (q = asn1h_quick_tl(buf, buf + len, &tag, &form, &end)) != NULL) {
        if (tag != ASN1H_UNPACK_TAG(type->tag))
            q = asn1h_fail(&d, ASN1H_ERR_TAG, buf);
        else
            q = decode_contents(&d, type, q, end, form, value);
    } else {
        q = asn1h_decode_tagged(&d, type, buf, buf + len, value);
    }
    if (!q) {
        if (err->code == ASN1H_OK)
            err->code = ASN1H_ERR_VALUE;
        return err->code;
    }
#ifdef ASN1H_PROFILE
    if (d.profile)
        d.profile->messages++;
#endif
decoded:
    if (consumed)
        *consumed = (size_t)(q - buf);
    return ASN1H_OK;
}
