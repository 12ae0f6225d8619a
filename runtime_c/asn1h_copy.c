/* asn1h_copy.c: values that outlive their input.
 *
 * A decoded value points into its input: primitive strings, bit strings, big integers,
 * open types and unknown extensions are not copied (zero copy).  asn1h_decode_owned fuses
 * the copy with the decode, as one memcpy of the PDU into the arena before its octets are
 * read, not as one copy per string: a string copy costs an allocation and a call whatever
 * its size, while the PDU's octets are mostly its strings' anyway (docs/runtime.md,
 * "Streams, walks and owned values", has the measurements).  asn1h_copy is the unfused
 * baseline: a walk over the tables after the decode.  Both are here, apart from the
 * decoder, so that programs that use neither do not link them.
 */
#include "asn1h_ber.h"

static const uint8_t empty[1];

/* *buf[0..len) into the arena; 0 when the arena is full. */
static int dup(asn1h_arena *a, const uint8_t **buf, size_t len)
{
    uint8_t *copy;
    if (!*buf)
        return 1;
    if (len == 0) {
        *buf = empty;
        return 1;
    }
    if (!(copy = (uint8_t *)asn1h_arena_alloc(a, len)))
        return 0;
    memcpy(copy, *buf, len);
    *buf = copy;
    return 1;
}

static int fix(const asn1h_spec *spec, const asn1h_type *t, void *v, asn1h_arena *a);

/* A value that v holds a pointer to: copied whole into the arena, then fixed. */
static int fix_pointed(const asn1h_spec *spec, const asn1h_type *t, void **v, asn1h_arena *a)
{
    void *copy;
    if (!*v)
        return 1;
    if (!(copy = asn1h_arena_alloc(a, t->size)))
        return 0;
    memcpy(copy, *v, t->size);
    *v = copy;
    return fix(spec, t, copy, a);
}

static int fix_member(const asn1h_spec *spec, const asn1h_member *m, void *base,
                      asn1h_arena *a)
{
    const asn1h_type *t = asn1h_spec_types(spec) + m->type;
    void *v = (uint8_t *)base + m->offset;
    if (m->flags & ASN1H_M_POINTER)
        return fix_pointed(spec, t, (void **)v, a);
    return fix(spec, t, v, a);
}

static int fix_open(const asn1h_spec *spec, asn1h_open *o, asn1h_arena *a)
{
    if (!dup(a, &o->buf, o->len))
        return 0;
    return !o->type || fix_pointed(spec, o->type, &o->value, a);
}

/* Replaces every pointer of the value at v (already a shallow copy) by a copy of what it
 * points to. */
static int fix(const asn1h_spec *spec, const asn1h_type *t, void *v, asn1h_arena *a)
{
    switch ((asn1h_kind)t->kind) {
    case ASN1H_INTEGER:
    case ASN1H_ENUMERATED:
        if (asn1h_storage(t) == ASN1H_INT_BIG) {
            asn1h_int *x = (asn1h_int *)v;
            return dup(a, &x->big, x->big_len);
        }
        return 1;
    case ASN1H_BIT_STRING: {
        asn1h_bits *x = (asn1h_bits *)v;
        return dup(a, &x->buf, x->len);
    }
    case ASN1H_BYTES:
        if (t->flags & ASN1H_T_CONTAINING)
            return fix_open(spec, (asn1h_open *)v, a);
        return dup(a, &((asn1h_bytes *)v)->buf, ((asn1h_bytes *)v)->len);
    case ASN1H_OPEN:
        return fix_open(spec, (asn1h_open *)v, a);
    case ASN1H_SEQUENCE:
    case ASN1H_SET: {
        unsigned i;
        if (t->flags & ASN1H_T_EXTENSIBLE) {
            asn1h_bytes *unknown = (asn1h_bytes *)(void *)((uint8_t *)v
                                        + asn1h_extension_entry(spec, t)->offset);
            if (!dup(a, &unknown->buf, unknown->len))
                return 0;
        }
        if (t->extra) {                     /* --keep-encoding: its TLV */
            asn1h_bytes *kept = (asn1h_bytes *)(void *)((uint8_t *)v + t->extra - 1);
            if (!dup(a, &kept->buf, kept->len))
                return 0;
        }
        for (i = 0; i < t->count; i++) {
            const asn1h_member *m = &spec->members[t->first + i];
            if (m->bit != ASN1H_NO_BIT && !asn1h_get_bit(v, m->bit))
                continue;                   /* absent: zero, or a DEFAULT's constant */
            if (!fix_member(spec, m, v, a))
                return 0;
        }
        return 1;
    }
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF: {
        const asn1h_member *element = &spec->members[t->first];
        size_t size = asn1h_element_size(asn1h_spec_types(spec), element), count, i;
        void *items;
        uint8_t *copy;
        asn1h_array_get(v, &items, &count);
        if (!count)
            return 1;
        if (!(copy = (uint8_t *)asn1h_arena_alloc(a, count * size)))
            return 0;
        memcpy(copy, items, count * size);
        asn1h_array_set(v, copy, count);
        for (i = 0; i < count; i++)
            if (!fix_member(spec, element, copy + i * size, a))
                return 0;
        return 1;
    }
    case ASN1H_CHOICE: {
        uint32_t which;
        memcpy(&which, v, sizeof which);
        if (which == ASN1H_WHICH_UNKNOWN) {
            asn1h_bytes *raw = (asn1h_bytes *)(void *)((uint8_t *)v
                                                        + spec->members[t->first].offset);
            return dup(a, &raw->buf, raw->len);
        }
        return which == 0 || which > t->count
               || fix_member(spec, &spec->members[t->first + which - 1], v, a);
    }
    case ASN1H_BOOLEAN:
    case ASN1H_REAL:
    case ASN1H_NULL:
        return 1;
    }
    return 1;
}

