"""The trace study (`asn1c-hybrid study`, `make demo`): what the hybrid buys on real
traffic, measured (docs/study.md).

Hoschka and Huitema (section 4.5) ran their knapsack on X.400 P1 with the frequencies of
an 18-message trace and found that compiling 20% of the code reached about 50% of the
maximal speed-up, in their unit model.  The study does it measured:

1. each trace's profile (a shipped one from profiles/, or made by replay);
2. for each budget and cost model, the knapsack's selection, generated, built and
   measured on the trace: callgrind counts the instructions of decoding and freeing,
   and of DER-encoding, every PDU; the linker map gives the code bytes (measure/);
3. study.csv per trace and cost model, report.md and the figures.

| module | concept |
| --- | --- |
| `results.py` | points, curves and the paper's constants |
| `run.py` | the run: profile, select, build, measure |
| `per_type.py` | `--per-type`: each type compiled alone, and the best selection possible |
| `plots.py` | the figures |
| `report.py` | study.csv, selections.json and report.md |
"""
from __future__ import annotations

from pathlib import Path

from ..typegraph import TypeGraph
from .plots import require_matplotlib
from .report import write_outputs
from .run import DEFAULT_PDU, StudyOptions, default_example, parse_budgets, run

__all__ = ["DEFAULT_PDU", "StudyOptions", "default_example", "parse_budgets", "study"]


def study(graph: TypeGraph, options: StudyOptions) -> list[Path]:
    """Runs the study and writes its outputs; returns the files written."""
    require_matplotlib()
    results, calibration, calibration_file = run(graph, options)
    return write_outputs(graph, options, results, calibration, calibration_file)
