"""The command line: `asn1c-hybrid check | explain | profile | compile | calibrate | study`.

Each subcommand parses its arguments into the typed options of api.py, calls the API and
prints.  Errors become `file:line:col: error:` lines (specifications) or one
`asn1c-hybrid: error:` line (everything else) on stderr and a non-zero exit, never a
traceback: a bug of ours is one `asn1c-hybrid: internal error:` line and exit status 70
(ASN1H_TRACEBACK=1 shows its traceback).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from . import __version__, api
from .diagnostics import CompileError, Diagnostics
from .errors import Asn1cHybridError, UsageError
from .estimate.progress import Progress
from .estimate.trace import ENCODINGS as TRACE_ENCODINGS, FORMATS as TRACE_FORMATS
from .resources import data_dir
from .select.calibrate import calibrate
from .select.calibration import ALL_FEATURES, PER_FEATURES, default_path
from .select.report import FORMATS, format_selection
from .study import DEFAULT_PDU, StudyOptions, default_example, parse_budgets, study
from .study.results import COST_MODELS as STUDY_COST_MODELS, DEFAULT_BUDGETS

INTERNAL_ERROR = 70                 # sysexits.h's EX_SOFTWARE


def _note(message: str) -> None:
    print(f"asn1c-hybrid: {message}", file=sys.stderr, flush=True)


def _warn(message: str) -> None:
    print(f"asn1c-hybrid: warning: {message}", file=sys.stderr, flush=True)


def _add_spec_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("specs", nargs="+", metavar="SPEC",
                        help="ASN.1 files, or directories searched for .asn/.asn1 files")
    parser.add_argument("--lenient", action="store_true",
                        help="accept the common defects of real specifications (an empty "
                             "parameter list, IMPLICIT on a CHOICE, ...) with a warning each; "
                             "docs/frontend.md lists them")


def _load(args: argparse.Namespace):
    """The type graph of the SPECs; in lenient mode, the tolerated defects are printed."""
    diagnostics = Diagnostics(lenient=args.lenient)
    graph = api.load(args.specs, diagnostics)
    if args.lenient:
        diagnostics.print(sys.stderr)
    return graph


def _add_selection_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budget", default="20%",
                        help="code-size budget: P%% of the all-compiled cost, or N in the "
                             "cost model's unit (bytes of machine code for the measured "
                             "model, the paper's code units for the units model)")
    parser.add_argument("--pdu", action="append", default=[], metavar="Module.Type",
                        help="top-level type(s) of the messages (default: unreferenced types); "
                             "compile then emits only the types their values can hold")
    parser.add_argument("--profile", metavar="FILE", action="append", default=[],
                        help="a profile from `asn1c-hybrid profile` instead of the static "
                             "estimate; several are merged by summing their counts")
    parser.add_argument("--cost-model", choices=api.COST_MODELS, default="auto",
                        help="measured: bytes of the compiled routines and the calibrated "
                             "instructions they save (calibrated on first use); units: the "
                             "paper's figure 3; auto (default): measured, or units with a "
                             "warning where it cannot be measured")
    parser.add_argument("--calibration", metavar="FILE",
                        help="the measured model's calibration (default: the one "
                             "`asn1c-hybrid calibrate` writes, made on first use)")


def _layouts_count(text: str):
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a number nor auto") from None


def _add_encoding_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoding", action="append", default=[], metavar="RULES",
                        help="the encoding rules the build carries, comma-separated: ber, "
                             "uper, aper (default all three), or der for BER with DER's "
                             "forms of strings and times alone, and values kept as "
                             "received written back in DER's framing only, without the "
                             "code of the others; without PER the "
                             "tables leave "
                             "its constraints out and the converter does not link it; "
                             "without BER compiled types get PER routines alone, which the "
                             "measured cost model weighs")


def _encodings(args: argparse.Namespace) -> tuple[str, ...]:
    named = tuple(e.strip() for arg in args.encoding for e in arg.split(",") if e.strip())
    return api.encoding_rules(named) if named else api.ENCODINGS


def _select_options(args: argparse.Namespace) -> api.SelectOptions:
    return api.SelectOptions(
        pdus=args.pdu, profiles=args.profile, budget=args.budget, cost_model=args.cost_model,
        calibration=args.calibration,
        force_compiled=getattr(args, "force_compiled", ()),
        force_interpreted=getattr(args, "force_interpreted", ()),
        layouts=getattr(args, "layouts", None) == "auto",
        layout_forms=(args.layout_form,) if args.layout_form else api.LAYOUT_FORMS)


def cmd_check(args: argparse.Namespace) -> int:
    """Parse and analyse; print every error and warning; exit 0 only without errors."""
    diagnostics = Diagnostics(lenient=args.lenient)
    try:
        graph = api.load(args.specs, diagnostics)
    except CompileError:
        diagnostics.print(sys.stderr)
        return 1
    diagnostics.print(sys.stderr)
    if args.verbose:
        print(f"{len(graph.modules)} modules, {len(graph.nodes)} types, "
              f"{len(graph.values)} values")
    return 1 if diagnostics.errors else 0


def cmd_explain(args: argparse.Namespace) -> int:
    options = _select_options(args)
    selection = api.select(_load(args), options, progress=_note, encodings=_encodings(args))
    for note in selection.notes:
        _warn(note)
    sys.stdout.write(format_selection(selection, args.format))
    return 0


def _compile_options(args: argparse.Namespace) -> api.CompileOptions:
    return api.CompileOptions(mode=args.mode, select=_select_options(args), name=args.name,
                              prefix=args.prefix, converter=args.converter,
                              emit_runtime=args.emit_runtime, encodings=_encodings(args),
                              keep_encoding=tuple(args.keep_encoding),
                              layouts=0 if args.layouts == "auto" else args.layouts,
                              layout_form=args.layout_form or "exact")


def cmd_compile(args: argparse.Namespace) -> int:
    options = _compile_options(args)
    if args.list_outputs:
        for path in api.list_outputs(args.specs, args.output, options, lenient=args.lenient):
            print(path)
        return 0
    graph = _load(args)
    selection = None
    if options.mode == "hybrid":
        selection = api.select(graph, options.select, progress=_note,
                               encodings=options.encodings)
        for note in selection.notes:
            _warn(note)
    written = api.compile_to(graph, args.output, options, specs=args.specs,
                             depfile=args.depfile, stamp=args.stamp, selection=selection)
    if args.verbose:
        for path in written:
            print(path)
    return 0


def cmd_profile(args: argparse.Namespace) -> int:
    graph = _load(args)
    bar: Optional[Progress] = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(total, "replaying", enabled=False if args.no_progress else None)
        bar.update(done)
    try:
        profile = api.profile(graph, args.pdu, args.trace, trace_format=args.trace_format,
                              port=args.port, merge=args.merge, encoding=args.encoding,
                              progress=progress)
    finally:
        if bar is not None:
            bar.close()
    for pdu, learnt in profile.layouts.items():
        shares = ", ".join(
            f"{len(learnt.forms[form])} {form} (the 10 most frequent: "
            f"{100 * sum(l.count for l in learnt.forms[form][:10]) / max(learnt.messages, 1):.1f}%)"
            for form in learnt.forms)
        _note(f"{pdu}: layouts of {learnt.messages} messages: {shares}")
    if args.output == "-":
        sys.stdout.write(profile.dumps())
    else:
        profile.save(args.output)
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Measure the time-saving model's coefficients on this compiler and machine."""
    output = args.output or str(default_path())
    calibration = calibrate(progress=None if args.quiet else _count_progress("calibrating"))
    calibration.save(output)
    if not args.quiet:
        data = calibration.to_json()
        print(f"{calibration.compiler} on {calibration.machine}: instructions saved per value")
        for rules, part, names in (("BER", data, ALL_FEATURES),
                                   ("PER", data["per"], PER_FEATURES)):
            print(f" {rules}")
            for name in names:
                print(f"  {name:16} {part['coefficients'][name]:10.1f}")
            for held in part["fit"].get("held_out", []):
                print(f"  held out {held['shape']}: measured {held['measured']:.0f}, "
                      f"predicted {held['predicted']:.0f} ({held['relative_error']:.1%})")
        print(f"written: {output}")
    return 0


