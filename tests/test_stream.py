"""Streams, element-wise walks and owned values (docs/runtime.md, "Streams, walks and owned
values"), through examples/stream/stream_jer.c and tests/c/copy_check.c, built under
AddressSanitizer and UndefinedBehaviorSanitizer in every mode.

The reference is whole-buffer decoding: the generated converter of the same build, given
the whole file.  The CRL of the walk tests is written by bench/corpora.py without the code
under test, and its serial numbers are known there.
"""
from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cbuild
import specbuilds
from specbuilds import SPECS, corpora

REPO = cbuild.REPO
EXAMPLE = REPO / "examples" / "stream" / "stream_jer.c"
COPY_CHECK = REPO / "tests" / "c" / "copy_check.c"
SPEC_FILES = [*sorted((SPECS / "IETF_PKI_RFC5280").glob("*.asn")),
              *sorted((SPECS / "IETF_LDAP_RFC4511").glob("*.asn")),
              *sorted((SPECS / "IETF_SNMP").glob("*.asn")),
              corpora.PERSONNEL_SPEC, corpora.BLACKWELL_SPEC,
              *sorted((REPO / "examples" / "x400" / "spec").glob("*.asn"))]
MODES = list(specbuilds.MODES)
CERTIFICATE = "PKIX1Explicit88.Certificate"
CRL = "PKIX1Explicit88.CertificateList"
REVOKED = "PKIX1Explicit88.TBSCertList.revokedCertificates"
PERSONNEL = "PersonnelRecordModule.PersonnelRecord"
BLACKWELL = "BlackwellModule.BlackwellMessage"
X400 = "MTAAbstractService.MTS-APDU"


class Programs:
    def __init__(self, directory: Path):
        self.directory = directory
        self.stream = directory / "stream_jer"
        self.converter = directory / "converter_program"
        self.copy_check = directory / "copy_check"

    def run(self, program: Path, *args: str, input: bytes | None = None):
        return subprocess.run([str(program), *map(str, args)], input=input,
                              capture_output=True, timeout=600)


@pytest.fixture(scope="module")
def programs() -> dict[str, Programs]:
    """The example, the converter and the copy check, per mode, from one generation."""
    cbuild.runtime_library("gcc", specbuilds.FLAGS)
    out: dict[str, Programs] = {}
    for mode in MODES:
        directory = Path(tempfile.mkdtemp(prefix=f"stream-{mode}-", dir=cbuild.session_dir()))
        cbuild.generate(SPEC_FILES, directory, "--name", "streamspec", "--converter",
                        *specbuilds.MODES[mode])
        out[mode] = Programs(directory)

    def build(args):
        mode, main, name = args
        cbuild.build_program(out[mode].directory, "streamspec", main, flags=specbuilds.FLAGS,
                             program=name)

    jobs = [(mode, main, name) for mode in MODES
            for main, name in ((EXAMPLE, "stream_jer"), (None, "converter_program"),
                               (COPY_CHECK, "copy_check"))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(build, jobs))
    return out


# ---- The corpora: every example one, in the forms a stream can take ------------------------

def _mozilla() -> bytes:
    return b"".join(c.data for c in corpora.mozilla_certificates())


def _mozilla_indefinite() -> bytes:
    """The same certificates with every constructed length indefinite: the framer must
    find their ends from the end-of-contents octets."""
    return b"".join(corpora.to_indefinite(c.data) for c in corpora.mozilla_certificates()[:40])


def _pkits_crls() -> bytes:
    return b"".join(p.read_bytes() for p in corpora.pkits()[1])


def _pkits_certificates() -> bytes:
    return b"".join(p.read_bytes() for p in corpora.pkits()[0])


def _blackwell() -> bytes:
    return corpora.blackwell_message() * 5


def _personnel() -> bytes:
    return (corpora.personnel_der() + corpora.personnel_indefinite()) * 3


def _x400() -> bytes:
    return b"".join(b"".join(pdus) for _, pdus in corpora.x400_traces())


