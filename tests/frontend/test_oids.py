"""oids.py: arc names of X.660 and module identifiers."""
from __future__ import annotations

import pytest

from asn1c_hybrid.frontend.astbuilder import AstBuilder
from asn1c_hybrid.frontend.oids import definitive_oid, well_known_arc
from asn1c_hybrid.frontend.parsing import parse_text


def module_oid(oid: str):
    tree, tokens, problem = parse_text(f"M {oid} DEFINITIONS ::= BEGIN END")
    return definitive_oid(AstBuilder(tokens).modules(tree)[0].oid)


@pytest.mark.parametrize("text, dotted", [
    ("{ iso(1) identified-organization(3) dod(6) internet(1) 5 }", "1.3.6.1.5"),
    ("{ joint-iso-itu-t ds(5) module(1) 3 }", "2.5.1.3"),
    ("{ iso member-body 840 }", "1.2.840"),
    ("{ itu-t recommendation x 411 }", "0.0.24.411"),
    ("{ 1 2 3 }", "1.2.3"),
    ("{ some-value 3 }", None),                 # value references need analysis
])
def test_module_identifiers(text, dotted):
    assert module_oid(text) == dotted


def test_arc_names_depend_on_their_place():
    assert well_known_arc([], "iso") == 1
    assert well_known_arc([1], "member-body") == 2
    assert well_known_arc([2], "mhs") == 6
    assert well_known_arc([1, 2], "member-body") is None
    assert well_known_arc([], "member-body") is None
