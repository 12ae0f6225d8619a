"""typebuilder.py: nodes, identifiers, aliases, tags, components and instances.

Expected tags come from X.680 clause 31 (tagging) and 25.3 (automatic tags), worked by
hand, and from the comments of asn1c's conformance modules that state them.
"""
from __future__ import annotations

import pytest

from asn1c_hybrid.typegraph import Kind, Range, Tag, TagClass, universal

APP, CTX, PRV = TagClass.APPLICATION, TagClass.CONTEXT, TagClass.PRIVATE


def ctx(n):
    return Tag(CTX, n)


def tags(graph, node_id):
    return graph[node_id].tags


def component_tags(graph, node_id):
    return {c.name: c.tags for c in graph[node_id].members()}


def test_every_inline_type_gets_a_node(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE {
            a INTEGER,
            b SEQUENCE OF SEQUENCE { x BOOLEAN, y SET OF IA5String },
            c Ref }
        Ref ::= NULL
        END""")
    assert list(g.nodes) == ["M.T", "M.T.a", "M.T.b", "M.T.b.*", "M.T.b.*.x", "M.T.b.*.y",
                             "M.T.b.*.y.*", "M.Ref"]
    assert g["M.T.b"].element.type == "M.T.b.*"
    assert [c.type for c in g["M.T"].components] == ["M.T.a", "M.T.b", "M.Ref"]
    assert g["M.T.b.*"].is_anonymous and not g["M.T"].is_anonymous


def test_aliases_and_their_tags(spec):
    """asn1c test 37 gives the tags of these CHOICE references in its comments."""
    g = spec.load("""
        M DEFINITIONS IMPLICIT TAGS ::= BEGIN
        Choice2 ::= [2] CHOICE { a OCTET STRING, b INTEGER }
        Choice3 ::= [3] EXPLICIT Choice2
        Choice4 ::= [4] IMPLICIT Choice2
        Choice5 ::= Choice2
        Plain ::= CHOICE { a OCTET STRING }
        Wrapped ::= [7] Plain
        END""")
    assert tags(g, "M.Choice2") == (ctx(2),)
    assert (g["M.Choice3"].alias_of, tags(g, "M.Choice3")) == ("M.Choice2", (ctx(3), ctx(2)))
    assert tags(g, "M.Choice4") == (ctx(4),)
    assert tags(g, "M.Choice5") == (ctx(2),)
    assert tags(g, "M.Wrapped") == (ctx(7),)          # IMPLICIT default, but untagged CHOICE
    assert g["M.Wrapped"].kind == Kind.CHOICE and g.target("M.Wrapped").id == "M.Plain"


def test_multiple_tags(spec):
    """asn1c test 65: its comments give the member tags [1][4][6], [2][4][6], [3][6]."""
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        T1 ::= [2] EXPLICIT T2
        T2 ::= [3] EXPLICIT T3
        T3 ::= [4] IMPLICIT T4
        T4 ::= [5] EXPLICIT T5
        T5 ::= [6] IMPLICIT T6
        T6 ::= REAL
        Ts ::= [123] IMPLICIT SEQUENCE {
            m1 [1] IMPLICIT T2,
            m2 [2] EXPLICIT T3 OPTIONAL,
            m3 [3] IMPLICIT T3 }
        END""")
    assert tags(g, "M.T6") == (universal(9),)
    assert tags(g, "M.T1") == (ctx(2), ctx(3), ctx(4), ctx(6))
    assert component_tags(g, "M.Ts") == {"m1": (ctx(1), ctx(4), ctx(6)),
                                        "m2": (ctx(2), ctx(4), ctx(6)),
                                        "m3": (ctx(3), ctx(6))}
    assert tags(g, "M.Ts") == (ctx(123),)


def test_explicit_tags_keep_the_universal_tag(spec):
    g = spec.load("""
        M DEFINITIONS EXPLICIT TAGS ::= BEGIN
        T ::= [5] INTEGER
        U ::= [5] IMPLICIT INTEGER
        V ::= [APPLICATION 1] SEQUENCE { a [PRIVATE 2] BOOLEAN, b [0] IMPLICIT NULL }
        END""")
    assert tags(g, "M.T") == (ctx(5), universal(2))
    assert tags(g, "M.U") == (ctx(5),)
    assert tags(g, "M.V") == (Tag(APP, 1), universal(16))
    assert component_tags(g, "M.V") == {"a": (Tag(PRV, 2), universal(1)), "b": (ctx(0),)}


