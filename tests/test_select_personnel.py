"""The selection on the personnel example as the front end reads it: the hand counts of
test_estimate_static.py and the knapsack choices of test_select_selection.py must hold
for the real type graph too (whatever node ids the front end gives anonymous types)."""
from __future__ import annotations

import json

import pytest

from asn1c_hybrid import cli, frontend
from asn1c_hybrid.estimate.static import static_estimate

P = "PersonnelRecordModule"


@pytest.fixture(scope="module")
def spec(repo_root):
    path = repo_root / "examples/personnel/personnel.asn"
    return path, frontend.load([path])


def test_static_counts_by_hand(spec):
    _, graph = spec
    est = static_estimate(graph)
    f = est.representation_frequencies(graph)
    assert f[f"{P}.PersonnelRecord"] == 1
    assert f[f"{P}.Name"] == 3                      # name, nameOfSpouse, each child's
    assert f[f"{P}.ChildInformation"] == 1          # DEFAULT list (1/2) of two
    children = graph[f"{P}.PersonnelRecord"].components[-1].type
    assert f[graph.target(children).id] == 0.5
    assert est.items_per_value[graph.target(children).id] == 2


def test_explain_json_on_the_real_spec(spec, capsys):
    path, _ = spec
    assert cli.main(["explain", str(path), "--budget", "50%", "--format", "json",
                     "--cost-model", "units"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["cost_all"], data["saving_max"], data["cost_used"], data["saving"]) == \
        (16, 23.5, 7, 15)
    assert {t["id"] for t in data["types"] if t["compiled"]} == \
        {f"{P}.Name", f"{P}.ChildInformation"}
