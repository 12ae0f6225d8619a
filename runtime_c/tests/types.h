/* types.h: hand-written descriptors for the runtime's unit tests, laid out the way the
 * generator lays out its own (see docs/runtime.md), all interpreted. */
#ifndef TYPES_H
#define TYPES_H

#include "asn1h.h"

/* Primitive types with their universal tags. */
extern const asn1h_type Int_type;           /* INTEGER: asn1h_int */
extern const asn1h_type I8_type, U8_type, I16_type, U16_type;
extern const asn1h_type I32_type, U32_type, I64_type, U64_type;
extern const asn1h_type Bool_type;          /* BOOLEAN: bool */
extern const asn1h_type Null_type;          /* NULL */
extern const asn1h_type Real_type;          /* REAL: double */
extern const asn1h_type Bits_type;          /* BIT STRING */
extern const asn1h_type Flags_type;         /* BIT STRING { a(0), b(1), c(2) } */
extern const asn1h_type Octets_type;        /* OCTET STRING */
extern const asn1h_type Oid_type;           /* OBJECT IDENTIFIER */
extern const asn1h_type Color_type;         /* ENUMERATED { red(0), green(1), blue(5) } */
extern const asn1h_type Wrapped_type;       /* [APPLICATION 5] EXPLICIT INTEGER */

/* Record ::= SEQUENCE {
 *     id    INTEGER,
 *     flag  BOOLEAN DEFAULT TRUE,
 *     data  [0] IMPLICIT OCTET STRING OPTIONAL,
 *     bits  [1] EXPLICIT BIT STRING OPTIONAL,
 *     ... } */
typedef struct Record {
    asn1h_int id;
    bool flag;
    asn1h_bytes data;
    asn1h_bits bits;
    uint8_t present_[1];
} Record;
enum { Record_flag_bit = 0, Record_data_bit = 1, Record_bits_bit = 2 };
extern const asn1h_type Record_type;

/* Pair ::= SET { c [2] IMPLICIT IA5String, a [0] IMPLICIT INTEGER,
 *                b [1] IMPLICIT BOOLEAN OPTIONAL,
 *                d [3] IMPLICIT INTEGER DEFAULT 5 }       -- DER order: a, b, c, d */
typedef struct Pair {
    asn1h_bytes c;
    asn1h_int a;
    bool b;
    asn1h_int d;
    uint8_t present_[1];
} Pair;
enum { Pair_b_bit = 0, Pair_d_bit = 1 };
extern const asn1h_type Pair_type;

/* Ints ::= SET OF INTEGER;  IntList ::= SEQUENCE OF INTEGER;  Strings ::= SET OF OCTET STRING;
 * Records ::= SEQUENCE OF Record */
typedef struct Ints { asn1h_int *items; size_t count; } Ints;
typedef struct Strings { asn1h_bytes *items; size_t count; } Strings;
typedef struct Records { Record *items; size_t count; } Records;
extern const asn1h_type Ints_type, IntList_type, Strings_type, Records_type;

/* Chain ::= SEQUENCE { value INTEGER, next Chain OPTIONAL }      -- next by pointer */
typedef struct Chain {
    asn1h_int value;
    struct Chain *next;
    uint8_t present_[1];
} Chain;
extern const asn1h_type Chain_type;

/* Tree ::= CHOICE { leaf NULL, node [0] EXPLICIT Tree }          -- node by pointer */
typedef struct Tree {
    uint32_t which;
    union {
        asn1h_null leaf;
        struct Tree *node;
    } u;
} Tree;
extern const asn1h_type Tree_type;

/* Nest ::= SEQUENCE OF Nest */
typedef struct Nest { struct Nest *items; size_t count; } Nest;
extern const asn1h_type Nest_type;

/* Alt ::= CHOICE { i INTEGER, s OCTET STRING, ... }   -- unknown alternatives kept raw */
typedef struct Alt {
    uint32_t which;
    union {
        asn1h_int i;
        asn1h_bytes s;
        asn1h_bytes unknown_;
    } u;
} Alt;
extern const asn1h_type Alt_type;

/* Mixed ::= SET { bits BIT STRING, alt Alt }: where DER puts `alt` depends on the
 * alternative it holds (i: UNIVERSAL 2, before bits; s: UNIVERSAL 4, after) */
typedef struct Mixed {
    asn1h_bits bits;
    Alt alt;
} Mixed;
extern const asn1h_type Mixed_type;

/* Any ::= ANY: the whole TLV kept as received */
extern const asn1h_type Any_type;

#endif /* TYPES_H */
