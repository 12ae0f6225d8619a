"""astbuilder.py: the AST of each construct (frontend/ast.py)."""
from __future__ import annotations

import pytest

from asn1c_hybrid.frontend import ast
from asn1c_hybrid.frontend.astbuilder import AstBuilder
from asn1c_hybrid.frontend.lexical import cstring_text
from asn1c_hybrid.frontend.parsing import parse_text


def module(text: str) -> ast.Module:
    tree, tokens, problem = parse_text(text)
    assert problem is None, problem
    return AstBuilder(tokens).modules(tree)[0]


def body(assignments: str, header: str = "M DEFINITIONS ::= BEGIN") -> list[ast.Assignment]:
    return module(f"{header}\n{assignments}\nEND").assignments


def type_of(text: str) -> ast.Type:
    return body(f"T ::= {text}")[0].type


def test_module_header():
    m = module("""M { iso(1) 2 } DEFINITIONS AUTOMATIC TAGS EXTENSIBILITY IMPLIED ::= BEGIN
        EXPORTS ALL; IMPORTS A, b FROM N { 1 3 } C FROM P; END""")
    assert (m.name, m.tag_default, m.extensibility_implied) == ("M", "AUTOMATIC", True)
    assert [t[1] for t in m.oid.tokens] == ["iso", "(", "1", ")", "2"]
    assert m.exports is None
    assert [(i.module, [s.name for s in i.symbols]) for i in m.imports] == \
        [("N", ["A", "b"]), ("P", ["C"])]
    assert isinstance(m.imports[0].assigned, ast.BlockValue) and m.imports[1].assigned is None


@pytest.mark.parametrize("exports, expected", [
    ("", None), ("EXPORTS ALL;", None), ("EXPORTS;", []), ("EXPORTS A, b;", ["A", "b"])])
def test_exports(exports, expected):
    m = module(f"M DEFINITIONS ::= BEGIN {exports} END")
    assert (None if m.exports is None else [s.name for s in m.exports]) == expected
    assert m.tag_default == "EXPLICIT"


def test_assignment_shapes():
    a = body("""T{P} ::= SEQUENCE { a P }
        C ::= CLASS { &id INTEGER }
        v T ::= 5
        S T ::= { 1 | 2, ... }
        OT MACRO ::= BEGIN TYPE NOTATION ::= "x" END
        o OT SYNTAX INTEGER ACCESS read-only ::= { 1 2 }""")
    assert [type(x).__name__ for x in a] == ["TypeAssignment", "TypeAssignment",
                                            "ValueAssignment", "SetAssignment",
                                            "MacroDefinition", "MacroValueAssignment"]
    assert [p.name for p in a[0].params] == ["P"]
    assert isinstance(a[1].type, ast.ClassDefinition)
    assert a[3].elements.extensible and isinstance(a[3].elements.root, ast.Union_)
    assert a[5].macro == "OT" and isinstance(a[5].value, ast.BlockValue)


def test_tagged_and_constrained_types():
    t = type_of("[APPLICATION 3] IMPLICIT [5] INTEGER (0..255)")
    assert (t.tag_class, t.number, t.mode) == ("APPLICATION", 3, "IMPLICIT")
    inner = t.type
    assert (inner.tag_class, inner.number, inner.mode) == ("CONTEXT", 5, None)
    assert isinstance(inner.type, ast.ConstrainedType)
    assert isinstance(inner.type.type, ast.IntegerType)
    assert inner.type.constraints[0].text == "( 0 .. 255 )"


def test_collection_types():
    t = type_of("SET SIZE (1..MAX) OF item [0] IA5String (SIZE (1..8))")
    assert (t.kind, t.element_name) == ("SET OF", "item")
    assert isinstance(t.constraint.spec.root, ast.SizeElement)
    assert isinstance(t.element, ast.TaggedType)
    t = type_of("SEQUENCE (SIZE(2)) OF INTEGER")
    assert t.kind == "SEQUENCE OF" and isinstance(t.constraint.spec.root, ast.SizeElement)


def test_component_list_items():
    t = type_of("""SEQUENCE { a INTEGER, b BOOLEAN OPTIONAL, c NULL DEFAULT NULL, ...,
        [[2: d INTEGER, e INTEGER ]], COMPONENTS OF X, ..., f REAL }""")
    kinds = [type(i).__name__ for i in t.items]
    assert kinds == ["NamedComponent", "NamedComponent", "NamedComponent", "ExtensionMarker",
                     "ExtensionGroup", "ComponentsOf", "ExtensionMarker", "NamedComponent"]
    assert t.items[1].optional and isinstance(t.items[2].default, ast.KeywordValue)
    assert t.items[4].version == 2 and [c.name for c in t.items[4].items] == ["d", "e"]


