/* types.h: hand-assembled compact tables for the runtime's unit tests, laid out byte by
 * byte as docs/runtime.md ("The table format") documents the generator's: one spec,
 * T_spec, all interpreted.  Decoding with them shows that the documented format is the
 * one the runtime reads. */
#ifndef TYPES_H
#define TYPES_H

#include "asn1h.h"

#define T_NTYPES 31
typedef struct T_tables {
    asn1h_spec spec;
    asn1h_type types[T_NTYPES];
} T_tables;
extern const T_tables T_spec;

/* Primitive types with their universal tags. */
#define Int_type (T_spec.types[0])          /* INTEGER: asn1h_int */
#define I8_type (T_spec.types[1])
#define U8_type (T_spec.types[2])
#define I16_type (T_spec.types[3])
#define U16_type (T_spec.types[4])
#define I32_type (T_spec.types[5])
#define U32_type (T_spec.types[6])
#define I64_type (T_spec.types[7])
#define U64_type (T_spec.types[8])
#define Bool_type (T_spec.types[9])         /* BOOLEAN: bool */
#define Null_type (T_spec.types[10])        /* NULL */
#define Real_type (T_spec.types[11])        /* REAL: double */
#define Bits_type (T_spec.types[12])        /* BIT STRING */
#define Octets_type (T_spec.types[13])      /* OCTET STRING */
#define Oid_type (T_spec.types[14])         /* OBJECT IDENTIFIER */
#define Flags_type (T_spec.types[16])       /* BIT STRING { a(0), b(1), c(2) } */
#define Color_type (T_spec.types[17])       /* ENUMERATED { red(0), green(1), blue(5) } */
#define Wrapped_type (T_spec.types[18])     /* [APPLICATION 5] EXPLICIT INTEGER */

/* Record ::= SEQUENCE {
 *     id    INTEGER,
 *     flag  BOOLEAN DEFAULT TRUE,
 *     data  [0] IMPLICIT OCTET STRING OPTIONAL,
 *     bits  [1] EXPLICIT BIT STRING OPTIONAL,
 *     ... } */
typedef struct Record {
    uint8_t present_[1];
    asn1h_int id;
    bool flag;
    asn1h_bytes data;
    asn1h_bits bits;
    asn1h_bytes unknown_;
} Record;
enum { Record_flag_bit = 0, Record_data_bit = 1, Record_bits_bit = 2 };
#define Record_type (T_spec.types[19])

/* Pair ::= SET { c [2] IMPLICIT IA5String, a [0] IMPLICIT INTEGER,
 *                b [1] IMPLICIT BOOLEAN OPTIONAL,
 *                d [3] IMPLICIT INTEGER DEFAULT 5 }       -- DER order: a, b, c, d */
typedef struct Pair {
    uint8_t present_[1];
    asn1h_bytes c;
    asn1h_int a;
    bool b;
    asn1h_int d;
} Pair;
enum { Pair_b_bit = 0, Pair_d_bit = 1 };
#define Pair_type (T_spec.types[20])

/* Ints ::= SET OF INTEGER;  IntList ::= SEQUENCE OF INTEGER;  Strings ::= SET OF OCTET STRING;
 * Records ::= SEQUENCE OF Record */
typedef struct Ints { asn1h_int *items; size_t count; } Ints;
typedef struct Strings { asn1h_bytes *items; size_t count; } Strings;
typedef struct Records { Record *items; size_t count; } Records;
#define Ints_type (T_spec.types[21])
#define IntList_type (T_spec.types[22])
#define Strings_type (T_spec.types[23])
#define Records_type (T_spec.types[24])

/* Chain ::= SEQUENCE { value INTEGER, next Chain OPTIONAL }      -- next by pointer */
typedef struct Chain {
    uint8_t present_[1];
    asn1h_int value;
    struct Chain *next;
} Chain;
#define Chain_type (T_spec.types[25])

/* Tree ::= CHOICE { leaf NULL, node [0] EXPLICIT Tree }          -- node by pointer */
typedef struct Tree {
    uint32_t which;
    union {
        asn1h_null leaf;
        struct Tree *node;
    } u;
} Tree;
#define Tree_type (T_spec.types[26])

/* Nest ::= SEQUENCE OF Nest */
typedef struct Nest { struct Nest *items; size_t count; } Nest;
#define Nest_type (T_spec.types[27])

/* Alt ::= CHOICE { i INTEGER, s OCTET STRING, ... }   -- unknown alternatives kept raw */
typedef struct Alt {
    uint32_t which;
    union {
        asn1h_int i;
        asn1h_bytes s;
        asn1h_bytes unknown_;
    } u;
} Alt;
#define Alt_type (T_spec.types[28])

/* Mixed ::= SET { bits BIT STRING, alt Alt }: where DER puts `alt` depends on the
 * alternative it holds (i: UNIVERSAL 2, before bits; s: UNIVERSAL 4, after) */
typedef struct Mixed {
    asn1h_bits bits;
    Alt alt;
} Mixed;
#define Mixed_type (T_spec.types[29])

/* Any ::= ANY: the whole TLV kept as received */
#define Any_type (T_spec.types[30])

#endif /* TYPES_H */
