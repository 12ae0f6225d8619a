/* asn1h_value.c: what the runtime does with values besides coding them: compare them,
 * explain errors, write profile counters.  All of it walks the descriptors. */
#include <math.h>
#include <string.h>

#include "asn1h_ber.h"

const char *asn1h_strerror(asn1h_code code)
{
    static const char *const text[ASN1H_ERR_COUNT] = {
        "no error",
        "input ends inside a value",
        "unexpected tag",
        "bad length",
        "mandatory component missing",
        "component occurs twice",
        "wrong primitive/constructed form",
        "malformed contents",
        "value out of range",
        "not DER",
        "unexpected data after the last component",
        "nesting too deep",
        "memory limit reached",
        "output buffer too small",
        "no valid CHOICE alternative selected",
        "value has no DER form",
    };
    return (unsigned)code < ASN1H_ERR_COUNT ? text[code] : "unknown error";
}

size_t asn1h_error_format(const asn1h_error *err, char *buf, size_t size)
{
    size_t n = 0;
    unsigned i;
#define APPEND(...) \
    do { int k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, __VA_ARGS__); \
         if (k > 0) n += (size_t)k; } while (0)
    if (size)
        buf[0] = 0;
    APPEND("%s", err->type ? err->type->name : "?");
    if (err->truncated)
        APPEND("...");
    for (i = err->depth; i-- > 0;) {
        if (err->path[i].name)
            APPEND(".%s", err->path[i].name);
        else
            APPEND("[%lu]", (unsigned long)err->path[i].index);
    }
    APPEND(": %s", asn1h_strerror(err->code));
#undef APPEND
    return n;
}

/* ---- Equality ------------------------------------------------------------------------ */

/* An INTEGER as its minimal two's-complement octets. */
static void int_octets(const asn1h_type *t, const void *v, uint8_t scratch[10],
                       const uint8_t **octets, size_t *len)
{
    asn1h_enc e;
    asn1h_error err;
    e.start = scratch;
    e.err = &err;
    err.code = ASN1H_OK;
    if (t->aux == ASN1H_INT_BIG && ((const asn1h_int *)v)->big) {
        const asn1h_int *x = (const asn1h_int *)v;
        const uint8_t *b = x->big;
        size_t n = x->big_len;
        while (n > 1 && ((b[0] == 0 && !(b[1] & 0x80)) || (b[0] == 0xFF && (b[1] & 0x80)))) {
            b++;
            n--;
        }
        *octets = b;
        *len = n;
        return;
    }
    *octets = asn1h_enc_int(&e, t, scratch + 10, v);
    *len = (size_t)(scratch + 10 - *octets);
}

/* The number of bits of a BIT STRING that count: not the unused ones, and with named bits
 * not the trailing zero ones (X.680 22.7). */
static size_t significant_bits(const asn1h_type *t, const asn1h_bits *v)
{
    size_t n = v->len * 8 - (v->len ? (v->unused & 7u) : 0);
    if (t->flags & ASN1H_T_NAMED_BITS)
        while (n && !((v->buf[(n - 1) / 8] >> (7 - (n - 1) % 8)) & 1))
            n--;
    return n;
}

static bool bits_equal(const asn1h_type *t, const asn1h_bits *a, const asn1h_bits *b)
{
    size_t n = significant_bits(t, a), whole = n / 8;
    unsigned rest = (unsigned)(n % 8);
    if (n != significant_bits(t, b))
        return false;
    if (whole && memcmp(a->buf, b->buf, whole) != 0)
        return false;
    return !rest || ((a->buf[whole] ^ b->buf[whole]) & (0xFFu << (8 - rest)) & 0xFFu) == 0;
}

static const void *member_value(const asn1h_member *m, const void *base)
{
    const void *v = (const uint8_t *)base + m->offset;
    if (m->flags & ASN1H_M_POINTER)
        memcpy(&v, v, sizeof v);
    return v;
}

static bool members_equal(const asn1h_type *t, const void *a, const void *b)
{
    unsigned i;
    for (i = 0; i < t->nmembers; i++) {
        const asn1h_member *m = &t->members[i];
        const void *va = member_value(m, a), *vb = member_value(m, b);
        if (m->bit != ASN1H_NO_BIT) {
            int pa = asn1h_get_bit(a, t->aux, m->bit), pb = asn1h_get_bit(b, t->aux, m->bit);
            if (m->flags & ASN1H_M_DEFAULT) {   /* absent means the default value */
                if (!pa && m->dflt) va = m->dflt;
                if (!pb && m->dflt) vb = m->dflt;
            } else if (pa != pb) {
                return false;
            } else if (!pa) {
                continue;
            }
        }
        if (!va || !vb) {
            if (va != vb)
                return false;
            continue;
        }
        if (!asn1h_equal(m->type, va, vb))
            return false;
    }
    return true;
}

