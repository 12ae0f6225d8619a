/* asn1h_ber.h: BER/DER primitives shared by the interpreter and compiled routines, and the
 * reading of the compact tables.
 *
 * Not part of the public API: generated .c files and the runtime include it.  The common
 * cases (one-octet identifiers, short lengths, small integers) are inline here; the rare
 * ones are out-of-line functions (asn1h_ber.c), the paper's "partial inlining".
 *
 * The runtime's layers, each using only those below it (docs/runtime.md):
 *   primitives      asn1h_arena.c, asn1h_ber.c (identifiers, lengths, INTEGER contents,
 *                   DER sorting), asn1h_time.c, asn1h_real.c
 *   codecs          asn1h_decode.c, asn1h_encode.c (the interpreter), asn1h_received.c
 *                   (open types and unknown alternatives kept as received)
 *   value services  asn1h_value.c (equality, error text, profiles), asn1h_jer.c
 */
#ifndef ASN1H_BER_H
#define ASN1H_BER_H

#include <string.h>

#include "asn1h.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define ASN1H_LIKELY(x)   __builtin_expect(!!(x), 1)
#define ASN1H_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ASN1H_INLINE      static inline __attribute__((always_inline))
#define ASN1H_NOINLINE    __attribute__((noinline))
#define ASN1H_COLD        __attribute__((noinline, cold))   /* rare: optimized for size */
#else
#define ASN1H_NOINLINE
#define ASN1H_COLD
#define ASN1H_LIKELY(x)   (x)
#define ASN1H_UNLIKELY(x) (x)
#define ASN1H_INLINE      static inline
#endif

/* Eight octets as a big-endian number, one load where the compiler can (USC's word-wide
 * access; the input needs no alignment). */
ASN1H_INLINE uint64_t asn1h_load_be64(const uint8_t *p)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return __builtin_bswap64(w);
#else
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40
           | (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16
           | (uint64_t)p[6] << 8 | p[7];
#endif
}

/* The same, stored. */
ASN1H_INLINE void asn1h_store_be64(uint8_t *p, uint64_t v)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
    memcpy(p, &v, sizeof v);
#else
    unsigned i;
    for (i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
#endif
}

#define ASN1H_MAX_TAGS 8          /* tags on one member, explicit wrappers included */

#ifdef ASN1H_PROFILE
#define ASN1H_COUNT(d, id) do { if ((d)->profile) (d)->profile->values[(id)]++; } while (0)
#define ASN1H_COUNT_ITEMS(d, id, n) do { if ((d)->profile) (d)->profile->items[(id)] += (n); } while (0)
#else
#define ASN1H_COUNT(d, id) ((void)0)
#define ASN1H_COUNT_ITEMS(d, id, n) ((void)0)
#endif

/* Two octets as a big-endian number, one load. */
ASN1H_INLINE unsigned asn1h_load_be16(const uint8_t *p)
{
    uint16_t h;
    memcpy(&h, p, sizeof h);
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap16(h);
#else
    return (unsigned)p[0] << 8 | p[1];
#endif
}

/* n <= 8 octets as a big-endian number (a character of a multi-octet string, a PER
 * range of up to 64 bits). */
ASN1H_INLINE uint64_t asn1h_load_be(const uint8_t *p, size_t n)
{
    uint64_t x = 0;
    size_t i;
    for (i = 0; i < n; i++)
        x = x << 8 | p[i];
    return x;
}

/* ---- Reading the tables ------------------------------------------------------------- */

static inline const asn1h_type *asn1h_member_type(const asn1h_type *types,
                                                  const asn1h_member *m)
{
    return types + m->type;
}

/* The octets one element of a list takes in its array: a pointer for a recursive one. */
static inline size_t asn1h_element_size(const asn1h_type *types,
                                        const asn1h_member *element)
{
    return (element->flags & ASN1H_M_POINTER) ? sizeof(void *) : types[element->type].size;
}

/* The outermost tag of a member's encoding: its own (IMPLICIT, EXPLICIT) or its type's;
 * 0 when it has none (an untagged CHOICE or open type). */
static inline uint32_t asn1h_member_tag(const asn1h_spec *spec, const asn1h_member *m)
{
    return ASN1H_UNLIKELY(m->flags & ASN1H_M_LONG_TAG) ? spec->tags[m->tag]
                                                       : ASN1H_UNPACK_TAG(m->tag);
}

/* How many own tags a type has (0 for an untagged CHOICE or open type). */
static inline unsigned asn1h_ntags(const asn1h_spec *spec, const asn1h_type *t)
{
    return (t->flags & ASN1H_T_TAG_LIST) ? spec->tags[t->tag] : t->tag != 0;
}

/* A type's outermost own tag; 0 when it has none. */
static inline uint32_t asn1h_first_tag(const asn1h_spec *spec, const asn1h_type *t)
{
    return (t->flags & ASN1H_T_TAG_LIST) ? spec->tags[t->tag + 1] : ASN1H_UNPACK_TAG(t->tag);
}

/* A type's own tags, outermost first, in *tags (buf when it has one); returns how many. */
static inline unsigned asn1h_type_tags(const asn1h_spec *spec, const asn1h_type *t,
                                       uint32_t *buf, const uint32_t **tags)
{
    if (t->flags & ASN1H_T_TAG_LIST) {
        *tags = spec->tags + t->tag + 1;
        return spec->tags[t->tag];
    }
    buf[0] = ASN1H_UNPACK_TAG(t->tag);
    *tags = buf;
    return t->tag != 0;
}

/* The compiled routines of a constructed type, or NULL when it is interpreted. */
static inline const asn1h_routines *asn1h_routines_of(const asn1h_spec *spec,
                                                      const asn1h_type *t)
{
    return (t->flags & ASN1H_T_COMPILED) ? &spec->routines[t->aux - 1] : NULL;
}

/* Whether t has a constraint record to check (asn1h_constraint): `extra` holds its index
 * plus 1 for the kinds that can have one. */
static inline int asn1h_constrained(const asn1h_type *t)
{
    return t->extra && (t->kind == ASN1H_INTEGER || t->kind == ASN1H_BIT_STRING
                        || t->kind == ASN1H_SEQUENCE_OF || t->kind == ASN1H_SET_OF
                        || (t->kind == ASN1H_BYTES && !(t->flags & ASN1H_T_CONTAINING)));
}

