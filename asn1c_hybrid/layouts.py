"""Message layouts (Blackwell): the identifier and length octets of every TLV of a BER PDU.

Two messages with the same layout differ only in their primitive contents octets, so a
decoder made for that layout needs no tag dispatch, no loops and no length parsing.  A
layout is written as text, one TLV after the other in the order of the encoding, each as
its identifier octets, a colon, its length octets, and a constructed TLV's contents in
parentheses:

    30:2b(02:01 04:06 a0:1e(02:04 02:01 02:01 30:10(30:0e(06:0a 05:00))))

The decoder's choices (CHOICE alternatives, present OPTIONAL members, element counts) are
not written out: for a given PDU type the tags say them, so equal layouts mean equal
choices.  End-of-contents octets of indefinite lengths are TLVs `00:00` like any other.

**Slot layouts** generalise exact ones: a TLV whose length varied among the training
messages of the same *shape* (the layout with every length left out) has `*` for its
length, so messages whose integers, strings and identifiers differ in length still share
one layout:

    30:*(02:01 04:06 a0:*(02:* 02:01 02:01 30:*(30:*(06:* 05:00))))

A layout's id is the first 12 hex digits of the SHA-256 of its text: stable across runs,
machines and traces.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence, Union

SLOT = "*"
FORMS = ("exact", "slot")
_LENGTH = re.compile(r":[0-9a-f*]+")
LIMIT = 256              # layouts kept per form and PDU type, the most frequent first
MIN_COUNT = 2            # a layout seen once is no template worth building


class LayoutError(ValueError):
    """Octets that are no BER TLV; raised with the offset of the fault."""


@dataclass(frozen=True)
class Tlv:
    identifier: bytes
    length: bytes                          # the length octets as encoded
    children: Optional[tuple["Tlv", ...]]  # None for a primitive TLV


def parse(pdu: bytes) -> Tlv:
    """The TLV tree of one BER PDU, which must fill `pdu` exactly."""
    tlv, end = _tlv(pdu, 0, len(pdu))
    if end != len(pdu):
        raise LayoutError(f"offset {end}: octets after the PDU")
    return tlv


def _tlv(data: bytes, pos: int, limit: int) -> tuple[Tlv, int]:
    start = pos

    def need(n: int) -> None:
        if pos + n > limit:
            raise LayoutError(f"offset {start}: the TLV runs past its enclosing length")

    need(2)
    constructed = bool(data[pos] & 0x20)
    if data[pos] & 0x1F == 0x1F:
        pos += 1
        while True:
            need(2)
            pos += 1
            if not data[pos - 1] & 0x80:
                break
    else:
        pos += 1
    identifier = data[start:pos]
    length_start = pos
    first = data[pos]
    pos += 1
    if first == 0x80:
        if not constructed:
            raise LayoutError(f"offset {start}: an indefinite length on a primitive TLV")
        children = []
        while True:
            child, pos = _tlv(data, pos, limit)
            children.append(child)
            if child.identifier == b"\x00" and child.length == b"\x00":
                break
        return Tlv(identifier, data[length_start:length_start + 1], tuple(children)), pos
    if first & 0x80:
        count = first & 0x7F
        need(count)
        size = int.from_bytes(data[pos:pos + count], "big")
        pos += count
    else:
        size = first
    length = data[length_start:pos]
    end = pos + size
    if end > limit:
        raise LayoutError(f"offset {start}: the length runs past the end of its TLV")
    if not constructed:
        return Tlv(identifier, length, None), end
    children = []
    while pos < end:
        child, pos = _tlv(data, pos, end)
        children.append(child)
    return Tlv(identifier, length, tuple(children)), end


def from_text(text: str) -> Tlv:
    """The TLV tree a layout's text describes (slot lengths are empty)."""
    tokens = re.findall(r"[0-9a-f]+:[0-9a-f*]+|[()]", text)
    pos = 0

    def one() -> Tlv:
        nonlocal pos
        identifier, length = tokens[pos].split(":")
        pos += 1
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            children = []
            while tokens[pos] != ")":
                children.append(one())
            pos += 1
            return Tlv(bytes.fromhex(identifier), b"" if length == SLOT else
                       bytes.fromhex(length), tuple(children))
        return Tlv(bytes.fromhex(identifier), b"" if length == SLOT else bytes.fromhex(length),
                   None)

    tlv = one()
    if pos != len(tokens):
        raise LayoutError(f"not a layout: {text!r}")
    return tlv


