"""Trace replay of the personnel example, against counts made by hand.

smithperson holds one PersonnelRecord, four Names (the employee, the spouse, two
children), one children list of two ChildInformation values, three Dates and one
EmployeeNumber.  The bachelor below has no children (the DEFAULT {} list is absent) and
his own name as his spouse's: one PersonnelRecord, two Names, one Date.  The replay
builds the generated C with a C compiler, as `asn1c-hybrid profile` does."""
from __future__ import annotations

import json
import re
import shutil

import asn1tools
import pytest
from test_estimate_static import P, personnel_graph
from test_profile_trace import SMITH, indefinite

from asn1c_hybrid import api, cli
from asn1c_hybrid.estimate.profile import Profile
from asn1c_hybrid.errors import ReplayError
from asn1c_hybrid.estimate.replay import replay

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

REC = f"{P}.PersonnelRecord"


@pytest.fixture(scope="module")
def encodings(repo_root):
    text = (repo_root / "examples/personnel/personnel.asn").read_text()
    spec = asn1tools.compile_string(re.sub(r"smithperson.*?(?=\nEND)", "", text, flags=re.S),
                                    "der")
    bachelor = {k: v for k, v in SMITH.items() if k != "children"}
    bachelor["nameOfSpouse"] = SMITH["name"]
    return spec.encode("PersonnelRecord", SMITH), spec.encode("PersonnelRecord", bachelor)


def counts(profile: Profile) -> dict[str, tuple[int, int]]:
    return {t: (c.values, c.items) for t, c in profile.counts.items() if t.startswith(P)}


def test_counts_match_the_hand_count(encodings):
    smith, bachelor = encodings
    profile = replay(personnel_graph(), REC, [smith, bachelor, indefinite(smith)])
    assert profile.messages == 3
    assert profile.spec_hash == personnel_graph().spec_hash()
    assert counts(profile) == {
        REC: (3, 0),
        f"{P}.Name": (4 + 2 + 4, 0),
        f"{P}.PersonnelRecord.children": (2, 4),         # two lists of two children
        f"{P}.ChildInformation": (4, 0),
        f"{P}.Date": (3 + 1 + 3, 0),
        f"{P}.EmployeeNumber": (3, 0),
    }


