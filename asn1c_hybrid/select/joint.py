"""Types and layouts under one budget: the knapsack with layout items (docs/layouts.md,
"Chosen by the knapsack"), solved exactly as a small integer program (OR-Tools' SCIP).

x_i = 1 compiles type i, y_j = 1 gives layout j a fast path, e = 1 links the entry that
tries the fast paths (needed by any y_j).  A fast path takes its messages away from the
general path, so a compiled type saves nothing on them: the saving is not additive, and
the product x_i y_j is linearised by z_ij >= x_i + y_j - 1 (z_ij binary; its coefficient
is never positive, so z_ij = x_i y_j at the optimum):

    maximize   sum_i S_i x_i + sum_j (V_j + D f_j) y_j - sum_ij L_ij z_ij - D e
    subject to sum_i c_i x_i + sum_j b_j y_j + E e <= capacity,   e >= y_j

S_i is type i's saving over all messages, V_j layout j's over the all-interpreted path,
L_ij the part of S_i on layout j's messages that the fast path makes moot.  D is what a
message of no chosen layout pays for trying them (the miss cost): once the entry is
linked, every message pays it (D e) except those of the chosen layouts, a share f_j each.
The savings are scaled by a power of two to integers (about 2**24 in all), so that the
objective is integral and its optimum proven exactly; a second solve keeps that saving
and takes the least cost.  One thread, no time limit: the answer is deterministic.
(CP-SAT, tried first, could not prove the optimum of the SNMP example's 92 layouts in a
minute; SCIP's LP bound does it in a fraction of a second.)
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping, Optional, Sequence

from ortools.linear_solver import pywraplp

_RESOLUTION = 2 ** 24            # the total saving, scaled


def solve_joint(types: Sequence[str], type_saving: Mapping[str, float],
                type_cost: Mapping[str, int], layouts: Sequence[str],
                layout_saving: Mapping[str, float], layout_cost: Mapping[str, int],
                entry_cost: int, lost: Mapping[tuple[str, str], float],
                capacity: Fraction, compiled: frozenset[str] = frozenset(),
                miss: float = 0.0, coverage: Optional[Mapping[str, float]] = None
                ) -> tuple[set[str], set[str]]:
    """The types compiled and the layouts given fast paths.  `types` are the free knapsack
    items; `compiled` those forced compiled (their cost is already out of `capacity`, but
    their savings still meet the layouts' in `lost`).  Costs are whole bytes.  `miss` is
    the miss cost per message, `coverage` each layout's share of the messages."""
    total = sum(abs(v) for v in (*type_saving.values(), *layout_saving.values(),
                                 *lost.values(), miss)) or 1.0
    scale = Fraction(2) ** math.floor(math.log2(_RESOLUTION / total))

    def scaled(v: float) -> int:
        return round(Fraction(v) * scale)

    solver = pywraplp.Solver.CreateSolver("SCIP")
    if solver is None:                          # the OR-Tools wheels carry it
        raise RuntimeError("OR-Tools was built without SCIP")
    solver.SetNumThreads(1)
    x = {i: solver.BoolVar(f"x{k}") for k, i in enumerate(types)}
    y = {j: solver.BoolVar(f"y{k}") for k, j in enumerate(layouts)}
    e = solver.BoolVar("entry")
    for j in layouts:
        solver.Add(e >= y[j])
    terms = [(scaled(type_saving[i]), x[i]) for i in types]
    share = coverage or {}
    terms += [(scaled(layout_saving[j] + miss * share.get(j, 0.0)), y[j]) for j in layouts]
    terms.append((-scaled(miss), e))
    for k, ((i, j), amount) in enumerate(sorted(lost.items())):
        if j not in y or scaled(amount) <= 0:
            continue
        if i in compiled:
            terms.append((-scaled(amount), y[j]))
        elif i in x:
            z = solver.BoolVar(f"z{k}")
            solver.Add(z >= x[i] + y[j] - 1)
            terms.append((-scaled(amount), z))
    saving = solver.Sum([c * v for c, v in terms if c])
    weight = solver.Sum([type_cost[i] * x[i] for i in types] +
                        [layout_cost[j] * y[j] for j in layouts] + [entry_cost * e])
    solver.Add(weight <= math.floor(capacity))
    solver.Maximize(saving)
    _solve(solver)
    best = round(solver.Objective().Value())
    solver.Add(saving >= best)                  # the same saving, at the least cost
    solver.Minimize(weight)
    _solve(solver)
    return ({i for i in types if x[i].solution_value() > 0.5},
            {j for j in layouts if y[j].solution_value() > 0.5})


def _solve(solver: "pywraplp.Solver") -> None:
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:       # no time limit is set: cannot happen
        raise RuntimeError(f"the knapsack solver ended with status {status}")
