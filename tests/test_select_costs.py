"""The paper's figure 3 on hand-built graphs, and which types are knapsack items."""
from __future__ import annotations

from test_estimate_static import (P, alias, choice, graph_of, member, personnel_graph, prim,
                                  seq, seq_of)

from asn1c_hybrid.select.costs import Cost, knapsack_items, unit_costs
from asn1c_hybrid.typegraph import Kind, Range


def test_personnel_record_unit_costs():
    costs = unit_costs(personnel_graph())
    assert costs == {
        f"{P}.PersonnelRecord": Cost(1 + 6, 1 + 6),          # SET of six components
        f"{P}.PersonnelRecord.children": Cost(2, 1 + 2),     # list of (statically) two
        f"{P}.ChildInformation": Cost(1 + 2, 1 + 2),
        f"{P}.Name": Cost(1 + 3, 1 + 3),
    }


def test_choice_saves_two_units_whatever_its_size():
    g = graph_of(choice("M.C", *(member(f"a{i}", "M.X") for i in range(5))), prim("M.X"))
    assert unit_costs(g) == {"M.C": Cost(6, 2)}


def test_list_saving_follows_the_frequency_source():
    g = graph_of(seq_of("M.L", "M.X", Range(4, 4)), seq_of("M.S", "M.X", kind=Kind.SET_OF),
                 prim("M.X"))
    assert unit_costs(g) == {"M.L": Cost(2, 5), "M.S": Cost(2, 3)}
    assert unit_costs(g, {"M.L": 7.5, "M.S": 0.0}) == {"M.L": Cost(2, 8.5), "M.S": Cost(2, 1)}


def test_only_constructed_types_that_own_a_representation_are_items():
    g = graph_of(
        seq("M.Rec", member("x", "M.X")), alias("M.Other", "M.Rec", Kind.SEQUENCE),
        prim("M.X"), seq("M.Empty"), choice("M.C", member("x", "M.X")),
        seq_of("M.L", "M.X"), open_node())
    assert [n.id for n in knapsack_items(g)] == ["M.Rec", "M.Empty", "M.C", "M.L"]
    assert unit_costs(g)["M.Empty"] == Cost(1, 1)


def open_node():
    from asn1c_hybrid.typegraph import Node
    return Node("M.Any", Kind.OPEN, "ANY")
