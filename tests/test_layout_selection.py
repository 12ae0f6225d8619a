"""Layouts as knapsack items beside the types (select/joint.py, select/layout_costs.py,
docs/layouts.md "Chosen by the knapsack").

The joint solver is checked against brute force on small instances; the messages made
for measuring layouts against the layouts they are made for; the measurements against
what they must show (a fast path is the fastest path); and a selection with
`--layouts auto` against its budget, its explanation and the code it generates."""
from __future__ import annotations

import itertools
import json
import random
import shutil
import sys
from fractions import Fraction

import pytest

import cbuild
from specbuilds import SPEC_SETS, SPECS

from asn1c_hybrid import api
from asn1c_hybrid.cli import main as cli_main
from asn1c_hybrid.emit import EmitOptions, generate
from asn1c_hybrid.emit.fastpaths import Refused, example, layouts_in
from asn1c_hybrid.emit.layout import build_layout
from asn1c_hybrid.layouts import from_text as parse_text, parse, render
from asn1c_hybrid.select.joint import solve_joint
from asn1c_hybrid.select import layout_costs
from asn1c_hybrid.select.costs import knapsack_items
from asn1c_hybrid.select.layout_costs import measure_layouts
from asn1c_hybrid.select.selection import BUDGET_EXHAUSTED, NO_SAVING, TOO_COSTLY

sys.path.insert(0, str(cbuild.REPO))
from bench import corpora  # noqa: E402

SNMP_SPECS = SPEC_SETS["snmp-traffic"].files
LDAP_SPECS = sorted((SPECS / "IETF_LDAP_RFC4511").glob("*.asn"))
SNMP_PDU = "SNMP-Traffic.Message"
LDAP_PDU = "Lightweight-Directory-Access-Protocol-V3.LDAPMessage"
measuring = pytest.mark.skipif(shutil.which("valgrind") is None or shutil.which("cc") is None,
                               reason="measuring layouts needs valgrind and a C compiler")


# ---- the solver ---------------------------------------------------------------------------

def _true_saving(x, y, type_saving, layout_saving, lost, forced=(), miss=0, coverage=None):
    misses = miss * (1 - sum(coverage[j] for j in y)) if y else 0
    return (sum(type_saving[i] for i in x) + sum(layout_saving[j] for j in y)
            - sum(v for (i, j), v in lost.items() if (i in x or i in forced) and j in y)
            - misses)


def test_a_layout_that_covers_a_types_values_is_not_counted_twice():
    # compiling A saves 100, all of it on L's messages; L's fast path saves 120 there:
    # an additive knapsack would take both (220) where both save 120 (L alone, cheaper)
    x, y = solve_joint(["A"], {"A": 100}, {"A": 10}, ["L"], {"L": 120}, {"L": 10}, 0,
                       {("A", "L"): 100}, Fraction(20))
    assert (x, y) == (set(), {"L"})
    # with half of A's saving elsewhere, both are worth it
    x, y = solve_joint(["A"], {"A": 100}, {"A": 10}, ["L"], {"L": 120}, {"L": 10}, 0,
                       {("A", "L"): 50}, Fraction(20))
    assert (x, y) == ({"A"}, {"L"})
    # the entry is paid with a layout: here it leaves no room for L
    x, y = solve_joint(["A"], {"A": 100}, {"A": 10}, ["L"], {"L": 120}, {"L": 10}, 11,
                       {}, Fraction(20))
    assert (x, y) == ({"A"}, set())
    # and once for all layouts
    x, y = solve_joint(["A"], {"A": 100}, {"A": 10}, ["L", "M"], {"L": 120, "M": 110},
                       {"L": 10, "M": 10}, 5, {}, Fraction(25))
    assert (x, y) == (set(), {"L", "M"})


