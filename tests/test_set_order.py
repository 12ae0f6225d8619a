"""A SET's components in DER's order (X.690 10.3): by tag, class first, then number.
The components come in a random order, as BER allows, with tags whose first identifier
octet does not sort as the tag does (a constructed [4] before a primitive [5], tags in the
long form, [127] before [128]), an untagged CHOICE that takes the place of its
alternative's tag, and unknown additions of every class kept and written back among the
known components.  The expected order is worked out here from the tags alone.
"""
from __future__ import annotations

import random

import cbuild
from typedtlv import identifier, length, read_header

from asn1c_hybrid.typegraph import Tag, TagClass

SPEC = cbuild.REPO / "tests" / "specs" / "SetOrder.asn"
PDU = "SetOrder.Mixed"
U, A, C, P = TagClass.UNIVERSAL, TagClass.APPLICATION, TagClass.CONTEXT, TagClass.PRIVATE


def tlv(cls: TagClass, number: int, contents: bytes, constructed: bool = False) -> bytes:
    return identifier(Tag(cls, number), constructed) + length(len(contents)) + contents


def integer(r: random.Random) -> bytes:
    """An INTEGER's contents, minimal."""
    value = r.randrange(-70000, 70000)
    return value.to_bytes(max(1, (value + (value < 0)).bit_length() // 8 + 1), "big",
                          signed=True)


def inner(r: random.Random) -> bytes:
    """The contents of a SEQUENCE { INTEGER }."""
    return tlv(U, 2, integer(r), False)


def components(r: random.Random) -> list[bytes]:
    """One value's components, each a TLV, in no particular order."""
    pick = r.choice([lambda: tlv(U, 1, b"\xff"),
                     lambda: tlv(C, 5, bytes(r.randrange(256) for _ in range(3))),
                     lambda: tlv(C, 200, inner(r), True),
                     lambda: tlv(A, 40, integer(r)),
                     lambda: tlv(P, 0, integer(r))])()
    out = [tlv(U, 2, integer(r)), pick, tlv(C, 4, inner(r), True)]
    optional = [tlv(C, 3, integer(r)), tlv(C, 31, integer(r)), tlv(C, 127, integer(r)),
                tlv(C, 128, inner(r), True), tlv(A, 2, integer(r)), tlv(P, 30, integer(r))]
    out += [c for c in optional if r.random() < 0.6]
    unknown = [(C, 0), (C, 6), (C, 30), (C, 129), (C, 16384), (A, 1), (A, 31), (P, 1),
               (P, 200), (U, 4)]
    for cls, number in r.sample(unknown, r.randrange(4)):
        if r.random() < 0.3:
            out.append(tlv(cls, number, inner(r), True))
        else:
            out.append(tlv(cls, number, bytes(r.randrange(256) for _ in range(r.randrange(3)))))
    r.shuffle(out)
    return out


def tag_of(component: bytes) -> tuple[int, int]:
    tag = read_header(component, 0)[0]
    return int(tag.cls), tag.number


def set_of(parts: list[bytes]) -> bytes:
    body = b"".join(parts)
    return b"\x31" + length(len(body)) + body


converter = cbuild.converter_fixture(SPEC)


def test_set_components_are_written_in_tag_order(converter):
    r = random.Random(10)
    given, expected = b"", b""
    for _ in range(400):
        parts = components(r)
        given += set_of(parts)
        expected += set_of(sorted(parts, key=tag_of))
    # DER's reader, which takes it back, checks the order by its own tag numbers
    converter.assert_der(PDU, given, expected)
