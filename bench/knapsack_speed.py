"""How fast the selection's exact knapsack is on specs of thousands of types.

Synthetic instances shaped like real specs: unit costs (figure 3 of the paper: 1 + number
of components), savings equal to cost for SEQUENCE/SET, 2 for CHOICE, 1 + f for lists.
Two families: "spread", frequencies spread over eight orders of magnitude (profiles), and
"static", frequencies from a few values, as the static estimate gives, so that many types
are identical items.  Budgets from 5% to 99%.  Each instance is solved once (the solver
is deterministic) after one warm-up solve.

    .venv/bin/python bench/knapsack_speed.py [--out bench/results/knapsack_speed.json]
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import time
from fractions import Fraction
from pathlib import Path

from asn1c_hybrid.select import knapsack


def spread_instance(n: int, seed: int):
    rnd = random.Random(seed)
    values, weights = [], []
    for _ in range(n):
        kind = rnd.random()
        components = rnd.randint(1, 39)
        frequency = 10 ** rnd.uniform(-4, 4)
        if kind < 0.6:                              # SEQUENCE / SET
            cost, saving = 1 + components, 1 + components
        elif kind < 0.8:                            # CHOICE
            cost, saving = 1 + components, 2
        else:                                       # SEQUENCE OF
            cost, saving = 2, 1 + rnd.choice([0.5, 1, 2, 3, 10])
        values.append(frequency * saving)
        weights.append(cost)
    return values, weights


def static_instance(n: int, seed: int):
    rnd = random.Random(seed)
    values, weights = [], []
    for _ in range(n):
        kind = rnd.random()
        components = rnd.randint(1, 10)
        frequency = (rnd.choice([0.125, 0.25, 0.5, 1, 1.5, 2, 3, 4.5, 6])
                     * rnd.choice([1, 1, 1, 0.5, 0.25]))
        if kind < 0.6:
            cost, saving = 1 + components, 1 + components
        elif kind < 0.8:
            cost, saving = 1 + components, 2
        else:
            cost, saving = 2, 3
        values.append(frequency * saving)
        weights.append(cost)
    return values, weights


FAMILIES = {"spread": spread_instance, "static": static_instance}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" /
                                              "knapsack_speed.json"))
    args = parser.parse_args()
    knapsack.solve(*spread_instance(100, 0), 500)   # warm-up: imports, solver set-up
    runs = []
    for family, make in FAMILIES.items():
        for n in (100, 1000, 2000, 5000, 10000):
            for percent in (5, 20, 50, 80, 95, 99):
                values, weights = make(n, n + percent)
                capacity = Fraction(sum(weights) * percent, 100)
                start = time.perf_counter()
                chosen = knapsack.solve(values, weights, capacity)
                seconds = time.perf_counter() - start
                runs.append({"family": family, "types": n, "budget_percent": percent,
                             "seconds": round(seconds, 4), "compiled": sum(chosen)})
                print(f"{family:6s} {n:6d} types, budget {percent:3d}%: {seconds:.3f} s, "
                      f"{sum(chosen)} compiled")
    result = {"machine": platform.machine(), "python": platform.python_version(),
              "max_seconds": {f"up_to_{n}_types": max(r["seconds"] for r in runs
                                                      if r["types"] <= n)
                              for n in (1000, 5000, 10000)},
              "runs": runs}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