def test_open_types_and_choices_are_tagged_explicitly(spec):
    g = spec.load("""
        M DEFINITIONS IMPLICIT TAGS ::= BEGIN
        C ::= CHOICE { i INTEGER, b BOOLEAN }
        T ::= SEQUENCE { c [0] C, any [1] ANY, open [2] TYPE-IDENTIFIER.&Type }
        END""")
    assert component_tags(g, "M.T") == {"c": (ctx(0),), "any": (ctx(1),), "open": (ctx(2),)}
    assert tags(g, "M.T.any") == () and g["M.T.any"].kind == Kind.OPEN
    assert tags(g, "M.C") == ()


def test_implicit_keyword_on_untagged_choice_is_an_error(spec):
    assert spec.errors("""
        M DEFINITIONS ::= BEGIN
        C ::= CHOICE { i INTEGER }
        T ::= [0] IMPLICIT C
        END""") == ["IMPLICIT cannot tag an untagged CHOICE: its tag is not known"]


def test_automatic_tags(spec):
    """X.680 25.3: none of the list is tagged -> [0], [1], ... implicit (explicit for
    an untagged CHOICE), root components first, then extension additions."""
    g = spec.load("""
        M DEFINITIONS AUTOMATIC TAGS ::= BEGIN
        C ::= CHOICE { x INTEGER, y BOOLEAN }
        S ::= SEQUENCE { a INTEGER, c C, ..., b BOOLEAN, [[ d NULL, e NULL ]], ..., z REAL }
        Tagged ::= SEQUENCE { a [5] INTEGER, b BOOLEAN }
        END""")
    assert component_tags(g, "M.S") == {
        "a": (ctx(0),), "c": (ctx(1),), "z": (ctx(2),),
        "b": (ctx(3),), "d": (ctx(4),), "e": (ctx(5),)}
    assert component_tags(g, "M.C") == {"x": (ctx(0),), "y": (ctx(1),)}
    assert component_tags(g, "M.Tagged") == {"a": (ctx(5),), "b": (universal(1),)}


def test_components_of(spec):
    """X.680 25.5: root components copied; automatic tagging applies after the copy
    (asn1c tests 55 and 57)."""
    g = spec.load("""
        Auto DEFINITIONS AUTOMATIC TAGS ::= BEGIN
        IMPORTS Base FROM Explicit;
        Second ::= SEQUENCE { a IA5String, COMPONENTS OF Base, b UniversalString }
        END""", """
        Explicit DEFINITIONS EXPLICIT TAGS ::= BEGIN
        Base ::= SEQUENCE { x INTEGER, y [7] BOOLEAN DEFAULT TRUE, ..., ignored NULL }
        END""")
    second = g["Auto.Second"]
    assert [c.name for c in second.components] == ["a", "x", "y", "b"]
    assert component_tags(g, "Auto.Second") == {
        "a": (ctx(0),), "x": (ctx(1),), "y": (ctx(2), universal(1)), "b": (ctx(3),)}
    y = second.components[2]
    assert y.has_default and y.default is True and y.type == "Explicit.Base.y"


def test_components_of_needs_the_same_kind(spec):
    assert spec.errors("""
        M DEFINITIONS ::= BEGIN
        S ::= SEQUENCE { COMPONENTS OF T }
        T ::= SET { a INTEGER }
        END""") == ["COMPONENTS OF in a SEQUENCE must reference a SEQUENCE type, not SET"]


