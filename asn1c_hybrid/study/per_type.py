"""`study --per-type`: each type compiled alone, to see how far any selection could go.

Every type that occurs in the trace is built compiled alone (everything else interpreted)
and measured on the trace: the instructions it saves per PDU by itself.  Those savings
are set against the cost model's prediction (frequency x saving per value), and a
knapsack over them (the measured savings as values, the cost model's costs as weights,
the same budgets) gives the best selection the measurements allow.  Savings of types
compiled together are not quite the sum of their savings alone (a compiled routine calls
a compiled member's routine directly), so shares here are of the sum of the savings
alone, for the best selection and for the cost model's own.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Mapping, Optional

from ..select.costs import Cost
from ..select.selection import select
from ..typegraph import TypeGraph

CSV_COLUMNS = ["id", "frequency", "cost", "predicted_saving_per_pdu",
               "measured_saving_per_pdu"]


@dataclass(frozen=True)
class TypeSaving:
    id: str
    frequency: float             # values per PDU
    cost: float                  # in the cost model's unit
    predicted: float             # instructions (or units) saved per PDU, the model says
    measured: float              # instructions saved per PDU, compiled alone


@dataclass(frozen=True)
class Best:
    budget_percent: int
    best_share: float            # of the sum of the savings alone: the best selection
    chosen_share: float          # ... the cost model's selection
    best: frozenset


@dataclass
class PerType:
    types: list[TypeSaving]      # by measured saving, highest first
    bests: list[Best]

    def best(self, percent: int) -> Optional[Best]:
        return next((b for b in self.bests if b.budget_percent == percent), None)

    def csv_text(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for t in self.types:
            writer.writerow([t.id, f"{t.frequency:.4f}", f"{t.cost:g}", f"{t.predicted:.1f}",
                             f"{t.measured:.1f}"])
        return out.getvalue()


def per_type(graph: TypeGraph, estimate, costs: Mapping[str, Cost], curve,
             alone: Mapping[str, object], base, messages: int) -> PerType:
    """`alone`: the measurement of each type compiled alone; `base`: all interpreted;
    `curve`: the cost model's selections, whose shares are set beside the best."""
    frequencies = estimate.representation_frequencies(graph)
    measured = {i: (base.instructions - m.instructions) / messages for i, m in alone.items()}
    order = list(costs)
    types = [TypeSaving(i, frequencies.get(i, 0.0), float(costs[i].cost),
                        frequencies.get(i, 0.0) * costs[i].saving, measured.get(i, 0.0))
             for i in order]
    types.sort(key=lambda t: (-t.measured, order.index(t.id)))
    total = sum(max(0.0, t.measured) for t in types)
    values = {t.id: Cost(t.cost, max(0.0, t.measured)) for t in types}
    bests = []
    for point in curve.points:
        chosen = select(graph, {i: 1.0 for i in values}, values, f"{point.budget_percent}%",
                        source="measured alone")
        share = (lambda ids: sum(max(0.0, measured.get(i, 0.0)) for i in ids) / total
                 if total else 0.0)
        bests.append(Best(point.budget_percent, share(chosen.compiled),
                          share(point.compiled), frozenset(chosen.compiled)))
    return PerType(types, bests)
