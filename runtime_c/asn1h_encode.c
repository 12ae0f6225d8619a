/* asn1h_encode.c: DER encoding, the interpreter's half that writes.
 *
 * Everything is written backwards: a routine receives the position its output must end
 * at and returns where its output starts, so every length is known before its header.
 */
#include "asn1h_ber.h"

/* Whether a value of a type with a constraint record falls outside it. */
ASN1H_NOINLINE static int refused(const asn1h_enc *e, const asn1h_type *t, const void *v)
{
    return !asn1h_check(e->spec, t, v);
}

/* BIT STRING: the unused-bits octet, then the bits with unused ones cleared; with named
 * bits, DER also drops trailing zero bits (X.690 11.2.2).  A constraint record is checked
 * here, so that the dispatch stays a tail call. */
ASN1H_NOINLINE static uint8_t *enc_bits(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                        const asn1h_bits *v)
{
    size_t len = v->len;
    unsigned unused = len ? (v->unused & 7u) : 0;
    uint8_t last;

    if (ASN1H_UNLIKELY(t->extra) && refused(e, t, v))
        return asn1h_enc_fail(e, ASN1H_ERR_CONSTRAINT);
    if (t->flags & ASN1H_T_NAMED_BITS) {    /* DER: no trailing 0 bits (X.690 11.2.2) */
        unsigned byte = 0;
        while (len && !(byte = v->buf[len - 1] & (0xFFu << (len == v->len ? unused : 0))))
            len--;
        for (unused = 0; len && !(byte & (1u << unused)); unused++) {}
    }
    if (len) {
        last = (uint8_t)(v->buf[len - 1] & (0xFFu << unused));
        ASN1H_ROOM(e, p, len + 1);
        *--p = last;
        p -= len - 1;
        memcpy(p, v->buf, len - 1);
    } else {
        ASN1H_ROOM(e, p, 1);
    }
    *--p = (uint8_t)unused;
    return p;
}

/* Whether a SET has a component whose place in DER depends on its value: an untagged
 * CHOICE or open type, placed by the tag of what it holds. */
static int untagged_choice(const asn1h_enc *e, const asn1h_type *t)
{
    const asn1h_member *members = e->spec->members + t->first;
    unsigned i;
    for (i = 0; i < t->count; i++)
        if (!members[i].tag)
            return 1;
    return 0;
}

/* A kind whose contents routine lives in an optional part of the runtime that this spec
 * did not link in: only a broken table asks for it. */
ASN1H_COLD static uint8_t *no_codec(asn1h_enc *e)
{
    return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
}

/* A type's contents through its compiled routines, else the interpreter. */
ASN1H_INLINE uint8_t *encode_contents(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                      const void *v)
{
    const asn1h_routines *r = asn1h_routines_of(e->spec, t);
    return r ? r->encode(e, p, v) : asn1h_interpret_encode(e, t, p, v);
}

/* The TLV of t's value v: its own tags around its contents, the outermost replaced by
 * `outer` when `implicit`, or all wrapped in `outer` (when not 0) otherwise. */
static uint8_t *encode_tagged(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v,
                              uint32_t outer, unsigned implicit)
{
    uint32_t one;
    const uint32_t *tags;
    unsigned n = asn1h_type_tags(e->spec, t, &one, &tags), i;
    /* `outer` wraps the rest (first of n + 1 tags) unless it replaces the outermost one;
     * an untagged CHOICE has none to replace */
    unsigned wrap = outer && (!implicit || n == 0);
    uint8_t *q = encode_contents(e, t, p, v);
    if (!q)
        return NULL;
    for (i = n + wrap; i-- > 0;) {          /* innermost first: the encoding runs backwards */
        uint32_t tag = (i == 0 && outer) ? outer : tags[i - wrap];
        unsigned constructed = (i + 1 == n + wrap && asn1h_has_own_tlv(t))
                               ? asn1h_constructed_form(t) : 1u;
        if (!(q = asn1h_put_len(e, q, (size_t)(p - q)))
            || !(q = asn1h_put_tag(e, q, tag, constructed)))
            return NULL;
    }
    return q;
}

uint8_t *asn1h_encode_tagged(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    return encode_tagged(e, t, p, v, 0, 0);
}

