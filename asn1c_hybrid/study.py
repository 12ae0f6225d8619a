"""The trace study (`asn1c-hybrid study`, `make demo`): what the hybrid buys on real traffic.

Hoschka and Huitema (section 4.5) ran their knapsack on X.400 P1 with the frequencies of
an 18-message trace and found that compiling 20% of the code reached about 50% of the
maximal speed-up, in their unit model.  The study does it measured (docs/study.md):

1. the trace is profiled by replay (estimate/replay.py);
2. for each budget, the knapsack selects with that profile under the cost model, the
   selection is generated and built, and callgrind counts the instructions of decoding
   (and freeing) and DER-encoding every PDU of the trace, while the linker map gives the
   code bytes (measured_program.py: the benchmark suite's definitions);
3. the results go to `study.csv` (one per trace and cost model), `report.md` and plots.

The primary cost model is `measured` (bytes of the compiled routines and the calibrated
instructions saved per value); the paper's `units` model is measured next to it.
"""
from __future__ import annotations

import csv
import io
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable, Optional

from .estimate.pdus import reachable_items
from .measured_program import Builder, Measurement, Program
from .typegraph import TypeGraph

DEFAULT_BUDGETS = (0, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100)
KNEE = 20                       # the paper's point: 20% of the code cost
PAPER_SHARE_AT_KNEE = 0.5       # ... reached about 50% of the maximal saving
TARGET_SHARE_AT_KNEE = 0.75     # the project's target, measured
CSV_COLUMNS = ["budget_percent", "code_bytes", "instructions", "saving_fraction_measured",
               "saving_fraction_model"]
COST_MODELS = ("measured", "units")
DEFAULT_PDU = "MTAAbstractService.MTS-APDU"


class StudyError(Exception):
    """The study cannot run: reported as `asn1c-hybrid: error: ...`."""


def default_example() -> Optional[Path]:
    """The X.400 example, when the package runs from its source tree."""
    example = Path(__file__).resolve().parent.parent / "examples" / "x400"
    return example if (example / "spec").is_dir() else None


def parse_budgets(text: str) -> list[int]:
    """"0,5,10" -> [0, 5, 10]; 0 and 100 are always measured (the ends of the curve)."""
    try:
        values = {int(part) for part in text.split(",") if part.strip()}
    except ValueError:
        raise StudyError(f"--budgets {text!r}: give percentages, comma-separated") from None
    if any(v < 0 or v > 100 for v in values):
        raise StudyError(f"--budgets {text!r}: percentages go from 0 to 100")
    return sorted(values | {0, 100})


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
    per_type: Optional[object] = None    # study_per_type.PerType, with --per-type


@dataclass
class StudyOptions:
    specs: list[str]
    pdu: str
    traces: list[str]
    output: Path
    budgets: list[int]
    cost_models: list[str]       # the first is the primary one
    calibration: Optional[str] = None
    per_type: bool = False       # also each type compiled alone (study_per_type.py)
    progress: Callable[[str], None] = lambda line: None


# ---- running --------------------------------------------------------------------------

