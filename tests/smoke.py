"""The smoke round trip of a specification (test_lenient.py, and `make coverage` on every
Wireshark set): hypothesis-made values of each PDU-like type (the unreferenced SEQUENCE,
SET and CHOICE types) are written in DER by the tests' own encoder (derencode.py), and the
built converters must decode them and write back the identical bytes.
"""
from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Optional, Sequence

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


def clashing_alternatives(graph: TypeGraph) -> dict[str, set[str]]:
    """CHOICE id -> the alternatives whose tag an earlier one has (accepted by --lenient):
    a decoder takes the earlier one, so values of these cannot round-trip."""
    avoid: dict[str, set[str]] = {}
    for node in graph:
        if node.kind != Kind.CHOICE or node.alias_of is not None:
            continue
        taken = set()
        for alternative in node.components:
            first = alternative.tags[:1]
            if first and first in taken:
                avoid.setdefault(node.id, set()).add(alternative.name)
            taken.add(first)
    return avoid


def sample(graph: TypeGraph, type_id: str, count: int) -> list[bytes]:
    """`count` DER encodings of values drawn from the type's constraints."""
    strategy = ValueStrategies(graph, max_depth=3,
                               avoid=clashing_alternatives(graph)).of(type_id)
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


def round_trips(files: Sequence[str], converters: Sequence[Path], count: int) -> str:
    """"ok (T types, V values)", or the first failure.  A type whose values the tests'
    generator or encoder cannot make (tags that clash, accepted by --lenient, make an
    encoding ambiguous) is skipped and counted, with the first reason."""
    graph = api.load(files, lenient=True)
    types = values = 0
    skipped: list[str] = []
    for type_id in pdu_like(graph):
        try:
            messages = sample(graph, type_id, count)
        except Exception as exc:  # noqa: BLE001 - a type the value generator cannot make
            skipped.append(f"{type_id}: {type(exc).__name__}: {str(exc)[:60]}")
            continue
        for converter in converters:
            failure = round_trip(converter, type_id, messages)
            if failure is not None:
                return failure
        types += 1
        values += len(messages)
    unmade = f"; {len(skipped)} skipped, first {skipped[0]}" if skipped else ""
    return f"ok ({types} types, {values} values{unmade})"
