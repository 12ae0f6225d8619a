"""Builds and runs the libFuzzer targets, one per example PDU (`make fuzz`).

    python fuzz/run.py [--seconds N | --runs N] [--out DIR] [TARGET...]

Each target (personnel, blackwell, x400, x509) is the harness of harness.c built with clang
(-fsanitize=fuzzer,address,undefined) around the generated code in the given mode, seeded
with the example messages.  The corpus is kept in OUT/TARGET/corpus between runs, so that
long runs build on each other; a crash, leak or broken round trip leaves its input in
OUT/TARGET/ (crash-*, leak-*, ...), makes the run fail, and prints the command that replays
it.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import targets  # noqa: E402


@dataclass
class Outcome:
    target: str
    program: Path
    ok: bool
    runs: int
    seconds: float
    corpus: int
    log: str
    artifacts: List[Path]


def seed(corpus: Path, messages: Sequence[bytes]) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    for message in messages:
        (corpus / ("seed-" + hashlib.sha1(message).hexdigest())).write_bytes(message)


def fuzz(name: str, out: Path, *, seconds: Optional[int] = None, runs: Optional[int] = None,
         mode: str = "mixed", flags: Sequence[str] = ("-O1", "-g")) -> Outcome:
    target = targets.TARGETS[name]
    folder = out / name
    program = targets.build_cached(target, mode, out / "build", libfuzzer=True, flags=flags)
    corpus = folder / "corpus"
    seeds = target.seeds()
    seed(corpus, seeds)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("crash-*"):
        old.unlink()
    max_len = max([len(s) for s in seeds] + [4096]) * 2
    argv = [str(program), str(corpus), f"-max_len={max_len}", "-timeout=10",
            "-rss_limit_mb=2048", "-print_final_stats=1", f"-artifact_prefix={folder}/"]
    if runs is not None:
        argv.append(f"-runs={runs}")
    if seconds is not None:
        argv.append(f"-max_total_time={seconds}")
    result = subprocess.run(argv, capture_output=True, text=True, errors="replace")
    log = result.stderr
    executed = re.search(r"stat::number_of_executed_units:\s*(\d+)", log)
    elapsed = re.search(r"Done (\d+) runs in (\d+) second", log)
    artifacts = sorted(p for p in folder.iterdir() if p.is_file())
    return Outcome(name, program, result.returncode == 0, int(executed.group(1)) if executed else 0,
                   float(elapsed.group(2)) if elapsed else 0.0,
                   sum(1 for _ in corpus.iterdir()), log, artifacts)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"any of {', '.join(targets.FUZZ_TARGETS)} (default: all)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=int, help="run each target this long")
    budget.add_argument("--runs", type=int, help="run each target on this many inputs")
    parser.add_argument("--mode", default="mixed", choices=list(targets.MODES),
                        help="how the generated code is built (default: mixed)")
    parser.add_argument("--out", type=Path, default=targets.REPO / "build" / "fuzz",
                        help="builds, corpora and crash inputs (default: build/fuzz)")
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in targets.FUZZ_TARGETS]
    if unknown:
        parser.error(f"no fuzz target {', '.join(unknown)}")
    args.targets = args.targets or list(targets.FUZZ_TARGETS)
    if args.seconds is None and args.runs is None:
        args.seconds = 60
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    failed = 0
    for name in args.targets:
        outcome = fuzz(name, args.out, seconds=args.seconds, runs=args.runs, mode=args.mode)
        status = "ok" if outcome.ok else "FAILED"
        print(f"{name}: {status}: {outcome.runs} inputs in {outcome.seconds:.0f} s, "
              f"corpus {outcome.corpus}", flush=True)
        if not outcome.ok:
            failed += 1
            print(outcome.log[-4000:])
            for artifact in outcome.artifacts:
                print(f"  input kept: {artifact}  (replay: {outcome.program} {artifact})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
