"""`asn1c-hybrid calibrate`: measures the time-saving model's coefficients on this machine.

Each benchmark shape is a target type of a known make-up (a SEQUENCE, SET, CHOICE or
SEQUENCE OF with so many members of each class present, so many absent, which
alternative, how many elements), built here as a type graph.  The shapes of one kind
share a specification whose message holds `VALUES` values of each target.  It is built
all interpreted, and once per shape with only that shape's target compiled, and callgrind
counts the instructions of decoding (and freeing) and DER-encoding the message
(measured_program.py: the study's measurement).  The difference divided by the number of
values is the saving per value of that shape.  Per kind of type, a least-squares fit of
the savings on the shapes' features (calibration.py) gives the coefficients.

The check: shapes left out of the fit (`HELD_OUT`) are predicted from it, and the
worst relative error is recorded in the file (`fit.held_out`).

PER's coefficients are measured the same way with shapes of PER's three member classes
(`per_training_shapes`, `PER_HELD_OUT`: inline, an ENUMERATED, which compiled code reads
as a constrained number; string, an OCTET STRING, which it reads through
asn1h_per_string; generic, an unconstrained INTEGER, which the tables read), on the
same values encoded in
UPER (`per_message`, written here from
X.691), by builds of UPER alone.  The driver checks that our encoder writes each PDU back
as it was: a fault in either is an error.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..errors import CalibrationError
from ..measure.program import Builder
from ..typegraph import (Component, Kind, ModuleInfo, Node, Tag, TagClass, TypeGraph,
                         universal)
from .calibration import SWITCHED, Calibration, feature_names, member_classes, toolchain

M = "Calibration"
VALUES = 24                        # values of the target type in the message


@dataclass(frozen=True)
class Shape:
    """One calibration benchmark: a target type and the values the message holds.

    seq/set: `members` are the classes of its members, `present` says which ones the
    values hold (the others are OPTIONAL and absent).  choice: `members` are the
    alternatives' classes, `chosen` the one the values take.  list: `members` is the
    element's class, `items` the elements per value."""
    container: str
    members: tuple[str, ...]
    present: tuple[bool, ...] = ()
    chosen: int = 0
    items: int = 0
    per: bool = False                # a PER shape: PER's classes, measured in UPER

    @property
    def name(self) -> str:
        rules = "per:" if self.per else ""
        if self.container in ("seq", "set"):
            parts = [c if p else f"({c})" for c, p in zip(self.members, self.present)]
            return f"{rules}{self.container}[{' '.join(parts)}]"
        if self.container == "choice":
            return f"{rules}choice[{' '.join(self.members)}]#{self.chosen + 1}"
        return f"{rules}list[{self.members[0]} x{self.items}]"

    def features(self) -> dict[str, float]:
        """The features of one value, as `calibration.value_features` defines them."""
        c = self.container
        f = {name: 0.0 for name in feature_names(c)}
        per = self.per
        if c in f:
            f[c] = 1.0
        if c in ("seq", "set"):
            for i, (cls, present) in enumerate(zip(self.members, self.present)):
                f[f"{c}.{cls}" if present else f"{c}.absent"] += 1
                if c == "set" and present and not per:
                    f["set.position" if cls in SWITCHED else "set.scan"] += i + 1
        elif c == "choice":
            f[f"choice.{self.members[self.chosen]}"] += 1
            if not per:
                f["choice.position"] += self.chosen + 1
        else:
            f[f"list.{self.members[0]}"] += self.items
        return f


def _record(container: str, counts: dict, absent: int = 0) -> Shape:
    """A SEQUENCE or SET with so many members of each class present, and `absent`
    OPTIONAL inline members absent, placed after the first member."""
    present = [cls for cls in ("inline", "struct", "explicit", "generic")
               for _ in range(counts.get(cls, 0))]
    # last: PRIVATE tags sort last in DER; an untagged ANY takes whatever TLV comes
    choices = ["choice"] * counts.get("choice", 0) + ["open"] * counts.get("open", 0)
    members = present[:1] + ["inline"] * absent + present[1:] + choices
    flags = [True] * len(present[:1]) + [False] * absent + [True] * (len(present) - 1
                                                                   + len(choices))
    return Shape(container, tuple(members), tuple(flags))


