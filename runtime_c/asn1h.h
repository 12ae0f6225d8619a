/* asn1h.h: the asn1c-hybrid runtime.
 *
 * Generated code describes every ASN.1 type with one entry of its spec's compact tables
 * (asn1h_type, below).  A type is marshalled either by compiled routines, which the tables
 * point to, or by the interpreter in this runtime, which walks the type's member table.
 * Both read and write the same C structs, so a message crosses between the two at any
 * level.
 *
 * Options (define before including, or on the compiler's command line):
 *   ASN1H_PROFILE          count the values of each type as they are decoded
 *                          (see asn1h_profile); off by default, costs nothing when off.
 *   ASN1H_NO_NAMES         (for the generated .c files) leave the names of types, members
 *                          and enumeration items out of the tables: error paths then give
 *                          member indexes, and JER is unavailable (asn1h_print_jer fails).
 *   ASN1H_MAX_DEPTH        default nesting limit for decoding (default 64).
 *   ASN1H_PATH_MAX         entries kept in an error's type path (default 16).
 *   ASN1H_ARENA_BLOCK      size of the first heap block of an arena (default 4096).
 *
 * Conventions:
 *   - Decoding writes into zeroed memory: asn1h_decode clears the value first, and every
 *     array or pointed-to value comes zeroed from the arena.
 *   - Everything a decoded value points to lives in the input buffer (primitive strings,
 *     zero copy) or in the arena.  Keep the input alive as long as the value;
 *     asn1h_arena_reset frees a whole message in one call.
 *   - Encoding writes DER backwards from the end of the output, so that every length is
 *     known before its header is written.
 */
#ifndef ASN1H_H
#define ASN1H_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ASN1H_MAX_DEPTH
#define ASN1H_MAX_DEPTH 64
#endif
#ifndef ASN1H_PATH_MAX
#define ASN1H_PATH_MAX 16
#endif
#ifndef ASN1H_ARENA_BLOCK
#define ASN1H_ARENA_BLOCK 4096
#endif

/* ---- Value representations shared by compiled and interpreted code ------------------ */

/* OCTET STRING, every character string and time type, OBJECT IDENTIFIER, RELATIVE-OID:
 * the contents octets, pointing into the input when the encoding was primitive. */
typedef struct asn1h_bytes {
    const uint8_t *buf;
    size_t len;
} asn1h_bytes;

/* BIT STRING: `len` octets of bits, the last `unused` (0..7) bits of the last octet unused. */
typedef struct asn1h_bits {
    const uint8_t *buf;
    size_t len;
    uint8_t unused;
} asn1h_bits;

/* INTEGER without a constraint that fits a native type: exact at any length.
 * When `big` is NULL the value is `v`; otherwise it is the two's-complement big-endian
 * number in big[0..big_len) and `v` is unused.  Decoding uses `v` whenever it fits. */
typedef struct asn1h_int {
    int64_t v;
    const uint8_t *big;
    size_t big_len;
} asn1h_int;

/* NULL takes one byte so that it can be a struct or union member. */
typedef uint8_t asn1h_null;

struct asn1h_type;

/* ANY, ANY DEFINED BY and open types: the complete TLV as received.  When the spec's table
 * constraint identifies the type, the decoder also decodes it: `type` and `value` are set. */
typedef struct asn1h_open {
    const uint8_t *buf;
    size_t len;
    const struct asn1h_type *type;
    void *value;
} asn1h_open;

/* ---- Errors -------------------------------------------------------------------------- */

typedef enum asn1h_code {
    ASN1H_OK = 0,
    ASN1H_ERR_TRUNCATED,    /* the input ends inside a value (a length runs past its end) */
    ASN1H_ERR_TAG,          /* a tag that the type does not allow here */
    ASN1H_ERR_LENGTH,       /* a malformed length, or one that overruns its container
                               inside the input */
    ASN1H_ERR_MISSING,      /* a mandatory component is absent */
    ASN1H_ERR_DUPLICATE,    /* a SET component occurs twice */
    ASN1H_ERR_FORM,         /* constructed form of a primitive type, or the reverse */
    ASN1H_ERR_VALUE,        /* malformed contents (BOOLEAN length, empty INTEGER, ...) */
    ASN1H_ERR_CONSTRAINT,   /* a value outside the range of its C type or constraint */
    ASN1H_ERR_NOT_DER,      /* strict DER mode (or CANONICAL-PER decoding): a valid
                               but non-canonical encoding */
    ASN1H_ERR_TRAILING,     /* data left inside a constructed value that should be empty */
    ASN1H_ERR_DEPTH,        /* nesting deeper than the limit */
    ASN1H_ERR_MEMORY,       /* the arena's limit is reached */
    ASN1H_ERR_BUFFER,       /* encoding: the output buffer is too small */
    ASN1H_ERR_CHOICE,       /* encoding: a CHOICE with no valid alternative selected */
    ASN1H_ERR_NO_DER,       /* encoding: a value DER cannot represent (a local time),
                               or that a build of DER's forms cannot write in DER (a time
                               in another form, a value kept with BER's framing) */
    ASN1H_ERR_STOPPED,      /* a caller's callback stopped the decoding (asn1h_walk) */
    ASN1H_ERR_TOO_BIG,      /* a stream's PDU is larger than its maximum (asn1h_stream) */
    ASN1H_ERR_COUNT
} asn1h_code;

struct asn1h_member;

typedef struct asn1h_path_entry {
    const struct asn1h_member *member;  /* the component or alternative; NULL: an element */
    size_t index;                       /* the element's index when member is NULL */
} asn1h_path_entry;

