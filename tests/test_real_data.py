"""Real data with the RFC 5280 modules, in every mode: the certificates of the Mozilla CA
bundle and the PKITS certificates and CRLs of cryptography-vectors decode and re-encode to
the identical bytes.  Their JER is checked against two independent parsers: asn1tools'
decoding of the same bytes (all of them), and OpenSSL's serial numbers and validity dates
(a sample; serial numbers are up to 20 octets, beyond 64 bits).
"""
from __future__ import annotations

import datetime
import json
import subprocess
import sys

import pytest

import specbuilds
from reference import reference_for, resolve_named_integers, unordered_sets

sys.path.insert(0, str(specbuilds.REPO))
from bench import corpora  # noqa: E402

CERTIFICATE = "PKIX1Explicit88.Certificate"
CRL = "PKIX1Explicit88.CertificateList"
MODES = list(specbuilds.MODES)


@pytest.fixture(scope="module")
def rfc5280():
    return specbuilds.builds("rfc5280")


@pytest.fixture(scope="module")
def reference():
    return reference_for(specbuilds.SPEC_SETS["rfc5280"].reference_texts())


def mozilla() -> list[tuple[str, bytes]]:
    return [(c.name, c.data) for c in corpora.mozilla_certificates()]


def pkits_certificates() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in corpora.pkits()[0]]


def pkits_crls() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in corpora.pkits()[1]]


CORPORA = {
    "mozilla": (mozilla, CERTIFICATE),
    "pkits-certificates": (pkits_certificates, CERTIFICATE),
    "pkits-crls": (pkits_crls, CRL),
}


def convert(build, type_id: str, messages: list[tuple[str, bytes]], output: str,
            *options: str) -> bytes:
    result = build.run("-p", type_id, "-o", output, *options, "-",
                       input=b"".join(data for _, data in messages), check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


@pytest.mark.parametrize("corpus", list(CORPORA))
@pytest.mark.parametrize("mode", MODES)
def test_reencoding_is_identical(rfc5280, corpus, mode):
    load, type_id = CORPORA[corpus]
    messages = load()
    assert len(messages) > 100
    out = convert(rfc5280.builds[mode], type_id, messages, "der")
    pieces = corpora.split_pdus(out)
    assert len(pieces) == len(messages)
    differing = [name for (name, data), piece in zip(messages, pieces) if data != piece]
    assert not differing, f"{len(differing)} re-encodings differ: {differing[:10]}"


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_jer_agrees_with_asn1tools(rfc5280, reference, corpus):
    load, type_id = CORPORA[corpus]
    messages = load()
    graph = rfc5280.graph
    lines = convert(rfc5280.builds["hybrid"], type_id, messages, "jer").decode().split("\n")
    assert len(lines) == len(messages) + 1 and lines[-1] == ""
    for (name, data), line in zip(messages, lines):
        theirs = resolve_named_integers(graph, type_id, reference.decode(type_id, data))
        expected = unordered_sets(graph, type_id, reference.to_jer(type_id, theirs))
        assert unordered_sets(graph, type_id, json.loads(line)) == expected, name


def openssl_fields(der: bytes) -> tuple[int, str, str]:
    out = subprocess.run(["openssl", "x509", "-inform", "der", "-noout", "-serial",
                          "-startdate", "-enddate"], input=der, capture_output=True,
                         check=True).stdout.decode()
    fields = dict(line.split("=", 1) for line in out.splitlines())
    return int(fields["serial"], 16), fields["notBefore"], fields["notAfter"]


def openssl_date(text: str) -> datetime.datetime:
    """OpenSSL's "Jan  1 00:00:00 2020 GMT"."""
    return datetime.datetime.strptime(" ".join(text.split()), "%b %d %H:%M:%S %Y GMT")


def asn1_time(choice: dict) -> datetime.datetime:
    (kind, text), = choice.items()
    if kind == "utcTime":                  # YYMMDDhhmmssZ, X.509's two-digit years
        year = int(text[:2])
        text = f"{1900 + year if year >= 50 else 2000 + year}{text[2:]}"
    return datetime.datetime.strptime(text[:14], "%Y%m%d%H%M%S")


def test_serial_numbers_and_dates_agree_with_openssl(rfc5280):
    messages = mozilla()[::5] + pkits_certificates()[::40]
    fields = [openssl_fields(data) for _, data in messages]
    # serial numbers beyond 64 bits take the exact path of INTEGER, not the native one
    assert sum(serial >= 2**64 for serial, _, _ in fields) > 10
    for mode in MODES:
        lines = convert(rfc5280.builds[mode], CERTIFICATE, messages, "jer").decode().split("\n")
        for (name, _), line, (serial, not_before, not_after) in zip(messages, lines, fields):
            tbs = json.loads(line)["tbsCertificate"]
            assert tbs["serialNumber"] == serial, (mode, name)
            assert asn1_time(tbs["validity"]["notBefore"]) == openssl_date(not_before), name
            assert asn1_time(tbs["validity"]["notAfter"]) == openssl_date(not_after), name
