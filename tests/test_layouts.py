"""Message layouts (asn1c_hybrid/layouts.py) and their place in profile files.

Expected layouts are written by hand from the octets: each TLV's identifier and length
octets, a constructed one's contents in parentheses."""
from __future__ import annotations

import hashlib
import json
import shutil
import sys

import pytest

from asn1c_hybrid import api
from asn1c_hybrid.errors import UsageError
from asn1c_hybrid.layouts import (Layout, LayoutError, coverage, layout_id, learn, parse,
                                  render, shape)
from asn1c_hybrid.estimate.profile import Profile, ProfileError

# An SNMPv1 get-request of net-snmp: version 0, community "public", request id
# 0x246f3be8, one variable binding of sysDescr.0 (OID 1.3.6.1.2.1.1.1.0?) with NULL.
GET = bytes.fromhex("302602010004067075626c6963a1190204246f3be8020100020100"
                    "300b300906052b060102010500")
GET_LAYOUT = "30:26(02:01 04:06 a1:19(02:04 02:01 02:01 30:0b(30:09(06:05 05:00))))"


def get_request(request_id: bytes, oid: bytes) -> bytes:
    """The same get-request with another request id and OID (lengths recomputed)."""
    def tlv(tag: int, contents: bytes) -> bytes:
        return bytes([tag, len(contents)]) + contents
    binding = tlv(0x30, tlv(0x30, tlv(0x06, oid) + b"\x05\x00"))
    pdu = tlv(0xA1, tlv(0x02, request_id) + b"\x02\x01\x00\x02\x01\x00" + binding)
    return tlv(0x30, b"\x02\x01\x00" + tlv(0x04, b"public") + pdu)


def test_layout_of_a_real_message():
    assert render(parse(GET)) == GET_LAYOUT
    assert get_request(bytes.fromhex("246f3be8"), bytes.fromhex("2b06010201")) == GET
    assert shape(parse(GET)) == "30:*(02:* 04:* a1:*(02:* 02:* 02:* 30:*(30:*(06:* 05:*))))"


def test_long_lengths_high_tags_and_indefinite_lengths():
    long_string = b"\x04\x81\x80" + bytes(128)
    assert render(parse(b"\x30\x81\x83" + long_string)) == "30:8183(04:8180)"
    # [APPLICATION 200] (two identifier octets after the first), primitive, 1 octet
    assert render(parse(bytes.fromhex("5f814801ff"))) == "5f8148:01"
    # indefinite: the end-of-contents octets are a TLV of their own
    assert render(parse(bytes.fromhex("3080020105a080050000000000"))) == \
        "30:80(02:01 a0:80(05:00 00:00) 00:00)"


@pytest.mark.parametrize("octets, offset", [
    ("3006020105", 0),          # shorter than its length says
    ("300302020500", 2),        # the INTEGER runs past its SEQUENCE
    ("0480", 0),                # indefinite length on a primitive
    ("020100ff", 3),            # octets after the PDU
])
def test_malformed_octets_name_the_offset(octets, offset):
    with pytest.raises(LayoutError, match=f"offset {offset}:"):
        parse(bytes.fromhex(octets))


def test_exact_layouts_count_and_rank():
    one = get_request(b"\x01", b"\x2b\x06")
    two = get_request(b"\x01\x02", b"\x2b\x06")
    learnt = learn([one, one, one, two, two, GET], "exact")
    assert [(l.text, l.count) for l in learnt] == [
        ("30:20(02:01 04:06 a1:13(02:01 02:01 02:01 30:08(30:06(06:02 05:00))))", 3),
        ("30:21(02:01 04:06 a1:14(02:02 02:01 02:01 30:08(30:06(06:02 05:00))))", 2)]
    assert all(l.form == "exact" for l in learnt)         # GET, seen once, is left out
    assert learnt[0].id == hashlib.sha256(learnt[0].text.encode()).hexdigest()[:12]
    assert learn([one, one, two, two], "exact", limit=1)[0].count == 2
    assert coverage(learnt[:1], [one, two, GET, one]) == 0.5


