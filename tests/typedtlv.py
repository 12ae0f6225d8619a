"""BER encodings read against the type graph, for the differential tests.

A small TLV reader of the tests' own (it shares no code with the runtime or the emitter):
it splits an encoding into TLVs and, walking the type graph alongside, says which type
each TLV is the identifier of.  Three uses:

- `canonical_der`: the reference's DER with its known faults put right (asn1tools writes SET
  components in definition order and SET OF elements unsorted, X.690 10.3 and 11.6 want
  them in tag and octet order; it keeps the trailing 0 bits of named-bit BIT STRINGs,
  X.690 11.2.2 removes them);
- `ber_variant`: the same value in other valid BER (indefinite lengths, long-form lengths,
  strings cut into nested constructed segments, SET components shuffled, DEFAULT values
  written out, BOOLEAN TRUE as any non-zero octet), which must decode to the same value,
  with unknown extension additions (a newer version's components), which must be kept: it
  also gives the DER that the decoder must write back, additions included;
- `encode_default`: X.690 encodings of the DEFAULT values that the variants write out.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Optional

from asn1c_hybrid.typegraph import Component, Kind, Node, Tag, TagClass, TypeGraph

STRING_SEGMENT = Tag(TagClass.UNIVERSAL, 4)    # X.690 8.23.5: segments are OCTET STRINGs
BIT_SEGMENT = Tag(TagClass.UNIVERSAL, 3)
CONSTRUCTED_KINDS = (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF, Kind.SET_OF)


@dataclass
class Tlv:
    tag: Tag
    constructed: bool
    contents: bytes = b""                      # primitive
    children: list["Tlv"] = field(default_factory=list)   # constructed
    raw: Optional[bytes] = None                # untyped: kept as received
    node: Optional[Node] = None                # the type whose identifier this is
    wrapper: bool = False                      # an explicit tag around the value

    def encode(self) -> bytes:
        if self.raw is not None:
            return self.raw
        body = b"".join(c.encode() for c in self.children) if self.constructed else self.contents
        return identifier(self.tag, self.constructed) + length(len(body)) + body


def identifier(tag: Tag, constructed: bool) -> bytes:
    first = (int(tag.cls) << 6) | (0x20 if constructed else 0)
    if tag.number < 31:
        return bytes([first | tag.number])
    groups = []
    n = tag.number
    while True:
        groups.append(n & 0x7F)
        n >>= 7
        if not n:
            break
    groups.reverse()
    return bytes([first | 0x1F] + [g | 0x80 for g in groups[:-1]] + [groups[-1]])


def length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    octets = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


def read_header(data: bytes, pos: int) -> tuple[Tag, bool, Optional[int], int]:
    """(tag, constructed, length or None when indefinite, position of the contents)."""
    first = data[pos]
    pos += 1
    number = first & 0x1F
    if number == 0x1F:
        number = 0
        while True:
            octet = data[pos]
            pos += 1
            number = (number << 7) | (octet & 0x7F)
            if not octet & 0x80:
                break
    n = data[pos]
    pos += 1
    if n == 0x80:
        size = None
    elif n & 0x80:
        size = int.from_bytes(data[pos:pos + (n & 0x7F)], "big")
        pos += n & 0x7F
    else:
        size = n
    return Tag(TagClass(first >> 6), number), bool(first & 0x20), size, pos


def tlv_end(data: bytes, pos: int) -> int:
    _, constructed, size, p = read_header(data, pos)
    if size is not None:
        return p + size
    while data[p:p + 2] != b"\0\0":
        p = tlv_end(data, p)
    return p + 2


def split_values(data: bytes) -> list[bytes]:
    """Concatenated encodings, one by one."""
    pieces, pos = [], 0
    while pos < len(data):
        end = tlv_end(data, pos)
        pieces.append(data[pos:end])
        pos = end
    return pieces


def split(data: bytes, pos: int, end: Optional[int]) -> tuple[list[tuple[int, int]], int]:
    """The TLVs from pos up to end (None: up to an end-of-contents): their spans, and the
    position after them (after the end-of-contents octets)."""
    spans = []
    while (pos < end) if end is not None else data[pos:pos + 2] != b"\0\0":
        stop = tlv_end(data, pos)
        spans.append((pos, stop))
        pos = stop
    return spans, (pos if end is not None else pos + 2)


class Reader:
    """Parses encodings of the graph's types into typed Tlv trees."""

    def __init__(self, graph: TypeGraph):
        self.graph = graph

    def first_tags(self, comp: Component) -> Optional[set[Tag]]:
        """The tags a member's encoding can start with; None: any (an untagged open type)."""
        if comp.tags:
            return {comp.tags[0]}
        target = self.graph.target(comp.type)
        if target.kind == Kind.CHOICE:
            out: set[Tag] = set()
            for alt in target.components:
                tags = self.first_tags(alt)
                if tags is None:
                    return None
                out |= tags
            return out
        return None

    def accepts(self, comp: Component, tag: Tag) -> bool:
        tags = self.first_tags(comp)
        return tags is None or tag in tags

    def parse(self, node_id: str, data: bytes, tags: Optional[tuple] = None) -> Tlv:
        tags = tags if tags is not None else self.graph[node_id].tags
        tlv, end = self.value(node_id, tags, data, 0)
        assert end == len(data), f"{len(data) - end} bytes after the value"
        return tlv

    def raw(self, data: bytes, pos: int) -> tuple[Tlv, int]:
        tag, constructed, _, _ = read_header(data, pos)
        end = tlv_end(data, pos)
        return Tlv(tag, constructed, raw=data[pos:end]), end

    def value(self, node_id: str, tags: tuple, data: bytes, pos: int) -> tuple[Tlv, int]:
        """One value of node_id carrying `tags` (its effective tags at this place)."""
        target = self.graph.target(node_id)
        own = target.kind.has_own_tlv
        wrappers = tags[:-1] if own else tags
        if wrappers:
            tag, constructed, size, p = read_header(data, pos)
            assert tag == wrappers[0] and constructed, f"expected {wrappers[0]} at {pos}"
            inner, q = self.value(node_id, tags[1:], data, p)
            _, end = split(data, q, p + size if size is not None else None)
            return Tlv(tag, True, children=[inner], wrapper=True, node=target), end
        if not own:
            if target.kind == Kind.CHOICE:
                tag = read_header(data, pos)[0]
                for alt in target.components:
                    if self.accepts(alt, tag):
                        return self.value(alt.type, alt.tags, data, pos)
            return self.raw(data, pos)                 # open type, unknown alternative
        tag, constructed, size, p = read_header(data, pos)
        assert tag == tags[0], f"expected {tags[0]} at {pos}, found {tag}"
        spans_end = p + size if size is not None else None
        if not constructed:
            return Tlv(tag, False, contents=data[p:spans_end], node=target), spans_end
        spans, end = split(data, p, spans_end)
        tlv = Tlv(tag, True, node=target)
        if target.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            comp = target.element
            tlv.children = [self.value(comp.type, comp.tags, data, a)[0] for a, _ in spans]
        elif target.kind in (Kind.SEQUENCE, Kind.SET):
            next_index = 0
            for a, _ in spans:
                child_tag = read_header(data, a)[0]
                candidates = target.components[next_index:] if target.kind == Kind.SEQUENCE \
                    else target.components
                match = next((c for c in candidates if self.accepts(c, child_tag)), None)
                if match is None:
                    tlv.children.append(self.raw(data, a)[0])
                    continue
                if target.kind == Kind.SEQUENCE:
                    next_index = target.components.index(match) + 1
                child = self.value(match.type, match.tags, data, a)[0]
                child.component = match        # type: ignore[attr-defined]
                tlv.children.append(child)
        else:                                          # a constructed string (BER)
            tlv.children = [self.raw(data, a)[0] for a, _ in spans]
        return tlv, end


