"""constraints.py: effective constraints (X.680 49-51), as far as they choose a C type
or can be checked; expected results follow X.680's set arithmetic, and the comments of
asn1c's test 50 where they state them."""
from __future__ import annotations

import pytest

from asn1c_hybrid.frontend.constraints import IntervalSet, Projection
from asn1c_hybrid.typegraph import Range


# ------------------------------------------------------------------ interval sets

def test_interval_set_arithmetic():
    a = IntervalSet([(1, 5), (10, 20)])
    b = IntervalSet([(4, 12)])
    assert a.union(b).ranges == [(1, 20)]
    assert a.intersect(b).ranges == [(4, 5), (10, 12)]
    assert a.difference(b).ranges == [(1, 3), (13, 20)]
    assert IntervalSet([(1, 2), (3, 4)]).ranges == [(1, 4)]        # adjacent integers merge
    full = IntervalSet.full()
    assert full.difference(IntervalSet.point(0)).ranges == [(None, -1), (1, None)]
    assert full.intersect(IntervalSet([(0, None)])).hull() == (0, None)
    assert IntervalSet([(5, 1)]).empty
    assert a.contains(15) and not a.contains(7)


def test_projection_union_is_unconstrained_when_either_side_is():
    sized = Projection(sizes=IntervalSet.point(4))
    lettered = Projection(alphabet=frozenset("AB"))
    union = sized.union(lettered)
    assert union.sizes is None and union.alphabet is None
    both = sized.intersect(lettered)
    assert both.sizes == IntervalSet.point(4) and both.alphabet == frozenset("AB")


# -------------------------------------------------------------- effective ranges

def constraint_of(spec, assignments, name):
    graph = spec.load(f"M DEFINITIONS ::= BEGIN\n{assignments}\nEND")
    return graph[f"M.{name}"].constraints


@pytest.mark.parametrize("constraint, expected", [
    ("(0..255)", Range(0, 255)),
    ("(-128..127)", Range(-128, 127)),
    ("(1..MAX)", Range(1, None)),
    ("(MIN..0)", Range(None, 0)),
    ("(0<..<10)", Range(1, 9)),
    ("(1 | 5 | 3)", Range(1, 5)),
    ("(0..10 ^ 5..20)", Range(5, 10)),
    ("((0..10) EXCEPT (0..4))", Range(5, 10)),
    ("(0..255, ...)", Range(0, 255, extensible=True)),
    ("(0..7, ..., 8..15)", Range(0, 7, extensible=True)),
    ("(0..4294967295)", Range(0, 4294967295)),
    ("(ALL EXCEPT 0)", Range(None, None)),
])
def test_integer_ranges(spec, constraint, expected):
    assert constraint_of(spec, f"T ::= INTEGER {constraint}", "T").value == expected


def test_serial_constraints_and_min_max_of_the_parent(spec):
    """asn1c test 50: Int3 ::= Int2 (MIN..ten) means (0..10)."""
    text = """
        Int1 ::= INTEGER
        Int2 ::= Int1 (0..MAX)
        Int3 ::= Int2 (MIN..ten)
        Int4 ::= Int3 (5..MAX, ..., 1..4)
        ten Int1 ::= 10
        Both ::= INTEGER (0..100) (50..MAX)"""
    graph = spec.load(f"M DEFINITIONS ::= BEGIN\n{text}\nEND")
    assert graph["M.Int2"].constraints.value == Range(0, None)
    assert graph["M.Int3"].constraints.value == Range(0, 10)
    assert graph["M.Int4"].constraints.value == Range(5, 10, extensible=True)
    assert graph["M.Both"].constraints.value == Range(50, 100)
    assert graph["M.Int3"].constraints.text == "( 0 .. MAX ) ( MIN .. ten )"


def test_a_serial_range_outside_the_parent_is_an_error(spec):
    """asn1c test 53."""
    errors = spec.errors("M DEFINITIONS ::= BEGIN Int ::= INTEGER (1..32) (MIN..63) END")
    assert errors == ["the constraint ( MIN .. 63 ) allows 33 outside the parent type's "
                      "range 1..32"]