def test_slot_layouts_open_the_lengths_that_varied():
    pdus = [get_request(b"\x01", b"\x2b\x06"), get_request(b"\x01\x02", b"\x2b\x06\x01"),
            get_request(b"\x7f", b"\x2b\x06")]
    (slot,) = learn(pdus, "slot")
    # request id and OID varied, and with them every enclosing length; the rest did not
    assert slot.text == "30:*(02:01 04:06 a1:*(02:* 02:01 02:01 30:*(30:*(06:* 05:00))))"
    assert slot.count == 3
    assert slot.matches(parse(GET))                       # other lengths in the slots
    other_community = GET.replace(b"\x04\x06public", b"\x04\x05publi").replace(
        b"\x30\x26", b"\x30\x25", 1)
    assert not slot.matches(parse(other_community))       # a fixed length differs
    assert coverage([slot], [GET, other_community]) == 0.5
    assert not Layout("slot", slot.text, 1).matches(parse(b"\x30\x03\x02\x01\x00"))


def test_profile_keeps_layouts_and_reads_profiles_without(tmp_path):
    profile = Profile("ab", 5, {}, "", {})
    from asn1c_hybrid.estimate.profile import learn_layouts
    pdus = [get_request(b"\x01", b"\x2b\x06")] * 3 + [GET, GET]
    profile.layouts["M.PDU"] = learn_layouts(pdus, [f"PDU {k}" for k in range(5)])
    path = tmp_path / "p.json"
    profile.save(path)
    data = json.loads(path.read_text())
    assert data["version"] == 1
    rows = data["layouts"]["M.PDU"]
    assert rows["messages"] == 5
    assert [(r["count"], r["layout"]) for r in rows["exact"]] == [
        (3, "30:20(02:01 04:06 a1:13(02:01 02:01 02:01 30:08(30:06(06:02 05:00))))"),
        (2, GET_LAYOUT)]
    assert [(r["count"], r["layout"]) for r in rows["slot"]] == [
        (5, "30:*(02:01 04:06 a1:*(02:* 02:01 02:01 30:*(30:*(06:* 05:00))))")]
    assert Profile.load(path).dumps() == path.read_text()
    merged = Profile.merge([Profile.load(path), Profile.load(path)])
    assert [l.count for l in merged.layouts["M.PDU"].forms["exact"]] == [6, 4]
    assert merged.layouts["M.PDU"].messages == 10

    old = {k: v for k, v in data.items() if k != "layouts"}
    path.write_text(json.dumps(old))
    assert Profile.load(path).layouts == {}

    data["layouts"]["M.PDU"]["exact"][0]["id"] = "000000000000"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="does not have the id of its text"):
        Profile.load(path)


def _count_layouts_by_hand(pdus: list[bytes]) -> dict[str, int]:
    """An independent reading of the headers: a stack of open constructed ends instead of
    recursion, building the same text."""
    counts: dict[str, int] = {}
    for data in pdus:
        out, ends, pos = [], [], 0
        while pos < len(data):
            start = pos
            pos += 1
            if data[start] & 0x1F == 0x1F:
                while data[pos] & 0x80:
                    pos += 1
                pos += 1
            ident = data[start:pos].hex()
            n = data[pos] & 0x7F if data[pos] & 0x80 else 0
            size = int.from_bytes(data[pos + 1:pos + 1 + n], "big") if n else data[pos]
            out.append(("" if not out or out[-1].endswith("(") else " ")
                       + f"{ident}:{data[pos:pos + 1 + n].hex()}")
            pos += 1 + n
            if data[start] & 0x20:
                out.append("(")
                ends.append(pos + size)
            else:
                pos += size
            while ends and ends[-1] == pos:
                ends.pop()
                out.append(")")
        text = "".join(out)
        counts[text] = counts.get(text, 0) + 1
    return counts


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="replay builds the converter with a C compiler")
def test_profile_of_the_snmp_example_learns_its_layouts(repo_root, shared_dir):
    sys.path.insert(0, str(repo_root))
    from bench import corpora
    specs = [str(p) for p in sorted((repo_root / "examples" / "snmp" / "spec").glob("*.asn"))]
    specs += [str(shared_dir / "specs" / "IETF_SNMP" / f) for f in
              ("RFC1155-SMI.asn", "RFC1157-SNMP.asn")]
    trace = repo_root / "examples" / "snmp" / "trace.ber"
    profile = api.profile(api.load(specs), "SNMP-Traffic.Message", [str(trace)])
    learnt = profile.layouts["SNMP-Traffic.Message"]
    pdus = corpora.split_pdus(trace.read_bytes())
    assert learnt.messages == len(pdus) == profile.messages
    by_hand = _count_layouts_by_hand(pdus)
    assert {l.text: l.count for l in learnt.forms["exact"]} == \
        {t: n for t, n in sorted(by_hand.items(), key=lambda kv: (-kv[1], kv[0]))[:256]
         if n >= 2}
    slots = learnt.forms["slot"]
    assert sum(l.count for l in slots) <= len(pdus)
    assert coverage(slots, pdus) >= sum(l.count for l in slots) / len(pdus)