typedef struct asn1h_error {
    asn1h_code code;
    size_t offset;                          /* byte offset in the input (decoding) */
    const struct asn1h_type *type;          /* the type asked for at the top */
    unsigned depth;                         /* entries in path[], innermost first */
    bool truncated;                         /* more levels than ASN1H_PATH_MAX */
    asn1h_path_entry path[ASN1H_PATH_MAX];
} asn1h_error;

const char *asn1h_strerror(asn1h_code code);
/* "PersonnelRecordModule.PersonnelRecord.children[1].name: unexpected tag": the type path
 * and the error; err->offset says where in the input.  In a build without names the
 * components are their indexes in their type: "#12.children[1].#0". */
size_t asn1h_error_format(const asn1h_error *err, char *buf, size_t size);

/* ---- Arena --------------------------------------------------------------------------- */

typedef struct asn1h_block asn1h_block;

typedef struct asn1h_arena {
    uint8_t *cur, *end;      /* free space in the current block */
    uint8_t *buf;            /* the caller's buffer, or NULL */
    size_t buf_size;
    asn1h_block *blocks;     /* heap blocks, newest first */
    size_t heap_limit;       /* most bytes taken from the heap; 0 means never use it */
    size_t heap_used;
} asn1h_arena;

#define ASN1H_ALIGN 8u

/* buf/size: a caller's buffer used first (may be NULL/0).  heap_limit: how many bytes the
 * arena may take from malloc beyond it (0: none at all, a fixed-buffer arena). */
void asn1h_arena_init(asn1h_arena *a, void *buf, size_t size, size_t heap_limit);
/* Frees every value decoded into the arena in one call.  It keeps the caller's buffer, or
 * else its largest heap block, so that decoding message after message soon makes no heap
 * allocation (from the second message on, the third when one needed several blocks), and
 * zeroes only the bytes that were used, so its cost follows the message, not the buffer. */
void asn1h_arena_reset(asn1h_arena *a);
/* Gives every heap block back. */
void asn1h_arena_free(asn1h_arena *a);
/* A point to come back to: asn1h_arena_rollback frees everything allocated since
 * asn1h_arena_save, as asn1h_arena_reset does for a whole message (element-wise decoding
 * runs each element in such a scope).  A rollback keeps the newest heap block for the
 * next scope, so that a loop of scopes soon makes no heap allocation. */
typedef struct asn1h_arena_mark {
    uint8_t *cur, *end;
    asn1h_block *blocks;
} asn1h_arena_mark;
void asn1h_arena_save(const asn1h_arena *a, asn1h_arena_mark *m);
void asn1h_arena_rollback(asn1h_arena *a, asn1h_arena_mark *m);
/* The bytes the arena holds for values: of the caller's buffer and of its heap blocks,
 * up to the free space of the current one. */
size_t asn1h_arena_used(const asn1h_arena *a);
void *asn1h_arena_alloc_slow(asn1h_arena *a, size_t size);

/* Zeroed, ASN1H_ALIGN-aligned memory, or NULL when the limit is reached. */
static inline void *asn1h_arena_alloc(asn1h_arena *a, size_t size)
{
    size_t rounded = (size + (ASN1H_ALIGN - 1)) & ~(size_t)(ASN1H_ALIGN - 1);
    /* rounded - 1 wraps for 0, and for a size whose rounding overflowed: the slow path */
    if (rounded - 1 < (size_t)(a->end - a->cur)) {
        void *r = a->cur;
        a->cur += rounded;
        return r;      /* free space is always zero: see asn1h_arena_reset */
    }
    return asn1h_arena_alloc_slow(a, size);
}

/* ---- Descriptors: the compact tables ------------------------------------------------
 *
 * A specification's tables are one constant object, the spec: a header (asn1h_spec) with
 * the type array right after it.  Types, members and every other entry refer to each other
 * by 16-bit indices, and names live in one string pool; docs/runtime.md, "The table
 * format", documents every byte with a worked example.  A type's descriptor is its entry
 * in the type array: `&PersonnelRecord_type` is `&spec.types[k]`, and the runtime finds
 * the spec from it (asn1h_spec_of).  Generated headers name each entry with a macro. */

typedef enum asn1h_kind {
    ASN1H_BOOLEAN, ASN1H_INTEGER, ASN1H_ENUMERATED, ASN1H_REAL, ASN1H_BIT_STRING,
    ASN1H_BYTES, ASN1H_NULL, ASN1H_SEQUENCE, ASN1H_SET, ASN1H_SEQUENCE_OF, ASN1H_SET_OF,
    ASN1H_CHOICE, ASN1H_OPEN
} asn1h_kind;

/* A tag as one number, as decoding compares them: class in the top two bits, then the
 * tag number.  ASN1H_TAG values sort in the canonical order of tags (X.680 8.6). */
#define ASN1H_TAG(cls, num) (((uint32_t)(cls) << 30) | (uint32_t)(num))
#define ASN1H_UNIVERSAL   0u
#define ASN1H_APPLICATION 1u
#define ASN1H_CONTEXT     2u
#define ASN1H_PRIVATE     3u

/* A tag packed in 16 bits, as the tables keep them: class in the top two bits, the number
 * below (up to ASN1H_PACKED_MAX).  0 means no tag: UNIVERSAL 0 is reserved. */
#define ASN1H_PACK_TAG(cls, num) ((uint16_t)(((unsigned)(cls) << 14) | (unsigned)(num)))
#define ASN1H_PACKED_MAX 0x3FFFu
#define ASN1H_UNPACK_TAG(t) ((uint32_t)((t) >> 14) << 30 | ((t) & 0x3FFFu))

