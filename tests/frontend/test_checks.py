"""checks.py: distinct tags in SET, CHOICE and SEQUENCE (X.680 25-29), infinite types."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("body", [
    "T ::= SET { a INTEGER, b CHOICE { c INTEGER } }",                       # asn1c 27
    "T ::= CHOICE { a INTEGER, b C }  C ::= CHOICE { x BOOLEAN, y INTEGER }",  # asn1c 36
    "T ::= SEQUENCE { a INTEGER OPTIONAL, b INTEGER }",                       # asn1c 26
    "T ::= SEQUENCE { a INTEGER OPTIONAL, any ANY }",                         # asn1c 61
    "T ::= SET { a INTEGER, b ANY }",
    "T ::= SET { a CHOICE { x IA5String, ... }, b CHOICE { y BOOLEAN, ... } }",  # asn1c 28
    "T ::= SEQUENCE { a [0] INTEGER OPTIONAL, b [1] BOOLEAN OPTIONAL, c [0] NULL }",
])
def test_tag_clashes_are_errors(spec, body):
    errors = spec.errors(f"M DEFINITIONS IMPLICIT TAGS ::= BEGIN {body} END")
    assert errors and all("can have the same tag" in e for e in errors), errors


@pytest.mark.parametrize("body", [
    "T ::= SEQUENCE { a INTEGER, b INTEGER }",
    "T ::= SEQUENCE { a INTEGER, any ANY }",                                 # asn1c 60
    "T ::= SEQUENCE { a [0] INTEGER OPTIONAL, b [1] INTEGER }",
    "T ::= SET { a INTEGER, b CHOICE { c IA5String, ... } }",
    "T ::= CHOICE { a [1] C, b [2] C }  C ::= CHOICE { x INTEGER }",
    "T ::= SET { a [0] INTEGER, b [APPLICATION 0] INTEGER, c [PRIVATE 0] INTEGER }",
])
def test_distinct_tags_are_fine(spec, body):
    graph = spec.load(f"M DEFINITIONS IMPLICIT TAGS ::= BEGIN {body} END")
    assert not graph.diagnostics.errors


def test_automatic_tags_make_the_same_lists_valid(spec):
    """asn1c tests 29 and 41: the SE modules become OK under AUTOMATIC TAGS."""
    graph = spec.load("""
        M DEFINITIONS AUTOMATIC TAGS ::= BEGIN
        S ::= SET { a INTEGER, b CHOICE { c IA5String, ... }, d CHOICE { e BOOLEAN, ... } }
        Q ::= SEQUENCE { s UTF8String, a INTEGER OPTIONAL, b INTEGER OPTIONAL }
        END""")
    assert not graph.diagnostics.items


def test_the_message_names_both_members(spec):
    [error] = spec.errors("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { first INTEGER OPTIONAL, second INTEGER }
        END""")
    assert error == ("in SEQUENCE M.T: component 'second' and 'first' can have the same "
                     "tag [UNIVERSAL 2] (they follow each other and one may be absent)")


def test_extension_additions_only_warn(spec):
    """asn1c test 55 accepts this; a BER decoder may be misled, hence a warning."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a INTEGER, ..., b INTEGER, ..., c INTEGER }
        END""")
    [warning] = graph.diagnostics.items
    assert warning.severity == "warning" and "'c' and 'b'" in warning.message


def test_types_without_finite_values_are_warned_about(spec):
    """asn1c test 92 (OK): OneTwo, TwoThree and ThreeOne contain each other."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        OneTwo ::= SET { m12 TwoThree }
        TwoThree ::= SET { m23 ThreeOne }
        ThreeOne ::= SET { m31 OneTwo }
        Fine ::= SEQUENCE { next Fine OPTIONAL }
        AlsoFine ::= CHOICE { stop NULL, more [0] AlsoFine }
        END""")
    warned = sorted(d.message.split()[0] for d in graph.diagnostics.items)
    assert warned == ["M.OneTwo", "M.ThreeOne", "M.TwoThree"]
    assert all(d.severity == "warning" for d in graph.diagnostics.items)
