"""The study's results: a curve of measured points per trace and cost model, and the
constants of the paper's experiment they are compared with."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Optional

from ..measure.program import Measurement, Program

DEFAULT_BUDGETS = (0, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100)
KNEE = 20                       # the paper's point: 20% of the code cost
PAPER_SHARE_AT_KNEE = 0.5       # ... reached about 50% of the maximal saving
TARGET_SHARE_AT_KNEE = 0.75     # the project's target, measured
CSV_COLUMNS = ["budget_percent", "code_bytes", "instructions", "saving_fraction_measured",
               "saving_fraction_model"]
COST_MODELS = ("measured", "units")


@dataclass
class Point:
    budget_percent: int
    compiled: frozenset
    model_saving: float          # the selection's saving in the cost model's unit
    model_saving_max: float
    cost_used: float
    cost_all: float
    program: Optional[Program] = None
    code_bytes: int = 0
    measurement: Optional[Measurement] = None

    @property
    def saving_fraction_model(self) -> float:
        return self.model_saving / self.model_saving_max if self.model_saving_max else 0.0


@dataclass
class Curve:
    """One trace under one cost model: a point per budget."""
    cost_model: str
    points: list[Point]

    def instructions(self, point: Point) -> int:
        return point.measurement.instructions

    def saving_fraction_measured(self, point: Point) -> float:
        first, last = self.points[0], self.points[-1]
        span = self.instructions(first) - self.instructions(last)
        return (self.instructions(first) - self.instructions(point)) / span if span else 0.0

    def at(self, percent: int) -> Optional[Point]:
        return next((p for p in self.points if p.budget_percent == percent), None)

    def csv_text(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for p in self.points:
            writer.writerow([p.budget_percent, p.code_bytes, self.instructions(p),
                             f"{self.saving_fraction_measured(p):.4f}",
                             f"{p.saving_fraction_model:.4f}"])
        return out.getvalue()


@dataclass
class TraceResult:
    name: str                    # the trace's file name without its extension
    shown_path: str              # as the report names it
    messages: int
    trace_bytes: int
    curves: dict[str, Curve] = field(default_factory=dict)
    per_type: Optional[object] = None    # per_type.PerType, with --per-type
