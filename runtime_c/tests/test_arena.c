/* test_arena.c: the arena, the only allocator decoding uses (asn1h.h, docs/runtime.md). */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "tests.h"
#include "types.h"

/* A caller's buffer, aligned so that the arena can use all of it. */
typedef union { uint64_t align; uint8_t bytes[4096]; } aligned_buffer;

static int all_zero(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static int aligned(const void *p)
{
    return (uintptr_t)p % ASN1H_ALIGN == 0;
}

/* A fixed buffer and no heap: every allocation comes from the buffer, zeroed and aligned,
 * until it is full; malloc is never called. */
void test_arena_fixed_buffer_never_mallocs(void)
{
    static aligned_buffer buffer;
    unsigned long before = heap_calls;
    asn1h_arena a;
    size_t count = 0, round;
    uint8_t *p;

    memset(buffer.bytes, 0xCD, sizeof buffer.bytes);        /* init clears it */
    asn1h_arena_init(&a, buffer.bytes, sizeof buffer.bytes, 0);
    for (round = 0; round < 3; round++) {
        count = 0;
        while ((p = (uint8_t *)asn1h_arena_alloc(&a, 100)) != NULL) {
            CHECK(p >= buffer.bytes && p + 100 <= buffer.bytes + sizeof buffer.bytes);
            CHECK(aligned(p));
            CHECK(all_zero(p, 100));
            memset(p, 0xAB, 100);
            count++;
        }
        /* 100 rounds up to 104: 39 fit in 4096 octets, 40 are left */
        CHECK_EQ(count, 39);
        CHECK(asn1h_arena_alloc(&a, 40) != NULL);
        CHECK(asn1h_arena_alloc(&a, 1) == NULL);
        asn1h_arena_reset(&a);
        CHECK(all_zero(buffer.bytes, sizeof buffer.bytes));
    }
    asn1h_arena_free(&a);
    CHECK_EQ(heap_calls - before, 0);
}

/* A buffer at an odd address: the arena starts at the next aligned one. */
void test_arena_unaligned_buffer(void)
{
    static aligned_buffer buffer;
    asn1h_arena a;
    void *p;
    asn1h_arena_init(&a, buffer.bytes + 1, 100, 0);         /* 93 usable octets from +8 */
    CHECK(asn1h_arena_alloc(&a, 96) == NULL);
    p = asn1h_arena_alloc(&a, 88);
    CHECK(p == buffer.bytes + 8);
    asn1h_arena_init(&a, buffer.bytes + 1, 3, 0);           /* nothing usable */
    CHECK(asn1h_arena_alloc(&a, 1) == NULL);
    asn1h_arena_init(&a, NULL, 0, 0);                        /* no memory at all */
    CHECK(asn1h_arena_alloc(&a, 1) == NULL);
    asn1h_arena_free(&a);
}

/* Reset zeroes only the octets that were used, so that its cost follows the message and
 * not the size of the buffer.  (A mark is put in the free space on purpose: the arena
 * keeps it zero, so the mark shows whether reset touched it.) */
void test_arena_reset_zeroes_only_what_was_used(void)
{
    static aligned_buffer buffer;
    asn1h_arena a;
    uint8_t *p, *block_end;

    asn1h_arena_init(&a, buffer.bytes, sizeof buffer.bytes, 0);
    p = (uint8_t *)asn1h_arena_alloc(&a, 16);
    memset(p, 0x5A, 16);
    buffer.bytes[2048] = 0x77;
    asn1h_arena_reset(&a);
    CHECK(all_zero(buffer.bytes, 16));
    CHECK_EQ(buffer.bytes[2048], 0x77);
    buffer.bytes[2048] = 0;

    /* the same with a heap block */
    asn1h_arena_init(&a, NULL, 0, 1 << 20);
    p = (uint8_t *)asn1h_arena_alloc(&a, 16);
    memset(p, 0x5A, 16);
    block_end = a.end;
    block_end[-1] = 0x77;
    asn1h_arena_reset(&a);
    CHECK(a.end == block_end);                  /* the block was kept */
    CHECK(all_zero(p, 16));
    CHECK_EQ(block_end[-1], 0x77);
    block_end[-1] = 0;
    asn1h_arena_reset(&a);                      /* nothing taken since: as it was */
    CHECK(a.end == block_end && a.cur == p);
    asn1h_arena_free(&a);
}

/* The heap limit bounds what the arena takes from malloc, in total. */
void test_arena_heap_limit(void)
{
    const size_t limit = 10000;
    asn1h_arena a;
    size_t total = 0;
    void *p;
    asn1h_arena_init(&a, NULL, 0, limit);
    while ((p = asn1h_arena_alloc(&a, 200)) != NULL) {
        CHECK(aligned(p));
        total += 200;
        CHECK(a.heap_used <= limit);
    }
    CHECK(total <= limit);
    CHECK(total >= limit / 2);
    CHECK(asn1h_arena_alloc(&a, limit + 1) == NULL);
    asn1h_arena_free(&a);
    CHECK_EQ(a.heap_used, 0);
    /* a limit smaller than the first block still allows what fits under it */
    asn1h_arena_init(&a, NULL, 0, 100);
    CHECK(asn1h_arena_alloc(&a, 64) != NULL);
    CHECK(a.heap_used <= 100);
    CHECK(asn1h_arena_alloc(&a, 64) == NULL);
    asn1h_arena_free(&a);
}

/* Without a caller's buffer, reset keeps its largest heap block, so that message after
 * message of the same size soon makes no heap allocation: from the second message on, or the
 * third when one message needs several blocks (docs/runtime.md). */
static void same_message_again(size_t message_size, int line)
{
    asn1h_arena a;
    unsigned long calls[4];
    size_t round, used;
    asn1h_arena_init(&a, NULL, 0, (size_t)1 << 30);
    for (round = 0; round < 4; round++) {
        unsigned long before = heap_calls;
        asn1h_arena_reset(&a);
        for (used = 0; used < message_size; used += 96)
            if (!asn1h_arena_alloc(&a, 96))
                check_fail(__FILE__, line, "allocation");
        calls[round] = heap_calls - before;
    }
    if (calls[0] == 0 || calls[1] > (message_size > ASN1H_ARENA_BLOCK) || calls[2] || calls[3]) {
        printf("  test_arena.c:%d: %lu-octet messages: heap calls per message %lu %lu %lu %lu\n",
               line, (unsigned long)message_size, calls[0], calls[1], calls[2], calls[3]);
        check_failures++;
    }
    asn1h_arena_free(&a);
}

void test_arena_reset_reuses_heap(void)
{
    same_message_again(1000, __LINE__);             /* one block */
    same_message_again(10000, __LINE__);            /* several blocks */
    same_message_again(200000, __LINE__);
}

/* Requests whose size cannot be met, or whose rounding or header would overflow, fail
 * cleanly instead of returning a block smaller than asked for. */
void test_arena_huge_requests(void)
{
    asn1h_arena a;
    asn1h_arena_init(&a, NULL, 0, SIZE_MAX);
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX) == NULL);
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX - 3) == NULL);
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX - 7) == NULL);
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX - 64) == NULL);
    CHECK(asn1h_arena_alloc(&a, 100) != NULL);      /* heap_used > 0 from here */
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX - 4000) == NULL);
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX / 2) == NULL);    /* malloc refuses it */
    CHECK(asn1h_arena_alloc(&a, 100) != NULL);
    asn1h_arena_free(&a);
    asn1h_arena_init(&a, NULL, 0, 1 << 20);
    CHECK(asn1h_arena_alloc(&a, 100) != NULL);
    CHECK(asn1h_arena_alloc(&a, SIZE_MAX - 100) == NULL);
    asn1h_arena_free(&a);
}

