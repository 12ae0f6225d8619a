"""Hypothesis strategies for the values of any type of a type graph.

Values come in the convention of asn1tools (and of the type graph's value notation, see
asn1c_hybrid/typegraph.py): dicts for SEQUENCE and SET, (name, value) for CHOICE, lists,
(bytes, bits) for BIT STRING, datetime for the time types, bytes of a complete DER encoding
for open types.  They honour the constraints the graph records (value ranges, sizes,
permitted alphabets) and the repertoire of each character string type, so that every value
is valid for both the reference and the C code under test.  Recursive types are cut off at a
depth: past it, only what a value cannot do without (mandatory members, the shortest
alternatives, the smallest lists) is generated.
"""
from __future__ import annotations

import datetime
import math
import string
from typing import Optional

from hypothesis import strategies as st

from asn1c_hybrid.typegraph import Component, Constraints, Kind, Node, Range, TypeGraph

MAX_DEPTH = 4          # nesting of constructed values before only the minimum is made
MAX_ITEMS = 3          # elements of a SEQUENCE OF / SET OF
MAX_STRING = 12        # characters or octets, when the constraint allows more

PRINTABLE = string.ascii_letters + string.digits + " '()+,-./:=?"
ALPHABETS = {
    "NumericString": "0123456789 ",
    "PrintableString": PRINTABLE,
    "IA5String": "".join(map(chr, range(128))),
    "VisibleString": "".join(map(chr, range(32, 127))),
    "ISO646String": "".join(map(chr, range(32, 127))),
}
# 8-bit repertoires that both sides carry as Latin-1
LATIN1 = "".join(map(chr, [*range(32, 127), *range(0xA0, 0x100)]))
for _name in ("TeletexString", "T61String", "VideotexString", "GraphicString",
              "GeneralString", "ObjectDescriptor"):
    ALPHABETS[_name] = LATIN1

UTF8 = st.characters(exclude_categories=("Cs",))
BMP = st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",))
TIME_TYPES = ("UTCTime", "GeneralizedTime")

# Unconstrained INTEGERs: small values, the edges of every C storage, and beyond 64 bits.
EDGES = sorted({s * 2**k + d for k in (7, 8, 15, 16, 31, 32, 63, 64) for s in (1, -1)
                for d in (-1, 0, 1)})
BIG_INTEGERS = st.one_of(
    st.integers(-300, 300), st.sampled_from(EDGES),
    st.integers(-(2**70), 2**70),
    st.integers(1, 520).map(lambda bits: -(2**bits)),          # negative powers of two
    st.integers(-(2**520), 2**520))


def _intersect(a: Optional[Range], b: Optional[Range]) -> Optional[Range]:
    if a is None or b is None:
        return a or b
    lower = max((x for x in (a.lower, b.lower) if x is not None), default=None)
    upper = min((x for x in (a.upper, b.upper) if x is not None), default=None)
    return Range(lower, upper, a.extensible and b.extensible)


