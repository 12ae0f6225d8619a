"""The calibrated time-saving model: its features by hand, its file, and the calibration
itself, measured once here and checked against savings it never saw: its held-out shapes
and the personnel record of X.690 (each of its types compiled alone, decoding and
encoding the smithperson value)."""
from __future__ import annotations

import json
import shutil

import pytest
from test_estimate_static import P, choice, graph_of, member, personnel_graph, prim, seq

from asn1c_hybrid import api, cli
from asn1c_hybrid.select import measured
from asn1c_hybrid.estimate.estimate import Estimate
from asn1c_hybrid.estimate.static import static_estimate
from asn1c_hybrid.select import calibration as model
from asn1c_hybrid.select.calibration import (ALL_FEATURES, Calibration, CalibrationError,
                                             presence_rates, toolchain, value_features)
from asn1c_hybrid.typegraph import Kind, Tag, TagClass, universal

needs_tools = pytest.mark.skipif(
    shutil.which("valgrind") is None or shutil.which("gcc") is None
    or shutil.which("callgrind_annotate") is None,
    reason="calibrating measures with gcc and callgrind")

# How closely the fitted model must predict a saving it was not fitted on.
HELD_OUT_TOLERANCE = 0.15


# ---- features of a value, by hand -------------------------------------------------------

def test_personnel_features_from_the_static_estimate():
    g = personnel_graph()
    features = value_features(g, static_estimate(g))
    nonzero = {t: {k: v for k, v in f.items() if v} for t, f in features.items()}
    assert nonzero == {
        # name, nameOfSpouse and children (DEFAULT: present one time in two) are structs;
        # title, number and dateOfHire strings and an integer, inline; all switched on
        # their identifier octet, at places 1 to 6
        f"{P}.PersonnelRecord": {"set": 1, "set.inline": 3, "set.struct": 2.5,
                                 "set.absent": 0.5, "set.position": 1 + 2 + 3 + 4 + 5 + 3},
        f"{P}.PersonnelRecord.children": {"list": 1, "list.struct": 2},
        f"{P}.ChildInformation": {"set": 1, "set.struct": 1, "set.inline": 1,
                                  "set.position": 3},
        f"{P}.Name": {"seq": 1, "seq.inline": 3},
    }


def tagged(node, *tags):
    node.tags = tags
    for comp in node.components:
        comp.tags = (universal(16),) if comp.type == "M.X" else (universal(2),)
    return node


def test_presence_rate_of_a_type_shared_by_certain_and_optional_uses():
    # X is a mandatory member of A (one value per A) and an optional one of B and C
    sequence = universal(16)
    g = graph_of(tagged(seq("M.A", member("x", "M.X")), sequence),
                 tagged(seq("M.B", member("x", "M.X", optional=True)), sequence),
                 tagged(seq("M.C", member("x", "M.X", optional=True)), sequence),
                 tagged(seq("M.X", member("i", "M.Int")), sequence),
                 tagged(prim("M.Int"), universal(2)))
    estimate = Estimate({"M.A": 1, "M.B": 2, "M.C": 2, "M.X": 2.5, "M.Int": 2.5})
    # 2.5 values of X, 1 of them A's: 1.5 held by the 4 optional uses
    assert presence_rates(g, estimate) == {"M.X": 0.375}
    features = value_features(g, estimate)
    assert features["M.B"]["seq.struct"] == 0.375 and features["M.B"]["seq.absent"] == 0.625
    assert features["M.A"]["seq.struct"] == 1


