/* asn1h_per.c: the Packed Encoding Rules (X.691), unaligned and aligned, by the tables.
 *
 * The same C values as BER, the same tables: a type's PER-visible constraint is in its
 * constraint record (asn1h_constraint: `per` flags, the root's bounds, the permitted
 * characters), ENUMERATED roots are sorted by value, a SEQUENCE's extension entry says
 * which additions are groups.  Bits go most significant first.  Decoding copies what is
 * not octet-aligned into the arena; encoding writes forwards into the caller's buffer,
 * an open type (an extension addition, an alternative, a ProtocolIE's value) after room
 * for its length, which is set once the open type is written (enc_in_open). */
#include <stdlib.h>

#include "asn1h_ber.h"

typedef asn1h_per_in per_in;               /* positions in bits */
typedef asn1h_per_out per_out;

#define FRAGMENT 16384u

/* ---- What the tables say about a type ------------------------------------------------ */

typedef struct per_bounds {
    unsigned flags;                 /* ASN1H_PER_* */
    int64_t lb, ub;                 /* values */
    uint64_t size_lb, size_ub;      /* sizes (size_ub: with ASN1H_PER_SIZE_UB) */
    const int64_t *chars;           /* permitted characters: intervals */
    unsigned nchars;
} per_bounds;

static per_bounds bounds_of(const asn1h_spec *spec, const asn1h_type *t)
{
    per_bounds b;
    memset(&b, 0, sizeof b);
    if (asn1h_constrained(t)) {
        const asn1h_constraint *c = &spec->constraints[t->extra - 1];
        const int64_t *pair = spec->bounds + 2 * (size_t)c->per_first;
        b.flags = c->per;
        if (b.flags & (ASN1H_PER_LB | ASN1H_PER_UB)) {
            b.lb = pair[0];
            b.ub = pair[1];
            pair += 2;
        }
        if (b.flags & ASN1H_PER_SIZE) {
            b.size_lb = (uint64_t)pair[0];
            b.size_ub = (uint64_t)pair[1];
            pair += 2;
        }
        if (b.flags & ASN1H_PER_CHARS) {
            b.chars = pair;
            b.nchars = c->per_chars;
        }
    }
    return b;
}

/* Whether a value of t needs its constraint checked beyond what PER encodes. */
ASN1H_INLINE int to_check(const asn1h_spec *spec, const asn1h_type *t)
{
    return ASN1H_UNLIKELY(t->extra) && asn1h_constrained(t) && spec->codecs->satisfies
        && !(spec->constraints[t->extra - 1].per & ASN1H_PER_DECIDES);
}

static unsigned bit_length(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;     /* one instruction, not a loop */
#else
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
#endif
}

/* The octets that hold v, at least 1. */
static unsigned octet_length(uint64_t v)
{
    return v ? (bit_length(v) + 7) / 8 : 1;
}

/* ---- Reading bits ---------------------------------------------------------------------- */

static const uint8_t *in_at(const per_in *r)
{
    return r->buf + r->pos / 8;
}

static int in_fail(per_in *r, asn1h_code code)
{
    asn1h_fail(r->d, code, in_at(r));
    return 0;
}

static int get_bits(per_in *r, unsigned n, uint64_t *v)
{
    size_t i = r->pos >> 3;
    unsigned bit = (unsigned)(r->pos & 7);
    uint64_t x = 0;
    if (n > r->end - r->pos)
        return in_fail(r, ASN1H_ERR_TRUNCATED);
    if (n && bit + n <= 64) {
        if ((r->end >> 3) - i >= 8) {       /* eight octets of input: one load (USC) */
            x = asn1h_load_be64(r->buf + i) << bit >> (64 - n);
        } else {                            /* near the end: the octets holding them */
            size_t last = (r->pos + n - 1) >> 3;
            unsigned loaded = 8 * (unsigned)(last - i + 1);
            for (; i <= last; i++)
                x = x << 8 | r->buf[i];
            x >>= loaded - bit - n;
            x = n == 64 ? x : x & ((UINT64_C(1) << n) - 1);
        }
        *v = x;
        r->pos += n;
        return 1;
    }
    while (n) {
        unsigned take = 8 - bit;
        uint8_t byte = r->buf[r->pos >> 3];
        if (take > n)
            take = n;
        x = (x << take) | (uint64_t)((byte >> (8 - bit - take)) & ((1u << take) - 1));
        r->pos += take;
        n -= take;
        bit = (unsigned)(r->pos & 7);
    }
    *v = x;
    return 1;
}

/* get_bits, with its usual case inline: n <= 57 bits while 8 octets of input remain
 * (then the input holds them).  For the numbers and lengths read everywhere. */
ASN1H_INLINE int get_bits_inline(per_in *r, unsigned n, uint64_t *v)
{
    if (ASN1H_LIKELY(n - 1 < 57 && (r->end >> 3) - (r->pos >> 3) >= 8)) {
        *v = asn1h_load_be64(r->buf + (r->pos >> 3)) << (r->pos & 7) >> (64 - n);
        r->pos += n;
        return 1;
    }
    return get_bits(r, n, v);
}

/* n bits (1 <= n <= 57) that the input is known to hold: one load, or get_bits near the
 * end of the input (its checks then pass). */
ASN1H_INLINE uint64_t read_bits(per_in *r, unsigned n)
{
    uint64_t x;
    if ((r->end >> 3) - (r->pos >> 3) >= 8) {
        x = asn1h_load_be64(r->buf + (r->pos >> 3)) << (r->pos & 7) >> (64 - n);
        r->pos += n;
        return x;
    }
    get_bits(r, n, &x);
    return x;
}

static int get_bit(per_in *r, unsigned *bit)
{
    uint64_t v;
    if (!get_bits(r, 1, &v))
        return 0;
    *bit = (unsigned)v;
    return 1;
}

static int in_align(per_in *r)
{
    if (r->aligned) {
        size_t to = (r->pos + 7) & ~(size_t)7;
        if (to > r->end)
            return in_fail(r, ASN1H_ERR_TRUNCATED);
        r->pos = to;
    }
    return 1;
}

/* Copies the n octets at the reading position into out, without moving on. */
ASN1H_INLINE void copy_octets(const per_in *r, uint8_t *out, size_t n)
{
    const uint8_t *p = in_at(r);
    unsigned shift = (unsigned)(r->pos & 7);
    size_t i;
    if (!shift) {
        if (n)
            memcpy(out, p, n);
        return;
    }
    /* each octet from two: p[n] still holds bits of the last, since pos + 8n <= end;
       eight at a time while they last (USC's word-wide copy) */
    for (i = 0; i + 8 <= n; i += 8)
        asn1h_store_be64(out + i, asn1h_load_be64(p + i) << shift | p[i + 8] >> (8 - shift));
    for (; i < n; i++)
        out[i] = (uint8_t)(p[i] << shift | p[i + 1] >> (8 - shift));
}

/* n octets, from an octet boundary (zero-copy) or copied into the arena. */
static const uint8_t *get_octets(per_in *r, size_t n)
{
    uint8_t *out;
    if (n > (r->end - r->pos) / 8)
        return (const uint8_t *)(in_fail(r, ASN1H_ERR_TRUNCATED), NULL);
    if (!(r->pos & 7)) {
        const uint8_t *p = in_at(r);
        r->pos += 8 * n;
        return p;
    }
    if (!(out = (uint8_t *)asn1h_arena_alloc(r->d->arena, n ? n : 1)))
        return (const uint8_t *)(in_fail(r, ASN1H_ERR_MEMORY), NULL);
    copy_octets(r, out, n);
    r->pos += 8 * n;
    return out;
}

/* X.691 11.5.7: a constrained whole number in [0, range]. */
static int get_constrained(per_in *r, uint64_t range, uint64_t *v)
{
    if (range == 0) {
        *v = 0;
        return 1;
    }
    if (!r->aligned || range < 255) {
        if (!get_bits_inline(r, bit_length(range), v))
            return 0;
    } else if (range == 255) {
        if (!in_align(r) || !get_bits(r, 8, v))
            return 0;
    } else if (range < 65536) {
        if (!in_align(r) || !get_bits(r, 16, v))
            return 0;
    } else {                                /* the indefinite-length case: octets, counted */
        uint64_t n;
        if (!get_constrained(r, octet_length(range) - 1, &n) || !in_align(r)
            || !get_bits(r, 8 * ((unsigned)n + 1), v))
            return 0;
    }
    if (*v > range)
        return in_fail(r, ASN1H_ERR_CONSTRAINT);
    return 1;
}

/* get_constrained, with the usual case inline: a range of 1 to 254 (a bit-field in both
 * variants) read with one load while eight octets are left. */
ASN1H_INLINE int get_number(per_in *r, uint64_t range, uint64_t *v)
{
    if (ASN1H_LIKELY(range - 1 < 254 && (r->end >> 3) - (r->pos >> 3) >= 8)) {
        unsigned n = bit_length(range);
        uint64_t x = asn1h_load_be64(r->buf + (r->pos >> 3)) << (r->pos & 7) >> (64 - n);
        r->pos += n;
        *v = x;
        if (ASN1H_LIKELY(x <= range))
            return 1;
        return in_fail(r, ASN1H_ERR_CONSTRAINT);
    }
    return get_constrained(r, range, v);
}

/* X.691 11.9: a length determinant.  With an upper bound below 64K, a constrained whole
 * number; otherwise an octet (or two) that may announce a fragment of m * 16K, in which
 * case *more is set and another length follows the items. */
static int get_length(per_in *r, uint64_t lb, uint64_t ub, int bounded, size_t *n, int *more)
{
    uint64_t v;
    *more = 0;
    if (bounded && ub < 65536) {
        if (!get_number(r, ub - lb, &v))
            return 0;
        *n = (size_t)(lb + v);
        return 1;
    }
    if (!in_align(r) || !get_bits_inline(r, 8, &v))
        return 0;
    if (!(v & 0x80)) {
        *n = (size_t)v;
    } else if (!(v & 0x40)) {
        uint64_t low;
        if (!get_bits(r, 8, &low))
            return 0;
        *n = (size_t)(((v & 0x3F) << 8) | low);
    } else {
        v &= 0x3F;
        if (v < 1 || v > 4)
            return in_fail(r, ASN1H_ERR_LENGTH);
        *n = (size_t)v * FRAGMENT;
        *more = 1;
    }
    return 1;
}

/* X.691 11.6: a normally small non-negative whole number. */
static int get_small(per_in *r, uint64_t *v)
{
    unsigned big;
    size_t n;
    int more;
    if (!get_bit(r, &big))
        return 0;
    if (!big)
        return get_bits(r, 6, v);
    if (!get_length(r, 0, 0, 0, &n, &more))
        return 0;
    if (more || n == 0 || n > 8)
        return in_fail(r, ASN1H_ERR_LENGTH);
    return in_align(r) && get_bits(r, 8 * (unsigned)n, v);
}

/* An open type's octets (X.691 11.2), fragments joined in the arena. */
static const uint8_t *get_open(per_in *r, size_t *len)
{
    size_t n, total = 0;
    int more;
    const uint8_t *first = NULL;
    uint8_t *joined = NULL;
    do {
        const uint8_t *part;
        if (!get_length(r, 0, 0, 0, &n, &more) || !(part = get_octets(r, n)))
            return NULL;
        if (!first && !more) {
            *len = n;
            return part;
        }
        {
            uint8_t *grown = (uint8_t *)asn1h_arena_alloc(r->d->arena, total + n + 1);
            if (!grown)
                return (const uint8_t *)(in_fail(r, ASN1H_ERR_MEMORY), NULL);
            if (total)
                memcpy(grown, joined, total);
            memcpy(grown + total, part, n);
            joined = grown;
            total += n;
            first = joined;
        }
    } while (more);
    *len = total;
    return joined;
}

/* ---- Writing bits ---------------------------------------------------------------------- */

static int out_fail(per_out *w, asn1h_code code)
{
    asn1h_enc_fail(w->e, code);
    return 0;
}

/* The partial octet's bits, then v's n bits (bit + n <= 64), as the word to store from
 * that octet: what follows them is not written yet, and takes 0s. */
ASN1H_INLINE uint64_t merged_word(const per_out *w, unsigned n, uint64_t v)
{
    unsigned bit = (unsigned)(w->pos & 7);
    uint64_t x = (v << (64 - n)) >> bit;
    if (bit)                                /* octet-aligned in APER, mostly: no load */
        x |= (uint64_t)(w->buf[w->pos >> 3] & (0xFF00u >> bit)) << 56;  /* its first bits */
    return x;
}

static int put_bits(per_out *w, unsigned n, uint64_t v)
{
    size_t i = w->pos >> 3;
    unsigned bit = (unsigned)(w->pos & 7);
    if (n > w->cap - w->pos)
        return out_fail(w, ASN1H_ERR_BUFFER);
    if (w->buf && n) {
        if (bit + n <= 64) {                /* in one word */
            uint64_t x = merged_word(w, n, v);
            if ((w->cap >> 3) - i >= 8) {
                asn1h_store_be64(w->buf + i, x);
            } else {                        /* near the end: only the octets they take */
                unsigned k, octets = (bit + n + 7) >> 3;
                for (k = 0; k < octets; k++, x <<= 8)
                    w->buf[i + k] = (uint8_t)(x >> 56);
            }
        } else {
            unsigned rest = n;
            while (rest) {
                unsigned take = 8 - bit;
                if (take > rest)
                    take = rest;
                if (!bit)
                    w->buf[i] = 0;
                w->buf[i] |= (uint8_t)(((v >> (rest - take)) & ((1u << take) - 1))
                                       << (8 - bit - take));
                rest -= take;
                bit = (bit + take) & 7;
                i += !bit;
            }
        }
    }
    w->pos += n;
    return 1;
}

/* put_bits, with its usual case inline: n <= 57 bits while the buffer has 8 octets from
 * the partial one.  For the numbers and lengths written everywhere. */
ASN1H_INLINE int put_bits_inline(per_out *w, unsigned n, uint64_t v)
{
    if (ASN1H_LIKELY(w->buf && n - 1 < 57 && (w->cap >> 3) - (w->pos >> 3) >= 8)) {
        asn1h_store_be64(w->buf + (w->pos >> 3), merged_word(w, n, v));
        w->pos += n;
        return 1;
    }
    return put_bits(w, n, v);
}

static int out_align(per_out *w)
{
    if (w->aligned && (w->pos & 7))
        return put_bits(w, 8 - (unsigned)(w->pos & 7), 0);
    return 1;
}

static int put_octets(per_out *w, const uint8_t *p, size_t n)
{
    size_t i;
    if (n > (w->cap - w->pos) / 8)
        return out_fail(w, ASN1H_ERR_BUFFER);
    if (!(w->pos & 7) && w->buf) {
        if (n)
            memcpy(w->buf + w->pos / 8, p, n);
    } else if (w->buf) {                    /* each octet into two: the partial one keeps
                                               its first bits, the next starts fresh */
        uint8_t *q = w->buf + w->pos / 8;
        unsigned shift = (unsigned)(w->pos & 7);
        for (i = 0; i + 8 <= n; i += 8) {   /* eight at a time: one load, one store */
            uint64_t x = asn1h_load_be64(p + i);
            q[i] = (uint8_t)((q[i] & (0xFFu << (8 - shift))) | (unsigned)(x >> (56 + shift)));
            asn1h_store_be64(q + i + 1, x << (8 - shift));
        }
        for (; i < n; i++) {
            q[i] = (uint8_t)((q[i] & (0xFFu << (8 - shift))) | p[i] >> shift);
            q[i + 1] = (uint8_t)(p[i] << (8 - shift));
        }
    }
    w->pos += 8 * n;
    return 1;
}