/* asn1h_type.aux for INTEGER and ENUMERATED: the C storage. */
enum {
    ASN1H_INT_BIG,                    /* asn1h_int */
    ASN1H_INT_I8, ASN1H_INT_U8, ASN1H_INT_I16, ASN1H_INT_U16,
    ASN1H_INT_I32, ASN1H_INT_U32, ASN1H_INT_I64, ASN1H_INT_U64
};

/* An addition of an extensible ENUMERATED that this version does not know, received in
 * PER.  PER sends the index k of an item among the type's additions, not its number, so
 * the C value of such an item is ASN1H_ENUM_ADDITION(k): a number of a range that no
 * known item uses (a type whose items reach into it refuses unknown additions).  PER
 * writes it back as it came; BER and DER, which need its number, refuse it
 * (ASN1H_ERR_VALUE), and BER decoding refuses an unknown number of that range.  JER
 * writes it as {"...": k}. */
#define ASN1H_ENUM_ADDITION(k) ((int64_t)INT32_MIN + (int64_t)(k))
#define ASN1H_ENUM_ADDITIONS   65536u           /* k < ASN1H_ENUM_ADDITIONS */
#define asn1h_enum_addition(x) ((uint64_t)(x) - (uint64_t)(int64_t)INT32_MIN \
                                < (uint64_t)ASN1H_ENUM_ADDITIONS)

/* asn1h_type.flags */
#define ASN1H_T_EXTENSIBLE   0x01u    /* "...": unknown additions are kept (SEQUENCE, SET:
                                         see the extension entry; CHOICE: `u.unknown_`) */
#define ASN1H_T_NAMED_BITS   0x02u    /* BIT STRING with named bits: DER drops trailing 0s */
#define ASN1H_T_DENSE        0x04u    /* ENUMERATED whose items are 0, 1, 2, ...: no values;
                                         CHOICE whose roots' PER indices are 0, 1, 2, ... */
#define ASN1H_T_OPEN_MEMBERS 0x08u    /* SEQUENCE/SET with table-constrained open types */
#define ASN1H_T_FIXED_SIZE   0x10u    /* BIT STRING (SIZE(n)): JER writes it as bare hex */
#define ASN1H_T_PER_COMPILED 0x10u    /* constructed types: has compiled PER routines,
                                         at aux - 1 of the array <spec>_decode_per passes */
#define ASN1H_T_CONTAINING   0x20u    /* OCTET STRING (CONTAINING open type): an asn1h_open
                                         of the contents, `first` its table */
#define ASN1H_T_LAYOUTS      0x20u    /* constructed types: a PDU with layout fast paths,
                                         which asn1h_decode tries first (codecs->layouts) */
#define ASN1H_T_TAG_LIST     0x40u    /* `tag` indexes spec->tags: {count, tags...} */
#define ASN1H_T_COMPILED     0x80u    /* has compiled BER routines: spec->routines[aux - 1] */

/* asn1h_member.flags */
#define ASN1H_M_OPTIONAL  0x01u
#define ASN1H_M_DEFAULT   0x02u       /* its value is in spec->defaults */
#define ASN1H_M_EXTENSION 0x04u       /* an extension addition: may be absent */
#define ASN1H_M_POINTER   0x08u       /* stored as a pointer (recursive types) */
#define ASN1H_M_IMPLICIT  0x10u       /* `tag` replaces the type's outermost tag */
#define ASN1H_M_EXPLICIT  0x20u       /* `tag` wraps the type's tags */
#define ASN1H_M_LONG_TAG  0x40u       /* `tag` indexes spec->tags (a number above 16383) */
#define ASN1H_M_DEFAULT_VALUE 0x80u   /* a DEFAULT that is not all zero: decoding an absent
                                         member copies it in (zeroed memory is the rest) */

#define ASN1H_NO_BIT 0xFFu

typedef struct asn1h_dec asn1h_dec;
typedef struct asn1h_enc asn1h_enc;
typedef struct asn1h_spec asn1h_spec;

/* The compiled routines of a type work on its contents, inside its innermost own tag; the
 * caller reads and writes the tags.  For CHOICE and open types, which have no tag of their
 * own, the "contents" are the whole TLV of the chosen alternative.
 *   decode: [p, end) bounds the contents (end is the enclosing bound when `form` has
 *           ASN1H_FORM_INDEF); returns the position after them, or NULL after an error.
 *   encode: writes the contents so that they end at p; returns their start, or NULL. */
#define ASN1H_FORM_CONSTRUCTED 0x1u
#define ASN1H_FORM_INDEF       0x2u
typedef const uint8_t *asn1h_decode_fn(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                       unsigned form, void *value);
typedef uint8_t *asn1h_encode_fn(asn1h_enc *e, uint8_t *p, const void *value);