def test_sizes(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        S1 ::= IA5String (SIZE (1..64))
        S2 ::= S1 (SIZE (MIN..20 | 25..30))
        S3 ::= OCTET STRING (SIZE (4))
        S4 ::= SEQUENCE SIZE (1..MAX) OF INTEGER
        S5 ::= BIT STRING (SIZE (0..8, ...))
        S6 ::= IA5String ("ABCD" | SIZE (4))
        S7 ::= IA5String (SIZE (1..5) ^ FROM ("A".."Z"))
        END""")
    assert graph["M.S1"].constraints.size == Range(1, 64)
    assert graph["M.S2"].constraints.size == Range(1, 30)
    assert graph["M.S3"].constraints.size == Range(4, 4)
    assert graph["M.S4"].constraints.size == Range(1, None)
    assert graph["M.S5"].constraints.size == Range(0, 8, extensible=True)
    assert graph["M.S6"].constraints.size == Range(4, 4)
    assert graph["M.S7"].constraints.size == Range(1, 5)
    assert graph["M.S7"].constraints.alphabet == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def test_permitted_alphabets(spec):
    """asn1c test 50: PER-Visible-2 ::= PER-Visible (FROM("E".."F")) means FROM("EF")."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        PER-Visible ::= IA5String (FROM ("A".."F"))
        PER-Visible-2 ::= PER-Visible (FROM ("E".."F"))
        Digits ::= NumericString (FROM (" ".."9"))
        Some ::= IA5String (FROM ("abc" | "x"))
        END""")
    assert graph["M.PER-Visible"].constraints.alphabet == "ABCDEF"
    assert graph["M.PER-Visible-2"].constraints.alphabet == "EF"
    assert graph["M.Digits"].constraints.alphabet == " 0123456789"
    assert graph["M.Some"].constraints.alphabet == "abcx"


@pytest.mark.parametrize("assignment, message", [
    ("T ::= INTEGER (FROM (\"abc\"))", "a permitted alphabet (FROM) is not applicable to INTEGER"),
    ("T ::= INTEGER (SIZE (0..4))", "a SIZE constraint is not applicable to INTEGER"),
    ("T ::= BOOLEAN (1..2)", "a value range is not applicable to BOOLEAN"),
    ("T ::= NumericString (FROM (\"0\"..\"9\" | \"#\"))", "'#' is not a character of NumericString"),
    ("T ::= SEQUENCE { a INTEGER } (WITH COMPONENTS { b PRESENT })",
     "WITH COMPONENTS names 'b'"),
    ("T ::= INTEGER (PATTERN \"x\")", "PATTERN is not applicable to INTEGER"),
    ("T ::= INTEGER (CONTAINING BOOLEAN)", "CONTAINING applies to OCTET STRING and BIT STRING"),
    ("T ::= OCTET STRING (SIZE (-1..2))", "a size cannot be negative"),
    ("T ::= OCTET STRING (SIZE (-1))", "a size cannot be negative"),
    # sizes the runtime's int64_t cannot count (they reached the C as constants too large
    # for their type); an upper bound beyond them is no bound, as MAX
    ("T ::= SEQUENCE SIZE (99999999999999999999..MAX) OF INTEGER",
     "a size of 99999999999999999999 is more than this compiler's runtime counts "
     "(9223372036854775807 at most)"),
    ("T ::= OCTET STRING (SIZE (9223372036854775808))", "a size of 9223372036854775808 is more"),
    ("T ::= INTEGER (10..1)", "this value range is empty"),
    ("T ::= INTEGER (10<..<11)", "this value range is empty"),
    ("T ::= OCTET STRING (SIZE (4..2))", "this size range is empty"),
])
def test_constraints_that_do_not_apply(spec, assignment, message):
    errors = spec.errors(f"M DEFINITIONS ::= BEGIN\n{assignment}\nEND")
    assert any(message in e for e in errors), errors


def test_contained_subtypes_and_value_sets(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Small ::= INTEGER (0..9)
        Smaller ::= INTEGER (Small ^ 2..20)
        Set INTEGER ::= { 1 | 3 | 5 }
        Odd ::= INTEGER (Set)
        Type1 ::= IA5String (SIZE (1..10))
        Type0 ::= IA5String (Type1)
        END""")
    assert graph["M.Smaller"].constraints.value == Range(2, 9)
    assert graph["M.Odd"].constraints.value == Range(1, 5)
    assert graph["M.Type0"].constraints.size == Range(1, 10)


def test_extensible_inner_constraints_are_loose(spec):
    """asn1c test 16: a value longer than SIZE(1..10, ...) is still a valid value."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= IA5String (SIZE (1..ten, ...)) (FROM ("a".."z" | "#", ...))
        ten INTEGER ::= 10
        v T ::= "#much too long for ten but fine"
        END""")
    assert graph["M.T"].constraints.size == Range(1, 10, extensible=True)


def test_the_last_constraint_on_an_aspect_says_whether_it_is_extensible(spec):
    # X.691 A.3 encodes `initial NameString (SIZE (1))` with no extension bit and no
    # length, though NameString's size is extensible; a serially applied alphabet
    # constraint leaves the size alone (above, and X.691 B.2.2.2).
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        NameString ::= VisibleString (FROM ("a".."z" | "A".."Z" | "-.") ^ SIZE (1..64, ...))
        Initial ::= NameString (SIZE (1))
        Upper ::= NameString (FROM ("A".."Z"))
        Small ::= INTEGER (0..10, ...)
        Smaller ::= Small (1..5)
        END""")
    assert graph["M.NameString"].constraints.size == Range(1, 64, extensible=True)
    assert graph["M.Initial"].constraints.size == Range(1, 1)
    assert graph["M.Upper"].constraints.size == Range(1, 64, extensible=True)
    assert graph["M.Upper"].constraints.alphabet == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert graph["M.Smaller"].constraints.value == Range(1, 5)


def test_contents_constraint(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= OCTET STRING (CONTAINING Inner)
        U ::= BIT STRING (CONTAINING SEQUENCE { a INTEGER } ENCODED BY { 2 1 1 })
        Inner ::= SEQUENCE { a INTEGER }
        END""")
    assert graph["M.T"].contained == "M.Inner"
    assert graph["M.U"].contained == "M.U.contained"
    assert graph["M.U.contained.a"].kind.value == "INTEGER"


def test_user_defined_and_real_constraints(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a INTEGER } (CONSTRAINED BY { -- anything -- })
        R ::= REAL (0..3.14159265)
        Ri ::= REAL (0..10)
        E ::= ENUMERATED { one(1), two(2), three(3) } (two | three)
        END""")
    assert graph["M.T"].constraints.tree.user_defined
    assert graph["M.R"].constraints.value is None          # not integral: kept in tree
    assert graph["M.Ri"].constraints.value == Range(0, 10)
    assert graph["M.E"].constraints.value == Range(2, 3)
