"""Which types are the messages: `--pdu` names resolved against the type graph."""
from __future__ import annotations

from typing import Sequence

from ..typegraph import Node, TypeGraph


class UnknownTypeError(KeyError):
    def __str__(self) -> str:          # KeyError would quote the message
        return str(self.args[0])


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
