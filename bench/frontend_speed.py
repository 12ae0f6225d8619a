"""Front-end speed: lines of ASN.1 per second through `asn1c-hybrid check`.

Runs `check` on the largest specification set of ../shared/specs (by lines) and writes
bench/results/frontend_speed.json:

* cold     -- in process, the cache of parsed modules turned off: parse + analysis;
* warm     -- in process, every module already in the cache: what a rebuild costs;
* process  -- `python -m asn1c_hybrid check` as a user runs it, warm cache, including
              the interpreter's start and the imports;
* parse_two_stage / parse_ll_only -- parsing alone, with SLL-then-LL prediction (what the
              front end does) and with full LL prediction from the start, to show what the
              two-stage strategy buys.

Each figure is the best of several runs (the least disturbed by other load on the
machine).  The cache used is a temporary directory, never the user's.

    .venv/bin/python bench/frontend_speed.py [--repeat N] [--specs DIR]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASN1H_SHARED", REPO.parent / "shared"))
RESULTS = REPO / "bench" / "results" / "frontend_speed.json"
GOAL = 20000

sys.path.insert(0, str(REPO))

from asn1c_hybrid import cli  # noqa: E402
from asn1c_hybrid.frontend import parsing  # noqa: E402
from asn1c_hybrid.frontend.loader import read_source, spec_files  # noqa: E402


def largest_spec_set(specs: Path) -> Path:
    def lines(directory: Path) -> int:
        return sum(read_source(f).count("\n") for f in spec_files([str(directory)]))
    return max((d for d in specs.iterdir() if d.is_dir()), key=lines)


def best_time(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def check_in_process(directory: Path) -> None:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        status = cli.main(["check", str(directory)])
    if status != 0:
        raise SystemExit(f"check failed on {directory}")


def parse_only(texts: list[str], two_stage: bool) -> None:
    from antlr4 import CommonTokenStream, InputStream
    from antlr4.atn.PredictionMode import PredictionMode
    for text in texts:
        if two_stage:
            parsing.parse_text(text)
            continue
        stream = CommonTokenStream(parsing.ASN1Lexer(InputStream(text)))
        parser = parsing.ASN1Parser(stream)
        parser.removeErrorListeners()
        parser._interp.predictionMode = PredictionMode.LL
        parser.moduleDefinitions()


def measure(directory: Path, repeat: int) -> dict:
    files = spec_files([str(directory)])
    texts = [read_source(f) for f in files]
    lines = sum(text.count("\n") for text in texts)
    with tempfile.TemporaryDirectory(prefix="asn1h-bench-cache-") as cache:
        os.environ["ASN1H_CACHE_DIR"] = cache
        os.environ["ASN1H_NO_CACHE"] = "1"
        check_in_process(directory)                       # imports, first-use costs
        cold = best_time(lambda: check_in_process(directory), repeat)
        del os.environ["ASN1H_NO_CACHE"]
        check_in_process(directory)                       # fills the cache
        warm = best_time(lambda: check_in_process(directory), repeat)
        command = [sys.executable, "-m", "asn1c_hybrid", "check", str(directory)]
        process = best_time(lambda: subprocess.run(command, check=True, cwd=REPO,
                                                   capture_output=True), repeat)
    two_stage = best_time(lambda: parse_only(texts, True), max(1, repeat // 2))
    ll_only = best_time(lambda: parse_only(texts, False), max(1, repeat // 2))

    def rate(seconds: float) -> int:
        return round(lines / seconds)

    return {
        "spec_set": directory.name,
        "files": len(files),
        "lines": lines,
        "goal_lines_per_second": GOAL,
        "lines_per_second": {
            "cold": rate(cold), "warm": rate(warm), "process": rate(process),
            "parse_two_stage": rate(two_stage), "parse_ll_only": rate(ll_only)},
        "seconds": {"cold": round(cold, 4), "warm": round(warm, 4),
                    "process": round(process, 4), "parse_two_stage": round(two_stage, 4),
                    "parse_ll_only": round(ll_only, 4)},
        "repeat": repeat,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (best kept)")
    parser.add_argument("--specs", type=Path, default=SHARED / "specs",
                        help="folder of specification sets (default: ../shared/specs)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    directory = largest_spec_set(args.specs)
    result = measure(directory, args.repeat)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    rates = result["lines_per_second"]
    print(f"{result['spec_set']}: {result['lines']} lines in {result['files']} files")
    for name, value in rates.items():
        print(f"  {name:16} {value:>8} lines/s")
    print(f"written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
