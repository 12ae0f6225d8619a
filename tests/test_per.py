"""PER (X.691), unaligned and aligned, against pycrate and asn1tools, on every build mode.

Random values within their constraints (tests/valuegen.py) of the types of
tests/specs/per/PerTest.asn (one of each PER form), of ETSI ITS CAM and LTE RRC's PDUs,
and of 40 named types of each of CAM and LTE RRC (all 1,971 with `make test-types`) are
encoded by pycrate and asn1tools in UPER and APER, and by asn1tools in DER.  Through the
generated converter, in the compiled, interpreted and mixed builds:
  - our encoder writes the reference PER of the value, from its DER;
  - our decoder reads it: re-encoded in DER it is the DER of the value;
  - PER in, PER out gives the same octets.
LTE RRC's all-compiled build carries PER alone (SpecUnderTest.per_only): it must give the
same octets from PER in, PER out, and the interpreted build's JER of the value.  S1AP and
NGAP, which asn1tools cannot compile for PER, have pycrate alone as their reference: its
UPER and APER of random values of their IE types must come out of every build unchanged,
with JER that pycrate reads back as the value.
The reference PER is pycrate's, or asn1tools' where pycrate's decoder reads that back as
the value and not its own encoder's output; where it reads back neither, it must read back
ours.  Where the references disagree, X.691 decides:
  - asn1tools encodes a semi-constrained INTEGER with a negative lower bound,
    `INTEGER (-10..MAX)`, or one beyond 64 bits, `INTEGER (2^64..MAX)`, as the number
    instead of its offset from the bound (X.691 10.7, "n - lb");
  - asn1tools does not align an empty character string after its length in APER, where
    pycrate and X.691 30.5.7 do (and both do for bit and octet strings);
  - pycrate's APER encoder writes a stray 00 before the length of every extension
    addition, which its own decoder refuses;
  - asn1tools writes a CHOICE's addition that is a NULL as an open type of no octets,
    where X.691 11.1 makes the complete encoding of an empty value one 0 octet (pycrate
    and we write a length of 1, then a 0 octet).
  - a character string outside its extensible SIZE root is an extension bit of 1 and a
    length without bounds (X.691 30.5.6 and 11.9; pycrate and we): asn1tools writes the
    length in the root's bits in UPER (9 as 001 for SIZE (0..7, ...)), and in APER
    refuses it ("String size extension is not yet implemented").
A BIT STRING with named bits goes to pycrate in canonical form (X.691 16.3): pycrate keeps
the trailing 0 bits it is given.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asn1tools
import pytest
from hypothesis import HealthCheck, given, reject, settings, strategies as st  # noqa: F401

import cbuild
import sys
import specbuilds
import typedtlv
from asn1c_hybrid import api
from asn1c_hybrid.typegraph import Kind
from pycrate_ref import PycrateSpec, to_pycrate, without_defaults
from valuegen import ValueStrategies

TESTS = Path(__file__).resolve().parent
PER_SPEC = [TESTS / "specs" / "per" / "PerTest.asn"]
CAM_SPEC = sorted(Path(p) for p in glob.glob(str(specbuilds.SPECS / "ETSI_ITS_CAM" / "*.asn")))
RRC_SPEC = sorted(Path(p) for p in glob.glob(
    str(specbuilds.SPECS / "3GPP_LTE_RRC_36331_r14" / "*.asn")))
MODES = list(specbuilds.MODES)
EXAMPLES = int(os.environ.get("ASN1H_PER_EXAMPLES", "25"))
VARIANTS = {"uper": "uper", "aper": "per"}      # ours -> asn1tools' codec name


class SpecUnderTest:
    """A spec's references and its converter in every mode.  The modes in `per_only` are
    built with `--encoding uper,aper`: their compiled types get PER routines alone (LTE
    RRC's all-compiled build with BER's too is five times longer to compile), and their
    converter reads and writes PER and writes JER, not DER."""
    def __init__(self, files, module: str, per_only: tuple[str, ...] = ()):
        self.files = files
        self.module = module
        self.graph = api.load([str(f) for f in files])
        self.reference = {codec: asn1tools.compile_files([str(f) for f in files], codec)
                          for codec in ("der", "uper", "per")}
        self.strategies = ValueStrategies(self.graph)
        self.pycrate = PycrateSpec(files, module)
        self.per_only = per_only
        self.builds = {mode: cbuild.converter(
            files, *specbuilds.MODES[mode],
            *(("--encoding", "uper,aper") if mode in per_only else ()),
            flags=specbuilds.FLAGS) for mode in MODES}

    def run(self, mode: str, pdu: str, data: bytes, source: str, target: str):
        return self.builds[mode].run("-p", f"{self.module}.{pdu}", "-i", source, "-o", target,
                                     "-", input=data, check=False)


_specs: dict[str, SpecUnderTest] = {}


def spec(name: str) -> SpecUnderTest:
    if name not in _specs:
        files, module, per_only = {
            "per": (PER_SPEC, "PerTest", ()),
            "cam": (CAM_SPEC, "CAM-PDU-Descriptions", ()),
            "rrc": (RRC_SPEC, "EUTRA-RRC-Definitions", ("compiled",))}[name]
        _specs[name] = SpecUnderTest(files, module, per_only)
    return _specs[name]


def reference_per(s: SpecUnderTest, pdu: str, value, ours: str):
    """The PER of `value` by pycrate, or by asn1tools, whichever pycrate's decoder reads
    back as the value (None when neither does), and the value in pycrate's terms; (None,
    None) for a value pycrate refuses to take.  `pdu` is a type of the spec's module, or
    `Module.Type`."""
    type_id = pdu if "." in pdu else f"{s.module}.{pdu}"
    aligned = ours == "aper"
    try:
        wanted = to_pycrate(s.graph, type_id, value)
        candidates = [s.pycrate.encode(pdu, wanted, aligned)]
    except Exception as exc:                # pycrate's IA5String leaves DEL (0x7F) out
        if "invalid character" not in str(exc):
            raise
        return None, None
    candidates.append(s.reference[VARIANTS[ours]].encode(type_id.split(".", 1)[1], value))
    for data in candidates:
        if s.pycrate.reads_as(pdu, data, aligned, wanted):
            return data, wanted
    return None, wanted


def loses_components(value, decoded) -> bool:
    """Whether a component of `value` is missing from `decoded`, at any depth."""
    if isinstance(value, dict):
        return not isinstance(decoded, dict) or any(
            k not in decoded or loses_components(v, decoded[k]) for k, v in value.items())
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return not isinstance(decoded, tuple) or loses_components(value[1], decoded[1])
    if isinstance(value, list):
        return not isinstance(decoded, list) or len(value) != len(decoded) or any(
            loses_components(v, d) for v, d in zip(value, decoded))
    return False


def reference_case(s: SpecUnderTest, pdu: str, value):
    """The canonical DER of `value`, and per variant what `reference_per` gives; None
    where the references cannot give the value: asn1tools leaves out an addition that
    follows an absent group, or pycrate refuses a character."""
    name = pdu.rpartition(".")[2]
    raw = s.reference["der"].encode(name, value)
    if loses_components(value, s.reference["der"].decode(name, raw)):
        return None
    per = {ours: reference_per(s, pdu, value, ours) for ours in VARIANTS}
    if any(wanted is None for _, wanted in per.values()):
        return None
    type_id = pdu if "." in pdu else f"{s.module}.{pdu}"
    return typedtlv.canonical_der(s.graph, type_id, raw), per


def check(s: SpecUnderTest, pdu: str, value) -> None:
    case = reference_case(s, pdu, value)
    if case is None:
        reject()
    der, references = case
    for ours, (per, wanted) in references.items():
        for mode in [m for m in MODES if m not in s.per_only]:
            encoded = s.run(mode, pdu, der, "ber", ours)
            assert encoded.returncode == 0, (mode, ours, value, encoded.stderr.decode())
            if per is None:                 # both encoders err here: pycrate's decoder judges
                assert s.pycrate.reads_as(pdu, encoded.stdout, ours == "aper", wanted), \
                    f"{mode} {ours} {value!r}: pycrate does not read {encoded.stdout.hex()}"
                per = encoded.stdout
            assert encoded.stdout == per, \
                f"{mode} {ours} {value!r}:\nours      {encoded.stdout.hex()}\nreference {per.hex()}"
            decoded = s.run(mode, pdu, per, ours, "der")
            assert decoded.returncode == 0, (mode, ours, value, decoded.stderr.decode())
            assert decoded.stdout == der, (mode, ours, value, per.hex())
            again = s.run(mode, pdu, per, ours, ours)
            assert again.stdout == per, (mode, ours, value)
        if s.per_only:          # the value read, as JER, from a build checked against DER
            jer = s.run("interpreted", pdu, per, ours, "jer")
            assert jer.returncode == 0, (ours, value, jer.stderr.decode())
        for mode in s.per_only:
            again = s.run(mode, pdu, per, ours, ours)
            assert again.returncode == 0, (mode, ours, value, again.stderr.decode())
            assert again.stdout == per, (mode, ours, value)
            decoded = s.run(mode, pdu, per, ours, "jer")
            assert decoded.stdout == jer.stdout, (mode, ours, value, per.hex())


PER_TYPES = ["Kinds", "Message", "Record", "Pick", "Size", "Colour"]


@pytest.mark.parametrize("pdu", PER_TYPES)
def test_every_form_against_asn1tools(pdu):
    s = spec("per")

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(value=s.strategies.of(f"PerTest.{pdu}"))
    def run(value):
        check(s, pdu, value)

    run()


@pytest.mark.parametrize("pdu", ["CAM"])
def test_its_cam_against_asn1tools(pdu):
    s = spec("cam")

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(value=s.strategies.of(f"CAM-PDU-Descriptions.{pdu}"))
    def run(value):
        check(s, pdu, value)

    run()


RRC_PDUS = ["BCCH-BCH-Message", "BCCH-DL-SCH-Message", "PCCH-Message", "DL-CCCH-Message",
            "DL-DCCH-Message", "UL-CCCH-Message", "UL-DCCH-Message"]


@pytest.mark.parametrize("pdu", RRC_PDUS)
def test_lte_rrc_against_the_references(pdu):
    s = spec("rrc")

    @settings(max_examples=max(EXAMPLES // 5, 3), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(value=s.strategies.of(f"EUTRA-RRC-Definitions.{pdu}"))
    def run(value):
        check(s, pdu, value)

    run()


# -- the application protocols: APER messages through their information object sets ----
S1AP_SETUP = ("initiatingMessage", {
    "procedureCode": 17, "criticality": "reject",
    "value": ("S1SetupRequest", {"protocolIEs": [
        {"id": 59, "criticality": "reject",
         "value": ("Global-ENB-ID", {"pLMNidentity": b"\x45\xf6\x42",
                                     "eNB-ID": ("homeENB-ID", (0x1234567, 28))})},
        {"id": 60, "criticality": "ignore", "value": ("ENBname", "enb-0001")},
        {"id": 64, "criticality": "reject",
         "value": ("SupportedTAs", [{"tAC": b"\x00\x1b", "broadcastPLMNs": [b"\x45\xf6\x42"]}])},
        {"id": 137, "criticality": "ignore", "value": ("PagingDRX", "v128")}]})})

NGAP_SETUP = ("initiatingMessage", {
    "procedureCode": 21, "criticality": "reject",
    "value": ("NGSetupRequest", {"protocolIEs": [
        {"id": 27, "criticality": "reject",
         "value": ("GlobalRANNodeID", ("globalGNB-ID", {
             "pLMNIdentity": b"\x00\xf1\x10", "gNB-ID": ("gNB-ID", (1, 32))}))},
        {"id": 82, "criticality": "ignore", "value": ("RANNodeName", "gnb-1")},
        {"id": 102, "criticality": "reject",
         "value": ("SupportedTAList", [{"tAC": b"\x00\x00\x01", "broadcastPLMNList": [
             {"pLMNIdentity": b"\x00\xf1\x10",
              "tAISliceSupportList": [{"s-NSSAI": {"sST": b"\x01"}}]}]}])},
        {"id": 21, "criticality": "ignore", "value": ("PagingDRX", "v128")}]})})

# what the JER of the message holds when its open types are decoded through their object
# sets: the elementary procedure's value, and each ProtocolIE-Field's
AP_CASES = {
    "s1ap": ("3GPP_S1AP_36413_r14", "S1AP-PDU-Descriptions", "S1AP-PDU", S1AP_SETUP,
             ('"value":{"protocolIEs":[', '{"id":60,"criticality":"ignore","value":"enb-0001"}',
              '"value":{"pLMNidentity":"45F642","eNB-ID":{"homeENB-ID":"12345670"}}')),
    "ngap": ("3GPP_NGAP_38413_r17", "NGAP-PDU-Descriptions", "NGAP-PDU", NGAP_SETUP,
             ('"value":{"protocolIEs":[', '{"id":82,"criticality":"ignore","value":"gnb-1"}',
              '{"id":21,"criticality":"ignore","value":"v128"}')),
}


class ApplicationProtocol:
    """A 3GPP application protocol's files and its converter in every mode, with PER
    alone (no BER routines to compile: asn1tools, the DER reference, cannot read these
    specs' information object sets anyway)."""
    def __init__(self, name: str):
        folder = AP_CASES[name][0]
        self.files = sorted(Path(p) for p in glob.glob(str(specbuilds.SPECS / folder / "*.asn")))
        self._builds: dict[str, cbuild.Build] = {}

    @property
    def builds(self) -> dict[str, cbuild.Build]:
        if not self._builds:
            self._builds = {mode: cbuild.converter(self.files, *specbuilds.MODES[mode],
                                                   "--encoding", "uper,aper",
                                                   flags=specbuilds.FLAGS) for mode in MODES}
        return self._builds


_protocols: dict[str, ApplicationProtocol] = {}


def protocol(name: str) -> ApplicationProtocol:
    if name not in _protocols:
        _protocols[name] = ApplicationProtocol(name)
    return _protocols[name]


@pytest.mark.parametrize("name", sorted(AP_CASES))
def test_application_protocol_messages_round_trip(name):
    """pycrate writes a setup request of the protocol in APER (its decoder reads it back
    as the value); every build reads it, its open types decoded through their information
    object sets (the procedure's value, each ProtocolIE-Field's), and writes the same
    octets from the decoded values."""
    _, module, pdu, value, decoded = AP_CASES[name]
    files = protocol(name).files
    reference = PycrateSpec(files, module)
    data = reference.encode(pdu, value, True)
    assert reference.reads_as(pdu, data, True, value)
    for mode in MODES:
        build = protocol(name).builds[mode]
        result = build.run("-p", f"{module}.{pdu}", "-i", "aper", "-o", "aper", "-",
                           input=data, check=False)
        assert result.returncode == 0, (mode, result.stderr.decode())
        assert result.stdout == data, (mode, result.stdout.hex(), data.hex())
        jer = build.run("-p", f"{module}.{pdu}", "-i", "aper", "-o", "jer", "-", input=data)
        for text in decoded:
            assert text in jer.stdout.decode(), (mode, text, jer.stdout.decode())
        for k in range(len(data)):          # damage inside the open types fails cleanly
            damaged = data[:k] + bytes([data[k] ^ 0xFF]) + data[k + 1:]
            assert clean_failure(build.run("-p", f"{module}.{pdu}", "-i", "aper", "-o",
                                           "aper", "-", input=damaged, check=False)), (mode, k)
        truncated = build.run("-p", f"{module}.{pdu}", "-i", "aper", "-o", "aper", "-",
                              input=data[:len(data) // 2], check=False)
        assert truncated.returncode == 1 and b"input ends inside a value" in truncated.stderr


# (value, its UPER by hand): the extension bit, then the index among the roots in one bit
TAGGED = [(("first", 5), "28"),        # 0, index 0, 5 in 3 bits: 0 0 101
          (("later", False), "40"),    # 0, index 1, FALSE: 0 1 0
          (("added", None), "800100")]  # 1, addition 0 as a normally small number
                                        # (0 000000), then the open type: length 1, 00


def test_a_choice_index_follows_the_canonical_order_of_its_tags(tmp_path):
    """X.691 23 (CHOICE): the root alternatives take their indices in the canonical order of
    their tags (X.680 8.6), not in the order of definition.  PerTest.Tagged defines [2]
    before [0].  pycrate and asn1tools number them in the order of definition, so they are
    no reference here; asn1c 0.9.28 (its to_canonical_order map) is, with X.691 and the
    hand-made encodings above.  The tables rank the tags at run time (the CHOICE is not
    DENSE), the compiled routine at generation time."""
    s = spec("per")
    der = s.reference["der"]
    asn1c = None
    if shutil.which("asn1c"):
        module = tmp_path / "Tagged.asn"
        text = PER_SPEC[0].read_text()
        start = text.index("Tagged ::= CHOICE")
        module.write_text("PerTest DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n"
                          + text[start:text.index("}", start) + 1] + "\nEND\n")
        subprocess.run(["asn1c", "-gen-PER", "-fcompound-names", str(module)], cwd=tmp_path,
                       check=True, capture_output=True)
        asn1c = tmp_path / "converter"
        subprocess.run(["gcc", "-DPDU=Tagged", "-I", str(tmp_path), "-o", str(asn1c),
                        *map(str, sorted(tmp_path.glob("*.c")))], check=True,
                       capture_output=True)
    for value, by_hand in TAGGED:
        encoded = der.encode("Tagged", value)
        for mode in MODES:
            ours = s.run(mode, "Tagged", encoded, "ber", "uper")
            assert ours.returncode == 0 and ours.stdout.hex() == by_hand, (mode, value)
            back = s.run(mode, "Tagged", ours.stdout, "uper", "der")
            assert back.stdout == encoded, (mode, value)
        if asn1c is not None:
            theirs = subprocess.run([str(asn1c), "-iber", "-oper", "-"], input=encoded,
                                    capture_output=True, check=True).stdout
            assert theirs.hex() == by_hand, value


# Messages captured from eNodeBs and gNodeBs, as Open5GS's unit tests publish them.  (A
# third NGSetupRequest there, of 67 octets, is refused by pycrate and by us alike: the
# length of its RANNodeNameUTF8String, IE 273, does not fit the characters that follow.)
CAPTURED = {
    "s1ap": {
        "S1SetupRequest": "0011002d000004003b00090000f1104054f64010003c400903004a4c542d3632"
                          "3100400007000c0e4000f1100089400100",
        "InitialUEMessage": "000c406f000006000800020001001a003c3b17df675aa8050741020bf600f110"
                            "000201030003e605f07000001000050215d011d15200f11030395c0a003103e5"
                            "e0349011035758a65d0100e0c1004300060000f1103039006440080000f1108c"
                            "3378200086400130004b00070000f110000201",
        "InitialContextSetupResponse": "2009002500000300004005c0020000bf0008400200010033400f"
                                       "000032400a0a1f0a0123c601000908",
        "ENBDirectInformationTransfer": "0025004a0000010079004320367154890164f000010001000254"
                                        "8f0264f00000010064f000400000002057974b81054c84000000"
                                        "204f81005581014d860064f000000280094064f0000100010002",
    },
    "ngap": {
        "NGReset": "00140013000002000f400200c000580006400160010001",
        "NGSetupRequest": "00150042000005001b00090009f10728000800000052400b0400354720674e42"
                          "2d43550066000d00000000010009f10700000008001540010001114009403035"
                          "484c41423032",
    },
}


@pytest.mark.parametrize("name", sorted(CAPTURED))
def test_captured_application_protocol_messages(name):
    """Real messages: every build reads each (its open types through their object sets),
    writes the same octets back, and writes JER that pycrate's JER decoder reads as the
    value pycrate's APER decoder reads from the octets."""
    _, module, pdu, _, _ = AP_CASES[name]
    reference = PycrateSpec(protocol(name).files, module)
    reader = reference.type_of(pdu)
    for what, text in CAPTURED[name].items():
        data = bytes.fromhex(text)
        reader.from_aper(data)
        value = reader.get_val()
        assert reader.to_aper() == data, what
        for mode, build in protocol(name).builds.items():
            args = ("-p", f"{module}.{pdu}", "-i", "aper", "-o")
            again = build.run(*args, "aper", "-", input=data, check=False)
            assert again.returncode == 0 and again.stdout == data, \
                (mode, what, again.stderr.decode())
            reader.from_jer(build.run(*args, "jer", "-", input=data).stdout.decode())
            assert reader.get_val() == value, (mode, what)


AP_IE_MODULES = {"s1ap": "S1AP-IEs", "ngap": "NGAP-IEs"}
# per protocol, spread evenly over its IE module; ASN1H_PER_TYPES=all (make test-types)
# takes every type, AP_TYPES at a time (more at once overflow hypothesis' buffer)
AP_TYPES = 40
PER_TYPES_ALL = os.environ.get("ASN1H_PER_TYPES") == "all"
AP_PARTS = 20           # of AP_TYPES types each, with PER_TYPES_ALL: enough for NGAP's 792


class ProtocolTypes:
    """The IE types of an application protocol that random values can fill without an
    open type: hypothesis writes no value of an open type in PER, so the OPTIONAL
    members and the CHOICE alternatives whose values may hold one (the iE-Extensions
    and choice-Extensions containers) are left out."""
    def __init__(self, name: str):
        self.protocol = protocol(name)
        self.module = AP_IE_MODULES[name]
        self.graph = api.load([str(f) for f in self.protocol.files])
        self.pycrate = PycrateSpec(self.protocol.files, self.module)
        holds_open = self._holds_open()
        self.avoid = {node.id: {c.name for c in node.components
                                if not c.present_always and holds_open(c.type)}
                      for node in self.graph if node.kind in (Kind.SEQUENCE, Kind.SET)}
        for node in self.graph:
            if node.kind == Kind.CHOICE:
                opens = {c.name for c in node.components if holds_open(c.type)}
                if len(opens) < len(node.components):
                    self.avoid[node.id] = opens
        self.strategies = ValueStrategies(self.graph, avoid=self.avoid)
        fillable = [node.id for node in self.graph if node.id.startswith(self.module + ".")
                    and not node.is_anonymous and not self._needs_open(node.id, set())]
        self.types = fillable[::max(1, len(fillable) // AP_TYPES)]
        self.parts = [fillable[k:k + AP_TYPES] for k in range(0, len(fillable), AP_TYPES)]

    def _holds_open(self):
        memo: dict[str, bool] = {}

        def holds(node_id: str) -> bool:
            if node_id not in memo:
                memo[node_id] = False               # a cycle adds nothing
                memo[node_id] = self.graph.target(node_id).kind == Kind.OPEN or any(
                    holds(s) for s in self.graph.successors(node_id))
            return memo[node_id]
        return holds

    def _needs_open(self, node_id: str, seen: set) -> bool:
        if node_id in seen:
            return False
        seen.add(node_id)
        node = self.graph.target(node_id)
        if node.kind == Kind.OPEN:
            return True
        if node.kind not in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE):
            return any(self._needs_open(s, seen) for s in self.graph.successors(node_id))
        members = [c.type for c in node.components if c.name not in self.avoid.get(node.id, ())]
        return (node.kind == Kind.CHOICE and not members) or \
            any(self._needs_open(m, seen) for m in members)


_protocol_types: dict[str, ProtocolTypes] = {}


def framed(pdus: list[bytes]) -> bytes:
    """PDUs as the converter's --framed reads them: a 4-octet big-endian length each."""
    return b"".join(len(pdu).to_bytes(4, "big") + pdu for pdu in pdus)


@pytest.mark.parametrize("name, part", [(name, part) for name in sorted(AP_IE_MODULES)
                                         for part in range(AP_PARTS if PER_TYPES_ALL else 1)])
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_application_protocol_types_against_pycrate(name, part, data):
    """Random values of AP_TYPES types of the protocol's IE module (pycrate is the oracle:
    asn1tools cannot compile these specs for PER).  pycrate writes each in UPER and APER
    (values its own decoder does not read back are left out); every build reads them,
    framed (--framed), and must write the same octets, and write JER that pycrate's
    JER decoder reads as the value."""
    if name not in _protocol_types:
        _protocol_types[name] = ProtocolTypes(name)
    p = _protocol_types[name]
    assert not PER_TYPES_ALL or len(p.parts) <= AP_PARTS, "AP_PARTS leaves types out"
    types = p.types if not PER_TYPES_ALL else p.parts[part] if part < len(p.parts) else []
    if not types:
        pytest.skip(f"{name} has {len(p.parts)} parts of {AP_TYPES} types")
    cases = []                                      # (type, variant, encodings, values)
    for type_id in types:
        values = data.draw(st.lists(p.strategies.of(type_id), min_size=1, max_size=3),
                           label=type_id)
        pdu = type_id.split(".", 1)[1]
        for variant in VARIANTS:
            aligned = variant == "aper"
            encodings, wanted = [], []
            for value in values:
                value = to_pycrate(p.graph, type_id, value)
                encoding = p.pycrate.encode(pdu, value, aligned)
                if p.pycrate.reads_as(pdu, encoding, aligned, value):
                    encodings.append(encoding)
                    wanted.append(value)
            if encodings:
                cases.append((type_id, variant, encodings, wanted))
    assert cases
    jobs = []
    for mode in MODES:
        for type_id, variant, encodings, _ in cases:
            for output in (variant, "jer"):
                jobs.append((p.protocol.builds[mode],
                             ("-p", type_id, "-i", variant, "-o", output, "--framed", "-"),
                             framed(encodings)))
    results = iter(specbuilds.run_many(jobs))
    for mode in MODES:
        for type_id, variant, encodings, wanted in cases:
            written, jer = next(results), next(results)
            assert written.returncode == 0, (mode, type_id, variant, written.stderr.decode())
            assert written.stdout == b"".join(encodings), \
                (mode, type_id, variant, [e.hex() for e in encodings], written.stdout.hex())
            lines = jer.stdout.decode().split("\n")[:-1]   # not splitlines(): a string
            # may hold U+0085 or U+2028, which JSON leaves as they are
            assert jer.returncode == 0 and len(lines) == len(wanted), \
                (mode, type_id, variant, jer.stderr.decode())
            reader = p.pycrate.type_of(type_id.split(".", 1)[1])
            for line, value in zip(lines, wanted):
                reader.from_jer(line)
                assert without_defaults(reader, reader.get_val(), value) == value, \
                    (mode, type_id, variant, line, value)


SPEC_TYPES = 40         # per spec, spread evenly over its named types
SPEC_PARTS = {"cam": 4, "rrc": 46}      # of SPEC_TYPES types each, with PER_TYPES_ALL


class SpecTypes:
    """The named types of every module of ITS CAM or LTE RRC, as `check` takes a PDU."""
    def __init__(self, name: str):
        self.spec = spec(name)
        named = [node.id for node in self.spec.graph if not node.is_anonymous]
        self.types = named[::max(1, len(named) // SPEC_TYPES)]
        self.parts = [named[k:k + SPEC_TYPES] for k in range(0, len(named), SPEC_TYPES)]


_spec_types: dict[str, SpecTypes] = {}


@pytest.mark.parametrize("name, part", [(name, part) for name in sorted(SPEC_PARTS)
                                         for part in range(SPEC_PARTS[name] if PER_TYPES_ALL
                                                           else 1)])
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_spec_types_against_the_references(name, part, data):
    """`check` for 1 or 2 random values of each of SPEC_TYPES named types of ITS CAM or
    LTE RRC, framed (--framed) so that a build reads all of a type's values at once.
    The reference PER of a value is pycrate's or asn1tools' (`reference_per`); a value
    for which both encoders err is left to the PDU tests above, which let pycrate's
    decoder judge ours one value at a time."""
    if name not in _spec_types:
        _spec_types[name] = SpecTypes(name)
    t = _spec_types[name]
    s = t.spec
    assert not PER_TYPES_ALL or len(t.parts) <= SPEC_PARTS[name], "SPEC_PARTS leaves types out"
    types = t.types if not PER_TYPES_ALL else t.parts[part] if part < len(t.parts) else []
    if not types:
        pytest.skip(f"{name} has {len(t.parts)} parts of {SPEC_TYPES} types")
    cases = []                                  # (type, DER, {variant: PER}) per value
    for type_id in types:
        values = data.draw(st.lists(s.strategies.of(type_id), min_size=1, max_size=2),
                           label=type_id)
        for value in values:
            case = reference_case(s, type_id, value)
            if case is not None and all(per for per, _ in case[1].values()):
                cases.append((type_id, case[0], {v: per for v, (per, _) in case[1].items()}))
    assert cases
    batches = {}                                # type -> (DERs, {variant: PERs})
    for type_id, der, per in cases:
        ders, pers = batches.setdefault(type_id, ([], {v: [] for v in VARIANTS}))
        ders.append(der)
        for variant in VARIANTS:
            pers[variant].append(per[variant])
    checks = []                                 # (mode, type, conversion, input, wanted)
    for type_id, (ders, pers) in batches.items():
        for variant in VARIANTS:
            for mode in MODES:
                if mode not in s.per_only:
                    checks += [(mode, type_id, ("ber", variant), ders, b"".join(pers[variant])),
                               (mode, type_id, (variant, "der"), pers[variant], b"".join(ders))]
                checks.append((mode, type_id, (variant, variant), pers[variant],
                               b"".join(pers[variant])))
                if s.per_only and (mode in s.per_only or mode == "interpreted"):
                    checks.append((mode, type_id, (variant, "jer"), pers[variant], None))
    results = specbuilds.run_many([
        (s.builds[mode], ("-p", type_id, "-i", source, "-o", target, "--framed", "-"),
         framed(octets)) for mode, type_id, (source, target), octets, _ in checks])
    jer = {(type_id, conversion[0]): result.stdout     # from a build checked against DER
           for (mode, type_id, conversion, _, wanted), result in zip(checks, results)
           if wanted is None and mode == "interpreted"}
    for (mode, type_id, conversion, _, wanted), result in zip(checks, results):
        assert result.returncode == 0, (mode, type_id, conversion, result.stderr.decode())
        if wanted is None:
            assert result.stdout == jer[type_id, conversion[0]], (mode, type_id, conversion)
        else:
            assert result.stdout == wanted, \
                (mode, type_id, conversion, wanted.hex(), result.stdout.hex())


def test_a_character_outside_its_repertoire_is_refused():
    """Found by the S1AP fuzz target once open types were decoded: an ENBname (a
    PrintableString, whose characters APER writes as their own octets) holding 0x95.
    The decoder must refuse it where it is, since no encoder may write it back."""
    folder, module, pdu, _, _ = AP_CASES["s1ap"]
    files = sorted(Path(p) for p in glob.glob(str(specbuilds.SPECS / folder / "*.asn")))
    data = bytes.fromhex("0011002e000004003b00090045f6424012345670003c400a0380956e6229"
                         "3030303100004007000600c045f6420089400140")
    build = cbuild.converter(files, "--mode", "interpreted", flags=specbuilds.FLAGS)
    result = build.run("-p", f"{module}.{pdu}", "-i", "aper", "-o", "aper", "-", input=data,
                       check=False)
    assert result.returncode == 1
    assert result.stderr.decode() == (
        f"-:26: {module}.{pdu}.initiatingMessage.value.protocolIEs[1].item.value: value "
        "out of range\n")


BIG_BOUNDS = """Big DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Above ::= INTEGER (18446744073709551616..18446744073709551626)
Wide ::= INTEGER (-18446744073709551616..18446744073709551616)
Semi ::= INTEGER (18446744073709551616..MAX)
Below ::= INTEGER (-170141183460469231731687303715884105728..0)
WideExt ::= INTEGER (-18446744073709551616..18446744073709551616, ...)
Odd ::= INTEGER (-9223372036854775809..9223372036854775807)
Record ::= SEQUENCE { flag BOOLEAN, above Above, wide Wide, semi Semi, below Below,
                      ext WideExt, odd Odd }
END
"""
BIG_VALUES = [("Above", v) for v in (2**64, 2**64 + 3, 2**64 + 10)] + \
    [("Wide", v) for v in (-2**64, -5, 0, 2**63, 2**64)] + \
    [("Semi", v) for v in (2**64, 2**64 + 300, 2**200)] + \
    [("Below", v) for v in (-2**127, -2**64, -1, 0)] + \
    [("WideExt", v) for v in (-2**64, 7, 2**64, 2**64 + 1, -2**70, 3**90)] + \
    [("Odd", v) for v in (-2**63 - 1, -2**63, 0, 2**63 - 1)] + \
    [("Record", {"flag": True, "above": 2**64 + 1, "wide": -1, "semi": 2**64 + 5,
                 "below": -7, "ext": 2**65, "odd": -2**63 - 1})]


def test_bounds_beyond_64_bits(tmp_path):
    """X.691 11.5.7 and 11.7 with bounds no int64_t holds (the tables give them as octets,
    ASN1H_PER_BIG): a range of 11 above 2^64, ranges of 2^65 and 2^127 (a bit-field of 66
    and 127 bits in UPER, counted octets in APER), a lower bound alone at 2^64, an
    extensible range, and a lower bound one below INT64_MIN.  Against pycrate (asn1tools
    writes the semi-constrained number itself, not its offset from 2^64), both ways, on
    every build; values and encodings outside the bounds are refused."""
    module = tmp_path / "Big.asn"
    module.write_text(BIG_BOUNDS)
    der = asn1tools.compile_files([str(module)], "der")
    reference = PycrateSpec([module], "Big")
    builds = {mode: cbuild.converter([module], *specbuilds.MODES[mode],
                                     flags=specbuilds.FLAGS) for mode in MODES}
    for pdu, value in BIG_VALUES:
        value_der = der.encode(pdu, value)
        for variant in VARIANTS:
            per = reference.encode(pdu, value, variant == "aper")
            assert reference.reads_as(pdu, per, variant == "aper", value)
            for mode, build in builds.items():
                args = ("-p", f"Big.{pdu}", "-i")
                assert build.run(*args, "ber", "-o", variant, "-", input=value_der).stdout \
                    == per, (mode, pdu, value, variant)
                assert build.run(*args, variant, "-o", "der", "-", input=per).stdout \
                    == value_der, (mode, pdu, value, variant)
    refused = [("Above", "ber", "uper", der.encode("Above", 2**64 - 1)),
               ("Above", "ber", "aper", der.encode("Above", 2**64 + 11)),
               ("Wide", "uper", "der", b"\xff" * 9),          # 66 bits above the range
               ("Wide", "aper", "der", b"\x80" + b"\xff" * 9),  # 9 octets above it
               ("Wide", "aper", "der", b"\x90" + b"\x00" * 10)]  # 10 octets: none has
    for mode, build in builds.items():
        for pdu, source, target, data in refused:
            result = build.run("-p", f"Big.{pdu}", "-i", source, "-o", target, "-",
                               input=data, check=False)
            assert result.returncode == 1 and b"value out of range" in result.stderr, \
                (mode, pdu, data.hex(), result.stderr)
        for variant in VARIANTS:
            per = reference.encode("Record", BIG_VALUES[-1][1], variant == "aper")
            for cut in range(1, len(per)):
                result = build.run("-p", "Big.Record", "-i", variant, "-o", "der", "-",
                                   input=per[:cut], check=False)
                assert clean_failure(result) and result.returncode == 1, (mode, cut)


CHARACTERS = """Characters DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Texts ::= SEQUENCE {
    visible VisibleString,
    printable PrintableString (SIZE (0..40)),
    ia5 IA5String (FROM ("a".."z"))
}
END
"""


def test_characters_read_and_written_several_to_a_word(tmp_path):
    """Characters that are their own octets go several to a load or store (up to 56
    bits).  Every length from 0 to 19 crosses the 8-character groups of 7 bits, against
    asn1tools' UPER on every build; and a character outside VisibleString's repertoire,
    at any place in the group, is refused at the octet where reading it ends (the
    7-bit characters follow the 1-octet length)."""
    module = tmp_path / "Characters.asn"
    module.write_text(CHARACTERS)
    reference = {codec: asn1tools.compile_files([str(module)], codec)
                 for codec in ("der", "uper")}
    builds = {mode: cbuild.converter([module], *specbuilds.MODES[mode],
                                     flags=specbuilds.FLAGS) for mode in MODES}
    for n in range(20):
        value = {"visible": "".join(chr(33 + (7 * i) % 94) for i in range(n)),
                 "printable": "Ab 1'()+,-./:=?"[:n % 15] * (1 + n // 15),
                 "ia5": "".join(chr(ord("a") + (5 * i) % 26) for i in range(n))}
        uper = reference["uper"].encode("Texts", value)
        der = reference["der"].encode("Texts", value)
        for mode, build in builds.items():
            args = ("-p", "Characters.Texts", "-i")
            assert build.run(*args, "ber", "-o", "uper", "-", input=der).stdout == uper, \
                (mode, n)
            assert build.run(*args, "uper", "-o", "der", "-", input=uper).stdout == der, \
                (mode, n)
    for n in (1, 7, 8, 9, 16, 19):
        for bad in range(n):
            chars = [0x41] * n
            chars[bad] = 0x7F                    # DEL: not a VisibleString character
            bits = f"{n:08b}" + "".join(f"{c:07b}" for c in chars)
            bits += "0" * (-len(bits) % 8)
            data = int(bits, 2).to_bytes(len(bits) // 8, "big") + b"\x00" * 4
            where = (8 + 7 * (bad + 1)) // 8
            for mode, build in builds.items():
                result = build.run("-p", "Characters.Texts", "-i", "uper", "-o", "der", "-",
                                   input=data, check=False)
                assert result.returncode == 1, (mode, n, bad)
                assert result.stderr.decode() == (
                    f"-:{where}: Characters.Texts.visible: value out of range\n"), \
                    (mode, n, bad)


MOODS = """Moods DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Mood ::= ENUMERATED { calm, busy, ..., away, asleep }
Day ::= SEQUENCE {
    mood Mood,
    moods SEQUENCE (SIZE (0..3)) OF Mood,
    maybe Mood OPTIONAL
}
END
"""


def test_extensible_enumerations_are_inline_in_compiled_routines(tmp_path):
    """A compiled SEQUENCE or list reads and writes an extensible ENUMERATED member inline
    while it is in the root (an extension bit of 0, then its index) and hands an addition
    to the tables from its extension bit.  Every mix of root items and additions, as a
    member, as list elements and absent, against asn1tools in both variants."""
    module = tmp_path / "Moods.asn"
    module.write_text(MOODS)
    reference = {codec: asn1tools.compile_files([str(module)], codec)
                 for codec in ("der", "uper", "per")}
    builds = {mode: cbuild.converter([module], *specbuilds.MODES[mode],
                                     flags=specbuilds.FLAGS) for mode in MODES}
    generated = (builds["compiled"].program.parent / "spec.c").read_text()
    assert "r->pos--;" in generated and "asn1h_per_put_bits(w, 1, 0)" in generated
    items = ["calm", "busy", "away", "asleep"]
    values = [{"mood": a, "moods": [b, items[(i + j) % 4]][:(i + j) % 3],
               **({"maybe": b} if (i + j) % 2 else {})}
              for i, a in enumerate(items) for j, b in enumerate(items)]
    for value in values:
        der = reference["der"].encode("Day", value)
        for ours, codec in VARIANTS.items():
            per = reference[codec].encode("Day", value)
            for mode, build in builds.items():
                args = ("-p", "Moods.Day", "-i")
                assert build.run(*args, "ber", "-o", ours, "-", input=der).stdout == per, \
                    (mode, ours, value)
                assert build.run(*args, ours, "-o", "der", "-", input=per).stdout == der, \
                    (mode, ours, value)


NOTES = """Notes DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Note ::= SEQUENCE {
    level   INTEGER (0..7, ...),
    id      OCTET STRING (SIZE (1..8)),
    flags   BIT STRING (SIZE (3)),
    text    IA5String (SIZE (0..20)),
    digits  NumericString,
    wide    BMPString OPTIONAL,
    code    VisibleString (SIZE (4)),
    names   SEQUENCE (SIZE (0..3)) OF PrintableString
}
END
"""

MEMBER_COUNTER = r"""
#include <stdio.h>
#include <stdlib.h>
#include "asn1h_ber.h"
static unsigned long members, strings, shorts;
int __real_asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base);
int __real_asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base);
int __real_asn1h_per_string(asn1h_per_in *r, const asn1h_per_shape *s, void *v);
int __real_asn1h_per_put_string(asn1h_per_out *w, const asn1h_per_shape *s, const void *v);
int __wrap_asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base);
int __wrap_asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base);
int __wrap_asn1h_per_string(asn1h_per_in *r, const asn1h_per_shape *s, void *v);
int __wrap_asn1h_per_put_string(asn1h_per_out *w, const asn1h_per_shape *s, const void *v);
int __wrap_asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base)
{ members++; return __real_asn1h_per_member(r, m, base); }
int __wrap_asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base)
{ members++; return __real_asn1h_per_put_member(w, m, base); }
int __wrap_asn1h_per_string(asn1h_per_in *r, const asn1h_per_shape *s, void *v)
{ strings++; return __real_asn1h_per_string(r, s, v); }
int __wrap_asn1h_per_put_string(asn1h_per_out *w, const asn1h_per_shape *s, const void *v)
{ strings++; return __real_asn1h_per_put_string(w, s, v); }
int __real_asn1h_per_short_string(asn1h_per_in *r, const asn1h_per_shape *s, asn1h_bytes *v);
int __real_asn1h_per_put_short_string(asn1h_per_out *w, const asn1h_per_shape *s,
                                      const asn1h_bytes *v);
int __wrap_asn1h_per_short_string(asn1h_per_in *r, const asn1h_per_shape *s, asn1h_bytes *v);
int __wrap_asn1h_per_put_short_string(asn1h_per_out *w, const asn1h_per_shape *s,
                                      const asn1h_bytes *v);
int __wrap_asn1h_per_short_string(asn1h_per_in *r, const asn1h_per_shape *s, asn1h_bytes *v)
{ shorts++; return __real_asn1h_per_short_string(r, s, v); }
int __wrap_asn1h_per_put_short_string(asn1h_per_out *w, const asn1h_per_shape *s,
                                      const asn1h_bytes *v)
{ shorts++; return __real_asn1h_per_put_short_string(w, s, v); }
static void report(void)
{ fprintf(stderr, "members %lu strings %lu shorts %lu\n", members, strings, shorts); }
__attribute__((constructor)) static void start(void) { atexit(report); }
"""
STRING_FUNCTIONS = ("asn1h_per_member", "asn1h_per_put_member", "asn1h_per_string",
                    "asn1h_per_put_string", "asn1h_per_short_string",
                    "asn1h_per_put_short_string")


def counted_builds(tmp_path: Path, name: str, text: str, counter: str,
                   wrapped: tuple[str, ...]) -> tuple[dict, dict]:
    """Module `name` of `text`: asn1tools' DER, UPER and APER codecs of it, and its
    converter in every build mode, linked with `counter`, whose wrappers of the runtime's
    functions `wrapped` count their calls and print the counts on exit."""
    module = tmp_path / f"{name}.asn"
    module.write_text(text)
    reference = {codec: asn1tools.compile_files([str(module)], codec)
                 for codec in ("der", "uper", "per")}
    source = tmp_path / "counter.c"
    source.write_text(counter)
    programs = {}
    for mode in MODES:
        out = tmp_path / mode
        cbuild.generate([module], out, "--name", "spec", "--converter", *specbuilds.MODES[mode])
        programs[mode] = out / "converter.bin"
        cbuild.run(["gcc", *cbuild.STRICT, *specbuilds.FLAGS, "-I", out, "-I", cbuild.RUNTIME,
                    out / "spec.c", out / "converter" / "spec_converter.c", source,
                    cbuild.runtime_library("gcc", specbuilds.FLAGS), "-lm",
                    "-Wl," + ",".join(f"--wrap={f}" for f in wrapped), "-o", programs[mode]])
    return reference, programs


def both_ways(program: Path, pdu: str, der: bytes, per: bytes, variant: str):
    """`program` writes `der` as `per` in `variant` and reads `per` back as `der`: the
    two runs, for their counts."""
    args = [str(program), "-p", pdu, "-i"]
    out = cbuild.subprocess.run(args + ["ber", "-o", variant, "-"], input=der,
                                capture_output=True)
    back = cbuild.subprocess.run(args + [variant, "-o", "der", "-"], input=per,
                                 capture_output=True)
    assert out.stdout == per and back.stdout == der, (program, variant, der.hex())
    return out, back


def same_verdicts(programs: dict, pdu: str, per: bytes, variant: str) -> list:
    """Every truncation and every flipped bit of `per`, read and written again by the
    interpreted and the compiled build: the same exit code, octets and error line (its
    offset and path; the counters' line aside).  The compiled build's results."""
    inputs = [per[:cut] for cut in range(len(per))]
    for k in range(8 * len(per)):
        flipped = bytearray(per)
        flipped[k // 8] ^= 0x80 >> (k % 8)
        inputs.append(bytes(flipped))
    verdicts = {}
    for mode in ("interpreted", "compiled"):
        run = lambda given: cbuild.subprocess.run(
            [str(programs[mode]), "-p", pdu, "-i", variant, "-o", variant, "-"],
            input=given, capture_output=True)
        with ThreadPoolExecutor(max_workers=2) as pool:
            verdicts[mode] = list(pool.map(run, inputs))

    def verdict(r):
        return r.returncode, r.stdout, [line for line in r.stderr.splitlines()
                                        if not line.startswith(b"members ")]
    for given, a, b in zip(inputs, verdicts["interpreted"], verdicts["compiled"]):
        assert verdict(a) == verdict(b), (variant, given.hex())
    return verdicts["compiled"]


def test_compiled_routines_read_strings_and_extensible_integers_themselves(tmp_path):
    """A compiled SEQUENCE reads and writes its BIT STRING, OCTET STRING and known-
    multiplier string members through asn1h_per_string with the shape the generator
    works out (sizes, bits per character, indices), or asn1h_per_short_string when the
    characters go as their own values with a length of 8 bits at most (text and code
    here, not the names, which have no SIZE), and an extensible INTEGER's root
    values inline; values outside the root go to the tables.  Every build writes what
    asn1tools writes in both variants, and the compiled one hands none of these members
    to the tables while they are in their roots."""
    reference, programs = counted_builds(tmp_path, "Notes", NOTES, MEMBER_COUNTER,
                                         STRING_FUNCTIONS)
    values = [{"level": level, "id": b"\x00\xff" * (1 + k % 4), "flags": (b"\xa0", 3),
               "text": "x" * (k * 3 % 21), "digits": "12 34"[:k % 6], "code": "AbC?",
               "names": ["Name", "O'Neil (2)"][:k % 3],
               **({"wide": "\u20ac uro"} if k % 2 else {})}
              for k, level in enumerate([0, 7, 3, 8, -1, 100000, 5])]
    for value in values:
        der = reference["der"].encode("Note", value)
        in_root = 0 <= value["level"] <= 7
        for ours, codec in VARIANTS.items():
            per = reference[codec].encode("Note", value)
            for mode, program in programs.items():
                _, back = both_ways(program, "Notes.Note", der, per, ours)
                calls = [int(x) for x in back.stderr.split()[-5::2]]
                if mode == "compiled":
                    # 5 or 6 strings, and the names, read by their shapes, text and code
                    # as short strings; the list of names by its own routine, through
                    # asn1h_per_member (1)
                    strings = 3 + ("wide" in value) + len(value["names"])
                    assert calls == [1 if in_root else 2, strings, 2], calls
                elif mode == "interpreted":
                    assert calls == [0, 0, 0], calls


SHORTS = """Shorts DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Card ::= SEQUENCE {
    flag    BOOLEAN,
    code    VisibleString (SIZE (2)),
    name    PrintableString (SIZE (1..16)),
    tag     IA5String (SIZE (0..7, ...)),
    more    BOOLEAN,
    triple  PrintableString (SIZE (3)),
    long    IA5String (SIZE (3..200)),
    names   SEQUENCE (SIZE (0..4)) OF VisibleString (SIZE (1..8))
}
END
"""


def test_short_strings_go_in_one_word_or_as_octets(tmp_path):
    """A short string (characters that go as their own values, SIZE (lb..ub) with
    ub - lb < 255) is read and written by asn1h_per_short_string: in UPER its extension
    bit, length and characters as one number when they take at most 57 bits, in APER its
    characters as octets, aligned after the length or when the fixed size is above two.
    The values cross every edge: empty, 7 and 8 characters of 7 bits after lengths of 3,
    4 and 8 bits (53, 57, 60 and 64 bits), a size outside an extensible root, fixed sizes
    of 2 (off the octet boundary in APER too) and 3, 200 characters, the repertoire's
    ends, a string among the last octets of the input.  Every build writes pycrate's PER
    (asn1tools' too, where it can write it) in both variants and reads it back, the
    compiled one through asn1h_per_short_string for each string; every truncation and
    flipped bit gives the compiled and interpreted builds the same verdict, offset and
    path."""
    reference, programs = counted_builds(tmp_path, "Shorts", SHORTS, MEMBER_COUNTER,
                                         STRING_FUNCTIONS)
    pycrate = PycrateSpec([tmp_path / "Shorts.asn"], "Shorts")

    def reference_octets(value: dict, ours: str) -> bytes:
        """pycrate's, which asn1tools' are but for the two cases of the module's docstring;
        asn1tools' alone for an IA5String with DEL, which pycrate leaves out"""
        if "\x7f" in value["tag"]:
            return reference[VARIANTS[ours]].encode("Card", value)
        per = pycrate.encode("Card", value, ours == "aper")
        if len(value["tag"]) <= 7 and (value["tag"] or ours == "uper"):
            assert per == reference[VARIANTS[ours]].encode("Card", value), (ours, value)
        return per
    values = [{"flag": k % 2 == 0, "name": name, "code": code, "tag": tag, "more": k < 3,
               "triple": "a b", "long": long, "names": names}
              for k, (name, code, tag, long, names) in enumerate([
                  ("J", "ab", "", "abc", []),
                  ("Seven c", "  ", "seven!!", "1234567", ["x"]),
                  ("Eight ch", "Z9", "~~~~~~~~~", "12345678", ["12345678"] * 4),
                  ("Sixteen (16) ch.", "?!", "\x00\x7f", "w" * 200, ["a", "bc", "def"]),
                  ("a'b", "--", "tag", "x" * 130, ["short", "\x7e"])])]
    for value in values:
        der = reference["der"].encode("Card", value)
        for ours in VARIANTS:
            per = reference_octets(value, ours)
            for mode, program in programs.items():
                _, back = both_ways(program, "Shorts.Card", der, per, ours)
                calls = [int(x) for x in back.stderr.split()[-5::2]]
                # the list of names by its own routine, through asn1h_per_member
                if mode == "compiled":
                    assert calls == [1, 0, 5 + len(value["names"])], (ours, calls)
                elif mode == "interpreted":
                    assert calls == [0, 0, 0], (ours, calls)
    for value in values[1:3]:
        for ours in VARIANTS:
            per = reference_octets(value, ours)
            refused = [r for r in same_verdicts(programs, "Shorts.Card", per, ours)
                       if r.returncode == 1]
            assert len(refused) >= len(per) and any(b"Shorts.Card" in r.stderr
                                                    for r in refused)


ROWS = """Rows DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Colour ::= ENUMERATED { red, green, blue }
Mood ::= ENUMERATED { calm, busy, ..., away }
Row ::= SEQUENCE {
    on      BOOLEAN,
    level   INTEGER (1..6),
    colour  Colour,
    none    NULL,
    mood    Mood,
    small   INTEGER (0..3, ...),
    name    IA5String (SIZE (1..4)) OPTIONAL,
    byte    INTEGER (0..255),
    a       BOOLEAN,
    b       BOOLEAN,
    ...
}
Pick ::= CHOICE { one BOOLEAN, two Colour, three INTEGER (0..9), ..., four BOOLEAN }
Top ::= SEQUENCE { row Row, pick Pick, rows SEQUENCE (SIZE (1..3)) OF Row }
END
"""

PEEK_COUNTER = r"""
#include <stdio.h>
#include <stdlib.h>
#include "asn1h_ber.h"
static unsigned long members, groups;
int __real_asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base);
int __real_asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base);
int __real_asn1h_per_peek(asn1h_per_in *r, unsigned n, uint64_t *v);
int __real_asn1h_per_put_bits(asn1h_per_out *w, unsigned n, uint64_t v);
int __wrap_asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base);
int __wrap_asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base);
int __wrap_asn1h_per_peek(asn1h_per_in *r, unsigned n, uint64_t *v);
int __wrap_asn1h_per_put_bits(asn1h_per_out *w, unsigned n, uint64_t v);
int __wrap_asn1h_per_member(asn1h_per_in *r, const asn1h_member *m, void *base)
{ members++; return __real_asn1h_per_member(r, m, base); }
int __wrap_asn1h_per_put_member(asn1h_per_out *w, const asn1h_member *m, const void *base)
{ members++; return __real_asn1h_per_put_member(w, m, base); }
int __wrap_asn1h_per_peek(asn1h_per_in *r, unsigned n, uint64_t *v)
{ groups++; return __real_asn1h_per_peek(r, n, v); }
int __wrap_asn1h_per_put_bits(asn1h_per_out *w, unsigned n, uint64_t v)
{ groups += n > 1; return __real_asn1h_per_put_bits(w, n, v); }
static void report(void) { fprintf(stderr, "members %lu groups %lu\n", members, groups); }
__attribute__((constructor)) static void start(void) { atexit(report); }
"""


def test_members_in_a_row_are_read_and_written_as_one_number(tmp_path):
    """A compiled SEQUENCE reads and writes its mandatory BOOLEAN, NULL and small
    constrained members in a row as one number (at most 57 bits), and an extensible
    SEQUENCE's extension bit and preamble, and an extensible CHOICE's extension bit and
    index, as one; a member out of its root (an ENUMERATED's or INTEGER's extension, a
    number of 3 bits above its bound) sends its group to the tables, member by member.
    Every build writes what asn1tools writes in both variants and reads it back; every
    truncation and flipped bit gives the compiled and interpreted builds the same
    verdict, offset and path; and the compiled build takes the group's bits in one read
    (asn1h_per_peek) and one write while in the root, and hands the group's six members
    to the tables otherwise."""
    reference, programs = counted_builds(tmp_path, "Rows", ROWS, PEEK_COUNTER, (
        "asn1h_per_member", "asn1h_per_put_member", "asn1h_per_peek", "asn1h_per_put_bits"))
    generated = (tmp_path / "compiled" / "spec.c").read_text()
    assert generated.count("on, level, colour, none, mood, small: 11 bits at once") == 2
    assert generated.count("a, b: 2 bits at once") == 2

    def row(k: int, mood: str = "busy", small: int = 2, level: int = 6) -> dict:
        return {"on": k % 2 == 0, "level": level, "colour": ["red", "green", "blue"][k % 3],
                "none": None, "mood": mood, "small": small, "byte": 255 - k,
                "a": k % 3 == 0, "b": k % 4 == 0, **({"name": "ab"[:1 + k % 2]} if k % 2 else {})}
    picks = [("one", True), ("two", "blue"), ("three", 9), ("four", False)]
    values = [{"row": row(k), "pick": picks[k % 4], "rows": [row(k + j) for j in range(1 + k % 3)]}
              for k in range(6)]
    outside = [{"row": row(0, mood="away"), "pick": picks[0], "rows": [row(1)]},
               {"row": row(1), "pick": picks[1], "rows": [row(2, small=4), row(3, small=-1)]},
               {"row": row(2, level=1), "pick": picks[2], "rows": [row(4, mood="calm")]}]
    for value in values + outside:
        der = reference["der"].encode("Top", value)
        rows = [value["row"], *value["rows"]]
        out_of_root = sum(r["mood"] == "away" or not 0 <= r["small"] <= 3 for r in rows)
        for ours, codec in VARIANTS.items():
            per = reference[codec].encode("Top", value)
            for mode, program in programs.items():
                out, back = both_ways(program, "Rows.Top", der, per, ours)
                if mode != "compiled":
                    continue
                # row, pick and rows, and each element of rows, by asn1h_per_member; a row
                # out of its root adds its group's six members
                members = 3 + len(value["rows"]) + 6 * out_of_root
                # reading: per row, its extension bit and preamble, then its two groups,
                # peeked at whatever they hold; the CHOICE's extension bit and index
                read = 3 * len(rows) + 1
                assert [int(x) for x in back.stderr.split()[-3::2]] == [members, read], \
                    (ours, value)
                # writing: the same, less the groups out of their root and the CHOICE's
                # addition, which the tables write
                written = read - out_of_root - (value["pick"][0] == "four")
                assert [int(x) for x in out.stderr.split()[-3::2]] == [members, written], \
                    (ours, value)
    for value in (values[1], outside[1]):
        for ours, codec in VARIANTS.items():
            per = reference[codec].encode("Top", value)
            results = same_verdicts(programs, "Rows.Top", per, ours)
            assert sum(r.returncode == 1 for r in results) >= len(per)


# -- malformed PER, under AddressSanitizer and UndefinedBehaviorSanitizer ---------------
# A Message with a value of every kind, for the malformed-input tests.
KINDS_MESSAGE = {"kinds": {
    "flag": True, "nothing": None, "tiny": 1, "byteRange": -128, "wordRange": 65535,
    "wide": 4294967295, "negative": -5000000000, "semi": 10**30, "free": -(10**20),
    "extended": 99, "single": 42, "colour": "green", "size": "huge",
    "fixedBits": (b"\xa0", 3), "longBits": (b"\xff\x0f\xf0", 20), "someBits": (b"\xaa", 7),
    "anyBits": (b"\x55\x55", 16), "named": (b"\x84", 6), "pair": b"xy", "block": b"12345",
    "someOctets": b"q" * 200, "anyOctets": b"z" * 130, "extOctets": b"long!",
    "hex": "0A1B", "ia5": "ia5\x01", "numeric": "12 34", "printable": "Print (able)",
    "visible": "vis!", "bmp": "\u4e2d\u6587", "utf8": "\u00e9t\u00e9", "oid": "1.3.6.1.4",
    "list": [0, 255], "anyList": ["red", "blue"], "fixedList": [True, True],
    "maybe": 3, "byDefault": 99, "pick": ("later", True),
    "record": {"id": 16, "note": "n", "added": 7, "grouped": True, "extra": "x",
               "after": "red"}},
    "tail": [{"id": 1}]}


def clean_failure(result) -> bool:
    """Exit 0, or exit 1 with one `file:offset: path: error` line and no sanitizer report."""
    text = result.stderr.decode(errors="replace")
    if "Sanitizer" in text or "runtime error" in text:
        return False
    return result.returncode == 0 or (result.returncode == 1 and text.startswith("-:"))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_malformed_per_fails_cleanly(variant):
    """Every truncation and every flipped bit of a message, in every build: a value or a
    clear error, never a crash."""
    s = spec("per")
    value = KINDS_MESSAGE
    data = reference_per(s, "Message", value, variant)[0] or \
        s.run("interpreted", "Message", s.reference["der"].encode("Message", value), "ber",
              variant).stdout
    for mode in MODES:
        build = s.builds[mode]
        jobs = [(build, ("-p", "PerTest.Message", "-i", variant, "-o", variant, "-"),
                 data[:cut]) for cut in range(1, len(data))]
        for k in range(0, 8 * len(data), 3):
            flipped = bytearray(data)
            flipped[k // 8] ^= 0x80 >> (k % 8)
            jobs.append((build, ("-p", "PerTest.Message", "-i", variant, "-o", variant, "-"),
                         bytes(flipped)))
        results = specbuilds.run_many(jobs)
        for (_, _, given), result in zip(jobs, results):
            assert clean_failure(result), (mode, given.hex(), result.stderr.decode())
        assert all(r.returncode == 1 for r in results[:len(data) - 1])    # every cut


@pytest.mark.skipif(shutil.which("clang") is None, reason="clang's UBSan checks NULL + 0")
def test_empty_strings_read_and_written_under_the_sanitizers():
    """Empty bit and octet strings, of a size range from 0 and of no size at all, in UPER
    and APER: every build reads them (an empty value has no buffer) and writes the same
    octets, with no sanitizer report.  Built with clang, whose UBSan also reports an
    offset added to a NULL pointer, as an empty BIT STRING once did (found by fuzzing
    NGAP)."""
    s = spec("per")
    value = {**KINDS_MESSAGE, "kinds": {**KINDS_MESSAGE["kinds"], "someBits": (b"", 0),
                                         "anyBits": (b"", 0), "anyOctets": b""}}
    for mode in MODES:
        build = cbuild.converter(s.files, *specbuilds.MODES[mode], cc="clang",
                                 flags=specbuilds.FLAGS)
        for variant in VARIANTS:
            data = reference_per(s, "Message", value, variant)[0]
            assert data is not None
            result = build.run("-p", "PerTest.Message", "-i", variant, "-o", variant, "-",
                               input=data, check=False)
            assert clean_failure(result) and result.returncode == 0, \
                (mode, variant, result.stderr.decode())
            assert result.stdout == data, (mode, variant)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_compiled_routines_report_malformed_per_as_the_tables_do(variant):
    """A compiled build hands nested compiled types to their routines straight from their
    parent's (asn1h_per_member): every truncation and every third flipped bit of a message
    gives the same verdict, byte offset and path as the interpreted build, and the same
    octets when it decodes; so does the CAM, whose types nest six deep."""
    cases = []
    s = spec("per")
    data = reference_per(s, "Message", KINDS_MESSAGE, variant)[0] or \
        s.run("interpreted", "Message", s.reference["der"].encode("Message", KINDS_MESSAGE),
              "ber", variant).stdout
    cases.append((s, "PerTest.Message", data))
    sys.path.insert(0, str(cbuild.REPO))
    from bench.per_messages import CAM
    c = spec("cam")
    cases.append((c, "CAM-PDU-Descriptions.CAM",
                  c.run("interpreted", "CAM", c.reference["der"].encode("CAM", CAM), "ber",
                        variant).stdout))
    for s, pdu, data in cases:
        inputs = [data[:cut] for cut in range(1, len(data))]
        for k in range(0, 8 * len(data), 3):
            flipped = bytearray(data)
            flipped[k // 8] ^= 0x80 >> (k % 8)
            inputs.append(bytes(flipped))
        verdicts = {}
        for mode in ("interpreted", "compiled"):
            jobs = [(s.builds[mode], ("-p", pdu, "-i", variant, "-o", variant, "-"), given)
                    for given in inputs]
            verdicts[mode] = [(r.returncode, r.stdout, r.stderr)
                              for r in specbuilds.run_many(jobs)]
        differing = [i for i, (a, b) in enumerate(zip(verdicts["interpreted"],
                                                      verdicts["compiled"])) if a != b]
        assert not differing, (pdu, [(inputs[i].hex(), verdicts["interpreted"][i][2],
                                      verdicts["compiled"][i][2]) for i in differing[:3]])
        assert sum(v[0] == 1 for v in verdicts["compiled"]) >= len(data) - 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_lengths_that_promise_too_much(variant):
    """Fragments of 64K elements with nothing after them: refused before any allocation
    of that size; elements of no bits (NULL) are bounded by the arena's limit."""
    s = spec("per")
    bomb = b"\xc4" * 64 + b"\x00"
    for mode in MODES:
        build = s.builds[mode]
        colours = build.run("-p", "PerTest.Colours", "-i", variant, "-o", variant, "-",
                            input=bomb, check=False)
        assert colours.returncode == 1 and b"input ends inside a value" in colours.stderr
        nulls = build.run("-p", "PerTest.Nulls", "-i", variant, "-o", "null",
                          "--max-memory", "1000000", "-", input=bomb, check=False)
        assert nulls.returncode == 1 and b"memory" in nulls.stderr.lower(), nulls.stderr
        fine = build.run("-p", "PerTest.Nulls", "-i", variant, "-o", variant, "-",
                         input=b"\x03", check=False)
        assert fine.returncode == 0 and fine.stdout == b"\x03"


# Counts the calls of the two runtime functions that only compiled PER routines call (the
# tables read and write constrained numbers through their own static functions).
NUMBER_COUNTER = r"""
#include <stdio.h>
#include <stdlib.h>
#include "asn1h_ber.h"
static unsigned long reads, writes;
int __real_asn1h_per_number(asn1h_per_in *r, uint64_t range, uint64_t *v);
int __real_asn1h_per_put_number(asn1h_per_out *w, uint64_t range, uint64_t v);
int __wrap_asn1h_per_number(asn1h_per_in *r, uint64_t range, uint64_t *v);
int __wrap_asn1h_per_put_number(asn1h_per_out *w, uint64_t range, uint64_t v);
int __wrap_asn1h_per_number(asn1h_per_in *r, uint64_t range, uint64_t *v)
{
    reads++;
    return __real_asn1h_per_number(r, range, v);
}
int __wrap_asn1h_per_put_number(asn1h_per_out *w, uint64_t range, uint64_t v)
{
    writes++;
    return __real_asn1h_per_put_number(w, range, v);
}
static void report(void) { fprintf(stderr, "numbers %lu %lu\n", reads, writes); }
__attribute__((constructor)) static void start(void) { atexit(report); }
"""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_compiled_types_take_their_own_per_routines(variant, tmp_path):
    """The compiled build's SEQUENCEs and CHOICEs go through their PER routines, which
    read and write the CAM's constrained numbers inline; the interpreted build never
    calls them; both write the same octets."""
    sys.path.insert(0, str(cbuild.REPO))
    from bench.per_messages import CAM
    der = asn1tools.compile_files([str(f) for f in CAM_SPEC], "der").encode("CAM", CAM)
    counter = tmp_path / "counter.c"
    counter.write_text(NUMBER_COUNTER)
    results = {}
    for mode in ("compiled", "interpreted"):
        out = tmp_path / mode
        cbuild.generate(CAM_SPEC, out, "--name", "spec", "--converter", *specbuilds.MODES[mode])
        program = out / "converter.bin"
        cbuild.run(["gcc", *cbuild.STRICT, *specbuilds.FLAGS, "-I", out, "-I", cbuild.RUNTIME,
                    out / "spec.c", out / "converter" / "spec_converter.c", counter,
                    cbuild.runtime_library("gcc", specbuilds.FLAGS), "-lm",
                    "-Wl,--wrap=asn1h_per_number,--wrap=asn1h_per_put_number", "-o", program])
        per = cbuild.subprocess.run([str(program), "-p", "CAM-PDU-Descriptions.CAM", "-i", "ber",
                                     "-o", variant, "-"], input=der, capture_output=True)
        back = cbuild.subprocess.run([str(program), "-p", "CAM-PDU-Descriptions.CAM", "-i",
                                      variant, "-o", "der", "-"], input=per.stdout,
                                     capture_output=True)
        assert per.returncode == 0 and back.returncode == 0 and back.stdout == der
        writes = int(per.stderr.split()[-1])
        reads = int(back.stderr.split()[-2])
        results[mode] = (per.stdout, reads, writes)
    assert results["compiled"][0] == results["interpreted"][0]
    # the CAM has 30-odd constrained INTEGER and ENUMERATED members and 3 CHOICE indexes
    assert results["compiled"][1] >= 20 and results["compiled"][2] >= 20, results
    assert results["interpreted"][1:] == (0, 0)


OWNED_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spec.h"
/* stdin: one APER PerTest.Message; stdout: its DER, written once the input is gone */
int main(void)
{
    static uint8_t in[65536], out[65536];
    const asn1h_type *type = asn1h_find_type(&spec_spec.spec, "PerTest.Message");
    size_t n = fread(in, 1, sizeof in, stdin), len = 0;
    uint8_t *input = (uint8_t *)malloc(n);
    void *value = malloc(type->size);
    asn1h_arena arena;
    asn1h_error err;
    asn1h_arena_init(&arena, NULL, 0, (size_t)1 << 24);
    memcpy(input, in, n);
    if (spec_decode_per_owned(type, value, input, n, ASN1H_APER, &arena, NULL, NULL, &err)
        != ASN1H_OK)
        return 1;
    memset(input, 0xA5, n);
    free(input);                    /* a pointer left into it: a use after free (ASan) */
    if (asn1h_encode(type, value, out, sizeof out, &len, &err) != ASN1H_OK)
        return 2;
    fwrite(out, 1, len, stdout);
    asn1h_arena_free(&arena);
    free(value);
    return 0;
}
"""

OWNED_MESSAGE = {
    "kinds": {
        "flag": True, "nothing": None, "tiny": 1, "byteRange": -5, "wordRange": 2000,
        "wide": 100000, "negative": -7, "semi": 12, "free": -99, "extended": 3, "single": 42,
        "colour": "blue", "size": "large", "fixedBits": (b"\xa0", 3),
        "longBits": (b"\x12\x34\x50", 20), "someBits": (b"\xff", 8),
        "anyBits": (b"\x0f", 8), "named": (b"\xc0", 2), "pair": b"ab", "block": b"hello",
        "someOctets": b"x" * 40, "anyOctets": b"octets aligned in APER", "extOctets": b"abc",
        "hex": "BEEF", "ia5": "text", "numeric": "123", "printable": "Printable",
        "visible": "four", "bmp": "bmp", "utf8": "utf", "oid": "1.2.840.113549",
        "list": [1, 2], "anyList": ["red"], "fixedList": [True, False],
        "pick": ("text", "ab")},
    "tail": [{"id": 3, "note": "a note"}]}


def test_values_decoded_owned_in_per_take_the_compiled_routines(tmp_path):
    """<spec>_decode_per_owned decodes through the compiled types' PER routines (the
    compiled build reads its constrained numbers through asn1h_per_number, the tables
    never do), into values that outlive their input: an APER message whose octet strings
    lie aligned in the input, which is overwritten and freed before the value is written
    in DER (under AddressSanitizer)."""
    s = spec("per")
    aper, _ = reference_per(s, "Message", OWNED_MESSAGE, "aper")
    der = typedtlv.canonical_der(s.graph, "PerTest.Message",
                                 s.reference["der"].encode("Message", OWNED_MESSAGE))
    (tmp_path / "main.c").write_text(OWNED_MAIN)
    (tmp_path / "counter.c").write_text(NUMBER_COUNTER)
    reads = {}
    for mode in ("compiled", "interpreted"):
        out = tmp_path / mode
        cbuild.generate(PER_SPEC, out, "--name", "spec", "--encoding", "ber,aper",
                        *specbuilds.MODES[mode])
        program = out / "owned"
        cbuild.run(["gcc", *cbuild.STRICT, *specbuilds.FLAGS, "-I", out, "-I", cbuild.RUNTIME,
                    out / "spec.c", tmp_path / "main.c", tmp_path / "counter.c",
                    cbuild.runtime_library("gcc", specbuilds.FLAGS), "-lm",
                    "-Wl,--wrap=asn1h_per_number,--wrap=asn1h_per_put_number", "-o", program])
        result = cbuild.subprocess.run([str(program)], input=aper, capture_output=True)
        assert result.returncode == 0, (mode, result.stderr.decode())
        assert result.stdout == der, mode
        reads[mode] = int(result.stderr.split()[-2])
    assert reads["compiled"] >= 10 and reads["interpreted"] == 0, reads


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_numbers_of_any_size_go_as_counted_octets(variant):
    """A semi-constrained or unconstrained INTEGER of 1,000 bits and more, and one of
    20,001 octets, whose count goes in 16K fragments (X.691 11.9.3.8), are written as
    pycrate writes them and read back, in every build.  asn1tools writes the long one
    unfragmented, as one length octet C1 before all its octets, and pycrate's decoder
    does not read its own fragments back, so that these are checked by pycrate's encoder
    and our round trip."""
    s = spec("per")
    aligned = variant == "aper"
    for pdu, value in [("Huge", -10), ("Huge", 2**1000 + 5), ("Whole", -(2**900)),
                       ("Whole", 2**1100 - 1), ("Huge", 2**(8 * 20000) - 3),
                       ("Whole", 2**(8 * 20000) - 3)]:
        der = s.reference["der"].encode(pdu, value)
        expected = s.pycrate.encode(pdu, value, aligned)
        if value.bit_length() < 8 * 16384:
            assert s.pycrate.reads_as(pdu, expected, aligned, value)
        for mode in MODES:
            ours = s.run(mode, pdu, der, "ber", variant)
            assert ours.returncode == 0, (mode, ours.stderr.decode())
            assert ours.stdout == expected, (mode, pdu, value.bit_length())
            back = s.run(mode, pdu, expected, variant, "der")
            assert back.returncode == 0 and back.stdout == der, (mode, back.stderr.decode())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_an_upper_bound_beyond_int64_is_a_constrained_number(variant):
    """INTEGER (0..18446744073709551615), as NGAP's usage counts, is a constrained number
    of 64 bits (in APER, of 1 to 8 counted octets), not an unconstrained one; extensible,
    a value beyond it goes as counted octets after an extension bit of 1.  The octets are
    pycrate's, which asn1tools writes too; a value the root does not allow is refused
    when the type is not extensible."""
    s = spec("per")
    aligned = variant == "aper"
    cases = [("Counter", v) for v in (0, 1, 2**63 - 1, 2**63, 2**64 - 1)] + \
            [("Upper", v) for v in (5, 6, 2**63, 2**64 - 1, 2**64 + 7, 3, -1)]
    for pdu, value in cases:
        der = s.reference["der"].encode(pdu, value)
        expected = s.pycrate.encode(pdu, value, aligned)
        assert expected == s.reference[VARIANTS[variant]].encode(pdu, value)
        for mode in MODES:
            ours = s.run(mode, pdu, der, "ber", variant)
            assert ours.returncode == 0, (mode, ours.stderr.decode())
            assert ours.stdout == expected, (mode, pdu, value)
            back = s.run(mode, pdu, expected, variant, "der")
            assert back.returncode == 0 and back.stdout == der, (mode, back.stderr.decode())
    too_big = typedtlv.canonical_der(s.graph, "PerTest.Whole",
                                     s.reference["der"].encode("Whole", 2**64))
    for mode in MODES:
        refused = s.run(mode, "Counter", too_big, "ber", variant)
        assert refused.returncode != 0 and b"Counter" in refused.stderr, mode


def canonical_order(reference, type_name: str, values: list) -> list:
    """values in CANONICAL-PER's SET OF order (X.691 22.1): by each one's own encoding,
    here asn1tools', padded with 0 octets to the longest; shorter first among equals."""
    encodings = [reference.encode(type_name, value) for value in values]
    width = max((len(e) for e in encodings), default=0)
    ranked = sorted(range(len(values)),
                    key=lambda i: (encodings[i] + bytes(width - len(encodings[i])),
                                   len(encodings[i]), i))
    return [values[i] for i in ranked]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_canonical_per_sorts_a_set_of_by_its_elements_encodings(variant):
    """With --canonical (ASN1H_PER_CANONICAL) a SET OF's elements go in ascending order of
    their own encodings, at every level: Bag's entries, and each entry's tags.  The
    expected octets are asn1tools' encoding of the value whose lists were put in that
    order from asn1tools' encodings of each element alone.  Without --canonical the
    order received stays (BASIC-PER).  With --strict-der (<spec>_decode_per_canonical)
    the converter reads the canonical octets and refuses the others, at either level:
    through the tables and through the compiled SET OF routines."""
    import random
    s = spec("per")
    reference = s.reference[VARIANTS[variant]]
    rng = random.Random(22)
    reordered = 0
    for _ in range(12):
        bag = []
        for _ in range(rng.randint(2, 8)):
            entry = {"key": rng.choice([0, 1, 7, 255, 256, 999, 1000, rng.randint(0, 1000)])}
            if rng.random() < 0.6:
                # no empty tag: asn1tools does not align one in APER (above)
                entry["tags"] = ["".join(rng.choice("abz~") for _ in range(rng.randint(1, 4)))
                                 for _ in range(rng.randint(0, 4))]
            bag.append(entry)
        received = reference.encode("Bag", bag)
        canonical = [dict(e, tags=canonical_order(reference, "Tag", e["tags"]))
                     if "tags" in e else e for e in bag]
        expected = reference.encode("Bag", canonical_order(reference, "Entry", canonical))
        reordered += expected != received
        for mode in MODES:
            ours = s.run(mode, "Bag", received, variant, variant)
            assert ours.returncode == 0 and ours.stdout == received, ours.stderr
            ours = s.builds[mode].run("-p", "PerTest.Bag", "-i", variant, "-o", variant,
                                      "--canonical", "-", input=received, check=False)
            assert ours.returncode == 0, ours.stderr.decode()
            assert ours.stdout == expected, (mode, bag, ours.stdout.hex(), expected.hex())
            # --strict-der: PER input out of CANONICAL-PER's order is refused
            strict = s.builds[mode].run("-p", "PerTest.Bag", "-i", variant, "-o", variant,
                                        "--strict-der", "-", input=expected, check=False)
            assert strict.returncode == 0 and strict.stdout == expected, strict.stderr
            if received != expected:
                strict = s.builds[mode].run("-p", "PerTest.Bag", "-i", variant, "-o", variant,
                                            "--strict-der", "-", input=received, check=False)
                assert strict.returncode == 1 and b"not canonical" in strict.stderr, \
                    (mode, strict.stderr)
    assert reordered >= 8                   # the order received was seldom canonical


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_lists_in_fragments_and_counts_out_of_bounds_agree_on_every_path(variant):
    """A compiled list reads its count inline when it is a constrained number, and leaves
    a count in 16K fragments to the tables: 40,000 colours (two fragments of 16K and the
    rest) and NULLs come and go as asn1tools writes them, in every build.  A count of
    three bits that says 8 where SIZE (1..5) allows 5 is refused once the elements are
    read, with the same error on every path."""
    s = spec("per")
    reference = s.reference[VARIANTS[variant]]
    for pdu, value in (("Colours", ["red", "green", "blue", "green"] * 10000),
                       ("Nulls", [None] * 40000), ("Five", [7, 0, 3])):
        data = reference.encode(pdu, value)
        der = s.reference["der"].encode(pdu, value)
        for mode in MODES:
            assert s.run(mode, pdu, data, variant, variant).stdout == data, (mode, pdu)
            assert s.run(mode, pdu, data, variant, "der").stdout == der, (mode, pdu)
            assert s.run(mode, pdu, der, "ber", variant).stdout == data, (mode, pdu)
    # UPER and APER alike here: 111 (1 + 7 elements), then 8 times 3 bits: refused; 000
    # (1 element), then 111: the count is not mistaken for the element's value
    for bits, out in (("111" + "101" * 8, None), ("000" "111", "1c")):
        bits += "0" * (-len(bits) % 8)
        data = int(bits, 2).to_bytes(len(bits) // 8, "big")
        results = [s.run(mode, "Five", data, variant, variant) for mode in MODES]
        assert len({(r.stdout, r.stderr) for r in results}) == 1, results
        if out:
            assert results[0].stdout.hex() == out, results[0].stderr
        else:
            assert results[0].stderr == b"-:0: PerTest.Five: value out of range\n"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_octets_and_bits_in_fragments_off_the_octet_boundary(variant):
    """An OCTET STRING and a BIT STRING of 16K items and more go in fragments (X.691
    11.9.3.8), after a BOOLEAN that takes them off the octet boundary in UPER.  The
    fragments are read and written as asn1tools and pycrate write them, in every build:
    one fragment and an empty rest, 64K and a rest, two of 16K and a rest, and a string
    whose last fragment ends in the input's last octet.  A truncation of the last octet is
    refused alike on every path."""
    s = spec("per")
    reference = s.reference[VARIANTS[variant]]
    import random
    aligned = variant == "aper"
    rng = random.Random(11)

    def bits(n: int) -> tuple:
        octets = bytearray(rng.randbytes((n + 7) // 8))
        if n % 8:
            octets[-1] &= 0xFF << (8 - n % 8) & 0xFF
        return bytes(octets), n

    for octets, nbits in ((16384, 16384), (70000, 5), (40000, 40003), (3, 70001)):
        value = {"flag": True, "octets": rng.randbytes(octets), "bits": bits(nbits)}
        data = reference.encode("Blobs", value)
        assert data == s.pycrate.encode("Blobs", to_pycrate(s.graph, "PerTest.Blobs", value),
                                        aligned), (octets, nbits)
        der = s.reference["der"].encode("Blobs", value)
        for mode in MODES:
            assert s.run(mode, "Blobs", data, variant, "der").stdout == der, (mode, octets)
            assert s.run(mode, "Blobs", data, variant, variant).stdout == data, (mode, octets)
            assert s.run(mode, "Blobs", der, "ber", variant).stdout == data, (mode, octets)
        results = [s.run(mode, "Blobs", data[:-1], variant, "der") for mode in MODES]
        assert len({(r.returncode, r.stdout, r.stderr) for r in results}) == 1, results
        assert results[0].returncode != 0 and b"PerTest.Blobs" in results[0].stderr
