"""resolve.py: what names denote, across modules and inside parameterized definitions."""
from __future__ import annotations

from asn1c_hybrid.typegraph import Kind


def test_categories_from_the_governor(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        C ::= CLASS { &id INTEGER UNIQUE } WITH SYNTAX { ID &id }
        Alias ::= C
        obj Alias ::= { ID 1 }
        Objs C ::= { obj | { ID 2 } }
        Small INTEGER ::= { 1 | 2 | 3 }
        v Small ::= 2
        Key ::= SEQUENCE { k C.&id ({Objs}) }
        END""")
    assert graph["M.Small"].kind == Kind.INTEGER               # a value set is a type
    assert graph.values["M.v"].value == 2
    assert "M.obj" not in graph.values                          # an object is not a value
    tree = graph["M.Key.k"].constraints.tree
    assert tree.table == ("Objs", (1, 2), False)


def test_circular_class_definitions(spec):
    errors = spec.errors("""
        M DEFINITIONS ::= BEGIN
        A ::= B
        B ::= A
        END""")
    assert errors == ["'A' is defined circularly", "'B' is defined circularly"]
    errors = spec.errors("""
        M DEFINITIONS ::= BEGIN
        C ::= [0] D
        D ::= [1] C
        END""")
    assert errors == ["'M.C' is defined in terms of itself"]


def test_undefined_and_not_exported(spec):
    errors = spec.errors("""
        A DEFINITIONS ::= BEGIN
        IMPORTS Hidden, Absent FROM B;
        T ::= SEQUENCE { h Hidden, u Unknown }
        END""", """
        B DEFINITIONS ::= BEGIN
        EXPORTS Other;
        Hidden ::= INTEGER
        Other ::= INTEGER
        END""")
    assert errors == ["'Hidden' is not exported by module B",
                      "'Absent' is not defined in module B"]


def test_undefined_in_a_component(spec):
    assert spec.errors("""
        A DEFINITIONS ::= BEGIN T ::= SEQUENCE { u Unknown } END""") == [
        "'Unknown' is not defined"]


def test_external_references_by_module_name(spec):
    graph = spec.load("""
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM Other { 1 9 };
        U ::= SEQUENCE { a Other.T, b B.T, c T }
        END""", """
        B { 1 9 } DEFINITIONS ::= BEGIN T ::= BOOLEAN END""")
    assert [c.type for c in graph["A.U"].components] == ["B.T"] * 3


def test_symbol_imported_from_two_modules_must_be_qualified(spec):
    text_a = """
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM B T FROM C;
        Good ::= SEQUENCE { b B.T, c C.T }
        Bad ::= SEQUENCE { t T }
        END"""
    others = ["B DEFINITIONS ::= BEGIN T ::= BOOLEAN END",
              "C DEFINITIONS ::= BEGIN T ::= INTEGER END"]
    assert spec.errors(text_a, *others) == [
        "'T' is imported from B and C: write Module.T to say which"]


def test_symbol_both_imported_and_defined(spec):
    same = """
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM B;
        T ::= SEQUENCE { x INTEGER }
        END"""
    b = "B DEFINITIONS ::= BEGIN T ::= SEQUENCE { x INTEGER } END"
    graph = spec.load(same, b)
    assert graph["A.T"].kind == Kind.SEQUENCE and not graph.diagnostics.items
    different = same.replace("x INTEGER }\n        END", "x BOOLEAN }\n        END")
    assert spec.errors(different, b) == [
        "'T' is both imported from B and defined in module A"]


def test_builtin_classes_need_no_import(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { id TYPE-IDENTIFIER.&id, v TYPE-IDENTIFIER.&Type }
        END""")
    assert graph["M.T.id"].builtin == "OBJECT IDENTIFIER"
    assert graph["M.T.v"].kind == Kind.OPEN


def test_parameter_counts(spec):
    errors = spec.errors("""
        M DEFINITIONS ::= BEGIN
        P{X} ::= SEQUENCE { x X }
        T ::= P{INTEGER, BOOLEAN}
        U ::= P
        END""")
    assert errors == ["'P' takes 1 parameter(s), 2 given", "'P' needs 1 actual parameter(s)"]


def test_value_parameter_needs_a_governor(spec):
    assert spec.errors("""
        M DEFINITIONS ::= BEGIN
        P{x} ::= INTEGER (0..x)
        END""") == ["parameter 'x' (a value or object) needs a governor: Type:x"]
