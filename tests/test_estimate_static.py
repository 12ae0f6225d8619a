"""The static estimator on small type graphs built by hand, with counts computed by hand.

The builders here are shared by the other selection tests (test_select_*, test_explain,
test_profile*), which import them from this module."""
from __future__ import annotations

import math

import pytest

from asn1c_hybrid.estimate.cycles import spectral_radius
from asn1c_hybrid.typegraph import strongly_connected_components
from asn1c_hybrid.estimate.static import (ITEMS_PER_LIST, PRESENT_OPTIONAL, RECURSION_GAIN,
                                          static_estimate, static_frequencies)
from asn1c_hybrid.typegraph import (Component, Constraints, Kind, ModuleInfo, Node, Range, Tag,
                                    TagClass, TypeGraph, universal)

# ---- builders ---------------------------------------------------------------------------


def member(name: str, type_id: str, optional: bool = False, default: bool = False,
           extension: int | None = None) -> Component:
    return Component(name, type_id, (), optional=optional, has_default=default,
                     default=[] if default else None, extension=extension)


def prim(type_id: str, kind: Kind = Kind.INTEGER, builtin: str = "INTEGER") -> Node:
    return Node(type_id, kind, builtin)


def seq(type_id: str, *members: Component, kind: Kind = Kind.SEQUENCE) -> Node:
    return Node(type_id, kind, kind.value, components=list(members))


def choice(type_id: str, *alternatives: Component) -> Node:
    return Node(type_id, Kind.CHOICE, "CHOICE", components=list(alternatives))


def seq_of(type_id: str, element: str, size: Range | None = None,
           kind: Kind = Kind.SEQUENCE_OF) -> Node:
    return Node(type_id, kind, kind.value, element=Component("", element, ()),
                constraints=Constraints(size=size))


def alias(type_id: str, target: str, kind: Kind) -> Node:
    return Node(type_id, kind, kind.value, alias_of=target)


def graph_of(*nodes: Node, text: str = "M DEFINITIONS ::= BEGIN END") -> TypeGraph:
    graph = TypeGraph(modules=[ModuleInfo("M", None, "m.asn", "IMPLICIT")],
                      sources={"m.asn": text})
    for node in nodes:
        graph.add(node)
    graph.mark_recursion()
    return graph


P = "PersonnelRecordModule"


def app(n: int) -> tuple[Tag, ...]:
    return (Tag(TagClass.APPLICATION, n),)


def ctx(n: int) -> tuple[Tag, ...]:
    return (Tag(TagClass.CONTEXT, n),)


def personnel_graph() -> TypeGraph:
    """The personnel record of X.690 Annex A (examples/personnel) as the front end
    describes it, IMPLICIT TAGS applied: effective tags on every node and component."""
    ia5, set_tag = (universal(22),), (universal(17),)

    def tagged(c: Component, tags: tuple[Tag, ...]) -> Component:
        c.tags = tags
        return c

    nodes = [
        seq(f"{P}.PersonnelRecord",
            tagged(member("name", f"{P}.Name"), app(1)),
            tagged(member("title", f"{P}.PersonnelRecord.title"), ctx(0)),
            tagged(member("number", f"{P}.EmployeeNumber"), app(2)),
            tagged(member("dateOfHire", f"{P}.Date"), ctx(1)),
            tagged(member("nameOfSpouse", f"{P}.Name"), ctx(2)),
            tagged(member("children", f"{P}.PersonnelRecord.children", default=True), ctx(3)),
            kind=Kind.SET),
        prim(f"{P}.PersonnelRecord.title", Kind.BYTES, "IA5String"),
        seq_of(f"{P}.PersonnelRecord.children", f"{P}.ChildInformation"),
        seq(f"{P}.ChildInformation",
            tagged(member("name", f"{P}.Name"), app(1)),
            tagged(member("dateOfBirth", f"{P}.Date"), ctx(0)),
            kind=Kind.SET),
        seq(f"{P}.Name",
            tagged(member("givenName", f"{P}.Name.givenName"), ia5),
            tagged(member("initial", f"{P}.Name.initial"), ia5),
            tagged(member("familyName", f"{P}.Name.familyName"), ia5)),
        prim(f"{P}.Name.givenName", Kind.BYTES, "IA5String"),
        prim(f"{P}.Name.initial", Kind.BYTES, "IA5String"),
        prim(f"{P}.Name.familyName", Kind.BYTES, "IA5String"),
        prim(f"{P}.EmployeeNumber"),
        prim(f"{P}.Date", Kind.BYTES, "IA5String"),
    ]
    tags = {"PersonnelRecord": app(0), "PersonnelRecord.title": ctx(0),
            "PersonnelRecord.children": ctx(3), "ChildInformation": set_tag,
            "Name": app(1), "Name.givenName": ia5,
            "Name.initial": ia5, "Name.familyName": ia5, "EmployeeNumber": app(2),
            "Date": app(3)}
    for node in nodes:
        node.tags = tags[node.id.split(".", 1)[1]]
    nodes[2].element.tags = set_tag
    graph = graph_of(*nodes, text="-- personnel record, built by hand --")
    graph.modules = [ModuleInfo(P, None, "personnel.asn", "IMPLICIT")]
    return graph


