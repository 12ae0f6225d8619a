/* asn1h.h: the asn1c-hybrid runtime.
 *
 * Generated code describes every ASN.1 type with one constant descriptor (asn1h_type).
 * A type is marshalled either by compiled routines, whose addresses sit in its descriptor,
 * or by the interpreter in this runtime, which walks the descriptor's member table.  Both
 * read and write the same C structs, so a message crosses between the two at any level.
 *
 * Options (define before including, or on the compiler's command line):
 *   ASN1H_PROFILE          count the values of each type as they are decoded
 *                          (see asn1h_profile); off by default, costs nothing when off.
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
    ASN1H_ERR_NOT_DER,      /* strict DER mode: a valid BER but non-canonical encoding */
    ASN1H_ERR_TRAILING,     /* data left inside a constructed value that should be empty */
    ASN1H_ERR_DEPTH,        /* nesting deeper than the limit */
    ASN1H_ERR_MEMORY,       /* the arena's limit is reached */
    ASN1H_ERR_BUFFER,       /* encoding: the output buffer is too small */
    ASN1H_ERR_CHOICE,       /* encoding: a CHOICE with no valid alternative selected */
    ASN1H_ERR_NO_DER,       /* encoding: a value DER cannot represent (a local time) */
    ASN1H_ERR_COUNT
} asn1h_code;

