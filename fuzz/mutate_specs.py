"""Mutation fuzzing of the compiler itself (`make fuzz-specs`).

    python fuzz/mutate_specs.py [--runs N] [--seed S] [--mode M] [--encoding RULES]
                                [--keep DIR] SPEC...

Each run changes one file of the specification at random (cuts it short, deletes or
repeats a span, puts one word where another was, or a number at the edge of a C type)
and compiles the result in-process, as `asn1c-hybrid compile --converter` does.  The
compiler must either refuse it with its errors (`file:line:col: error: ...` or
`asn1c-hybrid: error: ...`, never an internal error) or write C that gcc compiles under
`-std=c99 -Wall -Wextra -Wpedantic -Werror`, within MEMORY_LIMIT and SECONDS_LIMIT (a
value built bit by bit may otherwise take the machine's memory).  A finding keeps its
specification in --keep and makes the run exit 1.  The same seed gives the same mutations.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "fuzz"))
from asn1c_hybrid.cli import main as compile_main  # noqa: E402
from asn1c_hybrid.frontend.loader import spec_files  # noqa: E402
from targets import STRICT  # noqa: E402

KEEP = REPO / "build" / "fuzz" / "specs"    # where findings are kept by default
# Numbers at the edges of the C types the tables use, and past them.
EDGE_NUMBERS = ("0", "-1", "1", "65536", "4294967296", "9223372036854775808",
                "99999999999999999999")
MUTATIONS = ("cut", "delete", "repeat", "word", "word", "number")
MEMORY_LIMIT = 4 << 30          # bytes of address space: past it, a MemoryError
SECONDS_LIMIT = 120             # for one compile


def _too_long(signum, frame):
    raise TimeoutError(f"the compile took more than {SECONDS_LIMIT} s")


@dataclass
class Finding:
    mutation: str
    kept: Path                  # the mutated specification's folder
    what: str


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One mutation of `text`: (its name, the new text)."""
    kind = rng.choice(MUTATIONS)
    words = list(re.finditer(r"[A-Za-z][\w-]*", text))
    numbers = list(re.finditer(r"\d+", text))
    if kind == "word" and words:
        old, new = rng.choice(words), rng.choice(words)
        return f"word {old.group()!r} -> {new.group()!r} at {old.start()}", \
            text[:old.start()] + new.group() + text[old.end():]
    if kind == "number" and numbers:
        old, new = rng.choice(numbers), rng.choice(EDGE_NUMBERS)
        return f"number {old.group()} -> {new} at {old.start()}", \
            text[:old.start()] + new + text[old.end():]
    start = rng.randrange(len(text) or 1)
    end = min(len(text), start + rng.randrange(1, 60))
    if kind == "cut":
        return f"cut at {start}", text[:start]
    if kind == "repeat":
        return f"repeat {start}..{end}", text[:end] + text[start:end] + text[end:]
    return f"delete {start}..{end}", text[:start] + text[end:]


def check_one(folder: Path, mode: str, encodings: str, cc: str) -> tuple[bool, Optional[str]]:
    """(whether the compiler wrote C, None when it refused the specification in `folder`
    cleanly or wrote C that compiles, else what went wrong)."""
    out = folder / "out"
    err = io.StringIO()
    previous = os.environ.pop("ASN1H_TRACEBACK", None)    # a bug must be one line here
    handler = signal.signal(signal.SIGALRM, _too_long)
    signal.alarm(SECONDS_LIMIT)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = compile_main(["compile", str(folder), "-o", str(out), "--mode", mode,
                                   "--encoding", encodings, "--converter",
                                   "--cost-model", "units"])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, handler)
        if previous is not None:
            os.environ["ASN1H_TRACEBACK"] = previous
    messages = err.getvalue()
    if "internal error" in messages:
        return False, messages.strip()
    if status != 0:
        return False, None if ": error: " in messages else f"exit {status} without an error line"
    for source in sorted(out.glob("*.c")) + sorted(out.glob("converter/*.c")):
        built = subprocess.run([cc, *STRICT, "-fsyntax-only", "-I", str(out),
                                "-I", str(REPO / "runtime_c"), str(source)],
                               capture_output=True, text=True)
        if built.returncode != 0:
            return True, f"{source.name} does not compile:\n{built.stderr.strip()}"
    return True, None


def run(specs: Sequence[str], runs: int, seed: int = 1, mode: str = "compiled",
        encodings: str = "ber,uper", keep: Optional[Path] = None,
        cc: str = "gcc") -> tuple[int, List[Finding]]:
    """`runs` mutations of the specification `specs`: how many compiled, and the findings,
    each kept in `keep`."""
    files = [Path(f) for f in spec_files(specs)]
    rng = random.Random(seed)
    findings = []
    compiled = 0
    with tempfile.TemporaryDirectory(prefix="mutate-specs-") as scratch:
        for number in range(runs):
            folder = Path(scratch) / f"run{number}"
            folder.mkdir()
            for f in files:
                shutil.copy(f, folder / f.name)
            victim = rng.choice(files)
            text = victim.read_text(encoding="utf-8", errors="replace")
            mutation, changed = mutate(text, rng)
            (folder / victim.name).write_text(changed, encoding="utf-8")
            wrote, problem = check_one(folder, mode, encodings, cc)
            compiled += wrote
            if problem:
                kept = (keep or KEEP) / f"seed{seed}-run{number}"
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(folder, kept, ignore=shutil.ignore_patterns("out"))
                findings.append(Finding(f"{victim.name}: {mutation}", kept, problem))
            shutil.rmtree(folder)
    return compiled, findings


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC",
                        help="ASN.1 files, or directories of them (one specification)")
    parser.add_argument("--runs", type=int, default=200, help="mutations (default: 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", default="compiled",
                        choices=["compiled", "interpreted", "hybrid"])
    parser.add_argument("--encoding", default="ber,uper", help="compile's --encoding")
    parser.add_argument("--keep", type=Path, default=KEEP,
                        help="where findings are kept (default: build/fuzz/specs)")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    compiled, findings = run(args.specs, args.runs, args.seed, args.mode, args.encoding,
                             args.keep)
    for finding in findings:
        print(f"FINDING {finding.mutation}: kept in {finding.kept}\n{finding.what}\n")
    print(f"{args.runs} mutations of {' '.join(args.specs)} (seed {args.seed}, "
          f"{args.mode}): {compiled} compiled, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
