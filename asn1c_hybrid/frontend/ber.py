"""DER encoding of values written in a specification, for the one place value notation
needs it: the value of an open type (``DEFAULT NULL:NULL``) is, by the convention of
typegraph.py, the complete encoding of the value (X.690, definite lengths, DER order)."""
from __future__ import annotations

import math

from .. import contents
from ..typegraph import Kind, Tag
from .scope import SemanticError

def encode(analyzer, node_id: str, value) -> bytes:
    return encode_with_tags(analyzer, node_id, value, analyzer.node(node_id).tags)


def encode_with_tags(analyzer, node_id: str, value, tags: tuple[Tag, ...]) -> bytes:
    """The encoding of `value` of type `node_id` when it carries `tags` (a member's
    effective tags may differ from its type's)."""
    target = analyzer.target_node(node_id)
    if target.kind in (Kind.CHOICE, Kind.OPEN):
        data = _choice_or_open(analyzer, target, value)
        wrappers = tags
    else:
        constructed = target.kind in (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF, Kind.SET_OF)
        data = _tlv(tags[-1], constructed, _contents(analyzer, target, value))
        wrappers = tags[:-1]
    for tag in reversed(wrappers):
        data = _tlv(tag, True, data)
    return data


def _choice_or_open(analyzer, node, value) -> bytes:
    if node.kind == Kind.OPEN:
        return value
    name, inner = value
    for component in node.components:
        if component.name == name:
            return _member(analyzer, component, inner)
    raise SemanticError(f"no alternative {name}")


def _member(analyzer, component, value) -> bytes:
    return encode_with_tags(analyzer, component.type, value, component.tags)


def _tag_order(encoding: bytes) -> tuple[int, int]:
    """(class, number) of an encoding's outermost tag, the order of X.680 8.6."""
    number = encoding[0] & 0x1F
    if number == 0x1F:
        number = 0
        for byte in encoding[1:]:
            number = (number << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
    return encoding[0] >> 6, number


def _tlv(tag: Tag, constructed: bool, contents: bytes) -> bytes:
    identifier = tag.identifier(constructed)
    length = len(contents)
    if length < 0x80:
        header = bytes([length])
    else:
        size = length.to_bytes((length.bit_length() + 7) // 8, "big")
        header = bytes([0x80 | len(size)]) + size
    return identifier + header + contents


def _real(value: float) -> bytes:
    if value == 0:
        return b"" if math.copysign(1, value) > 0 else b"\x43"
    if math.isinf(value):
        return b"\x40" if value > 0 else b"\x41"
    if math.isnan(value):
        return b"\x42"
    return b"\x03" + repr(value).upper().replace("E+", "E").encode()


def _contents(analyzer, node, value) -> bytes:
    kind = node.kind
    if kind == Kind.BOOLEAN:
        return b"\xff" if value else b"\x00"
    if kind == Kind.NULL:
        return b""
    if kind == Kind.INTEGER:
        return contents.integer(value)
    if kind == Kind.ENUMERATED:
        return contents.integer(node.named_numbers[value])
    if kind == Kind.REAL:
        return _real(value)
    if kind == Kind.BIT_STRING:
        data, bits = value
        return bytes([(-bits) % 8]) + data
    if kind == Kind.BYTES:
        if node.builtin == "OBJECT IDENTIFIER":
            return contents.object_identifier(value, relative=False)
        if node.builtin == "RELATIVE-OID":
            return contents.object_identifier(value, relative=True)
        if isinstance(value, bytes):
            return value
        return contents.character_string(node.builtin, value)
    if kind in (Kind.SEQUENCE, Kind.SET):
        parts = []
        for component in node.components:
            if component.name in value:
                if component.has_default and value[component.name] == component.default:
                    continue
                parts.append(_member(analyzer, component, value[component.name]))
        if kind == Kind.SET:
            parts.sort(key=_tag_order)            # X.690 10.3: canonical order of tags
        return b"".join(parts)
    if kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
        parts = [_member(analyzer, node.element, item) for item in value]
        if kind == Kind.SET_OF:
            parts.sort()
        return b"".join(parts)
    raise SemanticError(f"cannot encode a value of {node.builtin}")
