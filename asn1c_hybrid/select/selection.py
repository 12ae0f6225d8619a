"""The selection: which types are compiled, and the table that `explain` prints.

A row's saving is its frequency (values per message) times the time its compiled
routines save per value: the knapsack's value.  Its cost is the code size of compiling it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Mapping, Optional, Union

from ..errors import SelectionError
from ..layouts import Layout as MessageLayout
from ..typegraph import TypeGraph
from . import knapsack
from .budget import Budget, parse_budget
from .costs import UNIT, Cost, is_knapsack_item
from .joint import solve_joint

if TYPE_CHECKING:
    from .layout_costs import LayoutCosts


# Why a type was left interpreted (docs/selection.md, "Reading explain").
FORCED = "forced"                       # --interpret
NOT_REACHED = "not reached"             # no value of it occurs (frequency 0, or out of the PDUs)
TOO_COSTLY = "too costly for its saving"  # every type compiled saves more per unit of cost
BUDGET_EXHAUSTED = "budget exhausted"   # worth it, but what is left of the budget cannot hold it
REASONS = (FORCED, NOT_REACHED, TOO_COSTLY, BUDGET_EXHAUSTED)
NO_SAVING = "saves nothing over the general path"   # a layout (its fast path is no faster)


@dataclass(frozen=True)
class Row:
    id: str
    frequency: float          # values per message (aliases included)
    cost: float               # code size of the compiled routines
    saving: float             # frequency x time saved per value
    compiled: bool
    reason: str = ""          # why it was left interpreted (REASONS); "" when compiled


@dataclass(frozen=True)
class LayoutRow:
    """A candidate layout of the PDU (docs/layouts.md, "Chosen by the knapsack")."""
    layout: MessageLayout     # as the profile has it
    coverage: float           # share of the profile's messages with this layout
    cost: float               # bytes of its fast paths (decoding and encoding)
    saving: float             # instructions per message it saves, beside the types chosen
    chosen: bool
    reason: str = ""          # why it was left out; "" when chosen

    @property
    def id(self) -> str:
        return self.layout.id


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
    layouts: list[LayoutRow] = field(default_factory=list)  # candidate layouts, if measured
    layout_pdu: str = ""                  # the PDU type they are layouts of
    layout_entry: float = 0               # bytes of the entries that try the fast paths
    layout_miss: float = 0                # instructions a message of no chosen layout pays
    layout_form: str = ""                 # of the candidate layouts: "exact" or "slot"
    layout_forms: dict[str, float] = field(default_factory=dict)  # form -> its best saving

    @property
    def chosen_layouts(self) -> list[MessageLayout]:
        """The layouts given fast paths, most frequent first."""
        return [row.layout for row in sorted(self.layouts, key=lambda r: -r.coverage)
                if row.chosen]

    @property
    def compiled(self) -> set[str]:
        return {row.id for row in self.rows if row.compiled}

    def to_json(self) -> dict:
        fixed = None if self.fixed_cost is None else {
            "runtime": self.fixed_cost.runtime, "tables": self.fixed_cost.tables}
        out = {
            "cost_model": self.cost_model, "unit": self.unit,
            "budget": json_number(self.budget), "cost_used": json_number(self.cost_used),
            "cost_all": json_number(self.cost_all), "saving": json_number(self.saving),
            "saving_max": json_number(self.saving_max), "fixed_cost": fixed,
            "types": [{"id": r.id, "frequency": json_number(r.frequency), "cost": json_number(r.cost),
                       "saving": json_number(r.saving), "compiled": r.compiled,
                       "reason": r.reason or None}
                      for r in self.rows],
        }
        if self.layout_pdu:
            out["layouts"] = {
                "pdu": self.layout_pdu, "form": self.layout_form,
                "saving_by_form": {f: json_number(v) for f, v in self.layout_forms.items()},
                "entry_cost": json_number(self.layout_entry),
                "miss_cost": json_number(self.layout_miss),
                "candidates": [{"id": r.id, "layout": r.layout.text,
                                "coverage": json_number(r.coverage),
                                "cost": json_number(r.cost), "saving": json_number(r.saving),
                                "chosen": r.chosen, "reason": r.reason or None}
                               for r in self.layouts]}
        return out


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
           reachable: Optional[set[str]] = None,
           layouts: Optional["LayoutCosts"] = None) -> Selection:
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
    model = None if layouts is None else _LayoutModel(layouts, costs, item_ids)
    everything = sum(Fraction(costs[i].cost) for i in free)
    if model is not None and model.usable and everything + model.all_cost <= remaining:
        # room for every type and every layout that saves beside them all (if together
        # they save more than the misses of the other messages cost)
        take, picked = [True] * len(free), set(model.worth_with_all)
        if model.net(set(item_ids), picked) <= 0:
            picked = set()
    elif model is not None and model.usable:
        chosen, picked = solve_joint(
            free, {i: represented[i] * costs[i].saving for i in free},
            {i: int(costs[i].cost) for i in free}, model.usable, model.saving,
            model.cost, model.entry, model.lost, remaining,
            frozenset(i for i, c in forced.items() if c), model.miss, model.coverage)
        take = [i in chosen for i in free]
    elif everything <= remaining:
        take, picked = [True] * len(free), set()
    else:
        take = knapsack.solve([represented[i] * costs[i].saving for i in free],
                              [costs[i].cost for i in free], remaining)
        picked = set()
    compiled = {i for i, t in zip(free, take) if t} | {i for i, c in forced.items() if c}

    represented.update({i: 0.0 for i in out_of_reach})
    cost_used = sum(Fraction(costs[i].cost) for i in compiled)
    if picked:
        cost_used += sum(Fraction(model.cost[j]) for j in picked) + model.entry
    rows = [Row(i, represented[i], costs[i].cost, represented[i] * costs[i].saving,
                i in compiled, "") for i in all_ids]
    layout_rows = [] if model is None else model.rows(compiled, picked)
    why = _reasons(rows, layout_rows, out_of_reach, forced, capacity - cost_used)
    rows = [replace(r, reason=why.get(r.id, "")) for r in rows]
    layout_rows = [replace(r, reason=r.reason or why.get(r.id, "")) for r in layout_rows]
    order = {i: k for k, i in enumerate(all_ids)}
    rows.sort(key=lambda r: (-r.saving, order[r.id]))
    saving_max = sum(r.saving for r in rows)
    if model is not None:
        saving_max += max(0.0, model.net(set(item_ids), set(model.worth_with_all)))
    return Selection(
        rows=rows, budget=json_number(capacity),
        cost_used=json_number(cost_used), cost_all=json_number(cost_all),
        saving=sum(r.saving for r in rows if r.compiled) +
        (model.net(compiled, picked) if picked else 0.0),
        saving_max=saving_max, unit=unit, budget_text=str(budget), source=source,
        forced=forced, layouts=layout_rows, layout_pdu="" if layouts is None else layouts.pdu,
        layout_entry=0 if model is None else model.entry,
        layout_miss=0 if model is None else model.miss,
        layout_form="" if layouts is None else layouts.form)


class _LayoutModel:
    """The layouts' numbers for the joint knapsack (select/joint.py), from their
    measurements and the types' calibrated savings.

    A message of layout j that its fast paths decode and encode saves V_j = f_j
    (interpreted_j - fast_j) over the all-interpreted general path, less, for every type i
    compiled, L_ij = f_j rho_j s_i v_ij: its calibrated saving s_i on the v_ij values in
    the message, which the fast paths make moot.  rho_j = (interpreted_j - compiled_j) /
    sum_i s_i v_ij (at most 1) scales the calibrated savings to the ones measured on the
    message (less than all of them where the layout has no encoding path), so that with
    every type compiled the fast paths save their measured compiled_j - fast_j exactly.
    Once any layout is chosen, every message of no chosen layout pays the miss cost D."""

    def __init__(self, layouts: "LayoutCosts", costs: Mapping[str, Cost], items: list[str]):
        self.items = layouts.items
        self.entry = layouts.entry
        self.miss = layouts.miss
        self.coverage = {it.id: it.frequency for it in self.items}
        self.saving: dict[str, float] = {}
        self.cost: dict[str, int] = {}
        self.lost: dict[tuple[str, str], float] = {}
        for it in self.items:
            if it.unusable:
                continue
            calibrated = sum(costs[i].saving * v for i, v in it.values.items() if i in costs)
            measured = it.interpreted - it.compiled
            rho = min(1.0, measured / calibrated) if calibrated > 0 and measured > 0 else 0.0
            self.saving[it.id] = it.frequency * (it.interpreted - it.fast)
            self.cost[it.id] = it.bytes
            for i, v in it.values.items():
                if i in items and costs[i].saving > 0:
                    self.lost[(i, it.id)] = it.frequency * rho * costs[i].saving * v
        self.usable = [it.id for it in self.items if it.id in self.saving
                       and self.saving[it.id] > 0]
        self.worth_with_all = [r.id for r in self.rows(set(items), set()) if r.saving > 0
                               and r.id in self.usable]
        self.all_cost = sum(self.cost[j] for j in self.worth_with_all) + \
            (self.entry if self.worth_with_all else 0)

    def net(self, compiled: set[str], chosen: set[str]) -> float:
        """What the layouts `chosen` save per message beside the types `compiled`, less
        the misses of the other messages."""
        rows = [r for r in self.rows(compiled, chosen) if r.chosen]
        return sum(r.saving for r in rows) - self.miss * (1 - sum(r.coverage for r in rows))

    def rows(self, compiled: set[str], chosen: set[str]) -> list[LayoutRow]:
        out = []
        for it in self.items:
            saving = self.saving.get(it.id, 0.0) - sum(
                amount for (i, j), amount in self.lost.items() if j == it.id and i in compiled)
            reason = it.unusable or ("" if it.id in chosen or saving > 0 else NO_SAVING)
            out.append(LayoutRow(it.layout, it.frequency, it.bytes,
                                 saving if not it.unusable else 0.0, it.id in chosen, reason))
        return out


def _reasons(rows: list[Row], layout_rows: list[LayoutRow], out_of_reach: list[str],
             forced: Mapping[str, bool], left: Fraction) -> dict[str, str]:
    """Why each type left interpreted (and each layout left out) was left: forced; no
    value of it occurs; or, by comparing its saving per unit of cost with the poorest of
    the items the knapsack chose (0 when it chose none), either every chosen item is a
    better buy ("too costly for its saving"), or it would be one but does not fit in what
    the budget has left."""
    def ratio(saving: float, cost: float) -> float:
        return saving / cost if cost else float("inf")
    chosen = [ratio(r.saving, r.cost) for r in rows if r.compiled and r.id not in forced]
    chosen += [ratio(r.saving, r.cost) for r in layout_rows if r.chosen]
    poorest = min(chosen) if chosen else 0.0
    reasons: dict[str, str] = {}
    for r in rows:
        if r.compiled:
            continue
        if forced.get(r.id) is False:
            reasons[r.id] = FORCED
        elif r.id in out_of_reach or r.frequency <= 0:
            reasons[r.id] = NOT_REACHED
    candidates = [(r.id, r.saving, r.cost) for r in rows
                  if not r.compiled and r.id not in reasons]
    candidates += [(r.id, r.saving, r.cost) for r in layout_rows
                   if not r.chosen and not r.reason]
    for key, saving, cost in candidates:
        if saving <= 0 or ratio(saving, cost) < poorest or Fraction(cost) <= left:
            reasons[key] = TOO_COSTLY
        else:
            reasons[key] = BUDGET_EXHAUSTED
    return reasons
