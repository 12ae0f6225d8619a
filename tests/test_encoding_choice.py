"""`compile --encoding`: a build carries the encoding rules it is asked for, and only those.

X.691 A.4's example (tests/specs/x691/A4.asn: PER-visible constraints and extension
groups) is built with every rule, with BER only and with UPER only:
  - BER-only tables hold no PER-visible constraint and no group list, and are smaller;
  - each converter refuses the rules its build lacks, and links no codec it does not call
    (linked with --gc-sections, as docs/benchmarks.md measures code);
  - the UPER-only build still decodes and re-encodes the encoding X.691 publishes;
  - a compiled type always has BER routines, so a build without BER must be interpreted;
  - a compiled type's PER routines are linked only into a program that calls the spec's
    own PER entry points (`<spec>_decode_per`): a BER program links no PER code.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import cbuild

SPEC = Path(__file__).resolve().parent / "specs" / "x691" / "A4.asn"
PUBLISHED_UPER = bytes.fromhex("9e000600040a4690")        # X.691 A.4.2
FLAGS = ("-O1", "-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections")


def build(tmp_path: Path, *options: str):
    out = tmp_path / "-".join(o.replace(",", "+") for o in options if o != "--encoding")
    cbuild.generate([SPEC], out, "--name", "spec", "--converter", "--mode", "interpreted",
                    *options)
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    symbols = subprocess.run(["nm", str(program.program)], capture_output=True, text=True,
                             check=True).stdout
    return out, program, {line.split()[-1] for line in symbols.splitlines()}


def test_each_build_carries_the_rules_it_is_asked_for(tmp_path):
    every, every_program, every_symbols = build(tmp_path)
    ber, ber_program, ber_symbols = build(tmp_path, "--encoding", "ber")
    uper, uper_program, uper_symbols = build(tmp_path, "--encoding", "uper")

    every_tables, ber_tables = (d / "spec.c" for d in (every, ber))
    assert "ASN1H_PER_" in every_tables.read_text()
    assert "ASN1H_PER_" not in ber_tables.read_text()
    sizes = {}
    for name, directory in (("every", every), ("ber", ber)):
        obj = directory / "spec.o"
        cbuild.run(["gcc", "-std=c99", "-O2", "-I", cbuild.RUNTIME, "-c",
                    directory / "spec.c", "-o", obj])
        sizes[name] = int(subprocess.run(["size", str(obj)], capture_output=True, text=True,
                                         check=True).stdout.splitlines()[1].split()[3])
    assert sizes["ber"] < sizes["every"]

    assert {"asn1h_decode", "asn1h_decode_per_with", "asn1h_encode_per_with"} <= every_symbols
    assert "asn1h_decode" in ber_symbols and "asn1h_decode_per_with" not in ber_symbols
    assert "asn1h_decode_per_with" in uper_symbols and "asn1h_decode" not in uper_symbols

    refused = ber_program.run("-p", "Ax", "-i", "uper", "-", input=PUBLISHED_UPER,
                              check=False)
    assert refused.returncode == 2 and b"[-i ber]" in refused.stderr
    refused = uper_program.run("-p", "Ax", "-i", "ber", "-", input=PUBLISHED_UPER,
                               check=False)
    assert refused.returncode == 2 and b"[-i uper]" in refused.stderr
    # uper is this build's default input and output
    assert uper_program.run("-p", "Ax", "-", input=PUBLISHED_UPER).stdout == PUBLISHED_UPER
    assert uper_program.run("-p", "Ax", "-o", "jer", "-", input=PUBLISHED_UPER).stdout == \
        b'{"a":253,"b":true,"c":{"e":true},"g":"123","h":true}\n'


@pytest.mark.parametrize("mode", ["hybrid", "compiled"])
def test_compiled_routines_need_ber(tmp_path, mode):
    result = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", str(SPEC),
                             "-o", str(tmp_path), "--mode", mode, "--encoding", "uper,aper"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr == ("asn1c-hybrid: error: --encoding uper,aper: compiled types "
                             "always have BER routines, so a build without ber is --mode "
                             "interpreted\n")
    assert not list(tmp_path.iterdir())


BER_ONLY_MAIN = r"""
#include "spec.h"
int main(void)
{
    static const uint8_t der[] = {0x30, 0x03, 0x80, 0x01, 0x05};
    static uint8_t memory[4096], value[256], out[64];
    asn1h_arena arena;
    asn1h_error err;
    size_t len;
    asn1h_arena_init(&arena, memory, sizeof memory, 0);
    (void)asn1h_decode(&Ax_type, value, der, sizeof der, &arena, NULL, NULL, &err);
    return (int)asn1h_encode(&Ax_type, value, out, sizeof out, &len, &err);
}
"""


def test_a_ber_program_links_no_per_code(tmp_path):
    """Compiled, with every rule (the default): the spec's compiled types have PER
    routines, which a program that calls the spec's PER entry points links, and a program
    that calls BER alone does not, nor any of the PER codec."""
    out = tmp_path / "compiled"
    cbuild.generate([SPEC], out, "--name", "spec", "--converter", "--mode", "compiled")
    assert "static int Ax_decode_per(" in (out / "spec.c").read_text()
    main = tmp_path / "ber_main.c"
    main.write_text(BER_ONLY_MAIN)
    programs = {"ber": cbuild.build_program(out, "spec", main, flags=FLAGS, program="ber"),
                "converter": cbuild.build_program(out, "spec", flags=FLAGS)}
    symbols = {name: subprocess.run(["nm", str(p.program)], capture_output=True, text=True,
                                    check=True).stdout for name, p in programs.items()}
    assert "Ax_decode_per" in symbols["converter"] and "asn1h_per_bits" in symbols["converter"]
    assert "_per" not in symbols["ber"].replace("asn1h_kept_in_per", "")