/* Decoding within the limits: a fixed buffer too small gives ASN1H_ERR_MEMORY, one large
 * enough decodes without a single heap call. */
void test_arena_decoding_limits(void)
{
    enum { N = 100 };
    uint8_t message[2 + 2 + 3 * N];
    static aligned_buffer buffer;
    asn1h_arena a;
    asn1h_error err;
    Ints ints;
    unsigned long before;
    size_t i;

    message[0] = 0x30;                      /* SEQUENCE OF INTEGER, 100 x 02 01 i */
    message[1] = 0x82;
    message[2] = 0x01;
    message[3] = 0x2C;                      /* 300 */
    for (i = 0; i < N; i++) {
        message[4 + 3 * i] = 0x02;
        message[5 + 3 * i] = 0x01;
        message[6 + 3 * i] = (uint8_t)i;
    }
    /* 100 elements of sizeof(asn1h_int) do not fit 1024 octets */
    asn1h_arena_init(&a, buffer.bytes, 1024, 0);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, message, sizeof message, &a, NULL, NULL, &err),
             ASN1H_ERR_MEMORY);
    CHECK_EQ(err.offset, 4);
    before = heap_calls;
    asn1h_arena_init(&a, buffer.bytes, sizeof buffer.bytes, 0);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, message, sizeof message, &a, NULL, NULL, &err),
             ASN1H_OK);
    CHECK(ints.count == N && ints.items[99].v == 99);
    CHECK((uint8_t *)ints.items >= buffer.bytes && (uint8_t *)ints.items < buffer.bytes + 4096);
    asn1h_arena_reset(&a);
    CHECK_EQ(heap_calls - before, 0);
    /* heap only, with a limit */
    asn1h_arena_init(&a, NULL, 0, 1000);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, message, sizeof message, &a, NULL, NULL, &err),
             ASN1H_ERR_MEMORY);
    asn1h_arena_free(&a);
    asn1h_arena_init(&a, NULL, 0, 100000);
    CHECK_EQ(asn1h_decode(&IntList_type, &ints, message, sizeof message, &a, NULL, NULL, &err),
             ASN1H_OK);
    asn1h_arena_free(&a);
    /* a constructed string is joined into the arena: 3 segments of 500 octets */
    {
        uint8_t *s = (uint8_t *)calloc(1, 4 + 3 * 504);
        asn1h_bytes joined;
        s[0] = 0x24;
        s[1] = 0x82;
        s[2] = (uint8_t)((3 * 504) >> 8);
        s[3] = (uint8_t)(3 * 504);
        for (i = 0; i < 3; i++) {
            s[4 + 504 * i] = 0x04;
            s[5 + 504 * i] = 0x82;
            s[6 + 504 * i] = 0x01;
            s[7 + 504 * i] = 0xF4;          /* 500 */
        }
        asn1h_arena_init(&a, buffer.bytes, 1024, 0);
        CHECK_EQ(asn1h_decode(&Octets_type, &joined, s, 4 + 3 * 504, &a, NULL, NULL, &err),
                 ASN1H_ERR_MEMORY);
        asn1h_arena_init(&a, buffer.bytes, sizeof buffer.bytes, 0);
        CHECK_EQ(asn1h_decode(&Octets_type, &joined, s, 4 + 3 * 504, &a, NULL, NULL, &err),
                 ASN1H_OK);
        CHECK_EQ(joined.len, 1500);
        free(s);
    }
}
