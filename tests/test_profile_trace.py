"""Trace files split into PDUs: BER streams (definite and indefinite lengths), hex text,
framed PDUs and pcap captures of UDP and TCP, and the framings of PER traces.  The PDUs
are asn1tools' DER encodings of the personnel record, so the framing is checked against
an independent encoder."""
from __future__ import annotations

import re
import struct

import asn1tools
import pytest

from asn1c_hybrid.estimate.trace import (TraceError, detect_format, frame, read_trace,
                                         split_pdus, tlv_end)

SMITH = {"name": {"givenName": "Jean", "initial": "E", "familyName": "Smith"},
         "title": "The Big Cheese", "number": 99999, "dateOfHire": "19820104",
         "nameOfSpouse": {"givenName": "John", "initial": "L", "familyName": "Smith"},
         "children": [{"name": {"givenName": "James", "initial": "R", "familyName": "Smith"},
                       "dateOfBirth": "19570210"},
                      {"name": {"givenName": "Lisa", "initial": "M", "familyName": "Smith"},
                       "dateOfBirth": "19590621"}]}


@pytest.fixture(scope="module")
def pdus(repo_root):
    text = (repo_root / "examples/personnel/personnel.asn").read_text()
    types_only = re.sub(r"smithperson.*?(?=\nEND)", "", text, flags=re.S)  # asn1tools
    spec = asn1tools.compile_string(types_only, "der")                     # reads no values
    bachelor = {k: v for k, v in SMITH.items() if k not in ("children", "nameOfSpouse")}
    bachelor["nameOfSpouse"] = SMITH["name"]
    return [spec.encode("PersonnelRecord", SMITH), spec.encode("PersonnelRecord", bachelor),
            spec.encode("Name", SMITH["name"])]


def indefinite(der: bytes) -> bytes:
    """The same value with every constructed length indefinite (as in the paper's run)."""
    out, pos = bytearray(), 0
    while pos < len(der):
        start = pos
        pos += 1
        if der[start] & 0x1F == 0x1F:
            while der[pos] & 0x80:
                pos += 1
            pos += 1
        tag = der[start:pos]
        first = der[pos]
        pos += 1
        length = first
        if first & 0x80:
            length = int.from_bytes(der[pos:pos + (first & 0x7F)], "big")
            pos += first & 0x7F
        contents = der[pos:pos + length]
        pos += length
        if tag[0] & 0x20:
            out += tag + b"\x80" + indefinite(contents) + b"\x00\x00"
        else:
            out += der[start:pos]
    return bytes(out)


def test_concatenated_der(pdus, tmp_path):
    path = tmp_path / "trace.ber"
    path.write_bytes(b"".join(pdus))
    assert read_trace(path) == pdus


def test_indefinite_lengths(pdus, tmp_path):
    converted = [indefinite(p) for p in pdus]
    assert converted[0] != pdus[0] and converted[0].count(b"\x80") >= 7
    path = tmp_path / "trace.ber"
    path.write_bytes(b"".join(converted))
    assert read_trace(path, "ber") == converted


def test_hex_lines_and_dumps(pdus, tmp_path):
    one_per_line = tmp_path / "lines.hex"
    one_per_line.write_text("# three PDUs\n" + "\n".join(
        " ".join(f"{b:02x}" for b in p) + "  # pdu" for p in pdus) + "\n")
    assert detect_format(one_per_line.read_bytes()) == "hex"
    assert read_trace(one_per_line) == pdus
    dump = tmp_path / "dump.hex"
    joined = b"".join(pdus).hex(":").upper()
    dump.write_text("\n".join(joined[i:i + 48] for i in range(0, len(joined), 48)))
    assert read_trace(dump, "hex") == pdus


def test_framing_errors_say_where(pdus, tmp_path):
    path = tmp_path / "cut.ber"
    path.write_bytes(pdus[1] + pdus[0][:-3])
    with pytest.raises(TraceError, match=rf"cut.ber: byte \d+: .*starting at byte {len(pdus[1])}"):
        read_trace(path, "ber")
    bad = tmp_path / "bad.hex"
    bad.write_text("30 03\n02 0x 05\n")
    with pytest.raises(TraceError, match=r"bad.hex:2:5: not a hex digit"):
        read_trace(bad, "hex")
    # a PER trace in hex is a PDU a line: the error names the line once (was bad.hex:2:2:5)
    for encoding in ("uper", "aper"):
        with pytest.raises(TraceError, match=r"bad.hex:2:5: not a hex digit"):
            read_trace(bad, "hex", encoding=encoding)
    with pytest.raises(TraceError, match="indefinite length on a primitive"):
        tlv_end(b"\x04\x80\x00\x00", 0)
    with pytest.raises(TraceError, match="byte 4: a length of 256 runs past the end"):
        tlv_end(b"\x30\x82\x01\x00\x00", 0)
    # not a number of 22 digits: the size of the length
    with pytest.raises(TraceError, match="byte 11: a length in 9 octets runs past the end"):
        tlv_end(b"\x30\x89\x01" + bytes(8), 0)


