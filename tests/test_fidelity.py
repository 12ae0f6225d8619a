"""Fidelity: what this version of a specification does not know survives decoding and
re-encoding, identically on the compiled, interpreted and mixed paths (X.680 52).

- The two LDAP messages of the fidelity issue: an unknown alternative of the extensible
  CHOICE protocolOp (once accepted by one path and refused by the other), and a control
  with an unknown trailing addition (once dropped on re-encoding).
- Values of a later version of a specification (tests/specs/versions/New.asn), encoded
  by asn1tools in DER and BER, through a converter built from the first version (Old.asn):
  additions in a SEQUENCE between its two extension markers and at its end, in a SET, a
  CHOICE's new alternatives; each re-encodes to the canonical DER of the new value.
- ASN1H_DROP_UNKNOWN (the converter's --drop-unknown) gives back the values and the DER
  of the messages without the additions; strict DER still refuses what is not DER.
- The same later values in UPER and APER (asn1tools): relayed byte for byte, and without
  their additions in DER; an unknown alternative received in PER has no BER.
- An ENUMERATED addition received in PER, kept by its index among the additions: relayed
  byte for byte, refused in DER, and kept apart from the numbers BER keeps.
"""
from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

import asn1tools
import pytest

import cbuild
import specbuilds
import typedtlv
from asn1c_hybrid import api
from pycrate_ref import PycrateSpec
from reference import reference_for

LDAP_PDU = "Lightweight-Directory-Access-Protocol-V3.LDAPMessage"
MODES = list(specbuilds.MODES)

# messageID 101, then a universal OBJECT IDENTIFIER (06 07 ...) where protocolOp is:
# no alternative has that tag, and protocolOp is extensible; then controls [0]
UNKNOWN_ALTERNATIVE = bytes.fromhex(
    "303102016506070a010004000400a02330210416cfd1cdd1c7cbcfcd3131333535362e312e342e333139"
    "040730050201000400")
# a searchResDone whose control carries [UNIVERSAL 26] constructed (3a 07 ...) after
# controlType: Control is extensible (the module is EXTENSIBILITY IMPLIED)
UNKNOWN_ADDITION = bytes.fromhex(
    "303102010665070a010004000400a02330210416312e322e3834302e3131333535362e312e342e333139"
    "3a0730050201000400")
# the same without the addition: lengths 31 -> 28, 23 -> 1a, 21 -> 18
WITHOUT_ADDITION = bytes.fromhex(
    "302802010665070a010004000400a01a30180416312e322e3834302e3131333535362e312e342e333139")


def convert(entry, mode: str, pdu: str, data: bytes, *options: str, output: str = "der"):
    return entry.builds[mode].run("-p", pdu, "-o", output, *options, "-", input=data,
                                  check=False)


@pytest.fixture(scope="module")
def ldap():
    return specbuilds.builds("ldap")


@pytest.mark.parametrize("mode", MODES)
def test_an_unknown_alternative_is_kept_on_every_path(ldap, mode):
    result = convert(ldap, mode, LDAP_PDU, UNKNOWN_ALTERNATIVE)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == UNKNOWN_ALTERNATIVE
    jer = json.loads(convert(ldap, mode, LDAP_PDU, UNKNOWN_ALTERNATIVE, output="jer").stdout)
    assert jer["protocolOp"] == {"...": "06070A010004000400"}      # documented key, hex
    assert jer["controls"][0]["controlValue"] == "30050201000400"  # controls not lost


@pytest.mark.parametrize("mode", MODES)
def test_an_unknown_addition_is_kept_on_every_path(ldap, mode):
    result = convert(ldap, mode, LDAP_PDU, UNKNOWN_ADDITION)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == UNKNOWN_ADDITION
    # it is DER: strict DER takes it as it is
    assert convert(ldap, mode, LDAP_PDU, UNKNOWN_ADDITION, "--strict-der").stdout \
        == UNKNOWN_ADDITION
    jer = json.loads(convert(ldap, mode, LDAP_PDU, UNKNOWN_ADDITION, output="jer").stdout)
    assert jer["controls"][0]["..."] == "3A0730050201000400"
    # dropped on request: the value and the DER of the message without it
    dropped = convert(ldap, mode, LDAP_PDU, UNKNOWN_ADDITION, "--drop-unknown")
    assert dropped.stdout == WITHOUT_ADDITION
    assert "..." not in json.loads(convert(ldap, mode, LDAP_PDU, UNKNOWN_ADDITION,
                                           "--drop-unknown", output="jer").stdout)["controls"][0]


