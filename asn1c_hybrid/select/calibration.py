"""The calibrated time-saving model: instructions saved per value by compiling a type.

Compiling a type saves, on each of its values, the interpreter's work that its compiled
routine does inline: the dispatch on the type's kind, the walk over its member table, and
for each member converted the interpreter's member routine (tags read, the member's kind
switched on, a call), which the compiled routine replaces by constants and, for the
common shapes of primitive members, by inline code (docs/runtime.md).  So the saving of
one value is linear in what the value holds, by the kind of each member's fast path:

=============  ===========================================================================
SEQUENCE       seq + Σ seq.<class> per member present + seq.absent per member absent
SET            set + Σ set.<class> per member present + set.absent per member absent
               + set.position x the place of each member present that compiled code
               finds by a switch on its identifier octet (inline, struct, generic):
               the interpreter looks every tag up member by member
               + set.scan x the place of each other member present: compiled code looks
               those up member by member too, with a dearer test
CHOICE         choice.<class> of the alternative chosen
               + choice.position x its place among the alternatives (the interpreter
               tries them in order, a compiled CHOICE switches on the tag)
SEQUENCE OF,   list + list.<class> per element
SET OF
=============  ===========================================================================

A member's class is the path compiled code takes for it (emit/layout.py):

- `inline`: a primitive decoded and encoded in place (strings, OIDs, INTEGER, BOOLEAN,
  NULL, BIT STRING without named bits);
- `struct`: a constructed member with a tag of its own: its routine is called directly;
- `choice`: an untagged CHOICE member;
- `explicit`: a member under an explicit tag (an EXPLICIT tag, a tagged CHOICE or ANY),
  handed to the interpreter's member routine, which unwraps the tag;
- `open`: an untagged ANY or open type, kept as the whole TLV;
- `generic`: any other member handed to the interpreter's member routine (ENUMERATED,
  BIT STRING with named bits, REAL, long tags, recursive members).  Compiled code reads
  the tag twice here, so this class can cost instructions instead of saving them.

The coefficients are instructions of decoding plus DER encoding, measured once per
compiler and machine by `asn1c-hybrid calibrate` (select/calibrate.py) and kept in a
calibration file.  The counts per value (members present, alternative chosen, elements)
come from the frequency source: see `value_features`.

PER has a second set, measured the same way on UPER messages: its compiled routines
take other paths, so a member's class there is `inline` (a BOOLEAN, NULL, or INTEGER or
ENUMERATED read inline as a constrained number), `string` (a string read through
asn1h_per_string: emit/per_routines.py) or `generic` (anything else: the tables' member
routine, or the member type's own routine through it).  PER reads a SET's members in
order and a CHOICE's index as a number, so the position features are 0 there.  A build
without BER (whose routines are PER's alone) is costed with this set.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional, Union

from ..emit.layout import build_layout
from ..emit.per_routines import per_class
from ..errors import CalibrationError
from ..estimate.estimate import Estimate
from ..estimate.static import PRESENT_OPTIONAL
from ..measure import RUNTIME_BLOCK_CFLAGS, RUNTIME_CFLAGS, c_compiler
from ..resources import data_dir, runtime_sources
from ..typegraph import Kind, Node, TypeGraph
from .costs import knapsack_items

FORMAT = "asn1c-hybrid calibration"
VERSION = 3                                      # 2: with PER's; 3: PER's strings apart
INSTRUCTIONS = "instructions"

MEMBER_CLASSES = ("inline", "struct", "choice", "explicit", "open", "generic",
                  "string")                      # the last, PER's alone
_INLINE = {"bytes", "oid", "int_native", "int_big", "bool", "null", "bits"}
SWITCHED = ("inline", "struct", "generic")       # classes with an identifier octet of their own
CONTAINERS = {Kind.SEQUENCE: "seq", Kind.SET: "set", Kind.CHOICE: "choice",
              Kind.SEQUENCE_OF: "list", Kind.SET_OF: "list"}


def feature_names(container: str) -> list[str]:
    """The coefficients of one kind of type, in a fixed order."""
    # A CHOICE value holds exactly one alternative: the constant is in its class's term.
    names = [] if container == "choice" else [container]
    names += [f"{container}.{c}" for c in MEMBER_CLASSES]
    if container in ("seq", "set"):
        names.append(f"{container}.absent")
    if container == "set":
        names += ["set.position", "set.scan"]
    if container == "choice":
        names.append("choice.position")
    return names


ALL_FEATURES = [name for c in ("seq", "set", "choice", "list") for name in feature_names(c)]
# PER's: its three member classes, absent members and the constants; no position terms
PER_FEATURES = [name for name in ALL_FEATURES
                if name.partition(".")[2] in ("", "inline", "string", "generic", "absent")]


def cache_dir() -> Path:
    """Where measurements are kept between runs: $XDG_CACHE_HOME/asn1c-hybrid, else
    ~/.cache/asn1c-hybrid."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "asn1c-hybrid"


