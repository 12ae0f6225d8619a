"""The libFuzzer targets, briefly: each example PDU's harness (fuzz/harness.c; in PER for
the PER examples) built with clang -fsanitize=fuzzer,address,undefined and run on a few
thousand inputs mutated from its seed messages.  A crash, a sanitizer report, a leak or a
broken round trip fails the run.  `make fuzz` runs the same targets, and the differential
ones (test_differential_fuzz.py), for as long as FUZZ_SECONDS says.
"""
from __future__ import annotations

import shutil
import sys

import pytest

import cbuild

sys.path.insert(0, str(cbuild.REPO / "fuzz"))
import run as fuzz_run  # noqa: E402
import targets  # noqa: E402

RUNS = {"personnel": 20000, "blackwell": 20000, "x400": 3000, "x509": 5000,
        "cam": 5000, "s1ap": 3000}


@pytest.mark.skipif(shutil.which("clang") is None, reason="libFuzzer comes with clang")
# PER: ITS CAM (UPER) and S1AP (APER) here; RRC and NGAP, slower to build, in `make fuzz`
@pytest.mark.parametrize("name", [*targets.FUZZ_TARGETS, "cam", "s1ap"])
def test_fuzz_target_runs_clean(name):
    out = cbuild.session_dir() / "fuzz"
    outcome = fuzz_run.fuzz(name, out, runs=RUNS[name], flags=("-O0", "-g"))  # quick to build
    assert outcome.ok, outcome.log[-4000:] + "".join(f"\ninput kept: {a}" for a in outcome.artifacts)
    assert outcome.runs >= RUNS[name]
    assert outcome.corpus > len(targets.seeds(targets.TARGETS[name]))   # it found new paths


def test_make_fuzz_command_line():
    """`make fuzz` runs fuzz/run.py --seconds N: every target unless some are named."""
    args = fuzz_run.parse_args(["--seconds", "5"])
    assert args.jobs == [("round-trip", t) for t in targets.FUZZ_TARGETS + targets.PER_TARGETS] + \
        [("differential", t) for t in targets.DIFFERENTIAL_TARGETS]
    assert args.seconds == 5
    assert fuzz_run.parse_args(["--runs", "9", "x509"]).jobs == \
        [("round-trip", "x509"), ("differential", "x509")]
    assert fuzz_run.parse_args(["--kind", "differential", "ldap"]).jobs == \
        [("differential", "ldap")]
    with pytest.raises(SystemExit):
        fuzz_run.parse_args(["nothing"])
    with pytest.raises(SystemExit):
        fuzz_run.parse_args(["--kind", "round-trip", "ldap"])