def test_additions_come_at_the_extension_marker_only(ldap):
    """An unknown tag before a known component is no addition (X.680 3.8.29, the insertion
    point, is after controlValue): every path refuses it, at the same offset."""
    moved = bytes.fromhex(                  # the [UNIVERSAL 26] element before controlType
        "303102010665070a010004000400a02330213a0730050201000400"
        "0416312e322e3834302e3131333535362e312e342e333139")
    for mode in MODES:
        result = convert(ldap, mode, LDAP_PDU, moved)
        assert result.returncode == 1
        assert result.stderr.decode().startswith("-:18: ") \
            and result.stderr.decode().rstrip().endswith("unexpected tag"), result.stderr


# ---- A later version's values, through a decoder of the first version -------------------

VERSIONS_PDU = "Versions.Message"
RECORD = {"id": 1, "name": "a", "level": 7, "flags": (b"\x80", 1), "tags": ["x", "y"],
          "checksum": b"\x01"}
# (a value of New.asn, the same with the SEQUENCE and SET additions left out)
VERSIONED = [
    ({"record": RECORD, "bag": {"x": 5, "y": True, "z": b"zz", "w": 3}, "pick": ("b", True),
      "picks": [("n", 4), ("r", {"id": 2, "level": 1, "tags": [], "checksum": b""})],
      "comment": "hi"},
     {"record": {"id": 1, "name": "a", "checksum": b"\x01"}, "bag": {"x": 5, "y": True},
      "pick": ("b", True),
      "picks": [("n", 4), ("r", {"id": 2, "level": 1, "tags": [], "checksum": b""})]}),
    ({"record": {"id": -3, "level": 0, "tags": ["t"], "checksum": b"\xff" * 200},
      "bag": {"x": 0, "w": -1}, "pick": ("s", "same"), "picks": []},
     {"record": {"id": -3, "checksum": b"\xff" * 200}, "bag": {"x": 0}, "pick": ("s", "same"),
      "picks": []}),
    ({"record": {"id": 9, "checksum": b""}, "bag": {"x": 1}, "pick": ("n", 1), "picks": []},
     None),                                 # nothing new: the same either way
]


@pytest.fixture(scope="module")
def versions():
    entry = specbuilds.builds("versions")
    return entry, reference_for(entry.spec.reference_texts()), api.load(
        [str(specbuilds.TESTS / "specs" / "versions" / "New.asn")])


def canonical(new_graph, der: bytes) -> bytes:
    return typedtlv.canonical_der(new_graph, VERSIONS_PDU, der)


@pytest.mark.parametrize("mode", MODES)
def test_a_later_versions_messages_round_trip_byte_exactly(versions, mode):
    """asn1tools encodes values of New.asn, in DER and in BER; a converter built from
    Old.asn keeps what it does not know and writes the canonical DER of the new value."""
    entry, reference, new_graph = versions
    for value, old_value in VERSIONED:
        der = canonical(new_graph, reference.encode_der(VERSIONS_PDU, value))
        result = convert(entry, mode, VERSIONS_PDU, der)
        assert result.returncode == 0, result.stderr.decode()
        assert result.stdout == der, (result.stdout.hex(), der.hex())
        strict = convert(entry, mode, VERSIONS_PDU, der, "--strict-der")
        assert strict.stdout == der
        # from BER the additions get DER framing, their contents as they came (a string
        # in segments stays in segments: without its type nothing more is known), so the
        # output is DER that strict DER reads back to the same octets
        for data in (reference.encode_ber(VERSIONS_PDU, value),
                     typedtlv.ber_variant(new_graph, VERSIONS_PDU, der, 5)[0]):
            result = convert(entry, mode, VERSIONS_PDU, data)
            assert result.returncode == 0, result.stderr.decode()
            again = convert(entry, mode, VERSIONS_PDU, result.stdout, "--strict-der")
            assert again.returncode == 0 and again.stdout == result.stdout, again.stderr
            if old_value is None:
                assert result.stdout == der
        jer = convert(entry, mode, VERSIONS_PDU, der, output="jer").stdout.decode()
        assert ('"...":"' in jer) == (old_value is not None)
        # dropped: the DER of the value without the SEQUENCE and SET additions (a CHOICE's
        # unknown alternative is the value itself, and stays)
        dropped = convert(entry, mode, VERSIONS_PDU, der, "--drop-unknown")
        expected = der if old_value is None else canonical(
            new_graph, reference.encode_der(VERSIONS_PDU, old_value))
        assert dropped.stdout == expected


