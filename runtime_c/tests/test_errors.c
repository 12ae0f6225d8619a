/* test_errors.c: error codes, offsets, type paths and their text. */
#include <stdlib.h>

#include "check.h"
#include "tests.h"
#include "types.h"

void test_error_strings(void)
{
    int i, j;
    for (i = 0; i < ASN1H_ERR_COUNT; i++) {
        const char *text = asn1h_strerror((asn1h_code)i);
        CHECK(text != NULL && text[0] != 0);
        for (j = 0; j < i; j++)
            CHECK(strcmp(text, asn1h_strerror((asn1h_code)j)) != 0);
    }
    CHECK(strcmp(asn1h_strerror(ASN1H_ERR_COUNT), "unknown error") == 0);
    CHECK(strcmp(asn1h_strerror((asn1h_code)-1), "unknown error") == 0);
}

void test_error_format(void)
{
    asn1h_error err;
    char text[128], small[10];
    size_t n, full;

    memset(&err, 0, sizeof err);
    err.code = ASN1H_ERR_TAG;
    err.type = &Records_type;
    err.depth = 3;
    err.path[2].member = NULL;      /* outermost first when printed */
    err.path[2].index = 12;
    err.path[1].member = &T_spec.spec.members[3];      /* Record's bits */
    err.path[0].member = &T_spec.spec.members[19];     /* Mixed's alt */
    n = asn1h_error_format(&err, text, sizeof text);
    CHECK(strcmp(text, "T.Records[12].bits.alt: unexpected tag") == 0);
    CHECK_EQ(n, strlen(text));
    full = n;
    /* a buffer too small: cut and terminated, the length needed returned (as snprintf) */
    n = asn1h_error_format(&err, small, sizeof small);
    CHECK_EQ(n, full);
    CHECK(strcmp(small, "T.Records") == 0);
    n = asn1h_error_format(&err, small, 1);
    CHECK_EQ(n, full);
    CHECK(small[0] == 0);
    /* no buffer at all: only the length */
    CHECK_EQ(asn1h_error_format(&err, NULL, 0), full);
    /* a build without names: the type's index, each member's place in its type */
    {
        T_tables *nameless = (T_tables *)malloc(sizeof T_spec);
        CHECK(nameless != NULL);
        memcpy(nameless, &T_spec, sizeof T_spec);
        nameless->spec.strings = NULL;
        nameless->spec.names = NULL;
        nameless->spec.name_index = NULL;
        err.type = &nameless->types[24];
        err.path[1].member = &nameless->spec.members[3];
        err.path[0].member = &nameless->spec.members[19];
        asn1h_error_format(&err, text, sizeof text);
        CHECK(strcmp(text, "#24[12].#3.#0: unexpected tag") == 0);
        free(nameless);
    }
    /* no type: still readable */
    err.type = NULL;
    err.depth = 0;
    asn1h_error_format(&err, text, sizeof text);
    CHECK(strcmp(text, "?: unexpected tag") == 0);
}

/* Every name of the hand-assembled table comes back, through each kind of code: those
 * past name 32 start from the second index entry, member 20 is a reference. */
void test_names(void)
{
    static const char *const members[21] = {
        "id", "flag", "data", "bits", "", "a", "b", "c", "d", "item", "item", "item",
        "value", "next", "leaf", "node", "item", "i", "s", "alt", "bits"
    };
    const asn1h_spec *spec = &T_spec.spec;
    char name[ASN1H_NAME_MAX], small[4];
    size_t i;
    CHECK_EQ(asn1h_name(spec, 0, name, sizeof name), 5);
    CHECK(strcmp(name, "T.Int") == 0);
    CHECK(strcmp(asn1h_type_name(&Records_type, name, sizeof name), "T.Records") == 0);
    CHECK(strcmp(asn1h_type_name(&T_spec.types[15], name, sizeof name), "IA5String") == 0);
    for (i = 0; i < 21; i++) {
        asn1h_name(spec, ASN1H_MEMBER_NAME(spec, i), name, sizeof name);
        CHECK(strcmp(name, members[i]) == 0);
    }
    asn1h_name(spec, ASN1H_ITEM_NAME(spec, 2), name, sizeof name);
    CHECK(strcmp(name, "blue") == 0);
    /* cut to the buffer, through a reference too: the whole length returned */
    CHECK_EQ(asn1h_name(spec, ASN1H_MEMBER_NAME(spec, 20), small, sizeof small), 4);
    CHECK(strcmp(small, "bit") == 0);
}