def test_the_misses_of_the_other_messages_are_charged():
    # L saves 120 on its 10% of the messages; once its entry is linked, the other 90% pay
    # 150 each for missing (135): L loses more than it saves, and is left out
    x, y = solve_joint(["A"], {"A": 100}, {"A": 10}, ["L"], {"L": 120}, {"L": 10}, 0,
                       {}, Fraction(20), miss=150, coverage={"L": 0.1})
    assert (x, y) == ({"A"}, set())
    # a cheaper miss leaves it worth it
    x, y = solve_joint(["A"], {"A": 100}, {"A": 10}, ["L"], {"L": 120}, {"L": 10}, 0,
                       {}, Fraction(20), miss=100, coverage={"L": 0.1})
    assert (x, y) == ({"A"}, {"L"})
    # and a second layout that covers more of the messages takes the first one's misses
    # away: both are chosen, where each alone would not be
    x, y = solve_joint([], {}, {}, ["L", "M"], {"L": 120, "M": 120}, {"L": 10, "M": 10}, 0,
                       {}, Fraction(20), miss=150, coverage={"L": 0.1, "M": 0.5})
    assert y == {"L", "M"}


@pytest.mark.parametrize("seed", range(40))
def test_the_joint_solver_finds_the_best_selection(seed):
    rng = random.Random(seed)
    types = [f"t{k}" for k in range(rng.randrange(1, 6))]
    layouts = [f"l{k}" for k in range(rng.randrange(1, 5))]
    forced = frozenset(t for t in types if rng.random() < 0.15)
    free = [t for t in types if t not in forced]
    type_saving = {t: rng.randrange(0, 200) for t in types}
    type_cost = {t: rng.randrange(1, 60) for t in types}
    layout_saving = {j: rng.randrange(1, 300) for j in layouts}
    layout_cost = {j: rng.randrange(1, 60) for j in layouts}
    lost = {(i, j): rng.randrange(0, type_saving[i] + 1) for i in types for j in layouts
            if rng.random() < 0.6}
    entry = rng.randrange(0, 20)
    capacity = Fraction(rng.randrange(0, 200))
    miss = rng.choice([0, rng.randrange(0, 300)])
    coverage = {j: rng.random() / len(layouts) for j in layouts}
    x, y = solve_joint(free, type_saving, type_cost, layouts, layout_saving, layout_cost,
                       entry, lost, capacity, forced, miss, coverage)

    def cost(xs, ys):
        return sum(type_cost[i] for i in xs) + sum(layout_cost[j] for j in ys) + \
            (entry if ys else 0)
    best = None
    for xs in itertools.chain.from_iterable(itertools.combinations(free, k)
                                            for k in range(len(free) + 1)):
        for ys in itertools.chain.from_iterable(itertools.combinations(layouts, k)
                                                for k in range(len(layouts) + 1)):
            if cost(xs, ys) > capacity:
                continue
            key = (_true_saving(xs, ys, type_saving, layout_saving, lost, forced, miss,
                                coverage), -cost(xs, ys))
            best = key if best is None or key > best else best
    assert cost(x, y) <= capacity
    found = _true_saving(x, y, type_saving, layout_saving, lost, forced, miss, coverage)
    if miss == 0:           # whole numbers: the best saving, at the least cost
        assert (found, -cost(x, y)) == best
    else:                   # scaled to integers, equal to within 2**-24 of the total
        assert found == pytest.approx(best[0], abs=1e-5 * (1 + abs(best[0])))


# ---- messages made for layouts ------------------------------------------------------------

@pytest.fixture(scope="module")
def profiles(tmp_path_factory):
    out = {}
    for name, specs, pdu in (("snmp", SNMP_SPECS, SNMP_PDU), ("ldap", LDAP_SPECS, LDAP_PDU)):
        trace = cbuild.REPO / "examples" / name / "trace.ber"
        split = json.loads(trace.with_suffix(".json").read_text())["second_round_from"]
        pdus = corpora.split_pdus(trace.read_bytes())
        training = tmp_path_factory.mktemp(name) / "training.ber"
        training.write_bytes(b"".join(pdus[:split]))
        graph = api.load([str(s) for s in specs])
        profile = api.profile(graph, pdu, [str(training)])
        path = training.with_name("profile.json")
        profile.save(path)
        out[name] = (specs, pdu, graph, profile, path, pdus[split:])
    return out


