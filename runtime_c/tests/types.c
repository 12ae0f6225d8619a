/* types.c: the descriptors of types.h. */
#include <stddef.h>

#include "types.h"

#define U(n) ASN1H_TAG(ASN1H_UNIVERSAL, n)
#define CTX(n) ASN1H_TAG(ASN1H_CONTEXT, n)

static const uint32_t tag_boolean[1] = { U(1) };
static const uint32_t tag_integer[1] = { U(2) };
static const uint32_t tag_bit_string[1] = { U(3) };
static const uint32_t tag_octet_string[1] = { U(4) };
static const uint32_t tag_null[1] = { U(5) };
static const uint32_t tag_oid[1] = { U(6) };
static const uint32_t tag_real[1] = { U(9) };
static const uint32_t tag_enumerated[1] = { U(10) };
static const uint32_t tag_sequence[1] = { U(16) };
static const uint32_t tag_set[1] = { U(17) };
static const uint32_t tag_ia5[1] = { U(22) };
static const uint32_t tag_wrapped[2] = { ASN1H_TAG(ASN1H_APPLICATION, 5), U(2) };

#define PRIMITIVE(symbol, name, size, aux, kind, tags, info, flags) \
    const asn1h_type symbol = { name, NULL, NULL, NULL, info, tags, size, aux, 0, 0, \
                                kind, 1, flags }