def _shown(path: str) -> str:
    """A path as the report shows it: relative to the working directory when inside it,
    else its name alone (reports carry no machine paths)."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return absolute.name


def _inside_cwd(path: Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path.cwd().resolve())
        return True
    except ValueError:
        return False


def _calibration(options: StudyOptions):
    """The calibration the measured cost model uses: --calibration FILE, else the study's
    own (made in the output directory on first use, reused while the compiler, the
    machine and the runtime are the same)."""
    from .select.calibrate import calibrate
    from .select.calibration import Calibration, CalibrationError
    if options.calibration:
        try:
            calibration = Calibration.load(options.calibration)
            calibration.check_toolchain(options.calibration)
        except CalibrationError as exc:
            raise StudyError(str(exc)) from None
        return calibration, _shown(options.calibration)
    path = options.output / "calibration.json"
    if path.exists():
        try:
            calibration = Calibration.load(path)
            calibration.check_toolchain(str(path))
            return calibration, path.name
        except CalibrationError:
            pass
    options.progress("calibrating the time-saving model (asn1c-hybrid calibrate) ...")
    calibration = calibrate(options.output / "build" / "calibration")
    calibration.save(path)
    return calibration, path.name


def _costs(graph: TypeGraph, estimate, model: str, calibration, sizes, items: set[str]):
    from .select.calibration import calibrated_savings
    from .select.costs import Cost, unit_costs
    if model == "units":
        costs = unit_costs(graph, estimate.items_per_value)
    else:
        savings = calibrated_savings(graph, estimate, calibration)
        costs = {i: Cost(sizes[i], savings[i]) for i in sizes}
    return {i: cost for i, cost in costs.items() if i in items}


def run(graph: TypeGraph, options: StudyOptions) -> tuple[list[TraceResult], object, str]:
    """Runs the study; returns the per-trace results, the calibration and where it is."""
    from .estimate.pdus import UnknownTypeError, resolve_type
    from .estimate.replay import ReplayError, replay
    from .estimate.trace import TraceError, read_trace
    from .measure import MeasurementError
    from .select.measured import MeasureError, routine_sizes
    from .select.selection import select

    try:
        pdu = resolve_type(graph, options.pdu).id
    except UnknownTypeError as exc:
        raise StudyError(str(exc)) from None
    names = [Path(t).stem for t in options.traces]
    if len(set(names)) != len(names):
        raise StudyError("each trace gets a directory named after its file: give traces "
                         "distinct names (" + ", ".join(names) + ")")
    traces = []                      # read first: a bad trace is an error before any work
    for trace_path in options.traces:
        try:
            traces.append((trace_path, read_trace(trace_path)))
        except TraceError as exc:
            raise StudyError(str(exc)) from None
    options.output.mkdir(parents=True, exist_ok=True)
    calibration, calibration_file = (None, "")
    sizes = None
    try:
        if "measured" in options.cost_models:
            calibration, calibration_file = _calibration(options)
            sizes = routine_sizes(graph)
        builder = Builder(graph, pdu, options.output / "build")
    except (MeasureError, MeasurementError) as exc:
        raise StudyError(str(exc)) from None

    items = reachable_items(graph, [pdu])
    results: list[TraceResult] = []
    pending: list[tuple[TraceResult, Path, Point]] = []
    alone: list[tuple[TraceResult, Path, object, dict]] = []   # --per-type
    for trace_path, pdus in traces:
        name = Path(trace_path).stem
        directory = options.output / name
        directory.mkdir(parents=True, exist_ok=True)
        try:
            options.progress(f"{name}: profiling {len(pdus):,} PDUs by replay")
            profile = replay(graph, pdu, pdus)
        except ReplayError as exc:
            raise StudyError(str(exc)) from None
        profile.save(directory / "profile.json")
        trace_file = directory / "trace.ber"          # the PDUs as the driver reads them
        data = b"".join(pdus)
        if not trace_file.exists() or trace_file.read_bytes() != data:
            trace_file.write_bytes(data)
        estimate = profile.estimate(graph)
        result = TraceResult(name, _shown(trace_path), len(pdus), len(data))
        for model in options.cost_models:
            costs = _costs(graph, estimate, model, calibration, sizes, items)
            if model == options.cost_models[0] and options.per_type:
                alone.append((result, trace_file, estimate, costs))
            points = []
            for percent in options.budgets:
                selection = select(graph, estimate.frequencies, costs, f"{percent}%",
                                   source="profile")
                points.append(Point(percent, frozenset(selection.compiled),
                                    float(selection.saving), float(selection.saving_max),
                                    float(Fraction(selection.cost_used)),
                                    float(Fraction(selection.cost_all))))
            result.curves[model] = Curve(model, points)
            pending += [(result, trace_file, p) for p in points]
        results.append(result)

    # every (trace, compiled types) to measure: the curves' points, and with --per-type
    # each type that occurs in the trace compiled alone
    wanted_set = {(str(trace), p.compiled) for _, trace, p in pending}
    for result, trace, estimate, costs in alone:
        frequencies = estimate.representation_frequencies(graph)
        wanted_set |= {(str(trace), frozenset([i])) for i in costs if frequencies.get(i)}
    wanted = sorted(wanted_set, key=lambda k: (k[0], len(k[1]), sorted(k[1])))
    programs: dict[frozenset, Program] = {}
    selections = sorted({compiled for _, compiled in wanted}, key=lambda s: (len(s), sorted(s)))
    options.progress(f"building {len(selections)} selections")
    workers = max(1, min(4, os.cpu_count() or 1))
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for compiled, program in zip(selections, pool.map(builder.build, selections)):
                programs[compiled] = program
        measurements: dict[tuple, Measurement] = {}
        options.progress(f"measuring {len(wanted)} builds on their traces with callgrind")
        with ThreadPoolExecutor(max_workers=workers) as pool:
            done = pool.map(lambda k: programs[k[1]].measure(Path(k[0])), wanted)
            measurements = dict(zip(wanted, done))
    except MeasurementError as exc:
        raise StudyError(str(exc)) from None
    for result, trace, point in pending:
        point.program = programs[point.compiled]
        point.code_bytes = point.program.code_bytes()
        point.measurement = measurements[(str(trace), point.compiled)]
    for result, trace, estimate, costs in alone:
        from .study_per_type import per_type
        result.per_type = per_type(
            graph, estimate, costs, result.curves[options.cost_models[0]],
            {i: measurements[(str(trace), frozenset([i]))] for i in costs
             if (str(trace), frozenset([i])) in measurements},
            measurements[(str(trace), frozenset())], result.messages)
    for result in results:
        for model, curve in result.curves.items():
            at = curve.at(KNEE)
            if at is not None:
                options.progress(
                    f"{result.name}, {model} cost model: {KNEE}% of the code cost reaches "
                    f"{curve.saving_fraction_measured(at):.2%} of the maximal saving, measured")
        if result.per_type is not None and result.per_type.best(KNEE) is not None:
            best = result.per_type.best(KNEE)
            options.progress(
                f"{result.name}: with each type's saving measured alone, the best selection "
                f"at {KNEE}% holds {best.best_share:.1%} of their sum, the cost model's "
                f"{best.chosen_share:.1%}")
    return results, calibration, calibration_file


# ---- writing ----------------------------------------------------------------------------

def write_outputs(graph: TypeGraph, options: StudyOptions, results: list[TraceResult],
                  calibration, calibration_file: str) -> list[Path]:
    """study.csv (and study-<model>.csv for the other models), the selections, the plot
    of every trace, and report.md; returns the files written."""
    from .study_plots import plot_trace
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
        path = directory / "study.png"
        plot_trace(result, path)
        written.append(path)
    path = options.output / "report.md"
    path.write_text(report(graph, options, results, calibration, calibration_file))
    written.append(path)
    return written


def _share(curve: Curve, percent: int) -> Optional[float]:
    point = curve.at(percent)
    return None if point is None else curve.saving_fraction_measured(point)


def _code_share(curve: Curve, point: Point) -> float:
    first, last = curve.points[0].code_bytes, curve.points[-1].code_bytes
    return (point.code_bytes - first) / (last - first) if last != first else 0.0


def report(graph: TypeGraph, options: StudyOptions, results: list[TraceResult],
           calibration, calibration_file: str) -> str:
    primary = options.cost_models[0]
    lines = ["# The X.400 trace study" if options.pdu == DEFAULT_PDU else "# Trace study", ""]
    specs = ", ".join(f"`{_shown(s)}`" for s in options.specs)
    lines += [f"Specification {specs}, PDU `{options.pdu}`; traces "
              + ", ".join(f"`{r.shown_path}` ({r.messages:,} PDUs, {r.trace_bytes:,} bytes)"
                          for r in results) + ".",
              "Written by `asn1c-hybrid study`; the method is in docs/study.md.", ""]
    lines += ["## The result", "",
              f"Share of the maximal saving (instructions of decoding and encoding the whole "
              f"trace, all interpreted minus all compiled) reached with a budget of {KNEE}% "
              f"of the code cost, measured. Hoschka and Huitema reached "
              f"{PAPER_SHARE_AT_KNEE:.0%} in their unit model; the target is "
              f"{TARGET_SHARE_AT_KNEE:.0%}, measured.", ""]
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
        lines += _calibration_section(calibration, calibration_file)
    lines += ["## Reproduce", "",
              "```sh", _command(options), "```", ""]
    return "\n".join(lines)


def _model_name(model: str) -> str:
    return {"measured": "measured (bytes, calibrated instructions)",
            "units": "units (the paper's figure 3)"}[model]


def _trace_section(result: TraceResult, primary: str) -> list[str]:
    lines = [f"## {result.name}: {result.messages:,} PDUs", "",
             f"![time saved against code size]({result.name}/study.png)", ""]
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
            notes.append(f"- {result.name}: the DER re-encoding of {max(counts):,} of its "
                         f"{result.messages:,} PDUs is not the PDU itself; the instructions "
                         "counted are those of the encoder as it is.")
    if not notes:
        return []
    return ["## Encodings", ""] + notes + [""]


def _calibration_section(calibration, calibration_file: str) -> list[str]:
    from .select.calibration import ALL_FEATURES
    lines = ["## The calibrated time-saving model", "",
             f"`{calibration_file}`, measured with {calibration.compiler} on "
             f"{calibration.machine} (docs/selection.md, \"Calibrated time saving\"): "
             "instructions saved per value by compiling a type, decoding plus encoding.", "",
             "| coefficient | instructions |", "| --- | ---: |"]
    lines += [f"| `{name}` | {calibration.coefficients[name]:.1f} |" for name in ALL_FEATURES]
    held_out = calibration.fit.get("held_out", [])
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
        parts += [f"--spec {_shown(s)}" for s in options.specs]
    if options.pdu != DEFAULT_PDU:
        parts.append(f"--pdu {options.pdu}")
    if not defaults:
        parts += [f"--trace {_shown(t)}" for t in options.traces]
    parts.append(f"-o {_shown(str(options.output))}")
    if options.budgets != sorted(set(DEFAULT_BUDGETS)):
        parts.append("--budgets " + ",".join(map(str, options.budgets)))
    if options.cost_models != list(COST_MODELS):
        parts.append("--cost-models " + ",".join(options.cost_models))
    if options.per_type:
        parts.append("--per-type")
    return " ".join(parts)


# ---- the command ------------------------------------------------------------------------

def study_command(args) -> int:
    """`asn1c-hybrid study`: options to StudyOptions, run, write, print the summary."""
    import sys
    from . import pipeline
    from .cli import UsageError
    example = default_example()
    specs = args.spec or ([str(example / "spec")] if example else [])
    traces = args.trace or ([str(example / "traces" / "trace-18.ber"),
                             str(example / "traces" / "trace-2000.ber")] if example else [])
    if not specs or not traces:
        raise UsageError("give --spec, --pdu and --trace: the X.400 example they default to "
                         "is only in the source tree")
    try:
        models = [m.strip() for m in args.cost_models.split(",") if m.strip()]
        if not models or any(m not in COST_MODELS for m in models):
            raise StudyError(f"--cost-models {args.cost_models!r}: choose from "
                             + ", ".join(COST_MODELS))
        options = StudyOptions(specs, args.pdu, traces, Path(args.output),
                               parse_budgets(args.budgets), list(dict.fromkeys(models)),
                               args.calibration, args.per_type,
                               progress=lambda line: print(line, flush=True))
        _require_matplotlib()
        graph = pipeline.load(specs)
        results, calibration, calibration_file = run(graph, options)
        written = write_outputs(graph, options, results, calibration, calibration_file)
    except StudyError as exc:
        raise UsageError(str(exc)) from None
    for path in written:
        print(f"written: {os.path.relpath(path) if _inside_cwd(path) else path}")
    sys.stdout.flush()
    return 0


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise StudyError("the study's plots need matplotlib: "
                         "pip install 'asn1c-hybrid[study]'") from None