class ValueStrategies:
    def __init__(self, graph: TypeGraph, max_depth: int = MAX_DEPTH,
                 avoid: Optional[dict[str, set[str]]] = None):
        """avoid: node id -> components never generated (where the reference encodes
        them wrongly, or a decoder cannot tell them apart); a type with a mandatory one
        has no values."""
        self.graph = graph
        self.max_depth = max_depth
        self.avoid = avoid or {}
        self._cache: dict[tuple[str, int], st.SearchStrategy] = {}
        self._height = self._min_heights()

    # -- what constrains a node: its own constraints and those of what it aliases --------
    def constraints(self, node_id: str) -> Constraints:
        out = Constraints()
        node: Optional[Node] = self.graph[node_id]
        while node is not None:
            c = node.constraints
            out = Constraints(value=_intersect(out.value, c.value),
                              size=_intersect(out.size, c.size),
                              alphabet=out.alphabet or c.alphabet)
            node = self.graph[node.alias_of] if node.alias_of else None
        return out

    # -- recursion: how deep the smallest value of each node is --------------------------
    def _min_heights(self) -> dict[str, float]:
        height = {n.id: math.inf for n in self.graph}
        changed = True
        while changed:
            changed = False
            for node in self.graph:
                target = self.graph.target(node.id)
                kind = target.kind
                if kind in (Kind.SEQUENCE, Kind.SET):
                    h = 1 + max((height[c.type] for c in target.components
                                 if c.present_always), default=0)
                elif kind == Kind.CHOICE:
                    h = 1 + min((height[c.type] for c in target.components), default=math.inf)
                elif kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
                    size = self.constraints(node.id).size
                    needs = size is not None and (size.lower or 0) > 0
                    h = 1 + (height[target.element.type] if needs else 0)
                else:
                    h = 0
                if h < height[node.id]:
                    height[node.id] = h
                    changed = True
        return height

    def intervals(self, node_id: str, aspect: str) -> Optional[list[tuple]]:
        """The exact set a constraint allows ("values" or "sizes": intervals, None bounds
        unbounded) when it is more than one interval, as in SIZE (2 | 5); else None."""
        tree = self.graph[node_id].constraints.tree
        found = getattr(getattr(tree, "root", None), aspect, None)
        if found is None or len(found.ranges) < 2 or \
                not all(isinstance(b, int) or b is None for r in found.ranges for b in r):
            return None
        return list(found.ranges)

    def sizes(self, node_id: str, size: Optional[Range], cap: int) -> st.SearchStrategy:
        """The sizes (lengths, element counts) to draw values of node_id with."""
        exact = self.intervals(node_id, "sizes")
        if exact is None:
            low, high = self._size_bounds(size, cap)
            return st.integers(low, high)
        return st.one_of([st.integers(lo or 0, min(hi, (lo or 0) + cap) if hi is not None
                                      else (lo or 0) + cap) for lo, hi in exact])

    def of(self, node_id: str, depth: int = 0) -> st.SearchStrategy:
        depth = min(depth, self.max_depth)
        key = (node_id, depth)
        if key not in self._cache:
            self._cache[key] = st.deferred(lambda: self._build(node_id, depth))
        return self._cache[key]

    def _build(self, node_id: str, depth: int) -> st.SearchStrategy:
        target = self.graph.target(node_id)
        kind = target.kind
        c = self.constraints(node_id)
        minimal = depth >= self.max_depth
        if kind == Kind.BOOLEAN:
            return st.booleans()
        if kind == Kind.INTEGER:
            exact = self.intervals(node_id, "values")
            if exact is not None:
                return st.one_of([self._integers(Range(lo, hi)) for lo, hi in exact])
            return self._integers(c.value)
        if kind == Kind.ENUMERATED:
            return st.sampled_from(sorted(target.named_numbers))
        if kind == Kind.REAL:
            return st.floats(allow_nan=True, allow_infinity=True)
        if kind == Kind.NULL:
            return st.none()
        if kind == Kind.BIT_STRING:
            return self._bits(self.sizes(node_id, c.size, 40), c.size)
        if kind == Kind.BYTES:
            return self._bytes(target, c, self.sizes(node_id, c.size, MAX_STRING))
        if kind == Kind.OPEN:
            return open_values()
        if kind in (Kind.SEQUENCE, Kind.SET):
            required, optional = {}, {}
            groups: dict[int, list[Component]] = {}
            avoided = self.avoid.get(target.id, ())
            for comp in target.components:
                if comp.name in avoided:
                    if comp.present_always:
                        return st.nothing()
                    continue
                if comp.group is not None:
                    groups.setdefault(comp.group, []).append(comp)
                elif comp.present_always:
                    required[comp.name] = self.of(comp.type, depth + 1)
                elif not minimal:
                    optional[comp.name] = self.of(comp.type, depth + 1)
            plain = st.fixed_dictionaries(required, optional=optional)
            if minimal or not groups:
                return plain
            # an extension addition group ([[ ]]) is there whole or not at all: its
            # mandatory components with it
            parts = [st.one_of(st.just({}), st.fixed_dictionaries(
                {c.name: self.of(c.type, depth + 1) for c in members
                 if not (c.optional or c.has_default)},
                optional={c.name: self.of(c.type, depth + 1) for c in members
                          if c.optional or c.has_default}))
                for members in groups.values()]
            return st.tuples(plain, *parts).map(
                lambda dicts: {k: v for d in dicts for k, v in d.items()})
        if kind == Kind.CHOICE:
            alternatives = [a for a in target.components
                            if a.name not in self.avoid.get(target.id, ())]
            if not alternatives:
                return st.nothing()
            if minimal:
                lowest = min(self._height[a.type] for a in alternatives)
                alternatives = [a for a in alternatives if self._height[a.type] == lowest]
            return st.one_of([self.of(a.type, depth + 1).map(lambda v, n=a.name: (n, v))
                              for a in alternatives])
        if kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            element = self.of(target.element.type, depth + 1)
            if minimal:
                low = self._size_bounds(c.size, MAX_ITEMS)[0]
                exact = self.intervals(node_id, "sizes")
                low = exact[0][0] or 0 if exact else low
                return st.lists(element, min_size=low, max_size=low)
            return self.sizes(node_id, c.size, MAX_ITEMS).flatmap(
                lambda n: st.lists(element, min_size=n, max_size=n))
        raise ValueError(f"no strategy for {node_id} ({kind})")

    @staticmethod
    def _size_bounds(size: Optional[Range], cap: int) -> tuple[int, int]:
        low = size.lower if size is not None and size.lower is not None else 0
        high = size.upper if size is not None and size.upper is not None else low + cap
        return low, min(high, low + cap)

    @staticmethod
    def _integers(r: Optional[Range]) -> st.SearchStrategy:
        if r is None or (r.lower is None and r.upper is None):
            return BIG_INTEGERS
        lower, upper = r.lower, r.upper
        edges = [x for x in EDGES + [0, 1, -1, lower, upper] if x is not None
                 and (lower is None or x >= lower) and (upper is None or x <= upper)]
        return st.one_of(st.integers(lower, upper), st.sampled_from(sorted(set(edges))))

    def _bits(self, sizes: st.SearchStrategy, size: Optional[Range]) -> st.SearchStrategy:
        high = self._size_bounds(size, 40)[1]

        def make(nbits: int, data: bytes) -> tuple[bytes, int]:
            data = bytearray(data[:(nbits + 7) // 8])
            if nbits % 8:                          # unused bits are zero
                data[-1] &= 0xFF << (8 - nbits % 8) & 0xFF
            return bytes(data), nbits
        return st.builds(make, sizes, st.binary(min_size=high // 8 + 1,
                                                max_size=high // 8 + 1))

    def _bytes(self, node: Node, c: Constraints, sizes: st.SearchStrategy) -> st.SearchStrategy:
        builtin = node.builtin
        if builtin == "OBJECT IDENTIFIER":
            return object_identifiers()
        if builtin == "RELATIVE-OID":
            return st.lists(arcs(), min_size=1, max_size=5).map(
                lambda a: ".".join(map(str, a)))
        # Times whose BER form in asn1tools is also their DER form (the runtime keeps time
        # strings as they come): seconds present, UTC.  asn1tools reads UTCTime years
        # 69..99 as 19xx.
        if builtin == "UTCTime":
            return st.datetimes(datetime.datetime(1970, 1, 1),
                                datetime.datetime(2068, 12, 31, 23, 59, 59)).map(
                lambda d: d.replace(microsecond=0, second=max(d.second, 1)))
        if builtin == "GeneralizedTime":
            return st.datetimes(datetime.datetime(1900, 1, 1),
                                timezones=st.just(datetime.timezone.utc)).map(
                lambda d: d.replace(second=max(d.second, 1)))
        if builtin == "OCTET STRING":
            return sizes.flatmap(lambda n: st.binary(min_size=n, max_size=n))
        if c.alphabet:
            chars = st.sampled_from(sorted(c.alphabet))
        elif builtin in ALPHABETS:
            chars = st.sampled_from(ALPHABETS[builtin])
        elif builtin == "BMPString":
            chars = BMP
        else:                                      # UTF8String, UniversalString
            chars = UTF8
        return sizes.flatmap(lambda n: st.text(chars, min_size=n, max_size=n))


def arcs() -> st.SearchStrategy:
    return st.one_of(st.integers(0, 200), st.integers(0, 2**70))


def object_identifiers() -> st.SearchStrategy:
    # asn1tools decodes a first arc 2 with a second arc of 40 or more wrongly ("2.194" as
    # "6.34"): such OIDs are checked against pyasn1 in test_jer.py instead.
    first = st.tuples(st.integers(0, 2), st.integers(0, 39))
    return st.builds(lambda head, rest: ".".join(map(str, [*head, *rest])),
                     first, st.lists(arcs(), max_size=6))


def _der(tag: int, body: bytes) -> bytes:
    n = len(body)
    size = bytes([n]) if n < 0x80 else \
        bytes([0x80 | ((n.bit_length() + 7) // 8)]) + n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag]) + size + body


def open_values() -> st.SearchStrategy:
    """Complete DER encodings, as an open type or ANY carries them."""
    leaves = st.one_of(
        st.just(_der(0x05, b"")),
        st.integers(-(2**70), 2**70).map(
            lambda v: _der(0x02, v.to_bytes(max(1, (v + (v < 0)).bit_length() // 8 + 1),
                                            "big", signed=True))),
        st.binary(max_size=200).map(lambda b: _der(0x04, b)),
        st.text(PRINTABLE, max_size=20).map(lambda s: _der(0x13, s.encode())))
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3).map(
        lambda items: _der(0x30, b"".join(items))), max_leaves=5)


def components_of(graph: TypeGraph, node_id: str) -> list[Component]:
    return graph.target(node_id).members()
