"""The selection as `explain` prints it: a text table, JSON, or CSV.

Columns (docs/selection.md, "Reading explain"):
  type       the node identifier: Module.Type, Module.Type.component, ...`*` an element;
  frequency  values per message (a profile's count over its messages, or the static
             estimate), aliases included;
  cost       code size of the type's compiled routines, in the cost model's unit;
  saving     frequency x what compiling saves per value (instructions or calls);
  path       how the generated code marshals the type: `compiled` (its own C routines)
             or `interpreted` (its table, walked by the runtime's interpreter);
  why        for an interpreted type, why the knapsack left it there.

With --layouts auto, the PDU's candidate layouts follow (docs/layouts.md): their share of
the profile's messages, the bytes of their fast paths, the instructions per message they
save beside the types compiled, and why each left out was.  CSV lists the types only.
"""
from __future__ import annotations

import csv
import io
import json

from .selection import Selection, json_number

FORMATS = ("text", "json", "csv")

_UNIT_WORDS = {"bytes": "bytes of machine code", "units": "the paper's code units"}
_SAVING_WORDS = {"bytes": "instructions per message", "units": "interpreter calls per message"}


def _share(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def _amount(x: float) -> str:
    x = json_number(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:,.6g}"


def format_text(selection: Selection) -> str:
    unit = selection.unit
    width = max([len("type")] + [len(r.id) for r in selection.rows])
    lines = [f"cost model: {selection.cost_model}; cost in {_UNIT_WORDS.get(unit, unit)}, "
             f"saving in {_SAVING_WORDS.get(unit, unit)}; frequencies: {selection.source}",
             "path: compiled = the type's own C routines; interpreted = its table, walked by "
             "the runtime's interpreter", "",
             f"{'type':<{width}}  {'frequency':>10}  {'cost':>9}  {'saving':>10}  "
             f"{'path':<11}  why"]
    for r in selection.rows:
        lines.append(f"{r.id:<{width}}  {r.frequency:>10.4g}  {_amount(r.cost):>9}  "
                     f"{r.saving:>10.4g}  {'compiled' if r.compiled else 'interpreted':<11}  "
                     f"{r.reason}".rstrip())
    if selection.layout_pdu:
        lines += [""] + _layout_lines(selection)
    asked = selection.budget_text
    lines.append("")
    lines.append(f"budget:   {_amount(selection.budget)} {unit}"
                 + (f" ({asked} of the all-compiled cost)" if asked.endswith("%") else ""))
    lines.append(f"cost:     {_amount(selection.cost_used)} of {_amount(selection.cost_all)} "
                 f"{unit} ({_share(selection.cost_used, selection.cost_all)} of all compiled)")
    fixed = selection.fixed_cost
    if fixed is not None:
        lines.append(f"fixed:    {_amount(fixed.total)} bytes in every build, whatever the "
                     f"budget: runtime {_amount(fixed.runtime)}, tables {_amount(fixed.tables)}")
    else:
        lines.append("fixed:    the runtime and tables every build links (not modelled in "
                     "units; --cost-model measured measures them)")
    lines.append(f"saving:   {selection.saving:.6g} of {selection.saving_max:.6g} per message "
                 f"({_share(selection.saving, selection.saving_max)} of the maximum)")
    compiled = sum(1 for r in selection.rows if r.compiled)
    lines.append(f"compiled: {compiled} of {len(selection.rows)} types")
    if selection.layout_pdu:
        chosen = [r for r in selection.layouts if r.chosen]
        covered = sum(r.coverage for r in chosen)
        lines.append(f"layouts:  {len(chosen)} of {len(selection.layouts)} with fast paths, "
                     f"covering {_share(covered, 1)} of the profile's messages"
                     + (f"; the others pay {selection.layout_miss:.4g} instructions each "
                        "for the miss" if chosen else ""))
    return "\n".join(lines) + "\n"


def _layout_lines(selection: Selection) -> list[str]:
    """The candidate layouts: by saving, highest first (docs/layouts.md)."""
    lines = []
    if len(selection.layout_forms) > 1:
        savings = ", ".join(f"{form} {saving:.6g}"
                            for form, saving in selection.layout_forms.items())
        lines.append(f"layout form: {selection.layout_form}, whose knapsack saves more "
                     f"(instructions per message with the types: {savings})")
    entries = "the door that tries them costs" if selection.layout_form == "slot" else \
        "the entries that try them cost"
    lines += [f"layouts of {selection.layout_pdu} ({selection.layout_form}; {entries} "
              f"{_amount(selection.layout_entry)} bytes once, when any is chosen, and a "
              f"message of no chosen layout {selection.layout_miss:.4g} instructions more); "
              "coverage: share of the profile's messages; saving: beside the types compiled",
              f"{'layout':<12}  {'coverage':>8}  {'cost':>9}  {'saving':>10}  {'path':<11}  why"]
    for r in sorted(selection.layouts, key=lambda r: (-r.saving, -r.coverage)):
        lines.append(f"{r.id:<12}  {_share(r.coverage, 1):>8}  {_amount(r.cost):>9}  "
                     f"{r.saving:>10.4g}  {'fast path' if r.chosen else 'general':<11}  "
                     f"{r.reason}".rstrip())
    return lines


def format_json(selection: Selection) -> str:
    return json.dumps(selection.to_json(), indent=2) + "\n"


def format_csv(selection: Selection) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "frequency", f"cost_{selection.unit}", "saving", "compiled",
                     "reason"])
    for r in selection.rows:
        writer.writerow([r.id, repr(json_number(r.frequency)), repr(json_number(r.cost)),
                         repr(json_number(r.saving)), "true" if r.compiled else "false",
                         r.reason])
    return out.getvalue()


def format_selection(selection: Selection, fmt: str = "text") -> str:
    if fmt == "text":
        return format_text(selection)
    if fmt == "json":
        return format_json(selection)
    if fmt == "csv":
        return format_csv(selection)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
