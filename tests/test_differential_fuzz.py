"""The differential fuzz targets, briefly: for each example and shared-spec PDU, a compiled,
an interpreted and a mixed build of its specification linked into one libFuzzer program
(fuzz/differential.c), which aborts when the three disagree on any input: verdict, error
code and offset, consumed octets, value, JER or re-encoding (DER, or PER for the PER
examples).  Each runs 30 seconds here, and starts
from its seeds and from every input on which the builds ever disagreed
(fuzz/regressions/TARGET/, replayed one by one as well).  `make fuzz` runs them longer.
"""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import cbuild

sys.path.insert(0, str(cbuild.REPO / "fuzz"))
import run as fuzz_run  # noqa: E402
import targets  # noqa: E402

SECONDS = 30


@pytest.mark.skipif(shutil.which("clang") is None, reason="libFuzzer comes with clang")
# PER: ITS CAM (UPER) and S1AP (APER) here; RRC and NGAP, slower to build, in `make fuzz`
@pytest.mark.parametrize("name", [t for t in targets.DIFFERENTIAL_TARGETS
                                  if t not in ("rrc", "ngap")])
def test_differential_target_finds_no_disagreement(name):
    out = cbuild.session_dir() / "fuzz"
    outcome = fuzz_run.fuzz(name, out, seconds=SECONDS, kind="differential",
                            flags=("-O1", "-g"))
    assert outcome.ok, outcome.log[-4000:] + "".join(f"\ninput kept: {a}"
                                                    for a in outcome.artifacts)
    assert outcome.runs > 1000
    regressions = sorted((targets.REGRESSIONS / name).glob("*")) \
        if (targets.REGRESSIONS / name).is_dir() else []
    if regressions:
        replay = subprocess.run([str(outcome.program), *map(str, regressions)],
                                capture_output=True, text=True, errors="replace")
        assert replay.returncode == 0, replay.stderr[-4000:]


def test_every_regression_belongs_to_a_differential_target():
    folders = [p for p in targets.REGRESSIONS.iterdir() if p.is_dir()]
    assert folders and {p.name for p in folders} <= set(targets.DIFFERENTIAL_TARGETS)
    assert all(any(p.iterdir()) for p in folders)
    listed = (targets.REGRESSIONS / "README.md").read_text()   # each says its rule there
    assert all(f"`{p.parent.name}/{p.name}`" in listed for f in folders for p in f.iterdir())
