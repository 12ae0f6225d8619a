/* asn1h_value.c: what the runtime does with values besides coding them: compare them,
 * explain errors, read names, write profile counters.  All of it walks the tables; it is
 * above the codecs (docs/runtime.md, "Layers"), and nothing in them calls it. */
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
        "not canonical",
        "unexpected data after the last component",
        "nesting too deep",
        "memory limit reached",
        "output buffer too small",
        "no valid CHOICE alternative selected",
        "value has no DER form",
        "stopped by the caller",
        "PDU larger than the maximum",
    };
    return (unsigned)code < ASN1H_ERR_COUNT ? text[code] : "unknown error";
}

size_t asn1h_error_format(const asn1h_error *err, char *buf, size_t size)
{
    const asn1h_spec *spec = err->type ? asn1h_spec_of(err->type) : NULL;
    size_t n = 0;
    unsigned i;
    char name[ASN1H_NAME_MAX];
#define APPEND(...) \
    do { int k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, __VA_ARGS__); \
         if (k > 0) n += (size_t)k; } while (0)
    if (size)
        buf[0] = 0;
    APPEND("%s", err->type ? asn1h_type_name(err->type, name, sizeof name) : "?");
    if (err->truncated)
        APPEND("...");
    for (i = err->depth; i-- > 0;) {
        const asn1h_member *m = err->path[i].member;
        if (!m) {
            APPEND("[%lu]", (unsigned long)err->path[i].index);
        } else if (spec && spec->names) {
            asn1h_name(spec, ASN1H_MEMBER_NAME(spec, m - spec->members), name, sizeof name);
            APPEND(".%s", name);
        } else {                            /* no names: the member's index in its type */
            unsigned position = 0;
            if (spec) {
                const asn1h_type *types = asn1h_spec_types(spec);
                unsigned index = (unsigned)(m - spec->members), t;
                for (t = 0; t < spec->ntypes; t++)
                    if (types[t].kind >= ASN1H_SEQUENCE && types[t].kind <= ASN1H_CHOICE
                        && index >= types[t].first && index < types[t].first + types[t].count) {
                        position = index - types[t].first;
                        break;
                    }
            }
            APPEND(".#%u", position);
        }
    }
    APPEND(": %s", asn1h_strerror(err->code));
#undef APPEND
    return n;
}

/* ---- Equality ------------------------------------------------------------------------ */

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

static bool equal(const asn1h_spec *spec, const asn1h_type *t, const void *a, const void *b);

