#!/usr/bin/env python3
"""BER against PER on the same values, as Dabbous & Diot's Table 1 compares BER with a
lightweight syntax: bytes on the wire, and the instructions of decoding and encoding them.

    python bench/ber_vs_per.py          (part of `make bench`)

Four corpora:
  - the X.400 study's trace (examples/x400/traces/trace-2000.ber: 2,000 MTS-APDUs, DER);
  - an ETSI ITS CAM of a passenger car, an LTE RRC RRCConnectionReconfiguration with a
    measurement configuration and an S1AP InitialContextSetupRequest (bench/per_messages.py),
    each 200 times.  Our UPER of the RRC message must be asn1tools', our APER of the S1AP
    one pycrate's.
Each is converted with our converter (interpreted build, gcc -O2) into UPER and APER, and
each form is decoded and re-encoded under callgrind, by the interpreted build and the
compiled one (which must write the same octets): instructions inside `asn1h_decode` (or
`asn1h_decode_per_with`) and `asn1h_encode` (or `asn1h_encode_per_with`), per PDU.  Debian's
asn1c 0.9.28 with -gen-PER (UPER only) is the peer: its converter-sample reads and writes
the same UPER, counted inside `uper_decode` and `uper_encode` (neither side's freeing is
counted); it cannot parse S1AP's information object sets, nor give X.400
PER (no PER for SET).  The C that asn1tools generates (`asn1tools generate_c_source
--codec uper`) is no peer here: it refuses CAM ("Unsupported type 'IA5String'") and
RRC ("No member checker found for ExtensionAddition"), and cannot compile S1AP for PER.
Writes bench/ber_vs_per.csv, which bench/run.py puts in docs/benchmarks.md.
"""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path
from typing import Optional

import asn1tools

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import corpora  # noqa: E402
from callgrind import count_each  # noqa: E402
from peers.common import CC  # noqa: E402
from per_messages import CAM, RRC, S1AP  # noqa: E402

REPO = BENCH.parent
RUNTIME = REPO / "runtime_c"
CSV = BENCH / "ber_vs_per.csv"
COLUMNS = ["corpus", "pdus", "rules", "build", "bytes_per_pdu", "decode_per_pdu",
           "encode_per_pdu"]
COPIES = 200                            # the one CAM, this many times: a trace of it

def build_converter(specs, mode: str, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", *map(str, specs), "-o",
                    str(out), "--name", "spec", "--converter", "--mode", mode],
                   cwd=REPO, check=True, capture_output=True)
    program = out / "converter.bin"
    subprocess.run([CC, "-std=c99", "-O2", "-I", str(out), "-I", str(RUNTIME),
                    str(out / "spec.c"), str(out / "converter" / "spec_converter.c"),
                    *map(str, sorted(RUNTIME.glob("asn1h_*.c"))), "-lm", "-o", str(program)],
                   check=True, capture_output=True)
    return program


def convert(program: Path, pdu: str, data: bytes, source: str, target: str) -> bytes:
    return subprocess.run([str(program), "-p", pdu, "-i", source, "-o", target, "-"],
                          input=data, check=True, capture_output=True).stdout


def asn1c_uper(specs, pdu: str, out: Path) -> Path:
    """asn1c -gen-PER's converter-sample for `pdu` (its C name), at -O2."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["asn1c", "-gen-PER", "-fcompound-names", "-fwide-types",
                    *map(str, specs)], cwd=out, check=True, capture_output=True)
    program = out / "converter.bin"
    subprocess.run([CC, "-O2", f"-DPDU={pdu}", "-I", str(out), "-o", str(program),
                    *map(str, sorted(out.glob("*.c"))), "-lm"], check=True,
                   capture_output=True)
    return program


def pycrate_aper(specs, module: str, pdu: str, value) -> bytes:
    """pycrate's APER of `value`."""
    import importlib.util
    import tempfile
    from pycrate_asn1c.asnproc import GLOBAL, PycrateGenerator, compile_text, generate_modules
    GLOBAL.clear()
    compile_text([Path(f).read_text() for f in specs], filenames=[str(f) for f in specs])
    out = Path(tempfile.mkdtemp(prefix="pycrate-")) / "generated.py"
    generate_modules(PycrateGenerator, str(out))
    found = importlib.util.spec_from_file_location("pycrate_generated", out)
    generated = importlib.util.module_from_spec(found)
    found.loader.exec_module(generated)
    obj = getattr(getattr(generated, module.replace("-", "_")), pdu.replace("-", "_"))
    obj.set_val(value)
    return obj.to_aper()


def measure(program: Path, pdu: str, trace: Path, rules: str, count: int) -> tuple[int, int]:
    """Instructions per PDU in decoding and in encoding `trace` (in `rules`) back."""
    ber = rules == "ber"
    decode, encode = ("asn1h_decode", "asn1h_encode") if ber else \
        ("asn1h_decode_per_with", "asn1h_encode_per_with")
    counts = count_each([str(program), "-p", pdu, "-i", rules, "-o",
                         "der" if ber else rules, str(trace)], [decode, encode])
    return round(counts[decode] / count), round(counts[encode] / count)


