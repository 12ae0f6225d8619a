"""What compiling a type costs in code size and saves in time per value.

The unit model is the paper's figure 3 (Hoschka & Huitema, section 4.2 and 4.3): a
composite type's compiled routine takes one unit of code for itself and one for each
component, and saves one interpreter call for itself and one for each component it
converts.

=====================  ==============  ==================
type                   code size cost  time saved / value
=====================  ==============  ==================
SEQUENCE, SET          1 + n           1 + n
CHOICE                 1 + n           2  (one alternative is converted)
SEQUENCE OF, SET OF    2               1 + f
=====================  ==============  ==================

n is the number of components, f the number of elements of a list value, which comes
from the frequency source (the static estimate's expected length, or a profile's mean).

Only constructed types that own a representation are chosen between compiled and
interpreted (docs/architecture.md, "Which types are chosen"): `knapsack_items` lists them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from ..estimate.static import list_items
from ..typegraph import Kind, Node, TypeGraph

UNIT = "units"


@dataclass(frozen=True)
class Cost:
    cost: float          # code size of the compiled routines (units or bytes)
    saving: float        # time saved per value converted by them (units or instructions)


def is_knapsack_item(node: Node) -> bool:
    return node.has_routines


def knapsack_items(graph: TypeGraph) -> list[Node]:
    """The nodes the selection decides on, in definition order."""
    return [node for node in graph if is_knapsack_item(node)]


def unit_costs(graph: TypeGraph,
               items_per_value: Optional[Mapping[str, float]] = None) -> dict[str, Cost]:
    """Figure 3 for every knapsack item.  `items_per_value` gives f for the lists (from
    the frequency source); a list it leaves out gets the static estimator's length."""
    costs: dict[str, Cost] = {}
    for node in knapsack_items(graph):
        if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            f = (items_per_value or {}).get(node.id)
            costs[node.id] = Cost(2, 1 + (list_items(node) if f is None else f))
        elif node.kind == Kind.CHOICE:
            costs[node.id] = Cost(1 + len(node.components), 2)
        else:
            n = len(node.components)
            costs[node.id] = Cost(1 + n, 1 + n)
    return costs