def training_shapes() -> list[Shape]:
    shapes = []
    for c in ("seq", "set"):
        shapes += [_record(c, {"inline": n}) for n in (1, 2, 4, 8)]
        for cls in ("struct", "choice", "explicit", "generic") + (("open",) if c == "seq" else ()):
            shapes += [_record(c, {"inline": 2, cls: 2}), _record(c, {"inline": 1, cls: 4})]
        shapes += [_record(c, {"inline": 2}, absent=2), _record(c, {"inline": 2}, absent=6),
                   _record(c, {"inline": 6}, absent=2),
                   Shape(c, ("inline",) * 8, (False,) * 6 + (True,) * 2)]
        for cls in ("explicit", "choice"):           # the same members, further down
            shapes.append(Shape(c, ("inline",) * 6 + (cls,) * 2, (True,) + (False,) * 5
                                + (True,) * 2))
    for n, chosen in ((2, 0), (2, 1), (4, 2), (8, 0), (8, 7)):
        shapes.append(Shape("choice", ("inline",) * n, chosen=chosen))
    for cls in ("struct", "explicit", "generic", "choice"):
        for chosen in (0, 3):
            members = ["inline"] * 4
            members[chosen] = cls
            shapes.append(Shape("choice", tuple(members), chosen=chosen))
    for cls, counts in (("inline", (1, 4, 16)), ("struct", (2, 8)), ("choice", (2, 8)),
                        ("explicit", (2, 8)), ("open", (2, 8)), ("generic", (2, 8))):
        shapes += [Shape("list", (cls,), items=n) for n in counts]
    return shapes


# Mixed shapes the fit never sees: predicted from it, to check the model.
HELD_OUT = [
    Shape("seq", ("inline", "struct", "inline", "explicit", "inline", "generic", "inline",
                  "choice", "open"),
          (True, True, False, True, True, True, False, True, True)),
    Shape("set", ("inline", "inline", "struct", "inline", "explicit", "generic", "inline",
                  "inline", "choice"),
          (False, True, True, True, True, False, True, False, True)),
    Shape("choice", ("inline", "struct", "inline", "explicit", "inline", "inline"), chosen=4),
    Shape("list", ("inline",), items=7),
]


def _per_record(container: str, inline: int, generic: int, absent: int = 0) -> Shape:
    """`inline` members that compiled code reads itself present (a number, then a string,
    and so on), `absent` of them absent after the first, then `generic` ones."""
    members = ["inline"] * min(inline, 1) + ["inline"] * absent + \
        ["inline"] * (inline - 1)
    members = ["string" if i % 2 else cls for i, cls in enumerate(members)] + \
        ["generic"] * generic
    present = [True] * min(inline, 1) + [False] * absent + [True] * (inline + generic - 1)
    return Shape(container, tuple(members), tuple(present), per=True)


def per_training_shapes() -> list[Shape]:
    shapes = []
    for c in ("seq", "set"):
        shapes += [_per_record(c, n, 0) for n in (1, 2, 4, 8)]
        shapes += [_per_record(c, 1, n) for n in (1, 2, 4)]
        shapes += [_per_record(c, 2, 0, absent=2), _per_record(c, 2, 0, absent=6),
                   _per_record(c, 2, 2, absent=4)]
        shapes.append(Shape(c, ("string",) * 4, (True,) * 4, per=True))
    for n, chosen in ((2, 0), (2, 1), (4, 2), (8, 7)):
        shapes.append(Shape("choice", ("inline",) * n, chosen=chosen, per=True))
    for cls, chosen in (("generic", 0), ("generic", 3), ("string", 1)):
        members = ["inline"] * 4
        members[chosen] = cls
        shapes.append(Shape("choice", tuple(members), chosen=chosen, per=True))
    for cls, counts in (("inline", (1, 4, 16)), ("string", (2, 8)), ("generic", (2, 8))):
        shapes += [Shape("list", (cls,), items=n, per=True) for n in counts]
    return shapes


