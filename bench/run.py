#!/usr/bin/env python3
"""The benchmark suite in one command: builds every implementation on every benchmark,
checks that it decodes the messages and re-encodes them to the same DER, counts
instructions per message with callgrind and code size from the link, and writes
bench/results.csv and docs/benchmarks.md.

    python bench/run.py [--benchmarks NAME...] [--implementations NAME...]

Method: bench/callgrind.py (counting) and bench/peers/common.py (building).  Our own rows
stay "pending" while `asn1c-hybrid compile` cannot build a benchmark's spec yet; a peer
that cannot take a spec gets "n/a" and the reason.
"""
from __future__ import annotations

import argparse
import csv
import platform
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import callgrind  # noqa: E402
import corpora  # noqa: E402
from asn1c_hybrid.measure import (  # noqa: E402
    RUNTIME_BLOCK_CFLAGS, RUNTIME_BLOCK_EXCEPT, RUNTIME_CFLAGS)
from peers import asn1c, heimdal, openssl, ours  # noqa: E402
from peers.common import CC, CFLAGS, LDFLAGS, Build, NotApplicable  # noqa: E402
from rows import read_rows  # noqa: E402
from stream import stream_table  # noqa: E402
from layouts import layouts_table  # noqa: E402
from fastpaths import fastpaths_table  # noqa: E402
from layout_budget import layout_budget_table  # noqa: E402

REPO = BENCH.parent
RESULTS_CSV = BENCH / "results.csv"
RESULTS_DOC = REPO / "docs" / "benchmarks.md"
SIZES_CSV = BENCH / "sizes.csv"            # written by bench/sizes.py
OBJECTS_CSV = BENCH / "objects.csv"        # likewise
EXECUTED_CSV = BENCH / "executed.csv"      # likewise
BER_VS_PER_CSV = BENCH / "ber_vs_per.csv"  # written by bench/ber_vs_per.py
CSV_COLUMNS = ["benchmark", "implementation", "operation", "instructions_per_message",
               "bytes_per_message", "code_bytes"]

OURS = list(ours.VARIANTS)
# our certificate program built with `--encoding der` (DER's forms of strings and times
# alone, docs/runtime.md)
OURS_DER = ["interpreted-der", "compiled-der"]
PEERS = ["asn1c", "heimdal", "heimdal-template", "openssl"]
IMPLEMENTATIONS = OURS + OURS_DER + PEERS
OPERATIONS = ("decode", "encode")
MEASURED_FUNCTION = {"decode": "bench_decode_once", "encode": "bench_encode_once"}
HEIMDAL_VARIANTS = BENCH / "peers" / "heimdal"


# ---- What each implementation builds, per spec --------------------------------------------

@dataclass(frozen=True)
class SpecGroup:
    """One specification and how each implementation gets its PDU type from it."""
    name: str
    builders: Dict[str, Callable[[Path], Build]]   # OpenSSL has a builder for X.509 only


def _ours(specs: Callable[[], Sequence[Path]], module: str, pdu: str):
    return {impl: (lambda d, impl=impl: ours.build(impl, specs(), pdu, module, d))
            for impl in OURS}


def personnel_group() -> SpecGroup:
    spec = corpora.PERSONNEL_SPEC
    builders = _ours(lambda: [spec], "PersonnelRecordModule", "PersonnelRecord")
    builders["asn1c"] = lambda d: asn1c.build([spec], "PersonnelRecord", d)
    builders["heimdal"] = lambda d: heimdal.build(
        HEIMDAL_VARIANTS / "personnel.asn", "personnel", "PersonnelRecord", d, False,
        notes=["on bench/peers/heimdal/personnel.asn: the same encodings, types written "
               "out where asn1_compile mishandles them"])
    builders["heimdal-template"] = lambda d: heimdal.build(
        HEIMDAL_VARIANTS / "personnel-template.asn", "personnel", "PersonnelRecord", d,
        True, notes=["on bench/peers/heimdal/personnel-template.asn (SETs as SEQUENCEs "
                     "in DER order)"])
    return SpecGroup("personnel", builders)


