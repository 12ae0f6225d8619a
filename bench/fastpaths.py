#!/usr/bin/env python3
"""Layout fast paths (Blackwell's templates, docs/layouts.md) measured on held-out traffic.

    python bench/fastpaths.py       (part of `make bench`)
    python bench/fastpaths.py --miss-spread   (what each SNMP slot-tree miss costs)

For the real traces of examples/snmp and examples/ldap, the profile (type counts and
layouts) is made from the first half of the trace, and every build is measured on the
second half, which shares no message with it:
  - compiled, and hybrid at 20% (the profile's type counts), as the suite builds them;
  - the same with fast paths for the 10 and the 50 most frequent exact layouts, and for
    the 10 most frequent slot layouts;
  - for SNMP, a hybrid at 75% whose layouts the knapsack chose (`--layouts auto`,
    TARGETS), of either form and of exact ones only, each with its miss cost against the
    same types compiled without layouts.
Instructions per message inside the decode call and inside the DER encode call (callgrind,
as bench/run.py counts them), and the linked code bytes (generated + runtime,
--gc-sections).  Exact layouts have encoding paths too; slot layouts do not.  The miss cost is measured
on the held-out messages that no chosen layout matches: the instructions per message of
the build with fast paths, less those of the same build without.  Blackwell's message is
measured with its own layout chosen.  Written to bench/fastpaths.csv and to the section
"Layout fast paths" of docs/benchmarks.md.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH))

import callgrind  # noqa: E402
import corpora  # noqa: E402
from peers import ours  # noqa: E402
from rows import read_rows, write_rows  # noqa: E402

from asn1c_hybrid import api  # noqa: E402
from asn1c_hybrid.layouts import parse  # noqa: E402

CSV = BENCH / "fastpaths.csv"
COLUMNS = ["corpus", "build", "form", "layouts", "messages", "decode_per_message",
           "encode_per_message", "miss_messages", "miss_per_message",
           "encode_miss_per_message", "code_bytes"]
VARIANTS = (("", 0), ("exact", 10), ("exact", 50), ("slot", 10))   # (form, how many)
BASES = ("compiled", "hybrid-20%")
# and for SNMP, the build for the target (a third of the compiled instructions,
# in at most 20% more code than the hybrid at 20%: 46.5 KB): a hybrid at 75% whose
# layouts the knapsack chooses beside the types (`--layouts auto`), of either form and of
# exact ones only, each with its twin without layouts (the same types compiled) for the
# miss cost
TARGETS = {"snmp": ("hybrid-75%", ("", "exact"))}


def examples():
    shared = corpora.shared_dir() / "specs"
    snmp = [*sorted((REPO / "examples" / "snmp" / "spec").glob("*.asn")),
            shared / "IETF_SNMP" / "RFC1155-SMI.asn", shared / "IETF_SNMP" / "RFC1157-SNMP.asn"]
    ldap = sorted((shared / "IETF_LDAP_RFC4511").glob("*.asn"))
    out = []
    for name, specs, module, pdu in (
            ("snmp", snmp, "SNMP-Traffic", "Message"),
            ("ldap", ldap, "Lightweight-Directory-Access-Protocol-V3", "LDAPMessage")):
        trace = REPO / "examples" / name / "trace.ber"
        split = json.loads(trace.with_suffix(".json").read_text())["second_round_from"]
        pdus = corpora.split_pdus(trace.read_bytes())
        out.append((name, specs, module, pdu, pdus[:split], pdus[split:]))
    blackwell = corpora.blackwell_message()
    out.append(("blackwell", [corpora.BLACKWELL_SPEC], "BlackwellModule", "BlackwellMessage",
                [blackwell, blackwell], [blackwell]))
    return out


def decode_instructions(build, work: Path, name: str, messages: Sequence[bytes],
                        mode: str = "decode") -> float:
    """Instructions per message of decoding (and freeing) them, or of DER-encoding their
    values (`mode` "encode")."""
    corpus = work / f"{name}.corpus"
    corpora.write_framed(corpus, messages)
    count = callgrind.count_instructions([str(build.executable), mode, str(corpus), "1"],
                                         f"bench_{mode}_once")
    if count.calls != len(messages):
        raise callgrind.MeasurementError(f"{count.calls} calls for {len(messages)} messages")
    return count.per_call


def training_profile(work: Path, specs, pdu: str, training: Sequence[bytes]):
    """The profile (type counts and layouts) of the training half, and the file it is
    saved in under `work`."""
    work.mkdir(parents=True, exist_ok=True)
    trace = work / "training.ber"
    trace.write_bytes(b"".join(training))
    profile = api.profile(api.load([str(s) for s in specs]), pdu, [str(trace)])
    path = work / "profile.json"
    profile.save(path)
    return profile, path


def missed_by(layouts, messages: Sequence[bytes]) -> List[bytes]:
    """The messages that none of the layouts takes."""
    return [m for m in messages if not any(l.matches(parse(m)) for l in layouts)]


def measure() -> List[dict]:
    root = corpora.build_dir() / "fastpaths"
    rows = []
    for name, specs, module, pdu, training, held_out in examples():
        work = root / name
        profile, profile_path = training_profile(work, specs, f"{module}.{pdu}", training)
        learnt = profile.layouts[f"{module}.{pdu}"].forms
        variants = VARIANTS if name != "blackwell" else (("", 0), ("exact", 1))
        builds = [(base, variants) for base in BASES]
        for base, variants in builds:
            plain = None                    # the build without fast paths
            for form, n in variants:
                options = ["--profile", str(profile_path)]
                if n:
                    options += ["--layouts", str(n), "--layout-form", form]
                build_dir = work / f"{base.replace('%', 'pct')}-{form}{n}"
                build = ours.build(base, specs, pdu, module, build_dir, options=options)
                decode = decode_instructions(build, build_dir, "held-out", held_out)
                encode = decode_instructions(build, build_dir, "held-out", held_out, "encode")
                row = {"corpus": name, "build": base, "form": form, "layouts": n,
                       "messages": len(held_out),
                       "decode_per_message": f"{decode:.1f}",
                       "encode_per_message": f"{encode:.1f}", "miss_messages": "",
                       "miss_per_message": "", "encode_miss_per_message": "",
                       "code_bytes": callgrind.code_bytes(build.map_file, build.counts)}
                if plain is None:
                    plain = build
                else:
                    missed = missed_by(learnt[form][:n], held_out)
                    miss, encode_miss = miss_costs(build, plain, build_dir, missed)
                    row.update(miss_messages=len(missed), miss_per_message=f"{miss:.1f}",
                               encode_miss_per_message=f"{encode_miss:.1f}")
                rows.append(row)
                print(row, flush=True)
        base, forms = TARGETS.get(name, ("", ()))
        for form in forms:
            rows.append(knapsack_target(work, specs, module, pdu, profile_path, learnt,
                                        base, form, held_out))
            print(rows[-1], flush=True)
    return rows


def knapsack_target(work: Path, specs, module: str, pdu: str, profile_path: Path, learnt,
                    base: str, only: str, held_out: Sequence[bytes]) -> dict:
    """The row of a hybrid build whose layouts the knapsack chose (`--layouts auto`, of the
    form `only` if given); its misses are measured against a build of the same compiled
    types without layouts."""
    auto = ["--profile", str(profile_path), "--cost-model", "measured", "--layouts", "auto",
            *(["--layout-form", only] if only else [])]
    name = f"{base.replace('%', 'pct')}-auto{only}"
    build_dir = work / name
    build = ours.build(base, specs, pdu, module, build_dir, options=auto)
    explained = subprocess.run(
        [sys.executable, "-m", "asn1c_hybrid", "explain", *map(str, specs), "--pdu",
         f"{module}.{pdu}", "--budget", base.split("-")[1], *auto, "--format", "json"],
        cwd=REPO, capture_output=True, text=True, check=True)
    selection = json.loads(explained.stdout)
    compiled = [t["id"] for t in selection["types"] if t["compiled"]]
    form = selection["layouts"]["form"]
    chosen = {c["id"] for c in selection["layouts"]["candidates"] if c["chosen"]}
    plain = ours.build(base, specs, pdu, module, work / f"{name}-plain",
                       options=["--profile", str(profile_path), "--budget", "0",
                                *(f"--compile={t}" for t in compiled)])
    missed = missed_by([l for l in learnt[form] if l.id in chosen], held_out)
    decode = decode_instructions(build, build_dir, "held-out", held_out)
    encode = decode_instructions(build, build_dir, "held-out", held_out, "encode")
    miss, encode_miss = miss_costs(build, plain, build_dir, missed)
    return {"corpus": work.name, "build": f"{base} auto" + (f", {only} only" if only else ""),
            "form": form, "layouts": len(chosen),
            "messages": len(held_out), "decode_per_message": f"{decode:.1f}",
            "encode_per_message": f"{encode:.1f}", "miss_messages": len(missed),
            "miss_per_message": f"{miss:.1f}", "encode_miss_per_message": f"{encode_miss:.1f}",
            "code_bytes": callgrind.code_bytes(build.map_file, build.counts)}


def miss_costs(build, plain, work: Path, missed: Sequence[bytes]) -> tuple[float, float]:
    """What the messages `missed` take more, decoding and encoding, in the build with
    fast paths than in the same build without (`plain`), per message."""
    if not missed:
        return 0.0, 0.0
    return tuple(decode_instructions(build, work, "missed", missed, mode) -
                 decode_instructions(plain, work, "missed-plain", missed, mode)
                 for mode in ("decode", "encode"))


def _misses(row: dict) -> str:
    if not row["miss_per_message"]:
        return ""
    return ", ".join(format(float(row[k]), ",.1f")
                     for k in ("miss_per_message", "encode_miss_per_message"))


def fastpaths_table(path: Path = CSV) -> List[str]:
    """The section of docs/benchmarks.md, from bench/fastpaths.csv."""
    rows = read_rows(path)
    if not rows:
        return []
    lines = ["## Layout fast paths", "",
             "Written by `bench/fastpaths.py` (`make bench`).  The profile (type counts and "
             "layouts) is made from the first half of each real trace, and every build is "
             "measured on the second half: instructions per message inside the decode call "
             "and inside the DER encode call of the decoded values (callgrind), and linked "
             "code bytes (generated + runtime, gcc -O2, --gc-sections).  `layouts` says how "
             "many of the most frequent layouts, exact or slot, were given fast paths "
             "(`compile --layouts N --layout-form exact|slot`); exact layouts also have "
             "encoding paths, slot layouts do not.  The extra cost of a miss, decoding and "
             "encoding, is measured on the held-out messages that no chosen layout matches, "
             "against the same build without fast paths.  Blackwell's message is measured with its "
             "own layout chosen.  For SNMP, a hybrid at 75% whose layouts the knapsack chose "
             "(`--layouts auto`; and of exact ones only, `--layout-form exact`) is the "
             "build for the target of 534 instructions (a third of the compiled build's "
             "when it was set) in at most 20% more code than the hybrid at 20% (46.5 KB).",
             "",
             "| corpus | build | layouts | decode instr/msg | encode instr/msg | messages "
             "missed | extra instr per miss: decode, encode | code bytes |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        chosen = f"{r['layouts']} {r['form']}" if int(r["layouts"]) else "none"
        lines.append(f"| {r['corpus']} ({r['messages']} held out) | {r['build']} | "
                     f"{chosen} | {float(r['decode_per_message']):,.0f} | "
                     f"{float(r['encode_per_message']):,.0f} | "
                     f"{r['miss_messages']} | "
                     f"{_misses(r)} | "
                     f"{int(r['code_bytes']):,} |")
    return lines + [""]


def miss_spread(corpus: str = "snmp", base: str = "hybrid-20%", form: str = "slot",
                n: int = 10) -> List[tuple]:
    """(bytes, extra instructions) of each held-out message that none of the n chosen
    layouts takes: its decode in the build with fast paths less the same without
    (docs/layouts.md quotes the spread of the SNMP slot tree's misses)."""
    root = corpora.build_dir() / "fastpaths-misses"
    for name, specs, module, pdu, training, held_out in examples():
        if name != corpus:
            continue
        work = root / name
        profile, profile_path = training_profile(work, specs, f"{module}.{pdu}", training)
        missed = missed_by(profile.layouts[f"{module}.{pdu}"].forms[form][:n], held_out)
        options = ["--profile", str(profile_path)]
        plain = ours.build(base, specs, pdu, module, work / "plain", options=options)
        fast = ours.build(base, specs, pdu, module, work / "fast", options=options + [
            "--layouts", str(n), "--layout-form", form])
        return [(len(m), round(decode_instructions(fast, work, "one", [m])
                               - decode_instructions(plain, work, "one", [m])))
                for m in missed]
    raise ValueError(f"no example {corpus}")


def main(argv: Optional[Sequence[str]] = None) -> None:
    if list(sys.argv[1:] if argv is None else argv) == ["--miss-spread"]:
        for size, extra in miss_spread():
            print(f"{size:5} bytes  {extra:+5} instructions")
        return
    rows = measure()
    write_rows(CSV, COLUMNS, rows)
    print("\n".join(fastpaths_table()))


if __name__ == "__main__":
    main()