PER_HELD_OUT = [
    Shape("seq", ("inline", "generic", "inline", "string", "generic", "string"),
          (True, True, False, True, True, False), per=True),
    Shape("set", ("generic", "string", "inline", "generic", "inline"),
          (True, False, True, True, True), per=True),
    Shape("choice", ("inline", "generic", "inline", "inline", "inline"), chosen=2, per=True),
    Shape("list", ("inline",), items=7, per=True),
]


# ---- the specification of a shape ------------------------------------------------------

def _ctx(n: int) -> Tag:
    return Tag(TagClass.CONTEXT, n)


def _private(n: int) -> Tag:
    return Tag(TagClass.PRIVATE, n)


def group_graph(shapes: Sequence[Shape]) -> TypeGraph:
    """`Calibration.Message ::= SEQUENCE { s0 [0] SEQUENCE OF Target0, ... }`, target k
    made as shapes[k] says."""
    nodes = [
        Node(f"{M}.Int", Kind.INTEGER, "INTEGER", tags=(universal(2),)),
        Node(f"{M}.Str", Kind.BYTES, "OCTET STRING", tags=(universal(4),)),
        Node(f"{M}.Inner", Kind.SEQUENCE, "SEQUENCE", tags=(universal(16),),
             components=[Component("a", f"{M}.Int", (_ctx(0),)),
                         Component("b", f"{M}.Str", (_ctx(1),))]),
        Node(f"{M}.Either", Kind.CHOICE, "CHOICE",
             components=[Component("a", f"{M}.Int", (universal(2),)),
                         Component("b", f"{M}.Str", (universal(4),))]),
        Node(f"{M}.Enum", Kind.ENUMERATED, "ENUMERATED", tags=(universal(10),),
             named_numbers={"a": 0, "b": 1, "c": 2}),
        Node(f"{M}.Flags", Kind.BIT_STRING, "BIT STRING", tags=(universal(3),),
             named_bits={"a": 0, "b": 1}),
        Node(f"{M}.Any", Kind.OPEN, "ANY"),
    ]
    lists = []
    for k, shape in enumerate(shapes):
        target, element_tags, extra = _target(shape, k)
        nodes += [target] + extra
        lists.append(Node(f"{M}.Message.s{k}", Kind.SEQUENCE_OF, "SEQUENCE OF",
                          tags=(_ctx(k),), element=Component("", target.id, element_tags)))
    nodes += lists
    nodes.append(Node(f"{M}.Message", Kind.SEQUENCE, "SEQUENCE", tags=(universal(16),),
                      components=[Component(f"s{k}", n.id, n.tags) for k, n in
                                  enumerate(lists)]))
    graph = TypeGraph(modules=[ModuleInfo(M, None, "calibration.asn", "IMPLICIT")],
                      sources={"calibration.asn": "-- calibration shapes: "
                               + "; ".join(s.name for s in shapes) + " --"})
    for node in nodes:
        graph.add(node)
    graph.mark_recursion()
    return graph