def default_path() -> Path:
    """Where `asn1c-hybrid calibrate` writes and `--cost-model measured` looks:
    $ASN1H_CALIBRATION, else calibration.json in the cache directory."""
    explicit = os.environ.get("ASN1H_CALIBRATION")
    if explicit:
        return Path(explicit)
    return cache_dir() / "calibration.json"


def toolchain() -> dict[str, str]:
    """What a calibration is valid for: the C compiler's identity, the machine, and the
    code being measured (a hash of the runtime, its flags and the templates: what the
    interpreter and compiled routines do is theirs)."""
    command = c_compiler()
    try:
        result = subprocess.run([*command, "--version"], capture_output=True, text=True)
        version = result.stdout.splitlines()[0].strip() if result.stdout else command[0]
    except (FileNotFoundError, IndexError):
        version = f"{command[0]} (not found)"
    digest = hashlib.sha256()
    for path in runtime_sources() + sorted(data_dir("templates").glob("*.j2")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    # how the runtime is built
    digest.update(" ".join(RUNTIME_CFLAGS + RUNTIME_BLOCK_CFLAGS).encode())
    return {"compiler": version, "machine": platform.machine() or "unknown",
            "generator": digest.hexdigest()[:16]}


@dataclass
class Calibration:
    coefficients: dict[str, float]           # feature name -> instructions per value
    compiler: str = ""
    machine: str = ""
    generator: str = ""                      # hash of the runtime and templates measured
    fit: dict = field(default_factory=dict)  # per kind: shapes, worst relative error
    measurements: list = field(default_factory=list)   # the benchmark shapes, measured
    # PER's (UPER decoding plus encoding); a calibration made without them (in code: the
    # file always has them) uses the BER coefficients for PER too
    per_coefficients: Optional[dict[str, float]] = None
    per_fit: dict = field(default_factory=dict)
    per_measurements: list = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.per_coefficients is None:
            self.per_coefficients = dict(self.coefficients)

    def linear(self, features: Mapping[str, float], per: bool = False) -> float:
        """The model's instructions saved per value with these features (PER's, with
        `per`): may be negative (compiled code that does worse than the interpreter)."""
        coefficients = self.per_coefficients if per else self.coefficients
        return sum(coefficients.get(k, 0.0) * v for k, v in features.items())

    def saving(self, features: Mapping[str, float], per: bool = False) -> float:
        """Instructions saved per value, as the knapsack uses it: a type whose compiled
        routines would cost instructions saves nothing (and is never worth compiling)."""
        return max(0.0, self.linear(features, per))

    # ---- the file --------------------------------------------------------------------

    def to_json(self) -> dict:
        def rounded(coefficients: Mapping[str, float]) -> dict:
            return {k: round(coefficients[k], 3) for k in ALL_FEATURES if k in coefficients}
        return {"format": FORMAT, "version": VERSION, "compiler": self.compiler,
                "machine": self.machine, "generator": self.generator,
                "unit": "instructions saved per value, decoding plus DER encoding",
                "coefficients": rounded(self.coefficients),
                "fit": self.fit, "measurements": self.measurements,
                "per": {"unit": "instructions saved per value, UPER decoding plus encoding",
                        "coefficients": rounded(self.per_coefficients), "fit": self.per_fit,
                        "measurements": self.per_measurements}}

    def save(self, path: Union[str, os.PathLike]) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1, sort_keys=False) + "\n")

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "Calibration":
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise CalibrationError(f"cannot read {path}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CalibrationError(f"{path} is not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError(f"{path} is not an asn1c-hybrid calibration file")
        if data.get("version") != VERSION:
            raise CalibrationError(f"{path}: unsupported calibration version "
                                   f"{data.get('version')!r}")
        per = data.get("per")
        sets = [data.get("coefficients"), per.get("coefficients") if isinstance(per, dict)
                else None]
        for coefficients in sets:
            if not isinstance(coefficients, dict) or set(coefficients) != set(ALL_FEATURES) \
                    or not all(isinstance(v, (int, float)) for v in coefficients.values()):
                raise CalibrationError(f"{path}: the coefficients are missing or malformed")
        ber, per_coefficients = ({k: float(v) for k, v in c.items()} for c in sets)
        return cls(ber, str(data.get("compiler", "")), str(data.get("machine", "")),
                   str(data.get("generator", "")), data.get("fit", {}),
                   data.get("measurements", []), per_coefficients, per.get("fit", {}),
                   per.get("measurements", []))

    def check_toolchain(self, origin: str) -> None:
        """A calibration is valid for the compiler, machine and runtime it measured."""
        here = toolchain()
        if (self.compiler, self.machine) != (here["compiler"], here["machine"]):
            raise CalibrationError(
                f"{origin} was measured with {self.compiler} on {self.machine}, but this is "
                f"{here['compiler']} on {here['machine']}: run `asn1c-hybrid calibrate`")
        if self.generator != here["generator"]:
            raise CalibrationError(
                f"{origin} was measured with another version of the runtime or templates "
                f"({self.generator or 'unknown'}, now {here['generator']}): run "
                "`asn1c-hybrid calibrate`")


def load_checked(path: Union[str, os.PathLike]) -> Calibration:
    """The calibration in `path`, if it is valid for this compiler, machine and runtime."""
    if not Path(path).exists():
        raise CalibrationError(
            f"no calibration at {path}: run `asn1c-hybrid calibrate -o {path}`")
    calibration = Calibration.load(path)
    calibration.check_toolchain(str(path))
    return calibration


# ---- what a value holds, from the frequency source -------------------------------------

def member_classes(graph: TypeGraph, per: bool = False) -> dict[str, list[str]]:
    """The class of every member of every knapsack item, in member order, from the
    compiled layout (the fast path compiled code takes for it; PER's routines', with
    `per`)."""
    items = {node.id for node in knapsack_items(graph)}
    layout = build_layout(graph, items)
    classes = {}
    for type_id in items:
        members = layout.types[type_id].members
        classes[type_id] = [per_class(layout, m) if per else _class_of(m) for m in members]
    return classes


def _class_of(member) -> str:
    if member.strategy in _INLINE:
        return "inline"
    if member.strategy in ("struct", "choice"):
        return member.strategy
    if len(member.tags) > 1 or (member.tags and not member.target.kind.has_own_tlv):
        return "explicit"
    if not member.tags and member.target.kind == Kind.OPEN:
        return "open"
    return "generic"


def _counted_under_own_id(node: Node) -> bool:
    """Whether a profile counts this node's values under its own identifier: anonymous
    primitive types may share a descriptor named after their built-in type."""
    return not node.is_anonymous or node.kind.constructed


def presence_rates(graph: TypeGraph, estimate: Estimate) -> dict[str, float]:
    """For each type used by OPTIONAL (or DEFAULT) members or as a CHOICE alternative, the
    share of those uses that hold a value: its values, less those its certain uses
    account for (mandatory members, list elements), over the values of the types whose
    optional uses could hold one.  Every optional use of a type gets the same rate, which
    is exact when there is one.  Types whose values are not counted under their own
    identifier get none (the caller falls back to the static weight)."""
    frequencies = estimate.representation_frequencies(graph)
    certain: dict[str, float] = {}
    uncertain: dict[str, float] = {}
    for parent in graph:
        if parent.alias_of is not None or not parent.kind.constructed:
            continue
        f = frequencies.get(parent.id, 0.0)
        if parent.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            element = parent.element.type
            certain[element] = certain.get(element, 0.0) + \
                f * estimate.items_per_value.get(parent.id, 0.0)
            continue
        for comp in parent.components:
            if parent.kind != Kind.CHOICE and comp.present_always:
                certain[comp.type] = certain.get(comp.type, 0.0) + f
            else:
                uncertain[comp.type] = uncertain.get(comp.type, 0.0) + f
    rates = {}
    for type_id, capacity in uncertain.items():
        if capacity > 0 and _counted_under_own_id(graph[type_id]):
            held = estimate.frequencies.get(type_id, 0.0) - certain.get(type_id, 0.0)
            rates[type_id] = min(1.0, max(0.0, held / capacity))
    return rates


def value_features(graph: TypeGraph, estimate: Estimate,
                   classes: Optional[Mapping[str, list[str]]] = None, per: bool = False
                   ) -> dict[str, dict[str, float]]:
    """For every knapsack item, the expected features of one of its values.

    Members present: a mandatory member always is; an optional member is with its type's
    presence rate (`presence_rates`: from a profile, the share seen; from the static
    estimate, its weight), else the static weight, one in two.  A CHOICE alternative
    is chosen with its type's rate; alternatives without one share what the others
    leave, evenly.  With `per`, PER's classes, and no position features."""
    classes = classes if classes is not None else member_classes(graph, per)
    rates = presence_rates(graph, estimate)
    result: dict[str, dict[str, float]] = {}
    for node in knapsack_items(graph):
        container = CONTAINERS[node.kind]
        features = {name: 0.0 for name in feature_names(container)}
        if container in features:
            features[container] = 1.0
        member_class = classes[node.id]
        if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            features[f"list.{member_class[0]}"] = estimate.items_per_value.get(node.id, 0.0)
        elif node.kind == Kind.CHOICE:
            shares = [rates.get(c.type) for c in node.components]
            known = sum(s for s in shares if s is not None)
            unknown = [i for i, s in enumerate(shares) if s is None]
            rest = max(0.0, 1.0 - known) / len(unknown) if unknown else 0.0
            scale = 1.0 / known if known > 1.0 else 1.0     # shared types can overcount
            for i, share in enumerate(shares):
                q = rest if share is None else share * scale
                features[f"choice.{member_class[i]}"] += q
                if not per:
                    features["choice.position"] += q * (i + 1)
        else:
            for i, (comp, cls) in enumerate(zip(node.components, member_class)):
                if comp.present_always:
                    p = 1.0
                else:
                    p = rates.get(comp.type, PRESENT_OPTIONAL)
                features[f"{container}.{cls}"] += p
                features[f"{container}.absent"] += 1.0 - p
                if container == "set" and not per:
                    features["set.position" if cls in SWITCHED else "set.scan"] += p * (i + 1)
        result[node.id] = features
    return result


def calibrated_savings(graph: TypeGraph, estimate: Estimate, calibration: Calibration,
                       per: bool = False) -> dict[str, float]:
    """Instructions saved per value of every knapsack item (by PER's routines, with
    `per`)."""
    return {type_id: calibration.saving(features, per)
            for type_id, features in value_features(graph, estimate, per=per).items()}