/* A path deeper than ASN1H_PATH_MAX keeps its innermost entries and says it was cut. */
void test_error_path_truncated(void)
{
    enum { LEVELS = ASN1H_PATH_MAX + 4 };
    uint8_t msg[LEVELS * 7 + 4];
    size_t i, n = 0;
    Chain chain;
    asn1h_error err;
    char text[512];
    const char *tail = ".next.value: malformed contents";

    for (i = 0; i < LEVELS; i++) {          /* 30 80 02 01 01 ... then an empty INTEGER */
        memcpy(msg + n, "\x30\x80\x02\x01\x01", 5);
        n += 5;
    }
    memcpy(msg + n, "\x30\x80\x02\x00", 4);
    n += 4;
    CHECK_EQ(dec(&Chain_type, &chain, msg, n, 0, &err), ASN1H_ERR_VALUE);
    CHECK_EQ(err.offset, n);
    CHECK(err.truncated);
    CHECK_EQ(err.depth, ASN1H_PATH_MAX);
    asn1h_error_format(&err, text, sizeof text);
    CHECK(strncmp(text, "T.Chain....next.next", 20) == 0);
    CHECK(strlen(text) > strlen(tail) && strcmp(text + strlen(text) - strlen(tail), tail) == 0);
}

/* Every prefix of a valid message is an error (truncated, or a length that overruns), and
 * the error names a position inside the input. */
void test_error_every_truncation(void)
{
    static const char record[] =
        "\x30\x10\x02\x01\x07\x01\x01\x00\x80\x02" "hi" "\xA1\x04\x03\x02\x04\xF0";
    static const char indefinite[] =
        "\x30\x80\x02\x01\x07\xA1\x80\x03\x02\x04\xF0\x00\x00\x00\x00";
    uint8_t value[sizeof(Record)];
    asn1h_error err;
    size_t len;
    for (len = 0; len < sizeof record - 1; len++) {
        asn1h_code code = dec(&Record_type, value, (const uint8_t *)record, len, 0, &err);
        CHECK(code == ASN1H_ERR_TRUNCATED || code == ASN1H_ERR_LENGTH);
        CHECK(err.offset <= len);
    }
    for (len = 0; len < sizeof indefinite - 1; len++) {
        asn1h_code code = dec(&Record_type, value, (const uint8_t *)indefinite, len, 0, &err);
        CHECK(code == ASN1H_ERR_TRUNCATED || code == ASN1H_ERR_LENGTH);
        CHECK(err.offset <= len);
    }
}

/* Every single-octet change of valid messages, to every value: decoding never reads
 * outside the input (the sanitizers watch) and, when it succeeds, the value re-encodes. */
void test_error_every_corruption(void)
{
    static const char *const messages[] = {
        "\x30\x10\x02\x01\x07\x01\x01\x00\x80\x02" "hi" "\xA1\x04\x03\x02\x04\xF0",
        "\x30\x80\x02\x01\x07\xA1\x80\x03\x02\x04\xF0\x00\x00\x00\x00",
        "\x30\x0E\x30\x03\x02\x01\x01\x30\x07\x02\x01\x02\xA1\x02\x03\x00",
    };
    static const size_t lengths[] = { 18, 15, 16 };
    static const asn1h_type *const types[] = { &Record_type, &Record_type, &Records_type };
    uint8_t copy[32], out[64];
    union { Record record; Records records; } value;
    size_t m, i, len;
    unsigned v, ok = 0;
    for (m = 0; m < 3; m++) {
        for (i = 0; i < lengths[m]; i++) {
            for (v = 0; v < 256; v++) {
                asn1h_error err;
                memcpy(copy, messages[m], lengths[m]);
                copy[i] = (uint8_t)v;
                if (dec(types[m], &value, copy, lengths[m], 0, &err) != ASN1H_OK) {
                    CHECK(err.code != ASN1H_OK);
                    CHECK(err.offset <= lengths[m]);
                    continue;
                }
                ok++;
                CHECK(dec_consumed <= lengths[m]);
                CHECK_EQ(asn1h_encode(types[m], &value, out, sizeof out, &len, &err), ASN1H_OK);
            }
        }
    }
    CHECK(ok > 0);
}

/* Encoding errors: a CHOICE with nothing selected, a missing pointed-to value. */
void test_error_encoding(void)
{
    Alt a;
    Tree t;
    Records rs;
    Record r[2];
    uint8_t out[64];
    size_t len;
    asn1h_error err;
    char text[128];

    memset(&a, 0, sizeof a);
    CHECK_EQ(asn1h_encode(&Alt_type, &a, out, sizeof out, &len, &err), ASN1H_ERR_CHOICE);
    a.which = 3;
    CHECK_EQ(asn1h_encode(&Alt_type, &a, out, sizeof out, &len, &err), ASN1H_ERR_CHOICE);
    memset(&t, 0, sizeof t);
    t.which = 2;                            /* node, but no node */
    CHECK_EQ(asn1h_encode(&Tree_type, &t, out, sizeof out, &len, &err), ASN1H_ERR_VALUE);
    asn1h_error_format(&err, text, sizeof text);
    CHECK(strcmp(text, "T.Tree.node: malformed contents") == 0);
    /* the path of an element */
    memset(r, 0, sizeof r);
    rs.items = r;
    rs.count = 2;
    CHECK_EQ(asn1h_encode(&Records_type, &rs, out, sizeof out, &len, &err), ASN1H_OK);
    CHECK_EQ(asn1h_encode(&Records_type, &rs, out, 6, &len, &err), ASN1H_ERR_BUFFER);
    asn1h_error_format(&err, text, sizeof text);
    CHECK(strcmp(text, "T.Records[0].id: output buffer too small") == 0);
}
