/* types.c: the compact tables of types.h, assembled by hand as docs/runtime.md ("The table
 * format") documents them.  Every index below is written out: the test of the format is
 * that the runtime decodes and encodes with these bytes. */
#include <stddef.h>

#include "asn1h_ber.h"
#include "types.h"

#define U(n) ASN1H_PACK_TAG(ASN1H_UNIVERSAL, n)
#define CTX(n) ASN1H_PACK_TAG(ASN1H_CONTEXT, n)

/* ---- Members: { type index, offset, outermost tag, flags, presence bit } --------------
 * The tag is the member's own with IMPLICIT or EXPLICIT, else its type's (0: none). */

static const asn1h_member members[21] = {
    /* 0-3: Record ::= SEQUENCE { id INTEGER, flag BOOLEAN DEFAULT TRUE,
     *                            data [0] IMPLICIT OCTET STRING OPTIONAL,
     *                            bits [1] EXPLICIT BIT STRING OPTIONAL, ... } */
    { 0, offsetof(Record, id), U(2), 0, ASN1H_NO_BIT },
    { 9, offsetof(Record, flag), U(1), ASN1H_M_DEFAULT | ASN1H_M_DEFAULT_VALUE,
      Record_flag_bit },
    { 13, offsetof(Record, data), CTX(0), ASN1H_M_OPTIONAL | ASN1H_M_IMPLICIT, Record_data_bit },
    { 12, offsetof(Record, bits), CTX(1), ASN1H_M_OPTIONAL | ASN1H_M_EXPLICIT, Record_bits_bit },
    /* 4: Record's extension entry: unknown additions come before member 4 (after the
     * last), kept in `unknown_` */
    { 4, offsetof(Record, unknown_), 0, 0, ASN1H_NO_BIT },
    /* 5-8: Pair ::= SET { c, a, b, d }, its members in DER (tag) order: a, b, c, d */
    { 0, offsetof(Pair, a), CTX(0), ASN1H_M_IMPLICIT, ASN1H_NO_BIT },
    { 9, offsetof(Pair, b), CTX(1), ASN1H_M_OPTIONAL | ASN1H_M_IMPLICIT, Pair_b_bit },
    { 15, offsetof(Pair, c), CTX(2), ASN1H_M_IMPLICIT, ASN1H_NO_BIT },
    { 0, offsetof(Pair, d), CTX(3), ASN1H_M_DEFAULT | ASN1H_M_DEFAULT_VALUE | ASN1H_M_IMPLICIT,
      Pair_d_bit },
    /* 9, 10, 11: the elements of the lists of INTEGER, OCTET STRING and Record */
    { 0, 0, U(2), 0, ASN1H_NO_BIT },
    { 13, 0, U(4), 0, ASN1H_NO_BIT },
    { 19, 0, U(16), 0, ASN1H_NO_BIT },
    /* 12-13: Chain ::= SEQUENCE { value INTEGER, next Chain OPTIONAL }, next by pointer */
    { 0, offsetof(Chain, value), U(2), 0, ASN1H_NO_BIT },
    { 25, offsetof(Chain, next), U(16), ASN1H_M_OPTIONAL | ASN1H_M_POINTER, 0 },
    /* 14-15: Tree ::= CHOICE { leaf NULL, node [0] EXPLICIT Tree }, node by pointer */
    { 10, offsetof(Tree, u.leaf), U(5), 0, ASN1H_NO_BIT },
    { 26, offsetof(Tree, u.node), CTX(0), ASN1H_M_EXPLICIT | ASN1H_M_POINTER, ASN1H_NO_BIT },
    /* 16: the element of Nest ::= SEQUENCE OF Nest */
    { 27, 0, U(16), 0, ASN1H_NO_BIT },
    /* 17-18: Alt ::= CHOICE { i INTEGER, s OCTET STRING, ... } */
    { 0, offsetof(Alt, u.i), U(2), 0, ASN1H_NO_BIT },
    { 13, offsetof(Alt, u.s), U(4), 0, ASN1H_NO_BIT },
    /* 19-20: Mixed ::= SET { bits BIT STRING, alt Alt }: the order a generator fixes in
     * advance puts the untagged CHOICE by its smallest tag, before bits */
    { 28, offsetof(Mixed, alt), 0, 0, ASN1H_NO_BIT },
    { 12, offsetof(Mixed, bits), U(3), 0, ASN1H_NO_BIT },
};

