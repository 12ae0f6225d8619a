/* test_constructed.c: SEQUENCE, SET, SEQUENCE OF, SET OF and CHOICE through the
 * interpreter (X.690 8.9 to 8.13, 10.3, 11.5, 11.6). */
#include <stdlib.h>

#include "check.h"
#include "tests.h"
#include "types.h"

static asn1h_int int_of(int64_t v)
{
    asn1h_int x;
    memset(&x, 0, sizeof x);
    x.v = v;
    return x;
}

/* Record ::= SEQUENCE { id INTEGER, flag BOOLEAN DEFAULT TRUE,
 *                       data [0] IMPLICIT OCTET STRING OPTIONAL,
 *                       bits [1] EXPLICIT BIT STRING OPTIONAL, ... } */
static const char record_full[] =
    "\x30\x10"
    "\x02\x01\x07"                      /* id 7 */
    "\x01\x01\x00"                      /* flag FALSE (not the default: present in DER) */
    "\x80\x02" "hi"                     /* data, implicitly tagged */
    "\xA1\x04\x03\x02\x04\xF0";         /* bits '1111'B inside an explicit [1] */

void test_sequence(void)
{
    Record r;
    asn1h_error err;

    CHECK_EQ(dec(&Record_type, &r, LIT(record_full), ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(r.id.v, 7);
    CHECK(!r.flag);
    CHECK_BYTES(r.data.buf, r.data.len, "hi");
    CHECK(r.bits.len == 1 && r.bits.unused == 4 && r.bits.buf[0] == 0xF0);
    CHECK_EQ(r.present_[0], 7);
    CHECK_ENCODES(&Record_type, &r, record_full);

    /* absent DEFAULT member: its default value, bit clear */
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x03\x02\x01\x07"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(r.flag);
    CHECK_EQ(r.present_[0], 0);
    CHECK_ENCODES(&Record_type, &r, "\x30\x03\x02\x01\x07");
    /* 11.5: a DEFAULT member equal to its default is left out in DER */
    r.flag = true;
    r.present_[0] = 1u << Record_flag_bit;
    CHECK_ENCODES(&Record_type, &r, "\x30\x03\x02\x01\x07");

    /* BER: indefinite lengths everywhere */
    CHECK_EQ(dec(&Record_type, &r,
                 LIT("\x30\x80\x02\x01\x07\xA1\x80\x03\x02\x04\xF0\x00\x00\x00\x00"), 0, &err),
             ASN1H_OK);
    CHECK_EQ(dec_consumed, 15);
    CHECK(r.flag && r.bits.len == 1);

    /* missing mandatory member, wrong order, trailing data */
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x00"), 0, &err), ASN1H_ERR_MISSING);
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x06\x01\x01\x00\x02\x01\x07"), 0, &err),
             ASN1H_ERR_TAG);
}

/* Unknown extension additions (X.680 52) are kept where the extension marker is, after
 * Record's last member, and written back there; anywhere else their tag is an error. */
void test_sequence_extensions(void)
{
    Record r;
    asn1h_error err;
    /* [5] primitive and [APPLICATION 40] (long-form identifier 7F 28) constructed with
     * indefinite length around 04 01 41, after the last known member */
    static const char with_additions[] =
        "\x30\x12"
        "\x02\x01\x07"
        "\x80\x02" "hi"
        "\x85\x01\x00"
        "\x7F\x28\x80\x04\x01\x41\x00\x00";
    /* DER: id, then flag and bits absent, data, then the additions with the indefinite
     * length made definite (03) */
    static const char der[] =
        "\x30\x10\x02\x01\x07\x80\x02" "hi" "\x85\x01\x00\x7F\x28\x03\x04\x01\x41";
    CHECK_EQ(dec(&Record_type, &r, LIT(with_additions), 0, &err), ASN1H_OK);
    CHECK_EQ(dec_consumed, sizeof with_additions - 1);
    CHECK_BYTES(r.data.buf, r.data.len, "hi");
    CHECK_BYTES(r.unknown_.buf, r.unknown_.len,
                "\x85\x01\x00\x7F\x28\x80\x04\x01\x41\x00\x00");
    CHECK_ENCODES(&Record_type, &r, der);
    /* strict DER takes the DER form, and keeps the additions as they are */
    CHECK_EQ(dec(&Record_type, &r, LIT(der), ASN1H_DER, &err), ASN1H_OK);
    CHECK_BYTES(r.unknown_.buf, r.unknown_.len, "\x85\x01\x00\x7F\x28\x03\x04\x01\x41");
    CHECK_ENCODES(&Record_type, &r, der);
    /* ... which must be DER at every level */
    CHECK_EQ(dec(&Record_type, &r, LIT(with_additions), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    /* dropped on request: the value and its encoding are those of the known members */
    CHECK_EQ(dec(&Record_type, &r, LIT(with_additions), ASN1H_DROP_UNKNOWN, &err), ASN1H_OK);
    CHECK_EQ(r.unknown_.len, 0);
    CHECK_ENCODES(&Record_type, &r, "\x30\x07\x02\x01\x07\x80\x02" "hi");
    /* additions come at the marker only: data ([0]) after one is left over, since an
     * addition's tag must differ from those of the OPTIONAL members before the marker */
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x09\x02\x01\x07\x85\x00\x80\x02" "hi"), 0, &err),
             ASN1H_ERR_TRAILING);
    CHECK_EQ(err.offset, 7);
    /* an unknown addition that overruns its parent */
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x06\x02\x01\x07\x85\x05\x00"), 0, &err),
             ASN1H_ERR_LENGTH);
}

/* Pair ::= SET { c [2] IA5String, a [0] INTEGER, b [1] BOOLEAN OPTIONAL }:
 * DER writes the components in tag order (10.3), BER takes any order. */
void test_set(void)
{
    static const char der[] = "\x31\x09\x80\x01\x05\x81\x01\xFF\x82\x01\x78";
    static const char shuffled[] = "\x31\x09\x82\x01\x78\x80\x01\x05\x81\x01\xFF";
    Pair p;
    asn1h_error err;
    char message[128];

    CHECK_EQ(dec(&Pair_type, &p, LIT(der), ASN1H_DER, &err), ASN1H_OK);
    CHECK(p.a.v == 5 && p.b && p.c.len == 1 && p.c.buf[0] == 'x');
    CHECK_ENCODES(&Pair_type, &p, der);
    CHECK_EQ(dec(&Pair_type, &p, LIT(shuffled), 0, &err), ASN1H_OK);
    CHECK(p.a.v == 5 && p.b && p.c.len == 1);
    CHECK_ENCODES(&Pair_type, &p, der);
    CHECK_EQ(dec(&Pair_type, &p, LIT(shuffled), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 5);

    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x09\x80\x01\x05\x80\x01\x06\x82\x01\x78"), 0, &err),
             ASN1H_ERR_DUPLICATE);
    CHECK_EQ(err.offset, 5);
    asn1h_error_format(&err, message, sizeof message);
    CHECK(strcmp(message, "T.Pair.a: component occurs twice") == 0);
    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x06\x80\x01\x05\x81\x01\xFF"), 0, &err),
             ASN1H_ERR_MISSING);
    asn1h_error_format(&err, message, sizeof message);
    CHECK(strcmp(message, "T.Pair.c: mandatory component missing") == 0);
    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x06\x80\x01\x05\x84\x01\x00"), 0, &err), ASN1H_ERR_TAG);
}

