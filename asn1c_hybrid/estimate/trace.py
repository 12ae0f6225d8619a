"""Trace files: the PDUs of recorded traffic, split by their BER framing.

Three forms are read (`read_trace`):

- ``ber``: PDUs one after the other, as a stream of complete TLVs (definite or
  indefinite lengths);
- ``hex``: the same bytes as hexadecimal text; whitespace, ``:`` and comments from
  ``#`` to the end of a line are ignored, so one PDU per line and hex dumps spread over
  several lines both work;
- ``pcap``: a libpcap capture (Ethernet, Linux cooked, raw IP or BSD loopback links;
  IPv4 or IPv6) of one UDP or TCP port: each UDP payload, and each TCP stream after
  reassembly, is a stream of PDUs.

``auto`` tells them apart by the pcap magic number, then by whether the file is hex text.

PER (X.691) says nothing of where one encoding ends: a PER trace needs a framing, and
these are read (`read_trace(..., encoding="uper")` or ``"aper"``):

- ``hex``: one PDU per line, as hexadecimal text (comments, ``:`` and whitespace as
  above; blank lines are skipped);
- ``framed``: binary, each PDU preceded by its length in octets, 4 octets big-endian
  (BER traces may use it too);
- ``pcap``: each UDP payload is one PDU (TCP carries no PER framing, so it is refused).

``auto`` reads a PER trace as pcap, then hex text, else framed.
"""
from __future__ import annotations

import os
import re
import struct
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from ..emit import ENCODINGS
from ..errors import TraceError

FORMATS = ("auto", "ber", "hex", "pcap", "framed")
_PCAP_MAGIC = {b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">",
               b"\x4d\x3c\xb2\xa1": "<", b"\xa1\xb2\x3c\x4d": ">"}
_PCAPNG_MAGIC = b"\x0a\x0d\x0d\x0a"
_HEX_TEXT = re.compile(rb"\A(?:[0-9A-Fa-f\s:]|#[^\n]*)*\Z")


def tlv_end(data: bytes, start: int, where: str = "trace") -> int:
    """The offset just after the complete TLV that starts at `start` (BER framing only:
    indefinite lengths are followed down to their end-of-contents octets)."""
    pos = start
    open_indefinite = 0           # constructed values of indefinite length still open
    n = len(data)

    def fail(why: str, at: int) -> TraceError:
        return TraceError(f"{where}: byte {at}: {why} (in the PDU starting at byte {start})")

    while True:
        if pos >= n:
            raise fail("the data ends inside a PDU", pos)
        if open_indefinite and data[pos] == 0 and pos + 1 < n and data[pos + 1] == 0:
            pos += 2              # end-of-contents
            open_indefinite -= 1
            if not open_indefinite:
                return pos
            continue
        constructed = data[pos] & 0x20
        if data[pos] & 0x1F == 0x1F:                        # high tag number
            pos += 1
            while pos < n and data[pos] & 0x80:
                pos += 1
        pos += 1
        if pos >= n:
            raise fail("the data ends inside a tag", pos)
        first = data[pos]
        pos += 1
        if first == 0x80:
            if not constructed:
                raise fail("indefinite length on a primitive value", pos - 1)
            open_indefinite += 1
            continue
        if first & 0x80:
            count = first & 0x7F
            if count == 0x7F or pos + count > n:
                raise fail("bad or truncated length", pos - 1)
            length = int.from_bytes(data[pos:pos + count], "big")
            pos += count
        else:
            length = first
        pos += length
        if pos > n:
            # (a length in many octets is named by its size, not by hundreds of digits)
            said = f"of {length}" if length < 1 << 64 else f"in {count} octets"
            raise fail(f"a length {said} runs past the end of the data", pos - length)
        if not open_indefinite:
            return pos


def split_pdus(data: bytes, where: str = "trace") -> list[bytes]:
    """Consecutive TLVs; zero padding between them (some capture tools add it) is skipped
    only at the very end."""
    pdus = []
    pos = 0
    while pos < len(data):
        if not any(data[pos:]):
            break
        end = tlv_end(data, pos, where)
        pdus.append(bytes(data[pos:end]))
        pos = end
    return pdus