def test_a_later_versions_set_additions_are_sorted_into_place(versions):
    """BER lets a SET's components come in any order; DER puts the unknown ones among the
    known by tag (X.690 10.3)."""
    entry, reference, new_graph = versions
    value = VERSIONED[0][0]
    der = canonical(new_graph, reference.encode_der(VERSIONS_PDU, value))
    tree = typedtlv.Reader(new_graph).parse(VERSIONS_PDU, der)
    bag = tree.children[1]
    bag.children.reverse()                  # w [3], z [2], y [1], x [0]
    shuffled = tree.encode()
    assert shuffled != der
    for mode in MODES:
        assert convert(entry, mode, VERSIONS_PDU, shuffled).stdout == der
        assert convert(entry, mode, VERSIONS_PDU, shuffled, "--strict-der").returncode == 1


FRAMED_PDU = "Versions.Framed"


@pytest.mark.parametrize("mode", MODES)
def test_additions_go_before_the_roots_second_part(versions, mode):
    """Framed ::= SEQUENCE { id [0] INTEGER, ..., ..., checksum [9] OCTET STRING }: a later
    version's additions ([2] and [3] here) come between id and checksum (X.680 3.8.29, the
    insertion point), are kept there, and nowhere else."""
    entry = versions[0]
    framed = bytes.fromhex("300f" "800101" "820107" "a3030c0178" "890201ff")
    result = convert(entry, mode, FRAMED_PDU, framed)
    assert result.stdout == framed, result.stderr
    jer = json.loads(convert(entry, mode, FRAMED_PDU, framed, output="jer").stdout)
    assert jer == {"id": 1, "checksum": "01FF", "...": "820107A3030C0178"}
    # after the root's second part there is no place for them
    late = bytes.fromhex("300f" "800101" "890201ff" "820107" "a3030c0178")
    result = convert(entry, mode, FRAMED_PDU, late)
    assert result.returncode == 1
    assert result.stderr.decode().startswith("-:9: ")


@pytest.mark.parametrize("name, pdu", [("personnel", "PersonnelRecordModule.PersonnelRecord"),
                                       ("blackwell", "BlackwellModule.BlackwellMessage"),
                                       ("x400", "MTAAbstractService.MTS-APDU"),
                                       ("rfc5280", "PKIX1Explicit88.Certificate")])
def test_specs_without_extensible_types_have_nothing_to_keep(name, pdu):
    """The other examples' PDUs reach no extensible SEQUENCE, SET or CHOICE (1988-era
    modules), so their fidelity is the exact round trips that test_real_data.py,
    test_x400_example.py and test_personnel.py check."""
    graph = specbuilds.builds(name, modes=()).graph
    seen, stack = set(), [pdu]
    while stack:
        node_id = stack.pop()
        if node_id not in seen:
            seen.add(node_id)
            stack.extend(graph.successors(node_id))
    from asn1c_hybrid.typegraph import Kind
    assert not [n for n in seen if graph.target(n).extensible
                and graph.target(n).kind in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE)]


# ---- The same in PER: kept as open types, relayed byte for byte ------------------------

PER_CODECS = {"uper": "uper", "aper": "per"}        # ours -> asn1tools' name


@pytest.fixture(scope="module")
def versions_per():
    files = {name: [str(specbuilds.TESTS / "specs" / "versions" / f"{name}.asn")]
             for name in ("Old", "New")}
    return {(name, ours): asn1tools.compile_files(files[name], theirs)
            for name in files for ours, theirs in PER_CODECS.items()}


