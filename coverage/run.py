"""Coverage of real-world specifications (`make coverage`): Wireshark's ASN.1 module sets and
Heimdal's lib/asn1 modules through every stage, with Debian's asn1c beside them.

    python coverage/run.py [--wireshark DIR] [--heimdal DIR] [--out DIR] [--jobs N]
                           [--smoke N] [SET...]

Without --wireshark, the Wireshark 4.0 source package is fetched with `apt-get source`
(Debian's deb-src must be configured), and likewise Heimdal's; both go to build/coverage/.
For each set (coverage/sets.py says how a set is made):
  strict       `asn1c-hybrid check`: passes, or its first error;
  lenient      `asn1c-hybrid check --lenient`, and the defects it tolerated;
  interpreted  `compile --lenient --mode interpreted --converter`, then the generated code,
  compiled     and the converter, built by gcc with -std=c99 -Wall -Wextra -Wpedantic
               -Werror (at -O0, for time);
  smoke        the converter decodes the DER of N hypothesis-made values of each PDU-like
               type (BER sets) and re-encodes them identically (tests/smoke.py);
  asn1c        Debian's asn1c 0.9.28 on the same files: whether it exits cleanly.
Writes docs/coverage.md (the table) and OUT/coverage.json (every outcome and message).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests"))
import sets  # noqa: E402

STRICT_C = ["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O0"]
COMPILER = [sys.executable, "-m", "asn1c_hybrid"]
TIMEOUT = 1800
@dataclass
class Outcome:
    name: str
    files: int = 0
    strict: str = ""                   # "ok", or the first error
    lenient: str = ""
    tolerated: list[str] = field(default_factory=list)   # the rules relaxed
    interpreted: str = ""
    compiled: str = ""
    smoke: str = ""
    asn1c: str = ""


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if ": error:" in line:
            return line.split(": error:", 1)[1].strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "failed"


def _run(command: list, cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                              errors="replace", timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, -1, "", f"timed out after {TIMEOUT} s")


def _build(out: Path, runtime: Path) -> str:
    """Compiles what `compile` wrote in `out` with the strict flags and links the converter."""
    sources = sorted(out.glob("*.c"))
    converter = sorted((out / "converter").glob("*.c"))
    objects = []
    for source in sources + converter:
        obj = source.with_suffix(".o")
        result = _run(["gcc", *STRICT_C, "-I", str(runtime), "-I", str(out), "-c",
                       str(source), "-o", str(obj)])
        if result.returncode != 0:
            return f"gcc: {_first_error(result.stderr) or result.stderr.strip()[:200]}"
        objects.append(str(obj))
    result = _run(["gcc", "-o", str(out / "converter.bin"), *objects,
                   str(runtime / "libasn1h.a"), "-lm"])
    if result.returncode != 0:
        return f"link: {result.stderr.strip()[:200]}"
    return "ok"


def _tolerated(stderr: str) -> list[str]:
    rules = re.findall(r": warning: .*?\((X\.68\d [^)]*)\); ", stderr)
    return sorted(set(rules))


def survey(module_set: sets.ModuleSet, work: Path, runtime: Path, smoke: int) -> Outcome:
    outcome = Outcome(module_set.name, len(module_set.files))
    files = [str(f) for f in module_set.files]
    result = _run([*COMPILER, "check", *files])
    outcome.strict = "ok" if result.returncode == 0 else _first_error(result.stderr)
    result = _run([*COMPILER, "check", "--lenient", *files])
    outcome.lenient = "ok" if result.returncode == 0 else _first_error(result.stderr)
    outcome.tolerated = _tolerated(result.stderr)
    if outcome.lenient == "ok":
        for mode in ("interpreted", "compiled"):
            out = work / module_set.name / mode
            shutil.rmtree(out, ignore_errors=True)
            result = _run([*COMPILER, "compile", "--lenient", "--mode", mode, "--converter",
                           "--name", "spec", "-o", str(out), *files])
            status = "ok" if result.returncode == 0 else \
                f"compile: {_first_error(result.stderr)}"
            if status == "ok":
                status = _build(out, runtime)
            setattr(outcome, mode, status)
        if smoke and outcome.compiled == "ok" and outcome.interpreted == "ok":
            if not module_set.ber:
                outcome.smoke = "PER set"
            else:
                import smoke as smoke_test
                outcome.smoke = smoke_test.round_trips(
                    files, [work / module_set.name / m / "converter.bin"
                            for m in ("interpreted", "compiled")], smoke)
    with tempfile.TemporaryDirectory() as scratch:
        result = _run(["asn1c", "-fcompound-names", *files], cwd=Path(scratch))
        outcome.asn1c = "ok" if result.returncode == 0 else _first_error(result.stderr)
    return outcome


def fetch_source(package: str, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    found = [p for p in into.iterdir() if p.is_dir()]
    if not found:
        subprocess.run(["apt-get", "source", "--download-only", package], cwd=into,
                       check=True)
        archive = next(p for p in into.iterdir() if ".orig.tar" in p.name)
        subprocess.run(["tar", "xf", archive.name], cwd=into, check=True)
        found = [p for p in into.iterdir() if p.is_dir()]
    return found[0]


def runtime_library(work: Path) -> Path:
    runtime = work / "runtime"
    runtime.mkdir(parents=True, exist_ok=True)
    out = runtime / "gen"
    _run([*COMPILER, "compile", "--emit-runtime", "--name", "probe", "-o", str(out),
          str(REPO / "examples" / "personnel" / "personnel.asn")])
    objects = []
    for source in sorted(out.glob("asn1h_*.c")):
        obj = source.with_suffix(".o")
        subprocess.run(["gcc", *STRICT_C, "-I", str(out), "-c", str(source), "-o", str(obj)],
                       check=True)
        objects.append(str(obj))
    subprocess.run(["ar", "rcs", str(out / "libasn1h.a"), *objects], check=True)
    return out


def heimdal_sets(tree: Path) -> list[sets.ModuleSet]:
    """Heimdal's lib/asn1: each .asn1 file with the files of the modules it imports."""
    folder = tree / "lib" / "asn1"
    index = {}
    for path in sorted(folder.glob("*.asn1")):
        for name in sets.defined_modules(path):
            index.setdefault(name, path.resolve())
    result = []
    for path in sorted(folder.glob("*.asn1")):
        files = [path.resolve()]
        work = [path]
        while work:
            for name in sets.imported_modules(work.pop()):
                other = index.get(name)
                if other is not None and other not in files:
                    files.append(other)
                    work.append(other)
        result.append(sets.ModuleSet(f"heimdal/{path.stem}", files))
    return result