/* ---- The other pools ------------------------------------------------------------------ */

/* Wrapped's tag list: a count, then the tags outermost first (ASN1H_TAG, 32 bits) */
static const uint32_t tags[3] = {
    2, ASN1H_TAG(ASN1H_APPLICATION, 5), ASN1H_TAG(ASN1H_UNIVERSAL, 2)
};

/* DEFAULT values, by member index: flag TRUE (1), d 5 (8); their DER contents */
static const bool record_flag_default = true;
static const asn1h_int pair_d_default = { 5, NULL, 0 };
static const asn1h_default defaults[2] = {
    { &record_flag_default, (const uint8_t *)"\377", 1, 1 },
    { &pair_d_default, (const uint8_t *)"\005", 8, 1 },
};

/* Color's items: not 0, 1, 2, so their values are listed */
static const int64_t enum_values[3] = { 0, 1, 5 };

/* The names (docs/runtime.md, "Names"), numbered types first, then members, then items:
 * words used by several names are kept once in `strings`; "T." and "item" are the common
 * words 1 and 2, "Record" (offset 9) the word of the 2-octet code \300\011; the last
 * member's name, "bits", refers to name 34 (\377\000\042); the other characters stand
 * for themselves.  name_index: names 0 and 32 (member 1, "flag") */
static const char strings[] = "\0T.\0item\0Record";
static const uint16_t common_words[2] = { 1, 4 };
static const char names[] =
    "\001Int\0\001I8\0\001U8\0\001I16\0\001U16\0\001I32\0\001U32\0\001I64\0\001U64\0"
    "\001Bool\0\001Null\0\001Real\0\001Bits\0\001Octets\0\001Oid\0IA5String\0"
    "\001Flags\0\001Color\0\001Wrapped\0\001\300\011\0\001Pair\0\001Ints\0\001IntList\0"
    "\001Strings\0\001\300\011s\0\001Chain\0\001Tree\0\001Nest\0\001Alt\0\001Mixed\0"
    "\001Any\0id\0flag\0data\0bits\0\0a\0b\0c\0d\0\002\0\002\0\002\0value\0next\0leaf\0"
    "node\0\002\0i\0s\0alt\0\377\000\042red\0green\0blue";
static const uint16_t name_index[2] = { 0, 191 };

/* Times and REAL are the optional parts these types need; open types are kept raw */
static const asn1h_codecs codecs = {
    asn1h_dec_set,                          /* Pair and Mixed are SETs */
    asn1h_dec_constructed,                  /* BER's constructed strings */
    asn1h_dec_real, asn1h_enc_real,
    asn1h_dec_enumerated, NULL,             /* Color: not extensible */
    asn1h_dec_time, asn1h_put_time,
    asn1h_resolve_open_types, asn1h_put_received,
    /* Record and Alt are extensible */
    asn1h_take_unknown, NULL, asn1h_encode_with_unknown, asn1h_unknown_alternative,
    NULL,                                   /* no constraint records */
    asn1h_is_default,                       /* Record.flag and Pair.d: nonzero DEFAULTs */
    NULL,                                   /* no layout fast paths */
    asn1h_member_tags                       /* Wrapped has a list of tags, Chain and Tree
                                               pointers */
};

/* ---- The spec: the header, then the types { kind, flags, self, size, tag, first, count,
 *      aux, extra } ---------------------------------------------------------------------------- */

