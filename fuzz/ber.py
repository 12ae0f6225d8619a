"""A small BER reader and writer for making malformed and non-canonical variants of valid
messages in tests.  Independent of the runtime under test: it only knows X.690's framing
(identifier, length, contents), never the types.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, List, Optional


@dataclass
class Tlv:
    start: int                  # the identifier's first octet
    length_at: int              # the first length octet
    contents: int               # the first contents octet
    end: int                    # after the value (after the end-of-contents octets if any)
    constructed: bool
    indefinite: bool
    children: List["Tlv"] = field(default_factory=list)

    def identifier(self, data: bytes) -> bytes:
        return data[self.start:self.length_at]

    def contents_end(self) -> int:
        return self.end - 2 if self.indefinite else self.end

    def walk(self) -> Iterator["Tlv"]:
        yield self
        for child in self.children:
            yield from child.walk()


def parse(data: bytes, pos: int = 0) -> Tlv:
    """The TLV at `pos`, with its constructed contents parsed into children."""
    start = pos
    first = data[pos]
    constructed = bool(first & 0x20)
    pos += 1
    if first & 0x1F == 0x1F:
        while data[pos] & 0x80:
            pos += 1
        pos += 1
    length_at = pos
    n = data[pos]
    pos += 1
    indefinite = n == 0x80
    if indefinite:
        length = None
    elif n & 0x80:
        count = n & 0x7F
        length = int.from_bytes(data[pos:pos + count], "big")
        pos += count
    else:
        length = n
    tlv = Tlv(start, length_at, pos, 0, constructed, indefinite)
    if indefinite:
        p = pos
        while data[p:p + 2] != b"\x00\x00":
            child = parse(data, p)
            tlv.children.append(child)
            p = child.end
        tlv.end = p + 2
    else:
        tlv.end = pos + length
        if tlv.end > len(data):
            raise ValueError(f"value at {start} overruns the data")
        if constructed:
            p = pos
            while p < tlv.end:
                child = parse(data, p)
                tlv.children.append(child)
                p = child.end
    return tlv


def der_length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    octets = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


# ---- Rewriting a tree -------------------------------------------------------------------

# A rewrite gets (node, identifier, contents already rewritten) and returns the node's new
# encoding, or None to keep the DER framing.
Rewrite = Callable[[Tlv, bytes, bytes], Optional[bytes]]


def rewrite(data: bytes, tree: Tlv, change: Rewrite) -> bytes:
    """Re-serializes `tree` with DER lengths, letting `change` replace any node."""
    if tree.constructed:
        contents = b"".join(rewrite(data, child, change) for child in tree.children)
    else:
        contents = data[tree.contents:tree.contents_end()]
    identifier = tree.identifier(data)
    changed = change(tree, identifier, contents)
    if changed is not None:
        return changed
    return identifier + der_length(len(contents)) + contents


def at_node(target: Tlv, make: Callable[[bytes, bytes], bytes]) -> Rewrite:
    """A rewrite that changes only `target`, by make(identifier, contents)."""
    def change(node: Tlv, identifier: bytes, contents: bytes) -> Optional[bytes]:
        return make(identifier, contents) if node is target else None
    return change


# ---- Malformed variants -----------------------------------------------------------------

LENGTH_BOMBS = (
    b"\x84\x7F\xFF\xFF\xFF",                 # 2 GiB
    b"\x84\xFF\xFF\xFF\xFF",                 # 4 GiB
    b"\x88\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF",  # 2^63 - 1
    b"\x88\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF",  # 2^64 - 1
    b"\x89\x01\x00\x00\x00\x00\x00\x00\x00\x00",  # 2^64: nine octets
    b"\xFE" + b"\xFF" * 126,                 # 126 length octets
)


def truncations(data: bytes) -> List[bytes]:
    return [data[:n] for n in range(len(data))]


# Length octets worth trying when trying all 256 would be too many.
TELLING_LENGTHS = (0x00, 0x01, 0x02, 0x7E, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x88,
                   0x89, 0xFE, 0xFF)


def length_corruptions(data: bytes, every_value: bool = True) -> List[bytes]:
    """Every length octet of every value set to every other value (or, for long messages,
    to the telling ones and its neighbours)."""
    out = []
    for node in parse(data).walk():
        for pos in range(node.length_at, node.contents):
            values = range(256) if every_value else sorted(
                {*TELLING_LENGTHS, (data[pos] + 1) & 0xFF, (data[pos] - 1) & 0xFF,
                 (data[pos] + 2) & 0xFF, (data[pos] - 2) & 0xFF, data[pos] ^ 0x80})
            for value in values:
                if value != data[pos]:
                    out.append(data[:pos] + bytes([value]) + data[pos + 1:])
    return out


def length_bombs(data: bytes) -> List[bytes]:
    """Each value's length replaced by lengths claiming gigabytes and more."""
    out = []
    for node in parse(data).walk():
        if node.indefinite:
            continue
        for bomb in LENGTH_BOMBS:
            out.append(data[:node.length_at] + bomb + data[node.contents:])
    return out