/* A type: 16 bytes.  Kind-specific fields:
 *   SEQUENCE, SET  first, count: its members (a SET's in DER tag order); aux: the index
 *                  of its compiled routines plus 1, in spec->routines (BER: with
 *                  ASN1H_T_COMPILED) and in the PER routines (with ASN1H_T_PER_COMPILED;
 *                  a build without BER has these alone).  The presence
 *                  bits `present_[]` are the struct's first member (offset 0).  With
 *                  ASN1H_T_EXTENSIBLE, members[first + count] is its extension entry:
 *                  `offset` that of `unknown_`, `type` the index of the member before
 *                  which unknown additions come (count: after the last)
 *   CHOICE         the same; `which` (uint32_t) is the struct's first member: 0 none, i+1
 *                  members[i], ASN1H_WHICH_UNKNOWN an unknown alternative kept in
 *                  `u.unknown_` (an asn1h_bytes at the offset of every alternative).
 *                  With ASN1H_T_DENSE, its `extra` root alternatives come first, in the
 *                  canonical order of their tags: members[i]'s PER index is i
 *   SEQUENCE OF    first: the element's member entry; aux: routines as above
 *   INTEGER        aux: storage (ASN1H_INT_*)
 *   ENUMERATED     aux: storage; extra: how many items are the root's; first, count: its
 *                  items in spec->enum_values (unless ASN1H_T_DENSE) and among the names
 *   BYTES          aux: the universal tag number of the built-in type (4, 6, 12, 22, ...)
 *   OPEN           first, count: its table in spec->open (or count 0: kept raw); extra:
 *                  the key member's index in the parent (also BYTES with
 *                  ASN1H_T_CONTAINING, whose aux stays its universal tag number) */
typedef struct asn1h_type {
    uint8_t kind;                   /* asn1h_kind */
    uint8_t flags;                  /* ASN1H_T_* */
    uint16_t self;                  /* index in the spec's type array */
    uint16_t size;                  /* sizeof the C representation */
    uint16_t tag;                   /* its one own tag, packed (that of its own TLV);
                                       0: none; several tags, a long one, or those of a
                                       CHOICE or open type: ASN1H_T_TAG_LIST */
    uint16_t first;
    uint16_t count;
    uint16_t aux;
    uint16_t extra;                 /* ENUMERATED: root item count; OPEN: key member */
} asn1h_type;

/* A member of a SEQUENCE, SET or CHOICE, or the element of a list: 8 bytes. */
typedef struct asn1h_member {
    uint16_t type;                  /* index in the spec's type array */
    uint16_t offset;                /* in the parent struct (CHOICE: of the union member) */
    uint16_t tag;                   /* the outermost tag of its encoding, packed: its own
                                       with ASN1H_M_IMPLICIT/EXPLICIT, else its type's;
                                       0 for an untagged CHOICE or open type */
    uint8_t flags;                  /* ASN1H_M_* */
    uint8_t bit;                    /* presence bit in the parent's present_[], or
                                       ASN1H_NO_BIT */
} asn1h_member;

#define ASN1H_WHICH_UNKNOWN 0xFFFFu

/* A DEFAULT value: its C value, and its DER contents (a member whose own encoding is
 * that is left out by DER, X.690 11.5). */
typedef struct asn1h_default {
    const void *value;
    const uint8_t *der;
    uint16_t member;                /* index in spec->members */
    uint16_t der_len;
} asn1h_default;

/* An entry of an open type's table: the key's contents octets (in spec->data) and the
 * type it selects. */
typedef struct asn1h_open_entry {
    uint16_t key;                   /* offset in spec->data */
    uint16_t key_len;
    uint16_t type;
} asn1h_open_entry;

typedef struct asn1h_routines {
    asn1h_decode_fn *decode;
    asn1h_encode_fn *encode;
} asn1h_routines;

/* A constraint checked at run time (asn1h_check.c): `values` intervals of INTEGER values,
 * then `sizes` intervals of sizes, then `chars` intervals of permitted characters, as
 * pairs {lowest, highest} of spec->bounds from pair `first` on.  INT64_MIN and INT64_MAX
 * stand for MIN and MAX.  A type's record is spec->constraints[extra - 1], for INTEGER,
 * BIT STRING, BYTES (not CONTAINING an open type), SEQUENCE OF and SET OF; extra 0: none. */
typedef struct asn1h_constraint {
    uint16_t first;
    uint8_t values, sizes, chars;
    uint8_t per;                    /* ASN1H_PER_*: the PER-visible constraint (X.691 8.3) */
    uint16_t per_first;             /* its pairs in spec->bounds: {lb, ub} of the values
                                       (with ASN1H_PER_LB or _UB; with both, ub < lb says
                                       that ub, beyond INT64_MAX, is to be read as a
                                       uint64_t), {lb, ub} of the sizes
                                       (with ASN1H_PER_SIZE), then per_chars intervals of
                                       permitted characters (with ASN1H_PER_CHARS) */
    uint16_t per_chars;
} asn1h_constraint;

#define ASN1H_PER_LB        0x01u   /* values: a lower bound */
#define ASN1H_PER_UB        0x02u   /* values: an upper bound */
#define ASN1H_PER_VALUE_EXT 0x04u   /* values: extensible (a bit says "in the root") */
#define ASN1H_PER_SIZE      0x08u   /* sizes: a root (its lb) */
#define ASN1H_PER_SIZE_UB   0x10u   /* sizes: an upper bound */
#define ASN1H_PER_SIZE_EXT  0x20u   /* sizes: extensible */
#define ASN1H_PER_CHARS     0x40u   /* a permitted alphabet */
#define ASN1H_PER_BIG       0x40u   /* on an INTEGER, with ASN1H_PER_LB alone: bounds
                                       beyond 64 bits, the values' pair then giving the
                                       offsets in spec->data of their octets (a count, then
                                       two's complement; -1: no ub) */
#define ASN1H_PER_DECIDES   0x80u   /* these bounds are the whole constraint (one interval
                                       of values or of sizes, bounded, not extensible):
                                       PER, which refuses a number outside them, need not
                                       check it again */

/* The runtime's optional parts a spec uses: the generator sets the ones its types need,
 * so that a program links only those (--gc-sections drops the rest). */
