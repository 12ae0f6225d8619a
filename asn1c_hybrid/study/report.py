"""Writing the study: the CSV of each curve, the selections, the plots and report.md."""
from __future__ import annotations

import json
from pathlib import Path

from ..select.calibration import ALL_FEATURES, PER_FEATURES
from ..typegraph import TypeGraph
from .plots import plot_trace
from .results import COST_MODELS, DEFAULT_BUDGETS, KNEE, PAPER_SHARE_AT_KNEE, \
    TARGET_SHARE_AT_KNEE, Curve, Point, TraceResult
from .run import DEFAULT_PDU, StudyOptions, default_example, shown

# How the example's traces were made: the report says so (the traces are synthetic).
SYNTHETIC_TRACES = (
    "The traces are synthetic: `examples/x400/traffic.py` generates them from a seed, "
    "modelling a relay MTA of an early-1990s X.400 network (its README, \"The traffic\", "
    "gives every number): 88% messages, 11% reports and 1% probes; recipients per message "
    "Zipf-like (k^-2, 1 to 40); O/R names drawn from 14 administrations, 17 private "
    "domains and 44 organizations, with the optional attributes at the rates X.400 "
    "directories of the time show; trace information of 1 to 5 domains; envelope fields, "
    "extensions and content sizes at assumed rates. Each value is built and DER-encoded "
    "with asn1tools (an independent implementation), then put in canonical DER order. "
    "The paper's trace was real traffic, of which it says only that it had 18 messages.")


def write_outputs(graph: TypeGraph, options: StudyOptions, results: list[TraceResult],
                  calibration, calibration_file: str) -> list[Path]:
    """study.csv (and study-<model>.csv for the other models), the selections, the plot
    of every trace, and report.md; returns the files written."""
    written = []
    primary = options.cost_models[0]
    for result in results:
        directory = options.output / result.name
        for model, curve in result.curves.items():
            path = directory / ("study.csv" if model == primary else f"study-{model}.csv")
            path.write_text(curve.csv_text())
            written.append(path)
        if result.per_type is not None:
            path = directory / "per-type.csv"
            path.write_text(result.per_type.csv_text())
            written.append(path)
        selections = {model: {str(p.budget_percent): sorted(p.compiled) for p in curve.points}
                      for model, curve in result.curves.items()}
        path = directory / "selections.json"
        path.write_text(json.dumps(selections, indent=1) + "\n")
        written.append(path)
        written += plot_trace(result, directory)
    path = options.output / "report.md"
    path.write_text(report(graph, options, results, calibration, calibration_file))
    written.append(path)
    return written


def _code_share(curve: Curve, point: Point) -> float:
    first, last = curve.points[0].code_bytes, curve.points[-1].code_bytes
    return (point.code_bytes - first) / (last - first) if last != first else 0.0


def report(graph: TypeGraph, options: StudyOptions, results: list[TraceResult],
           calibration, calibration_file: str) -> str:
    primary = options.cost_models[0]
    lines = ["# The X.400 trace study" if options.pdu == DEFAULT_PDU else "# Trace study", ""]
    specs = ", ".join(f"`{shown(s)}`" for s in options.specs)
    lines += [f"Specification {specs}, PDU `{options.pdu}`; traces "
              + ", ".join(f"`{r.shown_path}` ({r.messages:,} PDUs, {r.trace_bytes:,} bytes)"
                          for r in results) + ".",
              "Written by `asn1c-hybrid study`; the method is in docs/study.md.", ""]
    if options.pdu == DEFAULT_PDU:
        lines += [SYNTHETIC_TRACES, ""]
    lines += ["## The result", "",
              f"Share of the maximal saving (instructions of decoding and encoding the whole "
              f"trace, all interpreted minus all compiled) reached with a budget of {KNEE}% "
              f"of the code cost, measured. Hoschka and Huitema reached "
              f"{PAPER_SHARE_AT_KNEE:.0%} in their unit model; the target is "
              f"{TARGET_SHARE_AT_KNEE:.0%}, measured.", ""]
    if options.encoding != "ber":
        lines += [f"The traces are {options.encoding.upper()}; every build carries those "
                  "rules alone, and the encoding pass writes them.", ""]
    header = "| trace | cost model | share at 20%, measured | share at 20%, model | code bytes added at 20% | meets 75% |"
    lines += [header, "| --- | --- | ---: | ---: | ---: | --- |"]
    for result in results:
        for model, curve in result.curves.items():
            point = curve.at(KNEE)
            if point is None:
                continue
            share = curve.saving_fraction_measured(point)
            lines.append(f"| {result.name} | {_model_name(model)} | {share:.2%} | "
                         f"{point.saving_fraction_model:.2%} | "
                         f"{_code_share(curve, point):.1%} of the all-compiled extra | "
                         f"{'yes' if share >= TARGET_SHARE_AT_KNEE else 'no'} |")
    lines.append("")
    if not any(r.per_type is not None for r in results):
        lines += ["How far any selection could go at each budget: rerun with `--per-type`, "
                  "which measures every type compiled alone (docs/study.md, \"Why 75% is not "
                  "reached at 20%\").", ""]
    for result in results:
        lines += _trace_section(result, primary)
    lines += _per_type_section(results, primary)
    lines += _differences(results)
    if calibration is not None:
        lines += _calibration_section(calibration, calibration_file,
                                      options.encoding != "ber")
    lines += ["## Reproduce", "",
              "```sh", _command(options), "```", ""]
    return "\n".join(lines)


def _model_name(model: str) -> str:
    return {"measured": "measured (bytes, calibrated instructions)",
            "units": "units (the paper's figure 3)"}[model]


