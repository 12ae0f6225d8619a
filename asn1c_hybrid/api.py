"""The compiler as a library: one typed call per stage of the pipeline.

    from asn1c_hybrid import api

    graph = api.load(["spec/"])                                  # front end: TypeGraph
    options = api.CompileOptions(mode="hybrid", name="pki",
                                 select=api.SelectOptions(pdus=("PKIX1Explicit88.Certificate",),
                                                          budget="20%"))
    selection = api.select(graph, options.select)                 # estimate, costs, knapsack
    files = api.generate(graph, options)                          # {file name: C text}
    api.compile_to(graph, "gen/", options)                        # the same, written

Every stage is a pure function of the one before (docs/architecture.md); options are
frozen dataclasses, checked when they are made.  Errors a user can act on are the
exceptions of errors.py (and CompileError for the specifications themselves); the
command line (cli.py) only turns arguments into these options and prints.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

from . import frontend
from .diagnostics import Diagnostics
from .emit import ENCODINGS, RULES, EmitOptions, carries_ber
from .emit import generate as emit_generate
from .emit.naming import c_identifier
from .errors import CalibrationError, MeasurementError, SelectionError, UsageError
from .estimate.estimate import Estimate
from .estimate.pdus import emitted_graph, reachable_items, resolve_pdus, resolve_type
from .estimate.profile import PduLayouts, Profile, learn_layouts
from .estimate.replay import replay
from .estimate.static import static_estimate
from .estimate.trace import read_trace
from .layouts import FORMS as LAYOUT_FORMS, Layout as MessageLayout
from .outputs import format_depfile, write_atomically
from .resources import compiler_files, runtime_sources
from .select.budget import parse_budget
from .select.calibration import default_path
from .select.costs import UNIT, Cost, knapsack_items, unit_costs
from .select.layout_costs import LayoutCosts, measure_layouts
from .select.measured import (BYTES, FixedCost, calibrated_costs, calibration_for_use,
                              fixed_cost)
from .select.selection import Selection
from .select.selection import select as knapsack_select
from .typegraph import Kind, TypeGraph

MODES = ("hybrid", "compiled", "interpreted")
COST_MODELS = ("auto", "measured", "units")

Progress = Optional[Callable[[str], None]]


def _tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


@dataclass(frozen=True)
class SelectOptions:
    """Which types get compiled routines: the frequency source, the cost model, the
    budget, and the types forced either way.

    budget      "N" in the cost model's unit (bytes for the measured model, the paper's
                units for the unit model) or "P%" of the all-compiled cost.
    cost_model  "measured" (bytes of the compiled routines, instructions saved from the
                calibration), "units" (Hoschka & Huitema's figure 3), or "auto": measured,
                calibrating on first use, and units with a warning where it cannot be
                measured (no C compiler, no valgrind).
    pdus        the message types ("Module.Type"); limits the budget, and what `generate`
                emits, to the types they can hold.  Default: the types nothing else
                refers to (and every type is emitted).
    profiles    profile files to merge as the frequencies (else the static estimate).
    layouts     the layouts of the PDU's messages in the profiles are knapsack items
                beside the types, measured (docs/layouts.md, "Chosen by the knapsack"):
                exact ones and slot ones, each form a knapsack, the better kept; one
                PDU, profiles, and the measured cost model.
    layout_forms  the forms `layouts` weighs: both, or one ("exact" alone keeps every
                miss to the exact layouts' bounded dispatch).
    """
    pdus: tuple[str, ...] = ()
    profiles: tuple[str, ...] = ()
    budget: str = "20%"
    cost_model: str = "auto"
    calibration: Optional[str] = None     # the measured model's file (default: the cache)
    force_compiled: tuple[str, ...] = ()
    force_interpreted: tuple[str, ...] = ()
    layouts: bool = False
    layout_forms: tuple[str, ...] = LAYOUT_FORMS

    def __post_init__(self) -> None:
        if self.layouts and (len(self.pdus) != 1 or not self.profiles):
            raise UsageError("--layouts auto chooses among the layouts of one PDU's messages "
                             "in a profile: give one --pdu and --profile")
        if self.layouts and self.cost_model == "units":
            raise UsageError("--layouts auto needs the measured cost model: a fast path's "
                             "cost and saving are bytes and instructions")
        for name in ("pdus", "profiles", "force_compiled", "force_interpreted",
                     "layout_forms"):
            object.__setattr__(self, name, _tuple(getattr(self, name)))
        object.__setattr__(self, "budget", str(self.budget))
        if self.cost_model not in COST_MODELS:
            raise UsageError(f"cost model {self.cost_model!r}: choose from "
                             + ", ".join(COST_MODELS))
        parse_budget(self.budget)         # BudgetError now rather than mid-pipeline
        if not self.layout_forms or not set(self.layout_forms) <= set(LAYOUT_FORMS):
            raise UsageError(f"layout forms {', '.join(self.layout_forms) or '(none)'}: "
                             "choose from " + ", ".join(LAYOUT_FORMS))


def encoding_rules(names: Sequence[str]) -> tuple[str, ...]:
    """The encoding rules named, in RULES' order (UsageError for none or others); der
    beside ber is ber's part."""
    unknown = [e for e in names if e not in RULES]
    if unknown or not names:
        raise UsageError(f"encoding rules {', '.join(unknown) or '(none)'}: this "
                         "compiler carries " + ", ".join(RULES))
    return tuple(e for e in RULES if e in names and not (e == "der" and "ber" in names))


@dataclass(frozen=True)
class CompileOptions:
    """What `compile` writes.

    mode        "hybrid" (the knapsack decides), "compiled" or "interpreted" (every type
                one way; `select.force_*` still apply).
    name        base name of the generated files (default: the first module's name).
    prefix      prefix of every generated C symbol, so that several specs link together.
    encodings   the encoding rules the build carries (ber, uper, aper; default all).
                A compiled type gets the routines of these rules: BER ones with ber,
                PER ones (both variants) with uper or aper.  der instead of ber: BER
                with DER's forms of strings and times alone (primitive strings, times in
                DER form), and none of the code for the others.
    converter   also the source of a command-line converter program.
    emit_runtime  also copy the runtime's sources next to the generated code.
    keep_encoding  SEQUENCE and SET types ("Module.Type") whose decoded values keep their
                TLV as received, in a last field `encoding_` (the signed part of a
                certificate, to hash without a second pass).
    layouts     fast paths for the N most frequent layouts of the PDU's messages
                (docs/layouts.md), from the profiles (`select.profiles`); one PDU
                (`select.pdus`) must be named.
    layout_form  which of the profile's layouts: "exact" or "slot".
    """
    mode: str = "hybrid"
    select: SelectOptions = field(default_factory=SelectOptions)
    name: Optional[str] = None
    prefix: str = ""
    encodings: tuple[str, ...] = ENCODINGS
    converter: bool = False
    emit_runtime: bool = False
    keep_encoding: tuple[str, ...] = ()
    layouts: int = 0
    layout_form: str = "exact"

    def __post_init__(self) -> None:
        object.__setattr__(self, "encodings", _tuple(self.encodings))
        object.__setattr__(self, "keep_encoding", _tuple(self.keep_encoding))
        if self.mode not in MODES:
            raise UsageError(f"mode {self.mode!r}: choose from " + ", ".join(MODES))
        object.__setattr__(self, "encodings", encoding_rules(self.encodings))
        if self.layout_form not in LAYOUT_FORMS:
            raise UsageError(f"layout form {self.layout_form!r}: choose from "
                             + ", ".join(LAYOUT_FORMS))
        if self.layouts < 0:
            raise UsageError(f"--layouts {self.layouts}: give a number of layouts, 0 or more")
        if self.select.layouts and (self.mode != "hybrid" or self.layouts):
            raise UsageError("--layouts auto: the knapsack chooses the layouts, beside the "
                             "types, in the hybrid mode (give a number of layouts otherwise)")
        if self.layouts and (len(self.select.pdus) != 1 or not self.select.profiles):
            raise UsageError("--layouts takes the layouts of one PDU's messages from a "
                             "profile: give one --pdu and --profile")
        # (fast paths match BER's headers as the traces had them: DER's alone is not enough)
        if ("ber" not in self.encodings and (self.layouts or self.select.layouts)) \
                or (not carries_ber(self.encodings) and self.keep_encoding):
            raise UsageError(f"--encoding {','.join(self.encodings)}: layout fast paths "
                             "and kept encodings are BER's, so they need ber among the "
                             "rules")
        if self.name is not None and (self.name in ("", ".", "..") or "/" in self.name
                                      or "\\" in self.name):
            raise UsageError(f"--name {self.name!r} is not a file name")
        if self.prefix and not re.fullmatch(r"[A-Za-z_]\w*", self.prefix, re.ASCII):
            raise UsageError(f"--prefix {self.prefix!r} cannot start a C identifier: give "
                             "letters, digits and underscores, not starting with a digit")


# ---- the stages --------------------------------------------------------------------------

def load(specs: Sequence[str], diagnostics: Optional[Diagnostics] = None, *,
         lenient: bool = False) -> TypeGraph:
    """Parses and analyses the specifications (files, or directories of .asn/.asn1
    files).  Raises CompileError with `file:line:col` diagnostics.  `lenient` accepts the
    common defects of real specifications with a warning (docs/frontend.md)."""
    return frontend.load(list(specs), diagnostics, lenient=lenient)


def pdus(graph: TypeGraph, options: SelectOptions) -> list[str]:
    """The node ids of the message types: `options.pdus`, else the graph's roots."""
    return [node.id for node in resolve_pdus(graph, options.pdus)]


def estimate(graph: TypeGraph, options: SelectOptions) -> Estimate:
    """Values per message of every type: the merged profiles, or the static estimate."""
    if options.profiles:
        return Profile.merge(Profile.load(p) for p in options.profiles).estimate(graph)
    return static_estimate(graph, resolve_pdus(graph, options.pdus))


@dataclass(frozen=True)
class CostModel:
    """What compiling each knapsack item costs and saves, in the model's units."""
    costs: dict[str, Cost]
    unit: str                         # "bytes" or "units"
    name: str                         # "measured" or "units"
    fixed: Optional[FixedCost] = None   # measured: what every build pays
    notes: tuple[str, ...] = ()       # warnings (a fallback to units)


def costs(graph: TypeGraph, est: Estimate, options: SelectOptions,
          progress: Progress = None, encodings: tuple[str, ...] = ENCODINGS) -> CostModel:
    """The cost model `options.cost_model` asks for ("auto": measured where it can be), for
    a build that carries `encodings` (the measured model weighs BER's routines, or PER's
    in a build without BER)."""
    if options.cost_model == "units":
        return CostModel(unit_costs(graph, est.items_per_value), UNIT, "units")
    try:
        calibration = calibration_for_use(options.calibration, progress)
        measured = calibrated_costs(graph, est, calibration, encodings)
        fixed = fixed_cost(graph, pdus(graph, options), encodings)
        return CostModel(measured, BYTES, "measured", fixed)
    except (MeasurementError, CalibrationError) as exc:
        if options.cost_model == "measured" or options.calibration or options.layouts:
            raise
        why = str(exc).strip().splitlines()[0]
        return CostModel(unit_costs(graph, est.items_per_value), UNIT, "units",
                         notes=(f"the measured cost model cannot run here ({why}): "
                                "using the paper's units (--cost-model units)",))


def select(graph: TypeGraph, options: SelectOptions, est: Optional[Estimate] = None,
           progress: Progress = None, encodings: tuple[str, ...] = ENCODINGS) -> Selection:
    """The selection, for a build that carries `encodings`: which types are compiled,
    with the table `explain` prints."""
    if options.layouts and "ber" not in encodings:
        raise UsageError("--layouts auto: layout fast paths are BER's; give ber among the "
                         "encoding rules")
    est = est if est is not None else estimate(graph, options)
    model = costs(graph, est, options, progress, encodings)
    reachable = reachable_items(graph, pdus(graph, options)) if options.pdus else None
    forced = [[resolve_type(graph, name).id for name in names]
              for names in (options.force_compiled, options.force_interpreted)]
    def knapsack(layouts: Optional[LayoutCosts]) -> Selection:
        return knapsack_select(graph, est.frequencies, model.costs, options.budget,
                               force_compiled=forced[0], force_interpreted=forced[1],
                               unit=model.unit, source=est.source, reachable=reachable,
                               layouts=layouts)
    if not options.layouts:
        selection = knapsack(None)
    else:
        # each form is a knapsack of its own (a message matches one layout of each): the
        # one that saves more is kept, exact at equal saving (it encodes too)
        pdu, learnt = _profile_layouts(graph, options)
        candidates = [*learnt.forms["exact"], *learnt.forms["slot"]]
        graph_emitted = emitted(graph, options)
        solved = []
        for form in (f for f in LAYOUT_FORMS if f in options.layout_forms):
            if progress:
                progress(f"measuring the fast paths of {len(learnt.forms[form])} {form} "
                         f"layouts of {pdu} ...")
            solved.append(knapsack(measure_layouts(graph_emitted, pdu, candidates,
                                                   learnt.messages, form)))
        selection = max(solved, key=lambda s: s.saving)
        selection.layout_forms = {s.layout_form: s.saving for s in solved}
    selection.cost_model = model.name
    selection.fixed_cost = model.fixed
    selection.notes = list(model.notes)
    return selection


def compiled_types(graph: TypeGraph, options: CompileOptions, progress: Progress = None,
                   selection: Optional[Selection] = None) -> set[str]:
    """The node ids that get compiled routines, as the mode and the forced types ask
    (hybrid: `selection`, else the selection `options.select` asks for)."""
    if options.mode == "hybrid":
        if selection is None:
            selection = select(graph, options.select, progress=progress,
                               encodings=options.encodings)
        return selection.compiled
    chosen = {n.id for n in knapsack_items(graph)} if options.mode == "compiled" else set()
    for names, compile_it in ((options.select.force_compiled, True),
                              (options.select.force_interpreted, False)):
        for name in names:
            node = resolve_type(graph, name)
            if not node.has_routines:
                raise SelectionError(f"{node.id} is not a constructed type with its own "
                                     "representation: it has no routines to compile")
            (chosen.add if compile_it else chosen.discard)(node.id)
    return chosen


def kept_types(graph: TypeGraph, options: CompileOptions) -> set[str]:
    """The SEQUENCE and SET types (their representations' owners) whose values keep their
    TLV (--keep-encoding); they cannot be interpreted."""
    kept = set()
    interpreted = {resolve_type(graph, name).id for name in options.select.force_interpreted}
    for name in options.keep_encoding:
        try:
            node = graph.target(resolve_type(graph, name).id)
        except UsageError as exc:
            raise UsageError(f"cannot keep the encoding of {name}: {exc}") from None
        if node.kind not in (Kind.SEQUENCE, Kind.SET):
            raise UsageError(f"cannot keep the encoding of {name}: only SEQUENCE and SET "
                             f"types keep theirs (it is {node.kind.value})")
        if node.id in interpreted:
            raise UsageError(f"cannot keep the encoding of {name} and interpret it: its "
                             "compiled routine keeps it")
        kept.add(node.id)
    return kept


def emitted(graph: TypeGraph, options: SelectOptions) -> TypeGraph:
    """The types a build emits: with PDUs named, those their values can involve (and the
    forced types, and the types of the value assignments); else every type."""
    if not options.pdus:
        return graph
    return emitted_graph(graph, pdus(graph, options),
                         [resolve_type(graph, name).id
                          for name in options.force_compiled + options.force_interpreted])


def output_name(graph: Optional[TypeGraph], options: CompileOptions) -> str:
    """The base name of the generated files: `options.name`, else the first module's."""
    if options.name is not None:
        return options.name
    if graph is None:
        raise UsageError("the output name comes from the specification: give a name")
    return c_identifier(graph.modules[0].name)


def output_names(name: str, options: CompileOptions) -> list[str]:
    """The files `compile` writes into its output directory, in the order
    `--list-outputs` prints them.  The converter goes into `converter/`, so that a build
    of every .c file of the directory makes the library without its main()."""
    names = [f"{name}.h", f"{name}.c"]
    if options.converter:
        names.append(f"converter/{name}_converter.c")
    if options.emit_runtime:
        names += [path.name for path in runtime_sources()]
    return names


def _profile_layouts(graph: TypeGraph, options: SelectOptions) -> tuple[str, PduLayouts]:
    """The PDU type and its layouts in the merged profiles."""
    pdu = resolve_type(graph, options.pdus[0]).id
    profile = Profile.merge(Profile.load(p) for p in options.profiles)
    profile.check(graph)
    learnt = profile.layouts.get(pdu)
    if learnt is None:
        raise UsageError(f"--layouts: the profiles have no layouts of {pdu} (make them with "
                         "`asn1c-hybrid profile` on a BER trace of it)")
    return pdu, learnt


def fast_layouts(graph: TypeGraph, options: CompileOptions,
                 selection: Optional[Selection] = None
                 ) -> Optional[tuple[str, tuple[MessageLayout, ...]]]:
    """The PDU type and the layouts that get fast paths: the N most frequent
    (`options.layouts`), or those the knapsack chose (`selection`, --layouts auto)."""
    if options.layouts:
        pdu, learnt = _profile_layouts(graph, options.select)
        return pdu, tuple(learnt.forms[options.layout_form][:options.layouts])
    if selection is not None and selection.layout_pdu:
        return selection.layout_pdu, tuple(selection.chosen_layouts)
    return None


def generate(graph: TypeGraph, options: CompileOptions, progress: Progress = None,
             selection: Optional[Selection] = None) -> dict[str, str]:
    """Every output file, by name, rendered in memory: nothing is written.  A hybrid
    build uses `selection` when given (from `select`), else makes it."""
    name = output_name(graph, options)
    kept = kept_types(graph, options)
    if options.mode == "hybrid" and selection is None:
        selection = select(graph, options.select, progress=progress,
                           encodings=options.encodings)
    # a kept type is always compiled: its routine sets `encoding_` (the interpreter pays
    # nothing for a feature its types do not use)
    compiled = compiled_types(graph, options, progress, selection) | kept
    built = emitted(graph, options.select)
    missing = sorted(kept - set(built.nodes))
    if missing:
        raise UsageError(f"cannot keep the encoding of {', '.join(missing)}: not in the build "
                         "(no PDU named can hold it)")
    files = emit_generate(built, compiled,
                          EmitOptions(name, options.prefix, converter=options.converter,
                                      encodings=options.encodings,
                                      keep_encoding=frozenset(kept),
                                      fast_layouts=fast_layouts(graph, options, selection)))
    if options.emit_runtime:
        for path in runtime_sources():
            files[path.name] = path.read_text(encoding="utf-8")
    names = output_names(name, options)
    if sorted(files) != sorted(names):
        raise AssertionError(f"generated {sorted(files)}, but the output list says {names}")
    return {name: files[name] for name in names}


def list_outputs(specs: Sequence[str], output_dir: str, options: CompileOptions, *,
                 lenient: bool = False) -> list[str]:
    """The paths `compile_to` would write, writing nothing.  The specifications are read
    only when no name is given, so that a build system can ask cheaply at configure time."""
    graph = None if options.name is not None else load(specs, lenient=lenient)
    return [os.path.join(output_dir, name)
            for name in output_names(output_name(graph, options), options)]


def dependencies(graph: TypeGraph, specs: Sequence[str], options: CompileOptions) -> list[str]:
    """Every input of `compile`, for a depfile: the directories named (so that a file
    added to one is noticed), the specification files read, the profiles, and the
    compiler's own sources and templates (so that upgrading the compiler regenerates);
    the runtime too when it is copied, or compiled to measure costs."""
    measured = options.mode == "hybrid" and options.select.cost_model != "units"
    deps = [spec for spec in specs if os.path.isdir(spec)]
    deps += [file for file in graph.sources if os.path.isfile(file)]
    deps += list(options.select.profiles)
    deps += [str(path) for path in compiler_files()]
    if options.emit_runtime or measured:
        deps += [str(path) for path in runtime_sources()]
    if measured:
        deps.append(str(options.select.calibration or default_path()))
    return list(dict.fromkeys(deps))


def compile_to(graph: TypeGraph, output_dir: str, options: CompileOptions, *,
               specs: Sequence[str] = (), depfile: Optional[str] = None,
               stamp: Optional[str] = None, progress: Progress = None,
               selection: Optional[Selection] = None) -> list[Path]:
    """Generates and writes every output into `output_dir`, all or nothing; with
    `depfile`, also a Make/Ninja depfile naming every input (the directories among
    `specs` included); then touches `stamp`."""
    files = generate(graph, options, progress, selection)
    paths = {Path(output_dir, name): text.encode() for name, text in files.items()}
    contents = dict(paths)
    if depfile:
        targets = [stamp] if stamp else [os.path.join(output_dir, name) for name in files]
        contents[Path(depfile)] = format_depfile(
            targets, dependencies(graph, specs, options)).encode()
    write_atomically(contents)
    if stamp:
        Path(stamp).parent.mkdir(parents=True, exist_ok=True)
        Path(stamp).touch()
    return list(paths)


def profile(graph: TypeGraph, pdu: str, traces: Sequence[str] = (), *,
            trace_format: str = "auto", port: Optional[int] = None,
            merge: Sequence[str] = (), encoding: str = "ber",
            progress: Optional[Callable[[int, int], None]] = None) -> Profile:
    """`asn1c-hybrid profile`: the values of each type in the PDUs of `traces` (BER,
    hex text, framed or pcap; in the `encoding` rules: ber, uper or aper), counted by
    replay through the runtime, and their layouts (BER only), plus the profiles of
    `merge`.  `progress(done, total)` follows the replay."""
    pdu_id = resolve_type(graph, pdu).id
    profiles = []
    for path in merge:
        merged = Profile.load(path)
        merged.check(graph)
        profiles.append(merged)
    if not traces and not profiles:
        raise UsageError("nothing to count: give a trace (or a profile to merge)")
    pdus_read: list[bytes] = []
    names: list[str] = []
    for path in traces:
        read = read_trace(path, trace_format, port, encoding)
        pdus_read.extend(read)
        names.extend(f"{path}: PDU {k}" for k in range(1, len(read) + 1))
    if traces:
        total = len(pdus_read)
        counted = replay(graph, pdu_id, pdus_read,
                         (lambda done: progress(done, total)) if progress else None,
                         names, encoding)
        if encoding == "ber":
            counted.layouts[pdu_id] = learn_layouts(pdus_read, names)
        profiles.insert(0, counted)
    return Profile.merge(profiles)


__all__ = ["CompileOptions", "CostModel", "SelectOptions", "MODES", "COST_MODELS",
           "LAYOUT_FORMS",
           "ENCODINGS", "encoding_rules", "load", "pdus", "estimate", "costs", "select",
           "compiled_types", "output_name", "output_names", "generate", "list_outputs",
           "dependencies", "compile_to", "profile"]