PRIMITIVE(Int_type, "T.Int", sizeof(asn1h_int), ASN1H_INT_BIG, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(I8_type, "T.I8", sizeof(int8_t), ASN1H_INT_I8, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(U8_type, "T.U8", sizeof(uint8_t), ASN1H_INT_U8, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(I16_type, "T.I16", sizeof(int16_t), ASN1H_INT_I16, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(U16_type, "T.U16", sizeof(uint16_t), ASN1H_INT_U16, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(I32_type, "T.I32", sizeof(int32_t), ASN1H_INT_I32, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(U32_type, "T.U32", sizeof(uint32_t), ASN1H_INT_U32, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(I64_type, "T.I64", sizeof(int64_t), ASN1H_INT_I64, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(U64_type, "T.U64", sizeof(uint64_t), ASN1H_INT_U64, ASN1H_INTEGER, tag_integer, NULL, 0);
PRIMITIVE(Bool_type, "T.Bool", sizeof(bool), 0, ASN1H_BOOLEAN, tag_boolean, NULL, 0);
PRIMITIVE(Null_type, "T.Null", sizeof(asn1h_null), 0, ASN1H_NULL, tag_null, NULL, 0);
PRIMITIVE(Real_type, "T.Real", sizeof(double), 0, ASN1H_REAL, tag_real, NULL, 0);
PRIMITIVE(Bits_type, "T.Bits", sizeof(asn1h_bits), 0, ASN1H_BIT_STRING, tag_bit_string, NULL, 0);
PRIMITIVE(Octets_type, "T.Octets", sizeof(asn1h_bytes), 4, ASN1H_BYTES, tag_octet_string, NULL, 0);
PRIMITIVE(Oid_type, "T.Oid", sizeof(asn1h_bytes), 6, ASN1H_BYTES, tag_oid, NULL, 0);
static PRIMITIVE(IA5_type, "IA5String", sizeof(asn1h_bytes), 22, ASN1H_BYTES, tag_ia5, NULL, 0);

PRIMITIVE(Flags_type, "T.Flags", sizeof(asn1h_bits), 0, ASN1H_BIT_STRING, tag_bit_string,
          NULL, ASN1H_T_NAMED_BITS);

static const asn1h_named color_names[3] = { {"red", 0}, {"green", 1}, {"blue", 5} };
static const asn1h_enum_info color_info = { color_names, 3, 3 };
PRIMITIVE(Color_type, "T.Color", sizeof(int32_t), ASN1H_INT_I32, ASN1H_ENUMERATED,
          tag_enumerated, &color_info, 0);

const asn1h_type Wrapped_type = {
    "T.Wrapped", NULL, NULL, NULL, NULL, tag_wrapped, sizeof(asn1h_int), ASN1H_INT_BIG, 0, 0,
    ASN1H_INTEGER, 2, 0
};

/* ---- Record -------------------------------------------------------------------------- */

static const bool record_flag_default = true;
static const asn1h_member record_members[4] = {
    { "id", &Int_type, NULL, 0, offsetof(Record, id), ASN1H_NO_BIT, 0 },
    { "flag", &Bool_type, &record_flag_default, 0, offsetof(Record, flag), Record_flag_bit,
      ASN1H_M_DEFAULT },
    { "data", &Octets_type, NULL, CTX(0), offsetof(Record, data), Record_data_bit,
      ASN1H_M_OPTIONAL | ASN1H_M_IMPLICIT },
    { "bits", &Bits_type, NULL, CTX(1), offsetof(Record, bits), Record_bits_bit,
      ASN1H_M_OPTIONAL | ASN1H_M_EXPLICIT },
};
const asn1h_type Record_type = {
    "T.Record", NULL, NULL, record_members, NULL, tag_sequence, sizeof(Record),
    offsetof(Record, present_), 4, 0, ASN1H_SEQUENCE, 1, ASN1H_T_EXTENSIBLE
};

/* ---- Pair ---------------------------------------------------------------------------- */

static const asn1h_int pair_d_default = { 5, NULL, 0 };
static const asn1h_member pair_members[4] = {
    { "c", &IA5_type, NULL, CTX(2), offsetof(Pair, c), ASN1H_NO_BIT, ASN1H_M_IMPLICIT },
    { "a", &Int_type, NULL, CTX(0), offsetof(Pair, a), ASN1H_NO_BIT, ASN1H_M_IMPLICIT },
    { "b", &Bool_type, NULL, CTX(1), offsetof(Pair, b), Pair_b_bit,
      ASN1H_M_OPTIONAL | ASN1H_M_IMPLICIT },
    { "d", &Int_type, &pair_d_default, CTX(3), offsetof(Pair, d), Pair_d_bit,
      ASN1H_M_DEFAULT | ASN1H_M_IMPLICIT },
};
static const uint16_t pair_der_order[4] = { 1, 2, 0, 3 };
const asn1h_type Pair_type = {
    "T.Pair", NULL, NULL, pair_members, pair_der_order, tag_set, sizeof(Pair),
    offsetof(Pair, present_), 4, 0, ASN1H_SET, 1, 0
};

/* ---- Collections --------------------------------------------------------------------- */

static const asn1h_member int_element[1] = { { "item", &Int_type, NULL, 0, 0, ASN1H_NO_BIT, 0 } };
static const asn1h_member octets_element[1] = {
    { "item", &Octets_type, NULL, 0, 0, ASN1H_NO_BIT, 0 } };
static const asn1h_member record_element[1] = {
    { "item", &Record_type, NULL, 0, 0, ASN1H_NO_BIT, 0 } };

const asn1h_type Ints_type = {
    "T.Ints", NULL, NULL, int_element, NULL, tag_set, sizeof(Ints), 0, 1, 0, ASN1H_SET_OF, 1, 0
};
const asn1h_type IntList_type = {
    "T.IntList", NULL, NULL, int_element, NULL, tag_sequence, sizeof(Ints), 0, 1, 0,
    ASN1H_SEQUENCE_OF, 1, 0
};
const asn1h_type Strings_type = {
    "T.Strings", NULL, NULL, octets_element, NULL, tag_set, sizeof(Strings), 0, 1, 0,
    ASN1H_SET_OF, 1, 0
};
const asn1h_type Records_type = {
    "T.Records", NULL, NULL, record_element, NULL, tag_sequence, sizeof(Records), 0, 1, 0,
    ASN1H_SEQUENCE_OF, 1, 0
};

/* ---- Recursive types ----------------------------------------------------------------- */

static const asn1h_member chain_members[2] = {
    { "value", &Int_type, NULL, 0, offsetof(Chain, value), ASN1H_NO_BIT, 0 },
    { "next", &Chain_type, NULL, 0, offsetof(Chain, next), 0,
      ASN1H_M_OPTIONAL | ASN1H_M_POINTER },
};
const asn1h_type Chain_type = {
    "T.Chain", NULL, NULL, chain_members, NULL, tag_sequence, sizeof(Chain),
    offsetof(Chain, present_), 2, 0, ASN1H_SEQUENCE, 1, 0
};

static const asn1h_member tree_members[2] = {
    { "leaf", &Null_type, NULL, 0, offsetof(Tree, u.leaf), ASN1H_NO_BIT, 0 },
    { "node", &Tree_type, NULL, CTX(0), offsetof(Tree, u.node), ASN1H_NO_BIT,
      ASN1H_M_EXPLICIT | ASN1H_M_POINTER },
};
const asn1h_type Tree_type = {
    "T.Tree", NULL, NULL, tree_members, NULL, NULL, sizeof(Tree), 0, 2, 0, ASN1H_CHOICE, 0, 0
};

static const asn1h_member nest_element[1] = { { "item", &Nest_type, NULL, 0, 0, ASN1H_NO_BIT, 0 } };
const asn1h_type Nest_type = {
    "T.Nest", NULL, NULL, nest_element, NULL, tag_sequence, sizeof(Nest), 0, 1, 0,
    ASN1H_SEQUENCE_OF, 1, 0
};

static const asn1h_member alt_members[2] = {
    { "i", &Int_type, NULL, 0, offsetof(Alt, u.i), ASN1H_NO_BIT, 0 },
    { "s", &Octets_type, NULL, 0, offsetof(Alt, u.s), ASN1H_NO_BIT, 0 },
};
const asn1h_type Alt_type = {
    "T.Alt", NULL, NULL, alt_members, NULL, NULL, sizeof(Alt), offsetof(Alt, u.unknown_), 2, 0,
    ASN1H_CHOICE, 0, ASN1H_T_EXTENSIBLE
};

static const asn1h_member mixed_members[2] = {
    { "bits", &Bits_type, NULL, 0, offsetof(Mixed, bits), ASN1H_NO_BIT, 0 },
    { "alt", &Alt_type, NULL, 0, offsetof(Mixed, alt), ASN1H_NO_BIT, 0 },
};
/* the order a generator fixes in advance: the CHOICE by its smallest tag */
static const uint16_t mixed_order[2] = { 1, 0 };
const asn1h_type Mixed_type = {
    "T.Mixed", NULL, NULL, mixed_members, mixed_order, tag_set, sizeof(Mixed), ASN1H_NO_BIT, 2,
    0, ASN1H_SET, 1, 0
};

const asn1h_type Any_type = {
    "T.Any", NULL, NULL, NULL, NULL, NULL, sizeof(asn1h_open), 0, 0, 0, ASN1H_OPEN, 0, 0
};
