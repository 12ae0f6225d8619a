#!/usr/bin/env python3
"""Code size of every build of every benchmark spec, linked as the benchmarks link it
(bench/peers/common.py): bench/sizes.csv, which bench/run.py makes the code-size table of
docs/benchmarks.md.  No instruction counting, so it takes minutes.

    python bench/sizes.py [--specs NAME...] [--builds BUILD...] [--levels O2 Os]

For each spec, our builds (interpreted-only, compiled-only, hybrid at 10/20/40% of the
code budget) are split into generated code and runtime bytes; Heimdal's template codec and
asn1c are built beside them where they take the spec.  Whole 3GPP-sized specs (LTE RRC)
are measured as one object each (`size`), with and without names, and compiled-only with
gcc's compile time: bench/objects.csv.  How much of the certificate program's machine code
its benchmark runs (measure.counts.executed_addresses): bench/executed.csv (`--executed`
writes it alone).
"""
from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import corpora  # noqa: E402
import run  # noqa: E402
from peers import asn1c, ours  # noqa: E402
from peers.common import CC, Build, NotApplicable, optimization  # noqa: E402

from asn1c_hybrid.measure.counts import executed_addresses  # noqa: E402
from asn1c_hybrid.measure.sizes import (code_bytes_by_object, executed_code_bytes,  # noqa: E402
                                        instruction_lengths)

SIZES_CSV = run.SIZES_CSV
OUR_BUILDS = ["interpreted", "compiled", "hybrid-10%", "hybrid-20%", "hybrid-40%"]
# the certificate program built with `--encoding der` too (bench/run.py's builders)
DER_BUILDS = run.OURS_DER
PEER_BUILDS = ["heimdal-template", "asn1c"]
LEVELS = ["-O2", "-Os"]
COLUMNS = ["spec", "build", "level", "generated_bytes", "runtime_bytes", "total_bytes", "note"]


@dataclass(frozen=True)
class SizeSpec:
    name: str
    title: str
    builders: Callable[[], Dict[str, Callable[[Path], Build]]]


def _group(group: Callable[[], run.SpecGroup], specs: Callable[[], Sequence[Path]],
           module: str, pdu: str):
    """The peers of a benchmark group, and our builds at every budget."""
    def builders():
        found = dict(group().builders)
        for build in OUR_BUILDS:
            found[build] = lambda d, build=build: ours.build(build, specs(), pdu, module, d)
        return found
    return builders


def _spec(folder: str, files: Sequence[str], module: str, pdu: str, also: Sequence[str] = ()):
    """A spec from the shared reference set: ours, and asn1c."""
    def paths() -> List[Path]:
        return [corpora.shared_dir() / "specs" / folder / f for f in files]

    def builders():
        found = {build: (lambda d, build=build: ours.build(build, paths(), pdu, module, d,
                                                             also=also))
                 for build in OUR_BUILDS}
        found["asn1c"] = lambda d: asn1c.build(paths(), pdu, d)
        return found
    return builders


SPECS = [
    SizeSpec("personnel", "X.680's personnel record",
             _group(run.personnel_group, lambda: [corpora.PERSONNEL_SPEC],
                    "PersonnelRecordModule", "PersonnelRecord")),
    SizeSpec("blackwell", "Blackwell's 100-member message",
             _group(run.blackwell_group, lambda: [corpora.BLACKWELL_SPEC],
                    "BlackwellModule", "BlackwellMessage")),
    SizeSpec("certificates", "X.509 Certificate (RFC 5280)",
             _group(run.certificates_group, corpora.rfc5280_specs, "PKIX1Explicit88",
                    "Certificate")),
    SizeSpec("ldap", "LDAP LDAPMessage (RFC 4511)",
             _spec("IETF_LDAP_RFC4511", ["Lightweight-Directory-Access-Protocol-V3.asn"],
                   "Lightweight-Directory-Access-Protocol-V3", "LDAPMessage")),
    SizeSpec("kerberos", "Kerberos AS-REQ and AS-REP (RFC 4120)",
             _spec("IETF_Kerberos_RFC4120", ["KerberosV5Spec2.asn"], "KerberosV5Spec2",
                   "AS-REQ", also=["AS-REP"])),
    SizeSpec("snmpv1", "SNMPv1 Message (RFC 1157)",
             _spec("IETF_SNMP", ["RFC1155-SMI.asn", "RFC1157-SNMP.asn"], "RFC1157-SNMP",
                   "Message")),
    SizeSpec("x400", "X.400 P1 MTS-APDU",
             _group(run.x400_group,
                    lambda: sorted((run.REPO / "examples" / "x400" / "spec").glob("*.asn")),
                    "MTAAbstractService", "MTS-APDU")),
]