static int put_constrained(per_out *w, uint64_t range, uint64_t v)
{
    if (range == 0)
        return 1;
    if (!w->aligned || range < 255)
        return put_bits_inline(w, bit_length(range), v);
    if (range == 255)
        return out_align(w) && put_bits(w, 8, v);
    if (range < 65536)
        return out_align(w) && put_bits(w, 16, v);
    {
        unsigned n = octet_length(v);
        return put_constrained(w, octet_length(range) - 1, n - 1) && out_align(w)
            && put_bits(w, 8 * n, v);
    }
}

/* A length determinant; with fragmentation, *chunk is how many items follow it (a
 * multiple of 16K while more fragments come, then the rest). */
static int put_length(per_out *w, uint64_t lb, uint64_t ub, int bounded, size_t n,
                      size_t *chunk)
{
    *chunk = n;
    if (bounded && ub < 65536)
        return put_constrained(w, ub - lb, n - lb);
    if (!out_align(w))
        return 0;
    if (n < 128)
        return put_bits_inline(w, 8, n);
    if (n < FRAGMENT)
        return put_bits(w, 16, 0x8000u | n);
    *chunk = (n >= 4 * FRAGMENT ? 4 : n / FRAGMENT) * FRAGMENT;
    return put_bits(w, 8, 0xC0u | (*chunk / FRAGMENT));
}

static int put_small(per_out *w, uint64_t v)
{
    size_t chunk;
    unsigned n;
    if (v < 64)
        return put_bits(w, 7, v);
    n = octet_length(v);
    return put_bits(w, 1, 1) && put_length(w, 0, 0, 0, n, &chunk) && out_align(w)
        && put_bits(w, 8 * n, v);
}

/* Octets as an open type's contents, in fragments when long (a length that is a
 * multiple of 16K ends with an empty fragment). */
static int put_open(per_out *w, const uint8_t *p, size_t n)
{
    for (;;) {
        size_t before = n, chunk;
        if (!put_length(w, 0, 0, 0, n, &chunk) || !put_octets(w, p, chunk))
            return 0;
        p += chunk;
        n -= chunk;
        if (before < FRAGMENT)
            return 1;
    }
}

/* ---- Characters of the known-multiplier strings (X.691 30) --------------------------- */

/* A string type's alphabet: its size, its largest character, and the k-th character
 * (intervals of the PER-visible FROM, or the built-in type's repertoire). */
typedef struct alphabet {
    const int64_t *chars;           /* NULL: the built-in repertoire below */
    unsigned nchars;
    uint32_t lowest, count, largest;/* built-in: one interval [lowest, largest] */
    unsigned numeric;               /* NumericString: space, then 0..9 */
    unsigned unit;                  /* octets per character in the C value */
    unsigned bits;                  /* per character on the wire */
    unsigned indexed;               /* characters go as their index in the alphabet */
} alphabet;

static int known_multiplier(unsigned universal)
{
    switch (universal) {
    case 18: case 19: case 22: case 23: case 24: case 26: case 28: case 30:
        return 1;
    default:
        return 0;
    }
}

static alphabet alphabet_of(const asn1h_type *t, const per_bounds *b, unsigned aligned)
{
    alphabet a;
    uint64_t size;
    memset(&a, 0, sizeof a);
    a.unit = t->aux == 30 ? 2 : t->aux == 28 ? 4 : 1;
    switch (t->aux) {
    case 18: a.numeric = 1; a.count = 11; a.largest = '9'; break;
    case 19: a.lowest = 32; a.count = 74; a.largest = 'z'; break;  /* PrintableString */
    case 22: a.lowest = 0; a.count = 128; a.largest = 127; break;
    case 30: a.lowest = 0; a.count = 65536; a.largest = 65535; break;
    case 28: a.lowest = 0; a.count = 0; a.largest = 0xFFFFFFFFu; break;
    default: a.lowest = 32; a.count = 95; a.largest = 126; break; /* Visible, times */
    }
    if (b->flags & ASN1H_PER_CHARS) {
        unsigned i;
        a.chars = b->chars;
        a.nchars = b->nchars;
        a.numeric = 0;
        a.count = 0;
        for (i = 0; i < a.nchars; i++)
            a.count += (uint32_t)(a.chars[2 * i + 1] - a.chars[2 * i] + 1);
        a.largest = (uint32_t)a.chars[2 * a.nchars - 1];
    }
    size = a.count ? a.count : 0x100000000ull;
    a.bits = bit_length(size - 1);
    if (aligned) {                          /* 1, 2, 4, 8, 16 or 32 */
        unsigned p = 1;
        while (p < a.bits)
            p <<= 1;
        a.bits = p;
    }
    a.indexed = a.numeric || (a.bits < 32 && a.largest >= (1ull << a.bits));
    return a;
}

static int char_to_index(const alphabet *a, uint32_t c, uint64_t *k)
{
    unsigned i;
    uint64_t base = 0;
    if (!a->indexed) {
        *k = c;
        return a->chars ? 1 : (c >= a->lowest && c <= a->largest);
    }
    if (a->numeric) {
        *k = c == ' ' ? 0 : (uint64_t)(c - '0') + 1;
        return c == ' ' || (c >= '0' && c <= '9');
    }
    if (!a->chars) {
        *k = c - a->lowest;
        return c >= a->lowest && c <= a->largest;
    }
    for (i = 0; i < a->nchars; i++) {
        if (c >= a->chars[2 * i] && c <= a->chars[2 * i + 1]) {
            *k = base + (c - (uint64_t)a->chars[2 * i]);
            return 1;
        }
        base += (uint64_t)(a->chars[2 * i + 1] - a->chars[2 * i] + 1);
    }
    return 0;
}

static int index_to_char(const alphabet *a, uint64_t k, uint32_t *c)
{
    unsigned i;
    if (!a->indexed) {                      /* what char_to_index lets through */
        *c = (uint32_t)k;
        return a->chars ? 1 : (k >= a->lowest && k <= a->largest);
    }
    if (a->numeric) {
        *c = k == 0 ? ' ' : (uint32_t)('0' + k - 1);
        return k <= 10;
    }
    if (!a->chars) {
        *c = (uint32_t)(a->lowest + k);
        return k < a->count;
    }
    for (i = 0; i < a->nchars; i++) {
        uint64_t n = (uint64_t)(a->chars[2 * i + 1] - a->chars[2 * i] + 1);
        if (k < n) {
            *c = (uint32_t)(a->chars[2 * i] + (int64_t)k);
            return 1;
        }
        k -= n;
    }
    return 0;
}

/* ---- Decoding ------------------------------------------------------------------------- */

static int dec_value(per_in *r, const asn1h_type *t, void *v);
ASN1H_INLINE int resolve_open_types(per_in *r, const asn1h_type *t, void *v);

ASN1H_INLINE int dec_member_of(per_in *r, const asn1h_member *m, const asn1h_type *t,
                               void *base)
{
    void *v = (uint8_t *)base + m->offset;
    if (m->flags & ASN1H_M_POINTER) {
        void *p = asn1h_arena_alloc(r->d->arena, t->size);
        if (!p)
            return in_fail(r, ASN1H_ERR_MEMORY);
        memcpy(v, &p, sizeof p);
        v = p;
    }
    if (!dec_value(r, t, v)) {
        asn1h_unwind(r->d, m);
        return 0;
    }
    return 1;
}

static int dec_member(per_in *r, const asn1h_member *m, void *base)
{
    return dec_member_of(r, m, asn1h_member_type(r->d->types, m), base);
}

/* out[0..w) = a + b, or a - b when `subtract` (a: n octets, b: m octets, both two's
 * complement; w > n and w > m, so nothing overflows).  Returns out past its redundant
 * sign octets, its length in *len. */
static const uint8_t *big_sum(const uint8_t *a, size_t n, const uint8_t *b, size_t m,
                              int subtract, uint8_t *out, size_t w, size_t *len)
{
    unsigned carry = subtract ? 1u : 0u;    /* a - b = a + ~b + 1 */
    size_t i;
    for (i = 0; i < w; i++) {
        unsigned x = i < n ? a[n - 1 - i] : (a[0] & 0x80 ? 0xFFu : 0u);
        unsigned y = i < m ? b[m - 1 - i] : (b[0] & 0x80 ? 0xFFu : 0u);
        unsigned sum = x + (subtract ? (~y & 0xFFu) : y) + carry;
        out[w - 1 - i] = (uint8_t)sum;
        carry = sum >> 8;
    }
    while (w > 1 && ((out[0] == 0 && !(out[1] & 0x80)) || (out[0] == 0xFF && (out[1] & 0x80)))) {
        out++;
        w--;
    }
    *len = w;
    return out;
}

/* big_sum with b a number (w > 8). */
ASN1H_NOINLINE static const uint8_t *big_add(const uint8_t *a, size_t n, int64_t b,
                                             int subtract, uint8_t *out, size_t w,
                                             size_t *len)
{
    uint8_t octets[8];
    asn1h_store_be64(octets, (uint64_t)b);
    return big_sum(a, n, octets, 8, subtract, out, w, len);
}

/* Stores an INTEGER given as two's-complement octets, as BER decoding would. */
static int store_int(per_in *r, const asn1h_type *t, void *v, const uint8_t *octets,
                     size_t n, size_t at)
{
    if (!asn1h_dec_int(r->d, t, octets, octets + n, v)) {
        r->d->err->offset = at / 8;        /* the octets may be a copy: point at the input */
        return 0;
    }
    return 1;
}

/* ---- Bounds beyond 64 bits (ASN1H_PER_BIG): numbers of any size, out of the usual
 * numbers' way.  X.691 11.5.7 and 11.7 with the offset from lb as octets: UPER writes it
 * in the bits of the range, APER counts its octets when the range needs more than 64K. */

/* A bound's octets in spec->data (NULL for none: -1). */
static const uint8_t *big_bound(const asn1h_spec *spec, int64_t at, size_t *n)
{
    if (at < 0)
        return NULL;
    *n = spec->data[at];
    return spec->data + at + 1;
}

/* The range ub - lb (>= 0) into out[0..w), without leading zero octets. */
static const uint8_t *big_range(const uint8_t *lb, size_t ln, const uint8_t *ub, size_t un,
                                uint8_t *out, size_t w, size_t *n)
{
    const uint8_t *range = big_sum(ub, un, lb, ln, 1, out, w, n);
    while (*n > 1 && range[0] == 0) {
        range++;
        (*n)--;
    }
    return range;
}

/* The bits of a range of rn octets (the first not zero) beyond 64 bits. */
static size_t range_bits(const uint8_t *range, size_t rn)
{
    return 8 * (rn - 1) + bit_length(range[0]);
}

ASN1H_COLD static int dec_big_integer(per_in *r, const asn1h_type *t, void *v, per_bounds b,
                                      size_t at)
{
    size_t ln = 0, un = 0, rn = 0, n, len, i;
    const uint8_t *lb = big_bound(r->d->spec, b.lb, &ln);
    const uint8_t *ub = big_bound(r->d->spec, b.ub, &un), *range = NULL, *off;
    uint8_t room[258], field[258], *sum;   /* bounds have 255 octets at most */
    uint64_t x;
    if (ub)
        range = big_range(lb, ln, ub, un, room, sizeof room, &rn);
    if (!ub) {                              /* semi-constrained: the offset, counted */
        if (!(off = get_open(r, &n)))
            return 0;
        if (n == 0)
            return in_fail(r, ASN1H_ERR_LENGTH);
    } else if (rn <= 8) {
        if (!get_constrained(r, asn1h_load_be(range, rn), &x))
            return 0;
        asn1h_store_be64(field, x);
        off = field;
        n = 8;
    } else {
        if (r->aligned) {                   /* the indefinite-length case */
            if (!get_constrained(r, rn - 1, &x) || !in_align(r))
                return 0;
            n = (size_t)x + 1;
            if (!(off = get_octets(r, n)))
                return 0;
        } else {                            /* a bit-field of the range's bits */
            size_t bits = range_bits(range, rn);
            n = (bits + 7) / 8;
            for (i = 0; i < n; i++) {
                if (!get_bits(r, i ? 8 : (unsigned)(bits - 8 * (n - 1)), &x))
                    return 0;
                field[i] = (uint8_t)x;
            }
            off = field;
        }
        if (n == rn && memcmp(off, range, n) > 0) {
            asn1h_fail(r->d, ASN1H_ERR_CONSTRAINT, r->buf + at / 8);
            return 0;
        }
    }
    /* the value: lb + the offset, an unsigned number (00 first) */
    if (!(sum = (uint8_t *)asn1h_arena_alloc(r->d->arena, 2 * n + ln + 4)))
        return in_fail(r, ASN1H_ERR_MEMORY);
    sum[0] = 0;
    memcpy(sum + 1, off, n);
    off = big_sum(sum, n + 1, lb, ln, 0, sum + n + 1, (n > ln ? n : ln) + 2, &len);
    return store_int(r, t, v, off, len, at);
}

/* A big number from a constrained number: x, or, when t's bounds reach above INT64_MAX
 * (up to UINT64_MAX, from a lower bound >= 0) and x is negative as an int64_t, the
 * number x + 2^64, as its octets: 00, then 8.  Out of store_number's way, so that the
 * usual numbers pay nothing for it. */
ASN1H_NOINLINE static int store_big(asn1h_dec *d, const uint8_t *buf, const asn1h_type *t,
                                    asn1h_int *v, int64_t x, size_t at)
{
    per_bounds b = bounds_of(d->spec, t);
    uint8_t *octets;
    unsigned i;
    if (!((b.flags & ASN1H_PER_LB) && (b.flags & ASN1H_PER_UB) && b.ub < b.lb)) {
        v->v = x;
        return 1;
    }
    if (!(octets = (uint8_t *)asn1h_arena_alloc(d->arena, 9))) {
        asn1h_fail(d, ASN1H_ERR_MEMORY, buf + at / 8);
        return 0;
    }
    for (i = 0; i < 9; i++)
        octets[i] = (uint8_t)(i ? (uint64_t)x >> (8 * (8 - i)) : 0);
    if (!asn1h_dec_int(d, t, octets, octets + 9, v)) {
        d->err->offset = at / 8;
        return 0;
    }
    return 1;
}

/* Stores a number into the C storage of an INTEGER or ENUMERATED, as BER decoding would
 * (refused, at the number's first bit, when the storage cannot hold it).  A number from
 * bounds that reach above INT64_MAX comes as its int64_t pattern, negative above it; only
 * uint64_t and big numbers hold those (and a uint64_t holds nothing negative: its
 * bounds start at 0 or more). */
ASN1H_INLINE int store_number(per_in *r, const asn1h_type *t, void *v, int64_t x, size_t at)
{
    switch (asn1h_storage(t)) {
    case ASN1H_INT_BIG:
        if (ASN1H_UNLIKELY(x < 0))
            return store_big(r->d, r->buf, t, (asn1h_int *)v, x, at);
        ((asn1h_int *)v)->v = x;
        return 1;
    case ASN1H_INT_I8:
        if (x < INT8_MIN || x > INT8_MAX) break;
        *(int8_t *)v = (int8_t)x;
        return 1;
    case ASN1H_INT_U8:
        if (x < 0 || x > UINT8_MAX) break;
        *(uint8_t *)v = (uint8_t)x;
        return 1;
    case ASN1H_INT_I16:
        if (x < INT16_MIN || x > INT16_MAX) break;
        *(int16_t *)v = (int16_t)x;
        return 1;
    case ASN1H_INT_U16:
        if (x < 0 || x > UINT16_MAX) break;
        *(uint16_t *)v = (uint16_t)x;
        return 1;
    case ASN1H_INT_I32:
        if (x < INT32_MIN || x > INT32_MAX) break;
        *(int32_t *)v = (int32_t)x;
        return 1;
    case ASN1H_INT_U32:
        if (x < 0 || x > (int64_t)UINT32_MAX) break;
        *(uint32_t *)v = (uint32_t)x;
        return 1;
    case ASN1H_INT_I64:
        *(int64_t *)v = x;
        return 1;
    default:
        *(uint64_t *)v = (uint64_t)x;
        return 1;
    }
    asn1h_fail(r->d, ASN1H_ERR_CONSTRAINT, r->buf + at / 8);
    return 0;
}

