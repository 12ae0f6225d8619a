"""The selection on the personnel record: knapsack choices and totals computed by hand.

Per item (static frequency x unit saving per value = row saving, unit cost):
    Name             3   x 4 = 12     cost 4
    PersonnelRecord  1   x 7 =  7     cost 7
    ChildInformation 1   x 3 =  3     cost 3
    children         0.5 x 3 =  1.5   cost 2
all compiled: cost 16, saving 23.5.
"""
from __future__ import annotations

import pytest
from test_estimate_static import (P, alias, graph_of, member, personnel_graph, prim, seq)

from asn1c_hybrid.estimate.static import static_frequencies
from asn1c_hybrid.select.budget import Budget, BudgetError, parse_budget
from asn1c_hybrid.select.costs import unit_costs
from asn1c_hybrid.select.selection import SelectionError, select
from asn1c_hybrid.typegraph import Kind

NAME, REC, CHILD, CHILDREN = (f"{P}.Name", f"{P}.PersonnelRecord", f"{P}.ChildInformation",
                              f"{P}.PersonnelRecord.children")


def personnel_selection(budget, **kw):
    g = personnel_graph()
    return select(g, static_frequencies(g), unit_costs(g), budget, **kw)


@pytest.mark.parametrize("budget, capacity, compiled, cost_used, saving", [
    ("0%", 0, set(), 0, 0),
    ("20%", 3.2, {CHILD}, 3, 3),                     # 3 beats children's 1.5
    ("25%", 4, {NAME}, 4, 12),
    ("6", 6, {NAME, CHILDREN}, 6, 13.5),
    ("50%", 8, {NAME, CHILD}, 7, 15),
    ("75%", 12, {NAME, REC}, 11, 19),                # beats Name+Child+children (16.5)
    ("100%", 16, {NAME, REC, CHILD, CHILDREN}, 16, 23.5),
    ("1000", 1000, {NAME, REC, CHILD, CHILDREN}, 16, 23.5),
])
def test_personnel_budgets(budget, capacity, compiled, cost_used, saving):
    s = personnel_selection(budget)
    assert s.compiled == compiled
    assert (s.budget, s.cost_used, s.cost_all, s.saving, s.saving_max) == \
        pytest.approx((capacity, cost_used, 16, saving, 23.5))


def test_rows_rank_by_saving():
    s = personnel_selection("25%")
    assert [(r.id, r.frequency, r.cost, r.saving, r.compiled) for r in s.rows] == [
        (NAME, 3, 4, 12, True), (REC, 1, 7, 7, False), (CHILD, 1, 3, 3, False),
        (CHILDREN, 0.5, 2, 1.5, False)]


def test_forced_types_take_their_cost_first():
    s = personnel_selection("25%", force_compiled=[REC])       # 7 > 4: nothing else fits
    assert s.compiled == {REC} and s.cost_used == 7
    s = personnel_selection("50%", force_interpreted=[NAME])   # 8 left: PR (7) wins
    assert s.compiled == {REC}
    with pytest.raises(SelectionError, match="both"):
        personnel_selection("50%", force_compiled=[NAME], force_interpreted=[NAME])
    with pytest.raises(SelectionError, match="INTEGER"):
        personnel_selection("50%", force_compiled=[f"{P}.EmployeeNumber"])
    with pytest.raises(SelectionError, match="no such type"):
        personnel_selection("50%", force_compiled=["M.Nope"])


def test_aliases_add_to_the_type_they_name():
    g = graph_of(
        seq("M.Top", member("a", "M.Alias"), member("b", "M.Rec"), member("c", "M.Other")),
        alias("M.Alias", "M.Rec", Kind.SEQUENCE),
        seq("M.Rec", member("x", "M.X")), seq("M.Other", member("x", "M.X")), prim("M.X"))
    s = select(g, static_frequencies(g), unit_costs(g), "2")
    rows = {r.id: r for r in s.rows}
    assert set(rows) == {"M.Top", "M.Rec", "M.Other"}          # the alias is no item
    assert rows["M.Rec"].frequency == 2 and rows["M.Rec"].saving == 4
    assert s.compiled == {"M.Rec"}


def test_a_budget_covering_everything_compiles_even_unseen_types():
    g = graph_of(seq("M.A", member("x", "M.X")), seq("M.B", member("x", "M.X")), prim("M.X"))
    f = static_frequencies(g, ["M.A"])                        # B never occurs
    assert select(g, f, unit_costs(g), "100%").compiled == {"M.A", "M.B"}
    assert select(g, f, unit_costs(g), "99%").compiled == {"M.A"}   # least cost otherwise


def test_json_form():
    data = personnel_selection("25%").to_json()
    assert list(data) == ["cost_model", "unit", "budget", "cost_used", "cost_all", "saving",
                          "saving_max", "fixed_cost", "types"]
    assert data["types"][0] == {"id": NAME, "frequency": 3, "cost": 4, "saving": 12,
                                "compiled": True, "reason": None}
    assert (data["budget"], data["cost_all"], data["saving_max"]) == (4, 16, 23.5)
    assert isinstance(data["budget"], int)


@pytest.mark.parametrize("text, expected", [
    ("20%", Budget(20, True)), ("0%", Budget(0, True)), ("12.5 %", Budget(12.5, True)),
    ("1500", Budget(1500, False)), (" 0 ", Budget(0, False)), (".5", Budget(0.5, False)),
])
def test_budget_parsing(text, expected):
    assert parse_budget(text) == expected


@pytest.mark.parametrize("text", ["", "%", "-5", "20%%", "abc", "101%", "1e3", "5 bytes"])
def test_bad_budgets(text):
    with pytest.raises(BudgetError):
        parse_budget(text)


def test_percent_capacity_is_exact():
    # 29% of 100 is 29 exactly (29/100 * 100 in doubles is 28.999999999999996)
    assert parse_budget("29%").capacity(100) == 29