# ---- the weights, pinned ----------------------------------------------------------------


def test_documented_weights_are_the_ones_pinned_below():
    # every hand count below assumes these values; change them together
    assert (PRESENT_OPTIONAL, ITEMS_PER_LIST, RECURSION_GAIN) == (0.5, 2.0, 0.5)


def test_personnel_record_counts_by_hand():
    f = static_frequencies(personnel_graph())
    # one PersonnelRecord per message; children is DEFAULT: present one time in two;
    # a list holds two elements; Name occurs as name, nameOfSpouse and in each child.
    expected = {
        "PersonnelRecord": 1, "PersonnelRecord.title": 1, "EmployeeNumber": 1,
        "PersonnelRecord.children": 0.5,
        "ChildInformation": 0.5 * 2,
        "Name": 1 + 1 + 1,
        "Date": 1 + 1,
        "Name.givenName": 3, "Name.initial": 3, "Name.familyName": 3,
    }
    assert f == {f"{P}.{k}": pytest.approx(v, abs=1e-15) for k, v in expected.items()}
    assert list(f) == list(personnel_graph().nodes)          # every node, in spec order


def test_items_per_list_value():
    est = static_estimate(personnel_graph())
    assert est.items_per_value == {f"{P}.PersonnelRecord.children": 2.0}


def test_optional_default_and_extension_members_weigh_one_half():
    g = graph_of(
        seq("M.Top", member("a", "M.A"), member("b", "M.B", optional=True),
            member("c", "M.C", default=True), member("d", "M.D", extension=1)),
        prim("M.A"), prim("M.B"), prim("M.C"), prim("M.D"))
    f = static_frequencies(g)
    assert (f["M.A"], f["M.B"], f["M.C"], f["M.D"]) == (1, 0.5, 0.5, 0.5)


def test_choice_alternatives_share_one_value():
    g = graph_of(
        choice("M.Top", member("x", "M.X"), member("y", "M.Y"), member("z", "M.X"),
               member("w", "M.W")),
        prim("M.X"), prim("M.Y"), prim("M.W"))
    f = static_frequencies(g)
    assert (f["M.X"], f["M.Y"], f["M.W"]) == (0.5, 0.25, 0.25)   # X is two alternatives


def test_single_alternative_choice_is_certain():
    g = graph_of(choice("M.Top", member("x", "M.X")), prim("M.X"))
    assert static_frequencies(g)["M.X"] == 1


@pytest.mark.parametrize("size, items", [
    (None, 2.0),                        # unconstrained: the default length
    (Range(5, 5), 5.0),                 # SIZE(5): exactly five
    (Range(1, None), 2.0),              # SIZE(1..MAX)
    (Range(3, 10), 3.0),                # the default, raised to the lower bound
    (Range(0, 1), 1.0),                 # ... and lowered to the upper bound
    (Range(None, 0), 0.0),
])
def test_list_length_comes_from_the_size_constraint(size, items):
    g = graph_of(seq_of("M.L", "M.E", size), prim("M.E"))
    est = static_estimate(g)
    assert est.frequencies["M.E"] == items
    assert est.items_per_value["M.L"] == items