static int dec_integer(per_in *r, const asn1h_type *t, void *v)
{
    per_bounds b = bounds_of(r->d->spec, t);
    size_t at = r->pos, n;
    unsigned ext = 0;
    const uint8_t *octets;
    if ((b.flags & ASN1H_PER_VALUE_EXT) && !get_bit(r, &ext))
        return 0;
    if (!ext && (b.flags & ASN1H_PER_LB) && (b.flags & ASN1H_PER_UB)) {
        uint64_t off, x;
        if (!get_constrained(r, (uint64_t)b.ub - (uint64_t)b.lb, &off))
            return 0;
        x = (uint64_t)b.lb + off;
        return store_number(r, t, v, (int64_t)x, at);
    }
    if (ASN1H_UNLIKELY(b.flags & ASN1H_PER_BIG) && !ext)  /* (with ASN1H_PER_LB alone) */
        return dec_big_integer(r, t, v, b, at);
    if (!(octets = get_open(r, &n)))        /* counted octets, in fragments when long */
        return 0;
    if (n == 0)
        return in_fail(r, ASN1H_ERR_LENGTH);
    if (!ext && (b.flags & ASN1H_PER_LB)) {   /* semi-constrained: an offset from lb */
        uint8_t *sum = (uint8_t *)asn1h_arena_alloc(r->d->arena, 2 * n + 18);
        const uint8_t *value;
        size_t len;
        if (!sum)
            return in_fail(r, ASN1H_ERR_MEMORY);
        sum[0] = 0;                             /* the offset is unsigned: 00 first */
        memcpy(sum + 1, octets, n);
        value = big_add(sum, n + 1, b.lb, 0, sum + n + 1, n + 10, &len);
        return store_int(r, t, v, value, len, at);
    }
    return store_int(r, t, v, octets, n, at);
}

/* Keeps the index k of an ENUMERATED addition this version does not know as
 * ASN1H_ENUM_ADDITION(k) (asn1h.h), unless a known item's number is in that range. */
static int unknown_addition(per_in *r, const asn1h_type *t, void *v, uint64_t k, size_t at)
{
    unsigned i;
    if (k >= ASN1H_ENUM_ADDITIONS)
        return in_fail(r, ASN1H_ERR_VALUE);
    for (i = 0; !(t->flags & ASN1H_T_DENSE) && i < t->count; i++)
        if (asn1h_enum_addition(r->d->spec->enum_values[t->first + i]))
            return in_fail(r, ASN1H_ERR_VALUE);
    return store_number(r, t, v, ASN1H_ENUM_ADDITION(k), at);
}

static int dec_enumerated(per_in *r, const asn1h_type *t, void *v)
{
    size_t at = r->pos;
    unsigned ext = 0;
    uint64_t k;
    if ((t->flags & ASN1H_T_EXTENSIBLE) && !get_bit(r, &ext))
        return 0;
    if (!ext) {
        if (!get_constrained(r, t->extra ? t->extra - 1u : 0u, &k))
            return 0;
    } else {
        if (!get_small(r, &k))
            return 0;
        if (k >= (uint64_t)(t->count - t->extra))  /* an addition this version does not know */
            return unknown_addition(r, t, v, k, at);
        k += t->extra;
    }
    return store_number(r, t, v, (t->flags & ASN1H_T_DENSE)
                        ? (int64_t)k : r->d->spec->enum_values[t->first + k], at);
}

/* A bit or octet string's length, or a list's, with an extension bit when the size
 * constraint is extensible; *bounded tells whether its root bounds it. */
static int dec_size_ext(per_in *r, const per_bounds *b, int *bounded)
{
    unsigned ext = 0;
    if ((b->flags & ASN1H_PER_SIZE_EXT) && !get_bit(r, &ext))
        return 0;
    *bounded = !ext && (b->flags & ASN1H_PER_SIZE) && (b->flags & ASN1H_PER_SIZE_UB);
    return 1;
}

/* Items of `bits` bits each (bits, octets, characters) into an arena buffer, with their
 * length determinant(s); without an alphabet `a`, bits (1) or octets (8).  The ALIGNED
 * variant aligns them when their size is fixed and above 16 bits, and after their length
 * when it varies, even when there are none (as pycrate; asn1tools does not for an empty
 * character string). */
static const uint8_t *dec_items(per_in *r, const per_bounds *b, int bounded, unsigned bits,
                                const alphabet *a, size_t *count)
{
    /* not NULL even for no items (a pointer at an offset of NULL is undefined); written
     * only once some are read, by then into the arena */
    static uint8_t none[1];
    size_t total = 0, n, cap = 0;
    uint8_t *out = none;
    int more = 0;
    unsigned out_unit = a ? a->unit : 1;
    uint64_t lb = bounded ? b->size_lb : 0, ub = b->size_ub;
    /* characters that are their own octets, checked as index_to_char does */
    int own = a && a->unit == 1 && !a->indexed;
    uint32_t lowest = own && !a->chars ? a->lowest : 0;
    uint32_t span = own && !a->chars ? a->largest - lowest : 255;
    do {
        size_t i;
        if (bounded && lb == ub && ub < 65536) {
            n = (size_t)ub;
            if (r->aligned && ub * bits > 16 && !in_align(r))
                return NULL;
        } else {
            if (!get_length(r, lb, ub, bounded, &n, &more))
                return NULL;
            if (r->aligned && !in_align(r))   /* X.691 16.11, 17.8, 30.5.7 */
                return NULL;
        }
        if (bits == 8 && (!a || own) && !more && total == 0) {
            /* octets, or characters that are their own octets: maybe zero-copy */
            const uint8_t *octets = get_octets(r, n);
            size_t i;
            for (i = 0; octets && a && i < n; i++)
                if ((uint32_t)octets[i] - lowest > span) {
                    r->pos -= 8 * (n - i);
                    return (const uint8_t *)(in_fail(r, ASN1H_ERR_CONSTRAINT), NULL);
                }
            *count = n;
            return octets;
        }
        if (n > (r->end - r->pos) / (bits ? bits : 1))
            return (const uint8_t *)(in_fail(r, ASN1H_ERR_TRUNCATED), NULL);
        {
            size_t need = a ? (total + n) * out_unit : (bits == 1 ? (total + n + 7) / 8
                                                                  : total + n);
            if (need > cap) {
                uint8_t *grown = (uint8_t *)asn1h_arena_alloc(r->d->arena, need);
                if (!grown)
                    return (const uint8_t *)(in_fail(r, ASN1H_ERR_MEMORY), NULL);
                if (cap)
                    memcpy(grown, out, cap);
                out = grown;
                cap = need;
            }
        }
        i = 0;
        if (!a) {                           /* bits or octets: whole octets copied
                                               word-wide, then the bits' rest (total: a
                                               multiple of 16K) */
            size_t octets = bits == 8 ? n : n / 8;
            copy_octets(r, out + (bits == 8 ? total : total / 8), octets);
            r->pos += 8 * octets;
            if (bits == 1 && n % 8)
                out[(total + n) / 8] = (uint8_t)(read_bits(r, (unsigned)(n % 8))
                                                 << (8 - n % 8));
            i = n;
        }
        if (own && bits && bits <= 8) {     /* as many as 56 bits hold per load (USC) */
            unsigned per = 56 / bits, k;
            for (; i < n; i += per) {
                uint64_t x;
                if (per > n - i)
                    per = (unsigned)(n - i);
                x = read_bits(r, per * bits) << (64 - per * bits);     /* first at the top */
                for (k = 0; k < per; k++, x <<= bits) {
                    uint32_t c = (uint32_t)(x >> (64 - bits));
                    if (c - lowest > span) {    /* where the one-by-one loop is */
                        r->pos -= bits * (per - 1 - k);
                        return (const uint8_t *)(in_fail(r, ASN1H_ERR_CONSTRAINT), NULL);
                    }
                    out[total + i + k] = (uint8_t)c;
                }
            }
        }
        for (; i < n; i++) {                /* characters (the input holds them all) */
            uint64_t x = bits ? read_bits(r, bits) : 0;
            uint32_t c;
            unsigned u;
            if (!index_to_char(a, x, &c))
                return (const uint8_t *)(in_fail(r, ASN1H_ERR_CONSTRAINT), NULL);
            for (u = 0; u < out_unit; u++)
                out[(total + i) * out_unit + u] = (uint8_t)(c >> (8 * (out_unit - 1 - u)));
        }
        total += n;
        if (bounded && (total < lb || total > ub))
            return (const uint8_t *)(in_fail(r, ASN1H_ERR_CONSTRAINT), NULL);
    } while (more);
    *count = total;
    return out;
}

ASN1H_NOINLINE static int dec_bit_string(per_in *r, const per_bounds *b, asn1h_bits *v)
{
    size_t n;
    int bounded;
    if (!dec_size_ext(r, b, &bounded) || !(v->buf = dec_items(r, b, bounded, 1, NULL, &n)))
        return 0;
    v->len = (n + 7) / 8;
    v->unused = (uint8_t)(v->len * 8 - n);
    return 1;
}

/* Octets (a NULL) or the characters of alphabet a, with their size. */
ASN1H_NOINLINE static int dec_string(per_in *r, const per_bounds *b, const alphabet *a,
                                     asn1h_bytes *v)
{
    size_t n;
    int bounded;
    if (!dec_size_ext(r, b, &bounded)
        || !(v->buf = dec_items(r, b, bounded, a ? a->bits : 8, a, &n)))
        return 0;
    v->len = n * (a ? a->unit : 1);
    return 1;
}

/* The tables' strings.  They repeat dec_bit_string's and dec_string's few lines, which
 * stay out of line for asn1h_per_string: called from here, those cost the interpreter
 * 250 instructions per X.400 PDU in UPER, and inlined into asn1h_per_string (as gcc does
 * with a function called once) the compiled routines 460 (callgrind). */
static int dec_bits(per_in *r, const asn1h_type *t, asn1h_bits *v)
{
    per_bounds b = bounds_of(r->d->spec, t);
    size_t n;
    int bounded;
    if (!dec_size_ext(r, &b, &bounded) || !(v->buf = dec_items(r, &b, bounded, 1, NULL, &n)))
        return 0;
    v->len = (n + 7) / 8;
    v->unused = (uint8_t)(v->len * 8 - n);
    return 1;
}

static int dec_bytes(per_in *r, const asn1h_type *t, asn1h_bytes *v)
{
    per_bounds b = bounds_of(r->d->spec, t);
    size_t n;
    int bounded;
    if (known_multiplier(t->aux)) {
        alphabet a = alphabet_of(t, &b, r->aligned);
        if (!dec_size_ext(r, &b, &bounded)
            || !(v->buf = dec_items(r, &b, bounded, a.bits, &a, &n)))
            return 0;
        v->len = n * a.unit;
        return 1;
    }
    if (t->aux == 4 && !(t->flags & ASN1H_T_CONTAINING)) {
        if (!dec_size_ext(r, &b, &bounded) || !(v->buf = dec_items(r, &b, bounded, 8, NULL, &n)))
            return 0;
        v->len = n;
        return 1;
    }
    /* OBJECT IDENTIFIER, RELATIVE-OID, the other strings, CONTAINING: octets, counted */
    if (!(v->buf = get_open(r, &n)))
        return 0;
    v->len = n;
    if ((t->aux == 6 || t->aux == 13) && !asn1h_check_oid(r->d, v->buf, v->buf + n, t->aux == 13))
        return 0;
    return 1;
}

static int dec_real(per_in *r, double *v)
{
    const asn1h_codecs *codecs = r->d->spec->codecs;
    size_t n;
    const uint8_t *octets = get_open(r, &n);
    if (!octets)
        return 0;
    if (!codecs->real_decode)
        return in_fail(r, ASN1H_ERR_VALUE);
    return codecs->real_decode(r->d, octets, octets + n, 0, v) != NULL;
}

/* Decodes the open type that follows with `fn`, in place: its length first, its end
 * checked after. */
typedef int per_open_fn(per_in *r, const void *what, void *v);

static int dec_in_open(per_in *r, per_open_fn *fn, const void *what, void *v)
{
    size_t n, saved_end = r->end, stop;
    int more;
    if (!get_length(r, 0, 0, 0, &n, &more))
        return 0;
    if (more) {                             /* fragmented: join, then read the copy */
        per_in sub = *r;
        size_t rest;
        const uint8_t *joined;
        r->pos -= 8;                        /* get_open reads that length again */
        if (!(joined = get_open(r, &rest)))
            return 0;
        sub.buf = joined;
        sub.pos = 0;
        sub.end = 8 * rest;
        return fn(&sub, what, v);
    }
    if (n > (r->end - r->pos) / 8)
        return in_fail(r, ASN1H_ERR_TRUNCATED);
    stop = r->pos + 8 * n;
    r->end = stop;
    if (!fn(r, what, v)) {
        r->end = saved_end;
        return 0;
    }
    r->end = saved_end;
    r->pos = stop;
    return 1;
}

static int skip_open(per_in *r)
{
    size_t n;
    return get_open(r, &n) != NULL;
}

/* An open type's octets, fragments joined, into out (NULL: only measured); *len their
 * number. */
static int copy_open(per_in *r, uint8_t *out, size_t *len)
{
    size_t n, total = 0;
    int more;
    do {
        if (!get_length(r, 0, 0, 0, &n, &more))
            return 0;
        if (n > (r->end - r->pos) / 8)
            return in_fail(r, ASN1H_ERR_TRUNCATED);
        if (out)
            copy_octets(r, out + total, n);
        r->pos += 8 * n;
        total += n;
    } while (more);
    *len = total;
    return 1;
}

/* Extensions this version does not know, kept as a record (asn1h_kept_in_per): for a
 * SEQUENCE, the length n of the extension bitmap received and the open types of the
 * additions whose bits are set in bitmap[from, n) (from: the first one not known), even
 * none: the encoder then writes the bitmap as it came, so that what it writes decodes to
 * the same value; for a CHOICE (bitmap NULL), the open type of its alternative, numbered
 * `from`. */
static int keep_unknown(per_in *r, const uint8_t *bitmap, size_t from, size_t n,
                        asn1h_bytes *kept)
{
    size_t start = r->pos, total = 3, len = 0, i;
    uint8_t *out = NULL, *q = NULL;
    int pass;
    if (!bitmap)
        n = from + 1;
    if (n - 1 > 0xFFFFu)
        return in_fail(r, ASN1H_ERR_VALUE);
    for (pass = 0; pass < 2; pass++) {      /* measured, then copied */
        if (pass) {
            if (!(out = (uint8_t *)asn1h_arena_alloc(r->d->arena, total)))
                return in_fail(r, ASN1H_ERR_MEMORY);
            out[0] = ASN1H_KEPT_PER;
            out[1] = (uint8_t)((bitmap ? n : 0) >> 8);
            out[2] = (uint8_t)(bitmap ? n : 0);
            q = out + 3;
            r->pos = start;
        }
        for (i = from; i < n; i++) {
            if (bitmap && !((bitmap[i / 8] >> (i % 8)) & 1))
                continue;
            if (!copy_open(r, pass ? q + 6 : NULL, &len))
                return 0;
            if ((uint64_t)len > 0xFFFFFFFFu)
                return in_fail(r, ASN1H_ERR_LENGTH);
            if (!pass) {
                total += 6 + len;
                continue;
            }
            q[0] = (uint8_t)(i >> 8);
            q[1] = (uint8_t)i;
            q[2] = (uint8_t)(len >> 24);
            q[3] = (uint8_t)(len >> 16);
            q[4] = (uint8_t)(len >> 8);
            q[5] = (uint8_t)len;
            q += 6 + len;
        }
    }
    kept->buf = out;
    kept->len = total;
    return 1;
}

static int member_in_open(per_in *r, const void *what, void *base)
{
    return dec_member(r, (const asn1h_member *)what, base);
}