def test_extension_additions_and_groups(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        S ::= SEQUENCE { a INTEGER, ..., b BOOLEAN, [[ c NULL, d NULL ]], e REAL, ..., f INTEGER }
        C ::= CHOICE { x INTEGER, ... }
        E ::= ENUMERATED { a, b, ..., c }
        Closed ::= SEQUENCE { a INTEGER }
        END""")
    got = [(c.name, c.extension, c.group) for c in g["M.S"].components]
    assert got == [("a", None, None), ("b", 0, None), ("c", 1, 0), ("d", 1, 0),
                   ("e", 2, None), ("f", None, None)]
    assert g["M.S"].extensible and g["M.C"].extensible and not g["M.Closed"].extensible
    assert g["M.E"].named_numbers == {"a": 0, "b": 1, "c": 2}
    assert g["M.E"].enum_extension == ["c"]


def test_extensibility_implied(spec):
    g = spec.load("""
        M DEFINITIONS EXTENSIBILITY IMPLIED ::= BEGIN
        S ::= SEQUENCE { a INTEGER }
        E ::= ENUMERATED { a }
        END""")
    assert g["M.S"].extensible and g["M.E"].extensible and g["M.E"].enum_extension == []
    assert g.modules[0].extensibility_implied


@pytest.mark.parametrize("items, expected", [
    ("red, green, blue(4), alpha", {"red": 0, "green": 1, "blue": 4, "alpha": 2}),
    ("a, b(3), ..., c(1)", {"a": 0, "b": 3, "c": 1}),
    ("a, b, ..., c(3), d", {"a": 0, "b": 1, "c": 3, "d": 4}),
    ("a, z(25), ..., d", {"a": 0, "z": 25, "d": 1}),
    ("a(-5), b(-4), c", {"a": -5, "b": -4, "c": 0}),
])
def test_enumeration_numbers(spec, items, expected):
    """X.680 20: the examples of asn1c test 03 and 129-OK."""
    g = spec.load(f"M DEFINITIONS ::= BEGIN E ::= ENUMERATED {{ {items} }} END")
    assert g["M.E"].named_numbers == expected


def test_integer_reference_with_a_storage_changing_constraint_is_a_copy(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        Base ::= INTEGER { zero(0) }
        Port ::= Base (0..65535)
        Same ::= Base
        Str ::= IA5String
        Short ::= Str (SIZE (1..8))
        END""")
    port = g["M.Port"]
    assert port.alias_of is None and port.kind == Kind.INTEGER
    assert port.constraints.value == Range(0, 65535)
    assert port.named_numbers == {"zero": 0}
    assert g["M.Same"].alias_of == "M.Base"
    short = g["M.Short"]
    assert short.alias_of == "M.Str" and short.constraints.size == Range(1, 8)


def test_parameterized_types_are_instantiated_where_used(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        Pair{A, B} ::= SEQUENCE { first A, second B }
        Named ::= Pair{INTEGER, Other}
        Holder ::= SEQUENCE { inline Pair{BOOLEAN, SEQUENCE { z NULL }} }
        Other ::= NULL
        Narrow{T, INTEGER:low} ::= T (low..MAX)
        Three ::= Narrow{INTEGER, 3}
        END""")
    named = g["M.Named"]
    assert named.parameterized_from == "M.Pair{INTEGER, Other}"
    assert [c.type for c in named.components] == ["M.Named.first", "M.Other"]
    assert g["M.Named.first"].kind == Kind.INTEGER
    inline = g["M.Holder.inline"]
    assert inline.parameterized_from.startswith("M.Pair{BOOLEAN")
    assert [c.type for c in inline.components] == ["M.Holder.inline.first",
                                                   "M.Holder.inline.second"]
    assert g["M.Holder.inline.second.z"].kind == Kind.NULL
    assert g["M.Three"].constraints.value == Range(3, None)
    assert "M.Pair" not in g.nodes                     # only instances are nodes


def test_recursive_parameterized_type(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        Tree{T} ::= SEQUENCE { value T, children SEQUENCE OF Tree{T} }
        IntTree ::= Tree{INTEGER}
        END""")
    assert g["M.IntTree.children"].element.type == "M.IntTree"
    assert g["M.IntTree"].recursive


def test_dummy_reference_is_tagged_explicitly(spec):
    """X.680 31.2.7: an untagged dummy reference is tagged explicitly."""
    g = spec.load("""
        M DEFINITIONS IMPLICIT TAGS ::= BEGIN
        W{T} ::= SEQUENCE { v [0] T }
        X ::= W{INTEGER}
        END""")
    assert component_tags(g, "M.X") == {"v": (ctx(0), universal(2))}