@pytest.mark.parametrize("rules", list(PER_CODECS))
@pytest.mark.parametrize("mode", MODES)
def test_a_later_versions_per_is_relayed_byte_exactly(versions, versions_per, mode, rules):
    """asn1tools encodes values of New.asn in PER; a converter built from Old.asn keeps the
    additions and alternatives it does not know (their open types, X.691 19.9 and 23.8)
    and writes the same octets back.  Without them (--drop-unknown, or in DER, where their
    tags are not known) it writes Old.asn's encoding of the value; a CHOICE must have its
    alternative, so an unknown one received in PER cannot be written in DER."""
    entry, reference, new_graph = versions
    for value, old_value in VERSIONED:
        per = versions_per["New", rules].encode(VERSIONS_PDU.split(".")[1], value)
        relayed = convert(entry, mode, VERSIONS_PDU, per, "-i", rules, output=rules)
        assert relayed.returncode == 0, relayed.stderr.decode()
        assert relayed.stdout == per, (relayed.stdout.hex(), per.hex())
        known = value if old_value is None else old_value
        unknown_alternative = value["pick"][0] == "b" or any(
            alternative[0] in ("b", "r") for alternative in value["picks"])
        der = convert(entry, mode, VERSIONS_PDU, per, "-i", rules)
        dropped = convert(entry, mode, VERSIONS_PDU, per, "-i", rules, "--drop-unknown",
                          output=rules)
        if unknown_alternative:
            assert der.returncode == 1 and b"CHOICE" in der.stderr, der.stderr
            continue
        assert der.stdout == canonical(new_graph, reference.encode_der(VERSIONS_PDU, known))
        assert dropped.stdout == versions_per["Old", rules].encode("Message", known)


GRADED = "Versions.Graded"


@pytest.mark.parametrize("rules", list(PER_CODECS))
@pytest.mark.parametrize("mode", MODES)
def test_an_unknown_enumeration_addition_is_kept_in_per(versions, versions_per, mode, rules):
    """PER sends an ENUMERATED addition as its index among the additions (X.691 14.3), not
    its number.  A converter built from Old.asn, whose Level knows one addition, keeps a
    later one by its index (ASN1H_ENUM_ADDITION, asn1h.h) and writes it back as it came;
    DER, which needs its number, refuses it, and JER gives the index.  pycrate, given
    Old.asn, writes an unknown addition as "_ext_<index>": the same octets."""
    entry, reference, new_graph = versions
    old = PycrateSpec([specbuilds.TESTS / "specs" / "versions" / "Old.asn"], "Versions")
    for level, index in (("low", None), ("high", None), ("higher", None), ("highest", 1),
                         ("top", 2)):
        value = {"level": level, "note": 5}
        per = versions_per["New", rules].encode("Graded", value)
        relayed = convert(entry, mode, GRADED, per, "-i", rules, output=rules)
        assert relayed.returncode == 0, relayed.stderr.decode()
        assert relayed.stdout == per, (level, relayed.stdout.hex(), per.hex())
        der = convert(entry, mode, GRADED, per, "-i", rules)
        jer = json.loads(convert(entry, mode, GRADED, per, "-i", rules, output="jer").stdout)
        if index is None:
            assert der.stdout == reference.encode_der(GRADED, value)
            assert jer == value
            continue
        assert der.returncode == 1 and b"level" in der.stderr, der.stderr
        assert jer == {"level": {"...": index}, "note": 5}
        assert old.encode("Graded", {"level": f"_ext_{index}", "note": 5},
                          rules == "aper") == per


@pytest.mark.parametrize("mode", MODES)
def test_numbers_that_keep_per_additions_are_not_ber_numbers(versions, mode):
    """Level's kept additions are numbers from INT32_MIN up (asn1h.h): BER decoding refuses
    such a number where it would keep any other unknown one, and an enumeration that uses
    one (Extreme's bottom) refuses unknown additions in PER rather than mistake them."""
    entry = versions[0]
    unknown = bytes.fromhex("3006" "800114" "810105")         # level 20: kept
    assert convert(entry, mode, GRADED, unknown).stdout == unknown
    reserved = bytes.fromhex("3009" "800480000001" "810105")  # INT32_MIN + 1
    result = convert(entry, mode, GRADED, reserved)
    assert result.returncode == 1 and result.stderr.decode().startswith("-:4: Versions.Graded.level: "), \
        result.stderr
    extreme = {"bottom": "00", "more": "80"}   # UPER: extension 0, index 0 of 2; 1, 0
    assert convert(entry, mode, "Versions.Extreme", bytes.fromhex(extreme["bottom"]),
                   "-i", "uper", output="uper").stdout == bytes.fromhex("00")
    refused = convert(entry, mode, "Versions.Extreme", bytes.fromhex(extreme["more"]),
                      "-i", "uper", output="uper")
    assert refused.returncode == 1 and refused.stdout == b"", refused.stderr
    bottom = bytes.fromhex("0a0480000000")                  # a known item of that range
    assert convert(entry, mode, "Versions.Extreme", bottom).stdout == bottom


