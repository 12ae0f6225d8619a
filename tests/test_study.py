"""`asn1c-hybrid study` on the X.400 example's 18-message trace, with a few budgets.

The invariants of study.csv: 0% compiles nothing and 100% every type the PDU can hold,
the measured share of the saving is 0 and 1 at the ends, code bytes grow with the budget,
compiling saves instructions.  And the report, the plot, determinism and the errors."""
from __future__ import annotations

import csv
import json
import shutil

import pytest
from test_estimate_static import choice, graph_of, member, prim, seq, seq_of

from asn1c_hybrid import cli
from asn1c_hybrid.select.calibration import ALL_FEATURES, Calibration, toolchain
from asn1c_hybrid.estimate.pdus import reachable_items
from asn1c_hybrid.errors import StudyError
from asn1c_hybrid.study import parse_budgets
from asn1c_hybrid.study.results import CSV_COLUMNS

pytestmark = pytest.mark.skipif(
    shutil.which("valgrind") is None or shutil.which("gcc") is None,
    reason="the study measures with gcc and callgrind")

PDU = "MTAAbstractService.MTS-APDU"


@pytest.fixture(scope="module")
def x400(repo_root):
    return repo_root / "examples" / "x400"


def study(tmp_path_factory, x400, *options):
    out = tmp_path_factory.mktemp("study")
    argv = ["study", "--spec", str(x400 / "spec"), "--pdu", PDU,
            "--trace", str(x400 / "traces" / "trace-18.ber"), "-o", str(out), *options]
    assert cli.main(argv) == 0
    return out


