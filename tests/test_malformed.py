"""Malformed input, under AddressSanitizer and UndefinedBehaviorSanitizer: every
truncation of valid messages, every corruption of a length octet, length bombs, deep
nesting (definite and indefinite), bad tags, and the deliberately broken certificates and
CRLs of cryptography-vectors' x509/custom.

Each example PDU (personnel record, Blackwell's message, X.400 MTS-APDU, X.509 Certificate)
is built in compiled, interpreted and mixed modes with the harness of fuzz/harness.c: it
decodes with a fixed arena and no heap, checks that an error is well formed (a code, an
offset inside the input, a type path), and on success that the value round-trips through
DER.  A sanitizer report, a leak or a broken round trip makes the replay program fail.
Beyond that, each kind of damage has its expected outcome, and the three modes must agree.
"""
from __future__ import annotations

import base64
import re
import sys
from typing import Dict, List, Sequence

import pytest

import cbuild

sys.path.insert(0, str(cbuild.REPO / "fuzz"))
sys.path.insert(0, str(cbuild.REPO))
import ber  # noqa: E402
import targets  # noqa: E402
from bench import corpora  # noqa: E402
from replaying import (DEPTH, FORM, LENGTH, TAG, TRUNCATED, Result, canonical,  # noqa: E402
                       replay)
import replaying  # noqa: E402

CODES = range(1, 15)
MODES = tuple(targets.MODES)


def x400_messages() -> List[bytes]:
    """The smallest PDU of each kind (message, probe, report) of the long trace."""
    smallest: Dict[int, bytes] = {}
    for _, pdus in corpora.x400_traces():
        for pdu in pdus:
            if pdu[0] not in smallest or len(pdu) < len(smallest[pdu[0]]):
                smallest[pdu[0]] = pdu
    return [smallest[k] for k in sorted(smallest)]


MESSAGES = {
    "personnel": lambda: [corpora.personnel_der(), corpora.personnel_indefinite()],
    "blackwell": lambda: [corpora.blackwell_message()],
    "x400": x400_messages,
    "x509": lambda: [corpora.certificate_nearest(1415, corpora.mozilla_certificates()).data],
}
# Whether the message has values of string types (which BER may nest).
HAS_STRINGS = {"personnel": True, "blackwell": False, "x400": True, "x509": True}
# Messages short enough to try every value on every length octet.
EVERY_VALUE = {"personnel": True, "blackwell": True, "x400": False, "x509": False}


def check_well_formed(results: Sequence[Result], messages: Sequence[bytes], pdu: str) -> None:
    for r, m in zip(results, messages):
        if r.ok:
            assert 0 < r.consumed <= len(m)
        else:
            assert r.code in CODES and 0 <= r.offset <= len(m)
            assert r.message.startswith(pdu) and ": " in r.message


@pytest.fixture(scope="module", autouse=True)
def replay_programs():
    replaying.prepare(cbuild.session_dir() / "harness", list(MESSAGES) + ["x509-crl"])


@pytest.fixture(params=MODES)
def mode(request) -> str:
    return request.param


@pytest.fixture(params=list(MESSAGES))
def target(request) -> str:
    return request.param


def test_valid_messages_round_trip(target, mode):
    messages = MESSAGES[target]()
    for message, r in zip(messages, replay(target, mode, messages)):
        assert r.ok, r.message
        assert r.consumed == len(message)
        assert r.der_is(canonical(message))


def test_every_truncation_is_an_error(target, mode):
    """Cut at every byte offset, definite and indefinite lengths alike: the input ends
    inside the value, and that is what every path says (never a length error)."""
    for message in MESSAGES[target]():
        variants = ber.truncations(message)
        results = replay(target, mode, variants)
        check_well_formed(results, variants, targets.TARGETS[target].pdu)
        for n, r in enumerate(results):
            assert not r.ok and r.code == TRUNCATED, (n, r)
            assert r.offset <= n


def test_every_length_corruption(target, mode):
    """No crash, no read outside the input, a clear error or a value that round-trips."""
    for message in MESSAGES[target]():
        variants = ber.length_corruptions(message, EVERY_VALUE[target])
        results = replay(target, mode, variants)
        check_well_formed(results, variants, targets.TARGETS[target].pdu)
        assert sum(not r.ok for r in results) > len(results) // 2