# ---- canonical DER -----------------------------------------------------------------------

def _strip_trailing_zero_bits(contents: bytes) -> bytes:
    if len(contents) <= 1:
        return contents
    data = bytearray(contents[1:])
    bits = len(data) * 8 - contents[0]
    while bits and not data[(bits - 1) // 8] & (0x80 >> ((bits - 1) % 8)):
        bits -= 1
    data = data[:(bits + 7) // 8]
    return bytes([len(data) * 8 - bits]) + bytes(data)


def canonical(graph: TypeGraph, tlv: Tlv) -> Tlv:
    """X.690 10.3, 11.5, 11.6, 11.2.2 and 8.5.7.5: SET components in tag order (an untagged
    CHOICE by the tag of its chosen alternative, 10.3's note), no DEFAULT member equal to its
    default, SET OF elements in octet order, named-bit BIT STRINGs without trailing 0 bits,
    REAL mantissas without leading 0 octets."""
    if tlv.raw is not None:
        return tlv
    node = tlv.node
    if not tlv.constructed:
        if node is not None and node.kind == Kind.BIT_STRING and node.named_bits \
                and not tlv.wrapper:
            tlv.contents = _strip_trailing_zero_bits(tlv.contents)
        if node is not None and node.kind == Kind.REAL and not tlv.wrapper:
            tlv.contents = _minimal_mantissa(tlv.contents)
        return tlv
    tlv.children = [canonical(graph, c) for c in tlv.children]
    if node is not None and not tlv.wrapper:
        if node.kind in (Kind.SEQUENCE, Kind.SET):
            tlv.children = [c for c in tlv.children if not _is_default(graph, c)]
        if node.kind == Kind.SET:
            tlv.children.sort(key=lambda c: (int(c.tag.cls), c.tag.number))
        elif node.kind == Kind.SET_OF:
            tlv.children.sort(key=lambda c: c.encode())
    return tlv


def _minimal_mantissa(contents: bytes) -> bytes:
    """A binary REAL whose mantissa N has no leading 0 octet (asn1tools writes one when
    the top bit of N is set, as if N were signed; X.690 8.5.7.5 makes N unsigned)."""
    if not contents or not contents[0] & 0x80:
        return contents
    head = 1 + ((contents[0] & 3) + 1 if contents[0] & 3 != 3 else 1 + contents[1])
    mantissa = contents[head:].lstrip(b"\0") or b"\0"
    return contents[:head] + mantissa


def _is_default(graph: TypeGraph, child: Tlv) -> bool:
    comp = getattr(child, "component", None)
    if comp is None or not comp.has_default:
        return False
    encoded = encode_default(graph, comp)
    return encoded is not None and child.encode() == encoded


def canonical_der(graph: TypeGraph, node_id: str, der: bytes) -> bytes:
    return canonical(graph, Reader(graph).parse(node_id, der)).encode()


# ---- DEFAULT values in X.690 ---------------------------------------------------------------

def _int_octets(value: int) -> bytes:
    return value.to_bytes(max(1, (value + (value < 0)).bit_length() // 8 + 1), "big",
                          signed=True)


def _oid_octets(dotted: str, relative: bool) -> bytes:
    arcs = [int(a) for a in dotted.split(".")]
    if not relative:
        arcs = [arcs[0] * 40 + arcs[1]] + arcs[2:]
    out = bytearray()
    for arc in arcs:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc:
            chunk.append(0x80 | (arc & 0x7F))
            arc >>= 7
        out += bytes(reversed(chunk))
    return bytes(out)


_STRING_CODECS = {"UTF8String": "utf-8", "BMPString": "utf-16-be",
                  "UniversalString": "utf-32-be"}


def default_contents(graph: TypeGraph, node: Node, value: Any) -> Optional[tuple[bool, bytes]]:
    """(constructed, contents) of a DEFAULT value as the spec writes it, or None for the
    kinds the variants leave alone."""
    kind = node.kind
    if kind == Kind.BOOLEAN:
        return False, b"\xff" if value else b"\x00"
    if kind in (Kind.INTEGER, Kind.ENUMERATED):
        if isinstance(value, str):
            value = node.named_numbers[value]
        return False, _int_octets(value)
    if kind == Kind.NULL:
        return False, b""
    if kind == Kind.BIT_STRING:
        if isinstance(value, (list, set, frozenset)):
            positions = [node.named_bits[n] for n in value]
            nbits = max(positions) + 1 if positions else 0
            data = bytearray((nbits + 7) // 8)
            for pos in positions:
                data[pos // 8] |= 0x80 >> (pos % 8)
            value = (bytes(data), nbits)
        data, nbits = value
        data = bytes(data[:(nbits + 7) // 8])
        contents = bytes([len(data) * 8 - nbits]) + data
        return False, _strip_trailing_zero_bits(contents) if node.named_bits else contents
    if kind == Kind.BYTES:
        if node.builtin in ("OBJECT IDENTIFIER", "RELATIVE-OID"):
            return False, _oid_octets(value, node.builtin == "RELATIVE-OID")
        if isinstance(value, (bytes, bytearray)):
            return False, bytes(value)
        return False, str(value).encode(_STRING_CODECS.get(node.builtin, "latin-1"))
    if kind in (Kind.SEQUENCE_OF, Kind.SET_OF) and not value:
        return True, b""
    if kind in (Kind.SEQUENCE, Kind.SET) and value == {} and \
            not any(c.present_always for c in node.components):
        return True, b""
    return None


def encode_default(graph: TypeGraph, comp: Component) -> Optional[bytes]:
    """The member's DEFAULT value, encoded with the member's tags."""
    node = graph.target(comp.type)
    got = default_contents(graph, node, comp.default)
    if got is None or not comp.tags:
        return None
    constructed, contents = got
    out = identifier(comp.tags[-1], constructed) + length(len(contents)) + contents
    for tag in reversed(comp.tags[:-1]):
        out = identifier(tag, True) + length(len(out)) + out
    return out


# ---- BER variants --------------------------------------------------------------------------

UNKNOWN_TAG = Tag(TagClass.PRIVATE, 1234)     # no spec used here has a PRIVATE tag this big
UNKNOWN_ADDITION = identifier(UNKNOWN_TAG, False) + b"\x03\x01\x02\x03"


class Variant:
    """Writes a typed Tlv tree back in randomly chosen BER forms."""

    def __init__(self, graph: TypeGraph, rng: random.Random):
        self.graph = graph
        self.rng = rng
        self.reader = Reader(graph)

    def header(self, tag: Tag, constructed: bool, size: Optional[int]) -> bytes:
        out = identifier(tag, constructed)
        if size is None:
            return out + b"\x80"
        if self.rng.random() < 0.2:            # a long form where the short one would do
            extra = self.rng.randint(1, 2)
            octets = size.to_bytes((size.bit_length() + 7) // 8 + extra, "big")
            return out + bytes([0x80 | len(octets)]) + octets
        return out + length(size)

    def wrap(self, tag: Tag, body: bytes, constructed: bool = True) -> bytes:
        if constructed and self.rng.random() < 0.5:
            return self.header(tag, True, None) + body + b"\0\0"
        return self.header(tag, constructed, len(body)) + body

    def segments(self, data: bytes, bit_unused: Optional[int], depth: int = 0) -> bytes:
        """The contents of a constructed string: `data` in segments, nested at times."""
        out = b""
        pieces = []
        pos = 0
        while pos < len(data) or not pieces:
            step = self.rng.randint(0, max(1, len(data) - pos))
            pieces.append(data[pos:pos + step])
            pos += step
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            if depth < 2 and len(piece) > 1 and self.rng.random() < 0.3:
                inner = self.segments(piece, bit_unused if last else 0 if bit_unused is not None
                                      else None, depth + 1)
                out += self.wrap(BIT_SEGMENT if bit_unused is not None else STRING_SEGMENT,
                                 inner)
                continue
            if bit_unused is not None:
                if not last and not piece:
                    continue
                body = bytes([bit_unused if last else 0]) + piece
                out += self.header(BIT_SEGMENT, False, len(body)) + body
            else:
                out += self.header(STRING_SEGMENT, False, len(piece)) + piece
        return out

    def encode(self, tlv: Tlv) -> bytes:
        if tlv.raw is not None:
            return tlv.raw
        node = tlv.node
        if not tlv.constructed:
            contents = tlv.contents
            if node is not None and not tlv.wrapper:
                if node.kind == Kind.BOOLEAN and contents != b"\0":
                    contents = bytes([self.rng.randint(1, 255)])
                splittable = (node.kind == Kind.BYTES and node.builtin not in
                              ("OBJECT IDENTIFIER", "RELATIVE-OID")) or \
                    (node.kind == Kind.BIT_STRING and contents)
                if splittable and self.rng.random() < 0.4:
                    if node.kind == Kind.BIT_STRING:
                        body = self.segments(contents[1:], contents[0])
                    else:
                        body = self.segments(contents, None)
                    return self.wrap(tlv.tag, body)
            return self.header(tlv.tag, False, len(contents)) + contents
        children = [self.encode(c) for c in tlv.children]
        if node is not None and not tlv.wrapper and node.kind in (Kind.SEQUENCE, Kind.SET):
            children = self.members(tlv, children)
        return self.wrap(tlv.tag, b"".join(children))

    def members(self, tlv: Tlv, children: list[bytes]) -> list[bytes]:
        node = tlv.node
        # DEFAULT values written out where DER left them out
        slots: list[tuple[int, bytes]] = []
        position = 0
        for comp in node.components:
            matching = [i for i, c in enumerate(tlv.children)
                        if getattr(c, "component", None) is comp]
            if matching:
                position = matching[0] + 1
            elif comp.has_default and self.rng.random() < 0.5:
                encoded = encode_default(self.graph, comp)
                if encoded is not None:
                    slots.append((position, encoded))
        for offset, (pos, encoded) in enumerate(slots):
            children.insert(pos + offset, encoded)
        if node.kind == Kind.SET:
            self.rng.shuffle(children)
        return children


def add_unknown_additions(graph: TypeGraph, tlv: Tlv, rng: random.Random) -> None:
    """Gives some extensible SEQUENCEs and SETs of the tree an extension addition that no
    version here knows (UNKNOWN_TAG), where a newer version would put it: in a SEQUENCE at
    its extension insertion point (X.680 3.8.29: after the additions, before the root's
    second part), in a SET anywhere."""
    if tlv.raw is not None or not tlv.constructed:
        return
    for child in tlv.children:
        add_unknown_additions(graph, child, rng)
    node = tlv.node
    if node is None or tlv.wrapper or node.kind not in (Kind.SEQUENCE, Kind.SET) \
            or not node.extensible or rng.random() >= 0.4:
        return
    reader = Reader(graph)
    if any(reader.first_tags(c) is None for c in node.components):
        return                                  # an untagged open type would take it
    unknown = Tlv(UNKNOWN_TAG, False, raw=UNKNOWN_ADDITION)
    if node.kind == Kind.SET:
        tlv.children.insert(rng.randint(0, len(tlv.children)), unknown)
        return
    point = len(node.components) if node.extension_point is None else node.extension_point
    before = node.components[:point]
    position = sum(1 for c in tlv.children
                   if any(getattr(c, "component", None) is comp for comp in before))
    tlv.children.insert(position, unknown)


def ber_variant(graph: TypeGraph, node_id: str, der: bytes, seed: int) -> tuple[bytes, bytes]:
    """(a BER variant of the DER value, the DER that decoding and re-encoding it gives)."""
    rng = random.Random(seed)
    tree = Reader(graph).parse(node_id, der)
    add_unknown_additions(graph, tree, rng)
    expected = canonical(graph, copy.deepcopy(tree)).encode()
    return Variant(graph, rng).encode(tree), expected