def test_trailing_zero_padding_is_ignored(pdus):
    assert split_pdus(pdus[2] + b"\x00" * 6) == [pdus[2]]


# ---- pcap ------------------------------------------------------------------------------

def _ipv4(protocol: int, payload: bytes) -> bytes:
    header = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0, 64, protocol, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    return header + payload


def _ethernet(ip: bytes) -> bytes:
    return b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + ip


def _udp(sport: int, dport: int, data: bytes) -> bytes:
    return _ethernet(_ipv4(17, struct.pack(">HHHH", sport, dport, 8 + len(data), 0) + data))


def _tcp(sport: int, dport: int, seq: int, data: bytes, syn: bool = False) -> bytes:
    flags = 0x02 if syn else 0x18
    header = struct.pack(">HHIIBBHHH", sport, dport, seq, 0, 5 << 4, flags, 65535, 0, 0)
    return _ethernet(_ipv4(6, header + data))


def _pcap(frames: list[bytes]) -> bytes:
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for i, frame in enumerate(frames):
        out += struct.pack("<IIII", i, 0, len(frame), len(frame)) + frame
    return out


def test_pcap_udp_port(pdus, tmp_path):
    path = tmp_path / "udp.pcap"
    path.write_bytes(_pcap([_udp(5000, 161, pdus[0]), _udp(5000, 53, b"\x01\x02"),
                            _udp(161, 5000, pdus[1] + pdus[2])]))
    assert detect_format(path.read_bytes()) == "pcap"
    assert read_trace(path, port=161) == pdus
    with pytest.raises(TraceError, match="needs --port"):
        read_trace(path)


def test_pcap_tcp_reassembly(pdus, tmp_path):
    stream = b"".join(pdus)
    isn = 2 ** 32 - 10                       # sequence numbers wrap inside the stream
    cut1, cut2 = 30, len(pdus[0]) + 7
    segments = [(isn + 1 + cut1, stream[cut1:cut2]), (isn + 1, stream[:cut1]),
                (isn + 1 + cut1, stream[cut1:cut2]),           # retransmitted
                (isn + 1 + cut2, stream[cut2:])]
    frames = [_tcp(40000, 389, isn, b"", syn=True)]
    frames += [_tcp(40000, 389, seq % 2 ** 32, data) for seq, data in segments]
    path = tmp_path / "tcp.pcap"
    path.write_bytes(_pcap(frames))
    assert read_trace(path, port=389) == pdus
    lost = tmp_path / "lost.pcap"
    lost.write_bytes(_pcap(frames[:2] + frames[4:]))
    with pytest.raises(TraceError, match="bytes are missing"):
        read_trace(lost, port=389)


# ---- PER framing -----------------------------------------------------------------------

def test_per_traces_need_a_framing(pdus, tmp_path):
    # Any byte strings do: these tests are about the framing, not the PDUs in it.
    lines = tmp_path / "per.hex"
    lines.write_text(f"# one PDU per line\n{pdus[0].hex()}\n\n{pdus[1].hex(':')}  # ok\n")
    assert detect_format(lines.read_bytes()) == "hex"
    assert read_trace(lines, encoding="uper") == pdus[:2]
    boxed = tmp_path / "per.framed"
    boxed.write_bytes(frame(pdus))
    assert boxed.read_bytes()[:4] == len(pdus[0]).to_bytes(4, "big")
    assert read_trace(boxed, encoding="aper") == pdus          # auto: framed
    assert read_trace(boxed, "framed") == pdus                 # BER may use it too
    cut = tmp_path / "cut.framed"
    cut.write_bytes(frame(pdus)[:-1])
    with pytest.raises(TraceError, match=r"byte \d+: a PDU of \d+ octets is announced"):
        read_trace(cut, encoding="uper")
    with pytest.raises(TraceError, match="cannot be split by BER framing"):
        read_trace(boxed, "ber", encoding="uper")
    with pytest.raises(TraceError, match="unknown encoding rules 'xer'"):
        read_trace(boxed, encoding="xer")


def test_per_in_pcap_is_one_pdu_per_datagram(pdus, tmp_path):
    udp = tmp_path / "udp.pcap"
    udp.write_bytes(_pcap([_udp(5000, 2152, pdus[0]), _udp(2152, 5000, pdus[1] + pdus[2])]))
    assert read_trace(udp, port=2152, encoding="uper") == [pdus[0], pdus[1] + pdus[2]]
    tcp = tmp_path / "tcp.pcap"
    tcp.write_bytes(_pcap([_tcp(40000, 36412, 1, pdus[0])]))
    with pytest.raises(TraceError, match="PER over TCP has no framing"):
        read_trace(tcp, port=36412, encoding="aper")