def _trace_section(result: TraceResult, primary: str) -> list[str]:
    lines = [f"## {result.name}: {result.messages:,} PDUs", "",
             f"![share of the maximal saving against the budget]({result.name}/study.png)",
             "",
             f"![instructions saved against code bytes added]({result.name}/study-bytes.png)",
             ""]
    for model, curve in result.curves.items():
        csv_name = "study.csv" if model == primary else f"study-{model}.csv"
        first = curve.points[0].measurement
        last = curve.points[-1].measurement
        lines += [f"### Cost model: {_model_name(model)} (`{result.name}/{csv_name}`)", "",
                  f"All interpreted: {first.decode / result.messages:,.0f} instructions per "
                  f"PDU decoding and freeing, {first.encode / result.messages:,.0f} encoding; "
                  f"all compiled: {last.decode / result.messages:,.0f} and "
                  f"{last.encode / result.messages:,.0f}.", "",
                  "| budget | types compiled | model cost used | code bytes | instructions "
                  "(whole trace) | per PDU | saving, measured | saving, model |",
                  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for p in curve.points:
            unit = "bytes" if model == "measured" else "units"
            lines.append(
                f"| {p.budget_percent}% | {len(p.compiled)} | {p.cost_used:,.0f} of "
                f"{p.cost_all:,.0f} {unit} | {p.code_bytes:,} | {curve.instructions(p):,} | "
                f"{curve.instructions(p) / result.messages:,.0f} | "
                f"{curve.saving_fraction_measured(p):.1%} | {p.saving_fraction_model:.1%} |")
        lines.append("")
    return lines


def _per_type_section(results: list[TraceResult], primary: str) -> list[str]:
    studied = [r for r in results if r.per_type is not None]
    if not studied:
        return []
    unit = "instructions" if primary == "measured" else "units"
    lines = ["## How far any selection could go", "",
             "Each type that occurs in the trace, compiled alone and measured (`per-type.csv`). "
             "The best selection is the knapsack over those measured savings, under the same "
             f"costs and budgets as the {_model_name(primary)} cost model; shares are of the "
             "sum of the savings alone (compiled together, a routine calls a compiled "
             "member's routine directly, so the real total is a little higher).", ""]
    for result in studied:
        per_type = result.per_type
        lines += [f"### {result.name}", "",
                  "| budget | the cost model's selection | the best selection |",
                  "| ---: | ---: | ---: |"]
        lines += [f"| {b.budget_percent}% | {b.chosen_share:.1%} | {b.best_share:.1%} |"
                  for b in per_type.bests]
        lines += ["", f"The types that save the most, alone (predicted: frequency x the "
                      f"model's saving per value, in {unit}):", "",
                  "| type | values per PDU | cost | predicted per PDU | measured per PDU |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        lines += [f"| `{t.id}` | {t.frequency:.2f} | {t.cost:,.0f} | {t.predicted:,.0f} | "
                  f"{t.measured:,.0f} |" for t in per_type.types[:15]]
        lines.append("")
    return lines


def _differences(results: list[TraceResult]) -> list[str]:
    notes = []
    for result in results:
        counts = {p.measurement.reencoded_differently
                  for curve in result.curves.values() for p in curve.points}
        if counts != {0}:
            notes.append(f"- {result.name}: the re-encoding of {max(counts):,} of its "
                         f"{result.messages:,} PDUs is not the PDU itself; the instructions "
                         "counted are those of the encoder as it is.")
    if not notes:
        return []
    return ["## Encodings", ""] + notes + [""]


def _calibration_section(calibration, calibration_file: str, per: bool) -> list[str]:
    coefficients, fit = ((calibration.per_coefficients, calibration.per_fit) if per else
                         (calibration.coefficients, calibration.fit))
    lines = ["## The calibrated time-saving model", "",
             f"`{calibration_file}`, measured with {calibration.compiler} on "
             f"{calibration.machine} (docs/selection.md, \"Calibrated time saving\"): "
             "instructions saved per value by compiling a type, decoding plus encoding"
             + (" (PER's coefficients, measured in UPER)." if per else "."), "",
             "| coefficient | instructions |", "| --- | ---: |"]
    lines += [f"| `{name}` | {coefficients[name]:.1f} |"
              for name in (PER_FEATURES if per else ALL_FEATURES)]
    held_out = fit.get("held_out", [])
    if held_out:
        lines += ["", "Shapes left out of the fit, predicted:", "",
                  "| shape | measured | predicted | error |", "| --- | ---: | ---: | ---: |"]
        lines += [f"| `{h['shape']}` | {h['measured']:.0f} | {h['predicted']:.0f} | "
                  f"{h['relative_error']:.1%} |" for h in held_out]
    return lines + [""]


def _command(options: StudyOptions) -> str:
    parts = ["asn1c-hybrid study"]
    example = default_example()
    defaults = example is not None and \
        [Path(s).resolve() for s in options.specs] == [(example / "spec").resolve()]
    if not defaults:
        parts += [f"--spec {shown(s)}" for s in options.specs]
    if options.pdu != DEFAULT_PDU:
        parts.append(f"--pdu {options.pdu}")
    if not defaults:
        parts += [f"--trace {shown(t)}" for t in options.traces]
    parts.append(f"-o {shown(str(options.output))}")
    if options.budgets != sorted(set(DEFAULT_BUDGETS)):
        parts.append("--budgets " + ",".join(map(str, options.budgets)))
    if options.cost_models != list(COST_MODELS):
        parts.append("--cost-models " + ",".join(options.cost_models))
    if options.per_type:
        parts.append("--per-type")
    if options.encoding != "ber":
        parts.append(f"--encoding {options.encoding}")
    return " ".join(parts)


