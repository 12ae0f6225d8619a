#!/usr/bin/env python3
"""Streams, element-wise walks and fused passes, measured as Dabbous & Diot measured ALF
and ILP.

    python bench/stream.py          (part of `make bench`)

Three measurements, written to bench/stream.csv and to the section "Streams and fused
passes" of docs/benchmarks.md:
  - A CRL of 1,000,000 revoked certificates (bench/corpora.py's make_crl, DER), decoded by
    examples/stream/stream_jer.c element by element as it arrives (--walk), and whole by
    the converter; `openssl crl -noout` reads the same file.  Wall time (best of three),
    bytes per second, peak resident memory (each process's own rusage), and the arena's
    high-water mark of the walk.
  - The stream framer's cost: instructions (callgrind) inside asn1h_stream_feed, not
    counting the decoding that it calls back, per PDU, when a corpus arrives in 64 KiB
    reads and one octet at a time.
  - The passes that ILP fuses, by bench/drivers/ilp.c: instructions per PDU (callgrind,
    the measured loop only) and nanoseconds per PDU (best of three) over the Mozilla CA
    certificates and a real SNMP walk (net-snmp's agent and snmpwalk, bench/corpora.py):
    decoding in place, decoding owned values (asn1h_decode_owned), decoding then
    asn1h_copy; DER encoding, then SHA-256 (OpenSSL) or CRC-32 of the encoding.
All builds are gcc -O2; the generated code is compiled or interpreted as each row says.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Sequence

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import corpora  # noqa: E402
from callgrind import count_each  # noqa: E402
from peers.common import CC  # noqa: E402

REPO = BENCH.parent
RUNTIME = REPO / "runtime_c"
CSV = BENCH / "stream.csv"
PEAK = corpora.build_dir() / "stream" / "peak"
DOC = REPO / "docs" / "benchmarks.md"
COLUMNS = ["measure", "corpus", "build", "what", "value", "unit"]
CRL_ENTRIES = 1_000_000
CRL = "PKIX1Explicit88.CertificateList"
REVOKED = "PKIX1Explicit88.TBSCertList.revokedCertificates"
CERTIFICATE = "PKIX1Explicit88.Certificate"
SNMP = "RFC1157-SNMP.Message"
MODES = ("compiled", "interpreted")


def specs() -> List[Path]:
    shared = corpora.shared_dir() / "specs"
    return [*sorted((shared / "IETF_PKI_RFC5280").glob("*.asn")),
            *sorted((shared / "IETF_SNMP").glob("*.asn")),
            *sorted((shared / "IETF_LDAP_RFC4511").glob("*.asn"))]


def build(mode: str, name: str, main: Path, out: Path, libs: Sequence[str] = ()) -> Path:
    """The generated spec (under `name`) with `main` and the runtime, gcc -O2."""
    subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", *map(str, specs()),
                    "-o", str(out), "--name", name, "--converter", "--mode", mode],
                   cwd=REPO, check=True, capture_output=True)
    program = out / main.stem
    subprocess.run([CC, "-std=c99", "-O2", "-I", str(out), "-I", str(RUNTIME),
                    str(out / f"{name}.c"), str(main),
                    *map(str, sorted(RUNTIME.glob("asn1h_*.c"))), "-lm", *libs, "-o",
                    str(program)], check=True, capture_output=True)
    return program


def timed(argv: Sequence[str], stdin_path: Path | None = None) -> tuple[float, int, str]:
    """(seconds, peak resident kilobytes, standard error) of one run, through
    bench/drivers/peak.c (see there why)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        result = subprocess.run([str(PEAK), *map(str, argv)], stdin=stdin,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
    finally:
        if stdin_path:
            stdin.close()
    stderr = result.stderr.decode()
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, argv))} failed:\n{stderr}")
    *rest, last = stderr.rstrip("\n").split("\n")
    return seconds, int(last.split()[1]), "\n".join(rest)


def best_of(n: int, argv: Sequence[str], stdin_path: Path | None = None):
    runs = [timed(argv, stdin_path) for _ in range(n)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2]


def crl_rows(work: Path, programs: dict) -> List[list]:
    path = work / "crl-1000000.der"
    if not path.exists():
        path.write_bytes(corpora.make_crl(CRL_ENTRIES))
    size = path.stat().st_size
    rows = []

    def add(build: str, what: str, seconds: float, rss: int, arena: str = ""):
        rows.extend([["crl", f"{CRL_ENTRIES:,} entries, {size / 1e6:.1f} MB", build, what,
                      f"{seconds:.3f}", "s"],
                     ["crl", "", build, what, f"{size / seconds / 1e6:.0f}", "MB/s"],
                     ["crl", "", build, what, str(rss), "KB resident"]])
        if arena:
            rows.append(["crl", "", build, what, arena, "arena bytes at most"])
        print(f"crl {build:12} {what:30} {seconds:7.3f} s {size / seconds / 1e6:6.0f} MB/s "
              f"{rss:8} KB {arena}", flush=True)

    for mode in MODES:
        walk, converter = programs[mode]["stream_jer"], programs[mode]["converter"]
        seconds, rss, stats = best_of(3, [walk, "-p", CRL, "--walk", REVOKED, "-o", "null",
                                          "--stats", "-"], path)
        arena = dict(zip(stats.split()[0::2], stats.split()[1::2]))["arena_peak"]
        add(mode, "walked from a pipe", seconds, rss, arena)
        seconds, rss, _ = best_of(3, [converter, "-p", CRL, "-o", "null", path])
        add(mode, "whole (converter)", seconds, rss)
    seconds, rss, _ = best_of(3, ["openssl", "crl", "-inform", "DER", "-noout", "-in", path])
    add("openssl", "openssl crl -noout", seconds, rss)
    return rows