uint8_t *asn1h_encode_member(asn1h_enc *e, const asn1h_member *m, uint8_t *p,
                             const void *base)
{
    const asn1h_type *t = asn1h_member_type(e->types, m);
    const void *v = (const uint8_t *)base + m->offset;

    /* the usual cases: a type of one packed tag or none, the member's tag packed too */
    if (!(m->flags & (ASN1H_M_POINTER | ASN1H_M_LONG_TAG)) && !(t->flags & ASN1H_T_TAG_LIST)
        && (t->tag || !(m->flags & ASN1H_M_IMPLICIT))) {
        uint8_t *q = encode_contents(e, t, p, v);
        if (!q)
            return NULL;
        if (t->tag) {                       /* its own TLV, retagged when IMPLICIT */
            uint16_t tag = (m->flags & ASN1H_M_IMPLICIT) ? m->tag : t->tag;
            if (!(q = asn1h_put_len(e, q, (size_t)(p - q)))
                || !(q = asn1h_put_tag(e, q, ASN1H_UNPACK_TAG(tag), asn1h_constructed_form(t))))
                return NULL;
        }
        if (m->flags & ASN1H_M_EXPLICIT) {  /* wrapped */
            if (!(q = asn1h_put_len(e, q, (size_t)(p - q))))
                return NULL;
            q = asn1h_put_tag(e, q, ASN1H_UNPACK_TAG(m->tag), 1);
        }
        return q;
    }
    if (m->flags & ASN1H_M_POINTER) {
        memcpy(&v, v, sizeof v);
        if (!v)
            return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
    }
    return encode_tagged(e, t, p, v,
                         (m->flags & (ASN1H_M_IMPLICIT | ASN1H_M_EXPLICIT))
                         ? asn1h_member_tag(e->spec, m) : 0,
                         m->flags & ASN1H_M_IMPLICIT);
}

/* The DER contents of a value of type t in buf[0..cap), or NULL when they do not fit. */
static const uint8_t *contents_in(const asn1h_spec *spec, const asn1h_type *t,
                                  const void *v, uint8_t *buf, size_t cap, size_t *len)
{
    asn1h_error err;
    asn1h_enc e;
    uint8_t *q;
    e.start = buf;
    e.err = &err;
    e.spec = spec;
    e.types = asn1h_spec_types(spec);
    err.code = ASN1H_OK;
    if (!(q = asn1h_encode_contents(&e, t, buf + cap, v)))
        return NULL;
    *len = (size_t)(buf + cap - q);
    return q;
}

/* Whether DEFAULT member m of the value at base holds its default (the general test,
 * spec->codecs->is_default: linked only by specs with a default that
 * differs_from_default does not test): by their C values for the usual kinds, else by their
 * DER contents (DER is canonical: equal values, equal octets). */
int asn1h_is_default(const asn1h_spec *spec, const asn1h_member *m, const void *base)
{
    enum { ROOM = 256 };
    uint8_t mine[ROOM], theirs[ROOM];
    const asn1h_type *t = asn1h_spec_types(spec) + m->type;
    const void *v = (const uint8_t *)base + m->offset;
    const asn1h_default *dflt = asn1h_default_of(spec, m);
    const uint8_t *a, *b;
    size_t alen, blen;
    void *items;
    size_t count;

    if (!dflt)
        return 0;
    if (dflt->value) {
        switch ((asn1h_kind)t->kind) {
        case ASN1H_BOOLEAN:
            return *(const bool *)v == *(const bool *)dflt->value;
        case ASN1H_NULL:
            return 1;
        case ASN1H_INTEGER:
        case ASN1H_ENUMERATED:
            if (asn1h_storage(t) != ASN1H_INT_BIG)
                return asn1h_load_int(asn1h_storage(t), v)
                       == asn1h_load_int(asn1h_storage(t), dflt->value);
            break;
        case ASN1H_SEQUENCE_OF:
        case ASN1H_SET_OF:
            if (dflt->der && dflt->der_len == 0) {     /* DEFAULT {} */
                asn1h_array_get(v, &items, &count);
                return count == 0;
            }
            break;
        default:
            break;
        }
    }
    /* One octet more than the default's contents is room enough to tell. */
    if (dflt->der) {
        b = dflt->der;
        blen = dflt->der_len;
    } else if (!dflt->value || !(b = contents_in(spec, t, dflt->value, theirs, ROOM, &blen))) {
        return 0;
    }
    if (blen >= ROOM)
        return 0;
    a = contents_in(spec, t, v, mine, blen + 1, &alen);
    return a && alen == blen && memcmp(a, b, blen) == 0;
}

