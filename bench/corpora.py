"""The messages of the benchmark suite, for the benchmarks and for tests.

Committed under bench/messages/ (small, and reproduced by the generators here, which a test
checks):
  personnel.der          the `smithperson` value of examples/personnel, DER
  personnel-indef.ber    the same value with every constructed length indefinite, as in
                         Hoschka & Huitema's experiment
  blackwell.ber          Blackwell's 381-byte message (bench/blackwell/blackwell.asn)

Made at run time, never committed:
  Mozilla CA certificates  Debian's ca-certificates package, converted to DER by openssl
  PKITS certificates/CRLs  PyPI's cryptography-vectors wheel, unpacked into a cache directory
  X.400 traces             examples/x400/traces/*.ber, concatenated PDUs, once they exist
"""
from __future__ import annotations

import functools
import os
import random
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
MESSAGES = BENCH / "messages"

PERSONNEL_SPEC = REPO / "examples" / "personnel" / "personnel.asn"
BLACKWELL_SPEC = BENCH / "blackwell" / "blackwell.asn"
X400_TRACES = REPO / "examples" / "x400" / "traces"
MOZILLA_CERTIFICATES = Path("/usr/share/ca-certificates/mozilla")

# The PKITS corpus is pinned so that a result can be reproduced.
CRYPTOGRAPHY_VECTORS_VERSION = "44.0.0"


def shared_dir() -> Path:
    """Reference specs and papers: $ASN1H_SHARED, or `shared` beside the checkout."""
    return Path(os.environ.get("ASN1H_SHARED", REPO.parent / "shared"))


def rfc5280_specs() -> List[Path]:
    folder = shared_dir() / "specs" / "IETF_PKI_RFC5280"
    return [folder / "PKIX1Explicit88.asn", folder / "PKIX1Implicit88.asn"]


def build_dir() -> Path:
    """Everything the benchmarks build or convert goes here (gitignored)."""
    return Path(os.environ.get("ASN1H_BENCH_BUILD", REPO / "build" / "bench"))


