"""The compiler under random mutations of its input (fuzz/mutate_specs.py; `make fuzz-specs`
runs many more): every mutated specification is refused with errors, never an internal
error, or compiles to C that gcc (and clang, where installed) builds warning-free.  The mutations that first found the
compiler's limits (a tag number, an ENUMERATED number and a SIZE past what the runtime
keeps) are replayed here through the same check."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "fuzz"))
import mutate_specs  # noqa: E402

SPECS = REPO / "tests" / "specs"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")

# (a spec, each found by a mutation: it reached the C compiler as a constant too large
# for its type)
FOUND = {
    "tag number": "T ::= SEQUENCE { a [99999999999999999999] INTEGER }",
    "enumerated number": "E ::= ENUMERATED { a(1), b(9223372036854775808) }",
    "size": "L ::= SEQUENCE SIZE (99999999999999999999..MAX) OF INTEGER",
}


@needs_gcc
@pytest.mark.parametrize("name", sorted(FOUND))
def test_what_mutations_found_is_refused_with_an_error(tmp_path, name):
    (tmp_path / "m.asn").write_text(f"M DEFINITIONS ::= BEGIN\n{FOUND[name]}\nEND\n")
    wrote, problem = mutate_specs.check_one(tmp_path, "compiled", "ber,uper")
    assert (wrote, problem) == (False, None)


@needs_gcc
@pytest.mark.parametrize("spec, mode, encodings", [
    (SPECS / "AllKinds.asn", "compiled", "ber,uper"),
    (SPECS / "per", "interpreted", "uper,aper"),
])
def test_mutated_specifications_are_refused_or_compile(tmp_path, spec, mode, encodings):
    outcome = mutate_specs.run([str(spec)], 60, seed=11, mode=mode, encodings=encodings,
                               keep=tmp_path)
    assert not outcome.findings, "\n".join(f"{f.mutation}: {f.what}" for f in outcome.findings)
    assert outcome.compiled >= 5    # the mutations do reach the C compiler


@needs_gcc
def test_mutated_specifications_that_compile_also_round_trip(tmp_path):
    # the converters of each mutation that compiles, compiled and interpreted, write back
    # the DER of values that the tests' own generator and encoder make
    outcome = mutate_specs.run([str(SPECS / "Extras.asn")], 6, seed=7, mode="interpreted",
                               keep=tmp_path, values=2)
    assert not outcome.findings, "\n".join(f"{f.mutation}: {f.what}" for f in outcome.findings)
    assert outcome.round_tripped >= 3
