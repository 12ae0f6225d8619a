"""Real-world specifications: the valid ASN.1 that Wireshark's modules showed the front end
lacked (written here from X.680-X.683, not copied from those files), and lenient mode, which
accepts their common defects with a warning each (docs/frontend.md, "Lenient mode").

For every tolerated defect, strict mode must refuse the file with an error at the defect
itself that names the rule and says --lenient accepts it; lenient mode must accept it with a
warning at the same place, and do what the warning says.
"""
from __future__ import annotations

import textwrap

import pytest

from asn1c_hybrid.diagnostics import CompileError, Diagnostics
from asn1c_hybrid.frontend import load
from asn1c_hybrid.typegraph import Kind, Tag, TagClass


def lenient(spec, *texts: str):
    """The graph in lenient mode, and the warnings (file:line:col: message)."""
    diagnostics = Diagnostics(lenient=True)
    paths = [spec.write(text) for text in texts]
    try:
        graph = load(paths, diagnostics)
    except CompileError as error:
        pytest.fail("unexpected errors:\n" + "\n".join(d.format() for d in error.diagnostics))
    warnings = [f"{d.location.line}:{d.location.column}: {d.message}{d.hint}"
                for d in diagnostics.items if d.severity == "warning"]
    return graph, warnings


def strict(spec, *texts: str) -> list[str]:
    diagnostics = Diagnostics()
    paths = [spec.write(text) for text in texts]
    with pytest.raises(CompileError):
        load(paths, diagnostics)
    return [f"{d.location.line}:{d.location.column}: {d.message}{d.hint}"
            for d in diagnostics.errors]


# ---- valid ASN.1 ---------------------------------------------------------------------------

def test_named_numbers_of_the_parent_type_are_values_in_its_constraint(spec):
    # X.680 19.1/19.4: a NamedNumberList names values of the type, and the bounds of a
    # value range (51.4) are values of the type being constrained (IEEE 1609.2's pattern).
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Degrees ::= INTEGER { lowest(-90), highest(90), unavailable(91) } (-90..91)
        Known ::= Degrees (lowest..highest)
        Unknown ::= Degrees (unavailable)
        END""")
    assert graph["M.Known"].constraints.tree.root.values.hull() == (-90, 90)
    assert graph["M.Unknown"].constraints.tree.root.values.hull() == (91, 91)


def test_an_open_type_constrained_by_a_type_is_accepted(spec):
    # X.680 51.6 (type constraint): an open type may be constrained by a type.  Its value
    # is kept as its encoding, as for every open type (docs/frontend.md).
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Material ::= SEQUENCE { key OCTET STRING }
        Encoded ::= TYPE-IDENTIFIER.&Type (Material)
        END""")
    assert graph.target("M.Encoded").kind == Kind.OPEN


def test_a_value_from_an_object_is_an_actual_parameter(spec):
    # X.683 9.2: a value parameter's actual parameter is a Value, which may be a value
    # from an object (X.681 14.6), ``rule.&id`` here.
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        RULE ::= CLASS { &id OBJECT IDENTIFIER UNIQUE } WITH SYNTAX { ID &id }
        rule RULE ::= { ID { 1 2 3 } }
        Tagged { OBJECT IDENTIFIER : which } ::= SEQUENCE {
            kind OBJECT IDENTIFIER DEFAULT which }
        Instance ::= Tagged { rule.&id }
        END""")
    component = graph.target("M.Instance").components[0]
    assert component.default == "1.2.3"


def test_a_user_defined_constraint_may_be_nested(spec):
    # X.682 9.1: a UserDefinedConstraint is a GeneralConstraint, which X.680 49.6 allows
    # wherever a Constraint is, WITH COMPONENTS included (ROS's Invoke does this).
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Invoke ::= SEQUENCE { code INTEGER, linked INTEGER OPTIONAL }
        Checked ::= Invoke (WITH COMPONENTS { ..., code (CONSTRAINED BY { }) })
        END""")
    assert graph.target("M.Checked").kind == Kind.SEQUENCE


