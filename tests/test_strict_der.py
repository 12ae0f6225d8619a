"""Strict DER mode (ASN1H_DER, the converter's --strict-der) rejects every non-canonical
encoding.

From valid DER messages of each example PDU, variants are made that BER allows and DER
forbids (X.690 clause 10 and 11): lengths in more octets than needed, indefinite lengths,
constructed strings, INTEGERs with a redundant sign octet, BOOLEAN TRUE other than FF, SET
and SET OF components out of order, DEFAULT values present, unused bits set.  (Long-form
identifiers for small tag numbers are not BER either, X.690 8.1.2.2: refused in both modes.)  The variants are made blindly, without the types, so
some change the value or break the message instead; the ones that matter are those that BER
decodes back to the original value (its DER re-encoding is the original message): each of
those must be refused in strict mode with ASN1H_ERR_NOT_DER, in compiled, interpreted and
mixed modes.  Every kind must find such variants in the messages where the kind can occur.
"""
from __future__ import annotations

import sys
from typing import Callable, Dict, List

import pytest

import cbuild

sys.path.insert(0, str(cbuild.REPO / "fuzz"))
sys.path.insert(0, str(cbuild.REPO))
import ber  # noqa: E402
import replaying  # noqa: E402
import targets  # noqa: E402
from bench import corpora  # noqa: E402
from replaying import NOT_DER, TAG, TRAILING, canonical, replay  # noqa: E402
from test_malformed import x400_messages  # noqa: E402

MODES = tuple(targets.MODES)


def personnel_default_present() -> List[tuple]:
    """children DEFAULT {}: the record without children, and with an empty [3]."""
    m = corpora.personnel_der()
    tree = ber.parse(m)
    children = next(c for c in tree.children if m[c.start] == 0xA3)
    without = ber.without_component(m, tree, children)
    return [(without, ber.with_component(without, ber.parse(without), b"\xa3\x00"))]


def x509_default_present() -> List[tuple]:
    """Certificate: version [0] EXPLICIT DEFAULT v1 written out for a v1 certificate, and
    an extension's critical BOOLEAN DEFAULT FALSE written out."""
    m = corpora.certificate_nearest(1415, corpora.mozilla_certificates()).data
    tree = ber.parse(m)
    tbs = tree.children[0]
    version = tbs.children[0]
    assert m[version.start] == 0xA0
    v1 = ber.without_component(m, tbs, version)
    pairs = [(v1, ber.with_component(v1, ber.parse(v1).children[0], b"\xa0\x03\x02\x01\x00",
                                     first=True))]
    extensions = next(c for c in tbs.children if m[c.start] == 0xA3).children[0]
    for extension in extensions.children:
        if len(extension.children) == 2:            # extnID, extnValue: critical absent
            def add_critical(identifier, contents, extension=extension):
                first = extension.children[0]
                oid = m[first.start:first.end]
                body = oid + b"\x01\x01\x00" + contents[len(oid):]
                return identifier + ber.der_length(len(body)) + body
            pairs.append((m, ber.rewrite(m, tree, ber.at_node(extension, add_critical))))
            break
    return pairs


def x400_default_present() -> List[tuple]:
    """PerMessageTransferFields: priority DEFAULT normal ([APPLICATION 7] 0) written out
    in a message envelope that has none."""
    pairs = []
    for m in x400_messages():
        tree = ber.parse(m)
        if m[tree.start] != 0xA0:                   # message [0] Message
            continue
        envelope = tree.children[0]
        if any(m[c.start] == 0x47 for c in envelope.children):
            continue
        pairs.append((m, ber.with_component(m, envelope, b"\x47\x01\x00")))
    return pairs


TARGETS: Dict[str, Callable[[], List[bytes]]] = {
    "personnel": lambda: [corpora.personnel_der()],
    "blackwell": lambda: [corpora.blackwell_message()],
    "x400": x400_messages,
    "x509": lambda: [corpora.certificate_nearest(1415, corpora.mozilla_certificates()).data],
}
DEFAULT_PRESENT = {"personnel": personnel_default_present, "x400": x400_default_present,
                   "x509": x509_default_present}
KINDS = {
    "non-minimal length": ber.non_minimal_lengths,
    "indefinite length": ber.indefinite_lengths,
    "constructed string": ber.constructed_strings,
    "non-minimal integer": ber.non_minimal_integers,
    "boolean not FF": ber.loose_booleans,
    "unsorted set": ber.unsorted_sets,
    "unused bits set": ber.unused_bits_set,
}
# Which kinds each message set must show (where the types allow them).
EXPECTED = {
    "personnel": {"non-minimal length", "indefinite length",
                  "constructed string", "non-minimal integer", "unsorted set"},
    "blackwell": {"non-minimal length", "indefinite length",
                  "non-minimal integer", "boolean not FF"},
    "x400": set(KINDS) - {"boolean not FF"},
    "x509": {"non-minimal length", "indefinite length",
             "constructed string", "non-minimal integer", "boolean not FF"},
}


@pytest.fixture(scope="module", autouse=True)
def replay_programs():
    replaying.prepare(cbuild.session_dir() / "harness", list(TARGETS))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", list(TARGETS))
def test_canonical_messages_pass_strict_mode(target, mode):
    messages = TARGETS[target]()
    for message, r in zip(messages, replay(target, mode, messages, strict=True)):
        assert message == canonical(message)
        assert r.ok and r.der_is(message), r


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", list(TARGETS))
def test_non_canonical_variants_are_refused(target, mode):
    found = {kind: 0 for kind in KINDS}
    for message in TARGETS[target]():
        for kind, make in KINDS.items():
            variants = make(message)
            if not variants:
                continue
            loose = replay(target, mode, variants)
            strict = replay(target, mode, variants, strict=True)
            for variant, b, s in zip(variants, loose, strict):
                if not b.der_is(message):
                    continue                # another value, or not this type: not a case
                found[kind] += 1
                assert not s.ok and s.code == NOT_DER, (kind, variant.hex(), s)
    missing = {k for k in EXPECTED[target] if not found[k]}
    assert not missing, f"no same-value variant of: {sorted(missing)} ({found})"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", list(TARGETS))
def test_long_form_identifiers_of_small_tags_are_refused(target, mode):
    """X.690 8.1.2.2: a tag number from 0 to 30 takes one identifier octet, in BER as in
    DER.  (Compiled routines match one-octet identifiers; the interpreter once accepted the
    long form in BER, and the two paths disagreed.)  Such an identifier is no tag at all:
    where a member must be, the tag is wrong; where none must, it is data left over."""
    variants = [v for m in TARGETS[target]() for v in ber.long_form_tags(m)][:200]
    assert variants
    for strict in (False, True):
        for variant, r in zip(variants, replay(target, mode, variants, strict=strict)):
            assert not r.ok and r.code in (TAG, TRAILING), (variant.hex(), r)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", sorted(DEFAULT_PRESENT))
def test_default_values_present_are_refused(target, mode):
    """X.690 11.5: a component equal to its DEFAULT value is left out in DER."""
    pairs = DEFAULT_PRESENT[target]()
    assert pairs
    canonical_forms = [c for c, _ in pairs]
    with_defaults = [v for _, v in pairs]
    for c, r in zip(canonical_forms, replay(target, mode, canonical_forms, strict=True)):
        assert r.ok and r.der_is(c), r
    loose = replay(target, mode, with_defaults)
    strict = replay(target, mode, with_defaults, strict=True)
    for c, b, s in zip(canonical_forms, loose, strict):
        assert b.ok and b.der_is(c), b      # the same value as without it
        assert not s.ok and s.code == NOT_DER, s