const T_tables T_spec = {
    {
        members, NULL, &codecs, tags, defaults, NULL, NULL, enum_values, NULL, NULL, strings,
        common_words, (const uint8_t *)names, name_index, NULL, NULL, NULL, T_NTYPES,
        21, 2, 0, 0
    },
    {
        { ASN1H_INTEGER, 0, 0, sizeof(asn1h_int), U(2), 0, 0, ASN1H_INT_BIG, 0 },
        { ASN1H_INTEGER, 0, 1, sizeof(int8_t), U(2), 0, 0, ASN1H_INT_I8, 0 },
        { ASN1H_INTEGER, 0, 2, sizeof(uint8_t), U(2), 0, 0, ASN1H_INT_U8, 0 },
        { ASN1H_INTEGER, 0, 3, sizeof(int16_t), U(2), 0, 0, ASN1H_INT_I16, 0 },
        { ASN1H_INTEGER, 0, 4, sizeof(uint16_t), U(2), 0, 0, ASN1H_INT_U16, 0 },
        { ASN1H_INTEGER, 0, 5, sizeof(int32_t), U(2), 0, 0, ASN1H_INT_I32, 0 },
        { ASN1H_INTEGER, 0, 6, sizeof(uint32_t), U(2), 0, 0, ASN1H_INT_U32, 0 },
        { ASN1H_INTEGER, 0, 7, sizeof(int64_t), U(2), 0, 0, ASN1H_INT_I64, 0 },
        { ASN1H_INTEGER, 0, 8, sizeof(uint64_t), U(2), 0, 0, ASN1H_INT_U64, 0 },
        { ASN1H_BOOLEAN, 0, 9, sizeof(bool), U(1), 0, 0, 0, 0 },
        { ASN1H_NULL, 0, 10, sizeof(asn1h_null), U(5), 0, 0, 0, 0 },
        { ASN1H_REAL, 0, 11, sizeof(double), U(9), 0, 0, 0, 0 },
        { ASN1H_BIT_STRING, 0, 12, sizeof(asn1h_bits), U(3), 0, 0, 0, 0 },
        { ASN1H_BYTES, 0, 13, sizeof(asn1h_bytes), U(4), 0, 0, 4, 0 },
        { ASN1H_BYTES, 0, 14, sizeof(asn1h_bytes), U(6), 0, 0, 6, 0 },
        { ASN1H_BYTES, 0, 15, sizeof(asn1h_bytes), U(22), 0, 0, 22, 0 },
        { ASN1H_BIT_STRING, ASN1H_T_NAMED_BITS, 16, sizeof(asn1h_bits), U(3), 0, 0, 0, 0 },
        /* Color: items 0..2 of the enumeration pools, storage int32_t, 3 root items (extra) */
        { ASN1H_ENUMERATED, 0, 17, sizeof(int32_t), U(10), 0, 3, ASN1H_INT_I32, 3 },
        /* Wrapped: two tags, the list at 0 of the tag pool */
        { ASN1H_INTEGER, ASN1H_T_TAG_LIST, 18, sizeof(asn1h_int), 0, 0, 0, ASN1H_INT_BIG, 0 },
        { ASN1H_SEQUENCE, ASN1H_T_EXTENSIBLE, 19, sizeof(Record), U(16), 0, 4, 0, 0 },
        { ASN1H_SET, 0, 20, sizeof(Pair), U(17), 5, 4, 0, 0 },
        { ASN1H_SET_OF, 0, 21, sizeof(Ints), U(17), 9, 1, 0, 0 },
        { ASN1H_SEQUENCE_OF, 0, 22, sizeof(Ints), U(16), 9, 1, 0, 0 },
        { ASN1H_SET_OF, 0, 23, sizeof(Strings), U(17), 10, 1, 0, 0 },
        { ASN1H_SEQUENCE_OF, 0, 24, sizeof(Records), U(16), 11, 1, 0, 0 },
        { ASN1H_SEQUENCE, 0, 25, sizeof(Chain), U(16), 12, 2, 0, 0 },
        { ASN1H_CHOICE, 0, 26, sizeof(Tree), 0, 14, 2, 0, 0 },
        { ASN1H_SEQUENCE_OF, 0, 27, sizeof(Nest), U(16), 16, 1, 0, 0 },
        { ASN1H_CHOICE, ASN1H_T_EXTENSIBLE, 28, sizeof(Alt), 0, 17, 2, 0, 0 },
        { ASN1H_SET, 0, 29, sizeof(Mixed), U(17), 19, 2, 0, 0 },
        { ASN1H_OPEN, 0, 30, sizeof(asn1h_open), 0, 0, 0, 0, 0 },
    }
};

/* The type array follows the header directly (asn1h_spec_of relies on it). */
typedef char types_follow_the_header[offsetof(T_tables, types) == sizeof(asn1h_spec) ? 1 : -1];