def _target(shape: Shape, k: int) -> tuple[Node, tuple, list[Node]]:
    """Target k, the tags of its use as a list element, and the CHOICE types of its
    `choice` members (each its own, with PRIVATE tags that cannot clash)."""
    alternatives: list[Node] = []

    def choice_type() -> str:
        n = len(alternatives)
        node = Node(f"{M}.Alt{k}x{n}", Kind.CHOICE, "CHOICE", components=[
            Component("a", f"{M}.Int", (_private(2 * n),)),
            Component("b", f"{M}.Str", (_private(2 * n + 1),))])
        alternatives.append(node)
        return node.id

    def member(name: str, cls: str, index: int, optional: bool = False) -> Component:
        if shape.per:         # inline: an ENUMERATED (a constrained number, as most are);
            # string: an OCTET STRING (asn1h_per_string); generic: an INTEGER, by the tables
            type_id = {"inline": f"{M}.Enum", "string": f"{M}.Str"}.get(cls, f"{M}.Int")
            return Component(name, type_id, (_ctx(index),), optional=optional)
        if cls == "inline":
            type_id = f"{M}.Str" if index % 2 == 0 else f"{M}.Int"
            return Component(name, type_id, (_ctx(index),), optional=optional)
        if cls == "struct":
            return Component(name, f"{M}.Inner", (_ctx(index),), optional=optional)
        if cls == "explicit":             # [n] EXPLICIT INTEGER, or [n] a CHOICE
            if index % 2 == 0:
                return Component(name, f"{M}.Int", (_ctx(index), universal(2)),
                                 optional=optional)
            return Component(name, f"{M}.Either", (_ctx(index),), optional=optional)
        if cls == "open":                 # an untagged ANY (SET and CHOICE cannot have one)
            return Component(name, f"{M}.Any", (), optional=optional)
        if cls == "generic":              # [n] ENUMERATED, or [n] BIT STRING {a(0), b(1)}
            return Component(name, f"{M}.Enum" if index % 2 == 0 else f"{M}.Flags",
                             (_ctx(index),), optional=optional)
        return Component(name, choice_type(), (), optional=optional)

    target = f"{M}.Target{k}"
    if shape.container in ("seq", "set"):
        kind = Kind.SEQUENCE if shape.container == "seq" else Kind.SET
        components = [member(f"m{i}", cls, i, optional=not present)
                      for i, (cls, present) in enumerate(zip(shape.members, shape.present))]
        node = Node(target, kind, kind.value,
                    tags=(universal(16 if kind == Kind.SEQUENCE else 17),),
                    components=components)
        return node, node.tags, alternatives
    if shape.container == "choice":
        node = Node(target, Kind.CHOICE, "CHOICE", components=[
            member(f"m{i}", cls, i) for i, cls in enumerate(shape.members)])
        return node, (), alternatives
    cls = shape.members[0]
    if shape.per:
        element = {"inline": Component("", f"{M}.Enum", (universal(10),)),
                   "string": Component("", f"{M}.Str", (universal(4),))}.get(cls) or \
            Component("", f"{M}.Int", (universal(2),))
        node = Node(target, Kind.SEQUENCE_OF, "SEQUENCE OF", tags=(universal(16),),
                    element=element)
        return node, node.tags, alternatives
    element = {"inline": Component("", f"{M}.Str", (universal(4),)),   # its own tag
               "struct": Component("", f"{M}.Inner", (universal(16),)),
               "generic": Component("", f"{M}.Enum", (universal(10),)),
               "open": Component("", f"{M}.Any", ())}.get(cls) or member("", cls, 0)
    node = Node(target, Kind.SEQUENCE_OF, "SEQUENCE OF", tags=(universal(16),),
                element=element)
    return node, node.tags, alternatives


# ---- the message: the values, DER-encoded ----------------------------------------------

def _length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    octets = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


def _tlv(tag: Tag, constructed: bool, contents: bytes) -> bytes:
    identifier = (int(tag.cls) << 6) | (0x20 if constructed else 0) | tag.number
    return bytes([identifier]) + _length(len(contents)) + contents


def _integer(v: int) -> bytes:
    return v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=True)