def _count_progress(what: str):
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        print(f"\r{what}: {done}/{total}", end="" if done < total else "\n",
              file=sys.stderr, flush=True)
    return show


def cmd_study(args: argparse.Namespace) -> int:
    """The trace study: selections at each budget, built and measured on the traces."""
    example = default_example()
    specs = args.spec or ([str(example / "spec")] if example else [])
    traces, profiles = args.trace, args.profile
    if not args.trace and example:
        traces = [str(example / "traces" / f"{n}.ber") for n in ("trace-18", "trace-2000")]
        shipped = [example.parents[1] / "profiles" / f"x400-{Path(t).stem}.json"
                   for t in traces]
        if not profiles and all(p.exists() for p in shipped):
            profiles = [str(p) for p in shipped]
    if not specs or not traces:
        raise UsageError("give --spec, --pdu and --trace: the X.400 example they default to "
                         "is only in the source tree")
    models = [m.strip() for m in args.cost_models.split(",") if m.strip()]
    if not models or any(m not in STUDY_COST_MODELS for m in models):
        raise UsageError(f"--cost-models {args.cost_models!r}: choose from "
                         + ", ".join(STUDY_COST_MODELS))
    options = StudyOptions(specs, args.pdu, traces, Path(args.output),
                           parse_budgets(args.budgets), list(dict.fromkeys(models)),
                           args.calibration, list(profiles), args.per_type, args.encoding,
                           progress=lambda line: print(line, flush=True))
    written = study(api.load(specs), options)
    for path in written:
        print(f"written: {_shown(path)}")
    sys.stdout.flush()
    return 0


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) \
            else str(path)
    except ValueError:
        return str(path)