/* Whether a DEFAULT member holds something else than its default.  A zero default of the
 * usual kinds (FALSE, 0, {}) is tested here; a spec with other defaults has the general
 * test in its codecs (the generator knows which it needs: ZERO_TESTED_INLINE). */
ASN1H_NOINLINE static int differs_from_default(const asn1h_spec *spec, const asn1h_member *m,
                                               const void *base)
{
    const asn1h_type *t = asn1h_spec_types(spec) + m->type;
    const uint8_t *at = (const uint8_t *)base + m->offset;
    if (!(m->flags & ASN1H_M_DEFAULT_VALUE)) {  /* the default is all zero: no look-up */
        if (t->kind == ASN1H_BOOLEAN)
            return *(const bool *)at;
        if (t->kind == ASN1H_INTEGER || t->kind == ASN1H_ENUMERATED) {
            const asn1h_int *x = (const asn1h_int *)(const void *)at;
            size_t i;
            if (asn1h_storage(t) != ASN1H_INT_BIG)
                return asn1h_load_int(asn1h_storage(t), at) != 0;
            if (!x->big || !x->big_len)
                return x->v != 0;
            for (i = 0; i < x->big_len; i++)    /* zero in any number of octets */
                if (x->big[i])
                    return 1;
            return 0;
        }
        if (t->kind == ASN1H_SEQUENCE_OF || t->kind == ASN1H_SET_OF) {   /* DEFAULT {} */
            void *items;
            size_t count;
            asn1h_array_get(at, &items, &count);
            return count != 0;
        }
    }
    return !spec->codecs->is_default || !spec->codecs->is_default(spec, m, base);
}

/* Whether member m of the value at base is encoded: present, and not its default. */
ASN1H_INLINE int member_encoded(const asn1h_spec *spec, const asn1h_member *m,
                                const void *base)
{
    if (m->bit == ASN1H_NO_BIT)
        return 1;
    if (!asn1h_get_bit(base, m->bit))
        return 0;
    if ((m->flags & (ASN1H_M_DEFAULT | ASN1H_M_POINTER)) != ASN1H_M_DEFAULT)
        return 1;
    return differs_from_default(spec, m, base);
}

int asn1h_member_encoded(const asn1h_spec *spec, const asn1h_member *m, const void *base)
{
    return member_encoded(spec, m, base);
}

/* Member m: the usual one (one tag, stored inline) straight to its contents, then its
 * length and identifier; the others by the general route. */
ASN1H_INLINE uint8_t *encode_any_member(asn1h_enc *e, const asn1h_member *m, uint8_t *p,
                                        const void *base)
{
    const asn1h_type *t = asn1h_member_type(e->types, m);
    uint8_t *q;
    /* a packed type tag is its own TLV's (asn1h.h): CHOICEs and open types have none */
    if ((m->flags & (ASN1H_M_EXPLICIT | ASN1H_M_POINTER | ASN1H_M_LONG_TAG)) || !t->tag
        || (t->flags & ASN1H_T_TAG_LIST))
        return asn1h_encode_member(e, m, p, base);
    if (!(q = encode_contents(e, t, p, (const uint8_t *)base + m->offset))
        || !(q = asn1h_put_len(e, q, (size_t)(p - q))))
        return NULL;
    return asn1h_put_tag(e, q, ASN1H_UNPACK_TAG(m->tag), asn1h_constructed_form(t));
}

ASN1H_INLINE uint8_t *enc_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf,
                                   size_t len)
{
    const asn1h_codecs *codecs = e->spec->codecs;
    return codecs->put_received ? codecs->put_received(e, p, buf, len)
                                : asn1h_put_raw(e, p, buf, len);
}

/* An extensible CHOICE's alternative that this version does not know, as received (a
 * spec with such a CHOICE has put_received); from PER its tag is not known
 * (asn1h_kept_in_per). */
ASN1H_NOINLINE static uint8_t *enc_unknown_alternative(asn1h_enc *e, uint8_t *p,
                                                       const asn1h_bytes *raw)
{
    if (asn1h_kept_in_per(raw) || !e->spec->codecs->put_received)
        return asn1h_enc_fail(e, ASN1H_ERR_CHOICE);
    return e->spec->codecs->put_received(e, p, raw->buf, raw->len);
}

ASN1H_NOINLINE static uint8_t *enc_with_unknown(asn1h_enc *e, const asn1h_type *t,
                                                uint8_t *p, const void *v)
{
    const asn1h_codecs *codecs = e->spec->codecs;
    return codecs->encode_with_unknown ? codecs->encode_with_unknown(e, t, p, v) : no_codec(e);
}

