"""The CSV files of benchmark rows (bench/*.csv): one row per measurement, one column per
field, written by a benchmark and read back to make its section of docs/benchmarks.md."""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Dict, List, Sequence


def write_rows(path: Path, columns: Sequence[str], rows: Sequence[Dict]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_rows(path: Path) -> List[Dict[str, str]]:
    """The rows of a CSV file; none when the benchmark has not written it yet."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))