def blackwell_group() -> SpecGroup:
    spec = corpora.BLACKWELL_SPEC
    builders = _ours(lambda: [spec], "BlackwellModule", "BlackwellMessage")
    builders["asn1c"] = lambda d: asn1c.build([spec], "BlackwellMessage", d)
    builders["heimdal"] = lambda d: heimdal.build(spec, "blackwell", "BlackwellMessage", d,
                                                  False)
    builders["heimdal-template"] = lambda d: heimdal.build(spec, "blackwell",
                                                           "BlackwellMessage", d, True)
    return SpecGroup("blackwell", builders)


def certificates_group() -> SpecGroup:
    builders = _ours(corpora.rfc5280_specs, "PKIX1Explicit88", "Certificate")
    for impl in OURS_DER:
        builders[impl] = lambda d, impl=impl: ours.build(
            impl[:-len("-der")], corpora.rfc5280_specs(), "Certificate", "PKIX1Explicit88", d,
            options=["--encoding", "der"])
    # PKIX1Implicit88 imports BMPString and UTF8String from PKIX1Explicit88 (the RFC says
    # to delete that line for compilers that know them): asn1c refuses the import.  The
    # Certificate type is wholly in PKIX1Explicit88 (extensions are OCTET STRINGs).
    builders["asn1c"] = lambda d: asn1c.build(corpora.rfc5280_specs()[:1], "Certificate", d)

    def heimdal_build(d: Path, template: bool) -> Build:
        spec, options = heimdal.rfc2459()
        return heimdal.build(spec, "rfc2459_asn1", "Certificate", d, template, options,
                             notes=["on Heimdal's own rfc2459.asn1: asn1_compile cannot "
                                    "read PKIX1Explicit88 (size constraints on strings)"])
    builders["heimdal"] = lambda d: heimdal_build(d, False)
    builders["heimdal-template"] = lambda d: heimdal_build(d, True)
    builders["openssl"] = lambda d: openssl.build(d)
    return SpecGroup("certificates", builders)


def x400_group() -> SpecGroup:
    specs = sorted((REPO / "examples" / "x400" / "spec").glob("*.asn"))
    builders = _ours(lambda: specs, "MTAAbstractService", "MTS-APDU")
    builders["asn1c"] = lambda d: asn1c.build(specs, "MTS-APDU", d)

    def heimdal_build(d: Path, template: bool) -> Build:
        # asn1_compile reads one module per run and cannot resolve imports from the
        # others: it gets the module holding MTS-APDU.
        main = [s for s in specs if s.name == "MTAAbstractService.asn"]
        if not main:
            raise NotApplicable("no MTAAbstractService.asn")
        return heimdal.build(main[0], "mta", "MTS_APDU", d, template)
    builders["heimdal"] = lambda d: heimdal_build(d, False)
    builders["heimdal-template"] = lambda d: heimdal_build(d, True)
    return SpecGroup("x400", builders)


# ---- Benchmarks --------------------------------------------------------------------------

@dataclass
class Benchmark:
    name: str
    description: str
    group: Callable[[], SpecGroup]
    messages: List[bytes]
    expected_der: List[bytes]       # what a correct DER re-encoding of each message is
    operations: Tuple[str, ...] = OPERATIONS
    rounds: int = 1                 # passes over the messages inside the measurement

    @property
    def bytes_per_message(self) -> float:
        return sum(map(len, self.messages)) / len(self.messages)