# ---- Whole specifications as one object (no link): the tables' own size -------------------

@dataclass(frozen=True)
class ObjectSpec:
    name: str
    folder: str
    files: tuple


OBJECT_SPECS = [ObjectSpec("lte-rrc-r14", "3GPP_LTE_RRC_36331_r14", ("rrc_14_4_0.asn",))]
OBJECTS_CSV = run.OBJECTS_CSV
# (mode, define, rules): the default carries every rule; "uper" alone gives compiled types
# their PER routines only
OBJECT_BUILDS = [("interpreted", "", "all"), ("interpreted", "-DASN1H_NO_NAMES", "all"),
                 ("compiled", "", "all"), ("compiled", "", "uper")]


def object_rows(spec: ObjectSpec, root: Path) -> List[List[str]]:
    """`size` of the whole specification's object, every type emitted (no --pdu), compiled
    with `gcc -O2`: interpreted with and without names, and compiled-only with every rule
    and with UPER alone (with gcc's time: the cost of compiling 3GPP-sized specs)."""
    files = [corpora.shared_dir() / "specs" / spec.folder / f for f in spec.files]
    rows = []
    for mode, define, rules in OBJECT_BUILDS:
        out = root / "objects" / spec.name / f"{mode}-{rules}"
        command = [sys.executable, "-m", "asn1c_hybrid", "compile", *map(str, files), "-o",
                   str(out), "--name", "spec", "--mode", mode]
        if rules != "all":
            command += ["--encoding", rules]
        subprocess.run(command, cwd=run.REPO, check=True, capture_output=True)
        obj = out / f"spec{define.replace('-D', '-')}.o"
        started = time.monotonic()
        subprocess.run([CC, "-std=c99", "-O2", *([define] if define else []), "-c",
                        "-I", str(ours.RUNTIME), str(out / "spec.c"), "-o", str(obj)],
                       check=True, capture_output=True)
        seconds = time.monotonic() - started
        text = subprocess.run(["size", str(obj)], check=True, capture_output=True,
                              text=True).stdout.splitlines()[1].split()
        rows.append([spec.name, mode, rules, "no" if define else "yes", text[3],
                     f"{seconds:.1f}"])
        print(f"{spec.name:12} {mode:12} {rules:5} names={'no' if define else 'yes'} "
              f"{text[3]} bytes, {seconds:.1f} s", flush=True)
    return rows


@dataclass
class SizeRow:
    spec: str
    build: str
    level: str
    generated: Optional[int] = None
    runtime: Optional[int] = None
    note: str = ""

    @property
    def total(self) -> Optional[int]:
        return None if self.generated is None else self.generated + (self.runtime or 0)

    def csv_row(self) -> List[str]:
        def n(x):
            return "n/a" if x is None else str(x)
        return [self.spec, self.build, self.level, n(self.generated), n(self.runtime),
                n(self.total), self.note]


def measure(build: Build, ours_build: bool) -> tuple[int, Optional[int]]:
    """(generated, runtime) bytes kept by the link; a peer's are all "generated" plus its
    library, reported as runtime."""
    generated = runtime = 0
    for obj, size in code_bytes_by_object(build.map_file.read_text()).items():
        if not build.counts(obj):
            continue
        if _in_runtime(obj, ours_build):
            runtime += size
        else:
            generated += size
    return generated, runtime


def _in_runtime(obj: str, ours_build: bool) -> bool:
    """Whether an object of a build's linker map is its runtime (not generated code)."""
    if ours_build:
        return Path(obj.split("(")[0]).name.startswith("asn1h_")
    return obj.endswith(")") or "skeletons" in obj


def size_rows(spec: SizeSpec, builds: Sequence[str], level: str, root: Path) -> List[SizeRow]:
    rows = []
    builders = spec.builders()
    for build in builds:
        row = SizeRow(spec.name, build, level)
        if build in DER_BUILDS and build not in builders:
            continue                # built for the certificate program alone
        if build not in builders:
            row.note = "not built for this spec"
            rows.append(row)
            continue
        directory = root / level.lstrip("-") / spec.name / build.replace("%", "pct")
        try:
            with optimization(level):
                made = builders[build](directory)
            row.generated, row.runtime = measure(made, build in OUR_BUILDS + DER_BUILDS)
        except (NotApplicable, ours.Pending) as error:
            row.note = run._without_local_paths(str(error).splitlines()[0])[:160]
        rows.append(row)
        print(f"{spec.name:12} {build:17} {level:4} {row.total if row.total else row.note}",
              flush=True)
    return rows


