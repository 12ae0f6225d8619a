"""OpenSSL's X.509 (Debian's libssl-dev) as a peer for the certificates: d2i_X509 then
X509_free to decode, i2d_X509 to encode.

Linked statically with Debian's libcrypto.a so that the code size can be counted like the
others' (the members of libcrypto.a the link keeps: OpenSSL's ASN.1 templates and
everything d2i_X509 and i2d_X509 reach).  OpenSSL is a library, not a compiler: it runs
only on the certificate benchmarks.

What its numbers include: d2i_X509 also decodes the signature information and caches the
extensions it recognises (its x509_cb callback), and i2d_X509 of a certificate that was
decoded and not modified copies the cached encoding of the TBSCertificate instead of
encoding it again.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from .common import Build, NotApplicable, fresh_dir, link_driver

LIBCRYPTO = Path("/usr/lib/x86_64-linux-gnu/libcrypto.a")


def version() -> str:
    result = subprocess.run(["openssl", "version"], capture_output=True, text=True)
    return result.stdout.strip()


def build(build_dir: Path) -> Build:
    if not LIBCRYPTO.exists():
        raise NotApplicable("libcrypto.a not found (install libssl-dev)")
    build_dir.mkdir(parents=True, exist_ok=True)
    return link_driver(build_dir, "openssl", "adapter_openssl.c", [], [],
                       archives=[LIBCRYPTO], libraries=["pthread", "dl"])
