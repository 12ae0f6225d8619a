"""Profile files: the format, the spec hash check, merging, and use as a frequency source.

The smithperson value of the personnel example holds, counted by hand: one
PersonnelRecord, four Names (the employee, the spouse, two children), one children list
of two ChildInformation values, three Dates (hire, two births)."""
from __future__ import annotations

import json

import pytest
from test_estimate_static import P, personnel_graph

from asn1c_hybrid.estimate.profile import Profile, ProfileError, TypeCounts
from asn1c_hybrid.select.costs import unit_costs
from asn1c_hybrid.select.selection import select

SMITH = {f"{P}.PersonnelRecord": (1, 0), f"{P}.Name": (4, 0), f"{P}.ChildInformation": (2, 0),
         f"{P}.PersonnelRecord.children": (1, 2), f"{P}.Date": (3, 0),
         f"{P}.PersonnelRecord.title": (1, 0), f"{P}.EmployeeNumber": (1, 0),
         f"{P}.Name.givenName": (4, 0), f"{P}.Name.initial": (4, 0),
         f"{P}.Name.familyName": (4, 0)}


def smith_profile(messages: int = 1, times: int = 1) -> Profile:
    g = personnel_graph()
    return Profile(g.spec_hash(), messages,
                   {t: TypeCounts(v * times, i * times) for t, (v, i) in SMITH.items()})


def test_round_trip_and_form(tmp_path):
    path = tmp_path / "p.json"
    smith_profile().save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "asn1c-hybrid profile" and data["version"] == 1
    assert data["spec_hash"] == personnel_graph().spec_hash() and data["messages"] == 1
    assert data["types"][f"{P}.PersonnelRecord.children"] == {"values": 1, "items": 2}
    assert data["types"][f"{P}.Name"] == {"values": 4}
    assert list(data["types"]) == sorted(data["types"])           # deterministic
    loaded = Profile.load(path)
    assert loaded.counts == smith_profile().counts
    assert loaded.dumps() == path.read_text()


def test_runtime_counters_form_is_read(tmp_path):
    # what asn1h_profile_write prints: {"spec_hash": ..., "counters": {id: [values, items]}}
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"spec_hash": personnel_graph().spec_hash(), "messages": 3,
                                "counters": {f"{P}.Name": [12, 0],
                                             f"{P}.PersonnelRecord.children": [3, 6]}}))
    p = Profile.load(path)
    assert p.messages == 3
    assert p.counts[f"{P}.PersonnelRecord.children"] == TypeCounts(3, 6)
    assert p.frequencies() == {f"{P}.Name": 4, f"{P}.PersonnelRecord.children": 1}


def test_merge_sums_every_count():
    merged = Profile.merge([smith_profile(1), smith_profile(2, times=2)])
    assert merged.messages == 3
    assert merged.counts[f"{P}.Name"] == TypeCounts(12, 0)
    assert merged.counts[f"{P}.PersonnelRecord.children"] == TypeCounts(3, 6)
    assert merged.frequencies()[f"{P}.Name"] == 4


def test_another_spec_is_refused():
    other = Profile("0" * 64, 1, {f"{P}.Name": TypeCounts(1)}, "other.json")
    with pytest.raises(ProfileError, match="other.json was made from another specification"):
        other.check(personnel_graph())
    with pytest.raises(ProfileError, match="different specifications"):
        Profile.merge([smith_profile(), other])


def test_unknown_types_are_refused():
    p = smith_profile()
    p.counts["M.Gone"] = TypeCounts(1)
    with pytest.raises(ProfileError, match="M.Gone is not in the specification"):
        p.check(personnel_graph())
    p = smith_profile()
    p.counts[f"{P}.Name"] = TypeCounts(1, 3)
    with pytest.raises(ProfileError, match="has \"items\""):
        p.check(personnel_graph())


@pytest.mark.parametrize("content, message", [
    ("{", "not valid JSON"),
    ("[]", "not a JSON object"),
    ('{"format": "x"}', '"format"'),
    ('{"format": "asn1c-hybrid profile", "version": 9}', "version 9"),
    ('{"format": "asn1c-hybrid profile", "version": 1, "spec_hash": "ab", "messages": -1,'
     ' "types": {}}', '"messages"'),
    ('{"format": "asn1c-hybrid profile", "version": 1, "spec_hash": "ab", "messages": 1,'
     ' "types": {"M.A": {"values": 1.5}}}', "M.A"),
    ('{"spec_hash": "ab", "counters": {"M.A": [1]}}', "M.A"),
])
def test_malformed_files_say_what_is_wrong(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ProfileError, match=message) as info:
        Profile.load(path)
    assert str(info.value).startswith(str(path))


def test_profile_as_frequency_source_drives_the_selection():
    g = personnel_graph()
    est = smith_profile(messages=2, times=2).estimate(g)       # two smithpersons
    assert est.frequencies[f"{P}.Name"] == 4
    assert est.frequencies[f"{P}.Name.givenName"] == 4
    assert est.items_per_value == {f"{P}.PersonnelRecord.children": 2}
    costs = unit_costs(g, est.items_per_value)
    # per message: Name 4 x 4 = 16 (cost 4), PersonnelRecord 7 (7), ChildInformation
    # 2 x 3 = 6 (3), children 1 x (1 + 2) = 3 (2)
    s = select(g, est.frequencies, costs, "7", source=est.source)
    assert s.compiled == {f"{P}.Name", f"{P}.ChildInformation"}
    assert s.saving == 22 and s.saving_max == 16 + 7 + 6 + 3
    s = select(g, est.frequencies, costs, "6", source=est.source)
    assert s.compiled == {f"{P}.Name", f"{P}.PersonnelRecord.children"}
    assert s.saving == 19


def test_lists_never_seen_keep_the_static_length():
    g = personnel_graph()
    p = Profile(g.spec_hash(), 1, {f"{P}.PersonnelRecord": TypeCounts(1)})
    assert p.estimate(g).items_per_value == {f"{P}.PersonnelRecord.children": 2.0}