def corpus_rows(name: str, specs, pdu: str, der_pdus: list[bytes], work: Path,
                asn1c_pdu: str = "", reference: Optional[dict] = None,
                builds: Optional[dict] = None) -> list[list]:
    """Rows of the corpus in DER, UPER and APER.  `reference`: the UPER or APER of its
    first PDU by another encoder, which ours must write too."""
    rows = []
    builds = builds or {mode: build_converter(specs, mode, work / name / mode)
                        for mode in ("interpreted", "compiled")}
    der = b"".join(der_pdus)
    for rules, expected in (reference or {}).items():
        if convert(builds["interpreted"], pdu, der_pdus[0], "ber", rules) != expected:
            raise SystemExit(f"our {rules.upper()} of {name} is not the reference encoder's")
    for rules in ("ber", "uper", "aper"):
        data = der if rules == "ber" else convert(builds["interpreted"], pdu, der, "ber", rules)
        trace = work / name / f"trace.{rules}"
        trace.write_bytes(data)
        for mode, program in builds.items():
            if mode == "compiled" and rules != "ber":
                if convert(program, pdu, der, "ber", rules) != data:
                    raise SystemExit(f"the compiled {rules.upper()} of {name} is not the "
                                     "interpreted build's")
            decode, encode = measure(program, pdu, trace, rules, len(der_pdus))
            rows.append([name, len(der_pdus), rules, mode, f"{len(data) / len(der_pdus):.1f}",
                         decode, encode])
            print(f"{name:8} {rules:5} {mode:12} {len(data) / len(der_pdus):8.1f} bytes "
                  f"{decode:8} decode {encode:8} encode", flush=True)
        if rules == "uper" and asn1c_pdu:
            program = asn1c_uper(specs, asn1c_pdu, work / name / "asn1c")
            if subprocess.run([str(program), "-iper", "-oper", str(trace)], check=True,
                              capture_output=True).stdout != data:
                raise SystemExit(f"asn1c does not write back the UPER of {name}")
            counts = count_each([str(program), "-iper", "-oper", str(trace)],
                                ["uper_decode", "uper_encode"])
            decode, encode = (round(counts[f] / len(der_pdus))
                              for f in ("uper_decode", "uper_encode"))
            rows.append([name, len(der_pdus), rules, "asn1c -gen-PER",
                         f"{len(data) / len(der_pdus):.1f}", decode, encode])
            print(f"{name:8} {rules:5} {'asn1c':12} {decode:8} decode {encode:8} encode")
    return rows


def main() -> int:
    work = corpora.build_dir() / "ber_vs_per"
    work.mkdir(parents=True, exist_ok=True)
    x400_specs = sorted((REPO / "examples" / "x400" / "spec").glob("*.asn"))
    sys.path.insert(0, str(REPO / "examples" / "x400"))
    from traffic import split_pdus
    x400 = split_pdus((REPO / "examples" / "x400" / "traces" / "trace-2000.ber").read_bytes())
    specs = corpora.shared_dir() / "specs"
    cam_specs = sorted((specs / "ETSI_ITS_CAM").glob("*.asn"))
    cam = asn1tools.compile_files([str(p) for p in cam_specs], "der").encode("CAM", CAM)
    rrc_specs = sorted((specs / "3GPP_LTE_RRC_36331_r14").glob("*.asn"))
    rrc = {codec: asn1tools.compile_files([str(p) for p in rrc_specs], codec).encode(
        "DL-DCCH-Message", {"message": RRC}) for codec in ("der", "uper")}
    rows = corpus_rows("x400", x400_specs, "MTAAbstractService.MTS-APDU", x400, work)
    rows += corpus_rows("cam", cam_specs, "CAM-PDU-Descriptions.CAM", [cam] * COPIES, work,
                        asn1c_pdu="CAM")
    rows += corpus_rows("lte-rrc", rrc_specs, "EUTRA-RRC-Definitions.DL-DCCH-Message",
                        [rrc["der"]] * COPIES, work, asn1c_pdu="DL_DCCH_Message",
                        reference={"uper": rrc["uper"]})
    # S1AP: pycrate's APER (asn1tools cannot compile S1AP for PER), our DER of it;
    # asn1c 0.9.28 cannot parse S1AP's information object sets
    s1ap_specs = sorted((specs / "3GPP_S1AP_36413_r14").glob("*.asn"))
    s1ap_pdu = "S1AP-PDU-Descriptions.S1AP-PDU"
    aper = pycrate_aper(s1ap_specs, "S1AP-PDU-Descriptions", "S1AP-PDU", S1AP)
    s1ap_builds = {mode: build_converter(s1ap_specs, mode, work / "s1ap" / mode)
                   for mode in ("interpreted", "compiled")}
    s1ap = convert(s1ap_builds["interpreted"], s1ap_pdu, aper, "aper", "der")
    rows += corpus_rows("s1ap", s1ap_specs, s1ap_pdu, [s1ap] * COPIES, work,
                        reference={"aper": aper}, builds=s1ap_builds)
    with CSV.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    print(f"written: {CSV.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
