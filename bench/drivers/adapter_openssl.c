/* The adapter for OpenSSL's X.509: d2i_X509 / X509_free / i2d_X509. */
#include <stdlib.h>

#include <openssl/x509.h>

#include "adapter.h"

static X509 **kept;

int adapter_init(size_t nmessages)
{
    kept = calloc(nmessages ? nmessages : 1, sizeof *kept);
    return kept ? 0 : -1;
}

int adapter_decode_free(const uint8_t *msg, size_t len)
{
    const unsigned char *p = msg;
    X509 *x = d2i_X509(NULL, &p, (long)len);
    if (!x)
        return 1;
    X509_free(x);
    return 0;
}

int adapter_decode_keep(size_t slot, const uint8_t *msg, size_t len)
{
    const unsigned char *p = msg;
    kept[slot] = d2i_X509(NULL, &p, (long)len);
    return kept[slot] == NULL;
}

int adapter_encode(size_t slot, uint8_t *buf, size_t cap, const uint8_t **out,
                   size_t *out_len)
{
    unsigned char *p = buf;
    int n = i2d_X509(kept[slot], NULL);
    if (n <= 0 || (size_t)n > cap || i2d_X509(kept[slot], &p) != n)
        return 1;
    *out = buf;
    *out_len = (size_t)n;
    return 0;
}