def cache_dir() -> Path:
    """Downloads kept between runs, outside the repository."""
    if "ASN1H_CACHE" in os.environ:
        return Path(os.environ["ASN1H_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "asn1c-hybrid"


# ---- BER walking ---------------------------------------------------------------------------

def _read_header(data: bytes, pos: int) -> Tuple[int, bool, Optional[int], int]:
    """(tag octets end, constructed, length or None for indefinite, contents start)."""
    first = data[pos]
    constructed = bool(first & 0x20)
    p = pos + 1
    if first & 0x1F == 0x1F:
        while data[p] & 0x80:
            p += 1
        p += 1
    tag_end = p
    n = data[p]
    p += 1
    if n == 0x80:
        return tag_end, constructed, None, p
    if n & 0x80:
        count = n & 0x7F
        length = int.from_bytes(data[p:p + count], "big")
        p += count
    else:
        length = n
    return tag_end, constructed, length, p


def tlv_end(data: bytes, pos: int = 0) -> int:
    """The offset just after the BER value starting at `pos` (definite or indefinite)."""
    _, constructed, length, p = _read_header(data, pos)
    if length is not None:
        end = p + length
        if end > len(data):
            raise ValueError(f"value at offset {pos} overruns the data")
        return end
    if not constructed:
        raise ValueError(f"primitive value with indefinite length at offset {pos}")
    while data[p:p + 2] != b"\x00\x00":
        p = tlv_end(data, p)
    return p + 2


def split_pdus(data: bytes) -> List[bytes]:
    """Concatenated BER PDUs, one by one."""
    pdus, pos = [], 0
    while pos < len(data):
        end = tlv_end(data, pos)
        pdus.append(data[pos:end])
        pos = end
    return pdus


def to_indefinite(der: bytes) -> bytes:
    """The same value with every constructed length made indefinite (primitive values keep
    theirs): the BER form of the Hoschka-Huitema experiment."""
    out = bytearray()
    pos = 0
    while pos < len(der):
        tag_end, constructed, length, p = _read_header(der, pos)
        if length is None:
            raise ValueError("already indefinite")
        if constructed:
            out += der[pos:tag_end] + b"\x80" + to_indefinite(der[p:p + length]) + b"\x00\x00"
        else:
            out += der[pos:p + length]
        pos = p + length
    return bytes(out)


# ---- The personnel record ------------------------------------------------------------------

# The `smithperson` value of examples/personnel/personnel.asn (X.690 Annex A), as asn1tools
# takes it.
SMITHPERSON = {
    "name": {"givenName": "Jean", "initial": "E", "familyName": "Smith"},
    "title": "The Big Cheese",
    "number": 99999,
    "dateOfHire": "19820104",
    "nameOfSpouse": {"givenName": "John", "initial": "L", "familyName": "Smith"},
    "children": [
        {"name": {"givenName": "James", "initial": "R", "familyName": "Smith"},
         "dateOfBirth": "19570210"},
        {"name": {"givenName": "Lisa", "initial": "M", "familyName": "Smith"},
         "dateOfBirth": "19590621"},
    ],
}


def strip_value_assignments(text: str) -> str:
    """The module without its value assignments (`name Type ::= {...}`), which asn1tools and
    some peers do not read."""
    out, pos = [], 0
    for match in re.finditer(r"^[a-z][\w-]*\s+[A-Z][\w-]*\s*::=\s*\{", text, re.M):
        if match.start() < pos:
            continue
        depth, p = 0, match.end() - 1
        while True:
            if text[p] == "{":
                depth += 1
            elif text[p] == "}":
                depth -= 1
                if depth == 0:
                    break
            p += 1
        out.append(text[pos:match.start()])
        pos = p + 1
    out.append(text[pos:])
    return "".join(out)


@functools.lru_cache(maxsize=None)
def _asn1tools_spec(path: Path, codec: str):
    import asn1tools
    return asn1tools.compile_string(strip_value_assignments(path.read_text()), codec)


def personnel_spec(codec: str = "der"):
    return _asn1tools_spec(PERSONNEL_SPEC, codec)


def _tag_key(tlv: bytes) -> Tuple[int, int]:
    """(class, number) of a TLV's tag: the order X.690 10.3 gives a DER SET's components."""
    tag_class, number = tlv[0] >> 6, tlv[0] & 0x1F
    if number == 0x1F:
        number, p = 0, 1
        while True:
            number = (number << 7) | (tlv[p] & 0x7F)
            if not tlv[p] & 0x80:
                break
            p += 1
    return tag_class, number


def sort_set_components(der: bytes) -> bytes:
    """A SET's DER with its components in tag order, the outer header kept."""
    _, _, length, p = _read_header(der, 0)
    components = split_pdus(der[p:p + length])
    return der[:p] + b"".join(sorted(components, key=_tag_key))


def make_personnel_der() -> bytes:
    # asn1tools writes SET components in definition order; DER wants them in tag order.
    # PersonnelRecord is the only SET here whose components are out of tag order
    # (ChildInformation's already are).
    return sort_set_components(personnel_spec("der").encode("PersonnelRecord", SMITHPERSON))


def personnel_der() -> bytes:
    return (MESSAGES / "personnel.der").read_bytes()


def personnel_indefinite() -> bytes:
    return (MESSAGES / "personnel-indef.ber").read_bytes()


# ---- Blackwell's message -------------------------------------------------------------------

BLACKWELL_PAIRS = 50
BLACKWELL_SIZE = 381
BLACKWELL_SEED = 1995
# Widths in octets of the integers' magnitudes: an even mix of 1, 2 and 3 (17, 17, 16).
BLACKWELL_WIDTHS = (1,) * 17 + (2,) * 17 + (3,) * 16
# The paper's 381 bytes are what an even mix of 1-, 2- and 3-octet unsigned values gives
# once DER puts a 0x00 before every magnitude whose top bit is set: 353 bytes without those
# octets, and 28 of the 50 values need one (a fair draw needs 25 on average).
BLACKWELL_PADDED = BLACKWELL_SIZE - (4 + BLACKWELL_PAIRS * (3 + 2) + sum(BLACKWELL_WIDTHS))


def blackwell_value(seed: int = BLACKWELL_SEED) -> dict:
    """The value of BlackwellModule.BlackwellMessage: integerN and booleanN, N = 1..50."""
    rng = random.Random(seed)
    widths = list(BLACKWELL_WIDTHS)
    rng.shuffle(widths)
    high_bit = set(rng.sample(range(BLACKWELL_PAIRS), BLACKWELL_PADDED))
    value = {}
    for i, width in enumerate(widths):
        top = rng.randrange(0x80, 0x100) if i in high_bit else rng.randrange(0x01, 0x80)
        rest = rng.randrange(0, 1 << (8 * (width - 1)))
        value[f"integer{i + 1}"] = (top << (8 * (width - 1))) | rest
        value[f"boolean{i + 1}"] = rng.random() < 0.5
    return value


def blackwell_spec(codec: str = "der"):
    return _asn1tools_spec(BLACKWELL_SPEC, codec)


def make_blackwell_message(seed: int = BLACKWELL_SEED) -> bytes:
    return blackwell_spec("der").encode("BlackwellMessage", blackwell_value(seed))


def blackwell_message() -> bytes:
    return (MESSAGES / "blackwell.ber").read_bytes()


def write_committed_messages() -> None:
    """Regenerates bench/messages/ (they are committed: run after changing a generator)."""
    MESSAGES.mkdir(exist_ok=True)
    der = make_personnel_der()
    (MESSAGES / "personnel.der").write_bytes(der)
    (MESSAGES / "personnel-indef.ber").write_bytes(to_indefinite(der))
    (MESSAGES / "blackwell.ber").write_bytes(make_blackwell_message())


# ---- Certificates --------------------------------------------------------------------------

@dataclass(frozen=True)
class NamedMessage:
    name: str
    data: bytes


def mozilla_certificates(out_dir: Optional[Path] = None) -> List[NamedMessage]:
    """The Mozilla CA bundle of Debian's ca-certificates, converted to DER with openssl
    (cached in the build directory, redone when the bundle changes)."""
    sources = sorted(MOZILLA_CERTIFICATES.glob("*.crt"))
    if not sources:
        raise FileNotFoundError(f"no certificates in {MOZILLA_CERTIFICATES} "
                                "(install Debian's ca-certificates)")
    out_dir = out_dir or build_dir() / "messages" / "mozilla"
    out_dir.mkdir(parents=True, exist_ok=True)
    result = []
    for source in sources:
        target = out_dir / (source.stem + ".der")
        if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
            subprocess.run(["openssl", "x509", "-in", str(source), "-outform", "der",
                            "-out", str(target)], check=True, capture_output=True)
        result.append(NamedMessage(source.stem, target.read_bytes()))
    return result


def certificate_nearest(size: int, certificates: Sequence[NamedMessage]) -> NamedMessage:
    """The certificate whose encoding is closest in size (ties: by name)."""
    return min(certificates, key=lambda c: (abs(len(c.data) - size), c.name))


def cryptography_vectors_root(version: str = CRYPTOGRAPHY_VECTORS_VERSION) -> Path:
    """The `cryptography_vectors` package directory: the installed one if importable at the
    pinned version, else the wheel from PyPI unpacked into the cache directory."""
    try:
        import cryptography_vectors  # type: ignore
        if getattr(cryptography_vectors, "__version__", None) == version:
            return Path(cryptography_vectors.__file__).resolve().parent
    except ImportError:
        pass
    target = cache_dir() / f"cryptography_vectors-{version}"
    package = target / "cryptography_vectors"
    if (target / ".complete").exists():
        return package
    wheels = target / "wheel"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "--dest", str(wheels),
                    f"cryptography-vectors=={version}"], check=True)
    wheel = next(wheels.glob("cryptography_vectors-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if m.startswith("cryptography_vectors/")]
        archive.extractall(target, members)
    wheel.unlink()
    (target / ".complete").write_text(version + "\n")
    return package


def pkits(version: str = CRYPTOGRAPHY_VECTORS_VERSION) -> Tuple[List[Path], List[Path]]:
    """The PKITS certificates and CRLs (DER files) of cryptography-vectors."""
    root = cryptography_vectors_root(version) / "x509" / "PKITS_data"
    certificates = sorted((root / "certs").glob("*.crt"))
    crls = sorted((root / "crls").glob("*.crl"))
    if not certificates or not crls:
        raise FileNotFoundError(f"no PKITS data under {root}")
    return certificates, crls


def cryptography_vectors_custom(version: str = CRYPTOGRAPHY_VECTORS_VERSION) -> Path:
    """cryptography-vectors' x509/custom: hand-made and deliberately broken certificates."""
    return cryptography_vectors_root(version) / "x509" / "custom"


# ---- X.400 traces --------------------------------------------------------------------------

def x400_traces() -> List[Tuple[str, List[bytes]]]:
    """(trace name, its PDUs) for each examples/x400/traces/*.ber; empty while none exist."""
    return [(path.stem, split_pdus(path.read_bytes()))
            for path in sorted(X400_TRACES.glob("*.ber"))]


# ---- SNMP traffic ---------------------------------------------------------------------------

SNMP_WALK_ROOT = "1.3.6.1.2.1"


def _dumped_packets(text: str) -> List[bytes]:
    """The packets of net-snmp's `-d` dumps, read as examples/snmp/capture.py reads them."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "snmp_capture", REPO / "examples" / "snmp" / "capture.py")
    capture = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(capture)
    return capture.dumped_datagrams(text)


def snmp_walk_messages() -> List[bytes]:
    """Real SNMPv1 traffic: the requests and responses of an `snmpwalk -v1` of the MIB-2
    subtree of a net-snmp agent started for the purpose on a local port (Debian's snmpd
    and snmp packages).  Cached; empty when net-snmp is not installed."""
    cached = cache_dir() / "snmp-walk.ber"
    if cached.exists():
        return split_pdus(cached.read_bytes())
    import shutil
    import socket
    import tempfile
    import time
    if not (shutil.which("snmpd") and shutil.which("snmpwalk")):
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        conf = Path(tmp) / "snmpd.conf"
        conf.write_text(f"agentaddress udp:127.0.0.1:{port}\nrocommunity public 127.0.0.1\n"
                        "sysLocation asn1c-hybrid benchmark\nsysContact nobody@example.org\n"
                        "sysName agent\n")
        agent = subprocess.Popen(["snmpd", "-f", "-Ln", "-C", "-c", str(conf),
                                  "-p", str(Path(tmp) / "pid")])
        try:
            time.sleep(1)
            walk = subprocess.run(["snmpwalk", "-d", "-v1", "-c", "public", "-On", "-t", "5",
                                   f"127.0.0.1:{port}", SNMP_WALK_ROOT],
                                  capture_output=True, text=True, timeout=600)
        finally:
            agent.terminate()
            agent.wait(30)
    messages = _dumped_packets(walk.stdout + walk.stderr)
    if messages:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(b"".join(messages))
    return messages


# ---- A CRL of any size --------------------------------------------------------------------

def _der(tag: int, contents: bytes) -> bytes:
    n = len(contents)
    if n < 0x80:
        return bytes([tag, n]) + contents
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + contents


def crl_serials(entries: int, seed: int = 5280) -> List[int]:
    """The serial numbers of make_crl's entries: positive, 1 to 20 octets (RFC 5280 4.1.2.2
    allows 20), so that some are beyond 64 bits."""
    rng = random.Random(seed)
    return [rng.getrandbits(rng.choice((8, 16, 32, 63, 64, 72, 159))) | 1
            for _ in range(entries)]


def make_crl(entries: int, seed: int = 5280) -> bytes:
    """A DER CertificateList (RFC 5280) with `entries` revoked certificates, written here
    without the code under test.  Every tenth entry has a reasonCode extension; the
    signature is not a real one (nothing here verifies it)."""
    def integer(v: int) -> bytes:
        return _der(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))

    sha256_rsa = _der(0x30, _der(0x06, bytes.fromhex("2a864886f70d01010b")) + b"\x05\x00")
    issuer = _der(0x30, _der(0x31, _der(0x30, _der(0x06, bytes.fromhex("550403"))
                                         + _der(0x13, b"asn1c-hybrid test CA"))))
    reason = _der(0x30, _der(0x30, _der(0x06, bytes.fromhex("551d15"))
                             + _der(0x04, _der(0x0A, b"\x01"))))
    revoked = b"".join(
        _der(0x30, integer(serial) + _der(0x17, b"%02d%02d%02d120000Z" % (20 + i % 5,
                                                                           1 + i % 12,
                                                                           1 + i % 28))
             + (reason if i % 10 == 0 else b""))
        for i, serial in enumerate(crl_serials(entries, seed)))
    tbs = _der(0x30, integer(1) + sha256_rsa + issuer + _der(0x17, b"260101000000Z")
               + _der(0x17, b"260201000000Z") + (_der(0x30, revoked) if entries else b""))
    return _der(0x30, tbs + sha256_rsa + _der(0x03, b"\x00" + bytes(256)))


# ---- The drivers' input --------------------------------------------------------------------

def write_framed(path: Path, messages: Sequence[bytes]) -> None:
    """Messages as the C drivers read them: each one as a 4-byte little-endian length and
    its bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        for message in messages:
            out.write(len(message).to_bytes(4, "little"))
            out.write(message)


def read_framed(path: Path) -> Iterator[bytes]:
    data = path.read_bytes()
    pos = 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "little")
        yield data[pos + 4:pos + 4 + n]
        pos += 4 + n


if __name__ == "__main__":
    write_committed_messages()
    for path in sorted(MESSAGES.iterdir()):
        print(f"{path.name}: {path.stat().st_size} bytes")