def test_enumerations_and_named_numbers():
    t = type_of("ENUMERATED { a, b(5), ..., c }")
    assert [(i.name, i.value) for i in t.items] == [("a", None), ("b", 5), (None, None),
                                                  ("c", None)]
    t = type_of("INTEGER { low(-1), high(max-value) }")
    assert t.named[0].value == -1 and t.named[1].value.name == "max-value"


def test_references():
    t = type_of("Mod.Type")
    assert (t.ref.module, t.ref.name, t.ref.args, t.ref.fields) == ("Mod", "Type", None, ())
    t = type_of("CLASS-X.&id")
    assert (t.ref.name, t.ref.fields) == ("CLASS-X", ("&id",))
    t = type_of("Param{INTEGER, {Set}, 5}")
    assert [type(a).__name__ for a in t.ref.args] == ["IntegerType", "BlockValue",
                                                      "NumberValue"]
    t = type_of("obj.&Type")
    assert (t.ref.name, t.ref.fields) == ("obj", ("&Type",))
    t = type_of("a < Choice")
    assert isinstance(t, ast.SelectionType) and t.name == "a"


def test_values():
    a = body("""a INTEGER ::= -5
        b REAL ::= 2.5
        c T ::= { x 1, y { 2 3 } }
        d T ::= alt : TRUE
        e T ::= NULL : NULL
        f T ::= "two\n        lines"
        g T ::= '01 01'B
        h T ::= 'ab'H""")
    values = [x.value for x in a]
    assert values[0].value == -5 and values[1].value == 2.5
    assert [t[1] for t in values[2].tokens] == ["x", "1", ",", "y", "{", "2", "3", "}"]
    assert (values[3].name, values[3].value.keyword) == ("alt", "TRUE")
    assert isinstance(values[4], ast.OpenTypeValue) and values[4].type.name == "NULL"
    assert values[5].text == "twolines"
    assert values[6].bits == "0101" and values[7].digits == "AB"


def test_cstring_rules():
    assert cstring_text('"a""b"') == 'a"b'
    assert cstring_text('"one   \n   two"') == "onetwo"


def test_constraint_trees():
    t = type_of("INTEGER (1..<10 | 20<..MAX ^ (ALL EXCEPT 30), ..., 40)")
    spec = t.constraints[0].spec
    assert spec.extensible and isinstance(spec.additions, ast.SingleValue)
    union = spec.root
    assert isinstance(union, ast.Union_)
    first = union.items[0]
    assert (first.lower.value, first.upper.value, first.lower_open, first.upper_open) == \
        (1, 10, False, True)
    second = union.items[1]
    assert isinstance(second, ast.Intersection)
    assert second.items[0].lower_open and second.items[0].upper == "MAX"
    assert isinstance(second.items[1], ast.Exclusion) and second.items[1].base is None


def test_inner_and_table_constraints():
    t = type_of("SEQUENCE { a INTEGER } (WITH COMPONENTS { ..., a (1) PRESENT })")
    element = t.constraints[0].spec.root
    assert element.partial and element.items[0].presence == "PRESENT"
    t = type_of("SEQUENCE { v C.&Type ({Set}{@.a, @..b.c}) }")
    table = t.items[0].type.constraints[0].spec
    assert isinstance(table, ast.TableConstraint)
    assert [(a.level, a.path) for a in table.at] == [(1, ("a",)), (2, ("b", "c"))]
    t = type_of("OCTET STRING (CONTAINING Foo ENCODED BY ber)")
    spec = t.constraints[0].spec
    assert spec.type.ref.name == "Foo" and spec.encoded_by.ref.name == "ber"


def test_class_definition_and_syntax():
    c = body("""C ::= CLASS { &Type OPTIONAL, &id INTEGER UNIQUE, &Set C OPTIONAL,
                               &val &Type DEFAULT 5 }
        WITH SYNTAX { [TYPE &Type] ID &id [SETS [MORE &Set]] }""")[0].type
    assert [(f.name, f.category, f.unique, f.optional) for f in c.fields] == [
        ("&Type", "type", False, True), ("&id", "value", True, False),
        ("&Set", "set", False, True), ("&val", "value", False, False)]
    assert c.fields[3].governor.ref.name == "&Type"
    group, literal, field, outer = c.syntax
    assert isinstance(group, ast.SyntaxGroup) and group.items[0].text == "TYPE"
    assert (literal.text, field.name) == ("ID", "&id")
    assert isinstance(outer.items[1], ast.SyntaxGroup)        # "]]" closes two groups


def test_x208_forms():
    t = type_of("SEQUENCE { INTEGER, any ANY DEFINED BY x, b BIT STRING SIZE(8) }")
    assert t.items[0].name is None
    assert isinstance(t.items[1].type, ast.AnyType) and t.items[1].type.defined_by == "x"
    assert isinstance(t.items[2].type, ast.ConstrainedType)
