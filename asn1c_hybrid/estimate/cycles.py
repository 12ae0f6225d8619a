"""Recursive cycles of the occurrence graph: the growth rate (spectral radius) of the
expected counts around them (the cycles themselves: typegraph.strongly_connected_components)."""
from __future__ import annotations

from typing import Callable, Mapping, Optional, Sequence


def spectral_radius(nodes: Sequence[str], matrix: Mapping[str, Mapping[str, float]],
                    tolerance: float = 1e-13, max_iterations: int = 100_000,
                    start: Optional[dict[str, float]] = None) -> float:
    """Spectral radius of a non-negative matrix ({row: {column: weight}}) whose graph is
    strongly connected.

    Power iteration on M + I, which is primitive (irreducible with a positive diagonal),
    so it converges even when the cycles of M have a common period.  The Collatz-Wielandt
    bounds min/max (Bx)_i / x_i enclose the radius of B at every step; the upper bound is
    returned, so that an unfinished iteration errs on the safe side (more damping).
    `start`, a positive vector (e.g. the eigenvector of a nearby matrix), is updated in
    place with the eigenvector found, so that a sequence of close matrices is quick."""
    x = start if start is not None else {v: 1.0 for v in nodes}
    upper = 0.0
    for _ in range(max_iterations):
        # y = (M + I) x, with M[v][w] the weight of the edge v -> w; the radius of M and
        # of its transpose are equal, so rows or columns alike will do
        y = {v: x[v] + sum(weight * x[w] for w, weight in matrix[v].items()) for v in nodes}
        ratios = [y[v] / x[v] for v in nodes]
        lower, upper = min(ratios), max(ratios)
        norm = max(y.values())
        for v in nodes:
            x[v] = y[v] / norm
        if upper - lower <= tolerance * upper:
            break
    return max(upper - 1.0, 0.0)