static bool members_equal(const asn1h_spec *spec, const asn1h_type *t, const void *a,
                          const void *b)
{
    const asn1h_type *types = asn1h_spec_types(spec);
    unsigned i;
    for (i = 0; i < t->count; i++) {
        const asn1h_member *m = &spec->members[t->first + i];
        const void *va = member_value(m, a), *vb = member_value(m, b);
        if (m->bit != ASN1H_NO_BIT) {
            int pa = asn1h_get_bit(a, m->bit), pb = asn1h_get_bit(b, m->bit);
            if (m->flags & ASN1H_M_DEFAULT) {   /* absent means the default value */
                const asn1h_default *dflt = asn1h_default_of(spec, m);
                if (!pa && dflt && dflt->value) va = dflt->value;
                if (!pb && dflt && dflt->value) vb = dflt->value;
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
        if (!equal(spec, types + m->type, va, vb))
            return false;
    }
    return true;
}

bool asn1h_equal(const asn1h_type *t, const void *a, const void *b)
{
    return equal(asn1h_spec_of(t), t, a, b);
}

static bool equal(const asn1h_spec *spec, const asn1h_type *t, const void *a, const void *b)
{
    const asn1h_type *types = asn1h_spec_types(spec);
    switch ((asn1h_kind)t->kind) {
    case ASN1H_BOOLEAN:
        return *(const bool *)a == *(const bool *)b;
    case ASN1H_INTEGER:
    case ASN1H_ENUMERATED: {
        uint8_t sa[10], sb[10];
        const uint8_t *oa, *ob;
        size_t la, lb;
        oa = asn1h_int_octets(t, a, sa, &la);
        ob = asn1h_int_octets(t, b, sb, &lb);
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
        if ((t->flags & ASN1H_T_EXTENSIBLE)) {      /* unknown additions: the same ones */
            size_t offset = asn1h_extension_entry(spec, t)->offset;
            const asn1h_bytes *x = (const asn1h_bytes *)(const void *)((const uint8_t *)a + offset);
            const asn1h_bytes *y = (const asn1h_bytes *)(const void *)((const uint8_t *)b + offset);
            if (!asn1h_received_equal(x->buf, x->len, y->buf, y->len))
                return false;
        }
        return members_equal(spec, t, a, b);
    case ASN1H_SEQUENCE_OF:
    case ASN1H_SET_OF: {
        const asn1h_member *element = &spec->members[t->first];
        const asn1h_type *et = types + element->type;
        size_t size = asn1h_element_size(types, element);
        void *ia, *ib;
        size_t ca, cb, i;
        asn1h_array_get(a, &ia, &ca);
        asn1h_array_get(b, &ib, &cb);
        if (ca != cb)
            return false;
        for (i = 0; i < ca; i++)
            if (!equal(spec, et, member_value(element, (uint8_t *)ia + i * size),
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
            size_t offset = spec->members[t->first].offset;
            const asn1h_bytes *x = (const asn1h_bytes *)((const uint8_t *)a + offset);
            const asn1h_bytes *y = (const asn1h_bytes *)((const uint8_t *)b + offset);
            return asn1h_received_equal(x->buf, x->len, y->buf, y->len);
        }
        if (wa == 0 || wa > t->count)
            return true;
        {
            const asn1h_member *m = &spec->members[t->first + wa - 1];
            const void *va = member_value(m, a), *vb = member_value(m, b);
            return va && vb ? equal(spec, types + m->type, va, vb) : va == vb;
        }
    }
    case ASN1H_OPEN: {
        const asn1h_open *x = (const asn1h_open *)a, *y = (const asn1h_open *)b;
        if (x->type && x->value && x->type == y->type && y->value)
            return equal(spec, x->type, x->value, y->value);
        if (x->buf && y->buf)
            return asn1h_received_equal(x->buf, x->len, y->buf, y->len);
        return x->buf == y->buf && x->type == y->type;
    }
    }
    return false;
}

/* ---- Names ------------------------------------------------------------------------ */

#define NAME_REFERENCE 0xFFu        /* then hi, lo: the rest is name number hi << 8 | lo */
#define REFERENCES_MAX 8             /* followed at most, so that no table loops forever */

/* Past the codes of the name at p. */
static const uint8_t *skip_name(const uint8_t *p)
{
    for (;;) {
        unsigned c = *p++;
        if (c == 0)
            return p;
        if (c == NAME_REFERENCE)
            return p + 2;
        if (c >= 0xC0)
            p++;
    }
}

/* The codes of name number `name`: from the last indexed name, past the ones between. */
static const uint8_t *name_codes(const asn1h_spec *spec, size_t name)
{
    const uint8_t *p = spec->names + ((size_t)spec->name_index[name / ASN1H_NAME_STRIDE]
                                      << spec->name_shift);
    for (name %= ASN1H_NAME_STRIDE; name; name--)
        p = skip_name(p);
    return p;
}

/* The codes of name number `name` + 1, after those of `name` at `code` (an indexed name
 * may start past some padding). */
static const uint8_t *next_name(const asn1h_spec *spec, size_t name, const uint8_t *code)
{
    return (name + 1) % ASN1H_NAME_STRIDE ? skip_name(code) : name_codes(spec, name + 1);
}

/* Writes out the name whose codes start at `code`, as asn1h_name does. */
static size_t write_name(const asn1h_spec *spec, const uint8_t *code, char *buf, size_t size)
{
    unsigned references = 0;
    size_t n = 0;
    while (*code) {
        const char *word;
        if (*code >= 0x20 && *code < 0x80) {        /* a character */
            if (n + 1 < size)
                buf[n] = (char)*code;
            n++;
            code++;
            continue;
        }
        if (*code == NAME_REFERENCE) {              /* the rest is another name */
            if (++references > REFERENCES_MAX)
                break;
            code = name_codes(spec, (size_t)code[1] << 8 | code[2]);
            continue;
        }
        if (*code >= 0xC0) {                        /* a word by its offset */
            word = spec->strings + ((size_t)(code[0] & 0x3F) << 8 | code[1]);
            code += 2;
        } else {                                    /* a common word: 0x01..0x1F, 0x80.. */
            word = spec->strings + spec->common_words[*code < 0x20 ? *code - 0x01u
                                                                   : *code - 0x80u + 0x1Fu];
            code++;
        }
        for (; *word; word++, n++)
            if (n + 1 < size)
                buf[n] = *word;
    }
    if (size)
        buf[n < size ? n : size - 1] = 0;
    return n;
}

size_t asn1h_name(const asn1h_spec *spec, size_t name, char *buf, size_t size)
{
    return write_name(spec, name_codes(spec, name), buf, size);
}

const char *asn1h_type_name(const asn1h_type *t, char *buf, size_t size)
{
    const asn1h_spec *spec = asn1h_spec_of(t);
    if (spec->names && asn1h_name(spec, t->self, buf, size))
        return buf;                         /* (an anonymous type's name is empty) */
    if (spec->profile_names)
        snprintf(buf, size, "%s", spec->profile_strings
                 + ((size_t)spec->profile_names[t->self] << spec->profile_shift));
    else                                    /* no name: the entry's index */
        snprintf(buf, size, "#%u", (unsigned)t->self);
    return buf;
}

/* ---- Types by name ------------------------------------------------------------------- */

/* Whether path[0..len) is the name whose codes start at `code`. */
static int names(const asn1h_spec *spec, const char *path, size_t len, const uint8_t *code)
{
    char name[ASN1H_NAME_MAX];
    return write_name(spec, code, name, sizeof name) == len && memcmp(path, name, len) == 0;
}

const asn1h_type *asn1h_find_type(const asn1h_spec *spec, const char *path)
{
    const asn1h_type *types = asn1h_spec_types(spec), *t = NULL;
    const uint8_t *code;
    const char *rest;
    size_t i;
    if (!spec->names || !*path)             /* (anonymous types' names are empty) */
        return NULL;
    /* "Module.Type": module names may hold dots, so the longest prefix that is a type */
    for (rest = path + strlen(path); !t; ) {
        for (i = 0, code = NULL; i < spec->ntypes && !t; i++) {   /* names 0.. are types' */
            code = code ? next_name(spec, i - 1, code) : name_codes(spec, 0);
            if (names(spec, path, (size_t)(rest - path), code))
                t = &types[i];
        }
        if (t)
            break;
        while (rest > path && *--rest != '.')
            ;
        if (rest == path)
            return NULL;
    }
    while (*rest == '.') {                  /* then its components */
        const char *name = ++rest;
        size_t len;
        while (*rest && *rest != '.')
            rest++;
        len = (size_t)(rest - name);
        if (t->kind == ASN1H_SEQUENCE_OF || t->kind == ASN1H_SET_OF) {
            if (len != 1 || *name != '*')
                return NULL;
            t = &types[spec->members[t->first].type];
        } else if (t->kind == ASN1H_SEQUENCE || t->kind == ASN1H_SET
                   || t->kind == ASN1H_CHOICE) {
            const asn1h_type *found = NULL;
            for (i = t->first, code = NULL; i < (size_t)t->first + t->count && !found; i++) {
                code = code ? next_name(spec, ASN1H_MEMBER_NAME(spec, i - 1), code)
                            : name_codes(spec, ASN1H_MEMBER_NAME(spec, i));
                if (names(spec, name, len, code))
                    found = &types[spec->members[i].type];
            }
            if (!(t = found))
                return NULL;
        } else {
            return NULL;
        }
    }
    return *rest ? NULL : t;
}

/* ---- Profiles ------------------------------------------------------------------------ */

static const char *profile_name(const asn1h_spec *spec, size_t i)
{
    return spec->profile_strings + ((size_t)spec->profile_names[i] << spec->profile_shift);
}

int asn1h_profile_write(FILE *out, const asn1h_profile *profile)
{
    const asn1h_spec *spec = profile->spec;
    size_t i;
    int first = 1;
    if (!spec->profile_names)
        return -1;                          /* built without ASN1H_PROFILE: no names */
    fprintf(out, "{\"spec_hash\": \"%s\", \"messages\": %llu, \"counters\": {",
            spec->spec_hash, (unsigned long long)profile->messages);
    for (i = 0; i < spec->ntypes; i++) {
        const char *name = profile_name(spec, i);
        unsigned long long values = 0, items = 0;
        size_t j;
        if (!profile->values[i] && !profile->items[i])
            continue;
        for (j = 0; j < i; j++)             /* counted with an earlier entry of its name */
            if ((profile->values[j] || profile->items[j]) && !strcmp(profile_name(spec, j), name))
                break;
        if (j < i)
            continue;
        /* entries of one name (anonymous types of one built-in, constrained differently)
         * count together */
        for (j = i; j < spec->ntypes; j++)
            if (!strcmp(profile_name(spec, j), name)) {
                values += profile->values[j];
                items += profile->items[j];
            }
        fprintf(out, "%s\n  \"%s\": [%llu, %llu]", first ? "" : ",", name, values, items);
        first = 0;
    }
    fprintf(out, "\n}}\n");
    return ferror(out) ? -1 : 0;
}
