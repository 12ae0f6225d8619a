"""The personnel record demo (`make demo`, first part): figure 2 of Hoschka & Huitema,
measured.

The paper encoded its personnel record value 100 times with every type interpreted, then
compiled Name, then also the children list and ChildInformation, then everything:
5,440, 3,825, 2,882 and 2,361 microseconds (all interpreted / all compiled = 2.3).  This
builds the same four selections from examples/personnel/personnel.asn, counts the
instructions of 100 DER encodings and 100 decodings of the same value with callgrind,
prints the `explain` table and the figures, and writes them to out/demo/personnel.csv.
"""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))

from asn1c_hybrid.cli import main as asn1c_hybrid  # noqa: E402
from asn1c_hybrid.measure.counts import count_instructions  # noqa: E402

SPEC = HERE / "personnel.asn"
PROFILE = REPO / "profiles" / "personnel.json"     # the smithperson value, counted
OUT = REPO / "out" / "demo"
M = "PersonnelRecordModule"
# (label, compiled types) as in the rows of the paper's figure 2
SELECTIONS = [
    ("all types interpreted", []),
    ("{Name}", ["Name"]),
    ("{Name, children, ChildInformation}", ["Name", "PersonnelRecord.children", "ChildInformation"]),
    ("all types compiled", ["Name", "PersonnelRecord.children", "ChildInformation",
                            "PersonnelRecord"]),
]
PAPER_US = [5440, 3825, 2882, 2361]
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2"]


def build(label: str, compiled: list[str], index: int) -> Path:
    out = OUT / f"selection-{index}"
    options = ["--mode", "interpreted", "--name", "personnel"]
    for name in compiled:
        options += ["--compile", f"{M}.{name}"]
    if asn1c_hybrid(["compile", str(SPEC), "-o", str(out), *options]) != 0:
        raise SystemExit(f"compiling the {label} selection failed")
    runtime = sorted((REPO / "runtime_c").glob("*.c"))
    program = out / "demo"
    subprocess.run(["gcc", *CFLAGS, "-I", str(out), "-I", str(REPO / "runtime_c"),
                    str(out / "personnel.c"), str(HERE / "demo_driver.c"), *map(str, runtime),
                    "-lm", "-o", str(program)], check=True)
    return program


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    print("== asn1c-hybrid explain examples/personnel/personnel.asn "
          "--profile profiles/personnel.json --budget 20%\n")
    sys.stdout.flush()
    asn1c_hybrid(["explain", str(SPEC), "--profile", str(PROFILE), "--budget", "20%"])
    rows = []
    for index, (label, compiled) in enumerate(SELECTIONS):
        program = build(label, compiled, index)
        encode = count_instructions([str(program)], "encode_100", calls=1).instructions
        decode = count_instructions([str(program)], "decode_100", calls=1).instructions
        rows.append((label, encode, decode))
    base_encode = rows[0][1]
    total_gain = base_encode - rows[-1][1]
    print("\n== Figure 2, measured: instructions for 100 conversions of the smithperson value\n")
    print(f"{'compiled types':38} {'100 encodings':>14} {'share of gain':>14} "
          f"{'100 decodings':>14}   paper (us, encoding)")
    previous = None
    for (label, encode, decode), paper in zip(rows, PAPER_US):
        share = "n.a." if previous is None else f"{(previous - encode) / total_gain:.1%}"
        print(f"{label:38} {encode:>14,} {share:>14} {decode:>14,}   {paper:,}")
        previous = encode
    enc_ratio = rows[0][1] / rows[-1][1]
    dec_ratio = rows[0][2] / rows[-1][2]
    print(f"\ninterpreted / compiled: encoding {enc_ratio:.2f}, decoding {dec_ratio:.2f} "
          f"(the paper: {PAPER_US[0] / PAPER_US[-1]:.2f} for encoding)")
    with open(OUT / "personnel.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["compiled_types", "instructions_100_encodings",
                         "instructions_100_decodings", "paper_us_100_encodings"])
        for (label, encode, decode), paper in zip(rows, PAPER_US):
            writer.writerow([label, encode, decode, paper])
    print(f"written: {(OUT / 'personnel.csv').relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
