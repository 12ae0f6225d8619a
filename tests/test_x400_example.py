"""The X.400 P1 example: its module set, its traffic generator and the traces it ships.

The traces are checked three ways, each independent of the generator's own encoder path:
asn1tools decodes every PDU; a small TLV reader written here checks the DER rules (definite
minimal lengths, SET components in tag order, SET OF elements in octet order) and counts the
APDU kinds and recipients by tag path; asn1c, where installed, compiles the module set and
decodes every PDU with constraint checks.
"""
from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TRACES = ("trace-18", "trace-2000")

# What examples/x400/README.md promises about the traffic.
KIND_SHARES = {"message": 0.88, "report": 0.11, "probe": 0.01}
ZIPF_EXPONENT = 2.0
MAX_RECIPIENTS = 40


@pytest.fixture(scope="module")
def x400_dir(repo_root: Path) -> Path:
    return repo_root / "examples" / "x400"


@pytest.fixture(scope="module")
def traffic(x400_dir: Path):
    spec = importlib.util.spec_from_file_location("x400_traffic", x400_dir / "traffic.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def asn1_spec(traffic):
    return traffic.compile_spec("der")


def trace_bytes(x400_dir: Path, name: str) -> bytes:
    return (x400_dir / "traces" / f"{name}.ber").read_bytes()


def trace_summary(x400_dir: Path, name: str) -> dict:
    return json.loads((x400_dir / "traces" / f"{name}.json").read_text())


# ------------------------------------------------------------------------------------------
# A TLV reader of its own, so that these checks share no code with the generator.


class Tlv:
    def __init__(self, data: bytes, offset: int):
        start = offset
        first = data[offset]
        offset += 1
        number = first & 0x1F
        if number == 0x1F:
            number = 0
            while True:
                octet = data[offset]
                offset += 1
                number = (number << 7) | (octet & 0x7F)
                if not octet & 0x80:
                    break
            assert number >= 31, "high tag number form used for a low tag number"
        self.tag_class = first >> 6
        self.constructed = bool(first & 0x20)
        self.number = number
        length = data[offset]
        offset += 1
        assert length != 0x80, "indefinite length"
        if length & 0x80:
            count = length & 0x7F
            body = data[offset:offset + count]
            offset += count
            assert body[0] != 0, "length with a leading zero octet"
            length = int.from_bytes(body, "big")
            assert length >= 0x80, "long form used for a short length"
        self.start = start
        self.content_start = offset
        self.end = offset + length
        assert self.end <= len(data), "content runs past its container"
        self.data = data

    @property
    def key(self) -> tuple[int, int]:
        return (self.tag_class, self.number)

    @property
    def encoding(self) -> bytes:
        return self.data[self.start:self.end]

    def children(self) -> list["Tlv"]:
        assert self.constructed
        out, offset = [], self.content_start
        while offset < self.end:
            child = Tlv(self.data, offset)
            out.append(child)
            offset = child.end
        assert offset == self.end
        return out

    def child(self, tag_class: int, number: int) -> "Tlv | None":
        return next((c for c in self.children() if c.key == (tag_class, number)), None)


UNIVERSAL, APPLICATION, CONTEXT = 0, 1, 2


def top_level(data: bytes) -> list[Tlv]:
    out, offset = [], 0
    while offset < len(data):
        tlv = Tlv(data, offset)
        out.append(tlv)
        offset = tlv.end
    return out


def assert_set_in_tag_order(node: Tlv) -> None:
    keys = [c.key for c in node.children()]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), f"SET out of tag order: {keys}"


def assert_set_of_in_octet_order(node: Tlv) -> None:
    encodings = [c.encoding for c in node.children()]
    assert encodings == sorted(encodings), "SET OF elements out of order"


def walk_constructed(node: Tlv) -> None:
    """Every universal SET below node: tags ascending, equal tags (a SET OF) in octet order."""
    if not node.constructed:
        return
    children = node.children()
    if node.key == (UNIVERSAL, 17):
        keys = [c.key for c in children]
        assert keys == sorted(keys), f"universal SET out of tag order: {keys}"
        for a, b in zip(children, children[1:]):
            if a.key == b.key:
                assert a.encoding <= b.encoding, "SET OF elements out of order"
    for c in children:
        walk_constructed(c)


