"""Mutation fuzzing of the compiler itself (`make fuzz-specs`).

    python fuzz/mutate_specs.py [--runs N] [--seed S] [--mode M] [--encoding RULES]
                                [--round-trip VALUES] [--keep DIR] SPEC...

Each run changes one file of the specification at random (cuts it short, deletes or
repeats a span, puts one word where another was, a number at the edge of a C type, or one
of ASN.1's words and phrases from DICTIONARY before a word) and compiles the result
in-process, as `asn1c-hybrid compile --converter` does.  The compiler must either refuse
it with its errors (`file:line:col: error: ...` or `asn1c-hybrid: error: ...`, never an
internal error) or write C that gcc and clang (where installed) compile under
`-std=c99 -Wall -Wextra -Wpedantic -Werror`, within MEMORY_LIMIT and SECONDS_LIMIT (a
value built bit by bit may otherwise take the machine's memory).

With --round-trip, a specification that compiles must also work: its converters, compiled
and interpreted (with ASan and UBSan), must write back identically the DER of VALUES
values of each PDU-like type that the tests' own generator and encoder make
(tests/smoke.py), and write the same UPER, APER and JER of each value, reading the PER
back to the same DER.

A finding keeps its specification in --keep and makes the run exit 1.  The same seed
gives the same mutations.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
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
sys.path.insert(0, str(REPO / "tests"))
import cbuild  # noqa: E402 - the tests' builds, value generator and DER encoder
import smoke  # noqa: E402
from asn1c_hybrid.cli import main as compile_main  # noqa: E402
from asn1c_hybrid.frontend.loader import spec_files  # noqa: E402
from targets import STRICT  # noqa: E402

KEEP = REPO / "build" / "fuzz" / "specs"    # where findings are kept by default
# Numbers at the edges of the C types the tables use, and past them.
EDGE_NUMBERS = ("0", "-1", "1", "65536", "4294967296", "9223372036854775808",
                "99999999999999999999")
# Words and phrases of ASN.1 put in before a word, as a fuzzer's dictionary: they reach
# what random bytes seldom spell (tags, constraints, extension markers, COMPONENTS OF).
DICTIONARY = ("OPTIONAL", "DEFAULT 0", "DEFAULT {}", "[0] ", "[APPLICATION 1] ",
              "[PRIVATE 0] IMPLICIT ", "EXPLICIT ", "IMPLICIT ", "(SIZE (0..MAX)) ",
              "(SIZE (1..2, ...)) ", "(0..MAX) ", "(MIN..0) ", "(1 | 3) ", "(ALL EXCEPT 1) ",
              ", ... ", "..., ", "[[ x INTEGER ]], ", "!", "COMPONENTS OF ",
              "WITH COMPONENTS { ..., a PRESENT } ", "(CONSTRAINED BY {}) ", "SEQUENCE OF ",
              "SET ", "CHOICE { ", "} ", "ENUMERATED { a, b, ... } ", "BIT STRING { a(0) } ",
              "(FROM (\"a\"..\"z\")) ", "(PATTERN \"a*\") ", "(CONTAINING INTEGER) ",
              "(WITH COMPONENT (0..1)) ", "INSTANCE OF ", "TYPE-IDENTIFIER.&Type ",
              "AUTOMATIC TAGS ", "EXTENSIBILITY IMPLIED ", "IMPORTS ; ", "-- ", "/* ")
MUTATIONS = ("cut", "delete", "repeat", "word", "word", "number", "insert", "insert")
MEMORY_LIMIT = 4 << 30          # bytes of address space: past it, a MemoryError
SECONDS_LIMIT = 120             # for one compile
COMPILERS = tuple(cc for cc in ("gcc", "clang") if shutil.which(cc))
PER_VARIANTS = ("uper", "aper")


def _too_long(signum, frame):
    raise TimeoutError(f"the compile took more than {SECONDS_LIMIT} s")


@dataclass
class Finding:
    mutation: str
    kept: Path                  # the mutated specification's folder
    what: str


@dataclass
class Outcome:
    compiled: int               # mutations that compiled to C
    round_tripped: int          # types round-tripped (--round-trip)
    findings: List[Finding]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One mutation of `text`: (its name, the new text)."""
    kind = rng.choice(MUTATIONS)
    words = list(re.finditer(r"[A-Za-z][\w-]*", text))
    numbers = list(re.finditer(r"\d+", text))
    if kind == "word" and words:
        old, new = rng.choice(words), rng.choice(words)
        return f"word {old.group()!r} -> {new.group()!r} at {old.start()}", \
            text[:old.start()] + new.group() + text[old.end():]
    if kind == "insert" and words:
        before, phrase = rng.choice(words), rng.choice(DICTIONARY)
        return f"insert {phrase!r} at {before.start()}", \
            text[:before.start()] + phrase + text[before.start():]
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


def check_one(folder: Path, mode: str, encodings: str,
              compilers: Sequence[str] = COMPILERS) -> tuple[bool, Optional[str]]:
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
        for cc in compilers:
            built = subprocess.run([cc, *STRICT, "-fsyntax-only", "-I", str(out),
                                    "-I", str(REPO / "runtime_c"), str(source)],
                                   capture_output=True, text=True)
            if built.returncode != 0:
                return True, f"{source.name} does not compile ({cc}):\n{built.stderr.strip()}"
    return True, None


