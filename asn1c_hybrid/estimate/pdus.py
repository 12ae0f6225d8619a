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


def reachable_nodes(graph: TypeGraph, pdus: Sequence[str]) -> set[str]:
    """Every node a value of the PDUs can involve (members, elements, alternatives, open
    types with a table, contained types, the aliases followed on the way), transitively."""
    seen, stack = set(), list(pdus)
    while stack:
        node_id = stack.pop()
        if node_id in seen:
            continue
        seen.add(node_id)
        stack += [ref.target for ref in references(graph, graph[node_id])]
        stack += graph.successors(node_id)
    return seen


def reachable_items(graph: TypeGraph, pdus: Sequence[str]) -> set[str]:
    """The knapsack items a value of the PDUs can hold.  The others never occur in their
    traffic and are not emitted (`emitted_graph`), so they are no part of the code cost a
    budget is a share of."""
    return {i for i in reachable_nodes(graph, pdus) if graph[i].has_routines}


def emitted_graph(graph: TypeGraph, pdus: Sequence[str], also: Sequence[str] = ()) -> TypeGraph:
    """The part of `graph` a build for the PDUs needs: the types their values can involve,
    the types named in `also` (forced ones) and the types of the value assignments, with
    what those involve.  Everything else would only be linked in (the spec's one table
    object refers to every routine) without ever being run."""
    keep = reachable_nodes(graph, [*pdus, *also, *(v.type for v in graph.values.values())])
    return graph.restricted_to(keep)