def bad_tags(data: bytes) -> List[bytes]:
    """Each identifier's first octet changed: class, form, number, end-of-contents, and the
    long form (the next octets then read as the tag number)."""
    out = []
    for node in parse(data).walk():
        first = data[node.start]
        for value in {0x00, first ^ 0x20, first ^ 0x40, first ^ 0x80, (first + 1) & 0xFF,
                      (first & 0xE0) | 0x1F, 0xFF}:
            if value != first:
                out.append(data[:node.start] + bytes([value]) + data[node.start + 1:])
    return out


def nested_string(identifier: bytes, contents: bytes, levels: int, indefinite: bool) -> bytes:
    """A primitive value re-encoded as a constructed string nested `levels` deep: BER for
    the same value when its type is a string type (X.690 8.7.3, 8.23)."""
    inner = b"\x04" + der_length(len(contents)) + contents
    outer_id = bytes([identifier[0] | 0x20]) + identifier[1:]
    if indefinite:
        return (outer_id + b"\x80" + b"\x24\x80" * (levels - 1) + inner
                + b"\x00\x00" * levels)
    headers, size = [], len(inner)                  # from the inside out
    for _ in range(levels - 1):
        header = b"\x24" + der_length(size)
        headers.append(header)
        size += len(header)
    return outer_id + der_length(size) + b"".join(reversed(headers)) + inner


def deep_nestings(data: bytes, levels: int, limit: int = 8) -> List[bytes]:
    """The first `limit` primitive values, each nested `levels` deep, definite and
    indefinite."""
    tree = parse(data)
    out = []
    primitives = [n for n in tree.walk() if not n.constructed][:limit]
    for node in primitives:
        for indefinite in (False, True):
            out.append(rewrite(data, tree, at_node(
                node, lambda i, c: nested_string(i, c, levels, indefinite))))
    return out


