"""`compile --encoding`: a build carries the encoding rules it is asked for, and only those.

X.691 A.4's example (tests/specs/x691/A4.asn: PER-visible constraints and extension
groups) is built with every rule, with BER only and with UPER only:
  - BER-only tables hold no PER-visible constraint and no group list, and are smaller;
  - each converter refuses the rules its build lacks, and links no codec it does not call
    (linked with --gc-sections, as docs/benchmarks.md measures code);
  - the UPER-only build still decodes and re-encodes the encoding X.691 publishes;
  - a compiled build without BER gives its compiled types PER routines alone: no BER
    routine is generated, the PER program links none of BER's codec, and a program that
    calls BER on that spec anyway gets the tables' walk;
  - fast paths and kept encodings are BER's: a build without BER refuses them;
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


BER_DECODE_MAIN = r"""
#include <stdio.h>
#include "spec.h"
int main(void)
{
    /* { a 253, b TRUE, c d: 5 } */
    static const uint8_t der[] = {0x30, 0x0C, 0x80, 0x02, 0x00, 0xFD, 0x81, 0x01, 0xFF,
                                  0xA2, 0x03, 0x80, 0x01, 0x05};
    static uint8_t memory[4096];
    char message[128];
    Ax value;
    asn1h_arena arena;
    asn1h_error err;
    asn1h_arena_init(&arena, memory, sizeof memory, 0);
    asn1h_decode(&Ax_type, &value, der, sizeof der, &arena, NULL, NULL, &err);
    asn1h_error_format(&err, message, sizeof message);
    printf("%s at %u\n", message, (unsigned)err.offset);
    return 0;
}
"""


def test_a_compiled_build_without_ber_has_per_routines_alone(tmp_path):
    out, program, symbols = build(tmp_path, "--mode", "compiled", "--encoding", "uper")
    source = (out / "spec.c").read_text()
    assert "static int Ax_decode_per(" in source and "static int Ax_c_encode_per(" in source
    # no BER routine, no BER routine table, no type flagged as having BER routines
    assert "asn1h_dec *d" not in source and "asn1h_routines" not in source
    assert "ASN1H_T_COMPILED" not in source
    assert {"Ax_decode_per", "Ax_encode_per", "asn1h_decode_per_with"} <= symbols
    assert not {"asn1h_decode", "asn1h_encode", "asn1h_interpret_contents", "asn1h_take_unknown",
                "asn1h_encode_with_unknown"} & symbols
    # the compiled PER routines give X.691's published encoding back, as the tables do
    assert program.run("-p", "Ax", "-", input=PUBLISHED_UPER).stdout == PUBLISHED_UPER
    assert program.run("-p", "Ax", "-o", "jer", "-", input=PUBLISHED_UPER).stdout == \
        b'{"a":253,"b":true,"c":{"e":true},"g":"123","h":true}\n'

    # BER called on this spec anyway has the tables' walk, without BER's optional parts
    # (here: the extensions), which the build left out: a clean error
    main = tmp_path / "ber_main.c"
    main.write_text(BER_DECODE_MAIN)
    ber = cbuild.build_program(out, "spec", main, program="ber")
    assert ber.run().stdout == b"X691-A4.Ax: malformed contents at 14\n"


@pytest.mark.parametrize("options", [["--keep-encoding", "X691-A4.Ax"],
                                     ["--layouts", "2", "--pdu", "X691-A4.Ax",
                                      "--profile", "none.json"]])
def test_ber_only_features_need_ber(tmp_path, options):
    result = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", str(SPEC),
                             "-o", str(tmp_path), "--mode", "compiled", "--encoding",
                             "uper,aper", *options], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr == ("asn1c-hybrid: error: --encoding uper,aper: layout fast paths "
                             "and kept encodings are BER's, so they need ber among the "
                             "rules\n")
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


def test_explain_weighs_the_routines_of_the_rules_it_is_given():
    """`explain --encoding uper`: the costs are the PER routines' bytes, which differ from
    the BER ones' that a build with BER weighs; BER's fast paths are refused."""
    def costs(*options):
        result = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "explain", str(SPEC),
                                 "--format", "csv", *options], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        rows = [line.split(",") for line in result.stdout.splitlines()]
        column = rows[0].index("cost_bytes")
        return {row[0]: int(row[column]) for row in rows[1:]}
    ber, uper = costs(), costs("--encoding", "uper")
    assert set(ber) == set(uper) == {"X691-A4.Ax", "X691-A4.Ax.c"}
    assert all(uper[t] > 0 and uper[t] != ber[t] for t in uper)
    refused = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "explain", str(SPEC),
                              "--encoding", "uper", "--layouts", "auto", "--pdu",
                              "X691-A4.Ax", "--profile", "none.json"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "layout fast paths are BER's" in refused.stderr