def encode(graph: TypeGraph, type_id: str, tags: tuple, value) -> bytes:
    """DER of `value` under the effective `tags` (outermost first) of a use of type_id."""
    node = graph[type_id]
    if node.kind == Kind.OPEN:                     # the value is a whole TLV already
        return value
    if node.kind == Kind.CHOICE:
        name, inner = value
        comp = next(c for c in node.components if c.name == name)
        encoding = encode(graph, comp.type, comp.tags, inner)
        for tag in reversed(tags):
            encoding = _tlv(tag, True, encoding)
        return encoding
    if node.kind in (Kind.INTEGER, Kind.ENUMERATED):
        contents = _integer(value)
    elif node.kind == Kind.BIT_STRING:               # named bits: no trailing zero bit
        octets, bits = value
        contents = bytes([(8 - bits % 8) % 8]) + octets
    elif node.kind == Kind.BYTES:
        contents = value
    elif node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
        parts = [encode(graph, node.element.type, node.element.tags, v) for v in value]
        contents = b"".join(sorted(parts) if node.kind == Kind.SET_OF else parts)
    else:
        parts = [encode(graph, c.type, c.tags, value[c.name])
                 for c in node.components if c.name in value]
        if node.kind == Kind.SET:              # DER: by tag, the form bit aside
            parts.sort(key=lambda encoding: encoding[0] & 0xDF)
        contents = b"".join(parts)
    encoding = _tlv(tags[-1], node.kind.constructed, contents)
    for tag in reversed(tags[:-1]):
        encoding = _tlv(tag, True, encoding)
    return encoding


def _member_value(graph: TypeGraph, comp: Component, k: int):
    """A value for a member, varied with k: 1- to 3-octet integers, 6- to 20-octet
    strings (the sizes of O/R name attributes)."""
    node = graph[comp.type]
    if node.kind == Kind.INTEGER:
        return (5, 300, 70000)[k % 3]
    if node.kind == Kind.ENUMERATED:
        return k % 3
    if node.kind == Kind.OPEN:                       # an INTEGER or a string, as a TLV
        return (b"\x02\x01\x05", b"\x04\x06abcdef", b"\x30\x03\x02\x01\x07")[k % 3]
    if node.kind == Kind.BIT_STRING:
        return ((b"\x80", 1), (b"\x40", 2))[k % 2]
    if node.kind == Kind.BYTES:
        return b"abcdefghijklmnopqrst"[: 6 + (7 * k) % 15]
    if node.kind == Kind.CHOICE:
        alt = node.components[k % 2]
        return (alt.name, _member_value(graph, alt, k))
    return {c.name: _member_value(graph, c, k + i) for i, c in enumerate(node.components)}


def group_values(shapes: Sequence[Shape], graph: TypeGraph) -> dict:
    """The value of the message: VALUES values of each target."""
    message = {}
    for k, shape in enumerate(shapes):
        target = graph[f"{M}.Target{k}"]
        values = []
        for v in range(VALUES):
            if shape.container in ("seq", "set"):
                values.append({c.name: _member_value(graph, c, v + i)
                               for i, (c, present) in enumerate(zip(target.components,
                                                                    shape.present))
                               if present})
            elif shape.container == "choice":
                comp = target.components[shape.chosen]
                values.append((comp.name, _member_value(graph, comp, v)))
            else:
                values.append([_member_value(graph, target.element, v + i)
                               for i in range(shape.items)])
        message[f"s{k}"] = values
    return message


def group_message(shapes: Sequence[Shape], graph: TypeGraph) -> bytes:
    """One message holding VALUES values of each target, in DER."""
    node = graph[f"{M}.Message"]
    return encode(graph, node.id, node.tags, group_values(shapes, graph))


class _Bits:
    """A UPER encoding being written, bit by bit."""

    def __init__(self) -> None:
        self.bits: list[int] = []

    def put(self, value: int, n: int) -> None:
        self.bits += [(value >> (n - 1 - i)) & 1 for i in range(n)]

    def length(self, n: int) -> None:             # X.691 11.9.3.6: below 128, 8 bits
        if n >= 128:
            raise ValueError("the calibration's values have short lengths")
        self.put(n, 8)

    def octets(self, data: bytes) -> None:
        for byte in data:
            self.put(byte, 8)

    def to_bytes(self) -> bytes:
        padded = self.bits + [0] * (-len(self.bits) % 8) or [0] * 8
        return bytes(int("".join(map(str, padded[i:i + 8])), 2)
                     for i in range(0, len(padded), 8))