def fnv64(data: bytes) -> int:
    """FNV-1a, 64 bits: how replay.c names a DER encoding."""
    h = 0xcbf29ce484222325
    for octet in data:
        h = ((h ^ octet) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


# ---- Non-canonical variants of DER (the same value, in BER that DER forbids) ----------

def _each_node(data: bytes, pick, make) -> List[bytes]:
    """For each node that `pick` selects: the message with that node re-encoded by
    make(identifier, contents) (which returns None where it does not apply)."""
    tree = parse(data)
    out = []
    for node in tree.walk():
        if not pick(node):
            continue
        declined = []

        def change(n, identifier, contents, node=node):
            if n is not node:
                return None
            made = make(identifier, contents)
            if made is None:
                declined.append(node)
            return made
        variant = rewrite(data, tree, change)
        if not declined and variant != data:
            out.append(variant)
    return out


def non_minimal_lengths(data: bytes) -> List[bytes]:
    """Each length in one octet more than it needs (X.690 10.1)."""
    def make(identifier, contents):
        n = len(contents)
        octets = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
        return identifier + bytes([0x80 | (len(octets) + 1)]) + b"\x00" + octets + contents
    return _each_node(data, lambda node: True, make)


def indefinite_lengths(data: bytes) -> List[bytes]:
    """Each constructed value with the indefinite length form (10.1)."""
    return _each_node(data, lambda node: node.constructed,
                      lambda identifier, contents: identifier + b"\x80" + contents + b"\x00\x00")


def long_form_tags(data: bytes) -> List[bytes]:
    """Each identifier with a number below 31 written in the long form (8.1.2.4)."""
    def make(identifier, contents):
        if len(identifier) != 1 or identifier[0] & 0x1F == 0:   # 0 has no long form
            return None
        return (bytes([identifier[0] | 0x1F, identifier[0] & 0x1F]) + der_length(len(contents))
                + contents)
    return _each_node(data, lambda node: True, make)


def constructed_strings(data: bytes) -> List[bytes]:
    """Each primitive value of two octets or more split into two segments, as an octet
    string would be and as a bit string would be (8.6.3, 8.7.3; DER: 10.2)."""
    out = []
    tree = parse(data)
    for node in tree.walk():
        contents = data[node.contents:node.contents_end()]
        if node.constructed or len(contents) < 2:
            continue
        outer = bytes([data[node.start] | 0x20]) + node.identifier(data)[1:]
        half = len(contents) // 2
        octets = (b"\x04" + der_length(half) + contents[:half]
                  + b"\x04" + der_length(len(contents) - half) + contents[half:])
        bits = (b"\x03" + der_length(half) + b"\x00" + contents[1:half + 1]
                + b"\x03" + der_length(len(contents) - half) + contents[:1] + contents[half + 1:])
        for segments in (octets, bits):
            out.append(rewrite(data, tree, at_node(
                node, lambda i, c, s=segments: outer + der_length(len(s)) + s)))
    return out


def non_minimal_integers(data: bytes) -> List[bytes]:
    """Each primitive value with a redundant sign octet in front (8.3.2)."""
    def make(identifier, contents):
        if not contents:
            return None
        sign = b"\xff" if contents[0] & 0x80 else b"\x00"
        return identifier + der_length(len(contents) + 1) + sign + contents
    return _each_node(data, lambda node: not node.constructed, make)


def loose_booleans(data: bytes) -> List[bytes]:
    """Each one-octet value FF written as another non-zero octet: TRUE in BER (8.2.2),
    FF only in DER (11.1)."""
    out = []
    for value in (b"\x01", b"\x7f"):
        out += _each_node(data, lambda node: not node.constructed,
                          lambda identifier, contents, v=value:
                          identifier + b"\x01" + v if contents == b"\xff" else None)
    return out


def unused_bits_set(data: bytes) -> List[bytes]:
    """Each primitive value that looks like a bit string with unused bits, with those bits
    set to one (BER ignores them; DER wants them zero, 11.2.1)."""
    def make(identifier, contents):
        if len(contents) < 2 or not 1 <= contents[0] <= 7:
            return None
        last = contents[-1] | ((1 << contents[0]) - 1)
        if last == contents[-1]:
            return None
        return identifier + der_length(len(contents)) + contents[:-1] + bytes([last])
    return _each_node(data, lambda node: not node.constructed, make)


def unsorted_sets(data: bytes) -> List[bytes]:
    """Each constructed value with two or more different components, its first two swapped
    (SET and SET OF: 10.3, 11.6; a SEQUENCE's value changes, or it no longer decodes)."""
    tree = parse(data)
    out = []
    for node in tree.walk():
        if not node.constructed or len(node.children) < 2:
            continue
        first, second = node.children[0], node.children[1]
        if data[first.start:first.end] == data[second.start:second.end]:
            continue

        def make(identifier, contents, node=node, first=first, second=second):
            a = rewrite(data, first, lambda *args: None)
            b = rewrite(data, second, lambda *args: None)
            rest = contents[len(a) + len(b):]
            swapped = b + a + rest
            return identifier + der_length(len(swapped)) + swapped
        out.append(rewrite(data, tree, at_node(node, make)))
    return out


def tag_key(identifier: bytes) -> tuple:
    """(class, number) of an identifier: the canonical order of tags (X.680 8.6)."""
    number = identifier[0] & 0x1F
    if number == 0x1F:
        number = 0
        for octet in identifier[1:]:
            number = number << 7 | (octet & 0x7F)
    return identifier[0] >> 6, number


def with_component(data: bytes, node: Tlv, component: bytes, first: bool = False) -> bytes:
    """The message with `component` added to the constructed `node`: first (a SEQUENCE's
    leading member), or among the others in tag order (a SET)."""
    tree = parse(data)
    target = next(n for n in tree.walk() if n.start == node.start)

    def make(identifier, contents):
        children = [rewrite(data, c, lambda *args: None) for c in target.children]
        added = parse(component)
        key = tag_key(component[:added.length_at])
        if first:
            children.insert(0, component)
        else:
            at = next((i for i, c in enumerate(children)
                       if tag_key(c[:parse(c).length_at]) > key), len(children))
            children.insert(at, component)
        body = b"".join(children)
        return identifier + der_length(len(body)) + body
    return rewrite(data, tree, at_node(target, make))


def without_component(data: bytes, node: Tlv, child: Tlv) -> bytes:
    """The message with `child` of `node` left out."""
    tree = parse(data)
    target = next(n for n in tree.walk() if n.start == node.start)

    def make(identifier, contents):
        body = b"".join(rewrite(data, c, lambda *args: None)
                        for c in target.children if c.start != child.start)
        return identifier + der_length(len(body)) + body
    return rewrite(data, tree, at_node(target, make))