def benchmarks() -> List[Benchmark]:
    der = corpora.personnel_der()
    result = [
        Benchmark("personnel", "The smithperson record, DER (Hoschka & Huitema, fig. 2)",
                  personnel_group, [der], [der], rounds=20),
        Benchmark("personnel-indefinite",
                  "The same value with indefinite lengths, as in the paper's experiment",
                  personnel_group, [corpora.personnel_indefinite()], [der],
                  operations=("decode",), rounds=20),
        Benchmark("blackwell", "Blackwell's 381-byte SEQUENCE of 50 INTEGERs alternating "
                  "with 50 BOOLEANs (bench/blackwell/blackwell.asn): the integers an even mix "
                  "of 1-, 2- and 3-octet values, 28 of which need DER's leading zero octet, "
                  "which gives the paper's 381 bytes",
                  blackwell_group, [corpora.blackwell_message()],
                  [corpora.blackwell_message()], rounds=20),
    ]
    try:
        certificates = corpora.mozilla_certificates()
    except FileNotFoundError as error:
        print(f"certificates skipped: {error}", file=sys.stderr)
        certificates = []
    if certificates:
        data = [c.data for c in certificates]
        result.append(Benchmark(
            "certificates", f"The {len(data)} Mozilla CA certificates of Debian's "
            "ca-certificates, RFC 5280", certificates_group, data, data, rounds=1))
        nearest = corpora.certificate_nearest(1415, certificates)
        result.append(Benchmark(
            "certificate-1415", f"The Mozilla CA certificate nearest 1,415 bytes "
            f"({nearest.name}, {len(nearest.data)} bytes)", certificates_group,
            [nearest.data], [nearest.data], rounds=20))
    for trace, pdus in corpora.x400_traces():
        result.append(Benchmark(f"x400-{trace}", f"X.400 P1 trace {trace} ({len(pdus)} "
                                "MTS-APDUs)", x400_group, pdus, pdus, rounds=1))
    return result


# ---- Running -----------------------------------------------------------------------------

@dataclass
class Row:
    benchmark: str
    implementation: str
    operation: str
    bytes_per_message: float
    instructions_per_message: Optional[float] = None
    code_bytes: Optional[int] = None
    status: str = "ok"              # ok | n/a | pending
    note: str = ""

    def csv_row(self) -> List[str]:
        def number(value, digits=0):
            if self.status != "ok" or value is None:
                return self.status
            return f"{value:.{digits}f}"
        return [self.benchmark, self.implementation, self.operation,
                number(self.instructions_per_message), f"{self.bytes_per_message:.1f}",
                number(self.code_bytes)]


