"""C initializers for ASN.1 values (DEFAULT values), in the runtime's representation."""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

from ..contents import character_string, integer, object_identifier
from ..typegraph import Kind, Node, TypeGraph


def c_int(value: int) -> str:
    """An integer literal valid for any value of int64_t."""
    if value == -(2**63):
        return "INT64_MIN"
    if -(2**31) < value < 2**31:
        return str(value)
    return f"INT64_C({value})"


def c_bytes(data: bytes) -> str:
    """A C string literal holding exactly these octets: printable ASCII as it is, the rest
    (and the quote, backslash and question mark: trigraphs) as three-digit octal escapes,
    which no following character can extend."""
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in b'"\\?' else f"\\{b:03o}"
                         for b in data) + '"'


class ValueWriter:
    """Turns a value of a node into a C initializer.  Arrays and octets need objects of
    their own: they are collected in `definitions`, to be written before their use."""

    def __init__(self, graph: TypeGraph, ctype_of: Callable[[str], str],
                 field_of: Callable[[str], str], layout_of: Callable[[str], Any]):
        self.graph = graph
        self.ctype_of = ctype_of
        self.field_of = field_of
        self.layout_of = layout_of
        self.definitions: list[str] = []
        self._counter = 0

    def _symbol(self, stem: str, what: str) -> str:
        self._counter += 1
        return f"{stem}_{what}_{self._counter}"

    def _octets(self, data: bytes, stem: str) -> str:
        """An array of these octets; NULL for none, as the decoder leaves an empty value
        (so that an empty DEFAULT is all zero, and the decoder sets none).  Not a string
        literal: a compiler puts an object's literals in one section of merged strings,
        which the link keeps whole once it keeps any of them, so that one used value would
        keep every other's octets (gcc -Os: the 384 octets of X.509's object identifiers,
        beside a DEFAULT's one).  An array of its own goes when unused."""
        if not data:
            return "NULL"
        symbol = self._symbol(stem, "octets")
        self.definitions.append(f"static const uint8_t {symbol}[{len(data)}] = {{"
                                + ", ".join(f"0x{b:02x}" for b in data) + "};")
        return symbol

    def initializer(self, node_id: str, value: Any, stem: str) -> str:
        node = self.graph.target(node_id)
        kind = node.kind
        if kind == Kind.BOOLEAN:
            return "true" if value else "false"
        if kind in (Kind.INTEGER, Kind.ENUMERATED):
            value = self._number(node, value)
            storage = self.layout_of(node_id).storage
            if storage != "ASN1H_INT_BIG":
                suffix = "u" if storage.startswith("ASN1H_INT_U") else ""
                return f"{value}{suffix}" if abs(value) < 2**31 else \
                    (f"UINT64_C({value})" if suffix else f"INT64_C({value})")
            if -(2**63) <= value < 2**63:
                return f"{{INT64_C({value}), NULL, 0}}" if value != -(2**63) else \
                    "{INT64_MIN, NULL, 0}"
            octets = integer(value)
            return f"{{0, {self._octets(octets, stem)}, {len(octets)}}}"
        if kind == Kind.REAL:
            value = float(value)
            if math.isnan(value):
                return "NAN"
            if math.isinf(value):
                return "HUGE_VAL" if value > 0 else "-HUGE_VAL"
            return repr(value)
        if kind == Kind.NULL:
            return "0"
        if kind == Kind.BIT_STRING:
            data, nbits = self._bits(node, value)
            nbytes = (nbits + 7) // 8
            data = bytes(data[:nbytes])
            return f"{{{self._octets(data, stem)}, {nbytes}, {nbytes * 8 - nbits}}}"
        if kind == Kind.BYTES:
            data = self._bytes(node, value)
            return f"{{{self._octets(data, stem)}, {len(data)}}}"
        if kind == Kind.OPEN:
            data = bytes(value)
            return f"{{{self._octets(data, stem)}, {len(data)}, NULL, NULL}}"
        if kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            if not value:
                return "{NULL, 0}"
            element = node.element
            items = [self.initializer(element.type, item, stem) for item in value]
            symbol = self._symbol(stem, "items")
            self.definitions.append(
                f"static {self.ctype_of(element.type)} {symbol}[{len(items)}] = {{\n    "
                + ",\n    ".join(items) + "\n};")
            return f"{{{symbol}, {len(items)}}}"
        if kind in (Kind.SEQUENCE, Kind.SET):
            layout = self.layout_of(node.id)
            parts = []
            bits = [0] * layout.present_bytes
            for comp in node.components:
                if comp.name not in value:
                    continue
                member = layout.member(comp.name)
                parts.append(f".{member.field} = "
                             + self.initializer(comp.type, value[comp.name], stem))
                if member.bit is not None:
                    bits[member.bit // 8] |= 1 << (member.bit % 8)
            if layout.present_bytes:
                parts.append(".present_ = {" + ", ".join(str(b) for b in bits) + "}")
            return "{" + ", ".join(parts) + "}" if parts else "{0}"
        if kind == Kind.CHOICE:
            name, inner = value
            layout = self.layout_of(node.id)
            member = layout.member(name)
            index = layout.members.index(member) + 1
            return (f"{{{index}, {{.{member.field} = "
                    + self.initializer(member.node_id, inner, stem) + "}}")
        raise ValueError(f"no C initializer for a value of {node.id} ({kind.value})")

    def is_zero(self, node_id: str, value: Any) -> bool:
        """Whether the initializer of this value is all zero bits, as the decoder finds
        the memory it decodes into: then an absent DEFAULT needs no copying in."""
        node = self.graph.target(node_id)
        kind = node.kind
        if kind == Kind.BOOLEAN:
            return not value
        if kind in (Kind.INTEGER, Kind.ENUMERATED):
            return self._number(node, value) == 0
        if kind == Kind.REAL:               # -0.0 has its sign bit
            return float(value) == 0.0 and math.copysign(1.0, float(value)) > 0
        if kind == Kind.NULL:
            return True
        if kind == Kind.BIT_STRING:
            return self._bits(node, value)[1] == 0
        if kind == Kind.BYTES:
            return not self._bytes(node, value)
        if kind in (Kind.OPEN, Kind.SEQUENCE_OF, Kind.SET_OF):
            return not value
        if kind in (Kind.SEQUENCE, Kind.SET):
            layout = self.layout_of(node.id)
            return all(comp.name not in value
                       or (layout.member(comp.name).bit is None
                           and self.is_zero(comp.type, value[comp.name]))
                       for comp in node.components)
        return False                        # a CHOICE: its index is 1 or more

    @staticmethod
    def _number(node: Node, value: Any) -> int:
        """An INTEGER's or ENUMERATED's value, its named number or item resolved."""
        if not isinstance(value, str):
            return value
        if node.kind == Kind.ENUMERATED and value not in node.named_numbers:
            raise ValueError(f"{value!r} is not an item of {node.id}")
        return node.named_numbers[value]

    @staticmethod
    def _bytes(node: Node, value: Any) -> bytes:
        """The contents octets of a value of a string kind (OBJECT IDENTIFIER included)."""
        if node.builtin in ("OBJECT IDENTIFIER", "RELATIVE-OID"):
            return object_identifier(value, node.builtin == "RELATIVE-OID")
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        return character_string(node.builtin, str(value))

    def _bits(self, node: Node, value: Any) -> tuple[bytes, int]:
        """A BIT STRING value as (octets, number of bits): given so, or as named bits."""
        return self._named_bits(node, value) if self._names_bits(value) else value

    @staticmethod
    def _names_bits(value: Any) -> bool:
        """Whether a BIT STRING value is given as the names of its bits set, rather than
        as (octets, number of bits)."""
        return isinstance(value, (list, tuple, set)) and not (
            len(value) == 2 and isinstance(value[0], (bytes, bytearray)))

    def der_contents(self, node_id: str, value: Any) -> Optional[bytes]:
        """The DER contents octets of a value of a primitive type (what the runtime's
        contents encoder writes), for DEFAULT values: DER leaves out a member whose
        contents are these.  None for the kinds left to the runtime to encode."""
        node = self.graph.target(node_id)
        kind = node.kind
        if kind == Kind.BOOLEAN:
            return b"\xff" if value else b"\x00"
        if kind in (Kind.INTEGER, Kind.ENUMERATED):
            return integer(self._number(node, value))
        if kind == Kind.NULL:
            return b""
        if kind == Kind.BIT_STRING and node.named_bits and self._names_bits(value):
            data, nbits = self._named_bits(node, value)    # no trailing 0 bits: DER's form
            return bytes([(8 - nbits % 8) % 8]) + data if nbits else b"\x00"
        if kind == Kind.BYTES and node.builtin not in ("UTCTime", "GeneralizedTime"):
            return self._bytes(node, value)
        if kind in (Kind.SEQUENCE_OF, Kind.SET_OF) and not value:
            return b""
        return None

    @staticmethod
    def _named_bits(node: Node, names) -> tuple[bytes, int]:
        positions = [node.named_bits[n] for n in names]
        nbits = max(positions) + 1 if positions else 0
        data = bytearray((nbits + 7) // 8)
        for pos in positions:
            data[pos // 8] |= 0x80 >> (pos % 8)
        return bytes(data), nbits