def test_choice_shares_from_the_counts():
    context = [Tag(TagClass.CONTEXT, n) for n in range(2)]
    pick = choice("M.Pick", member("a", "M.A"), member("b", "M.B"), member("c", "M.Int"))
    for comp, tag in zip(pick.components, context + [universal(2)]):
        comp.tags = (tag,)
    g = graph_of(pick, tagged(seq("M.A", member("i", "M.Int")), context[0]),
                 tagged(seq("M.B", member("i", "M.Int")), context[1]),
                 tagged(prim("M.Int"), universal(2)))
    estimate = Estimate({"M.Pick": 4, "M.A": 3, "M.B": 0, "M.Int": 4})
    f = value_features(g, estimate)["M.Pick"]
    # A three times in four, B never; the anonymous share (M.Int is counted under its
    # own name, so it is known too) is what is left: one in four
    assert f["choice.position"] == pytest.approx(0.75 * 1 + 0 * 2 + 0.25 * 3)


def test_savings_add_up_by_feature():
    c = Calibration({name: 0.0 for name in ALL_FEATURES} | {"seq": 10, "seq.inline": 5})
    assert c.saving({"seq": 1, "seq.inline": 3}) == 25
    c.coefficients["seq.generic"] = -100
    assert c.saving({"seq": 1, "seq.generic": 1}) == 0          # never negative


# ---- the file ---------------------------------------------------------------------------

def test_file_round_trip_and_refusals(tmp_path, monkeypatch):
    c = Calibration({name: float(i) for i, name in enumerate(ALL_FEATURES)}, **toolchain(),
                    per_coefficients={name: -float(i) for i, name in enumerate(ALL_FEATURES)})
    path = tmp_path / "c.json"
    c.save(path)
    loaded = Calibration.load(path)
    assert loaded.coefficients == c.coefficients
    assert loaded.per_coefficients == c.per_coefficients != c.coefficients
    loaded.check_toolchain(str(path))
    other = Calibration(c.coefficients, "cc 1.0", "pdp11", c.generator)
    with pytest.raises(CalibrationError, match="run `asn1c-hybrid calibrate`"):
        other.check_toolchain("x.json")
    stale = Calibration(c.coefficients, c.compiler, c.machine, "0123456789abcdef")
    with pytest.raises(CalibrationError, match="another version of the runtime"):
        stale.check_toolchain("x.json")
    data = json.loads(path.read_text())
    del data["per"]["coefficients"]["seq"]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="coefficients"):
        Calibration.load(path)
    del data["coefficients"]["seq"]
    del data["per"]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="coefficients"):
        Calibration.load(path)
    path.write_text("{}")
    with pytest.raises(CalibrationError, match="not an asn1c-hybrid calibration"):
        Calibration.load(path)
    with pytest.raises(CalibrationError, match="no calibration at"):
        model.load_checked(tmp_path / "absent.json")