def test_length_bombs(target, mode):
    """Lengths claiming gigabytes, 2^64 and beyond: refused as bad lengths, before any
    allocation (the arena has a fixed buffer and no heap)."""
    for message in MESSAGES[target]():
        variants = ber.length_bombs(canonical(message))
        results = replay(target, mode, variants)
        check_well_formed(results, variants, targets.TARGETS[target].pdu)
        assert not any(r.ok for r in results)
        # on the outermost value: a bad length, or length octets running past the input
        for r in results[:len(ber.LENGTH_BOMBS)]:
            assert r.code in (LENGTH, TRUNCATED) and r.offset == 1, r
        # inside, the longer bombs push octets past the end of enclosing values, whose
        # framing then fails first; most are still reported as the bad length they are
        assert sum(r.code == LENGTH for r in results) > len(results) // 2


def test_deep_nesting(target, mode):
    """Primitive values re-encoded as constructed strings nested 3, 100 and 100,000 deep,
    with definite and with indefinite lengths.  Where 3 levels decode (values of string
    types, which come back as the same DER, and open types, which keep what they receive),
    deeper ones exceed the nesting limit."""
    message = canonical(MESSAGES[target]()[0])
    shallow = replay(target, mode, ber.deep_nestings(message, 3, limit=40))
    deep = replay(target, mode, ber.deep_nestings(message, 100, limit=40))
    deepest = replay(target, mode, ber.deep_nestings(message, 100_000, limit=2))
    if HAS_STRINGS[target]:
        assert any(r.der_is(message) for r in shallow), "no string type among the first"
    for r in shallow:
        if not r.ok:
            assert r.code in (FORM, TAG, LENGTH), r
    for results in (deep, deepest):
        for s, r in zip(shallow, results):
            assert not r.ok
            if s.ok:
                assert r.code == DEPTH, r


def test_bad_tags(target, mode):
    for message in MESSAGES[target]():
        variants = ber.bad_tags(message)
        results = replay(target, mode, variants)
        check_well_formed(results, variants, targets.TARGETS[target].pdu)
        assert sum(not r.ok for r in results) > len(results) // 2


def test_modes_agree_on_malformed_input(target):
    """Compiled routines hand every unusual case to the interpreter: on the same damaged
    input the three modes accept the same messages, with the same DER.  (Their error codes
    agree too, except where one input is wrong twice over: a compiled SET checks for a
    duplicate component before it reads that component's bad length.)"""
    messages = MESSAGES[target]()
    variants: List[bytes] = []
    for message in messages:
        variants += ber.truncations(message)[::7]
        variants += ber.length_corruptions(message, False)
        variants += ber.bad_tags(message)
    outcomes = {}
    for m in MODES:
        outcomes[m] = [(r.ok, r.der_len, r.der_hash) for r in replay(target, m, variants)]
    for m in MODES[1:]:
        differing = [(i, outcomes[MODES[0]][i], outcomes[m][i])
                     for i in range(len(variants)) if outcomes[m][i] != outcomes[MODES[0]][i]]
        assert not differing, f"{MODES[0]} and {m} differ on {len(differing)} inputs: " \
                              f"{differing[:5]}"


# ---- cryptography-vectors' x509/custom ---------------------------------------------------

def pem_blocks(text: str) -> List[tuple]:
    return [(label, base64.b64decode("".join(body.split())))
            for label, body in re.findall(r"-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \1-----",
                                          text, re.S)]


def x509_custom_files() -> Dict[str, List[bytes]]:
    """Certificates and CRLs of x509/custom (PEM and DER), by the PDU they claim to be."""
    root = corpora.cryptography_vectors_custom()
    found: Dict[str, List[bytes]] = {"x509": [], "x509-crl": []}
    for path in sorted(root.rglob("*")):
        if path.suffix == ".pem":
            for label, data in pem_blocks(path.read_text(errors="replace")):
                if label == "CERTIFICATE":
                    found["x509"].append(data)
                elif label == "X509 CRL":
                    found["x509-crl"].append(data)
        elif path.suffix in (".der", ".crt", ".crl"):
            found["x509-crl" if "crl" in path.name else "x509"].append(path.read_bytes())
    return found


@pytest.fixture(scope="module")
def custom_files() -> Dict[str, List[bytes]]:
    return x509_custom_files()


@pytest.mark.parametrize("pdu", ["x509", "x509-crl"])
def test_x509_custom_files(pdu, mode, custom_files):
    """Each file decodes and round-trips, or gives a clear error; every mode agrees."""
    files = custom_files[pdu]
    assert len(files) > 20
    results = replay(pdu, mode, files)
    check_well_formed(results, files, targets.TARGETS[pdu].pdu)
    assert sum(r.ok for r in results) > len(files) // 2
    # the files are mostly well-formed DER whose oddities lie in values, not framing:
    # what decodes must come back as the same octets
    for data, r in zip(files, results):
        if r.ok and r.consumed == len(data):
            if canonical(data) == data:
                assert r.der_is(data)
