"""objects.py: classes, objects in defined and default syntax, object sets, and the
open-type rules that table constraints give (X.681, X.682)."""
from __future__ import annotations

from asn1c_hybrid.typegraph import Kind

CLASSES = """
    ATTRIBUTE ::= CLASS {
        &id    OBJECT IDENTIFIER UNIQUE,
        &Type  OPTIONAL,
        &min   INTEGER DEFAULT 1
    } WITH SYNTAX { [TYPE &Type] [COUNTS [MIN &min]] IDENTIFIED BY &id }
"""


def test_defined_syntax_with_nested_optional_groups(spec):
    graph = spec.load(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        name ATTRIBUTE ::= {{ TYPE IA5String IDENTIFIED BY {{ 2 5 4 3 }} }}
        count ATTRIBUTE ::= {{ TYPE INTEGER COUNTS MIN 2 IDENTIFIED BY {{ 2 5 4 9 }} }}
        bare ATTRIBUTE ::= {{ IDENTIFIED BY {{ 2 5 4 10 }} }}
        Attrs ATTRIBUTE ::= {{ name | count | bare, ... }}
        Attribute ::= SEQUENCE {{
            type   ATTRIBUTE.&id ({{Attrs}}),
            value  ATTRIBUTE.&Type ({{Attrs}}{{@type}}) }}
        END""")
    value = graph["M.Attribute.value"]
    rule = value.open_type
    assert value.kind == Kind.OPEN
    assert (rule.key_path, rule.key_levels_up, rule.object_set, rule.extensible) == \
        (("type",), 0, "Attrs", True)
    assert rule.table == {"2.5.4.3": "M.name.Type", "2.5.4.9": "M.count.Type"}
    assert graph["M.name.Type"].builtin == "IA5String"
    table = graph["M.Attribute.type"].constraints.tree.table
    assert table == ("Attrs", ("2.5.4.3", "2.5.4.9", "2.5.4.10"), True)


def test_default_syntax_and_inline_objects(spec):
    graph = spec.load(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        Attrs ATTRIBUTE ::= {{ {{ &id {{ 1 2 }}, &Type BOOLEAN }} |
                              {{ &Type SEQUENCE {{ a INTEGER }}, &id {{ 1 3 }} }} }}
        A ::= SEQUENCE {{ t ATTRIBUTE.&id ({{Attrs}}), v ATTRIBUTE.&Type ({{Attrs}}{{@t}}) }}
        END""")
    rule = graph["M.A.v"].open_type
    assert rule.table == {"1.2": "M.Attrs.1.Type", "1.3": "M.Attrs.2.Type"}
    assert graph["M.Attrs.2.Type.a"].kind == Kind.INTEGER
    assert not rule.extensible


def test_relative_at_notation_levels(spec):
    """X.682 10.7: "@.x" starts at the innermost enclosing SEQUENCE/SET/CHOICE, "@x" at
    the outermost of the definition; SEQUENCE OF does not count as a level."""
    graph = spec.load(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        Attrs ATTRIBUTE ::= {{ {{ TYPE BOOLEAN IDENTIFIED BY {{ 1 2 }} }} }}
        Outer ::= SEQUENCE {{
            key   ATTRIBUTE.&id ({{Attrs}}),
            inner SEQUENCE {{
                local ATTRIBUTE.&id ({{Attrs}}),
                a     ATTRIBUTE.&Type ({{Attrs}}{{@.local}}),
                b     ATTRIBUTE.&Type ({{Attrs}}{{@key}}),
                c     ATTRIBUTE.&Type ({{Attrs}}{{@..key}}),
                d     SEQUENCE OF ATTRIBUTE.&Type ({{Attrs}}{{@.local}}) }} }}
        END""")
    rules = {n: graph[f"M.Outer.inner.{n}"].open_type for n in "abc"}
    rules["d"] = graph["M.Outer.inner.d.*"].open_type
    got = {n: (r.key_path, r.key_levels_up) for n, r in rules.items()}
    assert got == {"a": (("local",), 0), "b": (("key",), 1), "c": (("key",), 1),
                   "d": (("local",), 0)}


def test_parameterized_class_fields_and_object_sets(spec):
    """RFC 5912's AlgorithmIdentifier{ALGORITHM-TYPE, ALGORITHM-TYPE:AlgorithmSet}."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        ALGORITHM ::= CLASS { &id OBJECT IDENTIFIER UNIQUE, &Params OPTIONAL }
            WITH SYNTAX { IDENTIFIER &id [PARAMS TYPE &Params] }
        AlgorithmIdentifier{ALGORITHM-TYPE, ALGORITHM-TYPE:AlgorithmSet} ::= SEQUENCE {
            algorithm  ALGORITHM-TYPE.&id({AlgorithmSet}),
            parameters ALGORITHM-TYPE.&Params({AlgorithmSet}{@algorithm}) OPTIONAL }
        sha1 ALGORITHM ::= { IDENTIFIER { 1 3 14 3 2 26 } PARAMS TYPE NULL }
        md5 ALGORITHM ::= { IDENTIFIER { 1 2 840 113549 2 5 } }
        DigestAlgorithms ALGORITHM ::= { sha1 | md5, ... }
        Digest ::= AlgorithmIdentifier{ALGORITHM, {DigestAlgorithms}}
        END""")
    digest = graph["M.Digest"]
    assert digest.parameterized_from == "M.AlgorithmIdentifier{ALGORITHM, {DigestAlgorithms}}"
    rule = graph["M.Digest.parameters"].open_type
    assert rule.table == {"1.3.14.3.2.26": "M.sha1.Params"}
    assert rule.object_set == "DigestAlgorithms" and rule.extensible
    assert graph["M.sha1.Params"].kind == Kind.NULL


def test_x411_style_syntax_group_starting_with_a_field(spec):
    """Wireshark's X.411 EXTENSION: WITH SYNTAX { [&Type [IF ABSENT &absent],] ... }."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        EXTENSION ::= CLASS { &id INTEGER UNIQUE, &Type OPTIONAL, &absent &Type OPTIONAL }
        WITH SYNTAX { [&Type [IF ABSENT &absent],] IDENTIFIED BY &id }
        Flag ::= ENUMERATED { off(0), on(1) }
        e1 EXTENSION ::= { Flag IF ABSENT off, IDENTIFIED BY 1 }
        e2 EXTENSION ::= { INTEGER, IDENTIFIED BY 2 }
        e3 EXTENSION ::= { IDENTIFIED BY 3 }
        Exts EXTENSION ::= { e1 | e2 | e3 }
        Field ::= SEQUENCE { type EXTENSION.&id ({Exts}), value EXTENSION.&Type ({Exts}{@type}) }
        END""")
    assert graph["M.Field.value"].open_type.table == {1: "M.Flag", 2: "M.e2.Type"}


def test_class_and_object_errors(spec):
    errors = spec.errors(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        missing ATTRIBUTE ::= {{ TYPE INTEGER }}
        extra ATTRIBUTE ::= {{ TYPE INTEGER IDENTIFIED BY {{ 1 1 }} AGAIN }}
        Bad ::= SEQUENCE {{ x ATTRIBUTE.&nope }}
        NotClass ::= SEQUENCE {{ a INTEGER }}
        Worse ::= SEQUENCE {{ x NotClass.&id }}
        END""")
    assert errors == [
        "expected 'IDENTIFIED' in an object of class M.ATTRIBUTE",
        "cannot read the value for &id: unexpected 'AGAIN', expected end of file",
        "class M.ATTRIBUTE has no field &nope",
        "'NotClass' is a type, not a class or an object; 'NotClass.&id' is not a type"]