static uint8_t *enc_members(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    const asn1h_member *members = e->spec->members + t->first;
    unsigned k = t->count;
    if (ASN1H_UNLIKELY(t->flags & ASN1H_T_EXTENSIBLE)
        && ((const asn1h_bytes *)(const void *)((const uint8_t *)v + members[t->count].offset))->len)
        return enc_with_unknown(e, t, p, v);        /* unknown additions to write back */
    while (k-- > 0) {
        const asn1h_member *m = &members[k];
        if (!member_encoded(e->spec, m, v))
            continue;
        if (!(p = encode_any_member(e, m, p, v)))
            return asn1h_enc_unwind(e, m);
    }
    return p;
}

ASN1H_NOINLINE static uint8_t *enc_array(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                         const void *v)
{
    const asn1h_member *element = &e->spec->members[t->first];
    size_t size = asn1h_element_size(e->types, element);
    uint8_t *end = p;
    void *items;
    size_t count, i;

    if (ASN1H_UNLIKELY(t->extra) && refused(e, t, v))
        return asn1h_enc_fail(e, ASN1H_ERR_CONSTRAINT);
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
    return encode_contents(e, t, p, v);
}

/* The optional parts of the runtime, looked at only for the kinds that need them. */
ASN1H_NOINLINE static uint8_t *enc_real(asn1h_enc *e, uint8_t *p, const double *v)
{
    const asn1h_codecs *codecs = e->spec->codecs;
    return codecs->real_encode ? codecs->real_encode(e, p, *v) : no_codec(e);
}

ASN1H_NOINLINE static uint8_t *enc_time(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                        const asn1h_bytes *v)
{
    const asn1h_codecs *codecs = e->spec->codecs;
    return codecs->time_encode ? codecs->time_encode(e, p, v, t->aux) : no_codec(e);
}

ASN1H_NOINLINE static uint8_t *enc_enumerated(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                              const void *v)
{
    const asn1h_codecs *codecs = e->spec->codecs;
    return codecs->enumerated_encode ? codecs->enumerated_encode(e, t, p, v) : no_codec(e);
}

/* OCTET STRING, the character strings, the times and the object identifiers. */
ASN1H_INLINE uint8_t *enc_bytes(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                const asn1h_bytes *v)
{
    if (t->aux == 23 || t->aux == 24)
        return enc_time(e, t, p, v);
    return asn1h_put_raw(e, p, v->buf, v->len);
}

/* An INTEGER or a string of a type with a constraint record: checked, then encoded (BIT
 * STRING and the lists check their own). */
ASN1H_NOINLINE static uint8_t *enc_constrained(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                               const void *v)
{
    if (refused(e, t, v))
        return asn1h_enc_fail(e, ASN1H_ERR_CONSTRAINT);
    if (t->kind == ASN1H_BYTES)
        return enc_bytes(e, t, p, (const asn1h_bytes *)v);
    return asn1h_enc_int(e, t, p, v);
}

/* ENUMERATED of an extensible type: an addition PER kept by index (asn1h.h) has no known
 * number.  Those numbers are the 4 octets 80 00 xx xx, so only such contents are looked at. */
uint8_t *asn1h_enc_enumerated(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    uint8_t *q = asn1h_enc_int(e, t, p, v);
    if (q && p - q == 4 && q[0] == 0x80 && q[1] == 0x00
        && !asn1h_enum_known(e->spec, t, asn1h_load_int(asn1h_storage(t), v)))
        return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
    return q;
}

/* Whether an ENUMERATED value may be written as 80 00 xx xx (enc_enumerated looks): a
 * number of ASN1H_ENUM_ADDITION's range (asn1h.h), which of the narrower storages only
 * int32_t holds; the 64-bit and big ones are looked at.  The others go straight to
 * asn1h_enc_int.  Built for size (-Os), enc_enumerated looks at every one: this test is
 * code, not speed. */
ASN1H_INLINE int may_be_kept_by_index(const asn1h_type *t, const void *v)
{
#ifdef __OPTIMIZE_SIZE__
    (void)t;
    (void)v;
    return 1;
#else
    unsigned storage = asn1h_storage(t);
    if (storage == ASN1H_INT_I32)
        return *(const int32_t *)v < ASN1H_ENUM_ADDITION(ASN1H_ENUM_ADDITIONS);
    return storage == ASN1H_INT_BIG || storage >= ASN1H_INT_I64;
#endif
}

