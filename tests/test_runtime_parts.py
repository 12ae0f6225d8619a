"""The runtime's cold parts are linked only by the specs that need them.

The tables reach each part through the spec's `asn1h_codecs` (docs/runtime.md), so a
program linked with --gc-sections (as docs/benchmarks.md measures code) keeps only the
parts its types use: SET contents, times, REAL, unknown extensions.  Each spec below needs
one of them, or none; its converter keeps exactly that one, and still round-trips a value.
"""
from __future__ import annotations

import subprocess

import pytest

import cbuild

FLAGS = ("-O1", "-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections")
PARTS = {"set": "asn1h_dec_set", "time": "asn1h_dec_time", "real": "asn1h_dec_real",
         "extensions": "asn1h_take_unknown"}
# (the type's body, the part it needs, a DER value of it)
SPECS = {
    "plain": ("SEQUENCE { a INTEGER, b OCTET STRING }", None, "3006020105040161"),
    "set": ("SET { a [0] INTEGER, b [1] BOOLEAN }", "set", "3106800105810100"),
    "time": ("SEQUENCE { t UTCTime }", "time", "300f170d3236313132363136303030305a"),
    "real": ("SEQUENCE { r REAL }", "real", "3005090380fb05"),
    "extensions": ("SEQUENCE { a INTEGER, ... }", "extensions", "3003020105"),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_program_links_the_parts_its_types_need(tmp_path, name):
    body, part, der = SPECS[name]
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted", "--encoding", "ber")
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    symbols = {line.split()[-1] for line in subprocess.run(
        ["nm", str(program.program)], capture_output=True, text=True,
        check=True).stdout.splitlines()}
    assert {p for p, symbol in PARTS.items() if symbol in symbols} == ({part} - {None})
    data = bytes.fromhex(der)
    assert program.run("-p", "Parts.T", "-o", "der", "-", input=data).stdout == data


@pytest.mark.parametrize("body, sorts", [("SEQUENCE OF INTEGER (0..7)", False),
                                         ("SET OF INTEGER (0..7)", True)])
def test_a_per_program_links_canonical_sorting_only_for_set_of(tmp_path, body, sorts):
    """CANONICAL-PER's SET OF order (asn1h_per_sorted) is a part of its own: a PER program
    of a spec without SET OF does not link it; one with a SET OF does, and sorts with
    --canonical (elements 5, 1, 3 as 1, 3, 5: a count of 3, then 001 011 101)."""
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted", "--encoding", "uper")
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    symbols = subprocess.run(["nm", str(program.program)], capture_output=True, text=True,
                             check=True).stdout
    assert ("asn1h_per_sorted" in symbols) == sorts
    given = bytes.fromhex("03" "a580")      # 3 elements: 101 001 011 (and padding)
    written = program.run("-p", "Parts.T", "-i", "uper", "-o", "uper", "--canonical", "-",
                          input=given).stdout
    assert written == (bytes.fromhex("03" "2e80") if sorts else given)
