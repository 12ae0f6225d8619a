"""asn1tools as the reference implementation, with its known faults put right.

- DER: asn1tools writes SET components in definition order, leaves SET OF elements
  unsorted, keeps the trailing 0 bits of named-bit BIT STRINGs, writes a DEFAULT {} member
  that equals its default, and gives a REAL mantissa a leading 0 octet when its top bit is
  set; `typedtlv.canonical_der` puts its output in X.690's canonical form.
- Values: it decodes an OBJECT IDENTIFIER whose first arc is 2 and second 40 or more wrongly
  ("2.194" as "6.34"), so the values generated here keep second arcs below 40 (test_jer.py
  checks large ones against pyasn1).
- JER (X.697): asn1tools has no JER form for ANY and open types (it raises
  NotImplementedError); X.697 gives none either for a value whose type is unknown, and the
  runtime writes its encoding in hex as for an OCTET STRING, which the patched encoder does
  too.  It writes time values from its `datetime` through its own formatting; X.697 writes
  the time string, which for a DER value is the form its DER encoder makes.  It writes
  REAL minus zero as the number -0.0, where X.697 writes the string "-0".  It asks for the
  mandatory members of an extension addition group even when the whole group is absent; the
  values given to it here come from its own DER decoder, which leaves out no other
  mandatory member, so absent members are simply left out.
"""
from __future__ import annotations

import contextlib
import functools
import json
import math
from pathlib import Path
from typing import Any, Callable, Sequence

import asn1tools
from asn1tools.codecs import jer as asn1tools_jer
from asn1tools.codecs import (restricted_generalized_time_from_datetime,
                              restricted_utc_time_from_datetime)


@contextlib.contextmanager
def _jer_as_x697():
    patches = {
        asn1tools_jer.Any: lambda self, data: bytes(data).hex().upper(),
        asn1tools_jer.UTCTime: lambda self, data: restricted_utc_time_from_datetime(data),
        asn1tools_jer.GeneralizedTime:
            lambda self, data: restricted_generalized_time_from_datetime(data),
    }
    def members_encode(self, data):
        out = {}
        for member in self.members:
            if member.name in data:
                out[member.name] = member.encode(data[member.name])
        return out
    patches[asn1tools_jer.MembersType] = members_encode
    real_encode = asn1tools_jer.Real.encode
    patches[asn1tools_jer.Real] = lambda self, data: \
        "-0" if data == 0 and math.copysign(1, data) < 0 else real_encode(self, data)
    saved = {cls: cls.__dict__["encode"] for cls in patches}
    try:
        for cls, encode in patches.items():
            cls.encode = encode
        yield
    finally:
        for cls, encode in saved.items():
            cls.encode = encode


class Reference:
    """asn1tools compiled for one spec set, in DER, BER (when it can) and JER."""

    def __init__(self, texts: Sequence[str]):
        self.der = asn1tools.compile_string("\n".join(texts), "der")
        self.jer = asn1tools.compile_string("\n".join(texts), "jer")
        try:
            self.ber = asn1tools.compile_string("\n".join(texts), "ber")
        except Exception:              # noqa: BLE001 - X.400: untagged CHOICE in a SET
            self.ber = None

    def knows(self, node_id: str) -> bool:
        module, name = node_id.split(".", 1)
        return name in self.der.modules.get(module, {})

    def _type(self, spec, node_id: str):
        module, name = node_id.split(".", 1)
        return spec.modules[module][name]

    def encode_der(self, node_id: str, value: Any) -> bytes:
        return bytes(self._type(self.der, node_id).encode(value))

    def encode_ber(self, node_id: str, value: Any) -> bytes | None:
        if self.ber is None:
            return None
        return bytes(self._type(self.ber, node_id).encode(value))

    def decode(self, node_id: str, data: bytes) -> Any:
        return self._type(self.der, node_id).decode(data)

    def to_jer(self, node_id: str, value: Any) -> Any:
        """The value as X.697 JSON (parsed), by asn1tools' JER encoder."""
        with _jer_as_x697():
            return json.loads(self._type(self.jer, node_id).encode(value))


@functools.lru_cache(maxsize=None)
def reference_for(texts: tuple[str, ...]) -> Reference:
    return Reference(texts)


def same(a: Any, b: Any) -> bool:
    """Equality of values in the asn1tools convention, NaN equal to itself and minus zero
    apart from zero (DER tells them apart)."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray)):
        return bytes(a) == bytes(b)
    return type(a) is type(b) and a == b if not isinstance(a, (int, float)) else a == b


def read_texts(paths: Sequence[Path], edit: Callable[[Path, str], str] | None = None
               ) -> tuple[str, ...]:
    return tuple((edit(p, p.read_text()) if edit else p.read_text()) for p in paths)


def resolve_named_integers(graph, node_id: str, value: Any) -> Any:
    """asn1tools fills in an absent `INTEGER {v1(0)} DEFAULT v1` as the identifier "v1"
    (its decoder does not resolve named numbers in DEFAULT values), and its JER then
    writes a string; the value is the number."""
    from asn1c_hybrid.typegraph import Kind
    node = graph.target(node_id)
    if node.kind == Kind.INTEGER and isinstance(value, str):
        return node.named_numbers[value]
    if node.kind in (Kind.SEQUENCE, Kind.SET) and isinstance(value, dict):
        types = {c.name: c.type for c in node.components}
        return {k: resolve_named_integers(graph, types[k], v) if k in types else v
                for k, v in value.items()}
    if node.kind == Kind.CHOICE and isinstance(value, tuple):
        types = {c.name: c.type for c in node.components}
        name, inner = value
        return (name, resolve_named_integers(graph, types[name], inner)
                if name in types else inner)
    if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF) and isinstance(value, list):
        return [resolve_named_integers(graph, node.element.type, v) for v in value]
    return value


def unordered_sets(graph, node_id: str, jer: Any) -> Any:
    """A JER value with the elements of every SET OF in one order: a SET OF is unordered,
    and a decoder may keep the order of the encoding it read."""
    from asn1c_hybrid.typegraph import Kind
    node = graph.target(node_id)
    if node.kind in (Kind.SEQUENCE, Kind.SET) and isinstance(jer, dict):
        types = {c.name: c.type for c in node.components}
        return {k: unordered_sets(graph, types[k], v) if k in types else v
                for k, v in jer.items()}
    if node.kind == Kind.CHOICE and isinstance(jer, dict):
        types = {c.name: c.type for c in node.components}
        return {k: unordered_sets(graph, types[k], v) if k in types else v
                for k, v in jer.items()}
    if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF) and isinstance(jer, list):
        items = [unordered_sets(graph, node.element.type, v) for v in jer]
        if node.kind == Kind.SET_OF:
            items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return items
    return jer