def describe(pdu: Tlv) -> tuple[str, int]:
    """(kind, recipients) of one MTS-APDU, read by tag path, checking DER order on the way."""
    assert pdu.tag_class == CONTEXT and pdu.constructed
    kind = {0: "message", 1: "report", 2: "probe"}[pdu.number]
    if kind == "message":
        envelope, content = pdu.children()
        assert envelope.key == (UNIVERSAL, 17) and content.key == (UNIVERSAL, 4)
        per_recipient, extensions_tag = envelope.child(CONTEXT, 2), 3
    elif kind == "probe":
        envelope = pdu
        per_recipient, extensions_tag = envelope.child(CONTEXT, 2), 3
    else:
        envelope, content = pdu.children()
        assert envelope.key == (UNIVERSAL, 17) and content.key == (UNIVERSAL, 17)
        assert_set_in_tag_order(content)
        per_recipient, extensions_tag = content.child(CONTEXT, 0), 3
    assert_set_in_tag_order(envelope)
    extensions = envelope.child(CONTEXT, 1 if kind == "report" else extensions_tag)
    if extensions is not None:
        assert extensions.children(), "an empty extensions SET OF is its DEFAULT and is omitted"
        assert_set_of_in_octet_order(extensions)
    fields = per_recipient.children()
    for field in fields:
        assert field.key == (UNIVERSAL, 17)
        assert_set_in_tag_order(field)
    walk_constructed(pdu)
    return kind, len(fields)


# ------------------------------------------------------------------------------------------


def test_module_set_compiles_with_asn1tools(traffic, asn1_spec):
    names = {p.stem for p in traffic.spec_files()}
    assert names == {"MTSUpperBounds", "DirectoryStandIns", "MTSAbstractService", "MTAAbstractService"}
    for type_name in ("MTS-APDU", "ORName", "TraceInformation", "InternalTraceInformation",
                      "ExtensionField", "ReportTransferContent", "ProbeTransferEnvelope"):
        assert type_name in asn1_spec.types


def test_a_known_value_encodes_as_x411_tags_it(traffic):
    """Tags written out by hand from X.411: ORName [APPLICATION 0] SEQUENCE, CountryName
    [APPLICATION 1] (explicit: it is a CHOICE), PersonalName [5] IMPLICIT SET with surname [0]."""
    encoder = traffic.Encoder()
    name = {"built-in-standard-attributes": {
        "country-name": ("iso-3166-alpha2-code", "FR"),
        "administration-domain-name": ("printable", "ATLAS"),
        "personal-name": {"surname": "Huitema"}}}
    expected = bytes.fromhex(
        "601c" "301a"
        "6104" "1302" + b"FR".hex() +
        "6207" "1305" + b"ATLAS".hex() +
        "a509" "8007" + b"Huitema".hex())
    assert encoder.encode("ORName", name) == expected
    # ExtensionField: the value is an explicit [2] around the extension's own encoding.
    field = {"type": ("standard-extension", 1),
             "value": encoder.encode("RecipientReassignmentProhibited", "recipient-reassignment-prohibited")}
    assert encoder.encode("ExtensionField", field) == bytes.fromhex("3008" "800101" "a203" "0a0101")


@pytest.mark.parametrize("name", TRACES)
def test_trace_regenerates_byte_identically(traffic, x400_dir, name):
    summary = trace_summary(x400_dir, name)
    pdus, regenerated_summary = traffic.generate(summary["seed"], summary["messages"])
    assert b"".join(pdus) == trace_bytes(x400_dir, name)
    assert regenerated_summary == summary


def test_generator_command_line_writes_trace_and_summary(traffic, x400_dir, tmp_path):
    output = tmp_path / "trace.ber"
    assert traffic.main(["--seed", "18", "--messages", "18", "-o", str(output)]) == 0
    assert output.read_bytes() == trace_bytes(x400_dir, "trace-18")
    assert json.loads(output.with_suffix(".json").read_text()) == trace_summary(x400_dir, "trace-18")