/* The extension additions of a SEQUENCE, walked one at a time (no array of them: PER
 * nests deeply, and every level would pay for the largest SEQUENCE): where each one's
 * members start in the member table and how many there are (a group's, or one).  Groups
 * come from the extension entry's `tag`: 1 + the index in spec->tags of {count, then per
 * extension member 2 * its addition's number, + 1 in a group}; 0 when there are none. */
typedef struct addition {
    const asn1h_member *members;    /* the SEQUENCE's */
    unsigned first, count;
    unsigned group;                 /* a group ([[ ]]): encoded as a SEQUENCE */
} addition;

typedef struct addition_cursor {
    const asn1h_member *members;
    const uint32_t *codes;          /* NULL: no groups */
    unsigned count;                 /* members of the SEQUENCE */
    unsigned i, k;                  /* the next member, the next code */
} addition_cursor;

static void additions_begin(addition_cursor *c, const asn1h_spec *spec, const asn1h_type *t)
{
    c->members = spec->members + t->first;
    c->codes = (t->flags & ASN1H_T_EXTENSIBLE) && c->members[t->count].tag
        ? spec->tags + c->members[t->count].tag : NULL;
    c->count = t->count;
    c->i = c->k = 0;
}

/* The next addition into *a; 0 when there is none.  A group's members follow each other
 * and share their addition's number. */
static int addition_next(addition_cursor *c, addition *a)
{
    uint32_t code;
    while (c->i < c->count && !(c->members[c->i].flags & ASN1H_M_EXTENSION))
        c->i++;
    if (c->i >= c->count)
        return 0;
    code = c->codes ? c->codes[c->k] : 0;
    a->members = c->members;
    a->first = c->i;
    a->count = 1;
    a->group = code & 1;
    c->i++;
    c->k++;
    while (c->codes && c->i < c->count && (c->members[c->i].flags & ASN1H_M_EXTENSION)
           && (c->codes[c->k] >> 1) == (code >> 1)) {
        a->count++;
        c->i++;
        c->k++;
    }
    return 1;
}

/* Members [first, first + count) of a SEQUENCE or SET as PER encodes a root (or a group):
 * a bit per OPTIONAL or DEFAULT one, then the present ones. */
/* Bit k of a preamble of n bits held 64 to a word, the first bit of each word highest. */
static unsigned preamble_bit(const uint64_t *words, unsigned n, unsigned k)
{
    unsigned width = n - k / 64 * 64 < 64 ? n - k / 64 * 64 : 64;
    return (unsigned)(words[k / 64] >> (width - 1 - k % 64)) & 1;
}

static int dec_components(per_in *r, const asn1h_member *members, unsigned first,
                          unsigned count, int root, void *v)
{
    uint64_t present[4];                    /* the preamble: bit k of word k / 64 */
    unsigned i, k = 0, n = 0;
    for (i = first; i < first + count; i++)
        n += (members[i].flags & (ASN1H_M_OPTIONAL | ASN1H_M_DEFAULT))
             && !(root && (members[i].flags & ASN1H_M_EXTENSION));
    if (n > 64 * 4)
        return in_fail(r, ASN1H_ERR_VALUE);
    for (k = 0; k < n; k += 64)             /* read 64 bits at a time, first bit high */
        if (!get_bits(r, n - k < 64 ? n - k : 64, &present[k / 64]))
            return 0;
    k = 0;
    for (i = first; i < first + count; i++) {
        const asn1h_member *m = &members[i];
        if (root && (m->flags & ASN1H_M_EXTENSION))
            continue;
        if (m->flags & (ASN1H_M_OPTIONAL | ASN1H_M_DEFAULT)) {
            unsigned here = preamble_bit(present, n, k++);
            if (!here) {
                if (m->flags & ASN1H_M_DEFAULT)
                    asn1h_set_default(r->d, m, v);
                continue;
            }
        }
        if (!dec_member(r, m, v))
            return 0;
        if (m->bit != ASN1H_NO_BIT)
            asn1h_set_bit(v, m->bit);
    }
    return 1;
}

static int group_in_open(per_in *r, const void *what, void *v)
{
    const addition *g = (const addition *)what;
    return dec_components(r, g->members, g->first, g->count, 0, v);
}

#define MAX_ADDITIONS 1024

/* The extension bitmap's length: a normally small length (X.691 11.9.3.4). */
static int get_small_length(per_in *r, size_t *n)
{
    uint64_t v;
    unsigned big;
    int more;
    if (!get_bit(r, &big))
        return 0;
    if (!big) {
        if (!get_bits(r, 6, &v))
            return 0;
        *n = (size_t)v + 1;
        return 1;
    }
    if (!get_length(r, 0, 0, 0, n, &more))
        return 0;
    if (more || *n == 0)
        return in_fail(r, ASN1H_ERR_LENGTH);
    return 1;
}

/* A SEQUENCE's extension additions, after an extension bit of 1 and the root. */
static int dec_additions(per_in *r, const asn1h_type *t, void *v)
{
    const asn1h_member *members = r->d->spec->members + t->first;
    addition_cursor cursor;
    addition a;
    uint8_t bitmap[MAX_ADDITIONS / 8];
    size_t n, i;
    int known = 1;
    if (!get_small_length(r, &n))
        return 0;
    if (n > MAX_ADDITIONS)
        return in_fail(r, ASN1H_ERR_LENGTH);
    memset(bitmap, 0, sizeof bitmap);
    for (i = 0; i < n; i++) {
        unsigned bit;
        if (!get_bit(r, &bit))
            return 0;
        bitmap[i / 8] |= (uint8_t)(bit << (i % 8));
    }
    additions_begin(&cursor, r->d->spec, t);
    for (i = 0; i < n; i++) {
        known = known && addition_next(&cursor, &a);
        if (!known && !(r->d->flags & ASN1H_DROP_UNKNOWN))  /* the rest: not known */
            return keep_unknown(r, bitmap, i, n, (asn1h_bytes *)(void *)(
                (uint8_t *)v + asn1h_extension_entry(r->d->spec, t)->offset));
        if (!((bitmap[i / 8] >> (i % 8)) & 1))
            continue;
        if (!known) {
            if (!skip_open(r))
                return 0;
        } else if (!a.group) {
            const asn1h_member *m = &members[a.first];
            if (!dec_in_open(r, member_in_open, m, v))
                return 0;
            if (m->bit != ASN1H_NO_BIT)
                asn1h_set_bit(v, m->bit);
        } else if (!dec_in_open(r, group_in_open, &a, v)) {
            return 0;
        }
    }
    return 1;
}

static int dec_sequence(per_in *r, const asn1h_type *t, void *v)
{
    unsigned ext = 0;
    if ((t->flags & ASN1H_T_EXTENSIBLE) && !get_bit(r, &ext))
        return 0;
    if (!dec_components(r, r->d->spec->members + t->first, 0, t->count, 1, v))
        return 0;
    return !ext || dec_additions(r, t, v);
}

/* A CHOICE's root alternatives go by their index in the canonical order of their tags
 * (X.691 23.6), which is the order of definition under AUTOMATIC TAGS; an untagged
 * alternative keeps its place of definition. */
static int roots_in_tag_order(const asn1h_spec *spec, const asn1h_member *members,
                              unsigned count)
{
    unsigned j, seen = 0;
    int ascending = 1;
    uint32_t last = 0;
    for (j = 0; j < count; j++) {
        uint32_t tag;
        if (members[j].flags & ASN1H_M_EXTENSION)
            continue;
        if (!members[j].tag)
            return 1;                       /* one untagged: the order of definition */
        tag = asn1h_member_tag(spec, &members[j]);
        if (seen++ && tag < last)
            ascending = 0;
        last = tag;
    }
    return ascending;
}

static unsigned root_rank(const asn1h_spec *spec, const asn1h_member *members,
                          unsigned count, unsigned i)
{
    int ordered = roots_in_tag_order(spec, members, count);
    uint32_t tag = ordered ? 0 : asn1h_member_tag(spec, &members[i]);
    unsigned j, rank = 0;
    for (j = 0; j < count; j++)
        if (!(members[j].flags & ASN1H_M_EXTENSION)
            && (ordered ? j < i : asn1h_member_tag(spec, &members[j]) < tag))
            rank++;
    return rank;
}

/* The root alternative of rank k (k < the number of roots): one walk when the roots are
 * in tag order (AUTOMATIC TAGS), a search by rank otherwise. */
static unsigned root_of_rank(const asn1h_spec *spec, const asn1h_member *members,
                             unsigned count, uint64_t k)
{
    int ordered = roots_in_tag_order(spec, members, count);
    unsigned i;
    for (i = 0; i < count; i++)
        if (!(members[i].flags & ASN1H_M_EXTENSION)
            && (ordered ? k-- == 0 : root_rank(spec, members, count, i) == k))
            break;
    return i;
}

static unsigned root_count(const asn1h_member *members, unsigned count)
{
    unsigned j, n = 0;
    for (j = 0; j < count; j++)
        n += !(members[j].flags & ASN1H_M_EXTENSION);
    return n;
}

static int dec_addition_alternative(per_in *r, const asn1h_type *t, void *v);

static int dec_choice(per_in *r, const asn1h_type *t, void *v)
{
    const asn1h_spec *spec = r->d->spec;
    const asn1h_member *members = spec->members + t->first;
    unsigned ext = 0, i, roots = (t->flags & ASN1H_T_DENSE) ? t->extra
                                                         : root_count(members, t->count);
    uint64_t k;
    uint32_t which;
    if ((t->flags & ASN1H_T_EXTENSIBLE) && !get_bit(r, &ext))
        return 0;
    if (!ext) {
        if (!roots || !get_constrained(r, roots - 1u, &k))
            return roots ? 0 : in_fail(r, ASN1H_ERR_CHOICE);
        i = (t->flags & ASN1H_T_DENSE) ? (unsigned)k : root_of_rank(spec, members, t->count, k);
        which = i + 1;
        memcpy(v, &which, sizeof which);
        return dec_member(r, &members[i], v);
    }
    return dec_addition_alternative(r, t, v);
}

/* A CHOICE's alternative after an extension bit of 1: an addition, by its index. */
static int dec_addition_alternative(per_in *r, const asn1h_type *t, void *v)
{
    const asn1h_member *members = r->d->spec->members + t->first;
    unsigned i;
    uint64_t k;
    uint32_t which;
    if (!get_small(r, &k))
        return 0;
    {
        uint64_t index = k;
        for (i = 0; i < t->count; i++)
            if ((members[i].flags & ASN1H_M_EXTENSION) && k-- == 0)
                break;
        if (i == t->count) {                /* an alternative this version does not know */
            which = ASN1H_WHICH_UNKNOWN;
            memcpy(v, &which, sizeof which);
            return index <= 0xFFFFu
                ? keep_unknown(r, NULL, (size_t)index, 0, (asn1h_bytes *)(void *)(
                      (uint8_t *)v + members[0].offset))
                : in_fail(r, ASN1H_ERR_VALUE);
        }
    }
    which = i + 1;
    memcpy(v, &which, sizeof which);
    return dec_in_open(r, member_in_open, &members[i], v);
}

/* A list's count, or the count of its next fragment (*more). */
ASN1H_INLINE int dec_count(per_in *r, const per_bounds *b, int bounded,
                           const asn1h_member *element, size_t *n, int *more)
{
    *more = 0;
    if (bounded && b->size_lb == b->size_ub && b->size_ub < 65536)
        *n = (size_t)b->size_ub;
    else if (!get_length(r, bounded ? b->size_lb : 0, b->size_ub, bounded, n, more))
        return 0;
    /* every element takes a bit at least (but NULLs): a length cannot promise more
     * elements than the input has bits, whatever memory it would take */
    if (*n > r->end - r->pos && asn1h_member_type(r->d->types, element)->kind != ASN1H_NULL)
        return in_fail(r, ASN1H_ERR_TRUNCATED);
    return 1;
}

/* Room in the arena for `total` elements of `size` octets and n more, the first total
 * copied from items. */
ASN1H_INLINE uint8_t *grow_items(per_in *r, const uint8_t *items, size_t total, size_t n,
                                 size_t size)
{
    uint8_t *grown;
    if (n > SIZE_MAX / (size ? size : 1) - total) {
        in_fail(r, ASN1H_ERR_MEMORY);
        return NULL;
    }
    if (!(grown = (uint8_t *)asn1h_arena_alloc(r->d->arena, (total + n) * size))) {
        in_fail(r, ASN1H_ERR_MEMORY);
        return NULL;
    }
    if (total)
        memcpy(grown, items, total * size);
    return grown;
}

static int dec_list(per_in *r, const asn1h_type *t, void *v)
{
    const asn1h_member *element = &r->d->spec->members[t->first];
    size_t size = asn1h_element_size(r->d->types, element);
    per_bounds b = bounds_of(r->d->spec, t);
    uint8_t *items = NULL;
    size_t total = 0, n, i;
    int bounded, more;
    if (!dec_size_ext(r, &b, &bounded))
        return 0;
    do {
        if (!dec_count(r, &b, bounded, element, &n, &more))
            return 0;
        if (n && !(items = grow_items(r, items, total, n, size)))
            return 0;
        asn1h_array_set(v, items, total + n);
        for (i = 0; i < n; i++) {
            if (!dec_member(r, element, items + (total + i) * size)) {
                asn1h_path_push(r->d->err, NULL, total + i);
                return 0;
            }
        }
        total += n;
    } while (more);
    ASN1H_COUNT_ITEMS(r->d, t->self, total);
    if (bounded && (total < b.size_lb || total > b.size_ub))
        return in_fail(r, ASN1H_ERR_CONSTRAINT);
    return 1;
}

/* A compiled type's PER routines, or NULL (the tables do it).  The type's flag is
 * looked at first: an interpreted type pays one test. */
static const struct asn1h_per_routines *compiled_per(const struct asn1h_per_routines *per,
                                                     const asn1h_type *t)
{
    if (ASN1H_LIKELY(!(t->flags & ASN1H_T_PER_COMPILED)) || !per)
        return NULL;
    return per + (t->aux - 1);
}

static int dec_value(per_in *r, const asn1h_type *t, void *v)
{
    size_t at = r->pos;
    int ok;
    ASN1H_COUNT(r->d, t->self);             /* as BER counts: profiles do not depend on
                                               the encoding rules */
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN: {
        unsigned bit;
        if (!get_bit(r, &bit))
            return 0;
        *(bool *)v = bit != 0;
        return 1;
    }
    case ASN1H_NULL:
        return 1;
    case ASN1H_INTEGER:
        ok = dec_integer(r, t, v);
        break;
    case ASN1H_ENUMERATED:
        return dec_enumerated(r, t, v);
    case ASN1H_REAL:
        return dec_real(r, (double *)v);
    case ASN1H_BIT_STRING:
        ok = dec_bits(r, t, (asn1h_bits *)v);
        break;
    case ASN1H_BYTES:
        ok = dec_bytes(r, t, (asn1h_bytes *)v);
        break;
    case ASN1H_OPEN: {
        asn1h_open *open = (asn1h_open *)v;
        return (open->buf = get_open(r, &open->len)) != NULL;
    }
    case ASN1H_SEQUENCE:
    case ASN1H_SET:
    case ASN1H_CHOICE:
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF:
        if (r->d->depth == 0)
            return in_fail(r, ASN1H_ERR_DEPTH);
        r->d->depth--;
        {
            const struct asn1h_per_routines *compiled = compiled_per(r->compiled, t);
            ok = compiled ? compiled->decode(r, t, v)
               : t->kind == ASN1H_CHOICE ? dec_choice(r, t, v)
               : (t->kind == ASN1H_SEQUENCE || t->kind == ASN1H_SET) ? dec_sequence(r, t, v)
               : dec_list(r, t, v);
        }
        r->d->depth++;
        if (ok && (t->flags & ASN1H_T_OPEN_MEMBERS))
            ok = resolve_open_types(r, t, v);
        if (!ok || t->kind == ASN1H_CHOICE || t->kind == ASN1H_SEQUENCE
            || t->kind == ASN1H_SET)
            return ok;
        /* CANONICAL-PER: a SET OF's order, by the tables or its compiled routine */
        if (ASN1H_UNLIKELY(r->order != NULL) && t->kind == ASN1H_SET_OF
            && !r->order(r, t, v, at))
            return 0;
        break;
    default:
        return in_fail(r, ASN1H_ERR_VALUE);
    }
    if (ok && !(r->d->flags & ASN1H_SKIP_CONSTRAINTS) && to_check(r->d->spec, t)
        && !r->d->spec->codecs->satisfies(r->d->spec, t, v)) {
        asn1h_fail(r->d, ASN1H_ERR_CONSTRAINT, r->buf + at / 8);
        return 0;
    }
    return ok;
}