class Runner:
    def __init__(self, build_root: Path):
        self.build_root = build_root
        self.builds: Dict[Tuple[str, str], object] = {}

    def build(self, group: SpecGroup, implementation: str):
        """A Build, or the exception saying why there is none (cached per spec group)."""
        key = (group.name, implementation)
        if key not in self.builds:
            try:
                builder = group.builders[implementation]
                # no '%' in paths: GNU ld expands it in -Map file names
                directory = implementation.replace("%", "pct")
                self.builds[key] = builder(self.build_root / group.name / directory)
            except (NotApplicable, ours.Pending) as error:
                self.builds[key] = error
        return self.builds[key]

    def run(self, benchmark: Benchmark, implementation: str) -> List[Row]:
        group = benchmark.group()
        if implementation not in group.builders:
            return []
        rows = [Row(benchmark.name, implementation, op, benchmark.bytes_per_message)
                for op in benchmark.operations]
        build = self.build(group, implementation)
        if isinstance(build, Exception):
            status = "pending" if isinstance(build, ours.Pending) else "n/a"
            for row in rows:
                row.status, row.note = status, str(build)
            return rows
        work = self.build_root / "runs" / benchmark.name / implementation.replace("%", "pct")
        work.mkdir(parents=True, exist_ok=True)
        corpus = work / "messages.corpus"
        corpora.write_framed(corpus, benchmark.messages)

        problem, notes = self.check(build, corpus, benchmark, work)
        if problem:
            for row in rows:
                row.status = "pending" if implementation in OURS + OURS_DER else "n/a"
                row.note = "; ".join([problem] + build.notes)
            return rows
        code = callgrind.code_bytes(build.map_file, build.counts)
        for row in rows:
            keep = work / f"{row.operation}.callgrind"
            count = callgrind.count_instructions(
                [str(build.executable), row.operation, str(corpus), str(benchmark.rounds)],
                MEASURED_FUNCTION[row.operation], keep=keep)
            expected_calls = benchmark.rounds * len(benchmark.messages)
            if count.calls != expected_calls:
                raise callgrind.MeasurementError(
                    f"{build.executable}: {count.calls} calls, expected {expected_calls}")
            row.instructions_per_message = count.per_call
            row.code_bytes = code
            row.note = "; ".join(build.notes + notes[row.operation])
            if implementation == "openssl" and row.operation == "decode":
                public_key = callgrind.inclusive_instructions(keep, "x509_pubkey_ex_d2i_ex")
                if public_key:
                    row.note = (f"decoding: {public_key / count.instructions:.0%} of it in "
                                "x509_pubkey_ex_d2i_ex (the public key made into an EVP_PKEY "
                                "through OpenSSL 3's provider decoders)")
            if implementation == "openssl" and row.operation == "encode":
                row.note = ("encoding: i2d_X509 of a certificate decoded and not modified "
                            "copies the cached encoding of its TBSCertificate")
        return rows

    @staticmethod
    def check(build: Build, corpus: Path, benchmark: Benchmark, work: Path):
        """(a reason the implementation fails on these messages or None, notes per
        operation): every message must decode, and its re-encoding should be the DER."""
        out = work / "reencoded.corpus"
        result = subprocess.run([str(build.executable), "check", str(corpus), str(out)],
                                capture_output=True, text=True)
        notes = {op: [] for op in OPERATIONS}
        if result.returncode != 0:
            detail = (result.stderr.strip().splitlines() or [f"exit {result.returncode}"])[-1]
            code = re.search(r"\(error (-?\d+)\)", detail)
            if code and build.error_name:
                detail = detail.replace(code.group(0), f"({build.error_name(int(code.group(1)))})")
            return f"cannot decode the messages: {detail}", notes
        produced = list(corpora.read_framed(out))
        wrong = sum(p != e for p, e in zip(produced, benchmark.expected_der))
        if wrong:
            notes["encode"].append(f"re-encoding differs from the DER in {wrong} of "
                                   f"{len(produced)} messages")
        return None, notes


# ---- Output ------------------------------------------------------------------------------