@pytest.mark.parametrize("name", ["snmp", "ldap"])
def test_a_message_made_for_a_layout_has_that_layout(profiles, name):
    _, pdu, graph, profile, _, _ = profiles[name]
    layout = build_layout(graph, set(), "", False)
    candidates = profile.layouts[pdu].forms["exact"]
    made = 0
    for candidate in candidates:
        try:
            message = example(layout, pdu, candidate)
        except Refused:
            continue
        assert render(parse(message)) == candidate.text
        made += 1
    assert made >= 0.9 * len(candidates)


@measuring
def test_measured_layouts_are_faster_by_their_fast_paths(profiles):
    _, pdu, graph, profile, _, _ = profiles["snmp"]
    learnt = profile.layouts[pdu]
    measured = measure_layouts(api.emitted(graph, api.SelectOptions(pdus=(pdu,))), pdu,
                               learnt.forms["exact"][:12], learnt.messages)
    assert [i.id for i in measured.items] == [l.id for l in learnt.forms["exact"][:12]]
    assert 0 < measured.entry < 1000
    for item in measured.items:
        assert not item.unusable, item.unusable
        assert 0 < item.fast < item.compiled < item.interpreted
        assert item.bytes > 100
        assert item.values[pdu] == 1
        assert item.frequency == item.layout.count / learnt.messages
    # the less frequent half missed the fast paths of the other half: a miss costs the
    # dispatch, more than nothing and much less than the fast path saves
    missed = [i for i in measured.items if i.miss is not None]
    assert [i.id for i in missed] == [i.id for i in measured.items[6:]]
    assert all(0 < i.miss < 200 for i in missed), [i.miss for i in missed]
    assert 0 < measured.miss < 200
    assert measured.miss < min(i.compiled - i.fast for i in measured.items)


@measuring
def test_measured_slot_layouts_are_faster_by_the_slot_tree(profiles, tmp_path):
    """Slot layouts are measured on a message of their most frequent exact layout, in one
    tree: a layout costs what the tree grows by beside the more frequent ones, so the
    door and the layouts' bytes add up to the tree of them all, compiled apart."""
    _, pdu, graph, profile, _, _ = profiles["snmp"]
    learnt = profile.layouts[pdu]
    emitted = api.emitted(graph, api.SelectOptions(pdus=(pdu,)))
    slots = learnt.forms["slot"][:6]
    measured = measure_layouts(emitted, pdu, [*learnt.forms["exact"], *slots],
                               learnt.messages, form="slot")
    assert measured.form == "slot"
    assert [i.id for i in measured.items] == [l.id for l in slots]
    layout = build_layout(graph, set(), "", False)
    for item in measured.items:
        assert not item.unusable, item.unusable
        assert 0 < item.fast < item.compiled < item.interpreted
        assert item.bytes > 100
        # the message it was measured on has one of its exact layouts
        model = next(e for e in learnt.forms["exact"] if item.layout.matches(parse_text(e.text)))
        assert item.layout.matches(parse(example(layout, pdu, model)))
    missed = [i for i in measured.items if i.miss is not None]
    assert [i.id for i in missed] == [i.id for i in measured.items[3:]]
    # their messages part from the three more frequent layouts in the variable bindings,
    # where the tree resumes them: past what they share, cheaper than the general path
    assert all(i.miss < 0 for i in missed)
    # the door and the tree of all six, compiled as the measured model compiles routines
    files = generate(emitted, {n.id for n in knapsack_items(emitted)}, EmitOptions(
        "f", "f_", encodings=("ber",), fast_layouts=(pdu, tuple(slots))))
    sizes = layout_costs._sizes(tmp_path / "sized", files)
    door = next(n for n in sizes if n.endswith("_layouts"))
    assert sizes[door] == measured.entry
    assert sizes[door + "_slots"] == sum(i.bytes for i in measured.items)