# ---- Code the certificate benchmark runs ------------------------------------------------

EXECUTED_CSV = run.EXECUTED_CSV
EXECUTED_BUILDS = ["interpreted", "compiled", "interpreted-der", "heimdal-template"]
EXECUTED_COLUMNS = ["spec", "build", "level", "runtime_bytes", "runtime_executed_bytes",
                    "generated_bytes", "generated_executed_bytes"]


def executed_rows(level: str, root: Path) -> List[List[str]]:
    """For the certificate program of each build: the octets of code (.text) kept from its
    runtime and from its generated code, and of those the octets of the instructions that
    decoding and DER-encoding the Mozilla CA certificates run (callgrind --dump-instr,
    inside the measured functions: bench/run.py's).  Code that never runs there is what
    errors, BER's other forms and other specs' kinds need."""
    spec = next(s for s in SPECS if s.name == "certificates")
    builders = spec.builders()
    corpus = root / "executed" / "certificates.corpus"
    corpus.parent.mkdir(parents=True, exist_ok=True)
    corpora.write_framed(corpus, [c.data for c in corpora.mozilla_certificates()])
    rows = []
    for build in EXECUTED_BUILDS:
        directory = root / level.lstrip("-") / spec.name / build
        try:
            with optimization(level):
                made = builders[build](directory)
        except (NotApplicable, ours.Pending) as error:
            print(f"certificates {build}: not built ({str(error).splitlines()[0]})")
            continue
        executed = set()
        for operation, function in run.MEASURED_FUNCTION.items():
            executed |= executed_addresses([str(made.executable), operation, str(corpus), "1"],
                                           function)
        lengths = instruction_lengths(made.executable)
        map_text = made.map_file.read_text()
        ours_build = build != "heimdal-template"
        row = [spec.name, build, level]
        for runtime in (True, False):
            def part(obj, runtime=runtime):
                return made.counts(obj) and _in_runtime(obj, ours_build) == runtime
            row += [str(executed_code_bytes(map_text, lengths, lengths, part)),
                    str(executed_code_bytes(map_text, lengths, executed, part))]
        rows.append(row)
        print(f"certificates {build:17} {level:4} runtime {row[4]} of {row[3]} run, "
              f"generated {row[6]} of {row[5]}", flush=True)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="*", help="only these (default: all)")
    parser.add_argument("--builds", nargs="*", default=OUR_BUILDS + DER_BUILDS + PEER_BUILDS)
    parser.add_argument("--levels", nargs="*", default=[l.lstrip("-") for l in LEVELS],
                        help="optimization levels, without the dash (default: O2 Os)")
    parser.add_argument("--csv", type=Path, default=SIZES_CSV)
    parser.add_argument("--executed", action="store_true",
                        help="only the code the certificate benchmark runs: " +
                        str(EXECUTED_CSV.relative_to(run.REPO)))
    args = parser.parse_args(argv)
    root = corpora.build_dir() / "sizes"
    if args.executed or not args.specs or "certificates" in args.specs:
        executed = [row for level in args.levels
                    for row in executed_rows("-" + level.lstrip("-"), root)]
        with EXECUTED_CSV.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(EXECUTED_COLUMNS)
            writer.writerows(executed)
        print(f"wrote {EXECUTED_CSV}")
        if args.executed:
            return 0
    rows: List[SizeRow] = []
    for spec in SPECS:
        if args.specs and spec.name not in args.specs:
            continue
        for level in args.levels:
            rows += size_rows(spec, args.builds, "-" + level.lstrip("-"), root)
    if not args.specs or any(o.name in args.specs for o in OBJECT_SPECS):
        objects = [row for o in OBJECT_SPECS if not args.specs or o.name in args.specs
                   for row in object_rows(o, root)]
        with OBJECTS_CSV.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["spec", "mode", "rules", "names", "object_bytes", "gcc_seconds"])
            writer.writerows(objects)
        print(f"wrote {OBJECTS_CSV}")
    if args.specs and not rows:
        return 0                    # whole-spec objects only: the size table stays as it is
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with args.csv.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(r.csv_row() for r in rows)
    print(f"wrote {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
