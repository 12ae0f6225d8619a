/* asn1h_check.c: subtype constraints checked at run time (an optional part: a spec
 * without checkable constraints does not link it, one whose constraints asn1h_check
 * decides inline links asn1h_satisfies_size alone, and one with INTEGER ranges or BIT
 * STRING sizes beside them asn1h_satisfies_numbers).
 *
 * A type's constraint record (asn1h_constraint) lists intervals of spec->bounds: the
 * permitted INTEGER values, the permitted sizes (characters of a string, bits of a BIT
 * STRING, elements of a list), and the permitted characters.  The generator writes only
 * the constraints that are not extensible, over-approximated where the exact set would
 * not fit these forms (docs/runtime.md, "Constraints"), so a value the specification
 * allows always passes. */
#include "asn1h_ber.h"

static int within(const int64_t *pairs, unsigned n, int64_t x)
{
    const int64_t *end = pairs + 2 * (size_t)n;
    for (; pairs != end; pairs += 2)
        if (x >= pairs[0] && x <= pairs[1])
            return 1;
    return 0;
}

/* A number beyond int64_t passes only an interval unbounded on its side. */
static int within_beyond(const int64_t *pairs, unsigned n, int negative)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (negative ? pairs[2 * i] == INT64_MIN : pairs[2 * i + 1] == INT64_MAX)
            return 1;
    return 0;
}

static int integer_ok(const asn1h_type *t, const void *v, const int64_t *pairs, unsigned n)
{
    unsigned storage = asn1h_storage(t);
    if (storage == ASN1H_INT_BIG) {
        const asn1h_int *x = (const asn1h_int *)v;
        if (x->big)
            return within_beyond(pairs, n, x->big_len && (x->big[0] & 0x80));
        return within(pairs, n, x->v);
    }
    if (storage == ASN1H_INT_U64 && *(const uint64_t *)v > (uint64_t)INT64_MAX)
        return within_beyond(pairs, n, 0);
    return within(pairs, n, asn1h_load_int(storage, v));
}

static int bytes_ok(const asn1h_type *t, const asn1h_bytes *v, const int64_t *sizes,
                    unsigned nsizes, const int64_t *chars, unsigned nchars)
{
    unsigned unit = t->aux == 30 ? 2u : t->aux == 28 ? 4u : 1u;   /* BMP, Universal */
    size_t i;
    if (nsizes) {
        size_t n = v->len / unit;
        if (t->aux == 12)                   /* UTF8String: characters, not octets */
            n = asn1h_utf8_length(v->buf, v->buf + v->len);
        if (v->len % unit || n > (size_t)INT64_MAX || !within(sizes, nsizes, (int64_t)n))
            return 0;
    }
    for (i = 0; nchars && i + unit <= v->len; i += unit)
        if (!within(chars, nchars, (int64_t)asn1h_load_be(v->buf + i, unit)))
            return 0;
    return 1;
}

ASN1H_INLINE int bits_ok(const asn1h_bits *v, const int64_t *sizes, unsigned nsizes)
{
    size_t n = v->len ? v->len * 8 - (v->unused & 7u) : 0;
    return !nsizes || (n <= (size_t)INT64_MAX && within(sizes, nsizes, (int64_t)n));
}

int asn1h_satisfies(const asn1h_spec *spec, const asn1h_type *t, const void *v)
{
    const asn1h_constraint *c = &spec->constraints[t->extra - 1];
    const int64_t *values = spec->bounds + 2 * (size_t)c->first;
    const int64_t *sizes = values + 2 * c->values;
    const int64_t *chars = sizes + 2 * c->sizes;
    size_t n;
    void *items;

    switch ((asn1h_kind)t->kind) {
    case ASN1H_INTEGER:
        return !c->values || integer_ok(t, v, values, c->values);
    case ASN1H_BYTES:
        return bytes_ok(t, (const asn1h_bytes *)v, sizes, c->sizes, chars, c->chars);
    case ASN1H_BIT_STRING:
        return bits_ok((const asn1h_bits *)v, sizes, c->sizes);
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF:
        asn1h_array_get(v, &items, &n);
        return !c->sizes || (n <= (size_t)INT64_MAX && within(sizes, c->sizes, (int64_t)n));
    default:
        return 1;
    }
}

/* The checker of a spec each of whose records is one SIZE interval of a list or of a
 * string of one octet per character, or only what PER encodes (emit/tables.py): BER's
 * asn1h_check decides those inline, and PER, which asks spec->codecs, gets this rather
 * than the general checker above. */
int asn1h_satisfies_size(const asn1h_spec *spec, const asn1h_type *t, const void *v)
{
    const asn1h_constraint *c = &spec->constraints[t->extra - 1];
    return !c->sizes || asn1h_record_size_ok(spec, c, v);
}

/* The checker of a spec whose other records are intervals of an INTEGER's values, in a
 * storage whose numbers are all int64_t's, or of a BIT STRING's sizes (emit/tables.py):
 * LDAP's, Kerberos's and X.400's, without the general checker's characters and big
 * numbers. */
int asn1h_satisfies_numbers(const asn1h_spec *spec, const asn1h_type *t, const void *v)
{
    const asn1h_constraint *c = &spec->constraints[t->extra - 1];
    const int64_t *values = spec->bounds + 2 * (size_t)c->first;
    switch ((asn1h_kind)t->kind) {
    case ASN1H_INTEGER:
        return !c->values || within(values, c->values, asn1h_load_int(asn1h_storage(t), v));
    case ASN1H_BIT_STRING:
        return bits_ok((const asn1h_bits *)v, values, c->sizes);    /* (no values) */
    default:
        return !c->sizes || asn1h_record_size_ok(spec, c, v);
    }
}