/* The characters of a UTF8String: its octets that do not continue a character. */
static inline size_t asn1h_utf8_length(const uint8_t *p, const uint8_t *end)
{
    size_t n = 0;
    for (; p < end; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

/* Whether a size lies in [low, high]: for counts worth evaluating once. */
static inline int asn1h_size_within(size_t n, uint64_t low, uint64_t high)
{
    return n >= low && n <= high;
}

int asn1h_satisfies(const asn1h_spec *spec, const asn1h_type *t, const void *v);
int asn1h_satisfies_size(const asn1h_spec *spec, const asn1h_type *t, const void *v);
int asn1h_satisfies_numbers(const asn1h_spec *spec, const asn1h_type *t, const void *v);

/* Whether record c of a list or of a string of one octet per character, one SIZE
 * interval, holds for v: its length or count, after the pointer (asn1h_bytes, lists). */
static inline int asn1h_record_size_ok(const asn1h_spec *spec, const asn1h_constraint *c,
                                       const void *v)
{
    const int64_t *b = spec->bounds + 2 * (size_t)c->first;
    size_t n;
    memcpy(&n, (const uint8_t *)v + sizeof(void *), sizeof n);
    return (uint64_t)n >= (uint64_t)b[0] && (uint64_t)n <= (uint64_t)b[1];
}

/* Whether v satisfies the constraint record of t (asn1h_constrained(t) holds).  The usual
 * constraint, one SIZE interval of a list or of a string of one octet per character, is
 * checked here; the others by asn1h_check.c, through spec->codecs.  A spec whose records
 * are all of the usual kind has asn1h_satisfies_size there, for PER, which asks
 * spec->codecs directly. */
static inline int asn1h_check(const asn1h_spec *spec, const asn1h_type *t, const void *v)
{
    const asn1h_constraint *c = &spec->constraints[t->extra - 1];
    if (c->sizes == 1 && !c->chars && (t->kind == ASN1H_SEQUENCE_OF || t->kind == ASN1H_SET_OF
                                       || (t->kind == ASN1H_BYTES && t->aux != 12
                                           && t->aux != 28 && t->aux != 30)))
        return asn1h_record_size_ok(spec, c, v);
    if (!c->values && !c->sizes && !c->chars)       /* only what PER encodes */
        return 1;
    return !spec->codecs->satisfies || spec->codecs->satisfies(spec, t, v);
}

/* The DEFAULT value of member m (NULL: all zero, or m has none). */
const asn1h_default *asn1h_default_of(const asn1h_spec *spec, const asn1h_member *m);

/* CHOICE and open types have no identifier of their own (their tags wrap the alternative). */
static inline int asn1h_has_own_tlv(const asn1h_type *t)
{
    return t->kind != ASN1H_CHOICE && t->kind != ASN1H_OPEN;
}

/* Whether a type's own identifier has the constructed bit in DER. */
static inline unsigned asn1h_constructed_form(const asn1h_type *t)
{
    return t->kind == ASN1H_SEQUENCE || t->kind == ASN1H_SET || t->kind == ASN1H_SEQUENCE_OF
           || t->kind == ASN1H_SET_OF;
}

/* ---- Errors: record once where detected, then add one path entry per level ---------- */

static inline asn1h_error *asn1h_error_reset(asn1h_error *err, const asn1h_type *type)
{
    err->code = ASN1H_OK;
    err->offset = 0;
    err->depth = 0;
    err->truncated = false;
    err->type = type;
    return err;
}

/* The nesting levels a decoder may count (asn1h_decode_opts.max_depth; 0: the default). */
static inline unsigned asn1h_max_depth(const asn1h_decode_opts *opts)
{
    return opts && opts->max_depth ? opts->max_depth : ASN1H_MAX_DEPTH;
}

/* A decoder at the start of a value of `type` in buf[0..len): the one setup of asn1h_decode
 * and asn1h_decode_per. */
static inline void asn1h_dec_start(asn1h_dec *d, const asn1h_type *type, const uint8_t *buf,
                                   size_t len, asn1h_arena *arena,
                                   const asn1h_decode_opts *opts, asn1h_error *err)
{
    d->base = buf;
    d->input_end = buf + len;
    d->spec = asn1h_spec_of(type);
    d->types = type - type->self;
    d->arena = arena;
    d->err = err;
    d->flags = opts ? opts->flags : 0;
    d->depth = asn1h_max_depth(opts);
    d->profile = opts ? opts->profile : NULL;
    d->walk = opts ? opts->walk : NULL;
}

/* --keep-encoding (the compiled routine of a kept type): sets *kept to the TLV of a
 * SEQUENCE or SET value whose contents start at `contents` and which ends at `end` (after
 * its end-of-contents octets when its length is indefinite).  Its identifier is one
 * octet (the generator checks), and its length octets read backwards from the contents
 * without doubt: the octet before them is a constructed identifier, never the 0x81..0x88
 * that starts a long form. */
static inline void asn1h_keep_encoding(const asn1h_dec *d, const uint8_t *contents,
                                       const uint8_t *end, unsigned form, asn1h_bytes *kept)
{
    const uint8_t *start = contents - 2;    /* identifier, one length octet (or 0x80) */
    size_t k, i, n, len = (size_t)(end - contents);
    for (k = 1; !(form & ASN1H_FORM_INDEF) && k <= 8 && (size_t)(contents - d->base) >= k + 2;
         k++) {
        if (contents[-(ptrdiff_t)k - 1] != (0x80u | k))
            continue;
        for (n = 0, i = k; i > 0; i--)
            n = n << 8 | contents[-(ptrdiff_t)i];
        if (n == len) {
            start = contents - k - 2;
            break;
        }
    }
    kept->buf = start;
    kept->len = (size_t)(end - start);
}

/* Whether list type t is the one whose elements are walked (asn1h_walk). */
#define ASN1H_WALKED(d, t) (ASN1H_UNLIKELY((d)->walk != NULL) && (d)->walk->list == (t))

const uint8_t *asn1h_fail(asn1h_dec *d, asn1h_code code, const uint8_t *at);

/* Return, failing by a tail call, from a decoder whose value at p came in the wrong form
 * (X.690 8.1.2.5): primitive where its kind is constructed, or the other way round. */
#define ASN1H_REQUIRE_FORM(d, p, form, constructed) \
    do { if (((form) & ASN1H_FORM_CONSTRUCTED) != (constructed)) \
             return asn1h_fail((d), ASN1H_ERR_FORM, (p)); } while (0)
#define ASN1H_REQUIRE_PRIMITIVE(d, p, form) ASN1H_REQUIRE_FORM(d, p, form, 0)
#define ASN1H_REQUIRE_CONSTRUCTED(d, p, form) \
    ASN1H_REQUIRE_FORM(d, p, form, ASN1H_FORM_CONSTRUCTED)

/* While an error unwinds: prepend a component (or, when m is NULL, an element index) to
 * its path. */
void asn1h_path_push(asn1h_error *err, const asn1h_member *m, size_t index);
uint8_t *asn1h_enc_fail(asn1h_enc *e, asn1h_code code);

static inline const uint8_t *asn1h_unwind(asn1h_dec *d, const asn1h_member *m)
{
    asn1h_path_push(d->err, m, 0);
    return NULL;
}

static inline const uint8_t *asn1h_unwind_index(asn1h_dec *d, size_t index)
{
    asn1h_path_push(d->err, NULL, index);
    return NULL;
}

static inline uint8_t *asn1h_enc_unwind(asn1h_enc *e, const asn1h_member *m)
{
    asn1h_path_push(e->err, m, 0);
    return NULL;
}

/* ---- Identifiers and lengths (decoding) --------------------------------------------- */

/* Any header, checked throughout: what asn1h_get_tl and asn1h_read_tl leave to it (a long
 * tag, a long or indefinite length, an error). */
const uint8_t *asn1h_get_tl_other(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  uint32_t *tag, unsigned *form, const uint8_t **content_end);
/* A length of `len` octets from `contents` that runs past the bound of its container:
 * ASN1H_ERR_TRUNCATED when it also runs past the end of the input (the input was cut
 * short), ASN1H_ERR_LENGTH when the input holds it (it overruns its container).  The
 * error's offset is `at`, the length octets. */
const uint8_t *asn1h_overrun(asn1h_dec *d, const uint8_t *at, const uint8_t *contents,
                             size_t len);

/* Whether the header at p is the usual one: an identifier octet with a tag number below
 * 31, then a short length that fits before `end`. */
ASN1H_INLINE int asn1h_usual_header(const uint8_t *p, const uint8_t *end)
{
    return end - p >= 2 && (p[0] & 0x1F) != 0x1F && p[1] < 0x80
           && p[1] <= (size_t)(end - p - 2);
}

/* The header at p of `head` octets, one identifier octet (a tag number below 31) and the
 * length octets of `len`: sets *tag, *form and *content_end, returns the contents. */
ASN1H_INLINE const uint8_t *asn1h_got_tl(const uint8_t *p, size_t head, size_t len,
                                         uint32_t *tag, unsigned *form,
                                         const uint8_t **content_end)
{
    unsigned first = p[0];                  /* read before the stores, which may alias p */
    *tag = ASN1H_TAG(first >> 6, first & 0x1Fu);
    *form = (first >> 5) & 1u;
    *content_end = p + head + len;
    return p + head;
}

/* The usual headers of a value that may be large: one identifier octet (a tag number below
 * 31), then a definite length that fits, in the short form, or in the 0x81 or 0x82 form
 * with DER's octets.  Sets *tag, *form and *content_end and returns the contents; NULL,
 * with nothing recorded, for any other header. */
ASN1H_INLINE const uint8_t *asn1h_quick_tl(const uint8_t *p, const uint8_t *end, uint32_t *tag,
                                           unsigned *form, const uint8_t **content_end)
{
    if (ASN1H_LIKELY(asn1h_usual_header(p, end)))
        return asn1h_got_tl(p, 2, p[1], tag, form, content_end);
    if (end - p >= 4 && (p[0] & 0x1F) != 0x1F) {
        size_t len = asn1h_load_be16(p + 2);
        if (p[1] == 0x82 && len >= 0x100 && (size_t)(end - p - 4) >= len)
            return asn1h_got_tl(p, 4, len, tag, form, content_end);
        if (p[1] == 0x81 && p[2] >= 0x80 && (size_t)(end - p - 3) >= p[2])
            return asn1h_got_tl(p, 3, p[2], tag, form, content_end);
    }
    return NULL;
}

/* Reads an identifier and a length.  Returns the start of the contents, and sets *tag,
 * *form (ASN1H_FORM_*) and *content_end: the end of the contents when the length is
 * definite, `end` itself when it is indefinite.  Any header but the usual ones goes to
 * asn1h_get_tl_other by a tail call with the same arguments, so that neither needs a
 * stack frame.  asn1h_read_tl is the same out of line, less the 0x81 and 0x82 forms: the
 * interpreter, the compact half of the trade, calls it, and so does asn1h_skip_tlv after
 * its own fast paths.  The inline one serves walks, whose elements often take those
 * forms. */
ASN1H_INLINE const uint8_t *asn1h_get_tl(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                          uint32_t *tag, unsigned *form,
                                          const uint8_t **content_end)
{
    const uint8_t *q = asn1h_quick_tl(p, end, tag, form, content_end);
    return q ? q : asn1h_get_tl_other(d, p, end, tag, form, content_end);
}

const uint8_t *asn1h_read_tl(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                             uint32_t *tag, unsigned *form, const uint8_t **content_end);

/* Peeks at the identifier at p without consuming it; 0 if there is none (end of contents,
 * end-of-contents octets, a malformed identifier).  Tag 0 (UNIVERSAL 0) is reserved, so
 * it never matches. */
uint32_t asn1h_peek_tag_long(const uint8_t *p, const uint8_t *end);
static inline uint32_t asn1h_peek_tag(asn1h_dec *d, const uint8_t *p, const uint8_t *end)
{
    (void)d;                                /* a malformed identifier is no error here */
    if (p >= end)
        return 0;
    if (ASN1H_LIKELY((p[0] & 0x1F) != 0x1F))
        return ASN1H_TAG(p[0] >> 6, p[0] & 0x1Fu);
    return asn1h_peek_tag_long(p, end);
}

/* At the end of constructed contents: `end` reached (definite), or end-of-contents
 * octets next (indefinite). */
static inline int asn1h_at_end(const uint8_t *p, const uint8_t *end, unsigned form)
{
    if (!(form & ASN1H_FORM_INDEF))
        return p >= end;
    return end - p >= 2 && p[0] == 0 && p[1] == 0;
}

/* Closes constructed contents: checks that nothing is left (definite) or consumes the
 * end-of-contents octets (indefinite). */
const uint8_t *asn1h_close(asn1h_dec *d, const uint8_t *p, const uint8_t *end, unsigned form);
/* Skips one complete TLV (any depth of indefinite lengths; strict DER checks every level). */
const uint8_t *asn1h_skip_tlv(asn1h_dec *d, const uint8_t *p, const uint8_t *end);
/* Whether an identifier's first octet holds a tag number 1..30: the usual tag, which the
 * fast paths take (0, end-of-contents in the universal class, and 31, which opens the long
 * form, go the general way). */
static inline int asn1h_one_octet_tag(uint8_t first)
{
    return (unsigned)(first & 0x1F) - 1u < 30u;
}
/* Skips one element of a SEQUENCE OF or SET OF, as the decoders count them before they
 * allocate: the usual one (a tag number 1..30, a short definite length) inline, any
 * other, and every one in DER, through asn1h_skip_tlv. */
static inline const uint8_t *asn1h_skip_definite(asn1h_dec *d, const uint8_t *p,
                                                 const uint8_t *end)
{
    size_t room = (size_t)(end - p);
    if (ASN1H_LIKELY(room >= 2 && asn1h_one_octet_tag(p[0]) && p[1] < 0x80
                     && p[1] <= room - 2 && !(d->flags & ASN1H_DER)))
        return p + 2 + p[1];
    return asn1h_skip_tlv(d, p, end);
}
/* The same, in a list of this `form`: the elements of an indefinite list are rarely
 * definite, and go to asn1h_skip_tlv directly. */
static inline const uint8_t *asn1h_skip_element(asn1h_dec *d, const uint8_t *p,
                                                const uint8_t *end, unsigned form)
{
    return (form & ASN1H_FORM_INDEF) ? asn1h_skip_tlv(d, p, end)
                                     : asn1h_skip_definite(d, p, end);
}
/* Skips one TLV that will be kept as received, checking that it is well formed at every
 * level, within the nesting limit. */
const uint8_t *asn1h_skip_whole(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                unsigned depth);
static inline const uint8_t *asn1h_skip_value(asn1h_dec *d, const uint8_t *p,
                                              const uint8_t *end)
{
    return asn1h_skip_whole(d, p, end, d->depth);
}
/* Whether a TLV with this outermost tag can start a value of the member / the type. */
int asn1h_member_accepts(const asn1h_dec *d, const asn1h_member *m, uint32_t tag);
int asn1h_type_accepts(const asn1h_dec *d, const asn1h_type *t, uint32_t tag);
/* Sets an absent member to its DEFAULT value (or leaves it zero). */
void asn1h_set_default(const asn1h_dec *d, const asn1h_member *m, void *base);

/* Enters a constructed value: one level of the nesting budget. */
#define ASN1H_ENTER(d, p) \
    do { if (ASN1H_UNLIKELY((d)->depth == 0)) return asn1h_fail((d), ASN1H_ERR_DEPTH, (p)); \
         (d)->depth--; } while (0)
#define ASN1H_LEAVE(d) ((d)->depth++)

/* ---- Fast paths for compiled routines ------------------------------------------------ */

/* When p holds the one-octet identifier `id` followed by a DER-minimal definite length in
 * short, 0x81 or 0x82 form that fits before `end`, returns the start of the contents and
 * sets *content_end.  Otherwise returns NULL and the caller takes the general path, which
 * also handles BER's other forms and reports errors. */
ASN1H_INLINE const uint8_t *asn1h_expect(const uint8_t *p, const uint8_t *end, uint8_t id,
                                          const uint8_t **content_end)
{
    size_t avail = (size_t)(end - p), len;
    if (ASN1H_UNLIKELY(avail < 2 || p[0] != id))
        return NULL;
    if (ASN1H_LIKELY(p[1] < 0x80)) {
        len = p[1];
        p += 2;
    } else if (p[1] == 0x81 && avail >= 3 && p[2] >= 0x80) {
        len = p[2];
        p += 3;
    } else if (p[1] == 0x82 && avail >= 4 && p[2] != 0) {
        len = (size_t)p[2] << 8 | p[3];
        p += 4;
    } else {
        return NULL;
    }
    if (ASN1H_UNLIKELY((size_t)(end - p) < len))
        return NULL;
    *content_end = p + len;
    return p;
}

/* A minimal INTEGER of 1..8 octets: its value.  *ok is false otherwise. */
ASN1H_INLINE int64_t asn1h_small_int(const uint8_t *p, const uint8_t *end, int *ok)
{
    size_t len = (size_t)(end - p), i;
    uint64_t u;
    if (ASN1H_UNLIKELY(len - 1 >= 8 || (len > 1 && ((p[0] == 0x00 && !(p[1] & 0x80))
                                                     || (p[0] == 0xFF && (p[1] & 0x80)))))) {
        *ok = 0;
        return 0;
    }
    u = (p[0] & 0x80) ? ~(uint64_t)0 : 0;
    for (i = 0; i < len; i++)
        u = (u << 8) | p[i];
    *ok = 1;
    return (int64_t)u;
}

/* Compiled routines check their position against one bound, computed once: below
 * `safe`, ASN1H_SAFE_ZONE octets can be read (0: the contents are too short for that). */
#define ASN1H_SAFE_ZONE 10
ASN1H_INLINE uintptr_t asn1h_safe(const uint8_t *p, const uint8_t *end)
{
    return end - p >= ASN1H_SAFE_ZONE ? (uintptr_t)(end - ASN1H_SAFE_ZONE) : 0;
}

/* An INTEGER with the one-octet identifier `id`, of 1..8 octets (minimal ones only when
 * `strict`: BER decodes the others to the same value), read with one 8-octet load when 8
 * octets can be read: returns the position after it and sets *value, or NULL (the caller
 * then tries asn1h_expect and asn1h_small_int, then the general path). */
ASN1H_INLINE const uint8_t *asn1h_word_int(const uint8_t *p, uintptr_t safe, uint8_t id,
                                           unsigned strict, int64_t *value)
{
    unsigned len;
    uint64_t w, u, sign;
    if (ASN1H_UNLIKELY((uintptr_t)p > safe))
        return NULL;
    /* identifier and length in one load: id then 1..8, one range check for both */
    len = asn1h_load_be16(p) - ((unsigned)id << 8);
    if (ASN1H_UNLIKELY(len - 1 >= 8))
        return NULL;
    w = asn1h_load_be64(p + 2);
    /* not minimal: the first nine bits all the same */
    if (ASN1H_UNLIKELY(strict) && len > 1 && (uint64_t)((w >> 55) + 1) % 512 <= 1)
        return NULL;
    if ((-2 >> 1) == -1) {                  /* arithmetic shifts (every common compiler) */
        *value = (int64_t)w >> (64 - 8 * len);
    } else {
        u = w >> (64 - 8 * len);
        sign = (uint64_t)1 << (8 * len - 1);
        *value = (int64_t)((u ^ sign) - sign);
    }
    return p + 2 + len;
}

/* A small INTEGER: the word-wide path, else the octet loop; NULL when neither applies. */
ASN1H_INLINE const uint8_t *asn1h_fast_int(const uint8_t *p, const uint8_t *end, uintptr_t safe,
                                           uint8_t id, unsigned strict, int64_t *value)
{
    const uint8_t *c, *ce, *q = asn1h_word_int(p, safe, id, strict, value);
    int ok;
    if (ASN1H_LIKELY(q != NULL))
        return q;
    if ((c = asn1h_expect(p, end, id, &ce)) != NULL && (*value = asn1h_small_int(c, ce, &ok), ok))
        return ce;
    return NULL;
}

/* A BOOLEAN in DER form (00 or FF). */
ASN1H_INLINE const uint8_t *asn1h_fast_bool(const uint8_t *p, const uint8_t *end, uintptr_t safe,
                                            uint8_t id, bool *value)
{
    if (ASN1H_LIKELY(((uintptr_t)p <= safe || end - p >= 3)
                     && asn1h_load_be16(p) == (unsigned)(id << 8 | 1)
                     && (uint8_t)(p[2] + 1) <= 1)) {
        *value = p[2] != 0;
        return p + 3;
    }
    return NULL;
}

/* An untagged open type (ANY) at p: its whole TLV kept as received, its framing checked. */
const uint8_t *asn1h_decode_open(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                 asn1h_open *v);

/* The general path of a compiled routine: decodes member m, or reports it missing. */
const uint8_t *asn1h_decode_required(asn1h_dec *d, const asn1h_member *m, const uint8_t *p,
                                     const uint8_t *end, unsigned form, void *base);
/* Strict DER, after a DEFAULT member was decoded at `at`: 0 (error recorded) when its value
 * is the default, which DER leaves out. */
int asn1h_der_default_ok(asn1h_dec *d, const asn1h_member *m, const void *base,
                         const uint8_t *at);
/* The extension entry of an extensible SEQUENCE or SET: where its unknown additions come
 * (`type`: the member they precede) and are kept (`offset`: its asn1h_bytes unknown_). */
static inline const asn1h_member *asn1h_extension_entry(const asn1h_spec *spec,
                                                        const asn1h_type *t)
{
    return &spec->members[t->first + t->count];
}
/* Unknown extensions received in PER are kept in `unknown_` as a record that no BER TLV
 * can be taken for (an identifier octet is never 00): 00, the length of the extension
 * bitmap received (2 octets; 0 for a CHOICE), then for each addition (or the one unknown
 * alternative) its index among the extensions (2 octets), the length of its open type (4
 * octets) and the open type's octets (asn1h_per.c).  A BER encoder leaves such additions
 * out, and refuses such an alternative: their tags are not known. */
#define ASN1H_KEPT_PER 0x00u
static inline int asn1h_kept_in_per(const asn1h_bytes *kept)
{
    return kept->len && kept->buf[0] == ASN1H_KEPT_PER;
}
static inline int asn1h_member_absent_ok(const asn1h_member *m)
{
    return (m->flags & (ASN1H_M_OPTIONAL | ASN1H_M_DEFAULT | ASN1H_M_EXTENSION)) != 0;
}
/* Unknown extensions (asn1h_received.c; the interpreter calls them through spec->codecs):
 *   take_unknown        at the extension marker of SEQUENCE t: its unknown additions,
 *                       every TLV that no later member takes, kept in the value v (unless
 *                       ASN1H_DROP_UNKNOWN)
 *   keep_set_unknown    once a SET's components [p, end) are read: its unknown ones copied
 *                       into the arena with DER framing, in tag order, into v
 *   unknown_alternative whether untagged member i of SEQUENCE t, an extensible CHOICE,
 *                       takes a TLV whose tag none of its alternatives has
 *   member_present      whether the TLV at p is member i (such a CHOICE, OPTIONAL)
 *   encode_with_unknown the members of a SEQUENCE or SET value that holds unknown
 *                       additions, those written back where they belong
 *   put_unknown         unknown additions kept as received, written back (put_received) */
const uint8_t *asn1h_take_unknown(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                  const uint8_t *end, unsigned form, void *v);
int asn1h_keep_set_unknown(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                           const uint8_t *end, void *v);
int asn1h_unknown_alternative(const asn1h_dec *d, const asn1h_type *t, unsigned i,
                              uint32_t tag);
int asn1h_member_present(asn1h_dec *d, const asn1h_type *t, unsigned i, const uint8_t *p,
                         const uint8_t *end, unsigned form);
uint8_t *asn1h_encode_with_unknown(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                   const void *v);
uint8_t *asn1h_put_unknown(asn1h_enc *e, uint8_t *p, const asn1h_bytes *kept);
/* The first TLV of the DER TLVs [p, end), sorted by tag, whose tag is above `tag`. */
const uint8_t *asn1h_tags_above(const uint8_t *p, const uint8_t *end, uint32_t tag);
/* Decodes the open types of a SEQUENCE/SET whose table constraint names their type
 * (asn1h_received.c, through spec->codecs). */
const uint8_t *asn1h_resolve_open_types(asn1h_dec *d, const asn1h_type *t, void *value);
/* Writes values kept as received (an open type, an unknown alternative, unknown
 * additions: one TLV or several in a row) with DER framing (asn1h_received.c, through
 * spec->codecs).  In a build of DER's forms, asn1h_put_der_received writes those whose
 * framing is DER's already and refuses the others (ASN1H_ERR_NO_DER). */
uint8_t *asn1h_put_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len);
uint8_t *asn1h_put_der_received(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len);
/* UTCTime (universal 23) and GeneralizedTime (24), asn1h_time.c: whether the octets are a
 * time of X.680; whether they are one in its DER form (X.690 11.7, 11.8); the DER form of
 * a time, 0 when it has none (a local time); decoding and writing a time's contents. */
#define ASN1H_TIME_MAX 64
int asn1h_is_time(const uint8_t *p, const uint8_t *end, unsigned universal);
int asn1h_is_der_time(const uint8_t *p, const uint8_t *end, unsigned universal);
size_t asn1h_der_time(const uint8_t *p, const uint8_t *end, unsigned universal,
                      uint8_t out[ASN1H_TIME_MAX]);
const uint8_t *asn1h_dec_time(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                              const uint8_t *end, unsigned form, asn1h_bytes *v);
uint8_t *asn1h_put_time(asn1h_enc *e, uint8_t *p, const asn1h_bytes *v, unsigned universal);
/* The same in a build of DER's forms of strings and times (--encoding der): times in DER
 * form only, the others refused (ASN1H_ERR_NOT_DER, ASN1H_ERR_NO_DER). */
const uint8_t *asn1h_dec_der_time(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                  const uint8_t *end, unsigned form, asn1h_bytes *v);
uint8_t *asn1h_put_der_time(asn1h_enc *e, uint8_t *p, const asn1h_bytes *v,
                            unsigned universal);
/* SET contents, asn1h_decode.c: the components in any order (in tag order in DER). */
const uint8_t *asn1h_dec_set(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                             const uint8_t *end, unsigned form, void *v);
/* REAL contents (X.690 8.5, 11.3), asn1h_real.c. */
const uint8_t *asn1h_dec_real(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                              unsigned form, double *v);
uint8_t *asn1h_enc_real(asn1h_enc *e, uint8_t *p, double v);
/* ENUMERATED contents, asn1h_decode.c: one of the type's numbers, or an addition's when it
 * is extensible.  asn1h_encode.c: an extensible type's number, refused when it looks like
 * an addition kept by index (asn1h.h) that is not one of the type's own. */
const uint8_t *asn1h_dec_enumerated(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                    const uint8_t *end, unsigned form, void *v);
uint8_t *asn1h_enc_enumerated(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v);
/* DER: whether the element encoded in [previous, at) sorts before the one in [at, end). */
int asn1h_der_ascending(const uint8_t *previous, const uint8_t *at, const uint8_t *end);
/* OBJECT IDENTIFIER / RELATIVE-OID contents: subidentifiers in the fewest octets. */
const uint8_t *asn1h_check_oid(asn1h_dec *d, const uint8_t *p, const uint8_t *end, int relative);

/* ---- Primitive contents decoders (p..end is exactly the contents) -------------------- */

/* The C storage of an INTEGER or ENUMERATED (ASN1H_INT_*). */
static inline unsigned asn1h_storage(const asn1h_type *t)
{
    return t->aux;
}

/* A value stored as `storage`, as a number (ASN1H_INT_BIG excepted). */
int64_t asn1h_load_int(unsigned storage, const void *v);

/* Whether x is one of ENUMERATED t's own numbers. */
static inline int asn1h_enum_known(const asn1h_spec *spec, const asn1h_type *t, int64_t x)
{
    unsigned i;
    if (t->flags & ASN1H_T_DENSE)
        return x >= 0 && x < (int64_t)t->count;
    for (i = 0; i < t->count; i++)
        if (spec->enum_values[t->first + i] == x)
            return 1;
    return 0;
}

/* Reads a value's own tags (explicit wrappers, then its identifier) and its contents;
 * writes them.  For open types' values and the top of asn1h_decode/asn1h_encode. */
const uint8_t *asn1h_decode_tagged(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                   const uint8_t *end, void *v);
uint8_t *asn1h_encode_tagged(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v);
/* A member's effective tags, through spec->codecs (asn1h_codecs). */
unsigned asn1h_member_tags(const asn1h_spec *spec, const asn1h_type *types,
                           const asn1h_member *m, uint32_t *buf, const uint32_t **tags);

const uint8_t *asn1h_dec_bytes(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                               unsigned form, asn1h_bytes *v);
/* A constructed string's segments (with universal tag segment_tag), concatenated into the
 * arena; *unused: a BIT STRING's unused bits.  Through spec->codecs: BER's alone. */
const uint8_t *asn1h_dec_constructed(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                     unsigned form, uint32_t segment_tag, asn1h_bytes *v,
                                     uint8_t *unused);
const uint8_t *asn1h_dec_int(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                             const uint8_t *end, void *v);

/* ---- Presence bits ------------------------------------------------------------------- */

/* present_[] is the first member of a SEQUENCE's or SET's struct. */
static inline void asn1h_set_bit(void *base, unsigned bit)
{
    ((uint8_t *)base)[bit >> 3] |= (uint8_t)(1u << (bit & 7));
}

static inline int asn1h_get_bit(const void *base, unsigned bit)
{
    return (((const uint8_t *)base)[bit >> 3] >> (bit & 7)) & 1;
}

/* SEQUENCE OF / SET OF share the layout { T *items; size_t count; }.  The interpreter
 * reaches it through memcpy, so that it never aliases the generated struct types. */
static inline void asn1h_array_get(const void *v, void **items, size_t *count)
{
    memcpy(items, v, sizeof *items);
    memcpy(count, (const uint8_t *)v + sizeof(void *), sizeof *count);
}

static inline void asn1h_array_set(void *v, void *items, size_t count)
{
    memcpy(v, &items, sizeof items);
    memcpy((uint8_t *)v + sizeof(void *), &count, sizeof count);
}

/* The open types that a table constraint of SEQUENCE/SET t names, in its decoded value v,
 * for BER (asn1h_received.c) and PER (asn1h_per.c), each with its own `resolve` (which
 * decodes `open` as the type of its key's row, and when `lenient`, an OCTET STRING
 * CONTAINING, leaves octets that do not decode raw): open types and OCTET STRINGs
 * CONTAINING one, keyed by a member beside them; the elements of a list of open types
 * keyed by a member beside the list (an Attribute's values).  Inline, so that each codec
 * calls its own directly.  0 after an error, the member (and index) on the path. */
typedef int asn1h_resolve_fn(void *ctx, const asn1h_type *t, const void *v,
                             const asn1h_type *ot, asn1h_open *open, int lenient);
static inline int asn1h_each_open_type(asn1h_dec *d, const asn1h_type *t, void *v,
                                       asn1h_resolve_fn *resolve, void *ctx)
{
    unsigned i;
    for (i = 0; i < t->count; i++) {
        const asn1h_member *m = &d->spec->members[t->first + i];
        const asn1h_type *mt = asn1h_member_type(d->types, m);
        if (m->flags & ASN1H_M_POINTER)
            continue;
        if ((mt->kind == ASN1H_OPEN || (mt->flags & ASN1H_T_CONTAINING)) && mt->count) {
            if (!resolve(ctx, t, v, mt, (asn1h_open *)((uint8_t *)v + m->offset),
                         mt->kind != ASN1H_OPEN)) {
                asn1h_unwind(d, m);
                return 0;
            }
        } else if (mt->kind == ASN1H_SEQUENCE_OF || mt->kind == ASN1H_SET_OF) {
            const asn1h_member *element = &d->spec->members[mt->first];
            const asn1h_type *et = asn1h_member_type(d->types, element);
            void *items;
            size_t count, k;
            if (et->kind != ASN1H_OPEN || !et->count || (element->flags & ASN1H_M_POINTER))
                continue;
            asn1h_array_get((uint8_t *)v + m->offset, &items, &count);
            for (k = 0; k < count; k++)
                if (!resolve(ctx, t, v, et, (asn1h_open *)items + k, 0)) {
                    asn1h_unwind_index(d, k);
                    asn1h_unwind(d, m);
                    return 0;
                }
        }
    }
    return 1;
}

/* ---- Encoding (backwards from p) ----------------------------------------------------- */

/* Returns (after recording ASN1H_ERR_BUFFER) unless n octets can be written below p. */
#define ASN1H_ROOM(e, p, n) \
    do { if (ASN1H_UNLIKELY((size_t)((p) - (e)->start) < (size_t)(n))) \
             return asn1h_enc_fail((e), ASN1H_ERR_BUFFER); } while (0)

uint8_t *asn1h_put_len_long(asn1h_enc *e, uint8_t *p, size_t len);
uint8_t *asn1h_put_tag_long(asn1h_enc *e, uint8_t *p, uint32_t tag, unsigned constructed);

static inline uint8_t *asn1h_put_len(asn1h_enc *e, uint8_t *p, size_t len)
{
    if (ASN1H_LIKELY(len < 0x80 && p > e->start)) {
        *--p = (uint8_t)len;
        return p;
    }
    return asn1h_put_len_long(e, p, len);
}

static inline uint8_t *asn1h_put_tag(asn1h_enc *e, uint8_t *p, uint32_t tag, unsigned constructed)
{
    uint32_t number = tag & 0x3FFFFFFFu;
    if (ASN1H_LIKELY(number < 31 && p > e->start)) {
        *--p = (uint8_t)((tag >> 30) << 6 | constructed << 5 | number);
        return p;
    }
    return asn1h_put_tag_long(e, p, tag, constructed);
}

/* Writes `len` octets before p: inline where the code is built for speed; where it is
 * built for size (-Os), one copy in asn1h_ber.c, since gcc would keep one per file. */
uint8_t *asn1h_put_raw_out(asn1h_enc *e, uint8_t *p, const void *buf, size_t len);
#ifdef __OPTIMIZE_SIZE__
#define asn1h_put_raw asn1h_put_raw_out
#else
#define asn1h_put_raw asn1h_put_raw_inline
#endif
static inline uint8_t *asn1h_put_raw_inline(asn1h_enc *e, uint8_t *p, const void *buf,
                                            size_t len)
{
    if (ASN1H_UNLIKELY((size_t)(p - e->start) < len))
        return asn1h_enc_fail(e, ASN1H_ERR_BUFFER);
    p -= len;
    if (len >= 4 && len <= 8) {             /* two overlapping 4-octet moves, no call */
        memcpy(p, buf, 4);
        memcpy(p + len - 4, (const uint8_t *)buf + len - 4, 4);
    } else if (len && len < 4) {            /* first, middle, last */
        const uint8_t *s = (const uint8_t *)buf;
        p[0] = s[0];
        p[len / 2] = s[len / 2];
        p[len - 1] = s[len - 1];
    } else if (len) {
        memcpy(p, buf, len);
    }
    return p;
}

/* Writes a one-octet identifier and the length of the `len` octets that follow. */
static inline uint8_t *asn1h_put_tl1(asn1h_enc *e, uint8_t *p, size_t len, uint8_t id)
{
    if (ASN1H_LIKELY(len < 0x80 && p - e->start >= 2)) {
        p[-1] = (uint8_t)len;
        p[-2] = id;
        return p - 2;
    }
    if (!(p = asn1h_put_len_long(e, p, len)))
        return NULL;
    if (p <= e->start)
        return asn1h_enc_fail(e, ASN1H_ERR_BUFFER);
    *--p = id;
    return p;
}

/* A primitive value of `len` contents octets under the one-octet identifier `id`: out of
 * line, so that each string member of a compiled encoder costs a call, not a copy loop. */
uint8_t *asn1h_put_primitive(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len,
                             uint8_t id);

/* DER: sorts the SET OF element encodings in [p, end) into ascending order, in place. */
void asn1h_sort_set_of(uint8_t *p, uint8_t *end);
/* DER: sorts the SET component encodings in [p, end) by their tags, in place: needed when
 * an untagged CHOICE component is placed by the tag of its alternative (X.690 10.3). */
void asn1h_sort_set_components(uint8_t *p, uint8_t *end);

/* Contents of an INTEGER: minimal two's complement. */
uint8_t *asn1h_put_int64(asn1h_enc *e, uint8_t *p, int64_t v);
uint8_t *asn1h_put_uint64(asn1h_enc *e, uint8_t *p, uint64_t v);
uint8_t *asn1h_enc_int(asn1h_enc *e, const asn1h_type *t, uint8_t *p, const void *v);
/* An INTEGER's minimal two's-complement contents octets: in scratch, or its own `big`. */
const uint8_t *asn1h_int_octets(const asn1h_type *t, const void *v, uint8_t scratch[10],
                                size_t *len);

/* Whether two values kept as received (open types, unknown alternatives, runs of unknown
 * additions) are the same values, whatever the BER framing of each (asn1h_received.c). */
int asn1h_received_equal(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* Whether an absent-able member must be encoded: it is present, and (DEFAULT) its value
 * is not the default, which DER leaves out (compared by their DER contents). */
int asn1h_member_encoded(const asn1h_spec *spec, const asn1h_member *m, const void *base);
/* Whether DEFAULT member m of the value at base holds its default, whatever its kind and
 * default: the general test, a part of the runtime (spec->codecs->is_default) */
int asn1h_is_default(const asn1h_spec *spec, const asn1h_member *m, const void *base);

/* ---- PER for compiled routines (asn1h_per.c) -----------------------------------------
 * A compiled SEQUENCE's or CHOICE's PER routines (`compiled`, the spec's array that
 * asn1h_decode_per_with and asn1h_encode_per_with are given, by asn1h_type.aux - 1) read
 * the preamble, the choice index and the members of the common kinds inline, through
 * these; every other member, and the extension additions, they leave to the tables.
 * Positions are in bits, most significant first. */
typedef struct asn1h_per_in {
    asn1h_dec *d;
    const uint8_t *buf;
    size_t pos, end;
    unsigned aligned;
    const struct asn1h_per_routines *compiled;  /* NULL: the tables for every type */
    /* CANONICAL-PER (asn1h_decode_per_canonical): whether a decoded SET OF's elements are
     * in order (0 after an error), asked once the tables or its compiled routine have
     * read it; NULL: any order */
    int (*order)(struct asn1h_per_in *r, const asn1h_type *t, const void *v, size_t at);
} asn1h_per_in;

typedef struct asn1h_per_out {
    asn1h_enc *e;
    uint8_t *buf;                   /* NULL: only measure */
    size_t pos, cap;
    unsigned aligned;
    unsigned canonical;             /* SET OF elements sorted (ASN1H_PER_CANONICAL) */
    const struct asn1h_per_routines *compiled;
} asn1h_per_out;

struct asn1h_per_routines {
    int (*decode)(asn1h_per_in *r, const asn1h_type *t, void *value);
    int (*encode)(asn1h_per_out *w, const asn1h_type *t, const void *value);
};

/* n bits (at most 64) into *v; a constrained whole number in [0, range] (X.691 11.5.7). */
int asn1h_per_bits(asn1h_per_in *r, unsigned n, uint64_t *v);
int asn1h_per_number(asn1h_per_in *r, uint64_t range, uint64_t *v);
/* The next n bits (at most 57) into *v without taking them; 0, and no error, when fewer
 * are left.  A compiled routine reads several fields at once with it, and goes the
 * usual way when it cannot (so that an error is the one the tables give). */
int asn1h_per_peek(asn1h_per_in *r, unsigned n, uint64_t *v);
/* A member by the tables (or its type's compiled routine), its name on the error path. */
int asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base);
/* After an extension bit of 1: a SEQUENCE's additions; a CHOICE's alternative. */
int asn1h_per_additions(asn1h_per_in *r, const asn1h_type *t, void *v);
int asn1h_per_addition_alternative(asn1h_per_in *r, const asn1h_type *t, void *v);
/* After an error: the member's name on its path; returns 0. */
int asn1h_per_unwind(asn1h_per_in *r, const asn1h_member *m);

/* A string member that a compiled routine reads and writes itself (emit/per_routines.py):
 * a BIT STRING without named bits, an OCTET STRING, or a known-multiplier string whose
 * alphabet is its type's own (no PER-visible FROM), its PER-visible size and alphabet
 * worked out by the generator, as the tables' bounds_of and alphabet_of would. */
#define ASN1H_PER_OCTETS     0u
#define ASN1H_PER_BIT_STRING 1u
#define ASN1H_PER_CHARACTERS 2u
typedef struct asn1h_per_shape {
    uint8_t form;                   /* ASN1H_PER_OCTETS, _BIT_STRING or _CHARACTERS */
    uint8_t per;                    /* ASN1H_PER_SIZE, _SIZE_UB, _SIZE_EXT */
    uint8_t unit, numeric;          /* characters: octets each in the C value; Numeric */
    uint8_t bits[2], indexed[2];    /* characters: bits each, and whether they go as
                                       indices, unaligned and aligned */
    uint32_t lowest, count, largest;/* characters: the type's repertoire */
    uint64_t size_lb, size_ub;
} asn1h_per_shape;
int asn1h_per_string(asn1h_per_in *r, const asn1h_per_shape *s, void *v);
int asn1h_per_put_string(asn1h_per_out *w, const asn1h_per_shape *s, const void *v);
/* The same for a string of characters that go as their own values (not indices, one
 * octet each in the C value), with SIZE (lb..ub), ub - lb < 255, the generator's choice:
 * in UPER one word when it takes at most 57 bits, in APER its octets where they lie;
 * anything else as asn1h_per_string and asn1h_per_put_string take it. */
int asn1h_per_short_string(asn1h_per_in *r, const asn1h_per_shape *s, asn1h_bytes *v);
int asn1h_per_put_short_string(asn1h_per_out *w, const asn1h_per_shape *s,
                               const asn1h_bytes *v);

int asn1h_per_put_bits(asn1h_per_out *w, unsigned n, uint64_t v);
int asn1h_per_put_number(asn1h_per_out *w, uint64_t range, uint64_t v);
int asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base);
/* The tables write the whole of an extensible SEQUENCE that has an extension addition
 * to write (known, or kept from PER: the compiled encoder tests their presence bits), or
 * a CHOICE's value that is not a root alternative (an addition, one kept from PER, or an
 * error), or a list whose count needs fragments. */
