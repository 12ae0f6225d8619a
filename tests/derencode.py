"""A DER encoder of the tests' own, for values in the type graph's convention (see
asn1c_hybrid/typegraph.py), for specifications no reference library compiles (Wireshark's
module sets in `make coverage`).  It shares no code with the runtime or the emitter: it
writes the tags the graph records and X.690's contents octets, then lets typedtlv's
`canonical_der` put components, elements and bits in DER's order.
"""
from __future__ import annotations

import datetime
import math
from typing import Any

from asn1c_hybrid.typegraph import Kind, Node, Tag, TypeGraph
from typedtlv import canonical_der, default_contents, identifier, length

_TIME_FORMATS = {"UTCTime": "%y%m%d%H%M%S", "GeneralizedTime": "%Y%m%d%H%M%S"}


def _tlv(tag: Tag, constructed: bool, contents: bytes) -> bytes:
    return identifier(tag, constructed) + length(len(contents)) + contents


def _real(value: float) -> bytes:
    """X.690 8.5 and 11.3.1: binary, base 2, odd mantissa, no scaling factor."""
    if value == 0:
        return b"" if math.copysign(1, value) > 0 else b"\x43"
    if math.isinf(value):
        return b"\x40" if value > 0 else b"\x41"
    if math.isnan(value):
        return b"\x42"
    sign = 0x40 if value < 0 else 0
    numerator, denominator = abs(value).as_integer_ratio()
    exponent = -(denominator.bit_length() - 1)
    while numerator % 2 == 0:
        numerator //= 2
        exponent += 1
    exp = exponent.to_bytes(max(1, (exponent + (exponent < 0)).bit_length() // 8 + 1), "big",
                            signed=True)
    mantissa = numerator.to_bytes((numerator.bit_length() + 7) // 8, "big")
    if len(exp) <= 3:
        return bytes([0x80 | sign | (len(exp) - 1)]) + exp + mantissa
    return bytes([0x80 | sign | 3, len(exp)]) + exp + mantissa


def _time(node: Node, value: Any) -> bytes:
    if not isinstance(value, datetime.datetime):
        return str(value).encode("latin-1")
    text = value.strftime(_TIME_FORMATS[node.builtin])
    if node.builtin == "GeneralizedTime" and value.microsecond:
        text += "." + f"{value.microsecond:06d}".rstrip("0")
    return (text + "Z").encode("ascii")


def _contents(graph: TypeGraph, node: Node, value: Any) -> tuple[bool, bytes]:
    kind = node.kind
    if kind == Kind.REAL:
        return False, _real(value)
    if kind == Kind.BYTES and node.builtin in _TIME_FORMATS:
        return False, _time(node, value)
    if kind in (Kind.SEQUENCE, Kind.SET):
        # X.690 11.5: no DEFAULT member equal to its default (canonical_der catches the
        # kinds whose equality needs the encoding; this catches open types)
        return True, b"".join(_member(graph, c.tags, c.type, value[c.name])
                              for c in node.components if c.name in value
                              and not (c.has_default and value[c.name] == c.default))
    if kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
        element = node.element
        return True, b"".join(_member(graph, element.tags, element.type, item)
                              for item in value)
    got = default_contents(graph, node, value)
    if got is None:
        raise ValueError(f"no DER for {node.id} ({kind})")
    return got


def _member(graph: TypeGraph, tags: tuple[Tag, ...], type_id: str, value: Any) -> bytes:
    node = graph.target(type_id)
    if node.kind == Kind.CHOICE:
        name, chosen = value
        alternative = next(c for c in node.components if c.name == name)
        out, wrappers = _member(graph, alternative.tags, alternative.type, chosen), tags
    elif node.kind == Kind.OPEN:
        out, wrappers = bytes(value), tags
    else:
        constructed, contents = _contents(graph, node, value)
        out, wrappers = _tlv(tags[-1], constructed, contents), tags[:-1]
    for tag in reversed(wrappers):
        out = _tlv(tag, True, out)
    return out


def encode(graph: TypeGraph, type_id: str, value: Any) -> bytes:
    """The DER of `value` as a value of `type_id`."""
    return canonical_der(graph, type_id, _member(graph, graph[type_id].tags, type_id, value))