def _convert(program: Path, type_id: str, source: str, target: str,
             data: bytes) -> tuple[bool, bytes]:
    """(whether the converter took `data`, its output or else its error message)."""
    result = subprocess.run([str(program), "-p", type_id, "-i", source, "-o", target, "-"],
                            input=data, capture_output=True, timeout=300)
    return (True, result.stdout) if result.returncode == 0 else (False, result.stderr.strip())


def other_rules_agree(converters: dict, type_id: str,
                      messages: Sequence[bytes]) -> Optional[str]:
    """None when every build in `converters` (mode -> converter) writes each message, DER,
    in each PER variant, all alike, and reads that back to the same DER, and writes the
    same JER of it, valid JSON; else why not."""
    for der in messages:
        for variant in PER_VARIANTS:
            written = {}
            for mode, program in converters.items():
                ok, per = _convert(program, type_id, "ber", variant, der)
                if not ok:
                    return f"{type_id} ({mode}): {der.hex()} to {variant}: {per.decode()[:160]}"
                ok, back = _convert(program, type_id, variant, "der", per)
                if back != der:
                    return (f"{type_id} ({mode}): {der.hex()} to {variant} {per.hex()} and "
                            f"back: {back.hex() if ok else back.decode()[:160]}")
                written[mode] = per
            if len(set(written.values())) > 1:
                return f"{type_id}: {der.hex()} to {variant}: " + ", ".join(
                    f"{mode} {per.hex()}" for mode, per in written.items())
        jer = {mode: _convert(program, type_id, "ber", "jer", der)
               for mode, program in converters.items()}
        if len(set(jer.values())) > 1 or not all(ok for ok, _ in jer.values()):
            return f"{type_id}: {der.hex()} to JER: " + ", ".join(
                f"{mode} {text.decode()[:160]}" for mode, (_, text) in jer.items())
        try:
            json.loads(next(iter(jer.values()))[1])
        except ValueError as bad:
            return f"{type_id}: {der.hex()} to JER that is not JSON ({bad})"
    return None


def round_trip(folder: Path, values: int) -> tuple[int, Optional[str]]:
    """(how many types the converters of the specification in `folder`, compiled and
    interpreted, round-tripped; None when each wrote back identically the DER of `values`
    values of each PDU-like type and wrote the same UPER, APER and JER of them, reading
    the PER back, else what went wrong)."""
    files = spec_files([str(folder)])
    limit = resource.getrlimit(resource.RLIMIT_AS)
    # the sanitizers reserve far more address space than MEMORY_LIMIT, and their programs
    # would inherit it
    resource.setrlimit(resource.RLIMIT_AS, (limit[1], limit[1]))
    builds = {}
    try:
        for mode in ("compiled", "interpreted"):
            builds[mode] = cbuild.converter(files, "--mode", mode)
        converters = {mode: build.program for mode, build in builds.items()}
        result = smoke.round_trips(
            files, list(converters.values()), values,
            check=lambda type_id, messages: other_rules_agree(converters, type_id, messages))
    except AssertionError as failed:        # a build that the strict check let through
        return 0, str(failed)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limit)
        for build in builds.values():
            shutil.rmtree(build.directory, ignore_errors=True)
    done = re.match(r"ok \((\d+) types", result)
    return (int(done.group(1)), None) if done else (0, result)


def run(specs: Sequence[str], runs: int, seed: int = 1, mode: str = "compiled",
        encodings: str = "ber,uper", keep: Optional[Path] = None,
        compilers: Sequence[str] = COMPILERS, values: int = 0) -> Outcome:
    """`runs` mutations of the specification `specs`: how many compiled, and the findings,
    each kept in `keep`; with `values`, each that compiles is round-tripped too."""
    files = [Path(f) for f in spec_files(specs)]
    rng = random.Random(seed)
    outcome = Outcome(0, 0, [])
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
            wrote, problem = check_one(folder, mode, encodings, compilers)
            outcome.compiled += wrote
            if wrote and not problem and values:
                shutil.rmtree(folder / "out")
                types, problem = round_trip(folder, values)
                outcome.round_tripped += types
            if problem:
                kept = (keep or KEEP) / f"seed{seed}-run{number}"
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(folder, kept, ignore=shutil.ignore_patterns("out"))
                outcome.findings.append(Finding(f"{victim.name}: {mutation}", kept, problem))
            shutil.rmtree(folder)
    return outcome


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC",
                        help="ASN.1 files, or directories of them (one specification)")
    parser.add_argument("--runs", type=int, default=200, help="mutations (default: 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", default="compiled",
                        choices=["compiled", "interpreted", "hybrid"])
    parser.add_argument("--encoding", default="ber,uper", help="compile's --encoding")
    parser.add_argument("--round-trip", type=int, default=0, metavar="VALUES",
                        help="also round-trip VALUES values of each PDU-like type of each "
                             "specification that compiles (default: 0, none)")
    parser.add_argument("--keep", type=Path, default=KEEP,
                        help="where findings are kept (default: build/fuzz/specs)")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    outcome = run(args.specs, args.runs, args.seed, args.mode, args.encoding, args.keep,
                  values=args.round_trip)
    for finding in outcome.findings:
        print(f"FINDING {finding.mutation}: kept in {finding.kept}\n{finding.what}\n")
    round_tripped = f", {outcome.round_tripped} types round-tripped" if args.round_trip else ""
    print(f"{args.runs} mutations of {' '.join(args.specs)} (seed {args.seed}, "
          f"{args.mode}): {outcome.compiled} compiled{round_tripped}, "
          f"{len(outcome.findings)} findings")
    return 1 if outcome.findings else 0


if __name__ == "__main__":
    sys.exit(main())