def test_a_named_bit_default_fits_its_size_with_trailing_zero_bits(spec):
    # X.680 22.7: with a NamedBitList, trailing 0 bits are insignificant, so {app} is a
    # value of a named-bit BIT STRING of SIZE (8).
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Kinds ::= BIT STRING { app(0), enrol(1) } (SIZE (8))
        Holder ::= SEQUENCE { kinds Kinds DEFAULT { app } }
        END""")
    assert graph["M.Holder"].components[0].has_default


# ---- defects, refused by default and accepted by --lenient ---------------------------------

IMPLICIT_CHOICE = """
    M DEFINITIONS ::= BEGIN
    C ::= CHOICE { a INTEGER, b BOOLEAN }
    S ::= SEQUENCE { x [1] IMPLICIT C }
    END"""


def test_implicit_on_an_untagged_choice(spec):
    assert strict(spec, IMPLICIT_CHOICE) == [
        "4:20: IMPLICIT cannot tag an untagged CHOICE: its tag is not known (X.680 31.2.9); "
        "write EXPLICIT, or accept it with --lenient"]
    graph, warnings = lenient(spec, IMPLICIT_CHOICE)
    assert warnings == ["4:20: IMPLICIT cannot tag an untagged CHOICE: its tag is not known "
                        "(X.680 31.2.9); read as EXPLICIT"]
    assert graph["M.S"].components[0].tags == (Tag(TagClass.CONTEXT, 1),)   # a wrapper


DUPLICATE_ENUM = """
    M DEFINITIONS ::= BEGIN
    E ::= ENUMERATED { reserved(4), used(5), reserved(6), ..., reserved(9) }
    END"""


def test_an_enumeration_identifier_used_twice(spec):
    assert strict(spec, DUPLICATE_ENUM) == [
        "3:42: 'reserved' is named twice in ENUMERATED (X.680 20); rename one of them, or "
        "accept it with --lenient"]
    graph, warnings = lenient(spec, DUPLICATE_ENUM)
    assert graph["M.E"].named_numbers == {"reserved": 4, "used": 5, "reserved-6": 6,
                                          "reserved-9": 9}
    assert graph["M.E"].enum_extension == ["reserved-9"]
    assert len(warnings) == 2 and "the second is named 'reserved-6'" in warnings[0]


EMPTY_PARAMETERS = """
    M DEFINITIONS ::= BEGIN
    Text { INTEGER : bound } ::= UTF8String (SIZE (1..bound))
    S ::= SEQUENCE { a Text { --ub-name-- }, b Text, c Text { 8 } }
    END"""


def test_empty_and_missing_actual_parameters(spec):
    errors = strict(spec, EMPTY_PARAMETERS)
    assert errors[0] == ("4:20: 'Text' is given no actual parameters (X.683 9); give them, "
                         "or accept it with --lenient")
    graph, warnings = lenient(spec, EMPTY_PARAMETERS)
    assert [w.split(":")[:2] for w in warnings] == [["4", "20"], ["4", "44"]]
    a, b, c = graph["M.S"].components
    assert graph[a.type].constraints.size is None          # the dummy's constraint left out
    assert graph[b.type].constraints.size is None
    assert graph[c.type].constraints.size.upper == 8


SECOND_MARKER = """
    M DEFINITIONS ::= BEGIN
    Small ::= INTEGER (1..4, ..., 6, ..., 8)
    END"""


def test_a_second_extension_marker(spec):
    # X.680 50.1 / X.681 12.3 allow one marker; Wireshark's PKIXAlgs-2009 has two.
    assert strict(spec, SECOND_MARKER) == [
        "3:34: a second extension marker (X.680 50, X.681 12); remove it, or accept it with "
        "--lenient"]
    graph, warnings = lenient(spec, SECOND_MARKER)
    tree = graph["M.Small"].constraints.tree
    assert tree.extensible and tree.root.values.hull() == (1, 4)
    assert tree.additions.values.contains(6) and tree.additions.values.contains(8)


MISSING_NAMES = ("""
    A DEFINITIONS ::= BEGIN
    IMPORTS Defined, Nowhere FROM B;
    S ::= SEQUENCE { a Defined, b Nowhere, c Unimported }
    T ::= SEQUENCE { c Unimported }
    END""", """
    B DEFINITIONS ::= BEGIN
    Other ::= INTEGER
    END""", """
    C DEFINITIONS ::= BEGIN
    Defined ::= BOOLEAN
    Unimported ::= OCTET STRING
    END""")


def test_names_imported_from_a_module_that_lacks_them(spec):
    errors = strict(spec, *MISSING_NAMES)
    assert "3:9: 'Defined' is not defined in module B (X.680 13); define it in B or " \
           "import it from where it is defined, or accept it with --lenient" in errors
    assert "5:20: 'Unimported' is not defined (X.680 13); import it from C, or accept it with " \
           "--lenient" in errors
    graph, warnings = lenient(spec, *MISSING_NAMES)
    a, b, c = (graph.target(m.type) for m in graph["A.S"].components)
    assert a.kind == Kind.BOOLEAN                   # found in the one module defining it
    assert b.kind == Kind.OPEN                      # defined nowhere: an open type
    assert c.builtin == "OCTET STRING"
    assert any("'Nowhere' is not defined in module B" in w and "open type" in w
               for w in warnings)


def test_a_module_that_no_input_defines(spec):
    text = """
        A DEFINITIONS ::= BEGIN
        IMPORTS Lost FROM Absent;
        S ::= SEQUENCE { a Lost, b INTEGER }
        END"""
    assert strict(spec, text) == [
        "3:19: module 'Absent' is imported but not found among the inputs (X.680 13); give "
        "the file that defines it, or accept it with --lenient"]
    graph, _ = lenient(spec, text)
    assert graph.target(graph["A.S"].components[0].type).kind == Kind.OPEN


def test_a_type_that_takes_no_parameters_given_some(spec):
    text = """
        M DEFINITIONS ::= BEGIN
        Name ::= UTF8String
        S ::= SEQUENCE { a Name { 64 } }
        END"""
    assert strict(spec, text) == [
        "4:20: 'Name' is not parameterized (X.683 9); remove the actual parameters, or "
        "accept it with --lenient"]
    graph, _ = lenient(spec, text)
    assert graph.target(graph["M.S"].components[0].type).builtin == "UTF8String"


def test_a_constraint_that_does_not_apply_is_left_out(spec):
    text = """
        M DEFINITIONS ::= BEGIN
        Digits ::= OCTET STRING (5)
        Clock ::= INTEGER (SIZE (24))
        END"""
    errors = strict(spec, text)
    assert len(errors) == 2 and all("(X.680 51)" in e and "--lenient" in e for e in errors)
    graph, warnings = lenient(spec, text)
    assert graph["M.Digits"].constraints.size is None
    assert graph["M.Clock"].constraints.value is None
    assert len(warnings) == 2


def test_an_object_that_cannot_be_read_is_left_out(spec):
    text = """
        M DEFINITIONS ::= BEGIN
        RULE ::= CLASS { &Syntax OPTIONAL, &id INTEGER UNIQUE }
            WITH SYNTAX { [SYNTAX &Syntax] ID &id }
        good RULE ::= { SYNTAX BOOLEAN ID 1 }
        bad RULE ::= { SYNTAX INTEGER only the first choice ID 2 }
        Rules RULE ::= { good | bad }
        Holder ::= SEQUENCE { id RULE.&id ({Rules}), value RULE.&Syntax ({Rules}{@id}) }
        END"""
    errors = strict(spec, text)
    assert errors[0].startswith("6:31: cannot read the type for &Syntax: unexpected 'only'")
    assert errors[0].endswith("(X.681 11); correct the object, or accept it with --lenient")
    graph, warnings = lenient(spec, text)
    assert graph["M.Holder.value"].open_type.table == {1: "M.good.Syntax"}
    assert warnings == [errors[0].replace("correct the object, or accept it with --lenient",
                                          "the object is left out")]


def test_clashing_tags(spec):
    text = """
        M DEFINITIONS ::= BEGIN
        Pick ::= CHOICE { plain SEQUENCE { a INTEGER }, signed SEQUENCE { b BOOLEAN } }
        END"""
    errors = strict(spec, text)
    assert errors == ["3:49: in CHOICE M.Pick: alternative 'signed' and 'plain' can have the "
                      "same tag [UNIVERSAL 16] (X.680 29); tag them apart, or accept it with "
                      "--lenient"]
    _, warnings = lenient(spec, text)
    assert warnings[0].endswith("a BER decoder takes the first alternative the tag fits")


UPPER_VALUES = """
    M DEFINITIONS ::= BEGIN
    base OBJECT IDENTIFIER ::= { iso(1) member-body(2) 840 }
    Arc OBJECT IDENTIFIER ::= { Base 7 }
    leaf OBJECT IDENTIFIER ::= { Arc 1 }
    Small INTEGER ::= { 1 | 2 }
    END"""


def test_value_references_spelled_in_upper_case(spec):
    # X.680 12.4: a valuereference begins with a lower-case letter.  Z39.50 defines
    # `z39-50` and writes `{Z39-50 2}`.
    errors = strict(spec, UPPER_VALUES)
    assert errors[0] == ("4:1: 'Arc' is a value reference spelled in upper case "
                         "(X.680 12.4); begin it with a lower-case letter, or accept it with "
                         "--lenient")
    graph, warnings = lenient(spec, UPPER_VALUES)
    assert graph.values["M.Arc"].value == "1.2.840.7"
    assert graph.values["M.leaf"].value == "1.2.840.7.1"
    assert "4:29: 'Base' is a value reference spelled in upper case (X.680 12.4); read as " \
           "'base'" in warnings
    assert graph["M.Small"].constraints.tree.root.values.hull() == (1, 2)  # still a set
    assert len(warnings) == 3


NAME_AND_NUMBER_PREFIX = """
    M DEFINITIONS ::= BEGIN
    base OBJECT IDENTIFIER ::= { 1 3 6 1 4 1 99 }
    leaf OBJECT IDENTIFIER ::= { base (1) }
    named OBJECT IDENTIFIER ::= { iso(1) identified-organization(3) 6 }
    END"""


def test_a_value_written_as_the_name_of_an_arc(spec):
    # X.680 32: in `{ base (1) }` the identifier only names the arc 1 (NameAndNumberForm),
    # even though `base` is a value; a one-arc value has no encoding (X.690 8.19.4).  The
    # author meant `{ base 1 }` (Novell's PKIS module); ordinary name forms are untouched.
    errors = strict(spec, NAME_AND_NUMBER_PREFIX)
    assert errors == ["4:30: 'base (1)' is a name and number form: this value is the one "
                      "arc 1, which cannot be encoded (X.680 32, X.690 8.19.4); write "
                      "{ base 1 }, or accept it with --lenient"]
    graph, warnings = lenient(spec, NAME_AND_NUMBER_PREFIX)
    assert graph.values["M.leaf"].value == "1.3.6.1.4.1.99.1"
    assert graph.values["M.named"].value == "1.3.6"
    assert warnings == ["4:30: 'base (1)' is a name and number form: this value is the one "
                        "arc 1, which cannot be encoded (X.680 32, X.690 8.19.4); read as "
                        "{ base 1 }"]


def test_a_value_that_cannot_be_encoded_is_only_a_prefix(spec):
    # X.690 8.19.4 encodes the first two arcs as one subidentifier, so a value needs two
    # arcs, a first arc of 0-2 and, under 0 and 1, a second arc of 0-39.  Such a value is
    # still valid ASN.1, and a prefix of other values: a warning, and no C constant.
    diagnostics = Diagnostics()
    graph = load([spec.write("""
        M DEFINITIONS ::= BEGIN
        top OBJECT IDENTIFIER ::= { iso }
        wide OBJECT IDENTIFIER ::= { 1 40 }
        high OBJECT IDENTIFIER ::= { 3 1 }
        under OBJECT IDENTIFIER ::= { top 3 }
        END""")], diagnostics)
    assert sorted(graph.values) == ["M.under"]
    assert graph.values["M.under"].value == "1.3"
    assert [(d.location.line, d.message) for d in diagnostics.items] == [
        (3, "the value of 'top' (1) has fewer than two arcs, so X.690 8.19.4 cannot encode "
            "it; it has no C constant"),
        (4, "the value of 'wide' (1.40) has a second arc above 39 under arc 1, so X.690 "
            "8.19.4 cannot encode it; it has no C constant"),
        (5, "the value of 'high' (3.1) has a first arc above 2, so X.690 8.19.4 cannot "
            "encode it; it has no C constant")]


CUT_DOWN_CLASS = """
    M DEFINITIONS ::= BEGIN
    OPERATION ::= CLASS { &code INTEGER UNIQUE, &Argument OPTIONAL }
    Ops OPERATION ::= { { &code 1, &Argument BOOLEAN } }
    Invoke ::= SEQUENCE {
        code OPERATION.&code ({Ops}),
        argument OPERATION.&Argument ({Ops}{@opcode}),
        result OPERATION.&Result }
    END"""


def test_a_missing_class_field_and_a_key_naming_nothing(spec):
    errors = strict(spec, CUT_DOWN_CLASS)
    assert any(e.startswith("7:") and "names no component (X.682 10); name the key "
               "component, or accept it with --lenient" in e for e in errors)
    graph, warnings = lenient(spec, CUT_DOWN_CLASS)
    argument, result = graph["M.Invoke"].components[1:]
    assert graph[argument.type].kind == Kind.OPEN and graph[argument.type].open_type is None
    assert graph[result.type].kind == Kind.OPEN
    assert any("class M.OPERATION has no field &Result (X.681 14); an open type" in w
               for w in warnings)


def test_the_default_stays_strict(spec):
    assert spec.errors(IMPLICIT_CHOICE)
    assert spec.errors(DUPLICATE_ENUM)
    assert spec.errors(EMPTY_PARAMETERS)