struct asn1h_decode_opts;
typedef struct asn1h_codecs {
    /* SET contents: components in any order (asn1h_decode.c) */
    const uint8_t *(*set_decode)(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                 const uint8_t *end, unsigned form, void *value);
    /* BER's constructed strings (asn1h_decode.c).  NULL in a build of DER's forms of
     * strings and times (--encoding der): it refuses them as ASN1H_ERR_NOT_DER */
    const uint8_t *(*constructed_string)(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                         unsigned form, uint32_t segment_tag,
                                         asn1h_bytes *v, uint8_t *unused);
    /* REAL contents (asn1h_real.c) */
    const uint8_t *(*real_decode)(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  unsigned form, double *v);
    uint8_t *(*real_encode)(asn1h_enc *e, uint8_t *p, double v);
    /* ENUMERATED contents: one of the type's numbers, or an addition's (asn1h_decode.c);
     * the encoder's test of an extensible type's number (asn1h_encode.c), else NULL */
    const uint8_t *(*enumerated_decode)(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                        const uint8_t *end, unsigned form, void *v);
    uint8_t *(*enumerated_encode)(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                  const void *v);
    /* UTCTime and GeneralizedTime contents (asn1h_time.c; in DER form alone in a build of
     * DER's forms) */
    const uint8_t *(*time_decode)(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                  const uint8_t *end, unsigned form, asn1h_bytes *v);
    uint8_t *(*time_encode)(asn1h_enc *e, uint8_t *p, const asn1h_bytes *v,
                            unsigned universal);
    /* open types and unknown extensions kept as received (asn1h_received.c; written
     * back as they came in a build of DER's forms, which refuses BER's framing) */
    const uint8_t *(*resolve_open_types)(asn1h_dec *d, const asn1h_type *t, void *value);
    uint8_t *(*put_received)(asn1h_enc *e, uint8_t *p, const uint8_t *buf, size_t len);
    /* unknown extensions kept (asn1h_received.c): SEQUENCE and SET additions; the
     * unknown alternatives of CHOICEs in SEQUENCEs */
    const uint8_t *(*take_unknown)(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                   const uint8_t *end, unsigned form, void *value);
    int (*keep_set_unknown)(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                            const uint8_t *end, void *value);
    uint8_t *(*encode_with_unknown)(asn1h_enc *e, const asn1h_type *t, uint8_t *p,
                                    const void *value);
    int (*unknown_alternative)(const asn1h_dec *d, const asn1h_type *t, unsigned i,
                               uint32_t tag);
    /* constraints (asn1h_check.c): whether v is a value the type's record permits;
     * asn1h_satisfies_size where asn1h_check decides every record of the spec inline */
    int (*satisfies)(const asn1h_spec *spec, const asn1h_type *t, const void *v);
    /* DEFAULT values (asn1h_encode.c): whether member m holds its default, for the
     * defaults the encoder does not test inline (FALSE, 0, {}) */
    int (*is_default)(const asn1h_spec *spec, const asn1h_member *m, const void *base);
    /* layout fast paths (generated, docs/layouts.md): what asn1h_decode tries first for a
     * PDU type with ASN1H_T_LAYOUTS.  When the input starts with a TLV of one of its
     * layouts, decodes it into the value and returns its octets; else returns 0, having
     * changed nothing, and the general decoder takes the input */
    size_t (*layouts)(const asn1h_type *t, void *value, const uint8_t *buf, size_t len,
                      asn1h_arena *arena, const struct asn1h_decode_opts *opts);
    /* a member's effective tags (asn1h_decode.c), for a member whose type has a list of
     * tags, whose tag is long, or whose value is stored through a pointer: buf[0..n) or
     * the tag pool's, n returned; the decoder's general route of tags.  NULL in a build
     * without BER, where BER refuses such a member as ASN1H_ERR_VALUE */
    unsigned (*member_tags)(const asn1h_spec *spec, const asn1h_type *types,
                            const asn1h_member *m, uint32_t *buf, const uint32_t **tags);
} asn1h_codecs;

/* The header of a spec's tables; the type array follows it in the same object. */
struct asn1h_spec {
    const asn1h_member *members;
    const asn1h_routines *routines;     /* compiled types' routines, by asn1h_type.aux - 1 */
    const asn1h_codecs *codecs;
    const uint32_t *tags;               /* tag lists: a count, then the tags (ASN1H_TAG) */
    const asn1h_default *defaults;      /* by member index */
    const asn1h_open_entry *open;
    const uint8_t *data;                /* octets: open tables' keys, DEFAULT values' DER
                                           contents, PER bounds beyond 64 bits */
    const int64_t *enum_values;         /* of the ENUMERATED types that are not dense */
    const asn1h_constraint *constraints;/* by asn1h_type.extra - 1 (see asn1h_constraint) */
    const int64_t *bounds;              /* their intervals */
    /* Names (docs/runtime.md, "Names"): NULL in a build without names */
    const char *strings;                /* the words of names, NUL-terminated; NULL if the
                                           names are all characters */
    const uint16_t *common_words;       /* offsets in strings of the 1-octet codes' words */
    const uint8_t *names;               /* every name's codes, in the order of their
                                           numbers, each ended by 0 or by a reference */
    const uint16_t *name_index;         /* where name k * ASN1H_NAME_STRIDE starts:
                                           (name_index[k] << name_shift) in names */
    /* Profiles: only in objects built with ASN1H_PROFILE, else NULL */
    const char *spec_hash;              /* of the specification, which profiles name */
    const uint16_t *profile_names;      /* "Module.Type.component" of every type, in
                                           profile_strings */
    const char *profile_strings;
    uint16_t ntypes, nmembers, ndefaults;
    uint8_t name_shift;                 /* the names name_index reaches start at
                                           multiples of 1 << name_shift */
    uint8_t profile_shift;              /* the same in profile_strings */
};