def test_with_syntax_must_name_fields_of_the_class(spec):
    assert spec.errors("""
        M DEFINITIONS ::= BEGIN
        C ::= CLASS { &id INTEGER } WITH SYNTAX { ID &id TYPE &Type }
        END""") == ["WITH SYNTAX names &Type, which class C does not have"]


def test_fields_read_from_objects(spec):
    graph = spec.load(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        name ATTRIBUTE ::= {{ TYPE IA5String IDENTIFIED BY {{ 2 5 4 3 }} }}
        NameValue ::= name.&Type
        name-id OBJECT IDENTIFIER ::= name.&id
        min-count INTEGER ::= name.&min
        Attrs ATTRIBUTE ::= {{ name }}
        Ids ::= OBJECT IDENTIFIER (Attrs.&id)
        END""")
    assert graph["M.NameValue"].alias_of == "M.name.Type" or \
        graph["M.NameValue"].builtin == "IA5String"
    assert graph.values["M.name-id"].value == "2.5.4.3"
    assert graph.values["M.min-count"].value == 1                    # the class's DEFAULT
    assert graph["M.Ids"].constraints.tree.root.singles == ("2.5.4.3",)


def test_unused_object_settings_are_not_analysed(spec):
    """An object's settings are read where it is used (docs/frontend.md)."""
    graph = spec.load(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        unused ATTRIBUTE ::= {{ TYPE Removed IDENTIFIED BY {{ 1 9 }} }}
        END""")
    assert not graph.diagnostics.items
    errors = spec.errors(f"""
        M DEFINITIONS ::= BEGIN
        {CLASSES}
        used ATTRIBUTE ::= {{ TYPE Removed IDENTIFIED BY {{ 1 9 }} }}
        Set ATTRIBUTE ::= {{ used }}
        A ::= SEQUENCE {{ t ATTRIBUTE.&id ({{Set}}), v ATTRIBUTE.&Type ({{Set}}{{@t}}) }}
        END""")
    assert errors == ["'Removed' is not defined"]


def test_objects_given_as_parameters_and_object_fields(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        INNER ::= CLASS { &code INTEGER UNIQUE, &Type } WITH SYNTAX { CODE &code TYPE &Type }
        OUTER ::= CLASS { &id INTEGER UNIQUE, &inner INNER }
            WITH SYNTAX { ID &id INNER &inner }
        Set{OUTER:o} OUTER ::= { o | { ID 2 INNER { CODE 20 TYPE BOOLEAN } } }
        one OUTER ::= { ID 1 INNER { CODE 10 TYPE INTEGER } }
        inner-code INTEGER ::= one.&inner.&code
        Wrapped ::= SEQUENCE {
            id    OUTER.&id ({Set{one}}),
            value OUTER.&inner.&Type ({Set{one}}{@id}) }
        END""")
    assert graph.values["M.inner-code"].value == 10
    rule = graph["M.Wrapped.value"].open_type
    assert set(rule.table) == {1, 2}
    assert all(type_id in graph.nodes and "#" not in type_id for type_id in rule.table.values())
    assert graph[rule.table[1]].kind.value == "INTEGER"
    assert graph[rule.table[2]].kind.value == "BOOLEAN"


def test_abstract_syntax(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        Pdu ::= SEQUENCE { n INTEGER }
        pdu-syntax ABSTRACT-SYNTAX ::= { Pdu IDENTIFIED BY { 1 2 3 } }
        Syntaxes ABSTRACT-SYNTAX ::= { pdu-syntax }
        Carrier ::= SEQUENCE {
            id    ABSTRACT-SYNTAX.&id ({Syntaxes}),
            value ABSTRACT-SYNTAX.&Type ({Syntaxes}{@id}) }
        END""")
    assert graph["M.Carrier.value"].open_type.table == {"1.2.3": "M.Pdu"}
