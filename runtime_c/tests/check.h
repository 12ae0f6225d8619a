/* check.h: the runtime's unit tests, a minimal harness.
 *
 * Each test is a function `void test_NAME(void)` listed in tests.h.  CHECK and its
 * variants record a failure with its source line and let the test go on, so that one run
 * shows every broken expectation.  Expected values come from X.690, worked out by hand in
 * the comments next to them, never from the code under test.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

#include "asn1h_ber.h"

extern unsigned check_failures;
void check_fail(const char *file, int line, const char *what);

#define CHECK(cond) \
    do { if (!(cond)) check_fail(__FILE__, __LINE__, #cond); } while (0)

/* Two integers (codes, lengths, offsets) that must be equal; prints both on failure. */
#define CHECK_EQ(actual, expected) \
    check_eq(__FILE__, __LINE__, #actual, (long long)(actual), (long long)(expected))
void check_eq(const char *file, int line, const char *what, long long actual, long long expected);

/* Octets that must be equal to a literal. */
#define CHECK_BYTES(buf, len, literal) \
    check_bytes(__FILE__, __LINE__, #buf, (buf), (len), (const uint8_t *)(literal), \
                sizeof(literal) - 1)
void check_bytes(const char *file, int line, const char *what, const uint8_t *actual,
                 size_t actual_len, const uint8_t *expected, size_t expected_len);

/* A string literal of octets as (pointer, length), without its terminating NUL. */
#define LIT(s) (const uint8_t *)(s), (sizeof(s) - 1)

/* ---- Decoding and encoding with a fixed arena ------------------------------------------ */

/* One arena over a static buffer, reset before every decode (no heap at all). */
asn1h_arena *test_arena(void);

/* Decodes buf[0..len) as `type` into *value (strict DER when `flags` has ASN1H_DER);
 * *consumed and *err are filled as asn1h_decode fills them. */
asn1h_code dec(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
               unsigned flags, asn1h_error *err);
/* What the last decode consumed, and its copy of the input (decoded strings point there). */
extern size_t dec_consumed;
const uint8_t *dec_input(void);
/* The same with an explicit depth limit. */
asn1h_code dec_depth(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
                     unsigned max_depth, asn1h_error *err);

/* Encodes *value and compares the DER with a literal. */
#define CHECK_ENCODES(type, value, literal) \
    check_encodes(__FILE__, __LINE__, (type), (value), (const uint8_t *)(literal), \
                  sizeof(literal) - 1)
void check_encodes(const char *file, int line, const asn1h_type *type, const void *value,
                   const uint8_t *expected, size_t expected_len);

/* Calls of malloc, calloc and realloc made so far by anything linked into the tests (the
 * test program is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc). */
extern unsigned long heap_calls;

#endif /* CHECK_H */
