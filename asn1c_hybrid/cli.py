"""The command line: `asn1c-hybrid check | explain | compile | profile | study`.

Each subcommand is a thin handler over `pipeline`; errors become `file:line:col: error:`
lines on stderr and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from . import __version__
from .diagnostics import CompileError, Diagnostics


class UsageError(Exception):
    """A bad option value: reported as `asn1c-hybrid: error: ...`, exit 2."""


def _add_spec_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("specs", nargs="+", metavar="SPEC",
                        help="ASN.1 files, or directories searched for .asn/.asn1 files")


def _add_selection_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budget", default="20%",
                        help="code-size budget: bytes (N) or a share of the all-compiled cost (P%%)")
    parser.add_argument("--pdu", action="append", default=[], metavar="Module.Type",
                        help="top-level type(s) of the messages (default: unreferenced types)")
    parser.add_argument("--profile", metavar="FILE",
                        help="a profile from `asn1c-hybrid profile` instead of the static estimate")
    parser.add_argument("--cost-model", choices=("units", "measured"), default="units",
                        help="the paper's unit formulas, or costs measured on this machine")


def cmd_check(args: argparse.Namespace) -> int:
    from . import pipeline
    diagnostics = Diagnostics()
    pipeline.load(args.specs, diagnostics)
    diagnostics.print()
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from . import pipeline
    selection = pipeline.select_for(pipeline.load(args.specs), args)
    sys.stdout.write(pipeline.format_selection(selection, args.format))
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    from . import pipeline
    graph = pipeline.load(args.specs)
    written = pipeline.compile_to(graph, args)
    if args.verbose:
        for path in written:
            print(path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="asn1c-hybrid", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="parse and analyse; print errors and warnings")
    _add_spec_args(p)
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("explain", help="print the per-type selection table")
    _add_spec_args(p)
    _add_selection_args(p)
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(handler=cmd_explain)

    p = sub.add_parser("compile", help="generate C")
    _add_spec_args(p)
    _add_selection_args(p)
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR")
    p.add_argument("--mode", choices=("compiled", "interpreted", "hybrid"), default="hybrid")
    p.add_argument("--name", help="base name of the generated files (default: first module)")
    p.add_argument("--prefix", default="", help="prefix of every generated C symbol")
    p.add_argument("--compile", action="append", default=[], metavar="Module.Type",
                   dest="force_compiled", help="always compile this type")
    p.add_argument("--interpret", action="append", default=[], metavar="Module.Type",
                   dest="force_interpreted", help="always interpret this type")
    p.add_argument("--converter", action="store_true",
                   help="also write the source of a converter program")
    p.add_argument("--emit-runtime", action="store_true",
                   help="also copy the runtime sources into OUTDIR")
    p.add_argument("-v", "--verbose", action="store_true", help="list the files written")
    p.set_defaults(handler=cmd_compile)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except CompileError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        return 1
    except UsageError as exc:
        print(f"asn1c-hybrid: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        print(f"asn1c-hybrid: error: {name}{exc.strerror or exc}", file=sys.stderr)
        return 1