def test_different_seeds_give_different_traffic(traffic):
    first, _ = traffic.generate(1, 5)
    second, _ = traffic.generate(2, 5)
    assert first != second


@pytest.mark.parametrize("name", TRACES)
def test_every_pdu_decodes_and_reencodes_identically(traffic, asn1_spec, x400_dir, name):
    compiled = asn1_spec.types["MTS-APDU"]
    pdus = top_level(trace_bytes(x400_dir, name))
    assert len(pdus) == trace_summary(x400_dir, name)["messages"]
    for pdu in pdus:
        kind, value = asn1_spec.decode("MTS-APDU", pdu.encoding)
        assert kind in KIND_SHARES
        # asn1tools' DER codec keeps SET components in declaration order; put back into
        # canonical order, the re-encoding must be the PDU.
        reencoded = asn1_spec.encode("MTS-APDU", (kind, value), check_types=False)
        assert traffic.canonical_der(compiled.type, reencoded) == pdu.encoding


@pytest.mark.parametrize("name", TRACES)
def test_trace_is_der_and_summary_counts_match_the_bytes(x400_dir, name):
    summary = trace_summary(x400_dir, name)
    kinds = {k: 0 for k in KIND_SHARES}
    recipients: dict[str, int] = {}
    report_recipients: dict[str, int] = {}
    data = trace_bytes(x400_dir, name)
    for pdu in top_level(data):
        kind, count = describe(pdu)
        kinds[kind] += 1
        histogram = report_recipients if kind == "report" else recipients
        histogram[str(count)] = histogram.get(str(count), 0) + 1
    assert summary["kinds"] == kinds
    assert summary["recipients_histogram"] == recipients
    assert summary["report_recipients_histogram"] == report_recipients
    assert summary["bytes"] == len(data)


def test_large_trace_mix_matches_the_readme(x400_dir):
    summary = trace_summary(x400_dir, "trace-2000")
    total = summary["messages"]
    assert total == 2000
    for kind, share in KIND_SHARES.items():
        observed = summary["kinds"][kind] / total
        sigma = math.sqrt(share * (1 - share) / total)
        assert abs(observed - share) <= 4 * sigma + 1e-9, (kind, observed, share)

    histogram = {int(k): v for k, v in summary["recipients_histogram"].items()}
    envelopes = sum(histogram.values())
    assert envelopes == summary["kinds"]["message"] + summary["kinds"]["probe"]
    assert max(histogram) <= MAX_RECIPIENTS
    weights = [k ** -ZIPF_EXPONENT for k in range(1, MAX_RECIPIENTS + 1)]
    expected = [w / sum(weights) for w in weights]
    for k in (1, 2, 3):
        observed = histogram.get(k, 0) / envelopes
        sigma = math.sqrt(expected[k - 1] * (1 - expected[k - 1]) / envelopes)
        assert abs(observed - expected[k - 1]) <= 4 * sigma, (k, observed, expected[k - 1])
    tail = sum(v for k, v in histogram.items() if k >= 10) / envelopes
    expected_tail = sum(expected[9:])
    assert abs(tail - expected_tail) <= 4 * math.sqrt(expected_tail * (1 - expected_tail) / envelopes)
    # Reports mostly concern one recipient.
    reports = {int(k): v for k, v in summary["report_recipients_histogram"].items()}
    assert reports.get(1, 0) / sum(reports.values()) > 0.7


