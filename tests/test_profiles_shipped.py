"""The profiles in profiles/ are what replaying their traces gives today (profiles/README.md
says how each is made), and the study and the demo find them there."""
from __future__ import annotations

import json
import shutil

import pytest

from asn1c_hybrid import api

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="replay builds the converter with a C compiler")

SHIPPED = [
    ("personnel.json", ["examples/personnel/personnel.asn"],
     "PersonnelRecordModule.PersonnelRecord", "bench/messages/personnel.der"),
    ("x400-trace-18.json", ["examples/x400/spec"], "MTAAbstractService.MTS-APDU",
     "examples/x400/traces/trace-18.ber"),
    ("x400-trace-2000.json", ["examples/x400/spec"], "MTAAbstractService.MTS-APDU",
     "examples/x400/traces/trace-2000.ber"),
]


@pytest.mark.parametrize("name, specs, pdu, trace", SHIPPED, ids=[s[0] for s in SHIPPED])
def test_shipped_profile_is_a_fresh_replay(repo_root, name, specs, pdu, trace):
    graph = api.load([str(repo_root / s) for s in specs])
    fresh = api.profile(graph, pdu, [str(repo_root / trace)])
    shipped = json.loads((repo_root / "profiles" / name).read_text())
    assert shipped == json.loads(fresh.dumps())
    assert shipped["version"] == 1 and shipped["format"] == "asn1c-hybrid profile"


def test_every_shipped_profile_is_listed(repo_root):
    present = {p.name for p in (repo_root / "profiles").glob("*.json")}
    assert present == {s[0] for s in SHIPPED}
    readme = (repo_root / "profiles" / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in present)
