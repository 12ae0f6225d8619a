/* asn1h_stream.c: PDUs from a stream of fragments (asn1h_stream).
 *
 * The framer reads just enough of each PDU to know where it ends: the identifier and
 * length octets of a definite-length TLV, or, under an indefinite length, the headers of
 * its elements down to the end-of-contents octets that close it (definite-length elements
 * are stepped over by their length, without their contents having arrived).  A PDU that
 * lies whole in one fragment is handed over where it is; only a PDU split across
 * fragments is copied, into a buffer that grows up to the maximum PDU size.
 */
#include <stdlib.h>
#include <string.h>

#include "asn1h.h"

enum { COMPLETE = 1, MORE = 0 };            /* frame()'s results, or -(asn1h_code) */

/* The header at b[at..n): its length in *header and the contents' in *len (SIZE_MAX for
 * an indefinite length).  Returns MORE until it has arrived whole. */
static int read_header(const uint8_t *b, size_t n, size_t at, size_t *header, size_t *len)
{
    size_t i = at + 1, k, v = 0;
    if (i > n)
        return MORE;
    if ((b[at] & 0x1F) == 0x1F) {           /* a tag number in several octets */
        do {
            if (i >= n)
                return MORE;
            if (i - at > 5)                 /* beyond 32 bits: no tag of any spec */
                return -(int)ASN1H_ERR_TAG;
        } while (b[i++] & 0x80);
    }
    if (i >= n)
        return MORE;
    if (b[i] < 0x80) {
        v = b[i++];
    } else if (b[i] == 0x80) {
        if (!(b[at] & 0x20))                /* indefinite length on a primitive value */
            return -(int)ASN1H_ERR_FORM;
        v = SIZE_MAX;
        i++;
    } else {
        k = b[i++] & 0x7Fu;
        if (k == 0x7F || k > sizeof(size_t))
            return -(int)ASN1H_ERR_LENGTH;
        if (n - i < k)
            return MORE;
        while (k--) {
            if (v >> (8 * sizeof v - 8))
                return -(int)ASN1H_ERR_LENGTH;
            v = v << 8 | b[i++];
        }
        if (v == SIZE_MAX)
            return -(int)ASN1H_ERR_LENGTH;
    }
    *header = i - at;
    *len = v;
    return COMPLETE;
}

/* Whether b[0..n) holds the whole PDU that starts at b[0]: sets s->need when its length
 * is known.  s->scan and s->open carry the walk through indefinite lengths from one call
 * to the next, so that each octet is looked at once however the stream is cut. */
static int frame(asn1h_stream *s, const uint8_t *b, size_t n)
{
    size_t header, len;
    int r;

    if (s->need)
        return n >= s->need ? COMPLETE : MORE;
    if (s->framing == ASN1H_FRAME_LEN32) {
        if (n < 4)
            return MORE;
        len = (size_t)b[0] << 24 | (size_t)b[1] << 16 | (size_t)b[2] << 8 | b[3];
        s->need = 4 + len;
        if (s->need > s->max_pdu)
            return -(int)ASN1H_ERR_TOO_BIG;
        return n >= s->need ? COMPLETE : MORE;
    }
    for (;;) {
        if ((r = read_header(b, n, s->scan, &header, &len)) != COMPLETE)
            return r;
        if (s->open == 0) {                 /* the PDU's own header */
            if (b[0] == 0)                  /* end-of-contents octets where a PDU starts */
                return -(int)ASN1H_ERR_TAG;
            if (len != SIZE_MAX) {
                if (len > SIZE_MAX - header)
                    return -(int)ASN1H_ERR_LENGTH;
                s->need = header + len;     /* known even when too big: see skip */
                if (s->need > s->max_pdu)
                    return -(int)ASN1H_ERR_TOO_BIG;
                return n >= s->need ? COMPLETE : MORE;
            }
            s->open = 1;
            s->scan = header;
        } else if (b[s->scan] == 0) {       /* end-of-contents: closes one level */
            if (len != 0 || header != 2)
                return -(int)ASN1H_ERR_LENGTH;
            s->scan += 2;
            if (--s->open == 0) {
                s->need = s->scan;
                return COMPLETE;
            }
        } else if (len == SIZE_MAX) {
            s->open++;
            s->scan += header;
        } else {
            if (len > SIZE_MAX - header - s->scan)
                return -(int)ASN1H_ERR_TOO_BIG;
            s->scan += header + len;
        }
        if (s->scan > s->max_pdu)
            return -(int)ASN1H_ERR_TOO_BIG;
    }
}