def test_extensions_decode_as_the_types_their_identifiers_name(traffic, asn1_spec, x400_dir):
    """The open types (ANY) hold encodings of the value types that X.411 pairs with each
    extension identifier; every one in the trace decodes as that type."""
    value_types = {1: "RecipientReassignmentProhibited", 2: "MTAOriginatorRequestedAlternateRecipient",
                   4: "ConversionWithLossProhibited", 5: "LatestDeliveryTime", 6: "RequestedDeliveryMethod",
                   9: "PhysicalDeliveryModes", 10: "RegisteredMailType", 13: "OriginatorReturnAddress",
                   20: "MessageSecurityLabel", 22: "ProofOfDeliveryRequest", 23: "ContentCorrelator",
                   25: "RedirectionHistory", 26: "DLExpansionHistory", 38: "InternalTraceInformation",
                   39: "ReportingMTAName"}
    attribute_types = {1: "CommonName", 4: "TeletexPersonalName", 7: "PDSName",
                       8: "PhysicalDeliveryCountryName", 9: "PostalCode", 17: "StreetAddress"}
    seen: dict[str, int] = {}

    def visit(value):
        if isinstance(value, dict):
            if "type" in value and "criticality" in value:      # an ExtensionField
                kind, identifier = value["type"]
                if kind == "standard-extension":
                    type_name = value_types[identifier]
                    asn1_spec.decode(type_name, bytes(value["value"]))
                    seen[type_name] = seen.get(type_name, 0) + 1
            if "extension-attribute-type" in value:
                type_name = attribute_types[value["extension-attribute-type"]]
                asn1_spec.decode(type_name, bytes(value["extension-attribute-value"]))
                seen[type_name] = seen.get(type_name, 0) + 1
            for item in value.values():
                visit(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                visit(item)

    for pdu in top_level(trace_bytes(x400_dir, "trace-2000")):
        visit(asn1_spec.decode("MTS-APDU", pdu.encoding))
    assert seen.get("InternalTraceInformation", 0) > 100
    assert len(seen) >= 10


def _asn1c_converter(x400_dir: Path, workdir: Path) -> Path:
    spec_files = sorted(str(p) for p in (x400_dir / "spec").glob("*.asn"))
    subprocess.run(["asn1c", "-fcompound-names", "-fwide-types", "-pdu=MTS-APDU", *spec_files],
                   cwd=workdir, check=True, capture_output=True)
    sources = sorted(p.name for p in workdir.glob("*.c"))
    subprocess.run(["cc", "-O0", "-w", "-I.", "-DPDU=MTS_APDU", "-o", "converter", *sources],
                   cwd=workdir, check=True, capture_output=True)
    return workdir / "converter"


@pytest.mark.skipif(shutil.which("asn1c") is None or shutil.which("cc") is None,
                    reason="asn1c and a C compiler are needed for the cross-check")
def test_asn1c_decodes_every_pdu(x400_dir, tmp_path, asn1_spec):
    converter = _asn1c_converter(x400_dir, tmp_path)
    for name in TRACES:
        path = x400_dir / "traces" / f"{name}.ber"
        count = trace_summary(x400_dir, name)["messages"]
        checked = subprocess.run([str(converter), "-b", "262144", "-c", "-onull", str(path)],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr[-2000:]
        assert checked.stderr.count("decoded successfully") == count
        # asn1c's DER encoder writes an INTEGER equal to its DEFAULT (DeliveryReport's
        # type-of-MTS-user, public), which DER omits; apart from that its re-encoding is the trace.
        reencoded = subprocess.run([str(converter), "-b", "262144", "-oder", str(path)],
                                   capture_output=True, check=True).stdout
        ours = [t.encoding for t in top_level(trace_bytes(x400_dir, name))]
        theirs = [t.encoding for t in top_level(reencoded)]
        assert len(theirs) == len(ours)
        for mine, other in zip(ours, theirs):
            if mine != other:
                assert other.count(b"\x81\x01\x00") > mine.count(b"\x81\x01\x00")
                ours_value = asn1_spec.decode("MTS-APDU", mine)
                theirs_value = _public_as_default(asn1_spec.decode("MTS-APDU", other))
                assert ours_value[0] == "report" and theirs_value == ours_value


def _public_as_default(value):
    """asn1tools gives an absent DEFAULT as its name and a present one as its number."""
    if isinstance(value, dict):
        return {k: ("public" if k == "type-of-MTS-user" and v == 0 else _public_as_default(v))
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_public_as_default(v) for v in value)
    return value