CORPORA = {
    "mozilla": (_mozilla, CERTIFICATE),
    "mozilla-indefinite": (_mozilla_indefinite, CERTIFICATE),
    "pkits-crls": (_pkits_crls, CRL),
    "pkits-certificates": (_pkits_certificates, CERTIFICATE),
    "personnel": (_personnel, PERSONNEL),
    "blackwell": (_blackwell, BLACKWELL),
    "x400": (_x400, X400),
}

_data: dict[str, Path] = {}
_whole: dict[tuple[str, str], bytes] = {}


def corpus_file(name: str) -> Path:
    if name not in _data:
        path = cbuild.session_dir() / f"corpus-{name}.ber"
        path.write_bytes(CORPORA[name][0]())
        _data[name] = path
    return _data[name]


def whole_buffer_jer(programs, mode: str, name: str) -> bytes:
    """The reference: the converter decoding the file from one buffer."""
    key = (mode, name)
    if key not in _whole:
        result = programs[mode].run(programs[mode].converter, "-p", CORPORA[name][1], "-o",
                                    "jer", corpus_file(name))
        assert result.returncode == 0, result.stderr.decode()
        _whole[key] = result.stdout
    return _whole[key]


def pdu_ends(name: str) -> list[int]:
    ends, pos = [], 0
    data = corpus_file(name).read_bytes()
    while pos < len(data):
        pos = corpora.tlv_end(data, pos)
        ends.append(pos)
    return ends


# ---- Fragments ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(CORPORA))
@pytest.mark.parametrize("mode", MODES)
def test_one_octet_at_a_time(programs, mode, name):
    expected = whole_buffer_jer(programs, mode, name)
    assert expected.count(b"\n") == len(pdu_ends(name)) > 1
    result = programs[mode].run(programs[mode].stream, "-p", CORPORA[name][1], "--chunks", "1",
                                corpus_file(name))
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(CORPORA)),
       chunks=st.lists(st.integers(1, 5000), min_size=1, max_size=12))
def test_random_fragments(programs, mode, name, chunks):
    result = programs[mode].run(programs[mode].stream, "-p", CORPORA[name][1], "--chunks",
                                ",".join(map(str, chunks)), corpus_file(name))
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == whole_buffer_jer(programs, mode, name)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(CORPORA)), where=st.floats(0, 1, exclude_max=True),
       chunk=st.integers(1, 300))
def test_truncated_stream(programs, mode, name, where, chunk):
    """Cut inside a PDU: the PDUs before it come out once each, then a clear error at the
    cut; nothing after."""
    data = corpus_file(name).read_bytes()
    ends = [0, *pdu_ends(name)]
    k = int(where * (len(ends) - 1))                    # the PDU that is cut
    cut = ends[k] + 1 + int(where * 997) % (ends[k + 1] - ends[k] - 1)
    path = cbuild.session_dir() / f"cut-{name}-{k}-{cut}.ber"
    path.write_bytes(data[:cut])
    result = programs[mode].run(programs[mode].stream, "-p", CORPORA[name][1], "--chunks",
                                str(chunk), path)
    assert result.returncode == 1
    lines = whole_buffer_jer(programs, mode, name).split(b"\n")
    assert result.stdout == b"".join(line + b"\n" for line in lines[:k])
    assert re.fullmatch(rf"{re.escape(str(path))}:{cut}: input ends inside a value\n",
                        result.stderr.decode()), result.stderr.decode()


# ---- Malformed streams (the sanitizers watch) ----------------------------------------------

def _stream(programs, mode, data: bytes, *options: str):
    path = cbuild.session_dir() / f"malformed-{len(data)}-{hash(data) & 0xffff}.ber"
    path.write_bytes(data)
    return programs[mode].run(programs[mode].stream, "-p", CERTIFICATE, *options, path)