void asn1h_stream_init(asn1h_stream *s, unsigned framing, size_t max_pdu)
{
    memset(s, 0, sizeof *s);
    s->framing = framing;
    s->max_pdu = max_pdu < SIZE_MAX / 4 ? max_pdu : SIZE_MAX / 4;  /* no sum overflows */
}

/* Ready for the next PDU, which starts `taken` octets further on. */
static void next_pdu(asn1h_stream *s, size_t taken)
{
    s->offset += taken;
    s->len = s->need = s->scan = s->open = 0;
}

static asn1h_code fail(asn1h_stream *s, asn1h_code code, size_t at, asn1h_error *err)
{
    s->failed = code;
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = code;
        err->offset = at;
    }
    return code;
}

/* Hands the PDU b[0..need) to fn: the PDU proper, without a LEN32 prefix. */
static int hand_over(const asn1h_stream *s, const uint8_t *b, asn1h_pdu_fn *fn, void *ctx)
{
    size_t prefix = s->framing == ASN1H_FRAME_LEN32 ? 4 : 0;
    return fn(ctx, b + prefix, s->need - prefix);
}

asn1h_code asn1h_stream_feed(asn1h_stream *s, const uint8_t *data, size_t len,
                             asn1h_pdu_fn *fn, void *ctx, size_t *used, asn1h_error *err)
{
    asn1h_code code = s->failed;
    size_t taken = 0;
    int r, stop = 0;

    while (code == ASN1H_OK && !stop && taken < len) {
        const uint8_t *p = data + taken, *pdu;
        size_t n = len - taken, add, size;
        if (s->skip) {                      /* dropping a PDU that was too big */
            add = n < s->skip ? n : s->skip;
            s->skip -= add;
            s->offset += add;
            taken += add;
            continue;
        }
        if (s->len == 0 && (r = frame(s, p, n)) != MORE) {  /* nothing buffered: in place */
            if (r < 0) {
                code = (asn1h_code)-r;
                break;
            }
            pdu = p;
            add = s->need;
        } else {
            /* Buffer the PDU's octets: what it still needs when its length is known;
             * else, when framing in place saw all of p, all of it; else a header's worth
             * past the scan, so that little is taken that the next PDU owns. */
            add = s->need ? s->need - s->len : s->len == 0 ? n : s->scan + 16 - s->len;
            if (add > n)
                add = n;
            if (s->len + add > s->cap) {
                size_t cap = s->cap ? s->cap : 256;
                uint8_t *grown;
                while (cap < s->len + add)
                    cap *= 2;
                if (!(grown = (uint8_t *)realloc(s->buf, cap))) {
                    code = ASN1H_ERR_MEMORY;
                    break;
                }
                s->buf = grown;
                s->cap = cap;
            }
            memcpy(s->buf + s->len, p, add);
            s->len += add;
            r = frame(s, s->buf, s->len);
            if (r != COMPLETE) {
                taken += add;               /* kept, even on an error: see skip */
                if (r < 0)
                    code = (asn1h_code)-r;
                continue;
            }
            add -= s->len - s->need;        /* octets past its end are the next PDU's */
            pdu = s->buf;
        }
        taken += add;
        size = s->need;
        stop = hand_over(s, pdu, fn, ctx) != 0;
        next_pdu(s, size);
    }
    if (used)
        *used = taken;
    if (code != ASN1H_OK)
        return fail(s, code, s->offset, err);
    if (stop) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->code = ASN1H_ERR_STOPPED;
            err->offset = s->offset;
        }
        return ASN1H_ERR_STOPPED;
    }
    return ASN1H_OK;
}

asn1h_code asn1h_stream_end(asn1h_stream *s, asn1h_error *err)
{
    if (s->failed)
        return fail(s, s->failed, s->offset, err);
    if (s->len || s->skip)
        return fail(s, ASN1H_ERR_TRUNCATED, s->offset + s->len, err);
    return ASN1H_OK;
}

asn1h_code asn1h_stream_skip(asn1h_stream *s)
{
    size_t skip;
    if (s->failed != ASN1H_ERR_TOO_BIG || !s->need)
        return s->failed;                   /* nothing to skip, or its end is not known */
    skip = s->need - s->len;
    next_pdu(s, s->len);
    s->skip = skip;
    s->failed = ASN1H_OK;
    return ASN1H_OK;
}

void asn1h_stream_reset(asn1h_stream *s)
{
    s->offset += s->len;
    s->len = s->need = s->scan = s->open = s->skip = 0;
    s->failed = ASN1H_OK;
}

void asn1h_stream_free(asn1h_stream *s)
{
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}