/* ---- Open types decoded through their information object set ------------------------
 * As BER does (asn1h_received.c): after a SEQUENCE whose open types are table-constrained
 * (ASN1H_T_OPEN_MEMBERS), each one's octets are decoded as the type its table gives for
 * the key member beside it, the 3GPP ProtocolIE-Field pattern.  A key outside the table
 * leaves the octets as they came; they are re-encoded as they are.  The row search
 * repeats received.c's on purpose: sharing it changed the BER decoder's code. */
static const asn1h_type *open_row(const asn1h_dec *d, const asn1h_type *t, const void *v,
                                  const asn1h_type *ot)
{
    const asn1h_member *key = &d->spec->members[t->first + ot->extra - 1];
    const asn1h_type *key_type = asn1h_member_type(d->types, key);
    asn1h_bytes k;
    uint8_t scratch[10];
    unsigned j;
    if (key_type->kind == ASN1H_BYTES)
        k = *(const asn1h_bytes *)((const uint8_t *)v + key->offset);
    else                                    /* INTEGER keys: compare their encodings */
        k.buf = asn1h_int_octets(key_type, (const uint8_t *)v + key->offset, scratch, &k.len);
    for (j = 0; j < ot->count; j++) {
        const asn1h_open_entry *entry = &d->spec->open[ot->first + j];
        if (entry->key_len == k.len && memcmp(d->spec->data + entry->key, k.buf, k.len) == 0)
            return d->types + entry->type;
    }
    return NULL;
}

/* The open type's octets hold one complete encoding (X.691 11.1: whole octets, and one
 * octet for an encoding of no bits).  When `lenient` (OCTET STRING CONTAINING, as BER
 * takes it), octets that do not decode as the table's type stay raw. */
ASN1H_INLINE int resolve_open(per_in *r, const asn1h_type *t, const void *v,
                              const asn1h_type *ot, asn1h_open *open, int lenient)
{
    const asn1h_type *et = open->buf ? open_row(r->d, t, v, ot) : NULL;
    per_in sub = *r;
    unsigned depth = r->d->depth;
    void *value;
    int ok;
    if (!et)
        return 1;
    if (!(value = asn1h_arena_alloc(r->d->arena, et->size)))
        return in_fail(r, ASN1H_ERR_MEMORY);
    sub.buf = open->buf;
    sub.pos = 0;
    sub.end = 8 * open->len;
    ok = dec_value(&sub, et, value);
    if (ok && (sub.pos ? (sub.pos + 7) / 8 : 1) != open->len) {
        sub.pos = (sub.pos + 7) & ~(size_t)7;
        ok = in_fail(&sub, ASN1H_ERR_TRAILING);
    }
    if (!ok && lenient && r->d->err->code != ASN1H_ERR_MEMORY) {
        r->d->err->code = ASN1H_OK;         /* not of the table's type: raw */
        r->d->err->depth = 0;
        r->d->err->truncated = false;
        r->d->depth = depth;
        return 1;
    }
    if (!ok)
        return 0;
    open->type = et;
    open->value = value;
    if (lenient) {                          /* PER's octets: BER would write them raw */
        open->buf = NULL;
        open->len = 0;
    }
    return 1;
}

/* Each open type once: those resolve_open_types has already decoded are left. */
static int resolve_per(void *r, const asn1h_type *t, const void *v, const asn1h_type *ot,
                       asn1h_open *open, int lenient)
{
    return open->type != NULL || resolve_open((per_in *)r, t, v, ot, open, lenient);
}

ASN1H_NOINLINE static int resolve_rare_open_types(per_in *r, const asn1h_type *t, void *v)
{
    return asn1h_each_open_type(r->d, t, v, resolve_per, r);
}

/* The usual open type, beside its key (every 3GPP ProtocolIE-Field), is resolved here,
 * inline in dec_value: an AP message resolves a dozen.  A type that also holds an OCTET
 * STRING CONTAINING one or a list of them (PKIX's Extension, Attribute) goes to the walk
 * that BER takes.  Sharing that walk for every type cost S1AP 1.4% of its decoding. */
ASN1H_INLINE int resolve_open_types(per_in *r, const asn1h_type *t, void *v)
{
    unsigned i;
    for (i = 0; i < t->count; i++) {
        const asn1h_member *m = &r->d->spec->members[t->first + i];
        const asn1h_type *mt = asn1h_member_type(r->d->types, m);
        if (m->flags & ASN1H_M_POINTER)
            continue;
        if (mt->kind == ASN1H_OPEN) {
            if (mt->count
                && !resolve_open(r, t, v, mt, (asn1h_open *)((uint8_t *)v + m->offset), 0)) {
                asn1h_unwind(r->d, m);
                return 0;
            }
        } else if ((mt->flags & ASN1H_T_CONTAINING)
                   || ((mt->kind == ASN1H_SEQUENCE_OF || mt->kind == ASN1H_SET_OF)
                       && asn1h_member_type(r->d->types, &r->d->spec->members[mt->first])
                              ->kind == ASN1H_OPEN)) {
            return resolve_rare_open_types(r, t, v);   /* the rest, and these */
        }
    }
    return 1;
}

asn1h_code asn1h_decode_per(const asn1h_type *type, void *value, const uint8_t *buf,
                            size_t len, unsigned variant, asn1h_arena *arena,
                            const asn1h_decode_opts *opts, size_t *consumed,
                            asn1h_error *err)
{
    return asn1h_decode_per_with(NULL, type, value, buf, len, variant, arena, opts,
                                 consumed, err);
}

static asn1h_code decode_per(const struct asn1h_per_routines *compiled,
                             int (*order)(per_in *r, const asn1h_type *t, const void *v,
                                          size_t at),
                             const asn1h_type *type, void *value, const uint8_t *buf,
                             size_t len, unsigned variant, asn1h_arena *arena,
                             const asn1h_decode_opts *opts, size_t *consumed,
                             asn1h_error *err)
{
    asn1h_error local;
    asn1h_dec d;
    per_in r;

    err = asn1h_error_reset(err ? err : &local, type);
    asn1h_dec_start(&d, type, buf, len, arena, opts, err);
    r.d = &d;
    r.buf = buf;
    r.pos = 0;
    r.end = len > SIZE_MAX / 8 ? SIZE_MAX & ~(size_t)7 : 8 * len;
    r.aligned = (variant & ASN1H_APER) != 0;
    r.compiled = compiled;
    r.order = order;
    memset(value, 0, type->size);
    if (!dec_value(&r, type, value)) {
        if (err->code == ASN1H_OK)
            err->code = ASN1H_ERR_VALUE;
        return err->code;
    }
    if (consumed)                           /* a complete encoding is whole octets, one
                                               at least (X.691 11.1) */
        *consumed = r.pos ? (r.pos + 7) / 8 : (len ? 1 : 0);
    return ASN1H_OK;
}

asn1h_code asn1h_decode_per_with(const struct asn1h_per_routines *compiled,
                                 const asn1h_type *type, void *value, const uint8_t *buf,
                                 size_t len, unsigned variant, asn1h_arena *arena,
                                 const asn1h_decode_opts *opts, size_t *consumed,
                                 asn1h_error *err)
{
    return decode_per(compiled, NULL, type, value, buf, len, variant, arena, opts, consumed,
                      err);
}

/* ---- Encoding ------------------------------------------------------------------------- */

static int enc_value(per_out *w, const asn1h_type *t, const void *v);
typedef int per_write_fn(per_out *w, const void *what, const void *v);
static int enc_in_open(per_out *w, per_write_fn *fn, const void *what, const void *v);
static int open_value_out(per_out *w, const void *what, const void *v);

ASN1H_INLINE int enc_member_of(per_out *w, const asn1h_member *m, const asn1h_type *t,
                               const void *base)
{
    const void *v = (const uint8_t *)base + m->offset;
    if (m->flags & ASN1H_M_POINTER) {
        memcpy(&v, v, sizeof v);
        if (!v)
            return out_fail(w, ASN1H_ERR_VALUE);
    }
    if (!enc_value(w, t, v)) {
        asn1h_enc_unwind(w->e, m);
        return 0;
    }
    return 1;
}

static int enc_member(per_out *w, const asn1h_member *m, const void *base)
{
    return enc_member_of(w, m, asn1h_member_type(w->e->types, m), base);
}

/* An INTEGER's value: as a number when it fits 64 bits (*big 0), else its octets. */
static void integer_value(const asn1h_type *t, const void *v, int64_t *x, int *big,
                          const uint8_t **octets, size_t *n, uint8_t scratch[10])
{
    *octets = asn1h_int_octets(t, v, scratch, n);
    *big = *n > 8;
    *x = 0;
    if (!*big) {
        size_t i;
        *x = (*octets)[0] & 0x80 ? -1 : 0;
        for (i = 0; i < *n; i++)
            *x = (int64_t)(((uint64_t)*x << 8) | (*octets)[i]);
    }
}

/* The offset d (dn octets, unsigned) in the range (rn octets, the first not zero). */
static int put_big_offset(per_out *w, const uint8_t *d, size_t dn, const uint8_t *range,
                          size_t rn)
{
    size_t lead, i;
    if (rn <= 8)                            /* and so dn <= 8 */
        return put_constrained(w, asn1h_load_be(range, rn), asn1h_load_be(d, dn));
    if (w->aligned)                         /* the indefinite-length case */
        return put_constrained(w, rn - 1, dn - 1) && out_align(w) && put_octets(w, d, dn);
    /* a bit-field of the range's bits: zeros, then d[0] in the bits left before the
       other octets of d (d <= range, so they are enough) */
    for (lead = range_bits(range, rn) - 8 * (dn - 1); lead > 8; lead -= i) {
        i = lead - 8 > 56 ? 56 : lead - 8;
        if (!put_bits(w, (unsigned)i, 0))
            return 0;
    }
    return put_bits(w, (unsigned)lead, d[0]) && put_octets(w, d + 1, dn - 1);
}

/* The value - lb: the offset in the root (not negative, not above the range), else the
 * extension bit and the number, or a constraint error. */
ASN1H_COLD static int enc_big_integer(per_out *w, const asn1h_type *t, const void *v,
                                      per_bounds b)
{
    size_t ln = 0, un = 0, rn = 0, n, dn;
    const uint8_t *lb = big_bound(w->e->spec, b.lb, &ln);
    const uint8_t *ub = big_bound(w->e->spec, b.ub, &un), *range = NULL, *octets, *d;
    uint8_t scratch[10], room[258], small[268], *diff = small;
    int root, ok;
    octets = asn1h_int_octets(t, v, scratch, &n);
    if (n + ln + 2 > sizeof small && !(diff = (uint8_t *)malloc(n + ln + 2)))
        return out_fail(w, ASN1H_ERR_MEMORY);
    d = big_sum(octets, n, lb, ln, 1, diff, (n > ln ? n : ln) + 1, &dn);
    root = !(d[0] & 0x80);
    if (dn > 1 && d[0] == 0) {              /* unsigned: no sign octet */
        d++;
        dn--;
    }
    if (root && ub) {
        range = big_range(lb, ln, ub, un, room, sizeof room, &rn);
        root = dn < rn || (dn == rn && memcmp(d, range, dn) <= 0);
    }
    if (b.flags & ASN1H_PER_VALUE_EXT)
        ok = put_bits(w, 1, !root);
    else if (!(ok = root))
        out_fail(w, ASN1H_ERR_CONSTRAINT);
    if (ok)
        ok = !root ? put_open(w, octets, n) : !ub ? put_open(w, d, dn)
                                                  : put_big_offset(w, d, dn, range, rn);
    if (diff != small)
        free(diff);
    return ok;
}

static int enc_integer(per_out *w, const asn1h_type *t, const void *v)
{
    per_bounds b = bounds_of(w->e->spec, t);
    uint8_t scratch[10];
    const uint8_t *octets;
    size_t n;
    int64_t x;
    uint64_t u;
    int big = 0, root;
    if (asn1h_storage(t) != ASN1H_INT_BIG && asn1h_storage(t) != ASN1H_INT_U64) {
        x = asn1h_load_int(asn1h_storage(t), v);    /* the octets only when written */
        octets = NULL;
        n = 0;
    } else if (ASN1H_UNLIKELY(b.flags & ASN1H_PER_BIG)) {     /* (stored as big numbers) */
        return enc_big_integer(w, t, v, b);
    } else {
        integer_value(t, v, &x, &big, &octets, &n, scratch);
    }
    root = !big ? ((!(b.flags & ASN1H_PER_LB) || x >= b.lb) && (!(b.flags & ASN1H_PER_UB) || x <= b.ub))
                : !(octets[0] & 0x80) ? !(b.flags & ASN1H_PER_UB) : !(b.flags & ASN1H_PER_LB);
    u = (uint64_t)x;
    if (ASN1H_UNLIKELY(!root) && b.ub < b.lb && (b.flags & ASN1H_PER_LB)
        && (b.flags & ASN1H_PER_UB)) {
        /* bounds up to UINT64_MAX (lb >= 0): the value as unsigned, 9 octets 00 ... */
        unsigned i;
        for (i = 1; big && n == 9 && octets[0] == 0 && i < 9; i++)
            u = u << 8 | octets[i];
        root = (big ? n == 9 && octets[0] == 0 : x >= 0) && u >= (uint64_t)b.lb
            && u <= (uint64_t)b.ub;
    }
    if (b.flags & ASN1H_PER_VALUE_EXT) {
        if (!put_bits(w, 1, !root))
            return 0;
    } else if (!root) {
        return out_fail(w, ASN1H_ERR_CONSTRAINT);
    }
    if (root && (b.flags & ASN1H_PER_LB) && (b.flags & ASN1H_PER_UB))
        return put_constrained(w, (uint64_t)b.ub - (uint64_t)b.lb, u - (uint64_t)b.lb);
    if (!octets)
        octets = asn1h_int_octets(t, v, scratch, &n);
    if (root && (b.flags & ASN1H_PER_LB)) {      /* semi-constrained: x - lb, unsigned */
        uint8_t small[138], *diff = small;  /* on the heap for 1,000 bits and more */
        const uint8_t *offset;
        size_t len;
        int ok;
        if (n + 10 > sizeof small && !(diff = (uint8_t *)malloc(n + 10)))
            return out_fail(w, ASN1H_ERR_MEMORY);
        offset = big_add(octets, n, b.lb, 1, diff, n + 10, &len);
        if (len > 1 && offset[0] == 0) {    /* unsigned: no sign octet */
            offset++;
            len--;
        }
        ok = put_open(w, offset, len);
        if (diff != small)
            free(diff);
        return ok;
    }
    return put_open(w, octets, n);
}

static int enc_enumerated(per_out *w, const asn1h_type *t, const void *v)
{
    int64_t x = asn1h_load_int(asn1h_storage(t), v);
    unsigned k;
    if (t->flags & ASN1H_T_DENSE)
        k = x >= 0 && x < (int64_t)t->count ? (unsigned)x : t->count;
    else
        for (k = 0; k < t->count && w->e->spec->enum_values[t->first + k] != x; k++)
            ;
    if (k == t->count) {                    /* kept as it came (asn1h.h) */
        uint64_t added = (uint64_t)x - (uint64_t)ASN1H_ENUM_ADDITION(0);
        if (!(t->flags & ASN1H_T_EXTENSIBLE) || !asn1h_enum_addition(x)
            || added < (uint64_t)(t->count - t->extra))
            return out_fail(w, ASN1H_ERR_VALUE);
        return put_bits(w, 1, 1) && put_small(w, added);
    }
    if (k < t->extra) {
        if ((t->flags & ASN1H_T_EXTENSIBLE) && !put_bits(w, 1, 0))
            return 0;
        return put_constrained(w, t->extra - 1u, k);
    }
    return put_bits(w, 1, 1) && put_small(w, k - t->extra);
}

