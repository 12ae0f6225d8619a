"""The selection: which types are compiled, and the table that `explain` prints.

A row's saving is its frequency (values per message) times the time its compiled
routines save per value: the knapsack's value.  Its cost is the code size of compiling it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping, Optional, Union

from ..errors import SelectionError
from ..typegraph import TypeGraph
from . import knapsack
from .budget import Budget, parse_budget
from .costs import UNIT, Cost, is_knapsack_item


# Why a type was left interpreted (docs/selection.md, "Reading explain").
FORCED = "forced"                       # --interpret
NOT_REACHED = "not reached"             # no value of it occurs (frequency 0, or out of the PDUs)
TOO_COSTLY = "too costly for its saving"  # every type compiled saves more per unit of cost
BUDGET_EXHAUSTED = "budget exhausted"   # worth it, but what is left of the budget cannot hold it
REASONS = (FORCED, NOT_REACHED, TOO_COSTLY, BUDGET_EXHAUSTED)


@dataclass(frozen=True)
class Row:
    id: str
    frequency: float          # values per message (aliases included)
    cost: float               # code size of the compiled routines
    saving: float             # frequency x time saved per value
    compiled: bool
    reason: str = ""          # why it was left interpreted (REASONS); "" when compiled


@dataclass
class Selection:
    rows: list[Row]                       # by saving, highest first; ties in spec order
    budget: float                         # the budget in the cost model's unit
    cost_used: float
    cost_all: float                       # of the types the PDUs can hold
    saving: float
    saving_max: float
    unit: str = UNIT                      # "units" or "bytes"
    budget_text: str = ""                 # as asked for: "20%", "1500"
    source: str = "static"                # where the frequencies came from
    forced: dict[str, bool] = field(default_factory=dict)   # id -> compiled, by request
    cost_model: str = "units"             # "measured" or "units"
    fixed_cost: Optional[object] = None   # measured: select.measured.FixedCost
    notes: list[str] = field(default_factory=list)          # warnings for the user

    @property
    def compiled(self) -> set[str]:
        return {row.id for row in self.rows if row.compiled}

    def to_json(self) -> dict:
        fixed = None if self.fixed_cost is None else {
            "runtime": self.fixed_cost.runtime, "tables": self.fixed_cost.tables}
        return {
            "cost_model": self.cost_model, "unit": self.unit,
            "budget": json_number(self.budget), "cost_used": json_number(self.cost_used),
            "cost_all": json_number(self.cost_all), "saving": json_number(self.saving),
            "saving_max": json_number(self.saving_max), "fixed_cost": fixed,
            "types": [{"id": r.id, "frequency": json_number(r.frequency), "cost": json_number(r.cost),
                       "saving": json_number(r.saving), "compiled": r.compiled,
                       "reason": r.reason or None}
                      for r in self.rows],
        }


def json_number(x: Union[int, float, Fraction]) -> Union[int, float]:
    """Integral numbers print as integers; the others as the nearest double."""
    if isinstance(x, Fraction):
        x = float(x) if x.denominator != 1 else int(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        return int(x)
    return x


def _representation(graph: TypeGraph, type_id: str, what: str) -> str:
    if type_id not in graph.nodes:
        raise SelectionError(f"cannot {what} {type_id}: no such type")
    node = graph.target(type_id)
    if not is_knapsack_item(node):
        raise SelectionError(
            f"cannot {what} {type_id}: only SEQUENCE, SET, CHOICE, SEQUENCE OF and SET OF "
            f"types have routines of their own (it is {node.kind.value})")
    return node.id


def select(graph: TypeGraph, frequencies: Mapping[str, float], costs: Mapping[str, Cost],
           budget: Union[str, int, float, Budget], *,
           force_compiled: Iterable[str] = (), force_interpreted: Iterable[str] = (),
           unit: str = UNIT, source: str = "static",
           reachable: Optional[set[str]] = None) -> Selection:
    """Chooses the compiled types: the most saving within the budget (knapsack).

    `frequencies` gives values per message per node; the values of an alias count for
    the type it names.  `costs` has one entry per knapsack item.  `reachable` (the types
    the PDUs can hold, when PDUs are given) limits the items: the others keep their rows,
    "not reached", and no part of the all-compiled cost.  Types forced compiled take
    their cost out of the budget first; forced ones are not in the knapsack.  A budget
    that covers every type compiles every type, even those never seen."""
    budget = parse_budget(budget)
    all_ids = [node.id for node in graph if node.id in costs]
    out_of_reach = [] if reachable is None else [i for i in all_ids if i not in reachable]
    item_ids = [i for i in all_ids if i not in out_of_reach]
    represented: dict[str, float] = {i: 0.0 for i in item_ids}
    for node in graph:
        owner = graph.target(node.id).id
        if owner in represented:
            represented[owner] += frequencies.get(node.id, 0.0)

    forced: dict[str, bool] = {}
    for type_id in force_compiled:
        forced[_representation(graph, type_id, "compile")] = True
    for type_id in force_interpreted:
        owner = _representation(graph, type_id, "interpret")
        if forced.get(owner):
            raise SelectionError(f"{type_id} is asked to be both compiled and interpreted")
        forced[owner] = False

    cost_all = sum(Fraction(costs[i].cost) for i in item_ids)
    capacity = budget.capacity(cost_all)
    free = [i for i in item_ids if i not in forced]
    remaining = max(capacity - sum(Fraction(costs[i].cost) for i in forced if forced[i]), 0)
    if sum(Fraction(costs[i].cost) for i in free) <= remaining:
        take = [True] * len(free)
    else:
        take = knapsack.solve([represented[i] * costs[i].saving for i in free],
                              [costs[i].cost for i in free], remaining)
    compiled = {i for i, t in zip(free, take) if t} | {i for i, c in forced.items() if c}

    represented.update({i: 0.0 for i in out_of_reach})
    cost_used = sum(Fraction(costs[i].cost) for i in compiled)
    why = _reasons(item_ids, out_of_reach, represented, costs, compiled, forced,
                   capacity - cost_used)
    rows = [Row(i, represented[i], costs[i].cost, represented[i] * costs[i].saving,
                i in compiled, why.get(i, "")) for i in all_ids]
    order = {i: k for k, i in enumerate(all_ids)}
    rows.sort(key=lambda r: (-r.saving, order[r.id]))
    return Selection(
        rows=rows, budget=json_number(capacity),
        cost_used=json_number(cost_used), cost_all=json_number(cost_all),
        saving=sum(r.saving for r in rows if r.compiled),
        saving_max=sum(r.saving for r in rows),
        unit=unit, budget_text=str(budget), source=source, forced=forced)


def _reasons(items: list[str], out_of_reach: list[str], frequencies: Mapping[str, float],
             costs: Mapping[str, Cost], compiled: set[str], forced: Mapping[str, bool],
             left: Fraction) -> dict[str, str]:
    """Why each type left interpreted was left: forced; no value of it occurs; or, by
    comparing its saving per unit of cost with the poorest of the types the knapsack
    chose (0 when it chose none), either every chosen type is a better buy ("too costly
    for its saving"), or it would be one but does not fit in what the budget has left."""
    def ratio(i: str) -> float:
        saving = frequencies[i] * costs[i].saving
        return saving / costs[i].cost if costs[i].cost else float("inf")
    chosen = [ratio(i) for i in items if i in compiled and i not in forced]
    poorest = min(chosen) if chosen else 0.0
    reasons: dict[str, str] = {}
    for i in out_of_reach:
        if i not in compiled:
            reasons[i] = FORCED if forced.get(i) is False else NOT_REACHED
    for i in items:
        if i in compiled:
            continue
        if forced.get(i) is False:
            reasons[i] = FORCED
        elif frequencies[i] <= 0:
            reasons[i] = NOT_REACHED
        elif costs[i].saving <= 0 or ratio(i) < poorest or Fraction(costs[i].cost) <= left:
            reasons[i] = TOO_COSTLY
        else:
            reasons[i] = BUDGET_EXHAUSTED
    return reasons