def rows(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [dict(zip(header, row)) for row in reader]


@pytest.fixture(scope="module")
def units_study(tmp_path_factory, x400):
    return study(tmp_path_factory, x400, "--budgets", "10,20", "--cost-models", "units")


def test_csv_has_exactly_the_columns_and_one_row_per_budget(units_study):
    header, table = rows(units_study / "trace-18" / "study.csv")
    assert header == CSV_COLUMNS
    assert [int(r["budget_percent"]) for r in table] == [0, 10, 20, 100]


def test_ends_of_the_curve(units_study, x400):
    _, table = rows(units_study / "trace-18" / "study.csv")
    first, last = table[0], table[-1]
    assert float(first["saving_fraction_measured"]) == 0.0
    assert float(last["saving_fraction_measured"]) == 1.0
    assert float(first["saving_fraction_model"]) == 0.0
    assert float(last["saving_fraction_model"]) == 1.0
    # compiling everything saves instructions: the interpreter is the slower path
    assert int(last["instructions"]) < int(first["instructions"])


def test_zero_compiles_nothing_and_hundred_every_type_the_pdu_can_hold(units_study, x400):
    from asn1c_hybrid import frontend
    selections = json.loads((units_study / "trace-18" / "selections.json").read_text())
    assert selections["units"]["0"] == []
    graph = frontend.load([x400 / "spec"])
    assert set(selections["units"]["100"]) == reachable_items(graph, [PDU])
    assert len(selections["units"]["10"]) <= len(selections["units"]["20"])


def test_code_bytes_grow_and_shares_stay_in_range(units_study):
    _, table = rows(units_study / "trace-18" / "study.csv")
    code = [int(r["code_bytes"]) for r in table]
    assert code == sorted(code) and code[0] < code[-1]
    for r in table:
        assert -0.05 <= float(r["saving_fraction_measured"]) <= 1.05
        assert 0.0 <= float(r["saving_fraction_model"]) <= 1.0
    # the hybrid at 20% already saves a good part of what compiling everything saves
    assert float(table[2]["saving_fraction_measured"]) > 0.3


def test_report_and_plots(units_study, repo_root):
    report = (units_study / "report.md").read_text()
    assert "share at 20%, measured" in report and "trace-18" in report
    assert "(trace-18/study.png)" in report and "(trace-18/study-bytes.png)" in report
    assert "synthetic" in report and "examples/x400/traffic.py" in report
    assert str(units_study) not in report and str(repo_root) not in report   # no machine paths
    for name in ("study.png", "study-bytes.png"):
        png = (units_study / "trace-18" / name).read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_output_is_deterministic(units_study, tmp_path_factory, x400):
    again = study(tmp_path_factory, x400, "--budgets", "10,20", "--cost-models", "units")
    for name in ("trace-18/study.csv", "trace-18/selections.json", "trace-18/study.png",
                 "trace-18/study-bytes.png", "trace-18/profile.json"):
        assert (again / name).read_bytes() == (units_study / name).read_bytes(), name
    def strip(directory):            # the report names its output directory, nothing else
        return (directory / "report.md").read_text().replace(directory.name, "OUT")
    assert strip(again) == strip(units_study)


def fake_calibration(path):
    """A calibration of this toolchain with round coefficients: the study must select by
    them (the real fit is tested in test_calibration.py)."""
    coefficients = {name: 0.0 for name in ALL_FEATURES}
    coefficients.update({"seq": 100, "seq.inline": 200, "seq.struct": 100, "set": 80,
                         "set.inline": 200, "set.struct": 100, "set.position": 10,
                         "choice.inline": 350, "choice.struct": 250, "list": 70,
                         "list.inline": 160, "list.struct": 80})
    Calibration(coefficients, **toolchain()).save(path)
    return path


def test_measured_cost_model_with_a_calibration(tmp_path_factory, x400):
    calibration = fake_calibration(tmp_path_factory.mktemp("cal") / "calibration.json")
    out = study(tmp_path_factory, x400, "--budgets", "20", "--cost-models", "measured,units",
                "--calibration", str(calibration))
    header, measured = rows(out / "trace-18" / "study.csv")
    _, units = rows(out / "trace-18" / "study-units.csv")
    assert header == CSV_COLUMNS and len(measured) == len(units) == 3
    # the same ends whatever the model: all interpreted, all compiled
    assert measured[0]["instructions"] == units[0]["instructions"]
    assert measured[-1]["instructions"] == units[-1]["instructions"]
    report = (out / "report.md").read_text()
    assert "calibrated time-saving model" in report and "`set.position` | 10.0" in report


def test_errors_are_messages(tmp_path, x400, capsys):
    base = ["study", "--spec", str(x400 / "spec"), "-o", str(tmp_path)]
    cases = [
        (["--pdu", "NoSuch.Type", "--trace", str(x400 / "traces" / "trace-18.ber")],
         "no type NoSuch.Type"),
        (["--trace", str(tmp_path / "missing.ber")], "missing.ber"),
        (["--trace", str(x400 / "traces" / "trace-18.ber"), "--budgets", "abc"], "--budgets"),
        (["--trace", str(x400 / "traces" / "trace-18.ber"), "--cost-models", "speed"],
         "--cost-models"),
        (["--trace", str(x400 / "traces" / "trace-18.ber"), "--calibration",
          str(tmp_path / "none.json")], "none.json"),
    ]
    for options, message in cases:
        assert cli.main(base + options) != 0
        err = capsys.readouterr().err
        assert err.startswith("asn1c-hybrid: error:") and message in err, err
        assert "Traceback" not in err


def test_budgets_always_include_the_ends():
    assert parse_budgets("20") == [0, 20, 100]
    assert parse_budgets("25,5,5") == [0, 5, 25, 100]
    for bad in ("x", "120", "-5"):
        with pytest.raises(StudyError):
            parse_budgets(bad)


def test_reachable_items_leave_out_what_the_pdu_cannot_hold():
    g = graph_of(seq("M.Pdu", member("a", "M.List"), member("b", "M.Pick", optional=True)),
                 seq_of("M.List", "M.Int"), choice("M.Pick", member("x", "M.Inner")),
                 seq("M.Inner", member("i", "M.Int")), seq("M.Unused", member("u", "M.Int")),
                 prim("M.Int"))
    assert reachable_items(g, ["M.Pdu"]) == {"M.Pdu", "M.List", "M.Pick", "M.Inner"}
    assert reachable_items(g, ["M.Inner"]) == {"M.Inner"}


def test_per_type_best_selection_by_hand():
    """Three types measured alone: the best selection at a budget is the knapsack over
    their measured savings, whatever the cost model predicted."""
    from asn1c_hybrid.estimate.estimate import Estimate
    from asn1c_hybrid.measure.program import Measurement
    from asn1c_hybrid.select.costs import Cost
    from asn1c_hybrid.study.per_type import per_type
    from asn1c_hybrid.study.results import Curve, Point
    g = graph_of(seq("M.A", member("b", "M.B"), member("c", "M.C")),
                 seq("M.B", member("i", "M.Int")), seq("M.C", member("i", "M.Int")),
                 prim("M.Int"))
    estimate = Estimate({"M.A": 1, "M.B": 1, "M.C": 1, "M.Int": 2})
    # the model thinks A saves most; measured alone, B and C together beat it
    costs = {"M.A": Cost(50, 100), "M.B": Cost(25, 40), "M.C": Cost(25, 40)}
    base = Measurement(10, 10_000, 0)
    alone = {"M.A": Measurement(10, 9_400, 0), "M.B": Measurement(10, 9_600, 0),
             "M.C": Measurement(10, 9_500, 0)}
    curve = Curve("measured", [Point(0, frozenset(), 0, 180, 0, 100),
                               Point(50, frozenset({"M.A"}), 100, 180, 50, 100),
                               Point(100, frozenset(costs), 180, 180, 100, 100)])
    result = per_type(g, estimate, costs, curve, alone, base, messages=10)
    assert [t.id for t in result.types] == ["M.A", "M.C", "M.B"]        # 60, 50, 40 per PDU
    half = result.best(50)
    assert half.best == {"M.B", "M.C"} and half.best_share == pytest.approx(90 / 150)
    assert half.chosen_share == pytest.approx(60 / 150)              # the model's {A}
    assert result.best(100).best_share == 1.0 and result.best(0).best_share == 0.0
    assert "M.C,1.0000,25,40.0,50.0" in result.csv_text()


def test_a_per_trace_is_studied_in_per(tmp_path, repo_root):
    """`--encoding uper`: the trace is framed UPER (asn1tools' encodings); every build
    carries UPER alone, decodes the PDUs and writes each one back as it was."""
    import asn1tools
    spec = repo_root / "tests" / "specs" / "per" / "PerTest.asn"
    codec = asn1tools.compile_files([str(spec)], "uper")
    values = [{"id": 3}, {"id": 7, "note": "hello", "added": 200},
              {"id": 16, "grouped": True, "extra": "x", "after": "green"}] * 4
    trace = tmp_path / "records.uper"
    trace.write_bytes(b"".join(len(p).to_bytes(4, "big") + p
                               for p in (codec.encode("Record", v) for v in values)))
    out = tmp_path / "out"
    assert cli.main(["study", "--spec", str(spec), "--pdu", "PerTest.Record", "--trace",
                     str(trace), "--encoding", "uper", "--budgets", "50", "--cost-models",
                     "units", "-o", str(out)]) == 0
    _, table = rows(out / "records" / "study.csv")
    assert [int(r["budget_percent"]) for r in table] == [0, 50, 100]
    interpreted, compiled = table[0], table[-1]
    assert int(compiled["instructions"]) < int(interpreted["instructions"])
    assert int(compiled["code_bytes"]) > int(interpreted["code_bytes"])
    report = (out / "report.md").read_text()
    assert f"({len(values)} PDUs" in report
    assert "The traces are UPER" in report and "--encoding uper" in report
    assert "## Encodings" not in report            # every PDU written back as it came
    driver = next((out / "build").glob("build-*/generated/measure_driver.c")).read_text()
    assert "spec_decode_per" in driver and "asn1h_decode(" not in driver
