"""Values kept as received (here an ANY) are written back with DER framing: every
identifier and length in its shortest form, every indefinite length made definite, the
contents of primitive values copied as they came (X.690 10.1, 8.1.2.4).  Checked against
a reframer written here, on random BER: tag numbers of one to five octets, lengths in
long form with leading zeros, indefinite lengths, nesting.  And what comes out is DER
that --strict-der reads back to the same octets.
"""
from __future__ import annotations

import random

import cbuild
from typedtlv import identifier, length, read_header

from asn1c_hybrid.typegraph import Tag, TagClass

SPEC = cbuild.REPO / "tests" / "specs" / "AllKinds.asn"
PDU = "AllKinds.Open"                       # SEQUENCE { id OBJECT IDENTIFIER, value ANY, ... }
OID = bytes.fromhex("06032a0304")


def long_length(n: int, padding: int) -> bytes:
    """A length in the long form, with `padding` leading zero octets (BER allows both)."""
    octets = n.to_bytes(max(1, (n.bit_length() + 7) // 8) + padding, "big")
    return bytes([0x80 | len(octets)]) + octets


def random_ber(r: random.Random, depth: int) -> bytes:
    """One TLV in some BER form of its own choosing."""
    tag = Tag(TagClass(r.randrange(4)),
              r.choice([1, 4, 30, 31, 127, 128, 300, 16384, 2 ** 21, 2 ** 28 - 1]))
    if depth and r.random() < 0.5:
        inner = b"".join(random_ber(r, depth - 1) for _ in range(r.randrange(4)))
        if r.random() < 0.4:
            return identifier(tag, True) + b"\x80" + inner + b"\0\0"
        return identifier(tag, True) + long_length(len(inner), r.choice([0, 2])) + inner
    contents = bytes(r.randrange(256) for _ in range(r.choice([0, 1, 5, 127, 128, 300])))
    size = length(len(contents)) if r.random() < 0.5 else long_length(len(contents),
                                                                       r.choice([0, 3]))
    return identifier(tag, False) + size + contents


def der_framing(data: bytes, at: int = 0) -> tuple[bytes, int]:
    """The TLV at `at` with DER framing, and where it ends in `data`."""
    tag, constructed, size, at = read_header(data, at)
    if not constructed:
        return identifier(tag, False) + length(size) + data[at:at + size], at + size
    inner, end = b"", None if size is None else at + size
    while data[at:at + 2] != b"\0\0" if end is None else at < end:
        child, at = der_framing(data, at)
        inner += child
    return identifier(tag, True) + length(len(inner)) + inner, at + 2 if end is None else end


converter = cbuild.converter_fixture(SPEC)


def test_an_any_received_in_ber_is_written_with_der_framing(converter):
    r = random.Random(5)
    given, expected = b"", b""
    for _ in range(300):
        value = random_ber(r, 3)
        framed, end = der_framing(value)
        assert end == len(value)
        body = OID + value
        if r.random() < 0.5:
            given += b"\x30\x80" + body + b"\0\0"
        else:
            given += b"\x30" + long_length(len(body), r.choice([0, 1])) + body
        expected += b"\x30" + length(len(OID + framed)) + OID + framed
    converter.assert_der(PDU, given, expected)