def test_selection_type(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        C ::= CHOICE { a [1] INTEGER, b BOOLEAN }
        S ::= SEQUENCE { x a < C, y b < C }
        END""")
    assert component_tags(g, "M.S") == {"x": (ctx(1), universal(2)), "y": (universal(1),)}
    assert g["M.S.x"].alias_of == "M.C.a"


def test_external_embedded_pdv_and_instance_of(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { e EXTERNAL, p EMBEDDED PDV, s CHARACTER STRING,
                         i INSTANCE OF TYPE-IDENTIFIER }
        END""")
    external = g["M.T.e"]
    assert (external.kind, external.builtin, external.tags) == \
        (Kind.SEQUENCE, "EXTERNAL", (universal(8),))
    assert [c.name for c in external.components] == [
        "direct-reference", "indirect-reference", "data-value-descriptor", "encoding"]
    encoding = g["M.T.e.encoding"]
    assert component_tags(g, "M.T.e.encoding") == {
        "single-ASN1-type": (ctx(0),), "octet-aligned": (ctx(1),), "arbitrary": (ctx(2),)}
    assert encoding.kind == Kind.CHOICE
    pdv = g["M.T.p"]
    assert pdv.tags == (universal(11),)
    assert component_tags(g, "M.T.p") == {"identification": (ctx(0),),
                                         "data-value-descriptor": (ctx(1),),
                                         "data-value": (ctx(2),)}
    assert g["M.T.s"].tags == (universal(29),)
    instance = g["M.T.i"]
    assert (instance.builtin, instance.tags) == ("INSTANCE OF", (universal(8),))
    assert component_tags(g, "M.T.i") == {"type-id": (universal(6),),
                                         "value": (ctx(0),)}


def test_kinds_of_builtin_types(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a OBJECT IDENTIFIER, b RELATIVE-OID, c UTCTime, d UTF8String,
                         e OCTET STRING, f BIT STRING, g REAL, h NULL, i ANY,
                         j GeneralizedTime, k DATE, l BMPString }
        END""")
    kinds = {c.name: (g[c.type].kind, g[c.type].builtin, g[c.type].tags)
             for c in g["M.T"].components}
    assert kinds["a"] == (Kind.BYTES, "OBJECT IDENTIFIER", (universal(6),))
    assert kinds["b"] == (Kind.BYTES, "RELATIVE-OID", (universal(13),))
    assert kinds["c"] == (Kind.BYTES, "UTCTime", (universal(23),))
    assert kinds["d"] == (Kind.BYTES, "UTF8String", (universal(12),))
    assert kinds["f"][0] == Kind.BIT_STRING and kinds["g"][0] == Kind.REAL
    assert kinds["i"] == (Kind.OPEN, "ANY", ())
    assert kinds["k"] == (Kind.BYTES, "DATE", (universal(31),))
    assert kinds["l"] == (Kind.BYTES, "BMPString", (universal(30),))


def test_value_types_get_nodes_under_the_value(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        limit INTEGER (0..9) ::= 5
        other T ::= TRUE
        T ::= BOOLEAN
        END""")
    assert g.values["M.limit"].type == "M.limit.type"
    assert g["M.limit.type"].constraints.value == Range(0, 9)
    assert g.values["M.other"].type == "M.T"
    assert g.roots() == [g["M.T"]]


def test_x208_unnamed_components(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        Tc ::= CHOICE { INTEGER, OBJECT IDENTIFIER, Tc2, UTF8String }
        Tc2 ::= NULL
        END""")
    assert [c.name for c in g["M.Tc"].components] == ["integer", "object-identifier", "tc2",
                                                      "uTF8String"]
    assert len(g.diagnostics.items) == 4


def test_duplicate_components(spec):
    assert spec.errors("""
        M DEFINITIONS ::= BEGIN
        S ::= SEQUENCE { a INTEGER, a BOOLEAN }
        END""") == ["component 'a' is defined twice (line 3)"]


def test_recursion_is_marked(spec):
    g = spec.load("""
        M DEFINITIONS ::= BEGIN
        A ::= SEQUENCE { b B OPTIONAL }
        B ::= SEQUENCE { a A OPTIONAL }
        C ::= SEQUENCE { n INTEGER }
        L ::= SEQUENCE OF L
        END""")
    assert g["M.A"].recursive and g["M.B"].recursive and g["M.L"].recursive
    assert not g["M.C"].recursive