def test_layout_options_are_checked():
    with pytest.raises(UsageError, match="one --pdu and --profile"):
        api.CompileOptions(layouts=3)
    with pytest.raises(UsageError, match="one --pdu and --profile"):
        api.CompileOptions(layouts=3, select=api.SelectOptions(pdus=("M.A", "M.B"),
                                                               profiles=("p.json",)))
    with pytest.raises(UsageError, match="0 or more"):
        api.CompileOptions(layouts=-1)
    with pytest.raises(UsageError, match="layout form 'wide'"):
        api.CompileOptions(layout_form="wide")


def test_layouts_need_a_profile_that_has_them(tmp_path, repo_root):
    graph = api.load([str(repo_root / "examples" / "personnel" / "personnel.asn")])
    pdu = "PersonnelRecordModule.PersonnelRecord"
    path = tmp_path / "no-layouts.json"
    Profile(graph.spec_hash(), 1, {}, "").save(path)
    options = api.CompileOptions(mode="compiled", layouts=2, select=api.SelectOptions(
        pdus=(pdu,), profiles=(str(path),)))
    with pytest.raises(UsageError, match=f"the profiles have no layouts of {pdu}"):
        api.generate(graph, options)


def test_a_long_form_length_makes_strict_der_miss(tmp_path):
    """A layout with a length DER would refuse (here an EXPLICIT tag's wrapper in long
    form) gets a fast path that strict DER mode never takes; the other layout's does."""
    spec = tmp_path / "Wrapped.asn"
    spec.write_text("Wrapped DEFINITIONS ::= BEGIN\n"
                    "T ::= SEQUENCE { a [0] EXPLICIT INTEGER, b [1] EXPLICIT BOOLEAN }\nEND\n")
    graph = api.load([str(spec)])
    minimal = bytes.fromhex("300aa003020105a1030101ff")
    wrapper_long = bytes.fromhex("300ba08103020105a1030101ff")
    trace = tmp_path / "trace.ber"
    trace.write_bytes(minimal * 2 + wrapper_long * 2)
    profile = tmp_path / "profile.json"
    api.profile(graph, "Wrapped.T", [str(trace)]).save(profile)
    options = api.CompileOptions(mode="compiled", layouts=2, select=api.SelectOptions(
        pdus=("Wrapped.T",), profiles=(str(profile),)))
    source = api.generate(graph, options)["Wrapped.c"]
    checks = {line.split("_layouts_")[1][:12]: source.split(line, 1)[1].split("ASN1H_FAST_PATH_HIT();")[0]
              for line in source.splitlines() if line.startswith("static size_t T_decode_layouts_")}
    ids = {layout_id(render(parse(m))): m for m in (minimal, wrapper_long)}
    assert set(checks) == set(ids)
    for key, body in checks.items():
        assert (" || der)" in body) == (ids[key] is wrapper_long)
