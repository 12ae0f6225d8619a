/* test_ber.c: identifiers and lengths (X.690 8.1.2, 8.1.3), and skipping whole values. */
#include <stdlib.h>

#include "check.h"
#include "tests.h"

/* Reads one identifier and length from `header` followed by `contents` zero octets, in a
 * heap block of exactly that size, with `read`.  Checks the code, and on success the tag,
 * the form, the header size and the contents length. */
typedef struct tl_case {
    const char *header;
    size_t header_len;
    size_t contents;            /* octets present after the header */
    unsigned flags;             /* ASN1H_DER or 0 */
    asn1h_code code;
    uint32_t tag;
    unsigned form;
    size_t content_len;         /* expected length (ignored when indefinite) */
    size_t error_offset;        /* where a failure is reported */
} tl_case;

typedef const uint8_t *tl_reader(asn1h_dec *d, const uint8_t *p, const uint8_t *end,
                                  uint32_t *tag, unsigned *form, const uint8_t **content_end);

static void check_tl_with(tl_reader *read, const char *name, const tl_case *c, int line)
{
    size_t size = c->header_len + c->contents;
    uint8_t *buf = (uint8_t *)malloc(size ? size : 1);
    asn1h_error err;
    asn1h_dec d;
    uint32_t tag = 0xDEADu;
    unsigned form = 0;
    const uint8_t *content_end = NULL, *contents;

    memcpy(buf, c->header, c->header_len);
    memset(buf + c->header_len, 0, c->contents);
    memset(&err, 0, sizeof err);
    memset(&d, 0, sizeof d);
    d.base = buf;
    d.input_end = buf + size;
    d.err = &err;
    d.flags = c->flags;
    d.depth = ASN1H_MAX_DEPTH;
    contents = read(&d, buf, buf + size, &tag, &form, &content_end);
    if (c->code != ASN1H_OK) {
        if (contents != NULL || err.code != c->code || err.offset != c->error_offset) {
            printf("  test_ber.c case %d, %s: expected code %d at %lu, got %s, code %d at %lu\n",
                   line, name, (int)c->code, (unsigned long)c->error_offset,
                   contents ? "contents" : "NULL", (int)err.code, (unsigned long)err.offset);
            check_failures++;
        }
    } else if (!contents || err.code != ASN1H_OK || tag != c->tag || form != c->form
               || (size_t)(contents - buf) != c->header_len
               || (!(form & ASN1H_FORM_INDEF) && (size_t)(content_end - contents) != c->content_len)
               || ((form & ASN1H_FORM_INDEF) && content_end != buf + size)) {
        printf("  test_ber.c case %d, %s: expected tag %08X form %u length %lu, got %s code %d "
               "tag %08X form %u\n", line, name, c->tag, c->form, (unsigned long)c->content_len,
               contents ? "contents" : "NULL", (int)err.code, tag, form);
        check_failures++;
    }
    free(buf);
}

/* Both readers: the interpreter's out-of-line one, and the inline one of the top-level
 * value and walks, which takes the 0x81 and 0x82 forms on a path of its own. */
static void check_tl(const tl_case *c, int line)
{
    check_tl_with(asn1h_read_tl, "asn1h_read_tl", c, line);
    check_tl_with(asn1h_get_tl, "asn1h_get_tl", c, line);
}

#define H(s) s, sizeof(s) - 1
#define UNIV(n) ASN1H_TAG(ASN1H_UNIVERSAL, n)
#define APP(n) ASN1H_TAG(ASN1H_APPLICATION, n)
#define CTX(n) ASN1H_TAG(ASN1H_CONTEXT, n)
#define PRIV(n) ASN1H_TAG(ASN1H_PRIVATE, n)
#define CONS ASN1H_FORM_CONSTRUCTED
#define INDEF (ASN1H_FORM_CONSTRUCTED | ASN1H_FORM_INDEF)

