/* adapter.h: what each implementation gives the benchmark driver.
 *
 * One adapter per implementation (ours, asn1c, Heimdal, OpenSSL) wraps its API for one
 * PDU type, chosen when the adapter is compiled.  The driver (bench_main.c) measures only
 * adapter_decode_free and adapter_encode, through its bench_*_once functions. */
#ifndef BENCH_ADAPTER_H
#define BENCH_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

/* Called once before anything else, with the number of messages. Returns 0 on success. */
int adapter_init(size_t nmessages);

/* Decodes one message into the implementation's native structs, then frees them.
 * Returns 0 when the message decoded, else the implementation's error code (or 1). */
int adapter_decode_free(const uint8_t *msg, size_t len);

/* Decodes message `slot` and keeps the value for adapter_encode. Returns 0 on success. */
int adapter_decode_keep(size_t slot, const uint8_t *msg, size_t len);

/* DER-encodes the value kept in `slot` into buf[0..cap).  On success returns 0 and sets
 * *out and *out_len to the encoding (somewhere inside buf). */
int adapter_encode(size_t slot, uint8_t *buf, size_t cap, const uint8_t **out,
                   size_t *out_len);

#endif
