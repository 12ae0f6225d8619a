/* main.c: runs the runtime's unit tests: all of them, or those named on the command line.
 * Prints one line per test and exits non-zero when any expectation failed. */
#include <stdlib.h>

#include "check.h"
#include "tests.h"

unsigned check_failures;
unsigned long heap_calls;

/* ---- Counting heap calls (linked with --wrap) ------------------------------------------ */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

void *__wrap_malloc(size_t size)
{
    heap_calls++;
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    heap_calls++;
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    heap_calls++;
    return __real_realloc(p, size);
}

/* ---- Checks ---------------------------------------------------------------------------- */

void check_fail(const char *file, int line, const char *what)
{
    printf("  %s:%d: failed: %s\n", file, line, what);
    check_failures++;
}

void check_eq(const char *file, int line, const char *what, long long actual, long long expected)
{
    if (actual != expected) {
        printf("  %s:%d: %s is %lld, expected %lld\n", file, line, what, actual, expected);
        check_failures++;
    }
}

static void print_hex(const uint8_t *buf, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        printf("%02X", buf[i]);
}

void check_bytes(const char *file, int line, const char *what, const uint8_t *actual,
                 size_t actual_len, const uint8_t *expected, size_t expected_len)
{
    if (actual_len == expected_len && (expected_len == 0 || memcmp(actual, expected, expected_len) == 0))
        return;
    printf("  %s:%d: %s is ", file, line, what);
    if (actual)
        print_hex(actual, actual_len);
    else
        printf("NULL");
    printf(", expected ");
    print_hex(expected, expected_len);
    printf("\n");
    check_failures++;
}

/* ---- Decoding and encoding -------------------------------------------------------------- */

static uint8_t arena_buffer[1 << 20];
static asn1h_arena arena;
static int arena_ready;
static uint8_t *input_copy;

asn1h_arena *test_arena(void)
{
    if (!arena_ready) {
        asn1h_arena_init(&arena, arena_buffer, sizeof arena_buffer, 0);
        arena_ready = 1;
    }
    return &arena;
}

size_t dec_consumed;

static asn1h_code decode_copy(const asn1h_type *type, void *value, const uint8_t *buf,
                              size_t len, const asn1h_decode_opts *opts, asn1h_error *err)
{
    /* The input is copied into a heap block of exactly its size, so that AddressSanitizer
     * sees any read past its end.  The copy lives until the next decode: decoded strings
     * point into it. */
    free(input_copy);
    input_copy = (uint8_t *)__real_malloc(len ? len : 1);
    if (len)
        memcpy(input_copy, buf, len);
    asn1h_arena_reset(test_arena());
    dec_consumed = (size_t)-1;
    return asn1h_decode(type, value, input_copy, len, test_arena(), opts, &dec_consumed, err);
}

const uint8_t *dec_input(void)
{
    return input_copy;
}

asn1h_code dec(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
               unsigned flags, asn1h_error *err)
{
    asn1h_decode_opts opts = { flags, 0, NULL, NULL };
    return decode_copy(type, value, buf, len, &opts, err);
}

asn1h_code dec_depth(const asn1h_type *type, void *value, const uint8_t *buf, size_t len,
                     unsigned max_depth, asn1h_error *err)
{
    asn1h_decode_opts opts = { 0, max_depth, NULL, NULL };
    return decode_copy(type, value, buf, len, &opts, err);
}

void check_encodes(const char *file, int line, const asn1h_type *type, const void *value,
                   const uint8_t *expected, size_t expected_len)
{
    size_t cap, len = 0;
    asn1h_error err;
    /* Every buffer too small by even one octet is refused; each is a heap block of exactly
     * that size, so that a write before its start would be caught. */
    for (cap = 0; cap <= expected_len; cap++) {
        uint8_t *out = (uint8_t *)__real_malloc(cap ? cap : 1);
        asn1h_code code = asn1h_encode(type, value, out, cap, &len, &err);
        if (cap < expected_len) {
            if (code != ASN1H_ERR_BUFFER) {
                printf("  %s:%d: encoding into %lu octets gave code %d, expected %d\n", file,
                       line, (unsigned long)cap, (int)code, (int)ASN1H_ERR_BUFFER);
                check_failures++;
                free(out);
                break;
            }
        } else if (code != ASN1H_OK) {
            printf("  %s:%d: encoding failed with code %d\n", file, line, (int)code);
            check_failures++;
        } else {
            check_bytes(file, line, "encoding", out, len, expected, expected_len);
        }
        free(out);
    }
}

/* ---- The test list ---------------------------------------------------------------------- */

#define ENTRY(name) { #name, test_##name },
static const struct { const char *name; void (*run)(void); } tests[] = { ALL_TESTS(ENTRY) };

int main(int argc, char **argv)
{
    size_t i, ntests = sizeof tests / sizeof tests[0];
    unsigned failed = 0;
    int k;

    setvbuf(stdout, NULL, _IONBF, 0);       /* every line out before a sanitizer stops us */
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (i = 0; i < ntests; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    for (i = 0; i < ntests; i++) {
        unsigned before = check_failures;
        int selected = argc == 1;
        for (k = 1; k < argc; k++)
            if (strcmp(argv[k], tests[i].name) == 0)
                selected = 1;
        if (!selected)
            continue;
        tests[i].run();
        printf("%s %s\n", check_failures == before ? "PASS" : "FAIL", tests[i].name);
        if (check_failures != before)
            failed++;
    }
    free(input_copy);
    asn1h_arena_free(test_arena());
    return failed ? 1 : 0;
}
