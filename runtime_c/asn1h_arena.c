/* asn1h_arena.c: the only allocator decoding uses.
 *
 * A bump allocator over the caller's buffer, then over heap blocks when the caller allows
 * them.  Free space is kept zeroed, so that decoders may assume zeroed memory; a reset
 * zeroes only what the last message used.
 */
#include <stdlib.h>
#include <string.h>

#include "asn1h.h"
#include "asn1h_ber.h"

struct asn1h_block {
    asn1h_block *next;
    size_t size;                /* usable bytes after the header */
};

/* Block headers are padded so that the usable memory after them stays aligned. */
#define HEADER_SIZE ((sizeof(asn1h_block) + ASN1H_ALIGN - 1) & ~(size_t)(ASN1H_ALIGN - 1))

static uint8_t *block_data(asn1h_block *b)
{
    return (uint8_t *)b + HEADER_SIZE;
}

static uint8_t *align_up(uint8_t *p)
{
    uintptr_t u = (uintptr_t)p;
    return p + ((ASN1H_ALIGN - (u % ASN1H_ALIGN)) % ASN1H_ALIGN);
}

void asn1h_arena_init(asn1h_arena *a, void *buf, size_t size, size_t heap_limit)
{
    memset(a, 0, sizeof *a);
    a->heap_limit = heap_limit;
    if (buf && size) {
        uint8_t *start = align_up((uint8_t *)buf);
        if (start <= (uint8_t *)buf + size) {
            a->buf = start;
            a->buf_size = (size_t)((uint8_t *)buf + size - start);
            memset(a->buf, 0, a->buf_size);
            a->cur = a->buf;
            a->end = a->buf + a->buf_size;
        }
    }
}

void *asn1h_arena_alloc_slow(asn1h_arena *a, size_t size)
{
    asn1h_block *b;
    size_t want, room;

    if (size == 0)
        return a->cur ? a->cur : (void *)a;   /* any non-NULL pointer will do */
    if (size > SIZE_MAX - HEADER_SIZE - ASN1H_ALIGN)
        return NULL;                        /* rounding or the block header would overflow */
    size = (size + (ASN1H_ALIGN - 1)) & ~(size_t)(ASN1H_ALIGN - 1);
    if ((size_t)(a->end - a->cur) >= size) {
        void *r = a->cur;
        a->cur += size;
        return r;
    }
    room = a->heap_limit > a->heap_used ? a->heap_limit - a->heap_used : 0;
    if (size > room)
        return NULL;
    want = a->blocks ? a->blocks->size * 2 : ASN1H_ARENA_BLOCK;
    if (want < size)
        want = size;
    if (want > room)
        want = size;                        /* just what is needed */
    b = (asn1h_block *)calloc(1, HEADER_SIZE + want);
    if (!b)
        return NULL;
    b->size = want;
    b->next = a->blocks;
    a->blocks = b;
    a->heap_used += want;
    a->cur = block_data(b) + size;
    a->end = block_data(b) + want;
    return block_data(b);
}

/* Zeroes [start, cur) when cur lies in this region, else all of it (it was filled). */
static void zero_used(const asn1h_arena *a, uint8_t *start, size_t size)
{
    if (a->cur == start)
        return;                             /* nothing was allocated */
    if (a->cur > start && a->cur <= start + size)
        memset(start, 0, (size_t)(a->cur - start));
    else
        memset(start, 0, size);
}

/* A reset of an arena with several regions: keeps the one the next message takes. */
static ASN1H_NOINLINE void reset_blocks(asn1h_arena *a)
{
    asn1h_block *keep = NULL, *b, *next;
    uint8_t *start = NULL;                  /* the region the next message takes */
    size_t size = 0;

    /* Without a caller's buffer, keep the largest block: the next message then needs no
     * heap allocation.  With one, the buffer is what gets reused. */
    for (b = a->blocks; b; b = next) {
        next = b->next;
        if (!a->buf && (!keep || b->size > keep->size)) {
            free(keep);
            keep = b;
        } else {
            free(b);
        }
    }
    a->blocks = keep;
    a->heap_used = 0;
    if (keep) {
        keep->next = NULL;
        a->heap_used = size = keep->size;
        start = block_data(keep);
    } else if (a->buf) {
        start = a->buf;
        size = a->buf_size;
    }
    if (start)
        zero_used(a, start, size);
    a->cur = start;
    a->end = start ? start + size : NULL;
}

void asn1h_arena_reset(asn1h_arena *a)
{
    asn1h_block *b = a->blocks;
    uint8_t *start;

    if (b && (b->next || a->buf)) {         /* several regions */
        reset_blocks(a);
        return;
    }
    /* One region, the caller's buffer or one heap block, which the next message takes as
     * it is: zero what this one used (the usual case, decoding message after message) */
    start = b ? block_data(b) : a->buf;
    if (a->cur != start) {
        size_t n = (size_t)(a->cur - start);
        a->cur = start;
        memset(start, 0, n);                /* last, so that it is a jump */
    }
}

void asn1h_arena_free(asn1h_arena *a)
{
    asn1h_block *b = a->blocks;
    while (b) {
        asn1h_block *next = b->next;
        free(b);
        b = next;
    }
    a->blocks = NULL;
    a->heap_used = 0;
    if (a->buf) {
        memset(a->buf, 0, a->buf_size);
        a->cur = a->buf;
        a->end = a->buf + a->buf_size;
    } else {
        a->cur = a->end = NULL;
    }
}

void asn1h_arena_save(const asn1h_arena *a, asn1h_arena_mark *m)
{
    m->cur = a->cur;
    m->end = a->end;
    m->blocks = a->blocks;
}

void asn1h_arena_rollback(asn1h_arena *a, asn1h_arena_mark *m)
{
    asn1h_block *keep, *b, *next;

    if (a->blocks == m->blocks) {           /* all of the scope is in the mark's region */
        if (a->cur != m->cur)
            memset(m->cur, 0, (size_t)(a->cur - m->cur));
        a->cur = m->cur;
        return;
    }
    /* The scope took new blocks: keep the newest, the largest, for the next scope; free
     * the others.  The mark's region may have been used up to its end: zero its rest,
     * once, for the mark moves to the start of the kept block. */
    keep = a->blocks;
    for (b = keep->next; b != m->blocks; b = next) {
        next = b->next;
        a->heap_used -= b->size;
        free(b);
    }
    keep->next = m->blocks;
    memset(block_data(keep), 0, (size_t)(a->cur - block_data(keep)));
    if (m->cur != m->end)
        memset(m->cur, 0, (size_t)(m->end - m->cur));
    a->cur = block_data(keep);
    a->end = a->cur + keep->size;
    asn1h_arena_save(a, m);
}

size_t asn1h_arena_used(const asn1h_arena *a)
{
    size_t used = 0;
    const asn1h_block *b;
    for (b = a->blocks; b; b = b->next)
        used += b == a->blocks ? (size_t)(a->cur - block_data((asn1h_block *)b)) : b->size;
    if (a->buf)
        used += a->blocks ? a->buf_size : (size_t)(a->cur - a->buf);
    return used;
}