/* Bits of a BIT STRING; past its own, 0 (the padding up to a lower bound). */
typedef struct bit_items {
    const uint8_t *buf;
    size_t have;
} bit_items;

static int bit_item(const void *data, size_t i, uint64_t *x)
{
    const bit_items *b = (const bit_items *)data;
    *x = i < b->have ? (b->buf[i / 8] >> (7 - i % 8)) & 1 : 0;
    return 1;
}

typedef struct char_items {
    const alphabet *a;
    const uint8_t *buf;
} char_items;

static int char_item(const void *data, size_t i, uint64_t *x)
{
    const char_items *c = (const char_items *)data;
    uint32_t code = 0;
    unsigned u;
    for (u = 0; u < c->a->unit; u++)
        code = code << 8 | c->buf[i * c->a->unit + u];
    return char_to_index(c->a, code, x);
}

/* Items with their length determinant(s), as dec_items reads them.  `get` gives item i
 * as a number of `bits` bits. */
typedef int per_item_fn(const void *data, size_t i, uint64_t *x);

static int enc_items(per_out *w, const per_bounds *b, int bounded, unsigned bits,
                     per_item_fn *get, const void *data, size_t total)
{
    uint64_t lb = bounded ? b->size_lb : 0, ub = b->size_ub;
    size_t done = 0;
    if (bounded && (total < lb || total > ub))
        return out_fail(w, ASN1H_ERR_CONSTRAINT);
    for (;;) {
        size_t chunk = total - done, i, before = chunk;
        if (bounded && lb == ub && ub < 65536) {
            if (w->aligned && ub * bits > 16 && !out_align(w))
                return 0;
        } else {
            if (!put_length(w, lb, ub, bounded, chunk, &chunk))
                return 0;
            if (w->aligned && !out_align(w))   /* X.691 16.11, 17.8, 30.5.7 */
                return 0;
        }
        if (bits == 8 && !get) {
            if (!put_octets(w, (const uint8_t *)data + done, chunk))
                return 0;
        } else if (get == bit_item) {       /* a BIT STRING's own bits as octets, then 0s
                                               (done: a multiple of 16K) */
            const bit_items *items = (const bit_items *)data;
            size_t own = items->have > done ? items->have - done : 0, rest;
            if (own > chunk)
                own = chunk;
            if (!put_octets(w, items->buf + done / 8, own / 8)
                || (own % 8 && !put_bits(w, (unsigned)(own % 8),
                                         items->buf[(done + own) / 8] >> (8 - own % 8))))
                return 0;
            for (rest = chunk - own; rest; rest -= rest < 32 ? rest : 32)
                if (!put_bits(w, rest < 32 ? (unsigned)rest : 32, 0))
                    return 0;
        } else {
            i = 0;
            if (get == char_item && bits <= 8 && !((const char_items *)data)->a->indexed
                && ((const char_items *)data)->a->unit == 1) {
                /* characters that are their own octets: as many as 56 bits hold per
                   store (USC), each checked as char_to_index does */
                const alphabet *a = ((const char_items *)data)->a;
                const uint8_t *in = ((const char_items *)data)->buf + done;
                unsigned per = 56 / bits, k;
                uint32_t lowest = a->chars ? 0 : a->lowest;
                uint32_t span = a->chars ? 255 : a->largest - lowest;
                for (; i < chunk; i += per) {
                    uint64_t x = 0;
                    if (per > chunk - i)
                        per = (unsigned)(chunk - i);
                    for (k = 0; k < per; k++) {
                        if ((uint32_t)in[i + k] - lowest > span)
                            return out_fail(w, ASN1H_ERR_CONSTRAINT);
                        x = x << bits | (in[i + k] & ((1u << bits) - 1));
                    }
                    if (!put_bits(w, per * bits, x))
                        return 0;
                }
            }
            for (; i < chunk; i++) {
                uint64_t x;
                if (!get(data, done + i, &x))
                    return out_fail(w, ASN1H_ERR_CONSTRAINT);
                if (!put_bits(w, bits, x))
                    return 0;
            }
        }
        done += chunk;
        if (bounded && ub < 65536)
            return 1;
        if (before < FRAGMENT)
            return 1;
    }
}

static int in_size_root(const per_bounds *b, size_t n)
{
    return (b->flags & ASN1H_PER_SIZE) && n >= b->size_lb
        && (!(b->flags & ASN1H_PER_SIZE_UB) || n <= b->size_ub);
}

/* Whether n items are written with the root's bounds (not outside an extensible size's
 * root, nor without an upper bound). */
static int root_bounded(const per_bounds *b, size_t n)
{
    return (b->flags & ASN1H_PER_SIZE) && (b->flags & ASN1H_PER_SIZE_UB)
        && (!(b->flags & ASN1H_PER_SIZE_EXT) || in_size_root(b, n));
}

static int enc_size_ext(per_out *w, const per_bounds *b, size_t n, int *bounded)
{
    *bounded = root_bounded(b, n);
    if (b->flags & ASN1H_PER_SIZE_EXT)
        return put_bits(w, 1, !in_size_root(b, n));
    return 1;
}

/* A BIT STRING; with named bits, its trailing 0 bits go, down to the lower bound. */
ASN1H_INLINE int enc_bit_string(per_out *w, const per_bounds *b, unsigned named,
                                const asn1h_bits *v)
{
    bit_items items;
    size_t n = v->len ? v->len * 8 - (v->unused & 7u) : 0;
    int bounded;
    items.buf = v->buf;
    items.have = n;
    if (named) {
        uint64_t bit = 0;
        while (n && (bit_item(&items, n - 1, &bit), !bit))
            n--;
        if ((b->flags & ASN1H_PER_SIZE) && n < b->size_lb)
            n = (size_t)b->size_lb;
    }
    return enc_size_ext(w, b, n, &bounded)
        && enc_items(w, b, bounded, 1, bit_item, &items, n);
}

/* Octets (a NULL) or the characters of alphabet a, with their size. */
ASN1H_INLINE int enc_string(per_out *w, const per_bounds *b, const alphabet *a,
                            const asn1h_bytes *v)
{
    char_items items;
    int bounded;
    if (!a)
        return enc_size_ext(w, b, v->len, &bounded)
            && enc_items(w, b, bounded, 8, NULL, v->buf, v->len);
    if (v->len % a->unit)
        return out_fail(w, ASN1H_ERR_VALUE);
    items.a = a;
    items.buf = v->buf;
    return enc_size_ext(w, b, v->len / a->unit, &bounded)
        && enc_items(w, b, bounded, a->bits, char_item, &items, v->len / a->unit);
}

static int enc_bits(per_out *w, const asn1h_type *t, const asn1h_bits *v)
{
    per_bounds b = bounds_of(w->e->spec, t);
    return enc_bit_string(w, &b, (t->flags & ASN1H_T_NAMED_BITS) != 0, v);
}

static int enc_bytes(per_out *w, const asn1h_type *t, const asn1h_bytes *v)
{
    per_bounds b = bounds_of(w->e->spec, t);
    if (known_multiplier(t->aux)) {
        alphabet a = alphabet_of(t, &b, w->aligned);
        return enc_string(w, &b, &a, v);
    }
    if (t->aux == 4) {
        const asn1h_open *contained = (const asn1h_open *)v;
        if (!(t->flags & ASN1H_T_CONTAINING))
            return enc_string(w, &b, NULL, v);
        if (contained->type && contained->value)    /* resolved: the value, in PER */
            return enc_in_open(w, open_value_out, contained->type, contained->value);
    }
    return put_open(w, v->buf, v->len);
}

static int enc_real(per_out *w, double v)
{
    const asn1h_codecs *codecs = w->e->spec->codecs;
    uint8_t scratch[32];
    asn1h_enc e = *w->e;
    const uint8_t *q;
    if (!codecs->real_encode)
        return out_fail(w, ASN1H_ERR_VALUE);
    e.start = scratch;
    if (!(q = codecs->real_encode(&e, scratch + sizeof scratch, v)))
        return 0;
    return put_open(w, q, (size_t)(scratch + sizeof scratch - q));
}

/* Sets n bits at bit position pos of what is already written, keeping the others. */
static void set_bits(uint8_t *buf, size_t pos, unsigned n, uint64_t v)
{
    while (n) {
        unsigned bit = (unsigned)(pos & 7), take = 8 - bit;
        uint8_t mask;
        if (take > n)
            take = n;
        mask = (uint8_t)(((1u << take) - 1) << (8 - bit - take));
        buf[pos >> 3] = (uint8_t)((buf[pos >> 3] & ~mask)
                                  | ((((v >> (n - take)) & ((1u << take) - 1))
                                      << (8 - bit - take)) & mask));
        pos += take;
        n -= take;
    }
}

/* Writes `fn`'s encoding as an open type (an empty encoding is one 0 octet, X.691 11.1):
 * in place after room for a one-octet length, which is then set; from 128 octets on, the
 * contents move one octet on for a two-octet length.  Each open type is so written once,
 * where measuring it first would write a nest of open types (every 3GPP AP message) twice
 * per level. */
static int enc_in_open(per_out *w, per_write_fn *fn, const void *what, const void *v)
{
    size_t start, bits, octets;
    if (!out_align(w))
        return 0;
    start = w->pos;
    if (!put_bits(w, 8, 0) || !fn(w, what, v))
        return 0;
    bits = w->pos - start - 8;
    octets = bits ? (bits + 7) / 8 : 1;
    if (octets >= FRAGMENT)                 /* rare enough to refuse: 16K and more */
        return out_fail(w, ASN1H_ERR_VALUE);
    if (!put_bits(w, (unsigned)(start + 8 + 8 * octets - w->pos), 0))
        return 0;
    if (octets < 128) {
        if (w->buf)
            set_bits(w->buf, start, 8, octets);
        return 1;
    }
    if (8 > w->cap - w->pos)
        return out_fail(w, ASN1H_ERR_BUFFER);
    if (w->buf) {                           /* the same bit phase, one octet on */
        memmove(w->buf + (start + 8) / 8 + 1, w->buf + (start + 8) / 8,
                octets + ((w->pos & 7) != 0));
        set_bits(w->buf, start, 16, 0x8000u | octets);
    }
    w->pos += 8;
    return 1;
}

static int member_out(per_out *w, const void *what, const void *base)
{
    return enc_member(w, (const asn1h_member *)what, base);
}

static int enc_components(per_out *w, const asn1h_member *members, unsigned first,
                          unsigned count, int root, const void *v)
{
    uint64_t present[4] = {0, 0, 0, 0};     /* the preamble, as dec_components reads it */
    unsigned i, k, n = 0;
    for (i = first; i < first + count; i++) {
        const asn1h_member *m = &members[i];
        if ((root && (m->flags & ASN1H_M_EXTENSION))
            || !(m->flags & (ASN1H_M_OPTIONAL | ASN1H_M_DEFAULT)))
            continue;
        if (n >= 64 * 4)
            return out_fail(w, ASN1H_ERR_VALUE);
        present[n / 64] = present[n / 64] << 1
                          | (uint64_t)asn1h_member_encoded(w->e->spec, m, v);
        n++;
    }
    for (k = 0; k < n; k += 64)
        if (!put_bits(w, n - k < 64 ? n - k : 64, present[k / 64]))
            return 0;
    for (i = first, k = 0; i < first + count; i++) {
        const asn1h_member *m = &members[i];
        if (root && (m->flags & ASN1H_M_EXTENSION))
            continue;
        if (m->flags & (ASN1H_M_OPTIONAL | ASN1H_M_DEFAULT)) {
            unsigned here = preamble_bit(present, n, k++);
            if (!here)
                continue;
        }
        if (!enc_member(w, m, v))
            return 0;
    }
    return 1;
}

static int group_out(per_out *w, const void *what, const void *v)
{
    const addition *g = (const addition *)what;
    return enc_components(w, g->members, g->first, g->count, 0, v);
}

static int addition_present(const asn1h_spec *spec, const addition *a, const void *v)
{
    unsigned i;
    for (i = a->first; i < a->first + a->count; i++)
        if (asn1h_member_encoded(spec, &a->members[i], v))
            return 1;
    return 0;
}

/* The next entry of a record of unknown extensions kept from PER (asn1h_kept_in_per),
 * from *at (3 for the first); 0 at its end, -1 when it is malformed (not made by
 * keep_unknown). */
static int kept_next(const asn1h_bytes *kept, size_t *at, unsigned *index,
                     const uint8_t **octets, size_t *len)
{
    const uint8_t *q;
    size_t rest;
    if (kept->len < 3 || *at > kept->len)
        return -1;
    q = kept->buf + *at;
    rest = kept->len - *at;
    if (!rest)
        return 0;
    if (rest < 6)
        return -1;
    *index = (unsigned)q[0] << 8 | q[1];
    *len = (size_t)q[2] << 24 | (size_t)q[3] << 16 | (size_t)q[4] << 8 | q[5];
    if (*len > rest - 6)
        return -1;
    *octets = q + 6;
    *at += 6 + *len;
    return 1;
}

/* The unknown additions kept from PER in a SEQUENCE value, checked: after the nadds this
 * version knows, in increasing order.  *bits: the bitmap's length that they need, or that
 * was received. */
static int kept_additions(per_out *w, const asn1h_bytes *record, unsigned nadds,
                          const asn1h_bytes **kept, size_t *bits)
{
    size_t at = 3, len, received;
    unsigned index, next = nadds;
    const uint8_t *octets;
    int more;
    *kept = NULL;
    *bits = nadds;
    while ((more = kept_next(record, &at, &index, &octets, &len)) > 0) {
        if (index < next)
            return out_fail(w, ASN1H_ERR_VALUE);
        next = index + 1;
    }
    if (more < 0)
        return out_fail(w, ASN1H_ERR_VALUE);
    received = (size_t)record->buf[1] << 8 | record->buf[2];
    if (!received && next == 0)             /* a bitmap of no bit: not a SEQUENCE's */
        return out_fail(w, ASN1H_ERR_VALUE);
    *kept = record;
    *bits = received > next ? received : next;  /* as long as it came */
    return 1;
}

/* An extensible SEQUENCE or SET: its extension bit, its root, then the bitmap and the
 * open types of the additions present, known and kept. */
