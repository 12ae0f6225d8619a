"""analysis.py: order of the graph, reporting rules, and no traceback ever."""
from __future__ import annotations

from asn1c_hybrid.diagnostics import CompileError, Diagnostics
from asn1c_hybrid.frontend import load
from asn1c_hybrid.frontend.analysis import Analyzer, referenced_names
from asn1c_hybrid.frontend.astbuilder import AstBuilder
from asn1c_hybrid.frontend.parsing import parse_text


def test_nodes_and_values_in_definition_order_whatever_the_use_order(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Last ::= SEQUENCE { f First, m Middle }
        v Middle ::= 3
        Middle ::= INTEGER (0..9)
        First ::= SEQUENCE { x IA5String }
        w First ::= { x "y" }
        END""")
    assert list(graph.nodes) == ["M.Last", "M.Middle", "M.First", "M.First.x"]
    assert list(graph.values) == ["M.v", "M.w"]


def test_an_error_is_reported_once_and_dependants_stay_silent(spec):
    errors = spec.errors("""
        M DEFINITIONS ::= BEGIN
        Broken ::= SEQUENCE { a Nowhere }
        User1 ::= SEQUENCE { b Broken }
        User2 ::= SET OF Broken
        END""")
    assert errors == ["'Nowhere' is not defined"]


def test_unexpected_exceptions_become_internal_error_diagnostics(spec, monkeypatch):
    path = spec.write("M DEFINITIONS ::= BEGIN T ::= SEQUENCE { a INTEGER } END")

    def broken(self, *args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(Analyzer, "build_components", broken)
    diagnostics = Diagnostics()
    try:
        load([path], diagnostics)
    except CompileError:
        pass
    [error] = diagnostics.errors
    assert error.message == "internal error: ZeroDivisionError: boom"
    assert (error.location.file, error.location.line) == (path, 1)


def test_deep_nesting_does_not_overflow(spec):
    nested = "INTEGER"
    for _ in range(120):
        nested = f"SEQUENCE {{ a {nested} }}"
    graph = spec.load(f"M DEFINITIONS ::= BEGIN T ::= {nested} END")
    assert "M.T" + ".a" * 120 in graph.nodes


def test_redefining_builtin_names(spec):
    """asn1c test 97 (SW): a module's own TYPE-IDENTIFIER hides the built-in class."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        TYPE-IDENTIFIER ::= CLASS { &id2 OBJECT IDENTIFIER UNIQUE, &Type }
        T1 ::= SEQUENCE { id TYPE-IDENTIFIER.&id2 }
        UniversalString ::= [UNIVERSAL 28] IMPLICIT OCTET STRING
        END""")
    messages = [d.message for d in graph.diagnostics.items]
    assert messages[0] == "TYPE-IDENTIFIER is a built-in class; this module's definition hides it"
    assert "UniversalString is a built-in type" in messages[1]
    assert graph["M.T1.id"].builtin == "OBJECT IDENTIFIER"


def test_referenced_names_include_kept_blocks():
    tree, tokens, _ = parse_text("""M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a Foo }
        o CLASS-X ::= { TYPE Bar ID id-baz }
        END""")
    names = referenced_names(AstBuilder(tokens).modules(tree)[0])
    assert {"Foo", "CLASS-X", "Bar", "id-baz"} <= names


def test_a_tag_number_past_the_runtime_s_30_bits_is_an_error_at_the_tag(spec):
    """A tag is one 32-bit number in the runtime, its class in the top two bits: a larger
    number used to reach the generated C as an integer constant too large for its type."""
    found = spec.error_places("""
        M DEFINITIONS ::= BEGIN
        big INTEGER ::= 1073741824
        T ::= SEQUENCE { a [1073741823] BOOLEAN, b [APPLICATION big] INTEGER }
        U ::= [PRIVATE 99999999999999999999] INTEGER
        END""")
    assert found == [
        (4, 44, "tag number 1073741824 is above 1073741823, the largest this compiler's "
                "runtime keeps (30 bits)"),
        (5, 7, "tag number 99999999999999999999 is above 1073741823, the largest this "
               "compiler's runtime keeps (30 bits)")]


def test_an_enumerated_number_past_64_bits_is_an_error_at_the_item(spec):
    """The tables keep an ENUMERATED's numbers as int64_t: a larger one used to reach the
    generated C as a constant too large for its type."""
    found = spec.error_places("""
        M DEFINITIONS ::= BEGIN
        E ::= ENUMERATED { a(-9223372036854775808), b(9223372036854775807), ...,
                           c(9223372036854775808) }
        F ::= ENUMERATED { x(-9223372036854775809) }
        END""")
    assert found == [
        (4, 20, "'c(9223372036854775808)': this compiler's runtime keeps an ENUMERATED's "
                "numbers in 64 bits"),
        (5, 20, "'x(-9223372036854775809)': this compiler's runtime keeps an ENUMERATED's "
                "numbers in 64 bits")]


def test_an_unread_macro_value_used_as_a_typed_value_is_an_error(spec):
    """An X.208 macro instance whose value is not an OBJECT IDENTIFIER is kept unread; one
    used where a value of a type is expected (here inside an open type's value, which is
    encoded) used to end in an internal error."""
    found = spec.error_places("""
        M DEFINITIONS ::= BEGIN
        ALGORITHM ::= CLASS { &id OBJECT IDENTIFIER UNIQUE, &Params OPTIONAL }
            WITH SYNTAX { IDENTIFIER &id PARAMS TYPE &Params }
        AlgId ::= SEQUENCE { algorithm ALGORITHM.&id ({Algs}),
                             parameters ALGORITHM.&Params ({Algs}{@algorithm}) OPTIONAL }
        Algs ALGORITHM ::= { { IDENTIFIER id-p PARAMS TYPE Enc } }
        id-p OBJECT IDENTIFIER ::= { 1 2 3 }
        Enc ::= OCTET STRING
        empty SOME-MACRO WHATEVER ::= ''H
        v AlgId ::= { algorithm id-p, parameters Enc : empty }
        w Enc ::= empty
        END""")
    message = ("'empty' is a value of the macro SOME-MACRO, which this compiler keeps unread: "
               "it cannot be used where OCTET STRING is expected")
    assert found == [(11, 48, message), (12, 11, message)]