/* A buffer of ASN1H_NAME_MAX characters holds any name, its NUL included. */
#define ASN1H_NAME_MAX 256

/* Names are numbered: type entry k is name k, member i (of spec->members) is name
 * ASN1H_MEMBER_NAME(spec, i), and item i of an ENUMERATED t is name
 * ASN1H_ITEM_NAME(spec, t->first + i).  An anonymous type's name is empty. */
#define ASN1H_MEMBER_NAME(spec, i) ((size_t)(spec)->ntypes + (size_t)(i))
#define ASN1H_ITEM_NAME(spec, i) ((size_t)(spec)->ntypes + (spec)->nmembers + (size_t)(i))
#define ASN1H_NAME_STRIDE 32            /* names between two entries of name_index */

/* Writes name number `name` into buf, cut to size - 1 characters and NUL-terminated;
 * returns its whole length.  The spec must have names (spec->names). */
size_t asn1h_name(const asn1h_spec *spec, size_t name, char *buf, size_t size);

/* The spec a type's entry belongs to: its header sits right before the type array. */
static inline const asn1h_spec *asn1h_spec_of(const asn1h_type *t)
{
    return (const asn1h_spec *)(const void *)((const char *)(t - t->self)
                                              - sizeof(asn1h_spec));
}

static inline const asn1h_type *asn1h_spec_types(const asn1h_spec *spec)
{
    return (const asn1h_type *)(const void *)((const char *)spec + sizeof(asn1h_spec));
}

/* "Module.Type" (or the built-in type's name for a descriptor shared by anonymous
 * primitive types); "#k" (the index) in a build without names.  Written into buf as
 * asn1h_name writes; returns buf. */
const char *asn1h_type_name(const asn1h_type *t, char *buf, size_t size);
/* The type that a path names: "Module.Type", then components ("Module.Type.a.b"), with
 * "*" for the element of a SEQUENCE OF or SET OF ("PKIX1Explicit88.TBSCertList.
 * revokedCertificates.*").  NULL when there is none, or in a build without names. */
const asn1h_type *asn1h_find_type(const asn1h_spec *spec, const char *path);

/* ---- Decoding and encoding ----------------------------------------------------------- */

/* asn1h_decode_opts.flags */
#define ASN1H_DER 0x1u              /* strict DER: reject every non-canonical encoding */
#define ASN1H_DROP_UNKNOWN 0x2u     /* leave unknown extension additions of SEQUENCE and SET
                                       out of the value (`unknown_` stays empty); they are
                                       still checked to be well formed */
#define ASN1H_SKIP_CONSTRAINTS 0x4u /* accept values outside their types' constraints
                                       (ranges, SIZE, FROM), which decoding otherwise
                                       refuses with ASN1H_ERR_CONSTRAINT.  Encoding always
                                       checks: it never writes such a value */

typedef struct asn1h_profile asn1h_profile;
typedef struct asn1h_walk asn1h_walk;

typedef struct asn1h_decode_opts {
    unsigned flags;
    unsigned max_depth;             /* 0: ASN1H_MAX_DEPTH */
    asn1h_profile *profile;         /* counters, used when built with ASN1H_PROFILE */
    asn1h_walk *walk;               /* element-wise decoding of one list type, or NULL */
} asn1h_decode_opts;

struct asn1h_dec {
    const uint8_t *base;            /* the start of the input, for error offsets */
    const uint8_t *input_end;       /* its end: a length past it means truncated input */
    const asn1h_spec *spec;         /* the tables of the types being decoded */
    const asn1h_type *types;        /* spec's type array */
    asn1h_arena *arena;
    asn1h_error *err;
    unsigned flags;
    unsigned depth;                 /* nesting levels left */
    asn1h_profile *profile;
    asn1h_walk *walk;
};

struct asn1h_enc {
    uint8_t *start;                 /* the lowest byte that may be written */
    asn1h_error *err;
    const asn1h_spec *spec;
    const asn1h_type *types;
};

/* Decodes one value of `type` from buf[0..len) into *value (cleared first), allocating
 * from `arena`.  Returns ASN1H_OK and sets *consumed (may be NULL) to the bytes used; on
 * failure fills *err (may be NULL).  Trailing bytes after the value are not an error here:
 * several PDUs may follow each other. */
asn1h_code asn1h_decode(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
                        asn1h_arena *arena, const asn1h_decode_opts *opts,
                        size_t *consumed, asn1h_error *err);

/* Encodes *value in DER into buf[0..cap).  On success the encoding is buf[0..*len). */
asn1h_code asn1h_encode(const asn1h_type *type, const void *value, uint8_t *buf, size_t cap,
                        size_t *len, asn1h_error *err);

/* The Packed Encoding Rules (X.691, asn1h_per.c): unaligned (UPER) or aligned (APER).
 * Decoding reads one complete encoding (whole octets, *consumed of them); encoding writes
 * one into buf[0..cap) (and may write 0s after it, up to cap).  The values, flags and
 * errors are those of BER; an error's offset is the octet where the failing value starts.
 * The encoder writes what CANONICAL-PER prescribes everywhere but in a SET OF, whose
 * elements go in the order given (BASIC-PER) unless ASN1H_PER_CANONICAL is or'ed into
 * `variant`: then in ascending order of their encodings (X.691 22.1), which takes a
 * malloc'd copy of each SET OF's encoded elements while it is written. */