int asn1h_per_by_tables(asn1h_per_out *w, const asn1h_type *t, const void *v);

/* A compiled SEQUENCE OF or SET OF, as the tables read it: the count (extension bit,
 * bounds, length determinant) and room for the elements in the arena, set into the list
 * value v: 1; 0 after an error; 2 when the count came in 16K fragments and the tables
 * decoded the whole list.  *in_bounds tells whether the count is within the root's
 * bounds: else, once its elements are decoded, asn1h_per_out_of_bounds refuses it. */
int asn1h_per_items(asn1h_per_in *r, const asn1h_type *t, void *v, size_t size,
                    int *in_bounds);
int asn1h_per_out_of_bounds(asn1h_per_in *r);
/* Room for n elements, set into v (a count the routine read inline). */
int asn1h_per_alloc_items(asn1h_per_in *r, const asn1h_type *t, void *v, size_t n,
                          size_t size);
/* After an error in element i: its member (unless NULL: already there) and index on the
 * path; returns 0. */
int asn1h_per_unwind_item(asn1h_per_in *r, const asn1h_member *m, size_t i);
/* The count as the tables write it: 1; 0 after an error; 2 when it needs 16K fragments
 * (nothing written: asn1h_per_by_tables writes the list). */
int asn1h_per_put_items(asn1h_per_out *w, const asn1h_type *t, size_t count);
int asn1h_per_put_unwind_item(asn1h_per_out *w, const asn1h_member *m, size_t i);

#ifdef __cplusplus
}
#endif
#endif /* ASN1H_BER_H */