@measuring
def test_the_counts_of_the_layouts_messages_are_kept(profiles, monkeypatch):
    """The replay that counts each layout's values builds and runs a program: a second
    measurement of the same layouts takes its counts from the cache."""
    _, pdu, graph, profile, _, _ = profiles["snmp"]
    learnt = profile.layouts[pdu]
    emitted = api.emitted(graph, api.SelectOptions(pdus=(pdu,)))
    first = measure_layouts(emitted, pdu, learnt.forms["exact"][:3], learnt.messages)

    def replay_again(*args):
        raise AssertionError("replayed again")
    monkeypatch.setattr(layout_costs, "replay_each", replay_again)
    again = measure_layouts(emitted, pdu, learnt.forms["exact"][:3], learnt.messages)
    assert [i.values for i in again.items] == [i.values for i in first.items]
    assert all(i.values for i in first.items)


# ---- selections -----------------------------------------------------------------------------

def _select(profiles, budget: str) -> api.Selection:
    specs, pdu, graph, _, path, _ = profiles["snmp"]
    return api.select(graph, api.SelectOptions(pdus=(pdu,), profiles=(str(path),),
                                               budget=budget, cost_model="measured",
                                               layouts=True))


@measuring
@pytest.mark.parametrize("budget", ["0", "8000", "12000", "20000"])
def test_layouts_share_the_budget_with_the_types(profiles, budget):
    selection = _select(profiles, budget)
    chosen = [r for r in selection.layouts if r.chosen]
    types = sum(r.cost for r in selection.rows if r.compiled)
    layouts = sum(r.cost for r in chosen) + (selection.layout_entry if chosen else 0)
    assert selection.cost_used == types + layouts <= int(budget)
    if budget == "0":
        assert not chosen and types == 0
    if budget == "12000":
        assert chosen, "a fast path pays at this budget on repetitive traffic"
    for r in selection.layouts:
        assert r.reason in ((TOO_COSTLY, BUDGET_EXHAUSTED, NO_SAVING) if not r.chosen
                            else ("",))
    saving = sum(r.saving for r in selection.rows if r.compiled) + sum(r.saving for r in chosen)
    if chosen:              # the other messages miss
        saving -= selection.layout_miss * (1 - sum(r.coverage for r in chosen))
    assert selection.saving == pytest.approx(saving)


@measuring
def test_a_budget_for_everything_takes_every_layout_that_saves(profiles):
    selection = _select(profiles, "1000000")
    assert all(r.compiled for r in selection.rows if r.frequency > 0)
    assert all(r.chosen for r in selection.layouts if r.saving > 0)
    assert selection.saving == pytest.approx(selection.saving_max)


@measuring
def test_the_generated_fast_paths_are_the_chosen_layouts(profiles, tmp_path):
    specs, pdu, graph, _, path, _ = profiles["snmp"]
    options = api.CompileOptions(select=api.SelectOptions(
        pdus=(pdu,), profiles=(str(path),), budget="12000", cost_model="measured",
        layouts=True))
    selection = api.select(graph, options.select)
    source = api.generate(graph, options, selection=selection)["SNMP_Traffic.c"]
    generated = set(layouts_in(source))
    assert generated == {l.id for l in selection.chosen_layouts} != set()
    assert ("_layouts_slots(" in source) == (selection.layout_form == "slot")