void test_ber_identifiers(void)
{
    static const tl_case cases[] = {
        /* 8.1.2.2: class in bits 8-7, constructed bit 6, number < 31 in bits 5-1 */
        { H("\x02\x01"), 1, 0, ASN1H_OK, UNIV(2), 0, 1, 0 },
        { H("\x30\x00"), 0, 0, ASN1H_OK, UNIV(16), CONS, 0, 0 },
        { H("\x61\x03"), 3, 0, ASN1H_OK, APP(1), CONS, 3, 0 },
        { H("\x9E\x00"), 0, 0, ASN1H_OK, CTX(30), 0, 0, 0 },
        { H("\xDE\x00"), 0, 0, ASN1H_OK, PRIV(30), 0, 0, 0 },
        /* 8.1.2.4: number >= 31: bits 5-1 all ones, then base-128 octets, bit 8 = more */
        { H("\x9F\x1F\x00"), 0, 0, ASN1H_OK, CTX(31), 0, 0, 0 },
        { H("\xBF\x81\x00\x00"), 0, ASN1H_DER, ASN1H_OK, CTX(128), CONS, 0, 0 },
        { H("\x5F\x82\x80\x00\x00"), 0, 0, ASN1H_OK, APP(32768), 0, 0, 0 },
        /* 2^30 - 1 = 0x3FFFFFFF, the largest number the runtime holds: 3, then 127 x4 */
        { H("\x5F\x83\xFF\xFF\xFF\x7F\x00"), 0, 0, ASN1H_OK, APP(0x3FFFFFFFu), 0, 0, 0 },
        /* 2^30: too large, refused rather than wrapped */
        { H("\x5F\x84\x80\x80\x80\x00\x00"), 0, 0, ASN1H_ERR_TAG, 0, 0, 0, 0 },
        /* 8.1.2.4.2 c: bits 7-1 of the first subsequent octet shall not all be zero */
        { H("\x9F\x80\x01\x00"), 0, 0, ASN1H_ERR_TAG, 0, 0, 0, 0 },
        { H("\x9F\x00\x00"), 0, 0, ASN1H_ERR_TAG, 0, 0, 0, 0 },     /* number 0, long form */
        /* a long form for a number below 31: 8.1.2.2 wants one octet for 0 to 30, in BER
         * as in DER (and compiled routines, which match one-octet identifiers, agree) */
        { H("\x9F\x05\x00"), 0, 0, ASN1H_ERR_TAG, 0, 0, 0, 0 },
        { H("\x9F\x05\x00"), 0, ASN1H_DER, ASN1H_ERR_TAG, 0, 0, 0, 0 },
        /* the input ends inside the identifier */
        { H("\x9F"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 0 },
        { H("\x9F\x81"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 0 },
        { H("\x9F\x81\x82"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 0 },
        /* ... or before the length */
        { H("\x9F\x1F"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 2 },
        { H(""), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 0 },
        { H("\x04"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 0 },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_tl(&cases[i], (int)i);
}

void test_ber_lengths(void)
{
    static const tl_case cases[] = {
        /* 8.1.3.4: short form, 0..127 */
        { H("\x04\x00"), 0, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 0, 0 },
        { H("\x04\x7F"), 127, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 127, 0 },
        /* 8.1.3.5: long form, 0x80 | number of length octets, then the length */
        { H("\x04\x81\x80"), 128, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 128, 0 },
        { H("\x04\x81\xFF"), 255, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 255, 0 },
        { H("\x04\x82\x01\x00"), 256, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 256, 0 },
        { H("\x04\x82\xFF\xFF"), 65535, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 65535, 0 },
        { H("\x04\x83\x01\x00\x00"), 65536, ASN1H_DER, ASN1H_OK, UNIV(4), 0, 65536, 0 },
        /* the class and constructed bits beside a long form (a PDU's usual header) */
        { H("\x61\x81\x80"), 128, ASN1H_DER, ASN1H_OK, APP(1), CONS, 128, 0 },
        { H("\xE3\x82\x01\x00"), 256, 0, ASN1H_OK, PRIV(3), CONS, 256, 0 },
        /* long forms that a shorter one could have said: BER yes, DER no (10.1) */
        { H("\x04\x81\x05"), 5, 0, ASN1H_OK, UNIV(4), 0, 5, 0 },
        { H("\x04\x81\x05"), 5, ASN1H_DER, ASN1H_ERR_NOT_DER, 0, 0, 0, 1 },
        { H("\x04\x81\x7F"), 127, ASN1H_DER, ASN1H_ERR_NOT_DER, 0, 0, 0, 1 },
        { H("\x04\x82\x00\x80"), 128, 0, ASN1H_OK, UNIV(4), 0, 128, 0 },
        { H("\x04\x82\x00\x80"), 128, ASN1H_DER, ASN1H_ERR_NOT_DER, 0, 0, 0, 1 },
        { H("\x04\x84\x00\x00\x00\x05"), 5, 0, ASN1H_OK, UNIV(4), 0, 5, 0 },
        { H("\x04\x84\x00\x00\x00\x05"), 5, ASN1H_DER, ASN1H_ERR_NOT_DER, 0, 0, 0, 1 },
        /* 8.1.3.6: indefinite, constructed only; DER never (10.1) */
        { H("\x30\x80"), 2, 0, ASN1H_OK, UNIV(16), INDEF, 0, 0 },
        { H("\x30\x80"), 2, ASN1H_DER, ASN1H_ERR_NOT_DER, 0, 0, 0, 1 },
        { H("\x04\x80"), 2, 0, ASN1H_ERR_LENGTH, 0, 0, 0, 1 },
        /* 8.1.3.5 c: 0xFF is reserved */
        { H("\x04\xFF"), 0, 0, ASN1H_ERR_LENGTH, 0, 0, 0, 1 },
        /* a length that runs past the end of the input, in every form: the input was cut
         * short */
        { H("\x04\x05"), 4, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x81\x80"), 127, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x82\x01\x00"), 255, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x83\x01\x00\x00"), 65535, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        /* length bombs: 2 GiB, 4 GiB - 1, 2^63, 2^64 - 1; 2^64 (nine octets) is no size */
        { H("\x04\x84\x7F\xFF\xFF\xFF"), 16, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x84\xFF\xFF\xFF\xFF"), 16, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x30\x88\x80\x00\x00\x00\x00\x00\x00\x00"), 16, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x88\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"), 16, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x89\x01\x00\x00\x00\x00\x00\x00\x00\x00"), 16, 0, ASN1H_ERR_LENGTH, 0, 0, 0, 1 },
        { H("\x04\xFE\x01"), 200, 0, ASN1H_ERR_LENGTH, 0, 0, 0, 1 },
        /* the input ends inside the length octets */
        { H("\x04\x81"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x82\x01"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x04\x84\x00\x00"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 1 },
        { H("\x9F\x1F\x82\x01"), 0, 0, ASN1H_ERR_TRUNCATED, 0, 0, 0, 2 },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_tl(&cases[i], (int)i);
}

/* asn1h_expect, the compiled routines' fast path: DER-minimal definite lengths only. */
void test_ber_expect_fast_path(void)
{
    static const uint8_t short_form[] = { 0x04, 0x02, 'h', 'i' };
    static const uint8_t two_octets[] = { 0x04, 0x81, 0x05, 1, 2, 3, 4, 5 };
    static const uint8_t overrun[] = { 0x04, 0x03, 'h', 'i' };
    const uint8_t *content_end = NULL, *c;

    c = asn1h_expect(short_form, short_form + sizeof short_form, 0x04, &content_end);
    CHECK(c == short_form + 2 && content_end == short_form + 4);
    /* not minimal: the general path must decide */
    CHECK(asn1h_expect(two_octets, two_octets + sizeof two_octets, 0x04, &content_end) == NULL);
    CHECK(asn1h_expect(overrun, overrun + sizeof overrun, 0x04, &content_end) == NULL);
    CHECK(asn1h_expect(short_form, short_form + 1, 0x04, &content_end) == NULL);
    CHECK(asn1h_expect(short_form, short_form + sizeof short_form, 0x05, &content_end) == NULL);
}

/* A length that overruns its container: a length error while the input holds the value,
 * truncation when the input ends first. */
void test_ber_overrun(void)
{
    static const uint8_t buf[12] = { 0x04, 0x05 };
    asn1h_error err;
    asn1h_dec d;
    uint32_t tag;
    unsigned form;
    const uint8_t *content_end;
    memset(&err, 0, sizeof err);
    memset(&d, 0, sizeof d);
    d.base = buf;
    d.err = &err;
    d.depth = ASN1H_MAX_DEPTH;
    d.input_end = buf + sizeof buf;             /* the container ends at 4, the input at 12 */
    CHECK(asn1h_read_tl(&d, buf, buf + 4, &tag, &form, &content_end) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_LENGTH);
    CHECK_EQ(err.offset, 1);
    err.code = ASN1H_OK;
    d.input_end = buf + 4;                      /* the input ends with the container */
    CHECK(asn1h_read_tl(&d, buf, buf + 4, &tag, &form, &content_end) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_TRUNCATED);
    err.code = ASN1H_OK;
    d.input_end = buf + 7;                      /* exactly the value's end: it fits the input */
    CHECK(asn1h_read_tl(&d, buf, buf + 4, &tag, &form, &content_end) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_LENGTH);
}

/* The same overrun past the input's end, inside a definite SEQUENCE the input holds whole
 * (a length error) and inside an indefinite one (the input was cut short). */
void test_ber_overrun_enclosed(void)
{
    asn1h_error err;
    asn1h_open v;
    asn1h_dec d;
    static const uint8_t definite[] = { 0x30, 0x05, 0x02, 0x01, 0x07, 0x85, 0x05 };
    static const uint8_t indefinite[] = { 0x30, 0x80, 0x02, 0x01, 0x07, 0x85, 0x05 };
    memset(&err, 0, sizeof err);
    memset(&d, 0, sizeof d);
    d.err = &err;
    d.depth = ASN1H_MAX_DEPTH;
    d.base = definite;
    d.input_end = definite + sizeof definite;
    CHECK(asn1h_decode_open(&d, definite, d.input_end, &v) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_LENGTH);
    CHECK_EQ(err.offset, 6);
    memset(&err, 0, sizeof err);
    d.base = indefinite;
    d.input_end = indefinite + sizeof indefinite;
    CHECK(asn1h_decode_open(&d, indefinite, d.input_end, &v) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_TRUNCATED);
    CHECK_EQ(err.offset, 6);
}

/* Skipping whole values: definite, indefinite at any depth, up to the depth limit. */
static asn1h_code skip(const uint8_t *buf, size_t len, unsigned depth, size_t *used)
{
    uint8_t *copy = (uint8_t *)calloc(1, len ? len : 1);
    asn1h_error err;
    asn1h_dec d;
    const uint8_t *q;
    memcpy(copy, buf, len);
    memset(&err, 0, sizeof err);
    memset(&d, 0, sizeof d);
    d.base = copy;
    d.err = &err;
    d.depth = depth;
    q = asn1h_skip_tlv(&d, copy, copy + len);
    *used = q ? (size_t)(q - copy) : 0;
    free(copy);
    return q ? ASN1H_OK : err.code;
}

void test_ber_skip(void)
{
    size_t used = 0, i;
    uint8_t deep[2 * 70 * 2];

    CHECK_EQ(skip(LIT("\x04\x01\x41\xFF"), 8, &used), ASN1H_OK);
    CHECK_EQ(used, 3);
    CHECK_EQ(skip(LIT("\x30\x80\x04\x01\x41\x00\x00\xFF"), 8, &used), ASN1H_OK);
    CHECK_EQ(used, 7);
    CHECK_EQ(skip(LIT("\x30\x80\x30\x80\x00\x00\x24\x80\x04\x00\x00\x00\x00\x00"), 8, &used),
             ASN1H_OK);
    CHECK_EQ(used, 14);
    /* an indefinite value that never ends */
    CHECK_EQ(skip(LIT("\x30\x80\x04\x01\x41"), 8, &used), ASN1H_ERR_TRUNCATED);
    CHECK_EQ(skip(LIT("\x30\x80\x30\x80\x00\x00"), 8, &used), ASN1H_ERR_TRUNCATED);
    /* end-of-contents where a value must start */
    CHECK_EQ(skip(LIT("\x00\x00"), 8, &used), ASN1H_ERR_TAG);
    /* 70 nested indefinite values: fine with room for 70 levels, too deep for 69 */
    for (i = 0; i < 70; i++) {
        deep[2 * i] = 0x30;
        deep[2 * i + 1] = 0x80;
        deep[140 + 2 * i] = 0;
        deep[140 + 2 * i + 1] = 0;
    }
    CHECK_EQ(skip(deep, sizeof deep, 70, &used), ASN1H_OK);
    CHECK_EQ(used, sizeof deep);
    CHECK_EQ(skip(deep, sizeof deep, 69, &used), ASN1H_ERR_DEPTH);
}

/* Closing constructed contents: nothing may be left in a definite one, and an indefinite one
 * ends with two zero octets. */
void test_ber_close(void)
{
    static const uint8_t eoc[] = { 0x00, 0x00 }, junk[] = { 0x05, 0x00 };
    asn1h_error err;
    asn1h_dec d;
    memset(&err, 0, sizeof err);
    memset(&d, 0, sizeof d);
    d.base = junk;
    d.err = &err;
    CHECK(asn1h_close(&d, eoc, eoc + 2, ASN1H_FORM_CONSTRUCTED | ASN1H_FORM_INDEF) == eoc + 2);
    CHECK(asn1h_close(&d, junk + 2, junk + 2, ASN1H_FORM_CONSTRUCTED) == junk + 2);
    CHECK(err.code == ASN1H_OK);
    CHECK(asn1h_close(&d, junk, junk + 2, ASN1H_FORM_CONSTRUCTED) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_TRAILING);
    err.code = ASN1H_OK;
    CHECK(asn1h_close(&d, junk, junk + 2, ASN1H_FORM_CONSTRUCTED | ASN1H_FORM_INDEF) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_TRAILING);
    err.code = ASN1H_OK;
    CHECK(asn1h_close(&d, junk, junk + 1, ASN1H_FORM_CONSTRUCTED | ASN1H_FORM_INDEF) == NULL);
    CHECK_EQ(err.code, ASN1H_ERR_TRUNCATED);
}

/* Identifiers and lengths written by the encoder: the shortest forms (10.1). */
void test_ber_put_tag_and_length(void)
{
    static const struct { size_t len; const char *der; size_t der_len; } lengths[] = {
        { 0, H("\x00") }, { 127, H("\x7F") }, { 128, H("\x81\x80") }, { 255, H("\x81\xFF") },
        { 256, H("\x82\x01\x00") }, { 65535, H("\x82\xFF\xFF") },
        { 65536, H("\x83\x01\x00\x00") }, { 0x12345678u, H("\x84\x12\x34\x56\x78") },
    };
    static const struct { uint32_t tag; unsigned constructed; const char *der; size_t der_len; } tags[] = {
        { UNIV(2), 0, H("\x02") }, { UNIV(16), 1, H("\x30") }, { CTX(30), 0, H("\x9E") },
        { CTX(31), 0, H("\x9F\x1F") }, { APP(128), 1, H("\x7F\x81\x00") },
        { PRIV(0x3FFFFFFFu), 0, H("\xDF\x83\xFF\xFF\xFF\x7F") },
    };
    uint8_t out[16];
    asn1h_error err;
    asn1h_enc e;
    uint8_t *p;
    size_t i;
    for (i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        memset(&err, 0, sizeof err);
        e.start = out;
        e.err = &err;
        p = asn1h_put_len(&e, out + sizeof out, lengths[i].len);
        CHECK(p != NULL);
        if (p)
            check_bytes(__FILE__, __LINE__, "length", p, (size_t)(out + sizeof out - p),
                        (const uint8_t *)lengths[i].der, lengths[i].der_len);
        /* one octet short of room: refused, nothing written before the start */
        e.start = out + sizeof out - lengths[i].der_len + 1;
        CHECK(asn1h_put_len(&e, out + sizeof out, lengths[i].len) == NULL);
        CHECK_EQ(err.code, ASN1H_ERR_BUFFER);
    }
    for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        memset(&err, 0, sizeof err);
        e.start = out;
        e.err = &err;
        p = asn1h_put_tag(&e, out + sizeof out, tags[i].tag, tags[i].constructed);
        CHECK(p != NULL);
        if (p)
            check_bytes(__FILE__, __LINE__, "identifier", p, (size_t)(out + sizeof out - p),
                        (const uint8_t *)tags[i].der, tags[i].der_len);
        e.start = out + sizeof out - tags[i].der_len + 1;
        CHECK(asn1h_put_tag(&e, out + sizeof out, tags[i].tag, tags[i].constructed) == NULL);
    }
}