/* buf[0..len) into the arena, or NULL with ASN1H_ERR_MEMORY in *err. */
static const uint8_t *copied(const asn1h_type *type, const uint8_t *buf, size_t len,
                             asn1h_arena *arena, asn1h_error *err)
{
    uint8_t *copy = (uint8_t *)asn1h_arena_alloc(arena, len ? len : 1);
    if (!copy && err) {
        asn1h_error_reset(err, type);
        err->code = ASN1H_ERR_MEMORY;
    }
    if (copy)
        memcpy(copy, buf, len);
    return copy;
}

asn1h_code asn1h_decode_owned(const asn1h_type *type, void *value, const uint8_t *buf,
                              size_t len, asn1h_arena *arena, const asn1h_decode_opts *opts,
                              size_t *consumed, asn1h_error *err)
{
    asn1h_error local;
    asn1h_dec d;
    uint32_t tag;
    unsigned form;
    const uint8_t *end = NULL, *copy;

    /* the PDU's extent: from its header, or under an indefinite length by its framing */
    asn1h_dec_start(&d, type, buf, len, arena, opts, asn1h_error_reset(&local, type));
    if (asn1h_read_tl(&d, buf, buf + len, &tag, &form, &end))
        end = (form & ASN1H_FORM_INDEF) ? asn1h_skip_value(&d, buf, buf + len) : end;
    if (!end)                               /* malformed: the decode says how */
        return asn1h_decode(type, value, buf, len, arena, opts, consumed, err);
    if (!(copy = copied(type, buf, (size_t)(end - buf), arena, err)))
        return ASN1H_ERR_MEMORY;
    return asn1h_decode(type, value, copy, (size_t)(end - buf), arena, opts, consumed, err);
}

asn1h_code asn1h_decode_per_owned(const asn1h_type *type, void *value, const uint8_t *buf,
                                  size_t len, unsigned variant, asn1h_arena *arena,
                                  const asn1h_decode_opts *opts, size_t *consumed,
                                  asn1h_error *err)
{
    return asn1h_decode_per_owned_with(NULL, type, value, buf, len, variant, arena, opts,
                                       consumed, err);
}

asn1h_code asn1h_decode_per_owned_with(const struct asn1h_per_routines *compiled,
                                       const asn1h_type *type, void *value,
                                       const uint8_t *buf, size_t len, unsigned variant,
                                       asn1h_arena *arena, const asn1h_decode_opts *opts,
                                       size_t *consumed, asn1h_error *err)
{
    const uint8_t *copy = copied(type, buf, len, arena, err);
    if (!copy)
        return ASN1H_ERR_MEMORY;
    return asn1h_decode_per_with(compiled, type, value, copy, len, variant, arena, opts,
                                 consumed, err);
}

asn1h_code asn1h_copy(const asn1h_type *type, void *dst, const void *src, asn1h_arena *arena)
{
    memmove(dst, src, type->size);
    return fix(asn1h_spec_of(type), type, dst, arena) ? ASN1H_OK : ASN1H_ERR_MEMORY;
}
