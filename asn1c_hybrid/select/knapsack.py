"""The 0-1 knapsack of the paper's section 4.5, solved exactly with OR-Tools.

    maximize  sum(value_i x_i)  subject to  sum(weight_i x_i) <= capacity,  x_i in {0, 1}

OR-Tools' solvers work on 64-bit integers, so values and weights are scaled to integers,
deterministically (docs/selection.md, "Knapsack"):

- Weights that are all integers (units, bytes) are used as they are and the capacity is
  rounded down: the answer is exact.  Other weights are scaled by a power of two and
  rounded up, the capacity rounded down, so that a selection never exceeds the budget.
- Values are multiplied by a power of two (exact for binary fractions) chosen so that the
  objective below stays under 2**53 and every integer in it is exact in a double.
- Ties: among selections of equal value, the one of least weight wins.  The objective is
  value * K - weight with K larger than the total weight, so any value difference
  outweighs any weight difference.  Among identical items (same value and weight) the
  earlier ones are taken first; other ties go to the solver's deterministic order.
- Identical items are bundled in 1, 2, 4, ... copies before solving, so that branch and
  bound does not explore their permutations (specs have many types of the same shape).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence, Union

from ortools.algorithms.python import knapsack_solver

Number = Union[int, float, Fraction]

_EXACT = 2 ** 53              # integers up to here are exact in a double
_WEIGHT_RESOLUTION = 2 ** 24  # total of non-integral weights after scaling, at most


def _floor_log2(x: Fraction) -> int:
    """floor(log2(x)) for x > 0, exactly: x may lie far outside a double's range."""
    n, d = x.numerator, x.denominator
    k = n.bit_length() - d.bit_length()
    if (n << max(0, -k)) < (d << max(0, k)):
        k -= 1
    return k


def _integral(x: Number) -> bool:
    return isinstance(x, int) or (isinstance(x, Fraction) and x.denominator == 1) or \
        (isinstance(x, float) and x.is_integer())


def _integer_weights(weights: Sequence[Number], capacity: Number) -> tuple[list[int], int]:
    if all(_integral(w) for w in weights):
        return [int(w) for w in weights], math.floor(capacity)
    total = sum(Fraction(w) for w in weights)
    scale = 2 ** max(0, _floor_log2(_WEIGHT_RESOLUTION / total))
    return ([math.ceil(Fraction(w) * scale) for w in weights],
            math.floor(Fraction(capacity) * scale))


def solve(values: Sequence[Number], weights: Sequence[Number],
          capacity: Number) -> list[bool]:
    """Which items to take: exact, least weight among equal values, deterministic."""
    if len(values) != len(weights):
        raise ValueError("values and weights differ in length")
    for x in (*values, *weights, capacity):
        if not (math.isfinite(x) and x >= 0):
            raise ValueError(f"knapsack numbers must be finite and non-negative, not {x!r}")
    chosen = [False] * len(values)
    if not values:
        return chosen
    int_weights, int_capacity = _integer_weights(weights, capacity)

    # Items worth nothing are never taken; those that cost nothing always are.
    candidates = []
    for i, (v, w) in enumerate(zip(values, int_weights)):
        if v <= 0 or w > int_capacity:
            continue
        if w == 0:
            chosen[i] = True
        else:
            candidates.append(i)
    if not candidates:
        return chosen

    big_k = sum(int_weights[i] for i in candidates) + 1
    value_total = sum(Fraction(values[i]) for i in candidates)
    scale = Fraction(2) ** _floor_log2(Fraction(_EXACT // big_k) / value_total)
    int_values = {i: round(Fraction(values[i]) * scale) for i in candidates}
    candidates = [i for i in candidates if int_values[i] > 0]   # below the resolution
    if not candidates:
        return chosen

    # Identical items (same value and weight: common, since many types have the same
    # shape and estimate) make branch and bound explore every permutation of them.  Each
    # group of m identical items becomes items of 1, 2, 4, ... copies (an exact rewriting
    # of the bounded knapsack); the copies taken go to the group's first items.
    groups: dict[tuple[int, int], list[int]] = {}
    for i in candidates:
        groups.setdefault((int_values[i], int_weights[i]), []).append(i)
    bundles: list[tuple[tuple[int, int], int]] = []          # (group key, copies)
    for key, members in groups.items():
        left, size = len(members), 1
        while left:
            take = min(size, left)
            bundles.append((key, take))
            left -= take
            size *= 2

    solver = knapsack_solver.KnapsackSolver(
        knapsack_solver.SolverType.KNAPSACK_MULTIDIMENSION_BRANCH_AND_BOUND_SOLVER,
        "asn1c-hybrid")
    solver.init([copies * (value * big_k - weight) for (value, weight), copies in bundles],
                [[copies * weight for (_, weight), copies in bundles]], [int_capacity])
    solver.solve()
    if not solver.is_solution_optimal():         # no time limit is set: cannot happen
        raise RuntimeError("the knapsack solver stopped before proving optimality")
    taken: dict[tuple[int, int], int] = {}
    for k, (key, copies) in enumerate(bundles):
        if solver.best_solution_contains(k):
            taken[key] = taken.get(key, 0) + copies
    for key, members in groups.items():
        for i in members[:taken.get(key, 0)]:
            chosen[i] = True
    return chosen