def write_csv(rows: Sequence[Row], path: Path) -> None:
    with open(path, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            writer.writerow(row.csv_row())


def _tool_versions() -> List[str]:
    def first_line(argv):
        try:
            r = subprocess.run(argv, capture_output=True, text=True)
            return ((r.stdout or r.stderr).strip().splitlines() or ["?"])[0]
        except OSError:
            return "not installed"
    versions = [f"compiler: {first_line([CC, '--version'])}",
                f"valgrind: {first_line(['valgrind', '--version'])}",
                f"asn1c: {asn1c.version()}",
                f"OpenSSL: {openssl.version()}"]
    try:
        versions.append(f"Heimdal: {heimdal.installed_version()} (Debian)")
    except NotApplicable as error:
        versions.append(f"Heimdal: {error}")
    versions.append(f"machine: {platform.machine()}, {platform.system()}")
    return versions


def _without_local_paths(text: str) -> str:
    """Notes name files relative to the checkout, never by this machine's paths."""
    return text.replace(str(REPO) + "/", "").replace(str(corpora.cache_dir()), "<cache>")


def _format_number(value: Optional[float]) -> str:
    return "" if value is None else f"{value:,.0f}"


def _per_byte(row: Row) -> str:
    if row.status != "ok":
        return ""
    return f"{row.instructions_per_message / row.bytes_per_message:,.1f}"


REFERENCE_POINTS = """\
## Reference points

| benchmark | reference | instructions per message |
| --- | --- | ---: |
| blackwell (decode) | Lin's hand-optimised optimum, as estimated by Blackwell (1996, table 1; SPARC/Alpha) | 4,100 |
| blackwell (decode) | Blackwell's run-time generated decoder (DEC Alpha) | 1,307 |
| certificate decode + free, 1,415 bytes | Heimdal generated code | ~48,000 |
| certificate decode + free, 1,415 bytes | Heimdal templates | ~65,000 |
| certificate decode + free, 1,415 bytes | asn1c | ~137,000 |

Targets (issues): compiled decoding of Blackwell's message at most 2,000 instructions;
decoding and freeing a 1,415-byte CA certificate at most 8,000 compiled and 24,000
interpreted; the hybrid at 20% of the code cost reaching at least 75% of the maximal saving.
"""

PEER_LIMITS = """\
## What the peers could not take

- **Heimdal 7.8 `asn1_compile`** aborts on `DEFAULT {}`, emits C types in module order
  (a type used before its definition does not compile), treats an IMPLICIT tag on a
  reference to a tagged type as EXPLICIT (so `dateOfHire [1] Date` would expect a
  constructed [1]), and its SET decoder asserts that each member carries its own tag.
  `bench/peers/heimdal/personnel.asn` restates the personnel record around these, with the
  same encodings.  Its generated code rejects indefinite lengths (`ASN1_OVERRUN`; with
  `--support-ber`, `ASN1_MISPLACED_FIELD`).  With `--template` it also aborts on any SET;
  the SEQUENCE rewrite in DER order (`personnel-template.asn`) compiles but does not decode
  the record.  It cannot read RFC 5280's PKIX1Explicit88 (size constraints on string
  types): its certificate rows use Heimdal's own `rfc2459.asn1` with the options of its
  `rfc2459.opt` (as Heimdal's libasn1 is built), taken with `asn1-template.h` from the
  Debian source package of the installed version.  It reads one module per run, so a
  multi-module spec such as the X.400 one gets only the module holding the PDU.
- **asn1c 0.9.28** refuses PKIX1Implicit88's import of BMPString and UTF8String from
  PKIX1Explicit88 (RFC 5280 says to delete that line for compilers that know them); the
  Certificate type is wholly in PKIX1Explicit88, which is all it gets.
- **OpenSSL** is a library, not a compiler: it appears on the certificate benchmarks only.
"""

METHOD = """\
## Method

- **Instructions** are counted by `valgrind --tool=callgrind --collect-atstart=no
  --toggle-collect=FUNCTION`: a driver (`bench/drivers/bench_main.c`) calls
  `bench_decode_once(msg, len)` (decode into the implementation's native structs, then free
  them) or `bench_encode_once(i)` (DER-encode a value decoded beforehand into a 1 MiB
  buffer) for every message, ROUNDS times, after one warm-up pass that is not counted.
  Only instructions executed inside those functions and their callees (malloc and free
  included) are counted; the total is divided by the number of calls.  Callgrind counts
  executed instructions exactly: a rerun gives the same numbers to within a few
  instructions (malloc's paths depend slightly on addresses and the environment).
- **Per byte** is instructions per message divided by the mean message size.
- **Code bytes**: each implementation is linked statically into the driver with
  `-ffunction-sections -fdata-sections -Wl,--gc-sections` and a linker map; the count is
  the size of the input sections named `.text*`, `.rodata*` and `.data*` that the link kept
  from the implementation's own objects: its generated code and its runtime (asn1c's
  skeletons; `runtime_c/` for ours; the members of Debian's `libasn1.a` and `libroken.a`
  for Heimdal; of `libcrypto.a` for OpenSSL).  Not counted: the driver, libc, `.bss`,
  unwind tables and debug information.  Prebuilt libraries are kept or dropped per member
  (they were not built with `-ffunction-sections`).
- **Build**: `{cc} {cflags}`, linked with `{ldflags}`, for every implementation and the
  driver; our runtime's sources also take `{runtime_cflags}`, and all but `{block_except}`
  `{block_cflags}`, as our CMake function and Make fragment give them by default
  (docs/build-integration.md, "Optimization flags").
  Debian's prebuilt `libasn1.a` and `libcrypto.a` are used as Debian built them.
- **Checks** before counting: every message must decode, and the DER re-encoding of each
  is compared with the expected DER (a difference is noted in the table).
- Our rows are built by `asn1c-hybrid compile SPEC... -o DIR --mode
  compiled|interpreted|hybrid [--budget 20%] --pdu Module.Type` plus `runtime_c/*.c`;
  decoding uses an arena on a fixed 1 MiB buffer, freed by `asn1h_arena_reset`.

Reproduce: `make bench` (or `.venv/bin/python bench/run.py`); builds go to `build/bench/`.
Peers: `bench/peers/` (asn1c with `-fwide-types -fcompound-names`; Heimdal's
`asn1_compile` with and without `--template`; OpenSSL's `d2i_X509`/`i2d_X509`).
"""


def size_table(rows: Sequence[dict]) -> List[str]:
    """The code-size section of docs/benchmarks.md, from bench/sizes.csv."""
    if not rows:
        return []
    levels = list(dict.fromkeys(r["level"] for r in rows))
    lines = ["## Code size", "",
             "Written by `bench/sizes.py` (`make bench`): bytes of `.text*`, `.rodata*` and "
             "`.data*` that a decode-and-encode program keeps from each implementation "
             "(`--gc-sections`).  Ours: `--pdu` the message type(s); hybrid at 10/20/40% "
             "of the all-compiled code; split into generated code and runtime.  Heimdal's "
             "runtime is its prebuilt library (as Debian built it, whatever the level); "
             "asn1c's skeletons are copied among its generated files, so only its total "
             "is given.  The `-der` builds of the certificate program are built with "
             "`--encoding der`: DER's forms of strings and times alone, without the code "
             "of BER's others (constructed strings, times in other forms, the redone "
             "framing of values kept as received).", "",
             "| spec | build | " + " | ".join(f"{lv} generated | {lv} runtime | {lv} total"
                                             for lv in levels) + " |",
             "| --- | --- |" + " ---: | ---: | ---: |" * len(levels)]
    for spec in dict.fromkeys(r["spec"] for r in rows):
        for build in dict.fromkeys(r["build"] for r in rows if r["spec"] == spec):
            cells = []
            for level in levels:
                found = [r for r in rows if (r["spec"], r["build"], r["level"])
                         == (spec, build, level)]
                if not found or found[0]["total_bytes"] == "n/a":
                    cells += ["", "", "n/a"]
                elif build == "asn1c":
                    cells += ["", "", f"{int(found[0]['total_bytes']):,}"]
                else:
                    cells += [f"{int(found[0][k]):,}" for k in
                              ("generated_bytes", "runtime_bytes", "total_bytes")]
            if any(cells):
                lines.append(f"| {spec} | {build} | " + " | ".join(cells) + " |")
    notes = sorted({f"{r['spec']} {r['build']}: {_without_local_paths(r['note'])}" for r in rows
                    if r["note"] and r["total_bytes"] == "n/a"
                    and r["note"] != "not built for this spec"})
    if notes:
        lines += ["", "Not built: " + "; ".join(notes) + "."]
    objects = read_rows(OBJECTS_CSV)
    if objects:
        lines += ["", "Whole specifications, every type emitted, one object each (`gcc -O2 -c`, "
                  "then `size`; `ASN1H_NO_NAMES` leaves the names out).  Before the compact "
                  "tables, LTE RRC r14 was a 1.06 MB object interpreted-only, and 4.5 MB "
                  "compiled-only after 85 s of gcc on another machine; before names were "
                  "coded as words (docs/runtime.md, \"Names\"), 339,799 bytes "
                  "interpreted-only with names, and 208,951 before they followed each "
                  "other with references to the names that came before.  Built with every "
                  "rule (the default), the compiled objects hold each compiled SEQUENCE's "
                  "and CHOICE's PER routines beside its BER ones (a program links them only "
                  "when it calls the spec's PER entry points); built with `--encoding uper`, "
                  "the PER ones alone:", "",
                  "| spec | mode | rules | names | object bytes | gcc seconds |",
                  "| --- | --- | --- | --- | ---: | ---: |"]
        lines += [f"| {o['spec']} | {o['mode']} | {o.get('rules', 'all')} | {o['names']} "
                  f"| {int(o['object_bytes']):,} | {o['gcc_seconds']} |" for o in objects]
    return lines + [""]


def executed_table(path: Path = EXECUTED_CSV) -> List[str]:
    """The section of docs/benchmarks.md on the code the certificate benchmark runs, from
    bench/executed.csv."""
    rows = read_rows(path)
    if not rows:
        return []
    lines = ["### Code the certificate benchmark runs", "",
             "Written by `bench/sizes.py` (`--executed` alone): of the machine code (`.text*`) "
             "that the certificate program keeps, the octets of the instructions that "
             "decoding and DER-encoding the Mozilla CA certificates execute, inside the "
             "measured functions (callgrind `--dump-instr=yes`; each instruction's length "
             "from `objdump -d`).  The rest is code that the certificates never reach: "
             "errors and their paths, BER's other forms, strict DER's checks and the kinds "
             "Certificate does not use.", "",
             "| build | level | runtime | of which run | generated | of which run |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['build']} | {r['level']} | {int(r['runtime_bytes']):,} | "
                     f"{int(r['runtime_executed_bytes']):,} | {int(r['generated_bytes']):,} | "
                     f"{int(r['generated_executed_bytes']):,} |")
    return lines + [""]


def ber_vs_per_table(path: Path = BER_VS_PER_CSV) -> List[str]:
    """The BER-against-PER section of docs/benchmarks.md, from bench/ber_vs_per.csv."""
    rows = read_rows(path)
    if not rows:
        return []
    lines = ["## BER against PER", "",
             "Written by `bench/ber_vs_per.py` (`make bench`), as Dabbous & Diot's Table 1 "
             "compares BER with a lightweight syntax: the same values in DER, UPER and APER, "
             "bytes on the wire and instructions per PDU inside the runtime's decode and "
             "encode calls (callgrind, gcc -O2).  The X.400 corpus is the study's "
             "trace-2000; CAM is one passenger car's basic and high-frequency containers, "
             "lte-rrc an RRCConnectionReconfiguration with a measurement configuration "
             "(our UPER is asn1tools'), s1ap an InitialContextSetupRequest with one E-RAB "
             "(our APER is pycrate's), each 200 times (bench/per_messages.py).  The compiled "
             "build's PER routines (emit/per_routines.py) write the same octets as the "
             "tables.  "
             "asn1c 0.9.28 -gen-PER (UPER) reads and writes "
             "the same octets; it cannot take X.400, having no PER for SET, nor parse "
             "S1AP's information object sets.  The C that asn1tools generates is no peer: "
             "it refuses IA5String (CAM) and extension additions (RRC), and cannot "
             "compile S1AP for PER.  What PER buys depends "
             "on the constraints: X.400's types have almost none that PER can see, its "
             "strings are the bulk of every PDU and go as octets or 7-bit characters "
             "(read and written up to 56 bits at a time, asn1h_per.c), so "
             "PER saves little; CAM is made of constrained numbers and enumerations, which "
             "PER packs into a few bits each.", "",
             "| corpus | PDUs | rules | build | bytes per PDU | decode instr/PDU "
             "| encode instr/PDU |",
             "| --- | ---: | --- | --- | ---: | ---: | ---: |"]
    lines += [f"| {r['corpus']} | {int(r['pdus']):,} | {r['rules']} | {r['build']} | "
              f"{float(r['bytes_per_pdu']):,.1f} | {int(r['decode_per_pdu']):,} | "
              f"{int(r['encode_per_pdu']):,} |" for r in rows]
    return lines + [""]


def write_markdown(rows: Sequence[Row], bench_list: Sequence[Benchmark], path: Path) -> None:
    lines = ["# Benchmarks", "",
             "Written by `bench/run.py`; do not edit by hand.  Instructions per message "
             "are counted with callgrind (exact and repeatable), code size from the link.",
             "", "Tools: " + "; ".join(_tool_versions()) + ".", ""]
    notes: List[str] = []
    for benchmark in bench_list:
        mine = [r for r in rows if r.benchmark == benchmark.name]
        if not mine:
            continue
        lines += [f"## {benchmark.name}", "",
                  f"{benchmark.description}: {len(benchmark.messages)} message(s), "
                  f"{benchmark.bytes_per_message:,.1f} bytes on average.", "",
                  "| implementation | decode instr/msg | decode instr/byte | encode instr/msg "
                  "| encode instr/byte | code bytes | notes |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
        for implementation in IMPLEMENTATIONS:
            by_op = {r.operation: r for r in mine if r.implementation == implementation}
            if not by_op:
                continue
            first = next(iter(by_op.values()))
            cells = []
            for op in OPERATIONS:
                row = by_op.get(op)
                if row is None:
                    cells += ["", ""]
                elif row.status != "ok":
                    cells += [row.status, ""]
                else:
                    cells += [_format_number(row.instructions_per_message), _per_byte(row)]
            code = _format_number(first.code_bytes) if first.status == "ok" else first.status
            row_notes = sorted({_without_local_paths(r.note) for r in by_op.values()
                                if r.note})
            refs = []
            for note in row_notes:
                if note not in notes:
                    notes.append(note)
                refs.append(f"[{notes.index(note) + 1}]")
            lines.append(f"| {implementation} | " + " | ".join(cells) +
                         f" | {code} | {' '.join(refs)} |")
        lines.append("")
    lines += size_table(read_rows(SIZES_CSV))
    lines += executed_table()
    lines += ber_vs_per_table()
    lines += stream_table()
    lines += layouts_table()
    lines += fastpaths_table()
    lines += layout_budget_table()
    if notes:
        lines += ["## Notes", ""] + [f"{i}. {note}" for i, note in enumerate(notes, 1)] + [""]
    lines += [REFERENCE_POINTS, PEER_LIMITS, METHOD.format(cc=CC, cflags=" ".join(CFLAGS),
                                              ldflags=" ".join(LDFLAGS),
                                              runtime_cflags=" ".join(RUNTIME_CFLAGS),
                                              block_except="`, `".join(RUNTIME_BLOCK_EXCEPT),
                                              block_cflags=" ".join(RUNTIME_BLOCK_CFLAGS))]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmarks", nargs="*", help="only these (default: all)")
    parser.add_argument("--implementations", nargs="*", choices=IMPLEMENTATIONS,
                        help="only these (default: all)")
    parser.add_argument("--csv", type=Path, default=RESULTS_CSV)
    parser.add_argument("--markdown", type=Path, default=RESULTS_DOC)
    args = parser.parse_args(argv)

    bench_list = [b for b in benchmarks()
                  if not args.benchmarks or b.name in args.benchmarks]
    implementations = args.implementations or IMPLEMENTATIONS
    runner = Runner(corpora.build_dir())
    rows: List[Row] = []
    for benchmark in bench_list:
        for implementation in implementations:
            new = runner.run(benchmark, implementation)
            for row in new:
                shown = (_format_number(row.instructions_per_message)
                         if row.status == "ok" else f"{row.status}: {row.note}")
                print(f"{benchmark.name:22} {implementation:17} {row.operation:7} {shown}",
                      flush=True)
            rows += new
    write_csv(rows, args.csv)
    write_markdown(rows, bench_list, args.markdown)
    print(f"wrote {args.csv} and {args.markdown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