/* 11.6: SET OF elements in ascending order of their encodings, compared as octet strings. */
void test_set_of_sorting(void)
{
    asn1h_int values[5];
    asn1h_bytes strings[4];
    Ints ints;
    Strings s;
    asn1h_error err;

    /* 3, 1, 256, -1, 2: 02 01 03, 02 01 01, 02 02 01 00, 02 01 FF, 02 01 02.  As octet
     * strings: 020101 < 020102 < 020103 < 0201FF < 02020100 */
    values[0] = int_of(3);
    values[1] = int_of(1);
    values[2] = int_of(256);
    values[3] = int_of(-1);
    values[4] = int_of(2);
    ints.items = values;
    ints.count = 5;
    CHECK_ENCODES(&Ints_type, &ints,
                  "\x31\x10\x02\x01\x01\x02\x01\x02\x02\x01\x03\x02\x01\xFF\x02\x02\x01\x00");
    /* the caller's array is left as it was */
    CHECK(values[0].v == 3 && values[4].v == 2);
    /* SEQUENCE OF keeps the order */
    ints.count = 2;
    CHECK_ENCODES(&IntList_type, &ints, "\x30\x06\x02\x01\x03\x02\x01\x01");

    /* "ab", "a", "", "b": 04 02 61 62, 04 01 61, 04 00, 04 01 62; the length octet decides
     * before the contents */
    strings[0].buf = (const uint8_t *)"ab";
    strings[0].len = 2;
    strings[1].buf = (const uint8_t *)"a";
    strings[1].len = 1;
    strings[2].buf = NULL;
    strings[2].len = 0;
    strings[3].buf = (const uint8_t *)"b";
    strings[3].len = 1;
    s.items = strings;
    s.count = 4;
    CHECK_ENCODES(&Strings_type, &s, "\x31\x0C\x04\x00\x04\x01\x61\x04\x01\x62\x04\x02\x61\x62");

    /* strict decoding: ascending (equal neighbours allowed) */
    CHECK_EQ(dec(&Ints_type, &ints, LIT("\x31\x06\x02\x01\x01\x02\x01\x01"), ASN1H_DER, &err),
             ASN1H_OK);
    CHECK_EQ(dec(&Ints_type, &ints, LIT("\x31\x06\x02\x01\x02\x02\x01\x01"), 0, &err), ASN1H_OK);
    CHECK(ints.count == 2 && ints.items[0].v == 2 && ints.items[1].v == 1);
    CHECK_EQ(dec(&Ints_type, &ints, LIT("\x31\x06\x02\x01\x02\x02\x01\x01"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 5);
    CHECK_EQ(dec(&Ints_type, &ints, LIT("\x31\x07\x02\x02\x01\x00\x02\x01\x05"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
}

/* Many elements, descending: the sort puts them in order, and strict decoding agrees. */
void test_set_of_many(void)
{
    enum { N = 300 };
    asn1h_int *values = (asn1h_int *)calloc(N, sizeof *values);
    uint8_t *out = (uint8_t *)malloc(4 * N + 8);
    Ints ints, back;
    asn1h_error err;
    size_t len = 0, i;

    for (i = 0; i < N; i++)
        values[i] = int_of((int64_t)(N - i) * 7 - 1000);
    ints.items = values;
    ints.count = N;
    CHECK_EQ(asn1h_encode(&Ints_type, &ints, out, 4 * N + 8, &len, &err), ASN1H_OK);
    CHECK_EQ(dec(&Ints_type, &back, out, len, ASN1H_DER, &err), ASN1H_OK);
    CHECK_EQ(back.count, N);
    for (i = 1; i < back.count; i++) {
        /* ascending as encodings: 1-octet values before 2-octet ones, each group by its
         * octets, so negative ones (first octet >= 0x80) after positive ones */
        const asn1h_int *a = &back.items[i - 1], *b = &back.items[i];
        int a_short = a->v >= -128 && a->v <= 127, b_short = b->v >= -128 && b->v <= 127;
        CHECK(a_short >= b_short);
        if (a_short != b_short)
            continue;
        if ((a->v >= 0) == (b->v >= 0))
            CHECK(a->v <= b->v);
        else
            CHECK(a->v >= 0);
    }
    free(values);
    free(out);
}

/* SEQUENCE OF: one exact allocation, elements in order, errors name the element. */
void test_sequence_of(void)
{
    Ints ints;
    Records rs;
    asn1h_error err;
    char message[128];

    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x00"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(ints.count == 0 && ints.items == NULL);
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x80\x02\x01\x01\x02\x01\x02\x00\x00"), 0, &err),
             ASN1H_OK);
    CHECK(ints.count == 2 && ints.items[1].v == 2);
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x09\x02\x01\x01\x02\x01\x02\x04\x01\x03"), 0,
                 &err), ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 8);
    asn1h_error_format(&err, message, sizeof message);
    CHECK(strcmp(message, "T.IntList[2]: unexpected tag") == 0);
    /* an element overrunning the list: its header, or its contents */
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x04\x02\x01\x01\x02\x01\x02"), 0, &err),
             ASN1H_ERR_TRUNCATED);
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x05\x02\x01\x01\x02\x02\x02"), 0, &err),
             ASN1H_ERR_LENGTH);
    /* end-of-contents inside a definite list */
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x05\x02\x01\x01\x00\x00"), 0, &err),
             ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 5);
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x05\x02\x01\x01\x20\x00"), 0, &err),
             ASN1H_ERR_TAG);                /* (constructed, tag number 0) */
    CHECK_EQ(err.offset, 5);
    /* [0] is counted as an element, then refused as one */
    CHECK_EQ(dec(&IntList_type, &ints, LIT("\x30\x06\x02\x01\x01\x80\x01\x05"), 0, &err),
             ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 5);
    asn1h_error_format(&err, message, sizeof message);
    CHECK(strcmp(message, "T.IntList[1]: unexpected tag") == 0);
    /* the error inside the second record names it, and the member */
    CHECK_EQ(dec(&Records_type, &rs,
                 LIT("\x30\x0E\x30\x03\x02\x01\x01\x30\x07\x02\x01\x02\xA1\x02\x03\x00"), 0,
                 &err), ASN1H_ERR_VALUE);
    CHECK_EQ(err.offset, 16);
    asn1h_error_format(&err, message, sizeof message);
    CHECK(strcmp(message, "T.Records[1].bits: malformed contents") == 0);
}

