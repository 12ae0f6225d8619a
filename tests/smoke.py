"""The smoke round trip of a specification (test_lenient.py, and `make coverage` on every
Wireshark set): hypothesis-made values of each PDU-like type (the unreferenced SEQUENCE,
SET and CHOICE types) are written in DER by the tests' own encoder (derencode.py), and the
built converters must decode them and write back the identical bytes.
"""
from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Callable, Optional, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asn1c_hybrid import api
from asn1c_hybrid.typegraph import Kind, TypeGraph
from derencode import encode
from valuegen import ValueStrategies

MAX_TYPES = 40


def pdu_like(graph: TypeGraph, limit: int = MAX_TYPES, seed: int = 0) -> list[str]:
    roots = [i for i in api.pdus(graph, api.SelectOptions())
             if graph.target(i).kind in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE)]
    if len(roots) > limit:
        roots = sorted(random.Random(seed).sample(roots, limit))
    return roots


ANY_TAG = ("*",)
UNMAKEABLE = "*"           # key of ambiguous_components: the types with no values to make


def first_tags(graph: TypeGraph, type_id: str, tags: tuple, seen: frozenset = frozenset()
               ) -> set[tuple]:
    """The outermost tags a component's encoding can start with; ANY_TAG for an untagged
    open type (a stand-in of --lenient), whose encoding can start with any."""
    if tags:
        return {tuple(tags[:1])}
    node = graph.target(type_id)
    if node.kind == Kind.OPEN:
        return {ANY_TAG}
    if node.kind != Kind.CHOICE or node.id in seen:
        return set()
    return set().union(*(first_tags(graph, a.type, a.tags, seen | {node.id})
                         for a in node.components))


def _clash(a: set[tuple], b: set[tuple]) -> bool:
    return bool(a & b) or (bool(a) and bool(b) and ANY_TAG in a | b)


def ambiguous_components(graph: TypeGraph) -> dict[str, set[str]]:
    """Node id -> the components whose tags another has (clashes accepted by --lenient),
    which a decoder cannot tell apart, so values holding them cannot round-trip:
    - in a CHOICE, each alternative whose tag an earlier one has (it decodes as that one);
    - in a SET, every component of a clash;
    - in a SEQUENCE, an OPTIONAL or DEFAULT component and each later one it clashes with
      before the next mandatory one (X.680 25's rule), that one included.
    The value generator leaves them out; where one is mandatory, it makes no value."""
    avoid: dict[str, set[str]] = {}
    for node in graph:
        if node.kind not in (Kind.CHOICE, Kind.SET, Kind.SEQUENCE) or \
                node.alias_of is not None:
            continue
        comps = node.components
        tags = [first_tags(graph, c.type, c.tags) for c in comps]
        names: set[str] = set()
        for i, comp in enumerate(comps):
            if node.kind == Kind.CHOICE:
                if any(_clash(tags[i], tags[j]) for j in range(i)):
                    names.add(comp.name)
            elif node.kind == Kind.SET:
                if any(_clash(tags[i], tags[j]) for j in range(len(comps)) if j != i):
                    names.add(comp.name)
            elif not comp.present_always:
                for j in range(i + 1, len(comps)):
                    if _clash(tags[i], tags[j]):
                        names.update((comp.name, comps[j].name))
                    if comps[j].present_always:
                        break
        if names:
            avoid[node.id] = names
    _avoid_unmakeable(graph, avoid)
    return avoid


def _avoid_unmakeable(graph: TypeGraph, avoid: dict[str, set[str]]) -> None:
    """A type that must hold an avoided component has no values; so has one that must hold
    such a type.  Avoid the optional components and alternatives of these types too (the
    value generator would draw nothing from them); the types are avoid[UNMAKEABLE]."""
    unmakeable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in graph:
            if node.alias_of is not None or node.id in unmakeable:
                continue
            if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
                dead = graph.target(node.element.type).id in unmakeable
            elif node.kind in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE):
                names = avoid.setdefault(node.id, set())
                for comp in node.components:
                    if graph.target(comp.type).id in unmakeable and comp.name not in names:
                        names.add(comp.name)
                        changed = True
                if node.kind == Kind.CHOICE:
                    dead = all(c.name in names for c in node.components)
                else:
                    dead = any(c.name in names and c.present_always for c in node.components)
            else:
                continue
            if dead:
                unmakeable.add(node.id)
                changed = True
    avoid[UNMAKEABLE] = unmakeable


def sample(graph: TypeGraph, type_id: str, count: int,
           avoid: Optional[dict[str, set[str]]] = None) -> list[bytes]:
    """`count` DER encodings of values drawn from the type's constraints, without the
    `avoid` components (default: ambiguous_components)."""
    if avoid is None:
        avoid = ambiguous_components(graph)
    if graph.target(type_id).id in avoid.get(UNMAKEABLE, ()):
        raise ValueError("every value holds components a decoder cannot tell apart")
    strategy = ValueStrategies(graph, max_depth=3, avoid=avoid).of(type_id)
    found: list[bytes] = []

    @settings(max_examples=count, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data):
        found.append(encode(graph, type_id, data.draw(strategy)))
    draw()
    return found


def round_trip(converter: Path, type_id: str, messages: Sequence[bytes]) -> Optional[str]:
    """None when the converter writes back every message identically, else why not."""
    result = subprocess.run([str(converter), "-p", type_id, "-o", "der", "-"],
                            input=b"".join(messages), capture_output=True, timeout=300)
    if result.returncode != 0:
        return f"{type_id}: {result.stderr.decode(errors='replace').strip()[:160]}"
    if result.stdout != b"".join(messages):
        return f"{type_id}: re-encoded differently"
    return None


def round_trips(files: Sequence[str], converters: Sequence[Path], count: int,
                check: Optional[Callable[[str, Sequence[bytes]], Optional[str]]] = None) -> str:
    """"ok (T types, V values)", or the first failure.  A type whose values the tests'
    generator or encoder cannot make (tags that clash, accepted by --lenient, make an
    encoding ambiguous) is skipped and counted, with the first reason.  `check`, if
    given, is a further test of each type's messages: None, or why they fail it."""
    graph = api.load(files, lenient=True)
    types = values = 0
    skipped: list[str] = []
    avoid = ambiguous_components(graph)
    for type_id in pdu_like(graph):
        try:
            messages = sample(graph, type_id, count, avoid)
        except Exception as exc:  # noqa: BLE001 - a type the value generator cannot make
            skipped.append(f"{type_id}: {type(exc).__name__}: {str(exc)[:60]}")
            continue
        for converter in converters:
            failure = round_trip(converter, type_id, messages)
            if failure is not None:
                return failure
        failure = check(type_id, messages) if check else None
        if failure is not None:
            return failure
        types += 1
        values += len(messages)
    unmade = f"; {len(skipped)} skipped, first {skipped[0]}" if skipped else ""
    return f"ok ({types} types, {values} values{unmade})"
