"""Builds and runs the libFuzzer targets (`make fuzz`).

    python fuzz/run.py [--kind round-trip|differential|both] [--seconds N | --runs N]
                       [--out DIR] [TARGET...]

Two kinds of target, all built with clang (-fsanitize=fuzzer,address,undefined):
  round-trip     one per example PDU (personnel, blackwell, x400, x509), and one per PER
                 example (cam and rrc in UPER, s1ap and ngap in APER): harness.c around
                 the generated code in the given mode (PER through the compiled types'
                 PER routines); every decoded value must print, re-encode and decode
                 again to the same value.
  differential   one per example and shared-spec PDU (and ldap, snmp, kerberos, the
                 captured SNMP traffic of examples/snmp, x509-der and pkix2009-der, the
                 certificates built with --encoding der, and the PER examples):
                 differential.c around a compiled, an interpreted and a mixed build of the
                 same specification, which must agree on every input.  The mixed builds of blackwell, ldap and
                 snmp-traffic also have layout fast paths (docs/layouts.md).
Each is seeded with its messages and with the inputs fuzz/regressions/TARGET keeps.  The
corpus is kept in OUT/KIND/TARGET/corpus between runs, so that long runs build on each
other; a finding leaves its input in OUT/KIND/TARGET/ (crash-*, leak-*, ...), makes the run
fail, and prints the command that replays it: keep it in fuzz/regressions/TARGET once fixed.
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


KINDS = ("round-trip", "differential")


@dataclass
class Outcome:
    kind: str
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
         mode: str = "mixed", flags: Sequence[str] = ("-O1", "-g"),
         kind: str = "round-trip") -> Outcome:
    target = targets.TARGETS[name]
    if kind == "differential":
        folder = out / kind / name
        program = targets.build_differential(target, out / "build" / f"diff-{name}",
                                             libfuzzer=True, flags=flags)
    else:
        folder = out / name
        program = targets.build_cached(target, mode, out / "build", libfuzzer=True,
                                       flags=flags)
    corpus = folder / "corpus"
    seeds = targets.seeds(target)
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
    return Outcome(kind, name, program, result.returncode == 0,
                   int(executed.group(1)) if executed else 0,
                   float(elapsed.group(2)) if elapsed else 0.0,
                   sum(1 for _ in corpus.iterdir()), log, artifacts)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"any of {', '.join(targets.DIFFERENTIAL_TARGETS)} "
                             "(default: every target of the kind)")
    parser.add_argument("--kind", default="both", choices=[*KINDS, "both"],
                        help="which harness (default: both)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=int, help="run each target this long")
    budget.add_argument("--runs", type=int, help="run each target on this many inputs")
    parser.add_argument("--mode", default="mixed", choices=list(targets.MODES),
                        help="how the generated code is built (default: mixed)")
    parser.add_argument("--out", type=Path, default=targets.REPO / "build" / "fuzz",
                        help="builds, corpora and crash inputs (default: build/fuzz)")
    args = parser.parse_args(argv)
    known = {"round-trip": targets.FUZZ_TARGETS + targets.PER_TARGETS,
             "differential": targets.DIFFERENTIAL_TARGETS}
    kinds = KINDS if args.kind == "both" else (args.kind,)
    unknown = [t for t in args.targets if not any(t in known[k] for k in kinds)]
    if unknown:
        parser.error(f"no fuzz target {', '.join(unknown)}")
    args.jobs = [(kind, name) for kind in kinds for name in known[kind]
                 if not args.targets or name in args.targets]
    if args.seconds is None and args.runs is None:
        args.seconds = 60
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    failed = 0
    for kind, name in args.jobs:
        outcome = fuzz(name, args.out, seconds=args.seconds, runs=args.runs, mode=args.mode,
                       kind=kind)
        status = "ok" if outcome.ok else "FAILED"
        coverage = re.findall(r"cov: (\d+) ft: (\d+)", outcome.log)
        print(f"{kind} {name}: {status}: {outcome.runs} inputs in {outcome.seconds:.0f} s, "
              f"corpus {outcome.corpus}"
              + (f", coverage {coverage[-1][0]} edges, {coverage[-1][1]} features"
                 if coverage else ""), flush=True)
        if not outcome.ok:
            failed += 1
            print(outcome.log[-4000:])
            for artifact in outcome.artifacts:
                print(f"  input kept: {artifact}  (replay: {outcome.program} {artifact})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