static int enc_extensible(per_out *w, const asn1h_type *t, const void *v)
{
    const asn1h_spec *spec = w->e->spec;
    const asn1h_member *members = spec->members + t->first;
    addition_cursor cursor;
    addition a;
    uint8_t present[MAX_ADDITIONS / 8];     /* each addition's, asked once */
    unsigned nadds = 0, i, any = 0, index = 0;
    const asn1h_bytes *kept;                /* unknown additions, kept from PER */
    size_t bits, at = 3, len = 0;
    const uint8_t *octets = NULL;
    memset(present, 0, sizeof present);
    additions_begin(&cursor, spec, t);
    while (addition_next(&cursor, &a)) {
        unsigned here = (unsigned)addition_present(spec, &a, v);
        if (nadds >= MAX_ADDITIONS)
            return out_fail(w, ASN1H_ERR_VALUE);
        present[nadds / 8] |= (uint8_t)(here << (nadds % 8));
        any |= here;
        nadds++;
    }
    bits = nadds;
    kept = (const asn1h_bytes *)(const void *)(
        (const uint8_t *)v + asn1h_extension_entry(spec, t)->offset);
    if (!asn1h_kept_in_per(kept))           /* none, or kept from BER: no PER for them */
        kept = NULL;
    else if (!kept_additions(w, kept, nadds, &kept, &bits))
        return 0;
    any |= kept != NULL;                    /* the bitmap as it came, even all zeros */
    if (!put_bits(w, 1, any) || !enc_components(w, members, 0, t->count, 1, v))
        return 0;
    if (!any)
        return 1;
    if (bits <= 64) {                       /* the bitmap's length, normally small */
        if (!put_bits(w, 7, bits - 1u))
            return 0;
    } else {
        size_t chunk;
        if (!put_bits(w, 1, 1) || !put_length(w, 0, 0, 0, bits, &chunk))
            return 0;
    }
    for (i = 0; i < nadds; i++)
        if (!put_bits(w, 1, (uint64_t)((present[i / 8] >> (i % 8)) & 1)))
            return 0;
    if (kept) {                             /* then the kept ones' */
        int more = kept_next(kept, &at, &index, &octets, &len);
        for (; i < bits; i++) {
            if (!put_bits(w, 1, (uint64_t)(more > 0 && index == i)))
                return 0;
            if (more > 0 && index == i)
                more = kept_next(kept, &at, &index, &octets, &len);
        }
    }
    additions_begin(&cursor, spec, t);
    for (i = 0; addition_next(&cursor, &a); i++) {
        if (!((present[i / 8] >> (i % 8)) & 1))
            continue;
        if (!a.group) {
            if (!enc_in_open(w, member_out, &members[a.first], v))
                return 0;
        } else if (!enc_in_open(w, group_out, &a, v)) {
            return 0;
        }
    }
    for (at = 3; kept && kept_next(kept, &at, &index, &octets, &len) > 0;)
        if (!put_open(w, octets, len))
            return 0;
    return 1;
}

static int enc_sequence(per_out *w, const asn1h_type *t, const void *v)
{
    if (t->flags & ASN1H_T_EXTENSIBLE)
        return enc_extensible(w, t, v);
    return enc_components(w, w->e->spec->members + t->first, 0, t->count, 1, v);
}

/* A CHOICE's value that is not a root alternative: an addition, an unknown alternative
 * kept from PER, or none (an error). */
static int enc_choice_addition(per_out *w, const asn1h_type *t, const void *v)
{
    const asn1h_member *members = w->e->spec->members + t->first;
    uint32_t which;
    unsigned i;
    memcpy(&which, v, sizeof which);
    if (which == ASN1H_WHICH_UNKNOWN && (t->flags & ASN1H_T_EXTENSIBLE)) {
        const asn1h_bytes *kept = (const asn1h_bytes *)(const void *)(
            (const uint8_t *)v + members[0].offset);
        size_t at = 3, len;
        unsigned index, known = 0;
        const uint8_t *octets;
        for (i = 0; i < t->count; i++)
            known += (members[i].flags & ASN1H_M_EXTENSION) != 0;
        /* kept from PER: one alternative, after those this version knows (from BER, its
           index is not known) */
        if (asn1h_kept_in_per(kept) && kept_next(kept, &at, &index, &octets, &len) > 0
            && at == kept->len && index >= known)
            return put_bits(w, 1, 1) && put_small(w, index) && put_open(w, octets, len);
        return out_fail(w, ASN1H_ERR_CHOICE);
    }
    if (which == 0 || which > t->count)     /* none */
        return out_fail(w, ASN1H_ERR_CHOICE);
    i = which - 1;
    {
        unsigned j, index = 0;
        for (j = 0; j < i; j++)
            index += (members[j].flags & ASN1H_M_EXTENSION) != 0;
        return put_bits(w, 1, 1) && put_small(w, index)
            && enc_in_open(w, member_out, &members[i], v);
    }
}

static int enc_choice(per_out *w, const asn1h_type *t, const void *v)
{
    const asn1h_spec *spec = w->e->spec;
    const asn1h_member *members = spec->members + t->first;
    uint32_t which;
    unsigned i;
    memcpy(&which, v, sizeof which);
    i = which - 1;
    if (which == 0 || which > t->count || (members[i].flags & ASN1H_M_EXTENSION))
        return enc_choice_addition(w, t, v);
    if ((t->flags & ASN1H_T_EXTENSIBLE) && !put_bits(w, 1, 0))
        return 0;
    if ((t->flags & ASN1H_T_DENSE) ? !put_constrained(w, t->extra - 1u, i)
        : !put_constrained(w, root_count(members, t->count) - 1u,
                           root_rank(spec, members, t->count, i)))
        return 0;
    return enc_member(w, &members[i], v);
}

/* ---- CANONICAL-PER's SET OF order (X.691 22.1) ----------------------------------------
 * The elements in ascending order of their own encodings, each padded with 0 bits to an
 * octet boundary and the shorter with 0 octets; equal ones shorter first.  Each element
 * is measured, written alone into one malloc'd block, and the block's keys sorted. */
typedef struct per_key {
    const uint8_t *octets;
    size_t bits, index;
} per_key;

/* The order of two elements' encodings; 0 when they are the same. */
static int key_order(const per_key *x, const per_key *y)
{
    size_t nx = (x->bits + 7) / 8, ny = (y->bits + 7) / 8, n = nx < ny ? nx : ny, i;
    int c = memcmp(x->octets, y->octets, n);
    if (c)
        return c;
    for (i = n; i < nx; i++)
        if (x->octets[i])
            return 1;
    for (i = n; i < ny; i++)
        if (y->octets[i])
            return -1;
    return x->bits < y->bits ? -1 : x->bits > y->bits;
}

static int key_compare(const void *a, const void *b)
{
    const per_key *x = (const per_key *)a, *y = (const per_key *)b;
    int c = key_order(x, y);
    return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* The elements' own encodings, each measured then written alone into one malloc'd block
 * of keys (free it), or NULL after an error. */
static per_key *encode_alone(per_out *w, const asn1h_member *element, const uint8_t *items,
                             size_t size, size_t count)
{
    per_out alone = *w;
    per_key *keys;
    uint8_t *octets;
    size_t i, total = 0;
    if (count > SIZE_MAX / (sizeof *keys + size)
        || !(keys = (per_key *)malloc(count * sizeof *keys))) {
        out_fail(w, ASN1H_ERR_MEMORY);
        return NULL;
    }
    alone.buf = NULL;                       /* measure each */
    alone.cap = SIZE_MAX & ~(size_t)7;
    for (i = 0; i < count; i++) {
        alone.pos = 0;
        if (!enc_member(&alone, element, items + i * size))
            goto failed;
        keys[i].bits = alone.pos;
        keys[i].index = i;
        total += (alone.pos + 7) / 8;
    }
    {
        per_key *grown = (per_key *)realloc(keys, count * sizeof *keys + total);
        if (!grown) {
            free(keys);
            out_fail(w, ASN1H_ERR_MEMORY);
            return NULL;
        }
        keys = grown;
    }
    octets = (uint8_t *)(keys + count);
    memset(octets, 0, total);               /* each padded with 0 bits */
    for (i = total = 0; i < count; i++) {
        size_t n = (keys[i].bits + 7) / 8;
        alone.buf = octets + total;
        alone.pos = 0;
        alone.cap = 8 * n;
        if (!enc_member(&alone, element, items + i * size))
            goto failed;
        keys[i].octets = octets + total;
        total += n;
    }
    return keys;
failed:
    asn1h_path_push(w->e->err, NULL, i);
    free(keys);
    return NULL;
}

/* A copy of the elements in CANONICAL-PER's order (malloc'd: free it), or NULL after an
 * error.  The copy is shallow: encoding only reads it. */
static uint8_t *canonical_order(per_out *w, const asn1h_member *element, const uint8_t *items,
                                size_t size, size_t count)
{
    per_key *keys = encode_alone(w, element, items, size, count);
    uint8_t *sorted = keys ? (uint8_t *)malloc(count * size) : NULL;
    size_t i;
    if (keys && !sorted)
        out_fail(w, ASN1H_ERR_MEMORY);
    if (sorted) {
        qsort(keys, count, sizeof *keys, key_compare);
        for (i = 0; i < count; i++)
            memcpy(sorted + i * size, items + keys[i].index * size, size);
    }
    free(keys);
    return sorted;
}

/* CANONICAL-PER decoding: a SET OF whose elements (decoded from bit `at` on) are not in
 * the order the encoder writes them is refused with ASN1H_ERR_NOT_DER, at the first
 * element out of order.  (Reached only through asn1h_decode_per_canonical, so that a
 * program that decodes otherwise links no encoder.) */
static int set_of_order(per_in *r, const asn1h_type *t, const void *v, size_t at)
{
    const asn1h_member *element = &r->d->spec->members[t->first];
    size_t size = asn1h_element_size(r->d->types, element), count, i;
    asn1h_enc e;
    per_out w;
    per_key *keys;
    void *items;
    asn1h_array_get(v, &items, &count);
    if (count < 2)
        return 1;
    e.start = NULL;
    e.err = r->d->err;
    e.spec = r->d->spec;
    e.types = r->d->types;
    w.e = &e;
    w.buf = NULL;
    w.pos = w.cap = 0;
    w.aligned = r->aligned;
    w.canonical = 1;
    w.compiled = r->compiled;
    if (!(keys = encode_alone(&w, element, (const uint8_t *)items, size, count)))
        return 0;
    for (i = 1; i < count && key_order(&keys[i - 1], &keys[i]) <= 0; i++)
        ;
    free(keys);
    if (i == count)
        return 1;
    asn1h_fail(r->d, ASN1H_ERR_NOT_DER, r->buf + at / 8);
    asn1h_path_push(r->d->err, NULL, i);
    return 0;
}

static int enc_list(per_out *w, const asn1h_type *t, const void *v)
{
    const asn1h_member *element = &w->e->spec->members[t->first];
    size_t size = asn1h_element_size(w->e->types, element);
    per_bounds b = bounds_of(w->e->spec, t);
    void *items;
    size_t count, done = 0;
    int bounded;
    asn1h_array_get(v, &items, &count);
    if (!enc_size_ext(w, &b, count, &bounded))
        return 0;
    if (bounded && (count < b.size_lb || count > b.size_ub))
        return out_fail(w, ASN1H_ERR_CONSTRAINT);
    for (;;) {
        size_t chunk = count - done, before = chunk, i;
        if (!(bounded && b.size_lb == b.size_ub && b.size_ub < 65536)
            && !put_length(w, bounded ? b.size_lb : 0, b.size_ub, bounded, chunk, &chunk))
            return 0;
        for (i = 0; i < chunk; i++) {
            if (!enc_member(w, element, (const uint8_t *)items + (done + i) * size)) {
                asn1h_path_push(w->e->err, NULL, done + i);
                return 0;
            }
        }
        done += chunk;
        if ((bounded && b.size_ub < 65536) || before < FRAGMENT)
            return 1;
    }
}

/* CANONICAL-PER: a SET OF written by the tables from a sorted copy of its elements.
 * (Not a part of asn1h_codecs: a BER program links those, and this pulls in PER.) */
ASN1H_NOINLINE static int enc_sorted(per_out *w, const asn1h_type *t, const void *v)
{
    const asn1h_member *element = &w->e->spec->members[t->first];
    size_t size = asn1h_element_size(w->e->types, element);
    struct { void *items; size_t count; } copy;     /* a list value's layout */
    uint8_t *sorted = NULL;
    int ok;
    asn1h_array_get(v, &copy.items, &copy.count);
    if (copy.count > 1 && !(sorted = canonical_order(w, element, (const uint8_t *)copy.items,
                                                      size, copy.count)))
        return 0;
    if (sorted)
        copy.items = sorted;
    ok = enc_list(w, t, &copy);
    free(sorted);
    return ok;
}

static int open_value_out(per_out *w, const void *what, const void *v)
{
    return enc_value(w, (const asn1h_type *)what, v);
}

static int enc_value(per_out *w, const asn1h_type *t, const void *v)
{
    const asn1h_codecs *codecs = w->e->spec->codecs;
    if (to_check(w->e->spec, t) && !codecs->satisfies(w->e->spec, t, v))
        return out_fail(w, ASN1H_ERR_CONSTRAINT);
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        return put_bits(w, 1, *(const bool *)v);
    case ASN1H_NULL:
        return 1;
    case ASN1H_INTEGER:
        return enc_integer(w, t, v);
    case ASN1H_ENUMERATED:
        return enc_enumerated(w, t, v);
    case ASN1H_REAL:
        return enc_real(w, *(const double *)v);
    case ASN1H_BIT_STRING:
        return enc_bits(w, t, (const asn1h_bits *)v);
    case ASN1H_BYTES:
        return enc_bytes(w, t, (const asn1h_bytes *)v);
    case ASN1H_OPEN: {
        const asn1h_open *open = (const asn1h_open *)v;
        if (open->type && open->value)
            return enc_in_open(w, open_value_out, open->type, open->value);
        if (!open->buf)
            return out_fail(w, ASN1H_ERR_VALUE);
        return put_open(w, open->buf, open->len);
    }
    case ASN1H_SEQUENCE:
    case ASN1H_SET:
        if (ASN1H_UNLIKELY(t->flags & ASN1H_T_PER_COMPILED) && w->compiled)
            return compiled_per(w->compiled, t)->encode(w, t, v);
        return enc_sequence(w, t, v);
    case ASN1H_CHOICE:
        if (ASN1H_UNLIKELY(t->flags & ASN1H_T_PER_COMPILED) && w->compiled)
            return compiled_per(w->compiled, t)->encode(w, t, v);
        return enc_choice(w, t, v);
    case ASN1H_SET_OF:
        if (ASN1H_UNLIKELY(w->canonical))
            return enc_sorted(w, t, v);
        /* fall through */
    case ASN1H_SEQUENCE_OF:
        if (ASN1H_UNLIKELY(t->flags & ASN1H_T_PER_COMPILED) && w->compiled)
            return compiled_per(w->compiled, t)->encode(w, t, v);
        return enc_list(w, t, v);
    }
    return out_fail(w, ASN1H_ERR_VALUE);
}

/* ---- For compiled routines (asn1h_ber.h) ---------------------------------------------- */

/* What compiled routines read most, bits and numbers of range 1 to 254 (a bit-field in
 * both variants, X.691 11.5.7.2), with eight octets of input left: one load, and no
 * frame, the other cases being tail calls. */
int asn1h_per_bits(per_in *r, unsigned n, uint64_t *v)
{
    if (ASN1H_LIKELY(n - 1 < 57 && (r->end >> 3) - (r->pos >> 3) >= 8)) {
        *v = asn1h_load_be64(r->buf + (r->pos >> 3)) << (r->pos & 7) >> (64 - n);
        r->pos += n;
        return 1;
    }
    return get_bits(r, n, v);
}

int asn1h_per_peek(per_in *r, unsigned n, uint64_t *v)
{
    size_t pos = r->pos;
    if (ASN1H_LIKELY((r->end >> 3) - (pos >> 3) >= 8)) {
        *v = asn1h_load_be64(r->buf + (pos >> 3)) << (pos & 7) >> (64 - n);
        return 1;
    }
    if (n > r->end - pos)
        return 0;
    get_bits(r, n, v);                      /* near the end; cannot fail */
    r->pos = pos;
    return 1;
}

int asn1h_per_number(per_in *r, uint64_t range, uint64_t *v)
{
    return get_number(r, range, v);
}

/* A compiled routine's string: its bounds and alphabet from the generator's shape. */
static void string_shape(const asn1h_per_shape *s, unsigned aligned, per_bounds *b,
                         alphabet *a)
{
    b->flags = s->per;
    b->lb = b->ub = 0;
    b->size_lb = s->size_lb;
    b->size_ub = s->size_ub;
    b->chars = NULL;
    b->nchars = 0;
    a->chars = NULL;
    a->nchars = 0;
    a->lowest = s->lowest;
    a->count = s->count;
    a->largest = s->largest;
    a->numeric = s->numeric;
    a->unit = s->unit;
    a->bits = s->bits[aligned != 0];
    a->indexed = s->indexed[aligned != 0];
}

