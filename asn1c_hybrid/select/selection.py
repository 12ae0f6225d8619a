"""The selection: which types are compiled, and the table that `explain` prints.

A row's saving is its frequency (values per message) times the time its compiled
routines save per value: the knapsack's value.  Its cost is the code size of compiling it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping, Union

from ..typegraph import TypeGraph
from . import knapsack
from .budget import Budget, parse_budget
from .costs import UNIT, Cost, is_knapsack_item


class SelectionError(ValueError):
    """A request the selection cannot honour (an unknown or unselectable type)."""


@dataclass(frozen=True)
class Row:
    id: str
    frequency: float          # values per message (aliases included)
    cost: float               # code size of the compiled routines
    saving: float             # frequency x time saved per value
    compiled: bool


@dataclass
class Selection:
    rows: list[Row]                       # by saving, highest first; ties in spec order
    budget: float                         # the budget in the cost model's unit
    cost_used: float
    cost_all: float
    saving: float
    saving_max: float
    unit: str = UNIT                      # "units" or "bytes"
    budget_text: str = ""                 # as asked for: "20%", "1500"
    source: str = "static"                # where the frequencies came from
    forced: dict[str, bool] = field(default_factory=dict)   # id -> compiled, by request

    @property
    def compiled(self) -> set[str]:
        return {row.id for row in self.rows if row.compiled}

    def to_json(self) -> dict:
        return {
            "budget": json_number(self.budget), "cost_used": json_number(self.cost_used),
            "cost_all": json_number(self.cost_all), "saving": json_number(self.saving),
            "saving_max": json_number(self.saving_max),
            "types": [{"id": r.id, "frequency": json_number(r.frequency), "cost": json_number(r.cost),
                       "saving": json_number(r.saving), "compiled": r.compiled}
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
           unit: str = UNIT, source: str = "static") -> Selection:
    """Chooses the compiled types: the most saving within the budget (knapsack).

    `frequencies` gives values per message per node; the values of an alias count for
    the type it names.  `costs` has one entry per knapsack item.  Types forced compiled
    take their cost out of the budget first; forced ones are not in the knapsack.  A
    budget that covers every type compiles every type, even those never seen."""
    budget = parse_budget(budget)
    item_ids = [node.id for node in graph if node.id in costs]
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

    rows = [Row(i, represented[i], costs[i].cost, represented[i] * costs[i].saving,
                i in compiled) for i in item_ids]
    order = {i: k for k, i in enumerate(item_ids)}
    rows.sort(key=lambda r: (-r.saving, order[r.id]))
    return Selection(
        rows=rows, budget=json_number(capacity),
        cost_used=json_number(sum(Fraction(r.cost) for r in rows if r.compiled)),
        cost_all=json_number(cost_all),
        saving=sum(r.saving for r in rows if r.compiled),
        saving_max=sum(r.saving for r in rows),
        unit=unit, budget_text=str(budget), source=source, forced=forced)