def hex_bytes(text: bytes, where: str = "trace", first_line: int = 1) -> bytes:
    """The octets of hex text (blanks, colons and `#` comments aside); an error names the
    line, counted from `first_line`, and the column of the first bad character."""
    out = bytearray()
    for number, line in enumerate(text.split(b"\n"), first_line):
        line = line.split(b"#", 1)[0]
        digits = re.sub(rb"[\s:]", b"", line)
        bad = re.search(rb"[^0-9A-Fa-f]", digits)
        if bad:
            column = line.index(bad.group()) + 1
            raise TraceError(f"{where}:{number}:{column}: not a hex digit: {bad.group()!r}")
        out += digits
    if len(out) % 2:
        raise TraceError(f"{where}: an odd number of hex digits")
    return bytes.fromhex(out.decode())


def detect_format(data: bytes) -> str:
    if data[:4] in _PCAP_MAGIC or data[:4] == _PCAPNG_MAGIC:
        return "pcap"
    if data.strip() and _HEX_TEXT.match(data):
        return "hex"
    return "ber"


def hex_lines(text: bytes, where: str = "trace") -> list[bytes]:
    """One PDU per non-blank line of hex text."""
    pdus = []
    for number, line in enumerate(text.split(b"\n"), 1):
        octets = hex_bytes(line, where, number)
        if octets:
            pdus.append(octets)
    return pdus


def framed(data: bytes, where: str = "trace") -> list[bytes]:
    """PDUs each preceded by its length, 4 octets big-endian."""
    pdus = []
    pos = 0
    while pos < len(data):
        if pos + 4 > len(data):
            raise TraceError(f"{where}: byte {pos}: the data ends inside a length prefix")
        size = int.from_bytes(data[pos:pos + 4], "big")
        if pos + 4 + size > len(data):
            raise TraceError(f"{where}: byte {pos}: a PDU of {size} octets is announced, "
                             f"{len(data) - pos - 4} follow")
        pdus.append(bytes(data[pos + 4:pos + 4 + size]))
        pos += 4 + size
    return pdus


def frame(pdus: Iterable[bytes]) -> bytes:
    """The `framed` form of `pdus`."""
    return b"".join(len(p).to_bytes(4, "big") + p for p in pdus)


def read_trace(path: Union[str, os.PathLike], fmt: str = "auto",
               port: Optional[int] = None, encoding: str = "ber") -> list[bytes]:
    """The PDUs of one trace file, in order, in the `encoding` rules' framing."""
    where = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    if encoding not in ENCODINGS:
        raise TraceError(f"unknown encoding rules {encoding!r} (one of "
                         f"{', '.join(ENCODINGS)})")
    if fmt == "auto":
        fmt = detect_format(data)
        if encoding != "ber" and fmt == "ber":
            fmt = "framed"
    if fmt == "framed":
        return framed(data, where)
    if encoding != "ber":
        return _per_pdus(data, fmt, port, where)
    if fmt == "ber":
        return split_pdus(data, where)
    if fmt == "hex":
        return split_pdus(hex_bytes(data, where), where)
    if fmt == "pcap":
        return [pdu for stream, name, _ in pcap_streams(data, port, where)
                for pdu in split_pdus(stream, name)]
    raise TraceError(f"unknown trace format {fmt!r} (one of {', '.join(FORMATS)})")


def _per_pdus(data: bytes, fmt: str, port: Optional[int], where: str) -> list[bytes]:
    if fmt == "hex":
        return hex_lines(data, where)
    if fmt == "pcap":
        pdus = []
        for payload, name, transport in pcap_streams(data, port, where):
            if transport == "tcp":
                raise TraceError(f"{name}: PER over TCP has no framing to split it by; "
                                 f"write the PDUs as hex lines or framed")
            pdus.append(payload)
        return pdus
    if fmt == "ber":
        raise TraceError(f"{where}: a PER trace cannot be split by BER framing; write it "
                         f"as hex lines or framed (docs/selection.md)")
    raise TraceError(f"unknown trace format {fmt!r} (one of {', '.join(FORMATS)})")


# ---- pcap ------------------------------------------------------------------------------

@dataclass
class _Segment:
    seq: int
    payload: bytes