/* A short string (asn1h_per_short_string, asn1h_ber.h): characters that go as their own
 * values, with a root size lb..ub of at most 255 sizes.  Its extension bit and length,
 * and in UPER its characters too, are read or written at once; anything else (outside
 * the root or the repertoire, longer, near the end) takes the general path, which reports
 * it as it would any string. */

/* Whether c is in a short string's repertoire, as index_to_char judges a character that
 * goes as its own value. */
ASN1H_INLINE int short_char(const asn1h_per_shape *s, uint64_t c)
{
    return c - s->lowest <= (uint64_t)(s->largest - s->lowest);
}

/* The word at the reading position (57 bits at least, when 8 octets are left) past a
 * short string's extension bit of 0 and length, and its size n: 1; else 0. */
ASN1H_INLINE int short_header(const per_in *r, const asn1h_per_shape *s, unsigned ext,
                              unsigned lbits, uint64_t *word, uint64_t *n)
{
    uint64_t w;
    if ((r->end >> 3) - (r->pos >> 3) < 8)
        return 0;
    w = asn1h_load_be64(r->buf + (r->pos >> 3)) << (r->pos & 7);
    if (w >> 63 & ext)
        return 0;
    w <<= ext;
    *n = s->size_lb + (lbits ? w >> (64 - lbits) : 0);
    *word = w << lbits;
    return *n <= s->size_ub;
}

/* UPER: the characters after it, when they all take at most 57 bits (USC), unpacked into
 * one word, which goes into the arena as one. */
ASN1H_INLINE int get_word_chars(per_in *r, const asn1h_per_shape *s, asn1h_bytes *v)
{
    unsigned ext = (s->per & ASN1H_PER_SIZE_EXT) != 0, bits = s->bits[0], k;
    unsigned lbits = bit_length(s->size_ub - s->size_lb), used;
    uint64_t word, n, chars = 0;
    asn1h_arena *arena = r->d->arena;
    if (!short_header(r, s, ext, lbits, &word, &n) || n > 8
        || (used = ext + lbits + (unsigned)n * bits) > 57)
        return 0;
    for (k = 0; k < n; k++, word <<= bits) {
        uint64_t c = word >> (64 - bits);
        if (!short_char(s, c))
            return 0;
        chars |= c << (56 - 8 * k);         /* character k in octet k */
    }
    if (!n) {
        v->buf = (const uint8_t *)"";
    } else if ((size_t)(arena->end - arena->cur) >= 8) {   /* no call: see ASN1H_ALIGN */
        asn1h_store_be64(arena->cur, chars);
        v->buf = arena->cur;
        arena->cur += 8;
    } else {
        return 0;                           /* the general path takes a new block */
    }
    r->pos += used;
    v->len = (size_t)n;
    return 1;
}

int asn1h_per_string(per_in *r, const asn1h_per_shape *s, void *v)
{
    per_bounds b;
    alphabet a;
    string_shape(s, r->aligned, &b, &a);
    return s->form == ASN1H_PER_BIT_STRING ? dec_bit_string(r, &b, (asn1h_bits *)v)
         : dec_string(r, &b, s->form == ASN1H_PER_CHARACTERS ? &a : NULL, (asn1h_bytes *)v);
}

/* APER: the characters are octets, after the length and aligned unless the size is
 * fixed at two or fewer (X.691 30.5.7), checked where they lie and kept there (zero-copy),
 * as the general path keeps them. */
ASN1H_INLINE int get_aligned_chars(per_in *r, const asn1h_per_shape *s, asn1h_bytes *v)
{
    unsigned ext = (s->per & ASN1H_PER_SIZE_EXT) != 0;
    unsigned lbits = bit_length(s->size_ub - s->size_lb);
    uint64_t word, n;
    size_t at = r->pos + ext + lbits, k;
    const uint8_t *p;
    if (!short_header(r, s, ext, lbits, &word, &n))
        return 0;
    if (lbits || n > 2)
        at = (at + 7) & ~(size_t)7;
    if ((at & 7) || at > r->end || n > (r->end - at) / 8)
        return 0;
    p = r->buf + at / 8;
    for (k = 0; k < n; k++)
        if (!short_char(s, p[k]))
            return 0;
    r->pos = at + 8 * (size_t)n;
    v->buf = p;
    v->len = (size_t)n;
    return 1;
}

int asn1h_per_short_string(per_in *r, const asn1h_per_shape *s, asn1h_bytes *v)
{
    if (r->aligned ? get_aligned_chars(r, s, v) : get_word_chars(r, s, v))
        return 1;
    return asn1h_per_string(r, s, v);
}

/* Whether member m (of type t) of a compiled routine's type goes straight to its own
 * compiled routine: a SEQUENCE, SET, CHOICE or SEQUENCE OF in place, after which the
 * tables would have nothing to do (no open types to resolve, no constraint that PER
 * leaves to asn1h_check, no CANONICAL-PER order).  The tables' dispatch on the kind was
 * most of such a member's cost. */
ASN1H_INLINE int to_compiled(const asn1h_spec *spec, const asn1h_member *m, const asn1h_type *t)
{
    return (t->flags & (ASN1H_T_PER_COMPILED | ASN1H_T_OPEN_MEMBERS)) == ASN1H_T_PER_COMPILED
        && !(m->flags & ASN1H_M_POINTER)
        && (t->kind == ASN1H_SEQUENCE || t->kind == ASN1H_SET || t->kind == ASN1H_CHOICE
            || (t->kind == ASN1H_SEQUENCE_OF && !to_check(spec, t)));
}

int asn1h_per_member(per_in *r, const asn1h_member *m, void *base)
{
    const asn1h_type *t = asn1h_member_type(r->d->types, m);
    int ok;
    if (!to_compiled(r->d->spec, m, t) || !r->compiled)
        return dec_member_of(r, m, t, base);
    ASN1H_COUNT(r->d, t->self);             /* as dec_value */
    if (r->d->depth == 0)
        ok = in_fail(r, ASN1H_ERR_DEPTH);
    else {
        r->d->depth--;
        ok = r->compiled[t->aux - 1].decode(r, t, (uint8_t *)base + m->offset);
        r->d->depth++;
    }
    return ok || asn1h_per_unwind(r, m);
}

int asn1h_per_unwind(per_in *r, const asn1h_member *m)
{
    asn1h_unwind(r->d, m);
    return 0;
}

int asn1h_per_additions(per_in *r, const asn1h_type *t, void *v)
{
    return dec_additions(r, t, v);
}

int asn1h_per_addition_alternative(per_in *r, const asn1h_type *t, void *v)
{
    return dec_addition_alternative(r, t, v);
}

int asn1h_per_put_bits(per_out *w, unsigned n, uint64_t v)
{
    return put_bits_inline(w, n, v);
}

int asn1h_per_put_number(per_out *w, uint64_t range, uint64_t v)
{
    if (ASN1H_LIKELY(range - 1 < 254 && w->buf && (w->cap >> 3) - (w->pos >> 3) >= 8)) {
        unsigned n = bit_length(range);     /* as asn1h_per_number */
        asn1h_store_be64(w->buf + (w->pos >> 3), merged_word(w, n, v));
        w->pos += n;
        return 1;
    }
    return put_constrained(w, range, v);
}

/* UPER: a short string written as one number, when it is in its root, takes at most 57
 * bits and the output has room: 1; else 0, and nothing written. */
ASN1H_INLINE int put_word_chars(per_out *w, const asn1h_per_shape *s, const asn1h_bytes *v)
{
    unsigned ext = (s->per & ASN1H_PER_SIZE_EXT) != 0, used;
    uint64_t x = v->len - s->size_lb;       /* after an extension bit of 0 */
    size_t k;
    if (v->len < s->size_lb || v->len > s->size_ub || v->len > 8)
        return 0;
    used = ext + bit_length(s->size_ub - s->size_lb) + (unsigned)v->len * s->bits[0];
    if (used - 1 >= 57 || !w->buf || (w->cap >> 3) - (w->pos >> 3) < 8)
        return 0;
    for (k = 0; k < v->len; k++) {
        if (!short_char(s, v->buf[k]))
            return 0;
        x = x << s->bits[0] | v->buf[k];
    }
    asn1h_store_be64(w->buf + (w->pos >> 3), merged_word(w, used, x));
    w->pos += used;
    return 1;
}

int asn1h_per_put_string(per_out *w, const asn1h_per_shape *s, const void *v)
{
    per_bounds b;
    alphabet a;
    string_shape(s, w->aligned, &b, &a);
    return s->form == ASN1H_PER_BIT_STRING ? enc_bit_string(w, &b, 0, (const asn1h_bits *)v)
         : enc_string(w, &b, s->form == ASN1H_PER_CHARACTERS ? &a : NULL,
                      (const asn1h_bytes *)v);
}

/* Whether v is in the root of short string s, characters and size. */
ASN1H_INLINE int short_in_root(const asn1h_per_shape *s, const asn1h_bytes *v)
{
    size_t k;
    if (v->len < s->size_lb || v->len > s->size_ub)
        return 0;
    for (k = 0; k < v->len; k++)
        if (!short_char(s, v->buf[k]))
            return 0;
    return 1;
}

/* APER: a short string in its root, an extension bit of 0 and the length as bits, then
 * the characters as octets, aligned as get_aligned_chars reads them. */
ASN1H_INLINE int put_aligned_chars(per_out *w, const asn1h_per_shape *s, const asn1h_bytes *v)
{
    unsigned ext = (s->per & ASN1H_PER_SIZE_EXT) != 0;
    unsigned lbits = bit_length(s->size_ub - s->size_lb);
    return (!(ext + lbits) || put_bits_inline(w, ext + lbits, v->len - s->size_lb))
        && ((!lbits && v->len <= 2) || out_align(w))
        && put_octets(w, v->buf, v->len);
}

int asn1h_per_put_short_string(per_out *w, const asn1h_per_shape *s, const asn1h_bytes *v)
{
    if (w->aligned) {
        if (short_in_root(s, v))
            return put_aligned_chars(w, s, v);
    } else if (put_word_chars(w, s, v)) {
        return 1;
    }
    return asn1h_per_put_string(w, s, v);
}

int asn1h_per_put_member(per_out *w, const asn1h_member *m, const void *base)
{
    const asn1h_type *t = asn1h_member_type(w->e->types, m);
    if (!to_compiled(w->e->spec, m, t) || !w->compiled)
        return enc_member_of(w, m, t, base);
    if (w->compiled[t->aux - 1].encode(w, t, (const uint8_t *)base + m->offset))
        return 1;
    asn1h_enc_unwind(w->e, m);
    return 0;
}

int asn1h_per_by_tables(per_out *w, const asn1h_type *t, const void *v)
{
    if (t->kind == ASN1H_SEQUENCE_OF || t->kind == ASN1H_SET_OF)
        return enc_list(w, t, v);
    return t->kind == ASN1H_CHOICE ? enc_choice_addition(w, t, v) : enc_extensible(w, t, v);
}

/* A list of n elements of `size` octets, zeroed, as v's array. */
static int alloc_items(per_in *r, const asn1h_type *t, void *v, size_t n, size_t size)
{
    uint8_t *items = NULL;
    (void)t;                                /* counted in profiling builds alone */
    if (n && !(items = grow_items(r, NULL, 0, n, size)))
        return 0;
    asn1h_array_set(v, items, n);
    ASN1H_COUNT_ITEMS(r->d, t->self, n);
    return 1;
}

int asn1h_per_items(per_in *r, const asn1h_type *t, void *v, size_t size, int *in_bounds)
{
    const asn1h_member *element = &r->d->spec->members[t->first];
    per_bounds b = bounds_of(r->d->spec, t);
    size_t at = r->pos, n;
    int bounded, more;
    if (!dec_size_ext(r, &b, &bounded) || !dec_count(r, &b, bounded, element, &n, &more))
        return 0;
    if (more) {                             /* in fragments: the tables, from the start */
        r->pos = at;
        return dec_list(r, t, v) ? 2 : 0;
    }
    *in_bounds = !bounded || (n >= b.size_lb && n <= b.size_ub);
    return alloc_items(r, t, v, n, size);     /* dec_count checked n against the input */
}

int asn1h_per_alloc_items(per_in *r, const asn1h_type *t, void *v, size_t n, size_t size)
{
    const asn1h_member *element = &r->d->spec->members[t->first];
    if (n > r->end - r->pos && asn1h_member_type(r->d->types, element)->kind != ASN1H_NULL)
        return in_fail(r, ASN1H_ERR_TRUNCATED);
    return alloc_items(r, t, v, n, size);
}

int asn1h_per_out_of_bounds(per_in *r)
{
    return in_fail(r, ASN1H_ERR_CONSTRAINT);
}

int asn1h_per_unwind_item(per_in *r, const asn1h_member *m, size_t i)
{
    if (m)
        asn1h_path_push(r->d->err, m, 0);
    asn1h_path_push(r->d->err, NULL, i);
    return 0;
}

int asn1h_per_put_items(per_out *w, const asn1h_type *t, size_t count)
{
    per_bounds b = bounds_of(w->e->spec, t);
    size_t chunk;
    int bounded;
    if (count >= FRAGMENT && !(root_bounded(&b, count) && b.size_ub < 65536))
        return 2;                           /* in fragments: the tables */
    if (!enc_size_ext(w, &b, count, &bounded))
        return 0;
    if (bounded && (count < b.size_lb || count > b.size_ub))
        return out_fail(w, ASN1H_ERR_CONSTRAINT);
    if (bounded && b.size_lb == b.size_ub && b.size_ub < 65536)
        return 1;
    return put_length(w, bounded ? b.size_lb : 0, b.size_ub, bounded, count, &chunk);
}

int asn1h_per_put_unwind_item(per_out *w, const asn1h_member *m, size_t i)
{
    if (m)
        asn1h_path_push(w->e->err, m, 0);
    asn1h_path_push(w->e->err, NULL, i);
    return 0;
}

asn1h_code asn1h_encode_per(const asn1h_type *type, const void *value, unsigned variant,
                            uint8_t *buf, size_t cap, size_t *len, asn1h_error *err)
{
    return asn1h_encode_per_with(NULL, type, value, variant, buf, cap, len, err);
}

asn1h_code asn1h_encode_per_with(const struct asn1h_per_routines *compiled,
                                 const asn1h_type *type, const void *value, unsigned variant,
                                 uint8_t *buf, size_t cap, size_t *len, asn1h_error *err)
{
    asn1h_error local;
    asn1h_enc e;
    per_out w;

    err = asn1h_error_reset(err ? err : &local, type);
    e.start = buf;
    e.err = err;
    e.spec = asn1h_spec_of(type);
    e.types = type - type->self;
    w.e = &e;
    w.buf = buf;
    w.pos = 0;
    w.cap = cap > SIZE_MAX / 8 ? SIZE_MAX & ~(size_t)7 : 8 * cap;
    w.aligned = (variant & ASN1H_APER) != 0;
    w.canonical = (variant & ASN1H_PER_CANONICAL) != 0;
    w.compiled = compiled;
    if (!enc_value(&w, type, value))
        return err->code == ASN1H_OK ? ASN1H_ERR_VALUE : err->code;
    if (w.pos == 0) {                       /* an empty encoding is one 0 octet */
        if (!put_bits(&w, 8, 0))
            return err->code;
    } else if ((w.pos & 7) && !put_bits(&w, 8 - (unsigned)(w.pos & 7), 0)) {
        return err->code;
    }
    *len = w.pos / 8;
    return ASN1H_OK;
}

asn1h_code asn1h_decode_per_canonical(const struct asn1h_per_routines *compiled,
                                      const asn1h_type *type, void *value,
                                      const uint8_t *buf, size_t len, unsigned variant,
                                      asn1h_arena *arena, const asn1h_decode_opts *opts,
                                      size_t *consumed, asn1h_error *err)
{
    return decode_per(compiled, set_of_order, type, value, buf, len, variant, arena, opts,
                      consumed, err);
}