def test_nested_lists_multiply():
    g = graph_of(seq_of("M.Outer", "M.Inner", Range(3, 3)),
                 seq_of("M.Inner", "M.E", Range(4, 4)), prim("M.E"))
    assert static_frequencies(g)["M.E"] == 12


def test_several_pdus_are_equally_likely_messages():
    g = graph_of(seq("M.A", member("x", "M.X"), member("y", "M.X")),
                 seq("M.B", member("x", "M.X")), prim("M.X"))
    assert [n.id for n in g.roots()] == ["M.A", "M.B"]
    f = static_frequencies(g)
    assert (f["M.A"], f["M.B"], f["M.X"]) == (0.5, 0.5, 1.5)
    only_b = static_frequencies(g, ["M.B"])
    assert (only_b["M.A"], only_b["M.B"], only_b["M.X"]) == (0, 1, 1)
    assert static_frequencies(g, [g["M.A"], "M.A"])["M.X"] == 2      # duplicates once


def test_unknown_pdu_is_refused():
    with pytest.raises(KeyError, match="M.Nope"):
        static_frequencies(personnel_graph(), ["M.Nope"])


def test_alias_values_are_counted_under_the_alias():
    g = graph_of(
        seq("M.Top", member("a", "M.Alias"), member("b", "M.Rec")),
        alias("M.Alias", "M.Rec", Kind.SEQUENCE),
        seq("M.Rec", member("x", "M.X"), member("y", "M.Y", optional=True)),
        prim("M.X"), prim("M.Y"))
    est = static_estimate(g)
    f = est.frequencies
    assert (f["M.Alias"], f["M.Rec"], f["M.X"], f["M.Y"]) == (1, 1, 2, 1)
    # the selection adds them up: both values use Rec's routines
    assert est.representation_frequencies(g)["M.Rec"] == 2


def test_open_type_table_and_contained_types():
    from asn1c_hybrid.typegraph import OpenTypeRule
    g = graph_of(
        seq("M.Top", member("id", "M.Id"), member("value", "M.Value"),
            member("wrapped", "M.Wrapped")),
        prim("M.Id", Kind.BYTES, "OBJECT IDENTIFIER"),
        Node("M.Value", Kind.OPEN, "ANY", open_type=OpenTypeRule(
            ("id",), 0, {"1.2.1": "M.A", "1.2.2": "M.B", "1.2.3": "M.A"})),
        Node("M.Wrapped", Kind.BYTES, "OCTET STRING", contained="M.B"),
        seq("M.A", member("x", "M.Id")), seq("M.B", member("x", "M.Id")))
    f = static_frequencies(g, ["M.Top"])
    assert f["M.A"] == pytest.approx(2 / 3)
    assert f["M.B"] == pytest.approx(1 / 3 + 1)


# ---- recursion --------------------------------------------------------------------------


def test_recursive_tree_converges_to_the_hand_solution():
    # Tree ::= SEQUENCE { value INTEGER, children SEQUENCE OF Tree }
    # Cycle Tree -> children (certain, 1) -> Tree (uncertain, 2).  Its radius sqrt(2 s)
    # must be RECURSION_GAIN = 1/2, so the list's weight is scaled by s = 1/8: a list
    # holds 1/4 of a tree.  Tree = 1 + children/4 and children = Tree give Tree = 4/3.
    g = graph_of(
        seq("M.Tree", member("value", "M.Int"), member("children", "M.Tree.children")),
        seq_of("M.Tree.children", "M.Tree"), prim("M.Int"))
    assert g["M.Tree"].recursive
    est = static_estimate(g)
    f = est.frequencies
    assert f["M.Tree"] == pytest.approx(4 / 3, rel=1e-9)
    assert f["M.Tree.children"] == pytest.approx(4 / 3, rel=1e-9)   # one per tree
    assert f["M.Int"] == pytest.approx(4 / 3, rel=1e-9)
    assert est.items_per_value["M.Tree.children"] == pytest.approx(1 / 4, rel=1e-9)