typedef struct asn1h_path_entry {
    const char *name;       /* component or alternative name; NULL for an array index */
    size_t index;           /* element index when name is NULL */
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
 * and the error; err->offset says where in the input. */
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

/* ---- Descriptors --------------------------------------------------------------------- */

typedef enum asn1h_kind {
    ASN1H_BOOLEAN, ASN1H_INTEGER, ASN1H_ENUMERATED, ASN1H_REAL, ASN1H_BIT_STRING,
    ASN1H_BYTES, ASN1H_NULL, ASN1H_SEQUENCE, ASN1H_SET, ASN1H_SEQUENCE_OF, ASN1H_SET_OF,
    ASN1H_CHOICE, ASN1H_OPEN
} asn1h_kind;

/* A tag as one number: class in the top two bits, then the tag number. */
#define ASN1H_TAG(cls, num) (((uint32_t)(cls) << 30) | (uint32_t)(num))
#define ASN1H_UNIVERSAL   0u
#define ASN1H_APPLICATION 1u
#define ASN1H_CONTEXT     2u
#define ASN1H_PRIVATE     3u

/* asn1h_type.aux for INTEGER and ENUMERATED: the C storage. */
enum {
    ASN1H_INT_BIG,                    /* asn1h_int */
    ASN1H_INT_I8, ASN1H_INT_U8, ASN1H_INT_I16, ASN1H_INT_U16,
    ASN1H_INT_I32, ASN1H_INT_U32, ASN1H_INT_I64, ASN1H_INT_U64
};

/* asn1h_type.flags */
#define ASN1H_T_EXTENSIBLE  0x01u     /* "..." : unknown additions are skipped */
#define ASN1H_T_NAMED_BITS  0x02u     /* BIT STRING with named bits: DER drops trailing 0s */
#define ASN1H_T_OPEN_MEMBERS 0x08u    /* SEQUENCE/SET with table-constrained open types */
#define ASN1H_T_FIXED_SIZE 0x10u      /* BIT STRING (SIZE(n)): JER writes it as bare hex */
#define ASN1H_T_CONTAINING 0x20u      /* OCTET STRING (CONTAINING open type): an asn1h_open
                                         of the contents, `info` its table */

/* asn1h_member.flags */
#define ASN1H_M_OPTIONAL  0x01u
#define ASN1H_M_DEFAULT   0x02u
#define ASN1H_M_EXTENSION 0x04u       /* an extension addition: may be absent */
#define ASN1H_M_POINTER   0x08u       /* stored as a pointer (recursive types) */
#define ASN1H_M_IMPLICIT  0x10u       /* `tag` replaces the type's outermost tag */
#define ASN1H_M_EXPLICIT  0x20u       /* `tag` wraps the type's tags */

#define ASN1H_NO_BIT 0xFFFFu

typedef struct asn1h_dec asn1h_dec;
typedef struct asn1h_enc asn1h_enc;

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

typedef struct asn1h_member {
    const char *name;
    const struct asn1h_type *type;
    const void *dflt;          /* DEFAULT value in the member's C type; NULL: all zero */
    uint32_t tag;              /* the member's own tag, with ASN1H_M_IMPLICIT/EXPLICIT */
    uint32_t offset;           /* in the parent struct (CHOICE: of the union member) */
    uint16_t bit;              /* presence bit in the parent's present_[], or ASN1H_NO_BIT */
    uint8_t flags;
} asn1h_member;

typedef struct asn1h_type {
    const char *name;               /* "Module.Type", for error paths and profiles */
    asn1h_decode_fn *decode;        /* compiled contents decoder; NULL: interpreted */
    asn1h_encode_fn *encode;        /* compiled contents encoder; NULL: interpreted */
    const asn1h_member *members;    /* SEQUENCE, SET, CHOICE; the element of SEQUENCE OF */
    const void *info;               /* kind-specific table, see below */
    const uint32_t *tags;           /* own tags, outermost first */
    uint32_t size;                  /* sizeof the C representation */
    uint32_t aux;                   /* kind-specific number, see below */
    uint16_t nmembers;
    uint16_t id;                    /* index in the spec's type list (profiles) */
    uint8_t kind;                   /* asn1h_kind */
    uint8_t ntags;
    uint8_t flags;                  /* ASN1H_T_* */
} asn1h_type;

/* Kind-specific data:
 *   INTEGER      aux: storage (ASN1H_INT_*)
 *   ENUMERATED   aux: storage; info: const asn1h_enum_info *
 *   BYTES        aux: the universal tag number of the built-in type (4, 6, 12, 22, ...)
 *   BIT STRING   flags: ASN1H_T_NAMED_BITS, ASN1H_T_FIXED_SIZE
 *   SEQUENCE/SET aux: offsetof present_[] (ASN1H_NO_BIT if no member needs a bit);
 *                info (SET): const uint16_t *, member indexes in DER (tag) order
 *   CHOICE       aux: offsetof the `unknown_` alternative (extensible) ; the selector
 *                `which` is the first member of the struct: 0 none, i+1 members[i],
 *                ASN1H_WHICH_UNKNOWN an unknown extension kept as raw TLV
 *   SEQUENCE OF  members[0]: the element
 *   OPEN         info: const asn1h_open_info * or NULL (also BYTES, ASN1H_T_CONTAINING) */
#define ASN1H_WHICH_UNKNOWN 0xFFFFu

typedef struct asn1h_named {
    const char *name;
    int64_t value;
} asn1h_named;

typedef struct asn1h_enum_info {
    const asn1h_named *items;   /* root items first, then additions */
    uint16_t count;
    uint16_t root_count;
} asn1h_enum_info;

/* Table constraint of an open type: the sibling member `key_member` (an OBJECT IDENTIFIER
 * or INTEGER) selects the entry whose `key` equals its contents octets. */
typedef struct asn1h_open_entry {
    const uint8_t *key;
    size_t key_len;
    const asn1h_type *type;
} asn1h_open_entry;

typedef struct asn1h_open_info {
    const asn1h_open_entry *entries;
    uint16_t count;
    uint16_t key_member;
} asn1h_open_info;

/* ---- Decoding and encoding ----------------------------------------------------------- */

/* asn1h_decode_opts.flags */
#define ASN1H_DER 0x1u              /* strict DER: reject every non-canonical encoding */

typedef struct asn1h_profile asn1h_profile;

typedef struct asn1h_decode_opts {
    unsigned flags;
    unsigned max_depth;             /* 0: ASN1H_MAX_DEPTH */
    asn1h_profile *profile;         /* counters, used when built with ASN1H_PROFILE */
} asn1h_decode_opts;

struct asn1h_dec {
    const uint8_t *base;            /* the start of the input, for error offsets */
    const uint8_t *input_end;       /* its end: a length past it means truncated input */
    asn1h_arena *arena;
    asn1h_error *err;
    unsigned flags;
    unsigned depth;                 /* nesting levels left */
    asn1h_profile *profile;
};

struct asn1h_enc {
    uint8_t *start;                 /* the lowest byte that may be written */
    asn1h_error *err;
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

/* Whether two values of `type` are equal (as abstract values: DEFAULT handling, INTEGER
 * representations and BIT STRING trailing bits are taken into account). */
bool asn1h_equal(const asn1h_type *type, const void *a, const void *b);

/* Writes the value as JSON following X.697 (JER).  Returns 0, or -1 on a write error. */
int asn1h_print_jer(FILE *out, const asn1h_type *type, const void *value);

/* ---- Profiles (trace replay and -fprofile-generate style counting) -------------------- */

struct asn1h_profile {
    const char *spec_hash;          /* of the specification the types were generated from */
    const asn1h_type *const *types; /* indexed by asn1h_type.id */
    size_t ntypes;
    uint64_t *values;               /* values decoded, per type */
    uint64_t *items;                /* SEQUENCE OF / SET OF: elements decoded, per type */
    uint64_t messages;              /* asn1h_decode calls that succeeded */
};

/* Writes the counters as a profile file (JSON keyed by type identifier). */
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