class _PrintCMakeDir(argparse.Action):
    """`--cmake-dir`: like `--version`, it answers without a subcommand."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(data_dir("cmake"))
        parser.exit()


def _add_layout_form_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--layout-form", choices=api.LAYOUT_FORMS,
                   help="exact layouts, or slot layouts whose varying lengths are read: "
                        "with --layouts N, which (default exact); with --layouts auto, "
                        "the only form weighed (default both)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="asn1c-hybrid", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--cmake-dir", action=_PrintCMakeDir,
                        help="print the directory of Asn1cHybrid.cmake and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="parse and analyse; print errors and warnings")
    _add_spec_args(p)
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also print how many modules, types and values were found")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("explain", help="print the per-type selection table")
    _add_spec_args(p)
    _add_selection_args(p)
    p.add_argument("--compile", action="append", default=[], metavar="Module.Type",
                   dest="force_compiled", help="always compile this type")
    p.add_argument("--interpret", action="append", default=[], metavar="Module.Type",
                   dest="force_interpreted", help="always interpret this type")
    p.add_argument("--layouts", choices=["auto"],
                   help="auto: the layouts of the PDU's messages in the --profile are "
                        "knapsack items beside the types, exact and slot ones each in a "
                        "knapsack, the better kept (one --pdu; docs/layouts.md)")
    _add_layout_form_arg(p)
    _add_encoding_arg(p)
    p.add_argument("--format", choices=FORMATS, default="text")
    p.set_defaults(handler=cmd_explain)

    p = sub.add_parser("profile", help="count the values of each type in a trace of PDUs")
    _add_spec_args(p)
    p.add_argument("--pdu", required=True, metavar="Module.Type",
                   help="the type of the PDUs in the traces")
    p.add_argument("--trace", action="append", default=[], metavar="FILE",
                   help="a trace: concatenated BER PDUs, hex text, framed PDUs, or a pcap "
                        "(repeatable)")
    p.add_argument("--trace-format", choices=TRACE_FORMATS, default="auto",
                   help="how the traces are written (default: recognised from the content; "
                        "docs/selection.md, \"Trace files\")")
    p.add_argument("--encoding", choices=TRACE_ENCODINGS, default="ber",
                   help="the encoding rules of the traces' PDUs (default ber); a PER trace "
                        "is hex text with one PDU per line, framed PDUs, or UDP in a pcap")
    p.add_argument("--port", type=int, metavar="N",
                   help="pcap traces: the UDP or TCP port that carries the PDUs")
    p.add_argument("--merge", action="append", default=[], metavar="PROFILE",
                   help="add the counts of an existing profile (repeatable)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar, even on a terminal")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the profile to write (- for standard output)")
    p.set_defaults(handler=cmd_profile)

    p = sub.add_parser("compile", help="generate C")
    _add_spec_args(p)
    _add_selection_args(p)
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR")
    p.add_argument("--mode", choices=api.MODES, default="hybrid")
    p.add_argument("--name", help="base name of the generated files (default: first module)")
    p.add_argument("--prefix", default="", help="prefix of every generated C symbol "
                   "(letters, digits and _, not a digit first)")
    p.add_argument("--compile", action="append", default=[], metavar="Module.Type",
                   dest="force_compiled", help="always compile this type")
    p.add_argument("--interpret", action="append", default=[], metavar="Module.Type",
                   dest="force_interpreted", help="always interpret this type")
    _add_encoding_arg(p)
    p.add_argument("--keep-encoding", action="append", default=[], metavar="Module.Type",
                   help="decoded values of this SEQUENCE or SET type keep their TLV as "
                        "received, in a last field `encoding_` (what a signature covers)")
    p.add_argument("--layouts", type=_layouts_count, default=0, metavar="N|auto",
                   help="fast paths for the N most frequent layouts of the PDU's "
                        "messages in the --profile, or auto: those the knapsack chooses "
                        "beside the types (one --pdu; docs/layouts.md)")
    _add_layout_form_arg(p)
    p.add_argument("--converter", action="store_true",
                   help="also write the source of a converter program")
    p.add_argument("--emit-runtime", action="store_true",
                   help="also copy the runtime sources into OUTDIR")
    p.add_argument("-v", "--verbose", action="store_true", help="list the files written")
    p.add_argument("--list-outputs", action="store_true",
                   help="print the paths of the files compile would write, and write nothing "
                        "(reads no SPEC when --name is given)")
    p.add_argument("--depfile", metavar="FILE",
                   help="also write a Make/Ninja depfile naming every input read")
    p.add_argument("--stamp", metavar="FILE",
                   help="touch FILE after a successful run and name it as the depfile's "
                        "target (for build tools that track the run by one file)")
    p.set_defaults(handler=cmd_compile)

    p = sub.add_parser("calibrate", help="measure the instructions compiling saves per value, "
                                         "once per compiler and machine")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="the calibration file (default: the one the measured cost model "
                        "reads: $ASN1H_CALIBRATION, else ~/.cache/asn1c-hybrid/calibration.json)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    p.set_defaults(handler=cmd_calibrate)

    p = sub.add_parser("study", help="the trace study: time saved against code size, "
                                     "measured at each budget (default: the X.400 example)")
    p.add_argument("--spec", action="append", default=[], metavar="SPEC",
                   help="ASN.1 file or directory (repeatable; default: examples/x400/spec)")
    p.add_argument("--pdu", default=DEFAULT_PDU, metavar="Module.Type",
                   help=f"the type of the traces' PDUs (default: {DEFAULT_PDU})")
    p.add_argument("--trace", action="append", default=[], metavar="FILE",
                   help="a trace of PDUs, studied on its own (repeatable; default: the "
                        "example's trace-18.ber and trace-2000.ber)")
    p.add_argument("--profile", action="append", default=[], metavar="FILE",
                   help="the profile of each --trace, in the same order (default: the "
                        "example's shipped profiles/x400-*.json; else each trace is "
                        "replayed)")
    p.add_argument("-o", "--output", default="out/study", metavar="DIR",
                   help="where study.csv, the plots and report.md go (default: out/study)")
    p.add_argument("--budgets", default=",".join(map(str, DEFAULT_BUDGETS)), metavar="P,P,...",
                   help="the budgets, in percent of the all-compiled cost (0 and 100 always)")
    p.add_argument("--cost-models", default="measured,units", metavar="MODEL,...",
                   help="cost models whose selections are measured; the first one's curve is "
                        "study.csv (default: measured,units)")
    p.add_argument("--calibration", metavar="FILE",
                   help="the calibration of the measured cost model (default: made in DIR "
                        "on first use)")
    p.add_argument("--per-type", action="store_true",
                   help="also measure each type compiled alone, and the best selection those "
                        "measurements allow (one more build per type)")
    p.add_argument("--encoding", choices=("ber", "uper", "aper"), default="ber",
                   help="the rules of the traces' PDUs (default ber); a PER trace is hex "
                        "text with one PDU per line, or framed PDUs (docs/selection.md, "
                        "\"Trace files\"), and the builds carry those rules alone")
    p.set_defaults(handler=cmd_study)
    return parser


def _attach_values(argv: Sequence[str]) -> list[str]:
    """`--budget -5%` as `--budget=-5%`: argparse would take a value that starts with a
    dash for an option and answer with its usage text instead of the budget's error."""
    out: list[str] = []
    items = list(argv)
    k = 0
    while k < len(items):
        if items[k] == "--budget" and k + 1 < len(items):
            out.append(f"--budget={items[k + 1]}")
            k += 2
        else:
            out.append(items[k])
            k += 1
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(_attach_values(sys.argv[1:] if argv is None else argv))
    try:
        return args.handler(args)
    except CompileError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        return 1
    except Asn1cHybridError as exc:
        print(f"asn1c-hybrid: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        print(f"asn1c-hybrid: error: {name}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - a bug of ours: one line, not a traceback
        if os.environ.get("ASN1H_TRACEBACK"):
            raise
        print(f"asn1c-hybrid: internal error: {type(exc).__name__}: {exc} (a bug of "
              "asn1c-hybrid; ASN1H_TRACEBACK=1 shows where)", file=sys.stderr)
        return INTERNAL_ERROR