/* SET: members in DER (tag) order in the table, sorted when one is placed by its value. */
ASN1H_NOINLINE static uint8_t *enc_set(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                       const void *v)
{
    uint8_t *q = enc_members(e, t, p, v);
    if (q && untagged_choice(e, t))         /* X.690 10.3 */
        asn1h_sort_set_components(q, p);
    return q;
}

ASN1H_NOINLINE static uint8_t *enc_choice(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                          const void *v)
{
    const asn1h_member *members = e->spec->members + t->first;
    uint32_t which;
    memcpy(&which, v, sizeof which);
    if (which == ASN1H_WHICH_UNKNOWN && (t->flags & ASN1H_T_EXTENSIBLE))
        return enc_unknown_alternative(e, p, (const asn1h_bytes *)(
            (const uint8_t *)v + members[0].offset));
    if (which == 0 || which > t->count)
        return asn1h_enc_fail(e, ASN1H_ERR_CHOICE);
    if (!(p = asn1h_encode_member(e, &members[which - 1], p, v)))
        return asn1h_enc_unwind(e, &members[which - 1]);
    return p;
}

/* Every case is a tail call or a leaf, so that the dispatch needs no stack frame: the kinds
 * that need more (constraints, SET's order, CHOICE's path) have their own functions. */
uint8_t *asn1h_interpret_encode(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v)
{
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        ASN1H_ROOM(e, p, 1);
        *--p = *(const bool *)v ? 0xFF : 0x00;
        return p;
    case ASN1H_INTEGER:
        if (ASN1H_UNLIKELY(t->extra))
            return enc_constrained(e, t, p, v);
        return asn1h_enc_int(e, t, p, v);
    case ASN1H_ENUMERATED:
        if (ASN1H_UNLIKELY(t->flags & ASN1H_T_EXTENSIBLE)
            && ASN1H_UNLIKELY(may_be_kept_by_index(t, v)))
            return enc_enumerated(e, t, p, v);
        return asn1h_enc_int(e, t, p, v);
    case ASN1H_REAL:
        return enc_real(e, p, (const double *)v);
    case ASN1H_BIT_STRING:
        return enc_bits(e, t, p, (const asn1h_bits *)v);
    case ASN1H_BYTES:
        if (ASN1H_UNLIKELY(t->extra)) {
            const asn1h_open *contained = (const asn1h_open *)v;
            if (asn1h_constrained(t))
                return enc_constrained(e, t, p, v);
            if (!contained->buf && contained->type && contained->value)
                /* CONTAINING (extra: its key): the octets as received, BER's, which may
                 * not be DER's (a signature covers them); else the value's */
                return asn1h_encode_tagged(e, contained->type, p, contained->value);
        }
        return enc_bytes(e, t, p, (const asn1h_bytes *)v);
    case ASN1H_NULL:
        return p;
    case ASN1H_SEQUENCE:
        return enc_members(e, t, p, v);
    case ASN1H_SET:
        return enc_set(e, t, p, v);
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF:
        return enc_array(e, t, p, v);
    case ASN1H_CHOICE:
        return enc_choice(e, t, p, v);
    case ASN1H_OPEN: {
        const asn1h_open *open = (const asn1h_open *)v;
        if (open->type && open->value)
            return asn1h_encode_tagged(e, open->type, p, open->value);
        if (!open->buf)
            return asn1h_enc_fail(e, ASN1H_ERR_VALUE);
        return enc_received(e, p, open->buf, open->len);
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
    e.spec = asn1h_spec_of(type);
    e.types = type - type->self;
    if (type->tag && !(type->flags & ASN1H_T_TAG_LIST)) {  /* the usual PDU: one tag */
        uint8_t *end = buf + cap;
        if ((q = encode_contents(&e, type, end, value))
            && (q = asn1h_put_len(&e, q, (size_t)(end - q))))
            q = asn1h_put_tag(&e, q, ASN1H_UNPACK_TAG(type->tag), asn1h_constructed_form(type));
    } else {
        q = asn1h_encode_tagged(&e, type, buf + cap, value);
    }
    if (!q)
        return err->code == ASN1H_OK ? ASN1H_ERR_VALUE : err->code;
    *len = (size_t)(buf + cap - q);
    memmove(buf, q, *len);
    return ASN1H_OK;
}