@pytest.mark.parametrize("mode", MODES)
def test_malformed_streams(programs, mode):
    certificate = corpora.mozilla_certificates()[0].data
    size = len(certificate)
    # a length beyond the maximum PDU size: refused at its header, before it is read
    result = _stream(programs, mode, certificate * 2, "--max-pdu", str(size - 1))
    assert result.returncode == 1 and result.stdout == b""
    assert re.search(r":0: PDU larger than the maximum\n$", result.stderr.decode())
    # indefinite lengths that never end: refused once past the maximum, not buffered on
    never = b"\x30\x80" * 200000
    result = _stream(programs, mode, certificate + never, "--max-pdu", "100000")
    assert result.returncode == 1 and result.stdout.count(b"\n") == 1
    assert re.search(rf":{size}: PDU larger than the maximum\n$", result.stderr.decode())
    # garbage between PDUs: end-of-contents octets where a PDU starts, then other octets
    result = _stream(programs, mode, certificate + b"\x00\x00" + certificate)
    assert result.returncode == 1 and result.stdout.count(b"\n") == 1
    assert re.search(rf":{size}: unexpected tag\n$", result.stderr.decode())
    result = _stream(programs, mode, certificate + b"\x04\x02AB" + certificate)
    assert result.returncode == 1 and result.stdout.count(b"\n") == 1
    assert re.search(rf":{size}: PKIX1Explicit88.Certificate: unexpected tag\n$",
                     result.stderr.decode())


# ---- Element-wise walks over a generated CRL ----------------------------------------------

ENTRIES = 20000


@pytest.fixture(scope="module")
def big_crl() -> Path:
    path = cbuild.session_dir() / "crl-20000.der"
    path.write_bytes(corpora.make_crl(ENTRIES))
    return path


def stats(stderr: bytes) -> dict[str, int]:
    words = stderr.decode().split()
    return {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}


@pytest.mark.parametrize("mode", MODES)
def test_walk_over_a_generated_crl(programs, big_crl, mode):
    serials = corpora.crl_serials(ENTRIES)
    whole = programs[mode].run(programs[mode].converter, "-p", CRL, "-o", "jer", big_crl)
    assert whole.returncode == 0, whole.stderr.decode()
    entries = json.loads(whole.stdout)["tbsCertList"]["revokedCertificates"]
    assert [e["userCertificate"] for e in entries] == serials
    for options in ((), ("--chunks", "1,2,3,1000,77")):
        result = programs[mode].run(programs[mode].stream, "-p", CRL, "--walk", REVOKED,
                                    "--stats", *options, big_crl)
        assert result.returncode == 0, result.stderr.decode()
        lines = result.stdout.decode().splitlines()
        assert len(lines) == ENTRIES
        walked = [json.loads(line) for line in lines]
        assert sum(e["userCertificate"] for e in walked) == sum(serials)
        assert walked == entries
        figures = stats(result.stderr)
        assert figures["pdus"] == 1 and figures["elements"] == ENTRIES
        # one element at a time: the arena never holds more than one entry's value, and
        # the input held stays at the prefix and a read, not the 560 KB CRL
        assert 0 < figures["arena_peak"] <= 1024
        assert figures["input_peak"] <= 2 * 65536 + 16