@pytest.mark.parametrize("mode", MODES)
def test_a_bitmap_of_unknown_absent_additions_comes_back_as_it_came(versions, mode):
    """An extension bit of 1 and a bitmap whose bits are all 0, beyond the additions this
    version knows (a fuzzer's input; X.691 would set no extension bit): the record keeps
    the bitmap's length, the encoder writes it back as it came, and decoding that gives
    the same value again."""
    entry = versions[0]
    # extension 1, name absent 0, id: length 1 and 01, the bitmap's length 2 - 1 as a
    # normally small length (0, 000001), bits 00
    bits = "1" "0" "00000001" "00000001" "0000001" "00"
    bits += "0" * (-len(bits) % 8)
    per = int(bits, 2).to_bytes(len(bits) // 8, "big")
    relayed = convert(entry, mode, "Versions.Record", per, "-i", "uper", output="uper")
    assert relayed.returncode == 0 and relayed.stdout == per, relayed.stderr
    first, again = (json.loads(convert(entry, mode, "Versions.Record", data, "-i", "uper",
                                       output="jer").stdout) for data in (per, relayed.stdout))
    assert first == again == {"id": 1, "...": "000002"}


@pytest.fixture(scope="module")
def kept_check():
    out = cbuild.generate([specbuilds.TESTS / "specs" / "versions" / "Old.asn"],
                          Path(tempfile.mkdtemp(dir=cbuild.session_dir())), "--name", "spec")
    build = cbuild.build_program(out, "spec", specbuilds.TESTS / "c" / "kept_check.c",
                                 program="kept_check")
    return lambda record, pdu="Record": dict(line.split(" ", 1) for line in
                                             build.run(pdu, record).stdout.decode().splitlines())


# A record of kept additions: 00, the bitmap's length received (2 octets), then each
# addition's index (2 octets), its open type's length (4 octets) and octets (docs/runtime.md)
@pytest.mark.parametrize("record", [
    "00FF", "0000",                                     # short
    "000001" "0001" "00000005" "0102",                  # overrunning
    "000000" "0005" "00000001" "FF" "0004" "00000001" "FF",  # out of order
    "000000" "0000" "00000001" "FF",                    # Record's one known addition
])
def test_a_malformed_kept_record_is_refused_in_per(kept_check, record):
    """A Record whose kept additions are not a record that decoding made: PER refuses to
    write it (ASN1H_ERR_VALUE, 7); DER leaves them out (no tags are known for them)."""
    written = kept_check(record)
    assert written["uper"] == "error 7"
    assert written["der"] == "3006800101890101"


def test_a_kept_record_of_no_bitmap_is_refused(kept_check):
    """Framed knows no addition: a record of a bitmap of no bit, with no addition in it,
    is no PER a decoder could have read; one of a bitmap of 1 bit writes it back."""
    assert kept_check("000000", "Framed")["uper"] == "error 7"
    # extension 1, id: length 1 and 01, checksum: length 1 and 01, the bitmap's length
    # 1 - 1 (0, 000000), bit 0
    bits = "1" "00000001" "00000001" "00000001" "00000001" "0000000" "0"
    bits += "0" * (-len(bits) % 8)
    assert kept_check("000001", "Framed")["uper"] == f"{int(bits, 2):0{len(bits) // 4}x}"


def test_a_kept_record_is_written_where_it_says(kept_check):
    """Additions 2 and 4 of a bitmap of 6 (Old.asn's Record knows one): PER writes a
    bitmap of 6 with bits 0 (checksum), 2 and 4 set, then the three open types."""
    written = kept_check("000006" "0002" "00000001" "80" "0004" "00000002" "0102")
    # extension bit 1, name absent 0, id: length 01 then 01, the bitmap's length 6 - 1 in
    # 7 bits, bits 101010, then the open types (length and octets): checksum's 02 0101
    # (its own length and octet), 01 80, 02 0102
    bits = "1" "0" "00000001" "00000001" "0000101" "101010" + "".join(
        f"{b:08b}" for b in bytes.fromhex("020101" "0180" "020102"))
    bits += "0" * (-len(bits) % 8)
    assert written["uper"] == f"{int(bits, 2):0{len(bits) // 4}x}"