@measuring
def test_the_form_whose_knapsack_saves_more_is_kept(profiles, tmp_path):
    """Exact and slot layouts are each a knapsack: on SNMP's traffic, whose integers and
    identifiers vary in length, the slot layouts save more; on a trace of one message
    repeated, both forms have the same one layout, and the exact one, which encodes too,
    saves more."""
    specs, pdu, graph, profile, path, _ = profiles["snmp"]
    selection = _select(profiles, "12000")
    assert set(selection.layout_forms) == {"exact", "slot"}
    assert selection.layout_form == "slot"
    assert selection.layout_forms["slot"] > selection.layout_forms["exact"]
    assert selection.saving == selection.layout_forms["slot"]
    assert {r.layout.form for r in selection.layouts} == {"slot"}
    assert len(selection.layouts) == len(profile.layouts[pdu].forms["slot"])

    one = corpora.split_pdus((cbuild.REPO / "examples" / "snmp" / "trace.ber").read_bytes())[0]
    trace = tmp_path / "one.ber"
    trace.write_bytes(one * 4)
    repeated = tmp_path / "one.json"
    api.profile(graph, pdu, [str(trace)]).save(repeated)
    selection = api.select(graph, api.SelectOptions(
        pdus=(pdu,), profiles=(str(repeated),), budget="12000", cost_model="measured",
        layouts=True))
    assert selection.layout_form == "exact"
    assert selection.layout_forms["exact"] > selection.layout_forms["slot"]
    assert [l.text for l in selection.chosen_layouts] == [render(parse(one))]


@measuring
def test_explain_lists_the_layouts(profiles, tmp_path, capsys):
    specs, pdu, _, _, path, _ = profiles["snmp"]
    argv = ["explain", *map(str, specs), "--pdu", pdu, "--profile", str(path),
            "--layouts", "auto", "--cost-model", "measured", "--budget", "12000"]
    assert cli_main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["layouts"]["pdu"] == pdu
    candidates = data["layouts"]["candidates"]
    assert any(c["chosen"] for c in candidates) and not all(c["chosen"] for c in candidates)
    assert {c["reason"] for c in candidates if not c["chosen"]} <= {TOO_COSTLY,
                                                                    BUDGET_EXHAUSTED, NO_SAVING}
    assert cli_main(argv) == 0
    text = capsys.readouterr().out
    chosen = [c for c in candidates if c["chosen"]]
    assert f"layouts:  {len(chosen)} of {len(candidates)} with fast paths" in text
    assert 0 < data["layouts"]["miss_cost"] < 200
    assert f"the others pay {data['layouts']['miss_cost']:.4g} instructions each" in text
    assert f"layout form: {data['layouts']['form']}, whose knapsack saves more" in text
    assert all(f"{c['id']}  " in text for c in candidates)


@measuring
def test_a_layout_form_given_is_the_only_one_weighed(profiles, capsys):
    """`--layout-form exact` with `--layouts auto`: the exact layouts alone, whose misses
    cost the bounded dispatch, though the slot layouts would save more here."""
    specs, pdu, _, _, path, _ = profiles["snmp"]
    argv = ["explain", *map(str, specs), "--pdu", pdu, "--profile", str(path),
            "--layouts", "auto", "--cost-model", "measured", "--budget", "12000",
            "--format", "json"]
    assert cli_main([*argv, "--layout-form", "exact"]) == 0
    exact = json.loads(capsys.readouterr().out)["layouts"]
    assert exact["form"] == "exact" and list(exact["saving_by_form"]) == ["exact"]
    assert all(len(c["layout"].split("*")) == 1 for c in exact["candidates"])
    assert cli_main(argv) == 0
    both = json.loads(capsys.readouterr().out)["layouts"]
    assert both["form"] == "slot"
    assert both["saving_by_form"]["exact"] == exact["saving_by_form"]["exact"]
    with pytest.raises(api.UsageError, match="layout forms"):
        api.SelectOptions(layout_forms=("exact", "tree"))


@pytest.mark.parametrize("extra, message", [
    (["--cost-model", "units"], "needs the measured cost model"),
    (["--mode", "compiled"], "in the hybrid mode"),
    (["--no-profile"], "give one --pdu and --profile"),
])
def test_layouts_auto_errors(profiles, tmp_path, capsys, extra, message):
    specs, pdu, _, _, path, _ = profiles["snmp"]
    argv = ["compile", *map(str, specs), "-o", str(tmp_path / "out"), "--pdu", pdu,
            "--layouts", "auto", *[e for e in extra if e != "--no-profile"]]
    if "--no-profile" not in extra:
        argv += ["--profile", str(path)]
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
