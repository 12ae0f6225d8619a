"""`asn1c-hybrid explain`: the table in text, JSON and CSV, its reasons, and its errors.

These run the command line on the hand-built personnel graph (the front end's own
output is pinned in test_select_personnel.py) with the unit cost model; the numbers are
the hand-computed ones of test_select_selection.py."""
from __future__ import annotations

import csv
import io
import json

import pytest
from test_estimate_static import P, personnel_graph
from test_profile_files import smith_profile

from asn1c_hybrid import api, cli
from asn1c_hybrid.errors import UnknownTypeError


@pytest.fixture
def run(monkeypatch, capsys):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())

    def run(*argv):
        argv = list(argv)
        if "--cost-model" not in argv:
            argv += ["--cost-model", "units"]
        code = cli.main(argv)
        out, err = capsys.readouterr()
        return code, out, err
    return run


def test_json_exact_form(run):
    code, out, err = run("explain", "personnel.asn", "--budget", "25%", "--format", "json")
    assert code == 0 and err == ""
    # Name (3 per unit) fills the budget of 4; every other type saves less per unit
    assert json.loads(out) == {
        "cost_model": "units", "unit": "units",
        "budget": 4, "cost_used": 4, "cost_all": 16, "saving": 12, "saving_max": 23.5,
        "fixed_cost": None,
        "types": [
            {"id": f"{P}.Name", "frequency": 3, "cost": 4, "saving": 12, "compiled": True,
             "reason": None},
            {"id": f"{P}.PersonnelRecord", "frequency": 1, "cost": 7, "saving": 7,
             "compiled": False, "reason": "too costly for its saving"},
            {"id": f"{P}.ChildInformation", "frequency": 1, "cost": 3, "saving": 3,
             "compiled": False, "reason": "too costly for its saving"},
            {"id": f"{P}.PersonnelRecord.children", "frequency": 0.5, "cost": 2,
             "saving": 1.5, "compiled": False, "reason": "too costly for its saving"},
        ]}


def test_csv(run):
    code, out, _ = run("explain", "personnel.asn", "--budget", "50%", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["id"], r["compiled"]) for r in rows] == [
        (f"{P}.Name", "true"), (f"{P}.PersonnelRecord", "false"),
        (f"{P}.ChildInformation", "true"), (f"{P}.PersonnelRecord.children", "false")]
    assert [float(r["saving"]) for r in rows] == [12, 7, 3, 1.5]
    assert list(rows[0]) == ["id", "frequency", "cost_units", "saving", "compiled", "reason"]
    # 8 units: Name (3 per unit) and ChildInformation (1) fill 7; PersonnelRecord (1 per
    # unit) would be as good a buy but 7 units do not fit in the 1 left
    assert [r["reason"] for r in rows] == ["", "budget exhausted", "", "too costly for its saving"]


def test_text_table_and_totals(run):
    code, out, _ = run("explain", "personnel.asn")                 # default budget 20%
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("cost model: units; cost in the paper's code units")
    assert lines[1].startswith("path: compiled = the type's own C routines; interpreted")
    assert lines[3].split() == ["type", "frequency", "cost", "saving", "path", "why"]
    assert lines[4].split() == [f"{P}.Name", "3", "4", "12", "interpreted", "budget",
                                "exhausted"]
    assert lines[6].split() == [f"{P}.ChildInformation", "1", "3", "3", "compiled"]
    assert "budget:   3.2 units (20% of the all-compiled cost)" in out
    assert "fixed:    the runtime and tables every build links (not modelled in units" in out
    assert "cost:     3 of 16 units (18.8% of all compiled)" in out
    assert "saving:   3 of 23.5 per message (12.8% of the maximum)" in out


def test_same_output_every_time(run):
    outs = {run("explain", "x.asn", "--budget", "60%", "--format", f)[1]
            for f in ("json",) * 3}
    assert len(outs) == 1


def test_pdu_option(run):
    code, out, _ = run("explain", "x.asn", "--pdu", "Name", "--format", "json")
    data = json.loads(out)
    freq = {t["id"]: t["frequency"] for t in data["types"]}
    why = {t["id"]: t["reason"] for t in data["types"]}
    # only what a Name can hold is an item: the budget is a share of that code; the
    # others keep their rows, not reached
    assert freq == {f"{P}.Name": 1, f"{P}.PersonnelRecord": 0, f"{P}.ChildInformation": 0,
                    f"{P}.PersonnelRecord.children": 0}
    assert data["cost_all"] == 4
    assert why == {f"{P}.Name": "budget exhausted", f"{P}.PersonnelRecord": "not reached",
                   f"{P}.ChildInformation": "not reached",
                   f"{P}.PersonnelRecord.children": "not reached"}


def test_forced_types_are_explained(run):
    code, out, _ = run("explain", "x.asn", "--budget", "100%", "--interpret", "Name",
                       "--format", "json")
    why = {t["id"]: t["reason"] for t in json.loads(out)["types"]}
    assert why[f"{P}.Name"] == "forced" and why[f"{P}.PersonnelRecord"] is None


def test_budget_errors_name_the_problem(run):
    for budget, message in (("-5%", "is negative"), ("-5", "is negative"),
                            ("5%%", "neither a size"), ("101%", "above 100%")):
        code, out, err = run("explain", "x.asn", "--budget", budget)
        assert code == 2 and out == "" and message in err, err
        assert err.startswith("asn1c-hybrid: error: budget") and err.count("\n") == 1


def test_profiles_are_merged(run, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    smith_profile(1).save(a)
    smith_profile(2, times=2).save(b)
    code, out, err = run("explain", "x.asn", "--profile", str(a), "--profile", str(b),
                         "--budget", "100%", "--format", "json")
    assert code == 0, err
    freq = {t["id"]: t["frequency"] for t in json.loads(out)["types"]}
    assert freq[f"{P}.Name"] == 4 and freq[f"{P}.ChildInformation"] == 2


@pytest.mark.parametrize("argv, message", [
    (["--budget", "lots"], "budget 'lots' is neither a size (N) nor a percentage (P%)"),
    (["--budget", "150%"], "above 100%"),
    (["--pdu", "Nope"], "no type Nope in the specification"),
])
def test_bad_options_are_one_line_errors(run, argv, message):
    code, out, err = run("explain", "x.asn", *argv)
    assert code == 2 and out == ""
    assert err.startswith("asn1c-hybrid: error: ") and message in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_profile_of_another_spec_is_refused(run, tmp_path):
    path = tmp_path / "old.json"
    p = smith_profile()
    p.spec_hash = "f" * 64
    p.save(path)
    code, _, err = run("explain", "x.asn", "--profile", str(path))
    assert code == 2
    assert f"{path} was made from another specification" in err


def test_missing_profile_file(run, tmp_path):
    code, _, err = run("explain", "x.asn", "--profile", str(tmp_path / "none.json"))
    assert code == 1 and "asn1c-hybrid: error:" in err and "none.json" in err


def test_select_resolves_forced_type_names():
    options = api.SelectOptions(budget="25%", cost_model="units",
                                force_compiled=["PersonnelRecord"])
    s = api.select(personnel_graph(), options)
    assert s.compiled == {f"{P}.PersonnelRecord"}          # 7 units > 4: nothing else
    with pytest.raises(UnknownTypeError, match="no type Nope"):
        api.select(personnel_graph(), api.SelectOptions(cost_model="units",
                                                        force_compiled=["Nope"]))
