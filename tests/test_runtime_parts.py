"""The runtime's cold parts are linked only by the specs that need them.

The tables reach each part through the spec's `asn1h_codecs` (docs/runtime.md), so a
program linked with --gc-sections (as docs/benchmarks.md measures code) keeps only the
parts its types use: SET contents, times, REAL, unknown extensions, values kept as received
(an ANY), open types resolved through their tables.  Each spec below needs some of them,
or none; its converter keeps exactly those, and still round-trips a value.
"""
from __future__ import annotations

import subprocess

import pytest

import cbuild

FLAGS = ("-O1", "-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections")
PARTS = {"set": "asn1h_dec_set", "time": "asn1h_dec_time", "real": "asn1h_dec_real",
         "extensions": "asn1h_take_unknown", "received": "asn1h_put_received",
         "open types": "asn1h_resolve_open_types"}
TABLE = """ALG ::= CLASS { &id INTEGER UNIQUE, &Type } WITH SYNTAX { ID &id TYPE &Type }
Algs ALG ::= { { ID 1 TYPE INTEGER } | { ID 2 TYPE BOOLEAN } }
"""
# (the type's body, the parts it needs, a DER value of it)
SPECS = {
    "plain": ("SEQUENCE { a INTEGER, b OCTET STRING }", set(), "3006020105040161"),
    "set": ("SET { a [0] INTEGER, b [1] BOOLEAN }", {"set"}, "3106800105810100"),
    "time": ("SEQUENCE { t UTCTime }", {"time"}, "300f170d3236313132363136303030305a"),
    "real": ("SEQUENCE { r REAL }", {"real"}, "3005090380fb05"),
    "extensions": ("SEQUENCE { a INTEGER, ... }", {"extensions", "received"}, "3003020105"),
    # an ANY without a table is written back as received, never resolved
    "any": ("SEQUENCE { id INTEGER, value ANY DEFINED BY id }", {"received"},
            "3006020101020105"),
    "open types": ("SEQUENCE { id ALG.&id ({Algs}), value ALG.&Type ({Algs}{@id}) }\n"
                   + TABLE, {"received", "open types"}, "3006020101020105"),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_program_links_the_parts_its_types_need(tmp_path, name):
    body, parts, der = SPECS[name]
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted", "--encoding", "ber")
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    symbols = {line.split()[-1] for line in subprocess.run(
        ["nm", str(program.program)], capture_output=True, text=True,
        check=True).stdout.splitlines()}
    assert {p for p, symbol in PARTS.items() if symbol in symbols} == parts
    data = bytes.fromhex(der)
    assert program.run("-p", "Parts.T", "-o", "der", "-", input=data).stdout == data


BER_MAIN = r"""
#include "spec.h"
int main(void)
{
    static const uint8_t der[] = { 0x30, 0x03, 0x02, 0x01, 0x05 };
    static uint8_t memory[4096], out[64];
    T value;
    asn1h_arena arena;
    asn1h_error err;
    size_t len;
    asn1h_arena_init(&arena, memory, sizeof memory, 0);
    (void)asn1h_decode(&T_type, &value, der, sizeof der, &arena, NULL, NULL, &err);
    return (int)asn1h_encode(&T_type, &value, out, sizeof out, &len, &err);
}
"""


@pytest.mark.parametrize("body, sorts", [("SEQUENCE OF INTEGER (0..7)", False),
                                         ("SET OF INTEGER (0..7)", True)])
def test_canonical_per_is_per_code_that_a_ber_program_does_not_link(tmp_path, body, sorts):
    """--canonical (ASN1H_PER_CANONICAL) sorts a SET OF (elements 5, 1, 3 as 1, 3, 5: a
    count of 3, then 001 011 101) and leaves a SEQUENCE OF as it is.  The sorting is the
    PER encoder's own, not a part of asn1h_codecs, which every program links: a BER
    program of the same build (every rule) links no PER code."""
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted")
    converter = cbuild.build_program(out, "spec", flags=FLAGS)
    given = bytes.fromhex("03" "a580")      # 3 elements: 101 001 011 (and padding)
    written = converter.run("-p", "Parts.T", "-i", "uper", "-o", "uper", "--canonical", "-",
                            input=given).stdout
    assert written == (bytes.fromhex("03" "2e80") if sorts else given)
    main = tmp_path / "ber_main.c"
    main.write_text(BER_MAIN)
    ber = cbuild.build_program(out, "spec", main, flags=FLAGS, program="ber")
    symbols = subprocess.run(["nm", str(ber.program)], capture_output=True, text=True,
                             check=True).stdout
    assert "asn1h_encode" in symbols
    assert "_per" not in symbols.replace("asn1h_kept_in_per", "")
