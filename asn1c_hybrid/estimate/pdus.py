"""Which types are the messages: `--pdu` names resolved against the type graph."""
from __future__ import annotations

from typing import Sequence

from ..errors import UnknownTypeError
from ..typegraph import Node, TypeGraph
from .static import references


def resolve_type(graph: TypeGraph, name: str) -> Node:
    """`Module.Type` (or any node identifier), or a type name unique across the modules."""
    if name in graph.nodes:
        return graph[name]
    matches = [n for n in graph if not n.is_anonymous and n.name == name]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UnknownTypeError(f"type {name} is ambiguous: "
                               + ", ".join(n.id for n in matches))
    raise UnknownTypeError(f"no type {name} in the specification")


def resolve_pdus(graph: TypeGraph, names: Sequence[str]) -> list[Node]:
    """The named PDUs, or when none is named the types no other type refers to
    (`TypeGraph.roots`)."""
    if not names:
        return graph.roots()
    return list({n.id: n for n in (resolve_type(graph, name) for name in names)}.values())


def reachable_items(graph: TypeGraph, pdus: Sequence[str]) -> set[str]:
    """The knapsack items a value of the PDUs can hold (members, elements, alternatives,
    open types with a table, contained types), transitively.  The others never occur in
    their traffic and the linker drops their routines, so they are no part of the code
    cost a budget is a share of."""
    seen, stack = set(), list(pdus)
    while stack:
        node_id = stack.pop()
        if node_id in seen:
            continue
        seen.add(node_id)
        stack += [ref.target for ref in references(graph, graph[node_id])]
        stack.append(graph.target(node_id).id)
    return {i for i in seen if graph[i].has_routines}