def _per_value(graph: TypeGraph, type_id: str, value, out: _Bits) -> None:
    """X.691, unaligned, for the kinds of the PER shapes (none extensible or constrained):
    ENUMERATED {a, b, c} its index in 2 bits, INTEGER and OCTET STRING a length and the
    octets, SEQUENCE and SET a bit per OPTIONAL member then the members (a SET's in the
    order of their tags, here their order), CHOICE the index of its alternative (ordered
    by tag, here their order), SEQUENCE OF a count."""
    node = graph[type_id]
    if node.kind == Kind.ENUMERATED:
        out.put(value, (len(node.named_numbers) - 1).bit_length())
    elif node.kind == Kind.INTEGER:
        contents = _integer(value)
        out.length(len(contents))
        out.octets(contents)
    elif node.kind == Kind.BYTES:
        out.length(len(value))
        out.octets(value)
    elif node.kind == Kind.SEQUENCE_OF:
        out.length(len(value))
        for item in value:
            _per_value(graph, node.element.type, item, out)
    elif node.kind == Kind.CHOICE:
        name, inner = value
        names = [c.name for c in node.components]
        out.put(names.index(name), (len(names) - 1).bit_length())
        _per_value(graph, node.components[names.index(name)].type, inner, out)
    elif node.kind in (Kind.SEQUENCE, Kind.SET):
        for c in node.components:
            if c.optional:
                out.put(int(c.name in value), 1)
        for c in node.components:
            if c.name in value:
                _per_value(graph, c.type, value[c.name], out)
    else:
        raise ValueError(f"no PER shape holds a {node.kind.value}")


def per_message(shapes: Sequence[Shape], graph: TypeGraph) -> bytes:
    """The same message in UPER."""
    out = _Bits()
    _per_value(graph, f"{M}.Message", group_values(shapes, graph), out)
    return out.to_bytes()


# ---- measuring and fitting --------------------------------------------------------------

def measure_group(shapes: Sequence[Shape], directory: Path,
                  pool: Optional[ThreadPoolExecutor] = None) -> list[dict]:
    """Each shape's saving per value: the message all interpreted, minus the message with
    that shape's target alone compiled, over the number of its values."""
    graph = group_graph(shapes)
    per = shapes[0].per
    classes = member_classes(graph, per)
    for k, shape in enumerate(shapes):
        expected = shape.members if shape.container != "list" else shape.members[:1]
        if tuple(classes[f"{M}.Target{k}"]) != expected:
            raise AssertionError(f"{shape.name}: the layout gives member classes "
                                 f"{classes[f'{M}.Target{k}']}")
    digest = hashlib.sha256("; ".join(s.name for s in shapes).encode()).hexdigest()[:16]
    if per:                         # one PDU, framed as the driver reads PER
        pdu = per_message(shapes, graph)
        trace = directory / f"{digest}.uper"
        trace.write_bytes(len(pdu).to_bytes(4, "big") + pdu)
    else:
        trace = directory / f"{digest}.ber"
        trace.write_bytes(group_message(shapes, graph))
    builder = Builder(graph, f"{M}.Message", directory, "uper" if per else "ber")
    selections = [set()] + [{f"{M}.Target{k}"} for k in range(len(shapes))]
    run = lambda compiled: builder.build(compiled).measure(trace)
    base, *alone = (pool.map(run, selections) if pool else map(run, selections))
    if per and (base.messages != 1 or base.reencoded_differently):
        raise CalibrationError("the PER calibration message does not decode and encode "
                               "back as written")
    return [{"shape": shape.name, "container": shape.container, "features": shape.features(),
             "decode": (base.decode - m.decode) / VALUES,
             "encode": (base.encode - m.encode) / VALUES}
            for shape, m in zip(shapes, alone)]