/* CHOICE: the alternative by its tag; an extensible one keeps unknown alternatives raw. */
void test_choice(void)
{
    Alt a;
    Tree t;
    asn1h_error err;
    CHECK_EQ(dec(&Alt_type, &a, LIT("\x02\x01\x05"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(a.which == 1 && a.u.i.v == 5);
    CHECK_ENCODES(&Alt_type, &a, "\x02\x01\x05");
    CHECK_EQ(dec(&Alt_type, &a, LIT("\x04\x01\x41"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(a.which == 2 && a.u.s.len == 1);
    CHECK_EQ(dec(&Alt_type, &a, LIT("\x0C\x02" "hi"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(a.which == ASN1H_WHICH_UNKNOWN);
    CHECK_BYTES(a.u.unknown_.buf, a.u.unknown_.len, "\x0C\x02" "hi");
    CHECK_ENCODES(&Alt_type, &a, "\x0C\x02" "hi");
    CHECK_EQ(dec(&Alt_type, &a, LIT(""), 0, &err), ASN1H_ERR_TRUNCATED);
    CHECK_EQ(dec(&Alt_type, &a, LIT("\x00\x00"), 0, &err), ASN1H_ERR_TAG);
    /* a non-extensible CHOICE refuses other tags */
    CHECK_EQ(dec(&Tree_type, &t, LIT("\x02\x01\x05"), 0, &err), ASN1H_ERR_TAG);
    CHECK_EQ(dec(&Tree_type, &t, LIT("\xA0\x80\xA0\x02\x05\x00\x00\x00"), 0, &err), ASN1H_OK);
    CHECK(t.which == 2 && t.u.node->which == 2 && t.u.node->u.node->which == 1);
    CHECK_ENCODES(&Tree_type, &t, "\xA0\x04\xA0\x02\x05\x00");
}

/* Strict DER refuses a DEFAULT member whose value is the default (11.5) and a BOOLEAN TRUE
 * other than FF (11.1); BER takes both. */
void test_der_default_and_boolean(void)
{
    Record r;
    Pair p;
    bool b;
    asn1h_error err;

    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x06\x02\x01\x07\x01\x01\xFF"), 0, &err), ASN1H_OK);
    CHECK(r.flag);
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x06\x02\x01\x07\x01\x01\xFF"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 5);
    CHECK_EQ(dec(&Record_type, &r, LIT("\x30\x06\x02\x01\x07\x01\x01\x00"), ASN1H_DER, &err),
             ASN1H_OK);
    /* in a SET: d [3] INTEGER DEFAULT 5 */
    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x06\x80\x01\x05\x82\x01\x78"), ASN1H_DER, &err),
             ASN1H_OK);
    CHECK_EQ(p.d.v, 5);
    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x09\x80\x01\x05\x82\x01\x78\x83\x01\x06"), ASN1H_DER,
                 &err), ASN1H_OK);
    CHECK_EQ(p.d.v, 6);
    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x09\x80\x01\x05\x82\x01\x78\x83\x01\x05"), 0, &err),
             ASN1H_OK);
    CHECK_EQ(dec(&Pair_type, &p, LIT("\x31\x09\x80\x01\x05\x82\x01\x78\x83\x01\x05"), ASN1H_DER,
                 &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 8);
    CHECK_ENCODES(&Pair_type, &p, "\x31\x06\x80\x01\x05\x82\x01\x78");

    /* 8.2.2: any non-zero octet is TRUE; 11.1: DER uses FF */
    CHECK_EQ(dec(&Bool_type, &b, LIT("\x01\x01\x01"), 0, &err), ASN1H_OK);
    CHECK(b);
    CHECK_EQ(dec(&Bool_type, &b, LIT("\x01\x01\x01"), ASN1H_DER, &err), ASN1H_ERR_NOT_DER);
    CHECK_EQ(dec(&Bool_type, &b, LIT("\x01\x01\x00"), ASN1H_DER, &err), ASN1H_OK);
    CHECK(!b);
    CHECK_ENCODES(&Bool_type, &b, "\x01\x01\x00");
    b = true;
    CHECK_ENCODES(&Bool_type, &b, "\x01\x01\xFF");
    CHECK_EQ(dec(&Bool_type, &b, LIT("\x01\x02\x00\x00"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Bool_type, &b, LIT("\x01\x00"), 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(dec(&Bool_type, &b, LIT("\x21\x03\x01\x01\xFF"), 0, &err), ASN1H_ERR_FORM);
}

/* X.690 10.3 and its note: DER puts an untagged CHOICE component where the tag of the
 * alternative it holds puts it, not where its smallest tag would. */
void test_set_untagged_choice_order(void)
{
    Mixed m;
    asn1h_error err;
    memset(&m, 0, sizeof m);
    m.bits.buf = NULL;
    m.bits.len = 0;
    /* alt = s (04): after bits (03) */
    m.alt.which = 2;
    m.alt.u.s.buf = (const uint8_t *)"A";
    m.alt.u.s.len = 1;
    CHECK_ENCODES(&Mixed_type, &m, "\x31\x06\x03\x01\x00\x04\x01\x41");
    /* alt = i (02): before bits */
    m.alt.which = 1;
    m.alt.u.i.v = 5;
    CHECK_ENCODES(&Mixed_type, &m, "\x31\x06\x02\x01\x05\x03\x01\x00");
    /* strict DER takes each in its own order and refuses the other */
    CHECK_EQ(dec(&Mixed_type, &m, LIT("\x31\x06\x03\x01\x00\x04\x01\x41"), ASN1H_DER, &err),
             ASN1H_OK);
    CHECK(m.alt.which == 2);
    CHECK_EQ(dec(&Mixed_type, &m, LIT("\x31\x06\x02\x01\x05\x03\x01\x00"), ASN1H_DER, &err),
             ASN1H_OK);
    CHECK(m.alt.which == 1 && m.alt.u.i.v == 5);
    CHECK_EQ(dec(&Mixed_type, &m, LIT("\x31\x06\x04\x01\x41\x03\x01\x00"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    CHECK_EQ(dec(&Mixed_type, &m, LIT("\x31\x06\x03\x01\x00\x02\x01\x05"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    CHECK_EQ(dec(&Mixed_type, &m, LIT("\x31\x06\x03\x01\x00\x02\x01\x05"), 0, &err), ASN1H_OK);
    /* an unknown alternative, kept raw, is placed by its own tag: 0C after 03 */
    m.alt.which = ASN1H_WHICH_UNKNOWN;
    m.alt.u.unknown_.buf = (const uint8_t *)"\x0C\x01\x42";
    m.alt.u.unknown_.len = 3;
    CHECK_ENCODES(&Mixed_type, &m, "\x31\x06\x03\x01\x00\x0C\x01\x42");
    /* long-form tags sort by number: [31] after [30] */
    m.alt.u.unknown_.buf = (const uint8_t *)"\x9F\x1F\x00";
    CHECK_ENCODES(&Mixed_type, &m, "\x31\x06\x03\x01\x00\x9F\x1F\x00");
}

/* Values kept as received (open types, unknown alternatives) are re-encoded with DER
 * framing (X.690 10.1), their primitive contents as they are; strict DER checks the framing
 * at every level inside them. */
void test_received_values_reframed(void)
{
    uint8_t big[5 + 200];
    asn1h_open any;
    Alt alt;
    asn1h_error err;
    size_t i;

    CHECK_EQ(dec(&Any_type, &any, LIT("\x30\x03\x04\x01\x41"), ASN1H_DER, &err), ASN1H_OK);
    CHECK_ENCODES(&Any_type, &any, "\x30\x03\x04\x01\x41");
    /* indefinite length */
    CHECK_EQ(dec(&Any_type, &any, LIT("\x30\x80\x04\x01\x41\x00\x00"), 0, &err), ASN1H_OK);
    CHECK_EQ(any.len, 7);
    CHECK_ENCODES(&Any_type, &any, "\x30\x03\x04\x01\x41");
    /* a length in more octets than needed, inside */
    CHECK_EQ(dec(&Any_type, &any, LIT("\x30\x04\x04\x81\x01\x41"), 0, &err), ASN1H_OK);
    CHECK_ENCODES(&Any_type, &any, "\x30\x03\x04\x01\x41");
    CHECK_EQ(dec(&Any_type, &any, LIT("\x30\x04\x04\x81\x01\x41"), ASN1H_DER, &err),
             ASN1H_ERR_NOT_DER);
    CHECK_EQ(err.offset, 3);
    /* a long-form identifier for 12 is refused (X.690 8.1.2.2: one octet for 0 to 30);
     * 128 needs it: 9F 81 00 */
    CHECK_EQ(dec(&Any_type, &any, LIT("\x1F\x0C\x02" "hi"), 0, &err), ASN1H_ERR_TAG);
    CHECK_EQ(err.offset, 0);
    CHECK_EQ(dec(&Any_type, &any, LIT("\xBF\x81\x00\x80\x04\x01\x41\x00\x00"), 0, &err),
             ASN1H_OK);
    CHECK_ENCODES(&Any_type, &any, "\xBF\x81\x00\x03\x04\x01\x41");
    /* 200 octets behind a five-octet length: 04 81 C8 in DER */
    memcpy(big, "\x04\x83\x00\x00\xC8", 5);
    for (i = 0; i < 200; i++)
        big[5 + i] = (uint8_t)i;
    CHECK_EQ(dec(&Any_type, &any, big, sizeof big, 0, &err), ASN1H_OK);
    {
        uint8_t expected[3 + 200], out[256];
        size_t len = 0;
        memcpy(expected, "\x04\x81\xC8", 3);
        memcpy(expected + 3, big + 5, 200);
        CHECK_EQ(asn1h_encode(&Any_type, &any, out, sizeof out, &len, &err), ASN1H_OK);
        check_bytes(__FILE__, __LINE__, "re-framed", out, len, expected, sizeof expected);
        check_encodes(__FILE__, __LINE__, &Any_type, &any, expected, sizeof expected);
    }
    /* an unknown alternative likewise */
    CHECK_EQ(dec(&Alt_type, &alt, LIT("\x30\x80\x02\x01\x05\x00\x00"), 0, &err), ASN1H_OK);
    CHECK(alt.which == ASN1H_WHICH_UNKNOWN);
    CHECK_ENCODES(&Alt_type, &alt, "\x30\x03\x02\x01\x05");
    /* what is kept must be well formed at every level, within the nesting limit */
    CHECK_EQ(dec(&Any_type, &any, LIT("\x30\x04\x04\x03\x41\x42"), 0, &err), ASN1H_ERR_LENGTH);
    CHECK_EQ(err.offset, 3);
    CHECK_EQ(dec_depth(&Any_type, &any, LIT("\x30\x04\x30\x02\x30\x00"), 2, &err),
             ASN1H_ERR_DEPTH);
    CHECK_EQ(dec_depth(&Any_type, &any, LIT("\x30\x04\x30\x02\x30\x00"), 3, &err), ASN1H_OK);
    /* not a TLV at all (a caller's value): copied as it is */
    any.buf = (const uint8_t *)"\x30\x05\x01";
    any.len = 3;
    any.type = NULL;
    any.value = NULL;
    CHECK_ENCODES(&Any_type, &any, "\x30\x05\x01");
}

/* Nesting deeper than the re-framing goes (when the caller allows it in decoding): copied
 * as received. */
void test_received_values_deep(void)
{
    enum { LEVELS = 1000 };
    const size_t size = 4 * LEVELS + 2;     /* 30 80 ..., 05 00, 00 00 ... */
    uint8_t *msg = (uint8_t *)malloc(size), *out = (uint8_t *)malloc(size);
    asn1h_open any;
    asn1h_error err;
    size_t i, len = 0;
    memset(msg, 0, size);
    for (i = 0; i < LEVELS; i++) {
        msg[2 * i] = 0x30;
        msg[2 * i + 1] = 0x80;
    }
    msg[2 * LEVELS] = 0x05;
    CHECK_EQ(dec_depth(&Any_type, &any, msg, size, LEVELS + 1, &err), ASN1H_OK);
    CHECK_EQ(asn1h_encode(&Any_type, &any, out, size, &len, &err), ASN1H_OK);
    check_bytes(__FILE__, __LINE__, "copied", out, len, dec_input(), size);
    free(msg);
    free(out);
}

/* Values kept as received are equal when they differ only in framing. */
void test_received_values_equality(void)
{
    asn1h_open a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.buf = (const uint8_t *)"\x30\x80\x04\x01\x41\x24\x80\x04\x00\x00\x00\x00\x00";
    a.len = 13;
    b.buf = (const uint8_t *)"\x30\x07\x04\x01\x41\x24\x02\x04\x00";
    b.len = 9;
    CHECK(asn1h_equal(&Any_type, &a, &b));
    b.buf = (const uint8_t *)"\x30\x07\x04\x01\x42\x24\x02\x04\x00";     /* contents differ */
    CHECK(!asn1h_equal(&Any_type, &a, &b));
    b.buf = (const uint8_t *)"\x30\x07\x04\x01\x41\x04\x02\x04\x00";     /* form differs */
    CHECK(!asn1h_equal(&Any_type, &a, &b));
    b.buf = (const uint8_t *)"\x30\x05\x04\x01\x41\x24\x00";              /* one element less */
    b.len = 7;
    CHECK(!asn1h_equal(&Any_type, &a, &b));
}