@pytest.mark.parametrize("mode", MODES)
def test_walk_from_a_pipe(programs, big_crl, mode):
    """The CRL through standard input, as it arrives: the same elements."""
    data = big_crl.read_bytes()
    result = programs[mode].run(programs[mode].stream, "-p", CRL, "--walk", REVOKED, "-",
                                input=data)
    assert result.returncode == 0, result.stderr.decode()
    lines = result.stdout.decode().splitlines()
    assert len(lines) == ENTRIES
    assert [json.loads(line)["userCertificate"] for line in lines] == \
        corpora.crl_serials(ENTRIES)
    # a CRL cut short ends in an error after the entries that were whole
    result = programs[mode].run(programs[mode].stream, "-p", CRL, "--walk", REVOKED, "-",
                                input=data[:len(data) // 2])
    assert result.returncode == 1
    assert 0 < result.stdout.count(b"\n") < ENTRIES
    assert re.search(r"^-:\d+: .*input ends inside a value\n$", result.stderr.decode())


def test_walk_of_the_pkits_crls(programs):
    """Each CRL of PKITS walked: the same entries as their whole decodes."""
    whole = whole_buffer_jer(programs, "hybrid", "pkits-crls").decode().splitlines()
    expected = [e for line in whole
                for e in json.loads(line)["tbsCertList"].get("revokedCertificates", [])]
    result = programs["hybrid"].run(programs["hybrid"].stream, "-p", CRL, "--walk", REVOKED,
                                    corpus_file("pkits-crls"))
    assert result.returncode == 0, result.stderr.decode()
    assert [json.loads(line) for line in result.stdout.decode().splitlines()] == expected
    assert len(expected) > 20


# ---- Owned values ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["mozilla", "pkits-crls", "personnel", "blackwell", "x400"])
@pytest.mark.parametrize("mode", MODES)
def test_values_outlive_their_input(programs, mode, name):
    """asn1h_decode_owned and asn1h_copy: the values stay valid and equal once their input is
    overwritten and freed (a use after free would stop the program under ASan)."""
    result = programs[mode].run(programs[mode].copy_check, "-p", CORPORA[name][1],
                                corpus_file(name))
    assert result.returncode == 0, result.stderr.decode()
    lines = result.stdout.split(b"\n")[:-1]
    in_place = lines[0::3]
    assert lines[1::3] == in_place and lines[2::3] == in_place
    assert b"".join(line + b"\n" for line in in_place) == whole_buffer_jer(programs, mode, name)


# ---- The converter reads standard input as a stream ---------------------------------------

def test_converter_converts_each_pdu_as_it_arrives(programs):
    """The first certificate's JER comes out while the second is still being written."""
    certificates = corpora.mozilla_certificates()[:2]
    process = subprocess.Popen([str(programs["hybrid"].converter), "-p", CERTIFICATE, "-o",
                                "jer", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        second = certificates[1].data
        process.stdin.write(certificates[0].data + second[:10])
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "no output before the input ended"
        first_line = process.stdout.readline()
        assert json.loads(first_line)["tbsCertificate"]["serialNumber"] is not None
        process.stdin.write(second[10:])
        process.stdin.close()
        rest = process.stdout.read()
        assert process.wait(60) == 0, process.stderr.read().decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert first_line + rest == whole_buffer_jer_of(programs, certificates)


def whole_buffer_jer_of(programs, certificates) -> bytes:
    path = cbuild.session_dir() / "two-certificates.der"
    path.write_bytes(b"".join(c.data for c in certificates))
    return programs["hybrid"].run(programs["hybrid"].converter, "-p", CERTIFICATE, "-o", "jer",
                                  path).stdout


# ---- Kept encodings (--keep-encoding) ------------------------------------------------------

SPAN_CHECK = REPO / "tests" / "c" / "span_check.c"
RFC5280 = sorted((SPECS / "IETF_PKI_RFC5280").glob("*.asn"))


@pytest.fixture(scope="module")
def span_programs() -> dict[str, Path]:
    out = {}
    for mode in MODES:
        directory = Path(tempfile.mkdtemp(prefix=f"keep-{mode}-", dir=cbuild.session_dir()))
        cbuild.generate(RFC5280, directory, "--name", "spec", *specbuilds.MODES[mode],
                        "--keep-encoding", "PKIX1Explicit88.TBSCertificate",
                        "--keep-encoding", "PKIX1Explicit88.TBSCertList")
        out[mode] = cbuild.build_program(directory, "spec", SPAN_CHECK, flags=specbuilds.FLAGS,
                                         program="span_check").program
    return out


def long_form(tlv: bytes) -> bytes:
    """The TLV with its length in the 4-octet long form (BER, not DER)."""
    _, _, length, start = corpora._read_header(tlv, 0)
    return tlv[:1] + b"\x84" + length.to_bytes(4, "big") + tlv[start:]


def first_element(pdu: bytes) -> tuple[int, int]:
    """Where the first component of the PDU's SEQUENCE lies: (offset, length)."""
    _, _, _, start = corpora._read_header(pdu, 0)
    return start, corpora.tlv_end(pdu, start) - start


def respelled(pdu: bytes) -> bytes:
    """The PDU and its first component with 4-octet long-form lengths."""
    offset, length = first_element(pdu)
    contents = long_form(pdu[offset:offset + length]) + pdu[offset + length:]
    return pdu[:1] + b"\x84" + len(contents).to_bytes(4, "big") + contents


@pytest.mark.parametrize("mode", MODES)
def test_kept_encodings_are_the_signed_parts(span_programs, mode):
    """encoding_ spans exactly the TLV of tbsCertificate (tbsCertList), as an independent
    walk over the octets finds it: in DER, with indefinite lengths, and with long-form
    lengths that DER would not write."""
    certificates = [c.data for c in corpora.mozilla_certificates()]
    crls = [p.read_bytes() for p in corpora.pkits()[1]]
    forms = {"der": lambda pdu: pdu, "indefinite": corpora.to_indefinite,
             "long-form": respelled}
    for kind, pdus in (("certificate", certificates), ("crl", crls)):
        for form, spell in forms.items():
            spelled = [spell(pdu) for pdu in pdus]
            path = cbuild.session_dir() / f"span-{kind}-{form}.ber"
            path.write_bytes(b"".join(spelled))
            result = subprocess.run([str(span_programs[mode]), kind, str(path)],
                                    capture_output=True, timeout=300)
            assert result.returncode == 0, result.stderr.decode()
            spans = [tuple(map(int, line.split())) for line in result.stdout.decode().splitlines()]
            assert spans == [first_element(pdu) for pdu in spelled], (kind, form)
            if kind == "crl":               # walking the entries meanwhile: the same spans
                walked = subprocess.run([str(span_programs[mode]), "crl-walk", str(path)],
                                        capture_output=True, timeout=300)
                assert walked.returncode == 0, walked.stderr.decode()
                lines = [tuple(map(int, line.split()))
                         for line in walked.stdout.decode().splitlines()]
                assert [line[:2] for line in lines] == spans
                assert sum(line[2] for line in lines) > 20


def test_keep_encoding_is_refused_where_it_cannot_work(tmp_path):
    spec = tmp_path / "Keep.asn"
    spec.write_text("Keep DEFINITIONS IMPLICIT TAGS ::= BEGIN\n"
                    "S ::= SEQUENCE { a INTEGER }\n"
                    "C ::= CHOICE { s S, b BOOLEAN }\n"
                    "Far ::= SEQUENCE { s [40] S }\n"
                    "END\n")
    for type_id, message in (("Keep.C", "only SEQUENCE and SET types keep theirs"),
                             ("Keep.Nothing", "no type Keep.Nothing in the specification"),
                             ("Keep.S", "Keep.Far.s tags it [40], an identifier of several")):
        result = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", str(spec),
                                 "-o", str(tmp_path / "out"), "--keep-encoding", type_id],
                                capture_output=True, text=True, cwd=REPO)
        assert result.returncode != 0
        assert message in result.stderr, result.stderr


# ---- PER through the length-prefixed framing ------------------------------------------------

def test_framed_per_from_standard_input():
    """The converter reads framed UPER from a pipe through the stream (ASN1H_FRAME_LEN32):
    the same values as from the file; a frame cut short is an error at its offset."""
    seeds = [bytes.fromhex(h) for h in (
        "00000000000000000006b49d200d693a40000000000030d4000000000000004000028003a9804fffc0",
        "0107000002dc007f03b6b49db16d691a403ffe0fe10230cc5880",
        "c8810000000104876cc508e9380d691a4021e02cc5dcf7dc50814b007f")]
    framed = b"".join(len(s).to_bytes(4, "big") + s for s in seeds) * 20
    build = cbuild.converter(sorted((SPECS / "ETSI_ITS_CAM").glob("*.asn")), "--mode",
                             "interpreted", "--encoding", "uper", flags=specbuilds.FLAGS)
    path = cbuild.session_dir() / "cam.framed"
    path.write_bytes(framed)
    args = ("-p", "CAM-PDU-Descriptions.CAM", "-i", "uper", "-o", "jer", "--framed")
    whole = build.run(*args, str(path))
    piped = build.run(*args, "-", input=framed)
    assert piped.stdout == whole.stdout and whole.stdout.count(b"\n") == 60
    cut = build.run(*args, "-", input=framed[:-3], check=False)
    assert cut.returncode == 1
    assert cut.stdout.count(b"\n") == 59
    last = len(framed) - len(seeds[2]) - 4
    assert cut.stderr.decode() == f"-:{last}: the data ends inside this frame\n"