def size(length: bytes) -> int:
    """The number a definite length's octets give."""
    return length[0] if length[0] < 0x80 else int.from_bytes(length[1:], "big")


def flatten(tlv: Tlv) -> list[Tlv]:
    """The TLVs of a tree in the order of the encoding."""
    out = [tlv]
    for child in tlv.children or ():
        out += flatten(child)
    return out


def definite(n: int) -> bytes:
    """The length octets of n in DER's shortest definite form."""
    if n < 0x80:
        return bytes([n])
    octets = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


def instantiate(tlv: Tlv, leaf: Callable[[Tlv], int]) -> Tlv:
    """An exact layout of a slot layout's tree: each open primitive length `leaf(tlv)`,
    each open constructed one what its contents add up to (a fixed length is kept, even
    where its contents no longer add up to it)."""
    if tlv.children is None:
        return Tlv(tlv.identifier, tlv.length or definite(leaf(tlv)), None)
    children = tuple(instantiate(c, leaf) for c in tlv.children)
    inner = sum(len(c.identifier) + len(c.length) + size(c.length) for c in children)
    return Tlv(tlv.identifier, tlv.length or definite(inner), children)


def render(tlv: Tlv, lengths: Optional[Sequence[Optional[bytes]]] = None) -> str:
    """The layout's text; `lengths` (pre-order, None for a slot) replaces the TLVs' own."""
    order = iter(lengths) if lengths is not None else None

    def one(t: Tlv) -> str:
        length = next(order) if order is not None else t.length
        text = f"{t.identifier.hex()}:{SLOT if length is None else length.hex()}"
        if t.children is None:
            return text
        return text + "(" + " ".join(one(c) for c in t.children) + ")"

    return one(tlv)


def shape(tlv: Tlv) -> str:
    """The layout with every length a slot: what slot layouts are grouped by."""
    return render(tlv, [None] * len(flatten(tlv)))


def layout_id(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Layout:
    form: str            # "exact" or "slot"
    text: str
    count: int           # training messages with this layout

    @property
    def id(self) -> str:
        return layout_id(self.text)

    def matches(self, tlv: Tlv) -> bool:
        if self.form == "exact":
            return render(tlv) == self.text
        return _slot_pattern(self.text) == shape(tlv) and all(
            not want.length or want.length == got.length
            for want, got in zip(flatten(from_text(self.text)), flatten(tlv)))


def _slot_pattern(text: str) -> str:
    """A slot layout's text with every length a slot (its shape)."""
    return _LENGTH.sub(":" + SLOT, text)


def learn(pdus: Iterable[Union[bytes, Tlv]], form: str, limit: int = LIMIT,
          min_count: int = MIN_COUNT) -> list[Layout]:
    """The layouts of `pdus` in `form`, most frequent first (ties by text), at most
    `limit` of them, each seen at least `min_count` times."""
    trees = [p if isinstance(p, Tlv) else parse(p) for p in pdus]
    if form == "exact":
        counts = Counter(render(t) for t in trees)
    elif form == "slot":
        groups: dict[str, list[Tlv]] = {}
        for t in trees:
            groups.setdefault(shape(t), []).append(t)
        counts = Counter()
        for members in groups.values():
            columns = zip(*(flatten(t) for t in members))
            lengths = [c[0].length if all(x.length == c[0].length for x in c) else None
                       for c in columns]
            counts[render(members[0], lengths)] = len(members)
    else:
        raise ValueError(f"unknown layout form {form!r} (one of {', '.join(FORMS)})")
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [Layout(form, text, n) for text, n in ranked[:limit] if n >= min_count]


def coverage(layouts: Sequence[Layout], pdus: Iterable[Union[bytes, Tlv]]) -> float:
    """The share of `pdus` that one of `layouts` matches."""
    trees = [p if isinstance(p, Tlv) else parse(p) for p in pdus]
    if not trees:
        return 0.0
    exact = {l.text for l in layouts if l.form == "exact"}
    slots: dict[str, list[Layout]] = {}
    for l in layouts:
        if l.form == "slot":
            slots.setdefault(_slot_pattern(l.text), []).append(l)
    hits = 0
    for t in trees:
        if render(t) in exact or any(l.matches(t) for l in slots.get(shape(t), ())):
            hits += 1
    return hits / len(trees)
