#!/usr/bin/env python3
"""Types only, against types and layouts, at the same budgets (docs/layouts.md, "Chosen by
the knapsack").

    python bench/layout_budget.py       (part of `make bench`)

For the real traces of examples/snmp and examples/ldap, and the synthetic X.400 trace
(trace-2000), the profile (type counts and layouts) is made from the first half of the
trace.  At budgets of 10%, 20% and 40% of the all-compiled cost, the hybrid build is made
twice with the measured cost model: types only, and with `--layouts auto` (the layouts
of the profile are knapsack items beside the types, exact and slot ones each in a knapsack
of their own, the better kept).  Each is measured on the second half of the trace:
instructions per message inside the decode call and inside the DER encode call (callgrind,
as bench/fastpaths.py counts them) and linked code bytes (generated + runtime,
--gc-sections).  Written to bench/layout_budget.csv and to the section "Layouts in the
knapsack" of docs/benchmarks.md.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH))

import callgrind  # noqa: E402
import corpora  # noqa: E402
from fastpaths import decode_instructions, examples, training_profile  # noqa: E402
from peers import ours  # noqa: E402
from rows import read_rows, write_rows  # noqa: E402

from asn1c_hybrid.emit.fastpaths import layouts_in  # noqa: E402
from asn1c_hybrid.layouts import parse  # noqa: E402

CSV = BENCH / "layout_budget.csv"
COLUMNS = ["corpus", "budget", "build", "candidates", "form", "layouts", "held_out_covered",
           "messages", "decode_per_message", "encode_per_message", "code_bytes"]
BUDGETS = ("10%", "20%", "40%")


def corpora_list():
    out = [e for e in examples() if e[0] != "blackwell"]
    x400 = corpora.split_pdus((REPO / "examples" / "x400" / "traces" / "trace-2000.ber")
                              .read_bytes())
    specs = sorted((REPO / "examples" / "x400" / "spec").glob("*.asn"))
    out.append(("x400", specs, "MTAAbstractService", "MTS-APDU", x400[:len(x400) // 2],
                x400[len(x400) // 2:]))
    return out


def measure() -> List[dict]:
    root = corpora.build_dir() / "layout-budget"
    rows = []
    for name, specs, module, pdu, training, held_out in corpora_list():
        work = root / name
        profile, profile_path = training_profile(work, specs, f"{module}.{pdu}", training)
        learnt = profile.layouts[f"{module}.{pdu}"].forms
        trees = [parse(m) for m in held_out]
        for budget in BUDGETS:
            for build_name, extra in (("types", []), ("types+layouts", ["--layouts", "auto"])):
                build_dir = work / f"{budget.rstrip('%')}-{build_name}"
                build = ours.build(f"hybrid-{budget}", specs, pdu, module, build_dir,
                                   options=["--profile", str(profile_path), "--cost-model",
                                            "measured", *extra])
                source = "\n".join(p.read_text() for p in
                                   (build_dir / "generated").glob("*.c"))
                chosen = set(layouts_in(source))
                form = "slot" if "_layouts_slots(" in source else "exact"
                covered = sum(1 for t in trees if any(l.matches(t) for l in learnt[form]
                                                      if l.id in chosen))
                decode = decode_instructions(build, build_dir, "held-out", held_out)
                encode = decode_instructions(build, build_dir, "held-out", held_out, "encode")
                row = {"corpus": name, "budget": budget, "build": build_name,
                       "candidates": " / ".join(str(len(learnt[f])) for f in learnt)
                       if extra else "", "form": form if chosen else "",
                       "layouts": len(chosen), "held_out_covered":
                           f"{100.0 * covered / len(held_out):.1f}",
                       "messages": len(held_out), "decode_per_message": f"{decode:.1f}",
                       "encode_per_message": f"{encode:.1f}",
                       "code_bytes": callgrind.code_bytes(build.map_file, build.counts)}
                rows.append(row)
                print(row, flush=True)
    return rows


def layout_budget_table(path: Path = CSV) -> List[str]:
    """The section of docs/benchmarks.md, from bench/layout_budget.csv."""
    rows = read_rows(path)
    if not rows:
        return []
    lines = ["## Layouts in the knapsack", "",
             "Written by `bench/layout_budget.py` (`make bench`).  The profile is made from "
             "the first half of each trace; the hybrid build at each budget (a share of the "
             "all-compiled cost, measured cost model) is made with types only, and with "
             "`--layouts auto`, where the profile's layouts are knapsack items beside "
             "the types: its exact layouts in one knapsack, its slot layouts in another, "
             "the one that saves more kept (candidates: exact / slot).  Both are measured "
             "on the second half: instructions per message inside the decode call and "
             "inside the DER encode call (callgrind; the knapsack weighs both), the "
             "share of those messages that a chosen layout covers, and linked code bytes "
             "(generated + runtime, gcc -O2, "
             "--gc-sections).", "",
             "| corpus | budget | build | layouts chosen (candidates) | held-out covered | "
             "decode instr/msg | encode instr/msg | code bytes |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        chosen = r["layouts"] + (f" {r['form']}" if r.get("form") else "") + \
            (f" ({r['candidates']})" if r["candidates"] else "")
        lines.append(f"| {r['corpus']} ({r['messages']} held out) | {r['budget']} | "
                     f"{r['build']} | {chosen} | {r['held_out_covered']}% | "
                     f"{float(r['decode_per_message']):,.0f} | "
                     f"{float(r['encode_per_message']):,.0f} | {int(r['code_bytes']):,} |")
    return lines + [""]


def main() -> None:
    rows = measure()
    write_rows(CSV, COLUMNS, rows)
    print("\n".join(layout_budget_table()))


if __name__ == "__main__":
    main()