def framer_rows(work: Path, programs: dict) -> List[list]:
    rows = []
    corpus = work / "mozilla.der"
    certificates = corpora.mozilla_certificates()
    corpus.write_bytes(b"".join(c.data for c in certificates))
    for mode in MODES:
        program = programs[mode]["stream_jer"]
        for label, chunks in (("64 KiB reads", "65536"), ("one octet at a time", "1")):
            argv = [str(program), "-p", CERTIFICATE, "-o", "null", "--chunks", chunks,
                    str(corpus)]
            # the feed's count includes the decoding it calls back: its own is the rest
            n = len(certificates)
            decoding = count_each(argv, ["asn1h_decode"])["asn1h_decode"] / n
            framing = count_each(argv, ["asn1h_stream_feed"])["asn1h_stream_feed"] / n \
                - decoding
            rows.append(["framer", f"Mozilla CA, {n} certificates", mode, label,
                         f"{framing:.0f}", "instr/PDU framing"])
            rows.append(["framer", "", mode, label, f"{decoding:.0f}", "instr/PDU decoding"])
            print(f"framer {mode:12} {label:20} {framing:8.0f} framing {decoding:8.0f} "
                  f"decoding instr/PDU", flush=True)
    return rows


ILP_MODES = ("decode", "copy", "deep", "encode", "encode-sha256", "sha256", "encode-crc32",
             "crc32")


