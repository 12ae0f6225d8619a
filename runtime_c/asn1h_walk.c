/* asn1h_walk.c: element-wise decoding of a huge SEQUENCE OF or SET OF (asn1h_walk).
 *
 * During a walk the interpreter decodes what encloses the list (compiled routines are not
 * entered until the list's elements, so that they need no test of their own: walk_entry
 * takes the compiled types instead), and hands the values of the walked list type here
 * (ASN1H_WALKED).  Each element is decoded into a
 * scope of the arena, handed to the caller's callback, and the scope is rolled back: the
 * memory a walk needs is that of one element, whatever the number of elements.  Elements
 * decode by their type's routines, compiled when it has them.
 */
#include "asn1h_ber.h"

/* The constraint of the walked list, on its count: the same check as a stored list's. */
static int count_satisfies(const asn1h_dec *d, const asn1h_type *t, size_t count)
{
    struct { void *items; size_t count; } list;
    if ((d->flags & ASN1H_SKIP_CONSTRAINTS) || !asn1h_constrained(t))
        return 1;
    list.items = NULL;
    list.count = count;
    return asn1h_check(d->spec, t, &list);
}

/* Element m of the list at p, its header read (tag, form, contents [c, content_end)): the
 * usual element, one tag of its own, goes straight to its type's contents routine
 * (compiled or not), as in a stored list; the others take the member routine. */
static const uint8_t *decode_element(asn1h_dec *d, const asn1h_member *m,
                                     const asn1h_type *et, const uint8_t *p,
                                     const uint8_t *end, uint32_t tag, unsigned form,
                                     const uint8_t *c, const uint8_t *content_end, void *item)
{
    if (m->tag && !(m->flags & (ASN1H_M_EXPLICIT | ASN1H_M_POINTER | ASN1H_M_LONG_TAG))
        && !(et->flags & ASN1H_T_TAG_LIST)) {
        if (tag != ASN1H_UNPACK_TAG(m->tag))
            return asn1h_fail(d, ASN1H_ERR_TAG, p);
        return asn1h_decode_contents(d, et, c, content_end, form, item);
    }
    return asn1h_decode_member(d, m, p, end, (uint8_t *)item - m->offset);
}

static const uint8_t *walk_list(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                const uint8_t *end, unsigned form, void *v)
{
    asn1h_walk *w = d->walk;
    const asn1h_member *element = &d->spec->members[t->first];
    const asn1h_type *et = asn1h_member_type(d->types, element);
    size_t slot = asn1h_element_size(d->types, element);
    const uint8_t *const contents = p, *previous = NULL;
    asn1h_arena_mark mark;
    const uint8_t *peak;                    /* the arena's furthest point at a callback, */
    const asn1h_block *peak_block;          /* in this block (compared within one only) */
    size_t i = 0;

    (void)v;                                /* a walked list stays empty */
    ASN1H_REQUIRE_CONSTRUCTED(d, p, form);
    ASN1H_ENTER(d, p);
    if (w->pull && !w->pull(w->ctx, p))     /* the list starts: all before it is in */
        return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
    asn1h_arena_save(d->arena, &mark);
    peak = mark.cur;
    peak_block = mark.blocks;
    for (;;) {
        const uint8_t *at = p, *c, *content_end;
        const void *value;
        uint32_t tag;
        unsigned form_read;
        size_t used;
        int next;
        uint8_t *item;
        /* a pulled element: its header (14 octets at most), then its contents */
        if (w->pull && !w->pull(w->ctx, (size_t)(end - p) > 14 ? p + 14 : end))
            return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
        if (asn1h_at_end(p, end, form))
            break;
        if (!(c = asn1h_get_tl(d, p, end, &tag, &form_read, &content_end)))
            return asn1h_unwind_index(d, i);
        if (w->pull && !w->pull(w->ctx, content_end))
            return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
        if (!(item = (uint8_t *)asn1h_arena_alloc(d->arena, slot ? slot : 1)))
            return asn1h_fail(d, ASN1H_ERR_MEMORY, p);
        d->walk = NULL;                     /* inside, every routine may run */
        p = decode_element(d, element, et, p, end, tag, form_read, c, content_end, item);
        d->walk = w;
        if (!p)
            return asn1h_unwind_index(d, i);
        if ((d->flags & ASN1H_DER) && t->kind == ASN1H_SET_OF) {
            if (previous && !asn1h_der_ascending(previous, at, p))
                return asn1h_fail(d, ASN1H_ERR_NOT_DER, at);
            previous = at;
        }
        value = item;
        if (element->flags & ASN1H_M_POINTER)
            memcpy(&value, item, sizeof value);
        if (d->arena->blocks != peak_block || d->arena->cur > peak) {
            used = asn1h_arena_used(d->arena);  /* the arena went further than before */
            if (used > w->high_water)
                w->high_water = used;
            peak = d->arena->cur;
            peak_block = d->arena->blocks;
        }
        next = w->on_element(w->ctx, value, i, at, (size_t)(p - at));
        asn1h_arena_rollback(d->arena, &mark);
        i++;
        w->count++;
        if (w->release)                     /* a SET OF in DER compares with the last */
            w->release(w->ctx, previous ? previous : p);
        if (next == ASN1H_WALK_STOP) {
            asn1h_fail(d, ASN1H_ERR_STOPPED, p);
            return asn1h_unwind_index(d, i - 1);
        }
        if (next == ASN1H_WALK_SKIP) {      /* the rest, checked to be well formed */
            if (w->pull && !w->pull(w->ctx, d->input_end))
                return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
            while (!asn1h_at_end(p, end, form)) {
                if (!(p = asn1h_skip_tlv(d, p, end)))
                    return asn1h_unwind_index(d, i);
                i++;
            }
            break;
        }
    }
    ASN1H_LEAVE(d);
    if (w->pull && !w->pull(w->ctx, d->input_end))  /* what follows the list */
        return asn1h_fail(d, ASN1H_ERR_TRUNCATED, p);
    if (!(p = asn1h_close(d, p, end, form)))
        return NULL;
    if (!count_satisfies(d, t, i))
        return asn1h_fail(d, ASN1H_ERR_CONSTRAINT, contents);
    return p;
}

/* The walker's entry: the walked list, or a compiled type met during the walk, which the
 * interpreter decodes so that it finds the list (with the encoding a kept type's routine
 * would have kept). */
static const uint8_t *walk_entry(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                 const uint8_t *end, unsigned form, void *v)
{
    const uint8_t *q;
    if (t == d->walk->list)
        return walk_list(d, t, p, end, form, v);
    q = asn1h_interpret_contents(d, t, p, end, form, v);
    if (q && t->extra && (t->kind == ASN1H_SEQUENCE || t->kind == ASN1H_SET))
        asn1h_keep_encoding(d, p, q, form, (asn1h_bytes *)(void *)((uint8_t *)v + t->extra - 1));
    return q;
}

void asn1h_walk_init(asn1h_walk *w, const asn1h_type *list, asn1h_element_fn *on_element,
                     void *ctx)
{
    memset(w, 0, sizeof *w);
    w->list = list;
    w->on_element = on_element;
    w->ctx = ctx;
    w->run = walk_entry;
}