#define ASN1H_UPER 0u
#define ASN1H_APER 1u
#define ASN1H_PER_CANONICAL 2u
asn1h_code asn1h_decode_per(const asn1h_type *type, void *value, const uint8_t *buf,
                            size_t len, unsigned variant, asn1h_arena *arena,
                            const asn1h_decode_opts *opts, size_t *consumed,
                            asn1h_error *err);
asn1h_code asn1h_encode_per(const asn1h_type *type, const void *value, unsigned variant,
                            uint8_t *buf, size_t cap, size_t *len, asn1h_error *err);
/* Decoding that refuses what CANONICAL-PER would not write: a SET OF whose elements are
 * not in ascending order of their encodings (ASN1H_ERR_NOT_DER; asn1h_decode_per takes
 * any order, BASIC-PER's).  It encodes each element of every SET OF again to compare
 * them, so a program that calls it links the PER encoder.  `compiled`: as below (the
 * generated <spec>_decode_per_canonical passes the spec's). */
struct asn1h_per_routines;
asn1h_code asn1h_decode_per_canonical(const struct asn1h_per_routines *compiled,
                                      const asn1h_type *type, void *value,
                                      const uint8_t *buf, size_t len, unsigned variant,
                                      asn1h_arena *arena, const asn1h_decode_opts *opts,
                                      size_t *consumed, asn1h_error *err);
/* The same with the compiled types' PER routines (asn1h_ber.h), which the generated
 * <spec>_decode_per and <spec>_encode_per pass: the two above walk the tables for every
 * type, so that a program that does not call these links no compiled PER routine. */
asn1h_code asn1h_decode_per_with(const struct asn1h_per_routines *compiled,
                                 const asn1h_type *type, void *value, const uint8_t *buf,
                                 size_t len, unsigned variant, asn1h_arena *arena,
                                 const asn1h_decode_opts *opts, size_t *consumed,
                                 asn1h_error *err);
asn1h_code asn1h_encode_per_with(const struct asn1h_per_routines *compiled,
                                 const asn1h_type *type, const void *value, unsigned variant,
                                 uint8_t *buf, size_t cap, size_t *len, asn1h_error *err);

/* Values that outlive their input (asn1h_copy.c).  Decoded values point into the input:
 * asn1h_decode_owned and asn1h_decode_per_owned copy the PDU into the arena first (its
 * extent from its header; for PER, which does not say it, all of buf[0..len)) and decode
 * from the copy, so that every string, bit string, big integer, open type and unknown
 * extension belongs to the arena (the generated <spec>_decode_per_owned passes the
 * compiled types' PER routines, as <spec>_decode_per does).  asn1h_copy makes a deep copy
 * of a value decoded in place into `arena` (ASN1H_ERR_MEMORY when its limit is reached:
 * *dst is incomplete). */
asn1h_code asn1h_decode_owned(const asn1h_type *type, void *value, const uint8_t *buf,
                              size_t len, asn1h_arena *arena, const asn1h_decode_opts *opts,
                              size_t *consumed, asn1h_error *err);
asn1h_code asn1h_decode_per_owned(const asn1h_type *type, void *value, const uint8_t *buf,
                                  size_t len, unsigned variant, asn1h_arena *arena,
                                  const asn1h_decode_opts *opts, size_t *consumed,
                                  asn1h_error *err);
asn1h_code asn1h_decode_per_owned_with(const struct asn1h_per_routines *compiled,
                                       const asn1h_type *type, void *value,
                                       const uint8_t *buf, size_t len, unsigned variant,
                                       asn1h_arena *arena, const asn1h_decode_opts *opts,
                                       size_t *consumed, asn1h_error *err);
asn1h_code asn1h_copy(const asn1h_type *type, void *dst, const void *src, asn1h_arena *arena);

/* Whether two values of `type` are equal (as abstract values: DEFAULT handling, INTEGER
 * representations and BIT STRING trailing bits are taken into account). */
bool asn1h_equal(const asn1h_type *type, const void *a, const void *b);

/* Writes the value as JSON following X.697 (JER).  Returns 0, or -1 on a write error. */
int asn1h_print_jer(FILE *out, const asn1h_type *type, const void *value);

/* ---- Element-wise decoding of huge lists (asn1h_walk.c) ------------------------------
 *
 * A decode with opts->walk set hands the elements of every value of the list type
 * `walk->list` (a SEQUENCE OF or SET OF, such as a CRL's TBSCertList.revokedCertificates)
 * to a callback one at a time, instead of storing them: each element is decoded into a
 * scope of the arena that is rolled back after its callback, so that memory stays bounded
 * by one element.  The rest of the PDU is decoded as usual (by the interpreter around the
 * list, by their own routines inside the elements); a walked list is left empty (count 0)
 * in the value.  The callback's `tlv` is the element's encoding, `value` its decoded
 * value (valid during the call). */
#define ASN1H_WALK_NEXT 0           /* go on with the next element */
#define ASN1H_WALK_SKIP 1           /* skip the list's other elements; decode the rest */
#define ASN1H_WALK_STOP 2           /* stop here: the decode fails with ASN1H_ERR_STOPPED */
typedef int asn1h_element_fn(void *ctx, const void *value, size_t index,
                             const uint8_t *tlv, size_t len);