def _ip_payload(frame: bytes, linktype: int) -> Optional[tuple[int, bytes, bytes, bytes]]:
    """(protocol, source, destination, transport bytes) of an IP packet, or None."""
    if linktype == 1:                                   # Ethernet
        ethertype, offset = struct.unpack_from(">H", frame, 12)[0], 14
        while ethertype in (0x8100, 0x88A8) and len(frame) >= offset + 4:   # VLAN tags
            ethertype, offset = struct.unpack_from(">H", frame, offset + 2)[0], offset + 4
    elif linktype == 113:                               # Linux cooked
        ethertype, offset = struct.unpack_from(">H", frame, 14)[0], 16
    elif linktype == 276:                               # Linux cooked v2
        ethertype, offset = struct.unpack_from(">H", frame, 0)[0], 20
    elif linktype in (12, 101):                         # raw IP
        ethertype = 0x86DD if frame and frame[0] >> 4 == 6 else 0x0800
        offset = 0
    elif linktype == 0:                                 # BSD loopback
        family = struct.unpack_from("<I", frame, 0)[0]
        ethertype, offset = (0x0800 if family == 2 else 0x86DD), 4
    else:
        raise TraceError(f"pcap link type {linktype} is not supported "
                         f"(Ethernet, Linux cooked, raw IP and loopback are)")
    packet = frame[offset:]
    if ethertype == 0x0800 and len(packet) >= 20:
        header = (packet[0] & 0x0F) * 4
        total = struct.unpack_from(">H", packet, 2)[0]
        fragment = struct.unpack_from(">H", packet, 6)[0]
        if fragment & 0x3FFF:                           # IP fragments: not reassembled
            return None
        return packet[9], packet[12:16], packet[16:20], packet[header:total]
    if ethertype == 0x86DD and len(packet) >= 40:
        length = struct.unpack_from(">H", packet, 4)[0]
        return packet[6], packet[8:24], packet[24:40], packet[40:40 + length]
    return None


def pcap_streams(data: bytes, port: Optional[int],
                 where: str) -> Iterable[tuple[bytes, str, str]]:
    """The byte streams of one port: each UDP payload, and each TCP direction
    reassembled by sequence number, in the order their first packet was captured; each
    with its name and its transport ("udp" or "tcp")."""
    if data[:4] == _PCAPNG_MAGIC:
        raise TraceError(f"{where}: pcapng is not supported; convert it first "
                         f"(editcap -F pcap IN OUT)")
    if data[:4] not in _PCAP_MAGIC or len(data) < 24:
        raise TraceError(f"{where}: not a pcap file")
    if port is None:
        raise TraceError(f"{where}: a pcap trace needs --port, the UDP or TCP port of the PDUs")
    endian = _PCAP_MAGIC[data[:4]]
    linktype = struct.unpack_from(endian + "I", data, 20)[0] & 0x0FFFFFFF
    pos = 24
    streams: dict[tuple, list] = {}        # key -> [first index, UDP payloads or segments]
    order = 0
    while pos + 16 <= len(data):
        caplen, origlen = struct.unpack_from(endian + "II", data, pos + 8)
        frame = data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen
        if caplen < origlen:
            raise TraceError(f"{where}: packet {order + 1} was truncated by the capture "
                             f"(snap length {caplen} < {origlen}); capture with -s 0")
        order += 1
        parsed = _ip_payload(frame, linktype)
        if parsed is None:
            continue
        protocol, src, dst, transport = parsed
        if protocol == 17 and len(transport) >= 8:
            sport, dport = struct.unpack_from(">HH", transport, 0)
            if port in (sport, dport):
                streams[("udp", order)] = [order, transport[8:]]
        elif protocol == 6 and len(transport) >= 20:
            sport, dport, seq = struct.unpack_from(">HHI", transport, 0)
            offset = (transport[12] >> 4) * 4
            payload = transport[offset:]
            if port in (sport, dport):
                key = ("tcp", src, sport, dst, dport)
                entry = streams.setdefault(key, [order, []])
                syn = transport[13] & 0x02
                entry[1].append(_Segment(seq + (1 if syn else 0), payload))
    for key, (_, content) in sorted(streams.items(), key=lambda kv: kv[1][0]):
        if key[0] == "udp":
            yield content, f"{where}: packet {key[1]}", "udp"
        else:
            name = f"{where}: TCP stream from port {key[2]} to port {key[4]}"
            yield _reassemble(content, name), name, "tcp"


def _reassemble(segments: list[_Segment], where: str) -> bytes:
    """One direction of a TCP connection: segments by sequence number (modulo 2**32
    around the first one), retransmitted bytes kept once."""
    base = min((s.seq for s in segments), key=lambda q: (q - segments[0].seq) % 2 ** 32)
    stream = bytearray()
    for s in sorted(segments, key=lambda s: (s.seq - base) % 2 ** 32):
        start = (s.seq - base) % 2 ** 32
        if start > len(stream):
            raise TraceError(f"{where}: {start - len(stream)} bytes are missing from the "
                             f"capture at stream offset {len(stream)}")
        if start + len(s.payload) > len(stream):
            stream += s.payload[max(len(stream) - start, 0):]
    return bytes(stream)
