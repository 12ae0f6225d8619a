"""Running the study: profile each trace, select at each budget under each cost model,
build every selection and measure it on the trace (docs/study.md)."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable, Optional

from ..errors import CalibrationError, StudyError
from ..estimate.pdus import reachable_items, resolve_type
from ..estimate.profile import Profile
from ..estimate.replay import replay
from ..estimate.trace import read_trace
from ..measure.program import Builder, Measurement, Program
from ..select.calibrate import calibrate
from ..select.calibration import Calibration, calibrated_savings
from ..select.costs import Cost, unit_costs
from ..select.measured import routine_sizes
from ..select.selection import select
from ..typegraph import TypeGraph
from .per_type import per_type
from .results import KNEE, Curve, Point, TraceResult

DEFAULT_PDU = "MTAAbstractService.MTS-APDU"


def default_example() -> Optional[Path]:
    """The X.400 example, when the package runs from its source tree."""
    example = Path(__file__).resolve().parents[2] / "examples" / "x400"
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
class StudyOptions:
    specs: list[str]
    pdu: str
    traces: list[str]
    output: Path
    budgets: list[int]
    cost_models: list[str]       # the first is the primary one
    calibration: Optional[str] = None
    profiles: list[str] = field(default_factory=list)   # one per trace; else replayed
    per_type: bool = False       # also each type compiled alone (per_type.py)
    encoding: str = "ber"        # the traces' rules: ber, uper or aper (built alone)
    progress: Callable[[str], None] = lambda line: None


def shown(path: str) -> str:
    """A path as the report shows it: relative to the working directory when inside it,
    else its name alone (reports carry no machine paths)."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return absolute.name


def inside_cwd(path: Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path.cwd().resolve())
        return True
    except ValueError:
        return False


def _calibration(options: StudyOptions):
    """The calibration the measured cost model uses: --calibration FILE, else the study's
    own (made in the output directory on first use, reused while the compiler, the
    machine and the runtime are the same)."""
    if options.calibration:
        try:
            calibration = Calibration.load(options.calibration)
            calibration.check_toolchain(options.calibration)
        except CalibrationError as exc:
            raise StudyError(str(exc)) from None
        return calibration, shown(options.calibration)
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


def _costs(graph: TypeGraph, estimate, model: str, calibration, sizes, items: set[str],
           per: bool):
    if model == "units":
        costs = unit_costs(graph, estimate.items_per_value)
    else:
        savings = calibrated_savings(graph, estimate, calibration, per)
        costs = {i: Cost(sizes[i], savings[i]) for i in sizes}
    return {i: cost for i, cost in costs.items() if i in items}


def run(graph: TypeGraph, options: StudyOptions) -> tuple[list[TraceResult], object, str]:
    """Runs the study; returns the per-trace results, the calibration and where it is."""
    pdu = resolve_type(graph, options.pdu).id
    if options.profiles and len(options.profiles) != len(options.traces):
        raise StudyError(f"{len(options.profiles)} profiles for {len(options.traces)} traces: "
                         "give one profile per trace, in the same order, or none")
    names = [Path(t).stem for t in options.traces]
    if len(set(names)) != len(names):
        raise StudyError("each trace gets a directory named after its file: give traces "
                         "distinct names (" + ", ".join(names) + ")")
    traces = []                      # read first: a bad trace is an error before any work
    for trace_path in options.traces:
        traces.append((trace_path, read_trace(trace_path, encoding=options.encoding)))
    options.output.mkdir(parents=True, exist_ok=True)
    calibration, calibration_file = (None, "")
    sizes = None
    builder = Builder(graph, pdu, options.output / "build", options.encoding)
    if "measured" in options.cost_models:
        calibration, calibration_file = _calibration(options)
        sizes = routine_sizes(graph, builder.encodings)     # PER's alone for a PER trace

    items = reachable_items(graph, [pdu])
    results: list[TraceResult] = []
    pending: list[tuple[TraceResult, Path, Point]] = []
    alone: list[tuple[TraceResult, Path, object, dict]] = []   # --per-type
    for k, (trace_path, pdus) in enumerate(traces):
        name = Path(trace_path).stem
        directory = options.output / name
        directory.mkdir(parents=True, exist_ok=True)
        if options.profiles:
            profile = Profile.load(options.profiles[k])
            profile.check(graph)
            if profile.messages != len(pdus):
                raise StudyError(f"{options.profiles[k]} counts {profile.messages:,} "
                                 f"messages, but {trace_path} has {len(pdus):,} PDUs: "
                                 "is it the profile of that trace?")
        else:
            options.progress(f"{name}: profiling {len(pdus):,} PDUs by replay")
            profile = replay(graph, pdu, pdus, encoding=options.encoding)
        profile.save(directory / "profile.json")
        # the PDUs as the driver reads them: BER back to back, PER framed
        if options.encoding == "ber":
            trace_file, data = directory / "trace.ber", b"".join(pdus)
        else:
            trace_file = directory / f"trace.{options.encoding}.framed"
            data = b"".join(len(p).to_bytes(4, "big") + p for p in pdus)
        if not trace_file.exists() or trace_file.read_bytes() != data:
            trace_file.write_bytes(data)
        estimate = profile.estimate(graph)
        result = TraceResult(name, shown(trace_path), len(pdus), sum(map(len, pdus)))
        for model in options.cost_models:
            costs = _costs(graph, estimate, model, calibration, sizes, items,
                           options.encoding != "ber")
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
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for compiled, program in zip(selections, pool.map(builder.build, selections)):
            programs[compiled] = program
    options.progress(f"measuring {len(wanted)} builds on their traces with callgrind")
    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = pool.map(lambda k: programs[k[1]].measure(Path(k[0])), wanted)
        measurements: dict[tuple, Measurement] = dict(zip(wanted, done))
    for result, trace, point in pending:
        point.program = programs[point.compiled]
        point.code_bytes = point.program.code_bytes()
        point.measurement = measurements[(str(trace), point.compiled)]
    for result, trace, estimate, costs in alone:
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