struct asn1h_walk {
    const asn1h_type *list;
    asn1h_element_fn *on_element;
    void *ctx;
    size_t count;                   /* out: elements handed over */
    size_t high_water;              /* out: the most arena bytes in use at a callback */
    /* Optional, for a PDU walked while its octets arrive (examples/stream/): before the
     * walk reads an element, pull(ctx, upto) returns once the input before `upto` can be
     * read (0: it never will, the decode fails as truncated); the first call is at the
     * list's contents, before which the decoder has read everything it needed.  After
     * an element's callback, release(ctx, upto) says the walk will not read the octets
     * before `upto` again.  After the last element, the walk pulls the rest of the PDU. */
    int (*pull)(void *ctx, const uint8_t *upto);
    void (*release)(void *ctx, const uint8_t *upto);
    /* set by asn1h_walk_init: the walker, for the walked list and for the compiled types
     * met around it, reached through here so that programs that never walk do not link
     * it (asn1h_interpret_contents's arguments) */
    const uint8_t *(*run)(asn1h_dec *d, const asn1h_type *list, const uint8_t *p,
                          const uint8_t *end, unsigned form, void *value);
};

void asn1h_walk_init(asn1h_walk *w, const asn1h_type *list, asn1h_element_fn *on_element,
                     void *ctx);

/* ---- Streams: PDUs as their octets arrive (asn1h_stream.c) ---------------------------
 *
 * A stream takes fragments of any size (one octet at a time included) and hands each
 * complete PDU to a callback as soon as its last octet arrives.  It finds the boundaries
 * from the BER headers (definite and indefinite lengths), or from the 4-octet length
 * prefix of the PER trace framing, and buffers only an incomplete PDU: a PDU that lies
 * whole in one fragment is handed over in place.
 *
 * Errors leave the stream in a defined state: every later feed fails with the same code
 * until the caller calls asn1h_stream_skip (after ASN1H_ERR_TOO_BIG with a known length:
 * the PDU's octets are dropped as they arrive) or asn1h_stream_reset (drop what is
 * buffered; the next octet fed starts a PDU). */
#define ASN1H_FRAME_BER   0u        /* one BER/DER TLV per PDU */
#define ASN1H_FRAME_LEN32 1u        /* a 4-octet big-endian length, then the PDU (PER) */

/* Returns 0 to go on; anything else stops the feed after this PDU (*used says where). */
typedef int asn1h_pdu_fn(void *ctx, const uint8_t *pdu, size_t len);

typedef struct asn1h_stream {
    unsigned framing;               /* ASN1H_FRAME_* */
    size_t max_pdu;                 /* the largest PDU accepted, framing included */
    uint8_t *buf;                   /* the incomplete PDU: buf[0..len) */
    size_t len, cap;
    size_t need;                    /* its whole length once known, else 0 */
    size_t scan;                    /* indefinite lengths: the next header to read */
    size_t open;                    /* indefinite lengths: levels still open */
    size_t skip;                    /* octets still to drop (asn1h_stream_skip) */
    size_t offset;                  /* octets taken before buf[0]: error offsets */
    asn1h_code failed;
} asn1h_stream;

void asn1h_stream_init(asn1h_stream *s, unsigned framing, size_t max_pdu);
/* Takes data[0..len): calls fn for each PDU it completes.  Returns ASN1H_OK, or the
 * stream's error (err->offset: where in the stream), or ASN1H_ERR_STOPPED when fn asked
 * to stop.  *used (may be NULL) is how many octets of data were taken. */
asn1h_code asn1h_stream_feed(asn1h_stream *s, const uint8_t *data, size_t len,
                             asn1h_pdu_fn *fn, void *ctx, size_t *used, asn1h_error *err);
/* The end of the stream: ASN1H_ERR_TRUNCATED when a PDU is incomplete. */
asn1h_code asn1h_stream_end(asn1h_stream *s, asn1h_error *err);
asn1h_code asn1h_stream_skip(asn1h_stream *s);
void asn1h_stream_reset(asn1h_stream *s);
void asn1h_stream_free(asn1h_stream *s);

/* ---- Profiles (trace replay and -fprofile-generate style counting) -------------------- */

struct asn1h_profile {
    const asn1h_spec *spec;         /* the tables counted: spec->ntypes counters each */
    uint64_t *values;               /* values decoded, per type (by asn1h_type.self) */
    uint64_t *items;                /* SEQUENCE OF / SET OF: elements decoded, per type */
    uint64_t messages;              /* asn1h_decode calls that succeeded */
};

/* Writes the counters as a profile file (JSON keyed by type identifier).  The spec must
 * have been generated into an object built with ASN1H_PROFILE, which keeps the names of
 * anonymous types (-1 otherwise). */
int asn1h_profile_write(FILE *out, const asn1h_profile *profile);

/* ---- Interpreter entry points used by compiled routines ------------------------------ */

/* Decodes/encodes the contents of `type` (compiled routines if it has them). */
const uint8_t *asn1h_decode_contents(asn1h_dec *d, const asn1h_type *type, const uint8_t *p,
                                     const uint8_t *end, unsigned form, void *value);
uint8_t *asn1h_encode_contents(asn1h_enc *e, const asn1h_type *type, uint8_t *p,
                               const void *value);
/* The same, by the interpreter even when the type has compiled routines: their way out
 * for the cases they do not handle inline. */
const uint8_t *asn1h_interpret_contents(asn1h_dec *d, const asn1h_type *type, const uint8_t *p,
                                        const uint8_t *end, unsigned form, void *value);
uint8_t *asn1h_interpret_encode(asn1h_enc *e, const asn1h_type *type, uint8_t *p,
                                const void *value);
/* Decodes/encodes member m of the struct at `base`: its tags, then its contents. */
const uint8_t *asn1h_decode_member(asn1h_dec *d, const asn1h_member *m, const uint8_t *p,
                                   const uint8_t *end, void *base);
uint8_t *asn1h_encode_member(asn1h_enc *e, const asn1h_member *m, uint8_t *p,
                             const void *base);

#ifdef __cplusplus
}
#endif
#endif /* ASN1H_H */