def test_a_named_calibration_that_is_missing_is_an_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    absent = tmp_path / "absent.json"
    assert cli.main(["explain", "p.asn", "--cost-model", "measured",
                     "--calibration", str(absent)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("asn1c-hybrid: error: no calibration at") and "calibrate" in err


def test_the_default_model_calibrates_on_first_use_and_keeps_it(monkeypatch, tmp_path,
                                                                 capsys):
    """No calibration yet: `explain` says it calibrates, does so once, and keeps the file
    where the next run finds it."""
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    monkeypatch.setenv("ASN1H_CALIBRATION", str(tmp_path / "cal.json"))
    runs = []

    def fake_calibrate(*args, **kwargs):
        runs.append(1)
        return Calibration({name: 5.0 for name in ALL_FEATURES}, **toolchain())
    monkeypatch.setattr(measured, "calibrate", fake_calibrate)
    monkeypatch.setattr(measured, "fixed_cost", lambda graph, pdus, encodings=None: measured.FixedCost(100, 10))
    monkeypatch.setattr(api, "fixed_cost", lambda graph, pdus, encodings=None: measured.FixedCost(100, 10))
    assert cli.main(["explain", "p.asn"]) == 0
    out, err = capsys.readouterr()
    assert "calibrating the measured cost model" in err and "cal.json" in err
    assert "cost model: measured" in out and "bytes" in out
    assert (tmp_path / "cal.json").exists() and runs == [1]
    assert cli.main(["explain", "p.asn"]) == 0
    assert "calibrating" not in capsys.readouterr().err and runs == [1]


def test_without_tools_the_default_falls_back_to_units_with_a_warning(monkeypatch,
                                                                        tmp_path, capsys):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    monkeypatch.setenv("ASN1H_CALIBRATION", str(tmp_path / "cal.json"))
    monkeypatch.setenv("PATH", str(tmp_path))          # no valgrind, no compiler
    assert cli.main(["explain", "p.asn"]) == 0
    out, err = capsys.readouterr()
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "cannot run here" in warnings[0] and "units" in warnings[0]
    assert "cost model: units" in out
    # asked for explicitly, the measured model does not fall back: it fails
    assert cli.main(["explain", "p.asn", "--cost-model", "measured"]) == 2
    assert "not found" in capsys.readouterr().err


def test_calibrate_command_writes_the_file(monkeypatch, tmp_path, capsys):
    fitted = Calibration({name: 1.0 for name in ALL_FEATURES}, **toolchain())
    fitted.fit = {"held_out": [{"shape": "seq[inline]", "measured": 10, "predicted": 11,
                                "relative_error": 0.1}]}
    monkeypatch.setattr(cli, "calibrate", lambda **kwargs: fitted)
    out = tmp_path / "cal.json"
    assert cli.main(["calibrate", "-o", str(out)]) == 0
    assert Calibration.load(out).coefficients == fitted.coefficients
    assert "held out seq[inline]" in capsys.readouterr().out


# ---- the calibration, measured ----------------------------------------------------------

@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    from asn1c_hybrid.select.calibrate import calibrate
    return calibrate(tmp_path_factory.mktemp("calibration"))


@needs_tools
def test_compiling_saves_on_every_member_converted_inline(calibrated):
    c = calibrated.coefficients
    for name in ("seq", "set", "list", "seq.inline", "set.inline", "list.inline",
                 "choice.inline", "seq.struct", "set.struct", "list.struct"):
        assert c[name] > 0, (name, c[name])
    # a member converted inline saves a call of the interpreter's member routine:
    # tens to hundreds of instructions, decoding and encoding
    assert 50 < c["seq.inline"] < 1000


@needs_tools
def test_fit_reproduces_the_training_shapes(calibrated):
    for m in calibrated.measurements[: calibrated.fit["training_shapes"]]:
        measured = m["decode"] + m["encode"]
        predicted = calibrated.linear(m["features"])
        assert abs(predicted - measured) <= max(0.1 * abs(measured), 30), m["shape"]


@needs_tools
def test_held_out_shapes_are_predicted(calibrated):
    assert len(calibrated.fit["held_out"]) >= 4
    for held in calibrated.fit["held_out"]:
        assert held["relative_error"] <= HELD_OUT_TOLERANCE, held


@needs_tools
def test_per_compiling_saves_on_every_member_read_inline(calibrated):
    c = calibrated.per_coefficients
    for name in ("seq", "set", "seq.inline", "set.inline", "list.inline", "choice.inline",
                 "seq.absent"):
        assert c[name] > 0, (name, c[name])
    # a constrained number read inline saves the tables' member routine: tens to hundreds
    # of instructions, decoding and encoding; BER's classes and positions have no part
    assert 50 < c["seq.inline"] < 1000
    for name in ("seq.struct", "seq.choice", "seq.explicit", "seq.open", "set.position",
                 "set.scan", "choice.position"):
        assert c[name] == 0, name
    assert c != calibrated.coefficients


@needs_tools
def test_per_fit_reproduces_its_shapes_and_predicts_the_held_out(calibrated):
    fit = calibrated.per_fit
    assert calibrated.per_measurements[0]["shape"].startswith("per:")
    for m in calibrated.per_measurements[: fit["training_shapes"]]:
        measured = m["decode"] + m["encode"]
        predicted = calibrated.linear(m["features"], per=True)
        assert abs(predicted - measured) <= max(0.1 * abs(measured), 30), m["shape"]
    assert len(fit["held_out"]) == 4
    for held in fit["held_out"]:
        assert held["relative_error"] <= HELD_OUT_TOLERANCE, held


def test_the_per_calibration_message_is_asn1tools_uper():
    """The UPER message the PER shapes are measured on, written from X.691 by the
    calibration, against asn1tools' encoder of the same types written as ASN.1."""
    asn1tools = pytest.importorskip("asn1tools")
    from asn1c_hybrid.select.calibrate import (M, PER_HELD_OUT, group_graph, group_values,
                                               per_message, per_training_shapes)
    shapes = per_training_shapes() + PER_HELD_OUT
    graph = group_graph(shapes)

    def asn1(type_id: str) -> str:
        node = graph[type_id]
        if node.kind == Kind.SEQUENCE_OF:
            return f"SEQUENCE OF {asn1(node.element.type)}"
        if node.kind in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE):
            members = ", ".join(
                f"{c.name} [{c.tags[0].number}] {asn1(c.type)}" + (" OPTIONAL" if c.optional
                                                                  else "")
                for c in node.components)
            return f"{node.kind.value} {{ {members} }}"
        return type_id.split(".")[1]
    targets = [n.id for n in graph if n.id.startswith(f"{M}.Target")]
    text = "\n".join(
        ["Calibration DEFINITIONS IMPLICIT TAGS ::= BEGIN",
         "Int ::= INTEGER", "Str ::= OCTET STRING", "Enum ::= ENUMERATED { a(0), b(1), c(2) }"]
        + [f"{t.split('.')[1]} ::= {asn1(t)}" for t in targets]
        + [f"Message ::= {asn1(f'{M}.Message')}", "END"])

    def value(type_id, v):
        node = graph[type_id]
        if node.kind == Kind.ENUMERATED:
            return "abc"[v]
        if node.kind == Kind.SEQUENCE_OF:
            return [value(node.element.type, item) for item in v]
        if node.kind == Kind.CHOICE:
            name, inner = v
            return (name, value(next(c.type for c in node.components if c.name == name), inner))
        if isinstance(v, dict):
            return {c.name: value(c.type, v[c.name]) for c in node.components if c.name in v}
        return v
    message = value(f"{M}.Message", group_values(shapes, graph))
    assert per_message(shapes, graph) == asn1tools.compile_string(text, "uper").encode(
        "Message", message)


@needs_tools
def test_personnel_savings_are_predicted(calibrated, repo_root, tmp_path):
    """Each type of the personnel record compiled alone: the instructions saved decoding and
    encoding the smithperson value, against the calibrated model with the replayed
    profile."""
    from asn1c_hybrid import frontend
    from asn1c_hybrid.estimate.replay import replay
    from asn1c_hybrid.measure.program import Builder
    from asn1c_hybrid.select.calibration import calibrated_savings
    graph = frontend.load([repo_root / "examples" / "personnel" / "personnel.asn"])
    pdu = f"{P}.PersonnelRecord"
    der = (repo_root / "bench" / "messages" / "personnel.der").read_bytes()
    estimate = replay(graph, pdu, [der]).estimate(graph)
    per_value = calibrated_savings(graph, estimate, calibrated)
    frequencies = estimate.representation_frequencies(graph)
    builder = Builder(graph, pdu, tmp_path)
    trace = tmp_path / "trace.ber"
    trace.write_bytes(der * 4)
    base = builder.build(set()).measure(trace)
    for type_id in per_value:
        compiled = builder.build({type_id}).measure(trace)
        measured = (base.instructions - compiled.instructions) / 4
        predicted = frequencies[type_id] * per_value[type_id]
        assert measured > 0
        assert abs(predicted - measured) <= HELD_OUT_TOLERANCE * measured, \
            (type_id, measured, predicted)