def _cell(text: str, roots: tuple[str, ...] = ()) -> str:
    for root in roots:                          # no machine paths in the table
        text = text.replace(root.rstrip("/") + "/", "")
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 90 else text[:87] + "..."


def write_table(outcomes: list[Outcome], path: Path, sources: str,
                roots: tuple[str, ...] = ()) -> None:
    wire = [o for o in outcomes if not o.name.startswith("heimdal/")]
    built = lambda o: o.interpreted == "ok" and o.compiled == "ok"  # noqa: E731
    lines = [
        "# Coverage of real-world specifications",
        "",
        f"Made by `make coverage` (coverage/run.py) from {sources}.  Each Wireshark set is a "
        "folder's `ASN_FILE_LIST` and `EXT_ASN_FILE_LIST`, with the file of every module "
        "they import from elsewhere in the tree (coverage/sets.py); each Heimdal set is one "
        "`lib/asn1` file with the files it imports.",
        "",
        "| | sets | strict check | lenient check | build, both modes (-Werror) | "
        "smoke round trip | asn1c 0.9.28 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, group in (("Wireshark 4.0", wire),
                         ("Heimdal lib/asn1", [o for o in outcomes if o not in wire])):
        if not group:
            continue
        n = len(group)
        lines.append(
            f"| {label} | {n} | {sum(o.strict == 'ok' for o in group)} | "
            f"{sum(o.lenient == 'ok' for o in group)} | {sum(built(o) for o in group)} | "
            f"{sum(o.smoke.startswith('ok') for o in group)} of "
            f"{sum(bool(o.smoke) and o.smoke != 'PER set' for o in group)} BER | "
            f"{sum(o.asn1c == 'ok' for o in group)} |")
    rules: dict[str, int] = {}
    for o in wire:
        if o.strict != "ok":
            found = re.search(r"\((X\.68\d[^)]*)\)", o.strict)
            key = found.group(1) if found else "syntax or other: " + o.strict[:60]
            rules[key] = rules.get(key, 0) + 1
    lines += [
        "",
        "Strict failures are defects of the files: each set's first error is in the table, "
        "with the rule broken in parentheses, and docs/frontend.md, \"Lenient mode\", says "
        "what --lenient does about each.  The Wireshark sets that fail strict mode, by the "
        "rule of their first error:",
        "",
        *[f"- {rule}: {count}" for rule, count in sorted(rules.items(),
                                                         key=lambda kv: (-kv[1], kv[0]))],
        "",
        "The smoke round trip leaves out, and counts in its cell, the types whose every "
        "value holds components a decoder cannot tell apart: tags that clash in a SET, "
        "CHOICE or run of optional SEQUENCE components, or an untagged open type standing "
        "in for a name defined nowhere, all accepted by --lenient (tests/smoke.py, "
        "`ambiguous_components`).  Such values are ambiguous in BER itself.",
        "",
        "Most of Heimdal's lib/asn1 files are written in Heimdal's own dialect "
        "(underscores in names, lower-case module references that its compiler maps to "
        "file names): that is not X.680, and neither mode reads it.",
        "",
        "| set | files | strict | lenient: rules relaxed | interpreted | compiled | smoke "
        "| asn1c |",
        "| --- | ---: | --- | --- | --- | --- | --- | --- |",
    ]
    for o in outcomes:
        lenient = "ok" if o.lenient == "ok" else o.lenient
        if o.tolerated and o.lenient == "ok":
            lenient = "ok; " + ", ".join(o.tolerated)
        cells = [_cell(text, roots) for text in (o.strict, lenient, o.interpreted,
                                                 o.compiled, o.smoke, o.asn1c)]
        lines.append(f"| {o.name} | {o.files} | " + " | ".join(cells) + " |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wireshark", type=Path, help="a Wireshark source tree")
    parser.add_argument("--heimdal", type=Path, help="a Heimdal source tree")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "coverage")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--smoke", type=int, default=20,
                        help="values per PDU-like type in the smoke round trip (0: none)")
    parser.add_argument("--table", type=Path, default=REPO / "docs" / "coverage.md")
    parser.add_argument("names", nargs="*", metavar="SET")
    args = parser.parse_args(argv)
    wireshark = args.wireshark or fetch_source("wireshark", args.out / "wireshark-src")
    heimdal = args.heimdal or fetch_source("heimdal", args.out / "heimdal-src")
    tree = wireshark / "epan" / "dissectors" / "asn1"
    chosen = sets.module_sets(tree) + heimdal_sets(heimdal)
    if args.names:
        chosen = [s for s in chosen if s.name in args.names]
    runtime = runtime_library(args.out)
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda s: survey(s, args.out / "sets", runtime, args.smoke),
                                 chosen))
    record = args.out / "coverage.json"
    if args.names and record.exists():          # rerun sets: merge into the last full run
        fresh = {o.name: o for o in outcomes}
        outcomes = [fresh.pop(o["name"], None) or Outcome(**o)
                    for o in json.loads(record.read_text(encoding="utf-8"))]
        outcomes += fresh.values()
    record.write_text(json.dumps([asdict(o) for o in outcomes], indent=1), encoding="utf-8")
    sources = f"Wireshark {wireshark.name.split('-', 1)[-1]} and Heimdal " \
              f"{heimdal.name.split('-', 1)[-1]}"
    write_table(outcomes, args.table, sources,
                (str(tree), str(heimdal / "lib" / "asn1"), str(args.out)))
    for o in outcomes:
        print(f"{o.name:24} strict={o.strict[:40]:40} lenient={o.lenient[:30]:30} "
              f"i={o.interpreted[:12]:12} c={o.compiled[:12]:12} smoke={o.smoke[:20]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