def least_squares(rows: Sequence[Sequence[float]], targets: Sequence[float]) -> list[float]:
    """The x minimizing |Ax - b|, by the normal equations (a handful of unknowns);
    a feature no row uses gets 0."""
    n = len(rows[0])
    used = [j for j in range(n) if any(r[j] for r in rows)]
    a = [[sum(r[i] * r[j] for r in rows) for j in used] for i in used]
    b = [sum(r[i] * t for r, t in zip(rows, targets)) for i in used]
    size = len(used)
    for col in range(size):                      # Gaussian elimination, partial pivoting
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ArithmeticError("the calibration shapes do not determine every coefficient")
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(col + 1, size):
            factor = a[r][col] / a[col][col]
            for k in range(col, size):
                a[r][k] -= factor * a[col][k]
            b[r] -= factor * b[col]
    solution = [0.0] * size
    for r in reversed(range(size)):
        solution[r] = (b[r] - sum(a[r][k] * solution[k] for k in range(r + 1, size))) / a[r][r]
    x = [0.0] * n
    for j, value in zip(used, solution):
        x[j] = value
    return x


def fit(measurements: Sequence[dict]) -> dict[str, float]:
    coefficients: dict[str, float] = {}
    for container in ("seq", "set", "choice", "list"):
        names = feature_names(container)
        rows = [m for m in measurements if m["container"] == container]
        x = least_squares([[m["features"][n] for n in names] for m in rows],
                          [m["decode"] + m["encode"] for m in rows])
        coefficients.update(zip(names, x))
    return coefficients


def calibrate(directory: Optional[Path] = None,
              progress: Optional[Callable[[int, int], None]] = None) -> Calibration:
    """Measures every shape (training and held out) and fits the model, BER's and PER's.
    The shapes of a kind share one specification, so that the all-interpreted build is
    made once."""
    containers = ("seq", "set", "choice", "list")
    training, per_training = training_shapes(), per_training_shapes()
    groups = [[s for s in training if s.container == c] for c in containers] + [HELD_OUT]
    groups += [[s for s in per_training if s.container == c] for c in containers]
    groups.append(PER_HELD_OUT)
    measured: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="asn1h-calibrate-") as tmp:
        work = Path(directory) if directory else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        workers = max(1, min(4, os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for n, group in enumerate(groups):
                measured += measure_group(group, work, pool)
                if progress:
                    progress(n + 1, len(groups))
    by_name = {m["shape"]: m for m in measured}
    rows = {rules: ([by_name[s.name] for s in shapes], [by_name[s.name] for s in held])
            for rules, shapes, held in (("ber", training, HELD_OUT),
                                        ("per", per_training, PER_HELD_OUT))}
    calibration = Calibration(fit(rows["ber"][0]), **toolchain(),
                              per_coefficients=fit(rows["per"][0]))
    for rules, (training_rows, held_out) in rows.items():
        per = rules == "per"
        summary = {"training_shapes": len(training_rows),
                   "training_worst_relative_error": _worst(calibration, training_rows, per),
                   "held_out": [_prediction(calibration, m, per) for m in held_out]}
        table = [_rounded(m) for m in training_rows + held_out]
        if per:
            calibration.per_fit, calibration.per_measurements = summary, table
        else:
            calibration.fit, calibration.measurements = summary, table
    return calibration


def _prediction(calibration: Calibration, m: dict, per: bool = False) -> dict:
    measured = m["decode"] + m["encode"]
    predicted = calibration.linear(m["features"], per)
    return {"shape": m["shape"], "measured": round(measured, 2),
            "predicted": round(predicted, 2),
            "relative_error": round(abs(predicted - measured) / max(abs(measured), 1.0), 4)}


def _worst(calibration: Calibration, rows: Sequence[dict], per: bool = False) -> float:
    return max(_prediction(calibration, m, per)["relative_error"] for m in rows)


def _rounded(m: dict) -> dict:
    return {"shape": m["shape"], "container": m["container"], "decode": round(m["decode"], 2),
            "encode": round(m["encode"], 2),
            "features": {k: v for k, v in m["features"].items() if v}}
