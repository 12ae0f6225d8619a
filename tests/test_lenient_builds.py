"""Real-world specifications end to end, the sample of `make coverage` that CI runs: a
module set that only lenient mode accepts (Wireshark's X.411 P1 modules, which import from
modules Wireshark does not carry) and two strict ones compile in both modes, build with
-Werror under ASan/UBSan, and round-trip the DER of hypothesis-made values of every
PDU-like type (tests/smoke.py; the DER comes from the tests' own encoder, derencode.py).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

import cbuild
import smoke
from asn1c_hybrid import api
from asn1c_hybrid.diagnostics import CompileError
from specbuilds import SHARED

SETS = {
    "x411-lenient": ("ITUT_X411_P1_wireshark", ("--lenient",)),
    "ldap": ("IETF_LDAP_RFC4511", ()),
    "snmp": ("IETF_SNMP", ()),
}
VALUES = 8


def test_the_x411_set_needs_lenient_mode():
    spec = [str(SHARED / "specs" / "ITUT_X411_P1_wireshark")]
    with pytest.raises(CompileError) as refused:
        api.load(spec)
    assert all("or accept it with --lenient" in d.format()
               for d in refused.value.diagnostics if d.severity == "error")
    graph = api.load(spec, lenient=True)
    assert "MTAAbstractService.MTABindArgument" in graph.nodes


def test_check_lenient_prints_the_tolerated_defects(tmp_path):
    spec = str(SHARED / "specs" / "ITUT_X411_P1_wireshark")
    strict = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "check", spec],
                            capture_output=True, text=True)
    lenient = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "check", "--lenient", spec],
                             capture_output=True, text=True)
    assert strict.returncode == 1 and lenient.returncode == 0
    assert "is imported but not found among the inputs (X.680 13); give the file that " \
           "defines it, or accept it with --lenient" in strict.stderr
    assert "warning: module 'Remote-Operations-Information-Objects' is imported but not " \
           "found among the inputs (X.680 13); a name imported from it" in lenient.stderr
    assert "Traceback" not in strict.stderr + lenient.stderr


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_pdu_like_type_round_trips_in_both_modes(name):
    folder, options = SETS[name]
    spec = [SHARED / "specs" / folder]
    builds = [cbuild.converter(spec, "--mode", mode, *options).program
              for mode in ("interpreted", "compiled")]
    graph = api.load([str(p) for p in spec], lenient=bool(options))
    types = smoke.pdu_like(graph)
    assert types
    for type_id in types:
        messages = smoke.sample(graph, type_id, VALUES)
        assert messages
        for build in builds:
            assert smoke.round_trip(build, type_id, messages) is None


CLASHING = """Clash DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Pick ::= CHOICE { plain SEQUENCE { a INTEGER }, signed SEQUENCE { b BOOLEAN } }
END
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_clashing_tags_take_the_first_member_in_both_modes(tmp_path, mode):
    # AUTOMATIC TAGS do not reach inside the alternatives' own SEQUENCEs: both are
    # [UNIVERSAL 16].  With --lenient the first alternative takes the tag, as Wireshark's
    # X.500 modules need (their OPTIONALLY-PROTECTED expansions).
    spec = tmp_path / "clash.asn"
    spec.write_text(CLASHING.replace("AUTOMATIC TAGS", "EXPLICIT TAGS"))
    build = cbuild.converter([spec], "--mode", mode, "--lenient").program
    plain = bytes.fromhex("3003020107")
    result = subprocess.run([str(build), "-p", "Clash.Pick", "-o", "jer", "-"], input=plain,
                            capture_output=True)
    assert result.returncode == 0, result.stderr
    assert b'"plain"' in result.stdout
    assert smoke.round_trip(build, "Clash.Pick", [plain]) is None


AMBIGUOUS = """Amb DEFINITIONS EXPLICIT TAGS ::= BEGIN
Set ::= SET { a [0] INTEGER, b [1] INTEGER OPTIONAL, c [1] BOOLEAN OPTIONAL }
Seq ::= SEQUENCE { x [0] INTEGER OPTIONAL, y [0] INTEGER, z [2] INTEGER }
Both ::= SET { p [3] INTEGER, q [3] BOOLEAN }
Holder ::= SEQUENCE { s Set, opt Both OPTIONAL, seq Seq OPTIONAL, n [5] INTEGER }
Open ::= SET { k [6] INTEGER, v ABSTRACT-SYNTAX.&Type }
END
"""


def test_the_smoke_test_leaves_out_what_a_decoder_cannot_tell_apart(tmp_path):
    # Clashing tags accepted by --lenient (X.680 25, 27, and an untagged open type in a
    # SET, which can have any tag): the smoke round trip must not draw those components,
    # and must skip a type whose every value holds them.
    spec = tmp_path / "amb.asn"
    spec.write_text(AMBIGUOUS)
    graph = api.load([str(spec)], lenient=True)
    assert smoke.ambiguous_components(graph) == {
        "Amb.Set": {"b", "c"}, "Amb.Seq": {"x", "y"}, "Amb.Both": {"p", "q"},
        "Amb.Holder": {"opt", "seq"}, "Amb.Open": {"k", "v"},
        smoke.UNMAKEABLE: {"Amb.Both", "Amb.Seq", "Amb.Open"}}
    with pytest.raises(ValueError, match="cannot tell apart"):
        smoke.sample(graph, "Amb.Both", 1)
    messages = smoke.sample(graph, "Amb.Holder", VALUES)
    for mode in ("compiled", "interpreted"):
        build = cbuild.converter([spec], "--mode", mode, "--lenient").program
        assert smoke.round_trip(build, "Amb.Holder", messages) is None
