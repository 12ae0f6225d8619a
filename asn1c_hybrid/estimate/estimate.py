"""What a frequency source hands to the selection: values per message and list lengths.

Both sources (the static estimator and profile files) produce an `Estimate`, so that the
cost model and the knapsack never care where the numbers came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..typegraph import TypeGraph


@dataclass
class Estimate:
    # values per message, for every node, counted under the identifier they occur as
    # (the values of an alias are counted under the alias, not under its target)
    frequencies: dict[str, float]
    # SEQUENCE OF / SET OF nodes that own a representation: elements per value
    items_per_value: dict[str, float] = field(default_factory=dict)
    source: str = "static"                 # "static" or "profile", for messages

    def representation_frequencies(self, graph: TypeGraph) -> dict[str, float]:
        """Values per message of each representation: a node's own values plus the
        values of every alias that resolves to it (they share its C routines)."""
        totals = {node.id: 0.0 for node in graph if node.alias_of is None}
        for node in graph:
            totals[graph.target(node.id).id] += self.frequencies.get(node.id, 0.0)
        return totals