def test_profile_command_with_hex_trace_and_merge(encodings, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    smith, bachelor = encodings
    trace = tmp_path / "trace.hex"
    trace.write_text(f"{smith.hex()}\n{bachelor.hex()}\n")
    first = tmp_path / "first.json"
    assert cli.main(["profile", "x.asn", "--pdu", "PersonnelRecord", "--trace", str(trace),
                     "-o", str(first)]) == 0
    data = json.loads(first.read_text())
    assert data["messages"] == 2 and data["types"][f"{P}.Name"] == {"values": 6}
    both = tmp_path / "both.json"
    assert cli.main(["profile", "x.asn", "--pdu", REC, "--trace", str(trace), "--merge",
                     str(first), "-o", str(both)]) == 0
    data = json.loads(both.read_text())
    assert data["messages"] == 4 and data["types"][f"{P}.Name"] == {"values": 12}
    assert data["types"][f"{P}.PersonnelRecord.children"] == {"values": 2, "items": 4}
    capsys.readouterr()
    # the profile drives explain: 12 Names in 4 messages
    assert cli.main(["explain", "x.asn", "--profile", str(both), "--format", "json",
                     "--cost-model", "units"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["types"]}
    assert rows[f"{P}.Name"]["frequency"] == 3
    assert rows[f"{P}.PersonnelRecord.children"]["saving"] == 0.5 * (1 + 2)


def test_a_pdu_that_does_not_decode_is_named(encodings, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    smith, _ = encodings
    broken = bytearray(smith)
    broken[3] = 0x84                 # the first member's tag: [4], which the SET lacks
    trace = tmp_path / "t.ber"
    trace.write_bytes(smith + bytes(broken))
    code = cli.main(["profile", "x.asn", "--pdu", REC, "--trace", str(trace), "-o",
                     str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"asn1c-hybrid: error: {trace}: PDU 2: byte ")
    assert not (tmp_path / "p.json").exists()


def test_nothing_to_count(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    assert cli.main(["profile", "x.asn", "--pdu", REC, "-o", str(tmp_path / "p.json")]) == 2
    assert "nothing to count" in capsys.readouterr().err


def test_replay_error_without_a_compiler(monkeypatch, encodings):
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(ReplayError, match="needs a C compiler"):
        replay(personnel_graph(), REC, [encodings[0]])


def test_long_traces_report_progress(encodings):
    import io

    from asn1c_hybrid.estimate.progress import Progress
    seen = []
    profile = replay(personnel_graph(), REC, [encodings[1]] * 1200, seen.append)
    assert seen == [500, 1000, 1200]                       # one step per converter run
    assert profile.counts[REC].values == 1200
    out = io.StringIO()
    bar = Progress(1200, "replaying", out, enabled=True)
    for done in seen:
        bar.update(done)
    bar.close()
    assert out.getvalue().endswith("[##############################] 100% 1200/1200\n")
    quiet = io.StringIO()                                  # not a terminal: nothing
    Progress(1200, "replaying", quiet).update(600)
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("rules, codec", [("uper", "uper"), ("aper", "per")])
def test_per_traces_count_as_ber_does(repo_root, tmp_path, monkeypatch, rules, codec):
    # The same two records as `encodings`, in asn1tools' PER: the runtime's PER decoder
    # counts the values the hand count says, so a profile does not depend on the rules
    # its trace was captured in.
    text = (repo_root / "examples/personnel/personnel.asn").read_text()
    spec = asn1tools.compile_string(re.sub(r"smithperson.*?(?=\nEND)", "", text, flags=re.S),
                                    codec)
    bachelor = {k: v for k, v in SMITH.items() if k != "children"}
    bachelor["nameOfSpouse"] = SMITH["name"]
    smith, single = spec.encode("PersonnelRecord", SMITH), spec.encode("PersonnelRecord",
                                                                       bachelor)
    profile = replay(personnel_graph(), REC, [smith, single, smith], encoding=rules)
    assert profile.messages == 3
    assert counts(profile) == {
        REC: (3, 0),
        f"{P}.Name": (4 + 2 + 4, 0),
        f"{P}.PersonnelRecord.children": (2, 4),
        f"{P}.ChildInformation": (4, 0),
        f"{P}.Date": (3 + 1 + 3, 0),
        f"{P}.EmployeeNumber": (3, 0),
    }
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    lines = tmp_path / "trace.hex"
    lines.write_text(f"{smith.hex()}\n{single.hex()}\n{smith.hex()}\n")
    out = tmp_path / "p.json"
    assert cli.main(["profile", "x.asn", "--pdu", REC, "--encoding", rules, "--trace",
                     str(lines), "-o", str(out)]) == 0
    assert Profile.load(out).to_json() == profile.to_json()


def test_a_per_pdu_with_octets_left_over_is_named(tmp_path, monkeypatch, capsys, repo_root):
    monkeypatch.setattr(api, "load", lambda specs, diagnostics=None: personnel_graph())
    text = (repo_root / "examples/personnel/personnel.asn").read_text()
    spec = asn1tools.compile_string(re.sub(r"smithperson.*?(?=\nEND)", "", text, flags=re.S),
                                    "uper")
    smith = spec.encode("PersonnelRecord", SMITH)
    trace = tmp_path / "t.hex"
    trace.write_text(f"{smith.hex()}\n{smith.hex()}00\n")
    code = cli.main(["profile", "x.asn", "--pdu", REC, "--encoding", "uper", "--trace",
                     str(trace), "-o", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"asn1c-hybrid: error: {trace}: PDU 2: byte {len(smith)}: 1 octet "
                          f"after the {REC} in its frame"), err