def ilp_rows(work: Path, programs: dict) -> List[list]:
    rows = []
    snmp = corpora.snmp_walk_messages()
    corpus_list = [("Mozilla CA certificates", CERTIFICATE,
                    [c.data for c in corpora.mozilla_certificates()])]
    if snmp:
        corpus_list.append(("SNMP walk of a net-snmp agent", SNMP, snmp))
    else:
        print("ilp: net-snmp is not installed (apt-get install snmpd snmp): no SNMP corpus")
    for name, type_id, pdus in corpus_list:
        path = work / (type_id.replace(".", "-") + ".ber")
        path.write_bytes(b"".join(pdus))
        label = f"{name}, {len(pdus):,} PDUs"
        for mode in MODES:
            program = programs[mode]["ilp"]
            for what in ILP_MODES:
                counts = count_each([str(program), "-p", type_id, what, "1", str(path)],
                                    ["measured"])
                instructions = counts["measured"] / len(pdus)
                rounds = max(1, int(3e6 // max(1, sum(map(len, pdus)))))
                ns = min(float(subprocess.run([str(program), "-p", type_id, what, str(rounds),
                                               str(path)], check=True, capture_output=True,
                                              text=True).stdout) for _ in range(3))
                rows.append(["ilp", label, mode, what, f"{instructions:.0f}", "instr/PDU"])
                rows.append(["ilp", label, mode, what, f"{ns:.0f}", "ns/PDU"])
                print(f"ilp {name[:12]:12} {mode:12} {what:14} {instructions:9.0f} instr "
                      f"{ns:9.0f} ns", flush=True)
    return rows


def value(rows, measure, build, what, unit, corpus_prefix=""):
    for r in rows:
        if r["measure"] == measure and r["build"] == build and r["what"] == what \
                and r["unit"] == unit and (not corpus_prefix or r["corpus"].startswith(corpus_prefix)):
            return float(r["value"])
    return None


def stream_table(path: Path = CSV) -> List[str]:
    """The section of docs/benchmarks.md, from bench/stream.csv."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    lines = ["## Streams and fused passes", "",
             "Written by `bench/stream.py` (`make bench`); gcc -O2.  Resident memory is each "
             "process's peak (its own rusage); time is the best of three runs.", "",
             "**A CRL of 1,000,000 entries.**  The walk reads the CRL from a pipe as it "
             "arrives and hands over one entry at a time (`examples/stream`, `--walk`); the "
             "converter reads the file and decodes it whole; OpenSSL parses it into its own "
             "structures.", "",
             "| build | how | seconds | MB/s | KB resident | arena bytes at most |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    crl = [r for r in rows if r["measure"] == "crl"]
    for build, what in dict.fromkeys((r["build"], r["what"]) for r in crl):
        cells = [value(crl, "crl", build, what, unit) for unit in
                 ("s", "MB/s", "KB resident", "arena bytes at most")]
        lines.append(f"| {build} | {what} | {cells[0]:.3f} | {cells[1]:,.0f} | "
                     f"{cells[2]:,.0f} | {'' if cells[3] is None else f'{cells[3]:,.0f}'} |")
    lines += ["", "**The stream framer** (`asn1h_stream_feed`, not counting the decoding it "
              "calls back), per certificate of the Mozilla CA corpus:", "",
              "| build | fragments | framing instr/PDU | decoding instr/PDU |",
              "| --- | --- | ---: | ---: |"]
    framer = [r for r in rows if r["measure"] == "framer"]
    for build, what in dict.fromkeys((r["build"], r["what"]) for r in framer):
        lines.append(f"| {build} | {what} | "
                     f"{value(framer, 'framer', build, what, 'instr/PDU framing'):,.0f} | "
                     f"{value(framer, 'framer', build, what, 'instr/PDU decoding'):,.0f} |")
    lines += ["", "**Passes that ILP would fuse** (`bench/drivers/ilp.c`): per PDU, "
              "instructions of the measured loop and nanoseconds.", "",
              "| corpus | build | pass | instr/PDU | ns/PDU |", "| --- | --- | --- | ---: | ---: |"]
    ilp = [r for r in rows if r["measure"] == "ilp"]
    for corpus, build, what in dict.fromkeys((r["corpus"], r["build"], r["what"]) for r in ilp):
        lines.append(f"| {corpus} | {build} | {what} | "
                     f"{value(ilp, 'ilp', build, what, 'instr/PDU', corpus):,.0f} | "
                     f"{value(ilp, 'ilp', build, what, 'ns/PDU', corpus):,.0f} |")
    lines += ["", "What fusing gains, in instructions per PDU (the wall times above are "
              "noisier): owned values decoded in one call (`copy`: the PDU copied, then "
              "decoded) against a decode followed by `asn1h_copy` (`deep`).", ""]
    for corpus, build in dict.fromkeys((r["corpus"], r["build"]) for r in ilp):
        decode, copy, deep = (value(ilp, "ilp", build, what, "instr/PDU", corpus)
                              for what in ("decode", "copy", "deep"))
        if decode and copy and deep:
            lines.append(f"- {corpus.split(',')[0]}, {build}: the fused copy adds "
                         f"{copy - decode:,.0f} to a decode of {decode:,.0f} "
                         f"({(copy - decode) / decode:+.0%}), the copy after it "
                         f"{deep - decode:,.0f} ({(deep - decode) / decode:+.0%}).")
    lines += ["", "A digest cannot be fused with the DER encoder, which writes backwards "
              "(docs/runtime.md, \"Streams, walks and owned values\"): `encode-sha256` and "
              "`encode-crc32` are encoding then digesting the octets, still in cache, and "
              "cost what the two cost apart."]
    return lines + [""]


def splice(section: List[str], doc: Path = DOC) -> None:
    """Puts the section in docs/benchmarks.md, before "## Notes" or in place of the last."""
    text = doc.read_text().split("\n") if doc.exists() else ["# Benchmarks", ""]
    title = section[0]
    if title in text:
        start = text.index(title)
        end = next((i for i in range(start + 1, len(text)) if text[i].startswith("## ")),
                   len(text))
        text[start:end] = section
    else:
        at = next((i for i, line in enumerate(text)
                   if line in ("## Notes", "## Reference points")), len(text))
        text[at:at] = section
    doc.write_text("\n".join(text))


def main() -> int:
    work = corpora.build_dir() / "stream"
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run([CC, "-O2", str(BENCH / "drivers" / "peak.c"), "-o", str(PEAK)], check=True)
    programs: dict = {}
    for mode in MODES:
        out = work / mode
        programs[mode] = {
            "stream_jer": build(mode, "streamspec", REPO / "examples" / "stream" / "stream_jer.c",
                                out / "streamspec"),
            "ilp": build(mode, "spec", BENCH / "drivers" / "ilp.c", out / "spec", ["-lcrypto"]),
        }
        converter = out / "streamspec" / "converter.bin"
        subprocess.run([CC, "-std=c99", "-O2", "-I", str(out / "streamspec"), "-I", str(RUNTIME),
                        str(out / "streamspec" / "streamspec.c"),
                        str(out / "streamspec" / "converter" / "streamspec_converter.c"),
                        *map(str, sorted(RUNTIME.glob("asn1h_*.c"))), "-lm", "-o",
                        str(converter)], check=True, capture_output=True)
        programs[mode]["converter"] = converter
    rows = crl_rows(work, programs) + framer_rows(work, programs) + ilp_rows(work, programs)
    with CSV.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    splice(stream_table())
    print(f"wrote {CSV.relative_to(REPO)} and docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