bool asn1h_equal(const asn1h_type *t, const void *a, const void *b)
{
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        return *(const bool *)a == *(const bool *)b;
    case ASN1H_INTEGER:
    case ASN1H_ENUMERATED: {
        uint8_t sa[10], sb[10];
        const uint8_t *oa, *ob;
        size_t la, lb;
        int_octets(t, a, sa, &oa, &la);
        int_octets(t, b, sb, &ob, &lb);
        return oa && ob && la == lb && memcmp(oa, ob, la) == 0;
    }
    case ASN1H_REAL: {
        double x = *(const double *)a, y = *(const double *)b;
        if (isnan(x) || isnan(y))
            return isnan(x) && isnan(y);
        return x == y && signbit(x) == signbit(y);
    }
    case ASN1H_BIT_STRING:
        return bits_equal(t, (const asn1h_bits *)a, (const asn1h_bits *)b);
    case ASN1H_BYTES: {
        const asn1h_bytes *x = (const asn1h_bytes *)a, *y = (const asn1h_bytes *)b;
        if (t->aux == 23 || t->aux == 24) {     /* times: equal as instants, by DER form */
            uint8_t dx[ASN1H_TIME_MAX], dy[ASN1H_TIME_MAX];
            size_t nx = asn1h_der_time(x->buf, x->buf + x->len, t->aux, dx);
            size_t ny = asn1h_der_time(y->buf, y->buf + y->len, t->aux, dy);
            if (nx && ny)
                return nx == ny && memcmp(dx, dy, nx) == 0;
        }
        return x->len == y->len && (x->len == 0 || memcmp(x->buf, y->buf, x->len) == 0);
    }
    case ASN1H_NULL:
        return true;
    case ASN1H_SEQUENCE:
    case ASN1H_SET:
        return members_equal(t, a, b);
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF: {
        const asn1h_member *element = &t->members[0];
        size_t size = (element->flags & ASN1H_M_POINTER) ? sizeof(void *) : element->type->size;
        void *ia, *ib;
        size_t ca, cb, i;
        asn1h_array_get(a, &ia, &ca);
        asn1h_array_get(b, &ib, &cb);
        if (ca != cb)
            return false;
        for (i = 0; i < ca; i++)
            if (!asn1h_equal(element->type, member_value(element, (uint8_t *)ia + i * size),
                             member_value(element, (uint8_t *)ib + i * size)))
                return false;
        return true;
    }
    case ASN1H_CHOICE: {
        uint32_t wa, wb;
        memcpy(&wa, a, sizeof wa);
        memcpy(&wb, b, sizeof wb);
        if (wa != wb)
            return false;
        if (wa == ASN1H_WHICH_UNKNOWN) {
            const asn1h_bytes *x = (const asn1h_bytes *)((const uint8_t *)a + t->aux);
            const asn1h_bytes *y = (const asn1h_bytes *)((const uint8_t *)b + t->aux);
            return asn1h_received_equal(x->buf, x->len, y->buf, y->len);
        }
        if (wa == 0 || wa > t->nmembers)
            return true;
        {
            const asn1h_member *m = &t->members[wa - 1];
            const void *va = member_value(m, a), *vb = member_value(m, b);
            return va && vb ? asn1h_equal(m->type, va, vb) : va == vb;
        }
    }
    case ASN1H_OPEN: {
        const asn1h_open *x = (const asn1h_open *)a, *y = (const asn1h_open *)b;
        if (x->type && x->value && x->type == y->type && y->value)
            return asn1h_equal(x->type, x->value, y->value);
        if (x->buf && y->buf)
            return asn1h_received_equal(x->buf, x->len, y->buf, y->len);
        return x->buf == y->buf && x->type == y->type;
    }
    }
    return false;
}

/* ---- Profiles ------------------------------------------------------------------------ */

int asn1h_profile_write(FILE *out, const asn1h_profile *profile)
{
    size_t i;
    int first = 1;
    fprintf(out, "{\"spec_hash\": \"%s\", \"messages\": %llu, \"counters\": {",
            profile->spec_hash, (unsigned long long)profile->messages);
    for (i = 0; i < profile->ntypes; i++) {
        if (!profile->values[i] && !profile->items[i])
            continue;
        fprintf(out, "%s\n  \"%s\": [%llu, %llu]", first ? "" : ",", profile->types[i]->name,
                (unsigned long long)profile->values[i], (unsigned long long)profile->items[i]);
        first = 0;
    }
    fprintf(out, "\n}}\n");
    return ferror(out) ? -1 : 0;
}
