#!/usr/bin/env python3
"""Layout coverage: how much of held-out traffic the layouts learnt from training traffic
cover (Blackwell's templates, `asn1c_hybrid/layouts.py`).

    python bench/layouts.py         (part of `make bench`)

For each trace, the layouts are learnt from its first half (the examples' first capture
round; X.400's first 1,000 PDUs) exactly as `asn1c-hybrid profile` learns them, and
measured on the second half, which shares no message with the first.  Both forms are
measured: exact layouts, and slot layouts (a TLV whose length varied among the training
messages of its shape matches any length).  Written to bench/layouts.csv and to the
section "Layout coverage" of docs/benchmarks.md.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Tuple

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH))

import corpora  # noqa: E402
from rows import read_rows, write_rows  # noqa: E402

from asn1c_hybrid.layouts import FORMS, LIMIT, coverage, learn, parse  # noqa: E402

CSV = BENCH / "layouts.csv"
COLUMNS = ["trace", "training", "held_out", "form", "layouts", "top", "training_coverage",
           "held_out_coverage"]
TOPS = (1, 10, 50, LIMIT)


def traces() -> List[Tuple[str, List[bytes], int]]:
    """(name, PDUs, where the held-out half starts) of every example trace."""
    out = []
    for example in ("snmp", "ldap"):
        trace = REPO / "examples" / example / "trace.ber"
        split = json.loads(trace.with_suffix(".json").read_text())["second_round_from"]
        out.append((f"{example} (examples/{example}/trace.ber)",
                    corpora.split_pdus(trace.read_bytes()), split))
    x400 = corpora.split_pdus((REPO / "examples" / "x400" / "traces" / "trace-2000.ber").read_bytes())
    out.append(("X.400 P1 (trace-2000)", x400, len(x400) // 2))
    return out


def measure() -> List[dict]:
    rows = []
    for name, pdus, split in traces():
        training = [parse(p) for p in pdus[:split]]
        held_out = [parse(p) for p in pdus[split:]]
        for form in FORMS:
            learnt = learn(training, form)
            for top in TOPS:
                chosen = learnt[:top]
                rows.append({"trace": name, "training": len(training),
                             "held_out": len(held_out), "form": form,
                             "layouts": len(learnt), "top": top,
                             "training_coverage": f"{coverage(chosen, training):.4f}",
                             "held_out_coverage": f"{coverage(chosen, held_out):.4f}"})
    return rows


def layouts_table(path: Path = CSV) -> List[str]:
    """The section of docs/benchmarks.md, from bench/layouts.csv."""
    rows = read_rows(path)
    if not rows:
        return []
    lines = ["## Layout coverage", "",
             "Written by `bench/layouts.py` (`make bench`).  Layouts (the identifier and "
             "length octets of every TLV, Blackwell's templates) are learnt from the first "
             "half of each trace as `asn1c-hybrid profile` learns them (seen at least twice, "
             f"at most {LIMIT} per form) and measured on the second half, which shares no "
             "message with the first.  The SNMP and LDAP traces are real traffic captured "
             "on loopback (`examples/snmp`, `examples/ldap`); X.400's is the study's "
             "synthetic trace-2000.  A *slot* layout leaves a TLV's length open where it "
             "varied among the training messages of the same shape.", "",
             "| trace | form | layouts learnt | share of held-out messages covered by the "
             + " / ".join(f"top {t}" for t in TOPS) + " |",
             "| --- | --- | ---: | ---: |"]
    for trace, form in dict.fromkeys((r["trace"], r["form"]) for r in rows):
        mine = [r for r in rows if r["trace"] == trace and r["form"] == form]
        shares = " / ".join(f"{100 * float(r['held_out_coverage']):.1f}%" for r in mine)
        first = mine[0]
        lines.append(f"| {trace}: {first['training']} + {first['held_out']} | {form} | "
                     f"{first['layouts']} | {shares} |")
    return lines + [""]


def main() -> None:
    rows = measure()
    write_rows(CSV, COLUMNS, rows)
    print("\n".join(layouts_table()))


if __name__ == "__main__":
    main()