def test_recursion_already_below_the_gain_is_left_alone():
    # List ::= SEQUENCE { head INTEGER, tail List OPTIONAL }: radius 1/2 already
    g = graph_of(seq("M.List", member("head", "M.Int"), member("tail", "M.List", optional=True)),
                 prim("M.Int"))
    f = static_frequencies(g)
    assert f["M.List"] == pytest.approx(2, rel=1e-12)        # 1 + 1/2 + 1/4 + ...
    assert f["M.Int"] == pytest.approx(2, rel=1e-12)


def test_mutual_recursion_through_a_choice():
    # Filter ::= CHOICE { and SET OF Filter, not Filter, item INTEGER }
    # Filter -> and (1/3), and -> Filter (2), Filter -> Filter (1/3), all uncertain.
    # Scaled by s: the matrix [[s/3, s/3], [2s, 0]] has radius
    # s (1/3 + sqrt(1/9 + 8/3)) / 2 = 1/2, so s = 1 / (1/3 + 5/3) = 1/2.
    # Then Filter = 1 + Filter/6 + and, and = Filter/6: Filter = 3/2, and = 1/4.
    g = graph_of(
        choice("M.Filter", member("and", "M.Filter.and"), member("not", "M.Filter"),
               member("item", "M.Int")),
        seq_of("M.Filter.and", "M.Filter", kind=Kind.SET_OF), prim("M.Int"))
    est = static_estimate(g)
    f = est.frequencies
    assert f["M.Filter"] == pytest.approx(3 / 2, rel=1e-9)
    assert f["M.Filter.and"] == pytest.approx(1 / 4, rel=1e-9)
    assert f["M.Int"] == pytest.approx(3 / 2 * 1 / 3, rel=1e-9)      # outside the cycle
    assert est.items_per_value["M.Filter.and"] == pytest.approx(1.0, rel=1e-9)


def test_cycle_of_mandatory_members_stays_finite():
    # A ::= SEQUENCE { b B }, B ::= SEQUENCE { a A }: no finite value exists; the
    # estimate scales both references by 1/2 all the same: A = 1 + B/2, B = A/2.
    g = graph_of(seq("M.Top", member("a", "M.A")),
                 seq("M.A", member("b", "M.B")), seq("M.B", member("a", "M.A")))
    f = static_frequencies(g)
    assert all(math.isfinite(v) for v in f.values())
    assert f["M.A"] == pytest.approx(4 / 3, rel=1e-9)
    assert f["M.B"] == pytest.approx(2 / 3, rel=1e-9)


def test_long_recursive_cycle_converges():
    n = 60
    nodes = [seq(f"M.T{i}", member("next", f"M.T{(i + 1) % n}", optional=True),
                 member("more", f"M.L{i}")) for i in range(n)]
    nodes += [seq_of(f"M.L{i}", f"M.T{(i + 7) % n}") for i in range(n)]
    g = graph_of(seq("M.Top", member("t", "M.T0")), *nodes)
    f = static_frequencies(g)
    assert all(math.isfinite(v) and v >= 0 for v in f.values())
    assert f["M.T0"] >= 1


# ---- the cycle helpers ------------------------------------------------------------------


def test_strongly_connected_components_in_reverse_topological_order():
    succ = {"a": ["b"], "b": ["c", "a"], "c": ["d"], "d": ["c"], "e": []}
    comps = strongly_connected_components(list(succ), lambda v: succ[v])
    assert sorted(map(sorted, comps)) == [["a", "b"], ["c", "d"], ["e"]]
    position = {v: k for k, comp in enumerate(comps) for v in comp}
    for v, outs in succ.items():
        for w in outs:
            assert position[v] >= position[w]


def test_spectral_radius_of_periodic_cycles():
    # a 3-cycle of weights 2, 3, 4 has radius (2*3*4) ** (1/3), though period 3
    m = {"a": {"b": 2.0}, "b": {"c": 3.0}, "c": {"a": 4.0}}
    assert spectral_radius(["a", "b", "c"], m) == pytest.approx(24 ** (1 / 3), rel=1e-9)
    assert spectral_radius(["a"], {"a": {"a": 0.25}}) == pytest.approx(0.25)
