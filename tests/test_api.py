"""The whole pipeline through the typed Python API alone, with no argparse: specification ->
type graph -> estimate -> selection -> C, written, built and run on the smithperson value;
and the options' checks."""
from __future__ import annotations

import subprocess

import cbuild
import pytest

from asn1c_hybrid import api
from asn1c_hybrid.errors import BudgetError, UnknownTypeError, UsageError

P = "PersonnelRecordModule"


@pytest.fixture(scope="module")
def graph(repo_root):
    return api.load([str(repo_root / "examples" / "personnel" / "personnel.asn")])


def test_pipeline_from_spec_to_running_code(graph, repo_root, tmp_path):
    select = api.SelectOptions(pdus=[f"{P}.PersonnelRecord"],
                               profiles=[str(repo_root / "profiles" / "personnel.json")],
                               budget="40%", cost_model="units")
    estimate = api.estimate(graph, select)
    assert estimate.source == "profile" and estimate.frequencies[f"{P}.Name"] == 4
    selection = api.select(graph, select, estimate)
    # 40% of 16 units: Name (4 units, 4 values) and the children list (2)
    assert selection.cost_model == "units"
    assert selection.compiled == {f"{P}.Name", f"{P}.PersonnelRecord.children"}
    options = api.CompileOptions(mode="hybrid", select=select, name="personnel",
                                 prefix="api_", converter=True)
    files = api.generate(graph, options, selection=selection)
    assert list(files) == ["personnel.h", "personnel.c", "converter/personnel_converter.c"]
    assert "api_Name" in files["personnel.h"]
    written = api.compile_to(graph, str(tmp_path / "gen"), options, selection=selection)
    assert [p.relative_to(tmp_path / "gen").as_posix() for p in written] == list(files)
    assert all(p.read_text() == files[p.relative_to(tmp_path / "gen").as_posix()]
               for p in written)
    program = tmp_path / "converter"
    cbuild.run(["gcc", *cbuild.STRICT, "-O1", "-I", tmp_path / "gen", "-I", cbuild.RUNTIME,
                *written[1:], *sorted(cbuild.RUNTIME.glob("*.c")), "-lm", "-o", program])
    der = (repo_root / "bench" / "messages" / "personnel.der").read_bytes()
    out = subprocess.run([str(program), "-p", "PersonnelRecord", "-o", "der", "-"],
                         input=der, capture_output=True, check=True).stdout
    assert out == der


def test_list_outputs_reads_no_specification_when_named(tmp_path):
    options = api.CompileOptions(name="x", converter=True, emit_runtime=True)
    paths = api.list_outputs(["/nonexistent.asn"], "out", options)
    assert paths[:3] == ["out/x.h", "out/x.c", "out/converter/x_converter.c"]
    assert "out/asn1h.h" in paths


def test_modes_and_forced_types(graph):
    compiled = api.compiled_types(graph, api.CompileOptions(mode="compiled"))
    assert compiled == {f"{P}.PersonnelRecord", f"{P}.Name", f"{P}.ChildInformation",
                        f"{P}.PersonnelRecord.children"}
    only = api.compiled_types(graph, api.CompileOptions(
        mode="interpreted", select=api.SelectOptions(force_compiled=["Name"])))
    assert only == {f"{P}.Name"}
    with pytest.raises(UsageError, match="no routines to compile"):
        api.compiled_types(graph, api.CompileOptions(
            mode="interpreted", select=api.SelectOptions(force_compiled=["EmployeeNumber"])))
    with pytest.raises(UnknownTypeError, match="no type Nobody"):
        api.select(graph, api.SelectOptions(pdus=["Nobody"], cost_model="units"))


def test_options_are_frozen_and_checked():
    options = api.SelectOptions(pdus="M.T", budget=10)
    assert options.pdus == ("M.T",) and options.budget == "10"
    with pytest.raises(AttributeError):
        options.budget = "5%"                      # frozen
    with pytest.raises(BudgetError, match="negative"):
        api.SelectOptions(budget="-5%")
    with pytest.raises(UsageError, match="cost model 'speed'"):
        api.SelectOptions(cost_model="speed")
    with pytest.raises(UsageError, match="mode 'fast'"):
        api.CompileOptions(mode="fast")
    with pytest.raises(UsageError, match="encoding rules xer"):
        api.CompileOptions(encodings=["xer"])
    with pytest.raises(UsageError, match="not a file name"):
        api.CompileOptions(name="a/b")
    # a prefix starts every generated C symbol: one that cannot start an identifier used to
    # give C that does not compile (`typedef struct 9T 9T;`)
    for prefix in ("9a_", "a-b", "a b", "é"):
        with pytest.raises(UsageError, match="cannot start a C identifier"):
            api.CompileOptions(prefix=prefix)
    assert api.CompileOptions(prefix="_a9_").prefix == "_a9_"
