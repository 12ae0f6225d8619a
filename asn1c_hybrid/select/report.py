"""The selection as `explain` prints it: a text table, JSON, or CSV."""
from __future__ import annotations

import csv
import io
import json

from .selection import Selection, json_number

FORMATS = ("text", "json", "csv")


def _share(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def _amount(x: float) -> str:
    x = json_number(x)
    return str(x) if isinstance(x, int) else f"{x:.6g}"


def format_text(selection: Selection) -> str:
    width = max([len("type")] + [len(r.id) for r in selection.rows])
    lines = [f"{'type':<{width}}  {'frequency':>10}  {'cost':>8}  {'saving':>10}  path"]
    for r in selection.rows:
        lines.append(f"{r.id:<{width}}  {r.frequency:>10.4g}  {_amount(r.cost):>8}  "
                     f"{r.saving:>10.4g}  {'compiled' if r.compiled else 'interpreted'}")
    unit = selection.unit
    asked = selection.budget_text
    budget = _amount(selection.budget)
    lines.append("")
    lines.append(f"budget:   {budget} {unit}" + (f" ({asked})" if asked.endswith("%") else ""))
    lines.append(f"cost:     {_amount(selection.cost_used)} of {_amount(selection.cost_all)} "
                 f"{unit} ({_share(selection.cost_used, selection.cost_all)} of all compiled)")
    lines.append(f"saving:   {selection.saving:.6g} of {selection.saving_max:.6g} per message "
                 f"({_share(selection.saving, selection.saving_max)} of the maximum)")
    compiled = sum(1 for r in selection.rows if r.compiled)
    lines.append(f"compiled: {compiled} of {len(selection.rows)} types "
                 f"(frequencies: {selection.source})")
    return "\n".join(lines) + "\n"


def format_json(selection: Selection) -> str:
    return json.dumps(selection.to_json(), indent=2) + "\n"


def format_csv(selection: Selection) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "frequency", "cost", "saving", "compiled"])
    for r in selection.rows:
        writer.writerow([r.id, repr(json_number(r.frequency)), repr(json_number(r.cost)),
                         repr(json_number(r.saving)), "true" if r.compiled else "false"])
    return out.getvalue()


def format_selection(selection: Selection, fmt: str = "text") -> str:
    if fmt == "text":
        return format_text(selection)
    if fmt == "json":
        return format_json(selection)
    if fmt == "csv":
        return format_csv(selection)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
