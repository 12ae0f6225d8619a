"""The static estimate: how many values of each type one message holds, from the spec alone.

Hoschka's estimator counts how often each type is referenced by other types.  Here a
reference is weighted by how many values it contributes per value of the referencing type,
and the counts flow down from the PDUs, so that the result is the *expected number of
values per message* of every node.  A message is one of the PDUs, each equally likely.

Weights of a reference (docs/selection.md explains the choices):

==============================  ================================================
mandatory SEQUENCE/SET member   1
OPTIONAL or DEFAULT member,     PRESENT_OPTIONAL (one value in two)
extension addition
CHOICE alternative              1/k for a CHOICE of k alternatives (uniform)
SEQUENCE OF / SET OF element    the expected number of elements: ITEMS_PER_LIST
                                clamped into the SIZE constraint
open type with a table          1/m for each of its m table entries
CONTAINING T                    1
==============================  ================================================

An alias (``Other ::= Type``, or a tagged ``[1] Type``) holds Type's members directly:
its values are counted under the alias, and the selection adds them to Type's, whose
routines convert them.

Recursion: inside a recursive cycle (a strongly connected component) the weights of the
uncertain references (optional, alternative, repeated) are scaled down by one common
factor until the expected counts grow by at most RECURSION_GAIN per step around the
cycle (the spectral radius of the cycle's weights).  The expected number of values then
stays finite, and falls geometrically with the nesting depth.  Certain references keep
their weight, so that every value still has each of its mandatory members.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from ..typegraph import Kind, Node, TypeGraph
from ..typegraph import strongly_connected_components
from .cycles import spectral_radius
from .estimate import Estimate

PRESENT_OPTIONAL = 0.5
ITEMS_PER_LIST = 2.0
RECURSION_GAIN = 0.5

_LISTS = (Kind.SEQUENCE_OF, Kind.SET_OF)
_CONVERGED = 1e-15


@dataclass(frozen=True)
class Reference:
    """One edge of the occurrence graph: each value of the source holds `weight` values
    of `target` on average.  `certain` references (a mandatory member, an alias) hold
    exactly one; the others are the ones scaled down in recursive cycles."""
    target: str
    weight: float
    certain: bool


def list_items(node: Node) -> float:
    """Expected elements of a SEQUENCE OF / SET OF value: ITEMS_PER_LIST within its SIZE."""
    items = ITEMS_PER_LIST
    size = node.constraints.size
    if size is not None:
        if size.lower is not None:
            items = max(items, float(size.lower))
        if size.upper is not None:
            items = min(items, float(size.upper))
    return items


def references(graph: TypeGraph, node: Node) -> list[Reference]:
    """The weighted references out of one value of `node` (see the module's table)."""
    # an alias's values are counted under the alias; their contents are its target's
    node = graph.target(node.id)
    out: list[Reference] = []
    if node.kind in _LISTS and node.element is not None:
        out.append(Reference(node.element.type, list_items(node), False))
    elif node.kind == Kind.CHOICE:
        if node.components:
            share = 1.0 / len(node.components)
            certain = len(node.components) == 1
            out.extend(Reference(c.type, share, certain) for c in node.components)
    else:
        for comp in node.components:
            if comp.present_always:
                out.append(Reference(comp.type, 1.0, True))
            else:
                out.append(Reference(comp.type, PRESENT_OPTIONAL, False))
    if node.open_type is not None and node.open_type.table:
        share = 1.0 / len(node.open_type.table)
        for target in node.open_type.table.values():
            out.append(Reference(target, share, False))
    if node.contained is not None:
        out.append(Reference(node.contained, 1.0, True))
    return out


def _pdu_ids(graph: TypeGraph, pdus: Optional[Iterable[Union[str, Node]]]) -> list[str]:
    if pdus is None:
        chosen = [n.id for n in graph.roots()]
    else:
        chosen = [p.id if isinstance(p, Node) else p for p in pdus]
    unknown = [p for p in chosen if p not in graph.nodes]
    if unknown:
        raise KeyError(f"unknown PDU type {unknown[0]!r}")
    return list(dict.fromkeys(chosen))          # duplicates once, order kept


def _cycle_matrix(component: list[str], edges: dict[str, list[Reference]],
                  certain_scale: float, uncertain_scale: float) -> dict[str, dict[str, float]]:
    inside = set(component)
    matrix: dict[str, dict[str, float]] = {v: defaultdict(float) for v in component}
    for v in component:
        for ref in edges[v]:
            if ref.target in inside:
                scale = certain_scale if ref.certain else uncertain_scale
                matrix[v][ref.target] += ref.weight * scale
    return matrix


def _damping(component: list[str], edges: dict[str, list[Reference]]) -> tuple[float, float]:
    """The factors (certain, uncertain) for the references inside one recursive cycle."""
    eigenvector = {v: 1.0 for v in component}

    def radius(certain: float, uncertain: float) -> float:
        matrix = _cycle_matrix(component, edges, certain, uncertain)
        return spectral_radius(component, matrix, start=eigenvector)

    full = radius(1.0, 1.0)
    if full <= RECURSION_GAIN:
        return 1.0, 1.0
    inside = set(component)

    def certain_successors(v: str) -> list[str]:
        return [r.target for r in edges[v] if r.certain and r.target in inside]

    certain_cycles = [c for c in strongly_connected_components(component, certain_successors)
                      if len(c) > 1 or c[0] in certain_successors(c[0])]
    if certain_cycles:
        # a cycle of certain references: no finite value exists (the front end warns);
        # scale every reference alike so that the estimate stays finite all the same
        return RECURSION_GAIN / full, RECURSION_GAIN / full
    # The certain references alone form no cycle (radius 0), so a factor in (0, 1) gives
    # the gain exactly: find it by bisection, the radius growing with the factor.
    low, high = 0.0, 1.0
    for _ in range(50):
        middle = (low + high) / 2
        if radius(1.0, middle) > RECURSION_GAIN:
            high = middle
        else:
            low = middle
    return 1.0, low


def _is_cycle(component: list[str], edges: dict[str, list[Reference]]) -> bool:
    return len(component) > 1 or any(r.target == component[0] for r in edges[component[0]])


def static_estimate(graph: TypeGraph,
                    pdus: Optional[Iterable[Union[str, Node]]] = None) -> Estimate:
    """Expected values per message of every node, and elements per list value."""
    pdu_ids = _pdu_ids(graph, pdus)
    edges = {node.id: references(graph, node) for node in graph}

    # Scale the references inside each recursive cycle (module doc).
    scaled: dict[str, list[Reference]] = dict(edges)
    components = strongly_connected_components(
        list(graph.nodes), lambda v: [r.target for r in edges[v]])
    for component in components:
        if not _is_cycle(component, edges):
            continue
        inside = set(component)
        certain, uncertain = _damping(component, edges)
        for v in component:
            scaled[v] = [
                Reference(r.target, r.weight * (certain if r.certain else uncertain), r.certain)
                if r.target in inside else r
                for r in edges[v]]

    # Push the expected counts down the cycles' condensation, in topological order.
    inflow: dict[str, float] = defaultdict(float)
    for pdu in pdu_ids:
        inflow[pdu] += 1.0 / len(pdu_ids)
    frequencies: dict[str, float] = {}
    for component in reversed(components):          # Tarjan yields sinks first
        inside = set(component)
        if _is_cycle(component, edges):
            values = _solve_cycle(component, scaled, inflow)
        else:
            values = {v: inflow[v] for v in component}
        for v in component:
            frequencies[v] = values[v]
            for ref in scaled[v]:
                if ref.target not in inside:
                    inflow[ref.target] += values[v] * ref.weight

    items = {}
    for node in graph:
        if node.kind in _LISTS and node.alias_of is None and node.element is not None:
            items[node.id] = sum(r.weight for r in scaled[node.id]
                                 if r.target == node.element.type)
    ordered = {node.id: frequencies[node.id] for node in graph}
    return Estimate(ordered, items, "static")


def _solve_cycle(component: list[str], edges: dict[str, list[Reference]],
                 inflow: dict[str, float]) -> dict[str, float]:
    """f = inflow + W^T f inside one cycle (Gauss-Seidel; W's radius is at most
    RECURSION_GAIN, so each sweep shrinks the error at least by half)."""
    inside = set(component)
    incoming: dict[str, list[tuple[str, float]]] = {v: [] for v in component}
    for v in component:
        for ref in edges[v]:
            if ref.target in inside:
                incoming[ref.target].append((v, ref.weight))
    values = {v: inflow[v] for v in component}
    for _ in range(10_000):
        change = 0.0
        for v in component:
            new = inflow[v] + sum(values[u] * w for u, w in incoming[v])
            change = max(change, abs(new - values[v]))
            values[v] = new
        if change <= _CONVERGED * max(1.0, max(values.values())):
            break
    return values


def static_frequencies(graph: TypeGraph,
                       pdus: Optional[Iterable[Union[str, Node]]] = None) -> dict[str, float]:
    """Expected values per message of every node (module doc); pdus default to the roots."""
    return static_estimate(graph, pdus).frequencies
