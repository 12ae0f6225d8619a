#!/usr/bin/env python3
"""Seeded generator of X.400 P1 traffic: concatenated DER-encoded MTS-APDUs.

    python examples/x400/traffic.py --seed 18 --messages 18 -o examples/x400/traces/trace-18.ber

writes the trace and, beside it, a JSON summary (same name, .json).  The same seed and count
always give the same bytes.  README.md beside this file explains the traffic model and where
its numbers come from.

Values are built as asn1tools values and encoded with asn1tools' DER codec.  That codec writes
SET components in declaration order and leaves SET OF elements unsorted, so every PDU is then
put into canonical DER order (X.690 10.3 and 11.6) by `canonical_der`, which walks the compiled
type alongside the encoding.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import asn1tools
from asn1tools.codecs import ber as _ber
from asn1tools.codecs import der as _der

HERE = Path(__file__).resolve().parent
SPEC_DIR = HERE / "spec"
TRACES_DIR = HERE / "traces"
PDU_TYPE = "MTS-APDU"

# The kinds of APDU and their shares of the traffic (see README.md, "The traffic").
KIND_SHARES = (("message", 0.88), ("report", 0.11), ("probe", 0.01))
# Recipients per message or probe: P(k) proportional to k**-RECIPIENT_ZIPF_EXPONENT, 1 <= k <= MAX.
RECIPIENT_ZIPF_EXPONENT = 2.0
MAX_RECIPIENTS = 40
# Start of the simulated capture: a Monday morning, in the period of the paper's trace.
CAPTURE_START = dt.datetime(1993, 10, 4, 8, 0, 0)


def spec_files() -> list[Path]:
    return sorted(SPEC_DIR.glob("*.asn"))


def compile_spec(codec: str = "der"):
    return asn1tools.compile_files([str(p) for p in spec_files()], codec)


# --------------------------------------------------------------------------------------------
# Canonical DER


def _read_tlv(data: bytes, offset: int) -> tuple[bytes, int, int, int]:
    """(identifier octets, content start, content end, next offset) of the TLV at offset."""
    start = offset
    first = data[offset]
    offset += 1
    if first & 0x1F == 0x1F:
        while data[offset] & 0x80:
            offset += 1
        offset += 1
    tag = bytes(data[start:offset])
    length = data[offset]
    offset += 1
    if length & 0x80:
        count = length & 0x7F
        if count == 0:
            raise ValueError("indefinite length where DER was expected")
        length = int.from_bytes(data[offset:offset + count], "big")
        offset += count
    end = offset + length
    if end > len(data):
        raise ValueError("TLV runs past the end of its container")
    return tag, offset, end, end


def _children(data: bytes, start: int, end: int) -> list[bytes]:
    out = []
    offset = start
    while offset < end:
        _, _, _, nxt = _read_tlv(data, offset)
        out.append(bytes(data[offset:nxt]))
        offset = nxt
    return out


def _der_length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def _untag_constructed(tag: bytes) -> bytes:
    # Sorting and matching ignore the primitive/constructed bit.
    return bytes([tag[0] & ~0x20]) + tag[1:]


# The DER codec has its own array and string classes beside the BER codec's.
_SET_OF = (_ber.SetOf, _der.SetOf)
_ARRAY = (_ber.ArrayType, _der.ArrayType)


def _tags_of(t) -> set[bytes] | None:
    """Identifier octets (constructed bit cleared) that a value of compiled type t can start with,
    or None when it can start with any (an ANY)."""
    if isinstance(t, _ber.Recursive):
        return _tags_of(t.inner)
    if isinstance(t, (_ber.Any, _ber.AnyDefinedBy)):
        return None
    if isinstance(t, _ber.Choice) and t.tag is None:
        tags: set[bytes] = set()
        for member in t.members:
            member_tags = _tags_of(member)
            if member_tags is None:
                return None
            tags |= member_tags
        return tags
    return {_untag_constructed(t.tag)}


def _matches(t, tag: bytes) -> bool:
    tags = _tags_of(t)
    return tags is None or _untag_constructed(tag) in tags


def canonical_der(t, tlv: bytes) -> bytes:
    """The canonical DER of one TLV whose type is the compiled asn1tools type t: SET components
    in tag order, SET OF elements in ascending octet order, recursively.  Everything else is
    asn1tools' DER already (definite minimal lengths, DEFAULTs omitted)."""
    if isinstance(t, _ber.Recursive):
        return canonical_der(t.inner, tlv)
    if isinstance(t, _ber.Choice) and t.tag is None:
        tag, _, _, _ = _read_tlv(tlv, 0)
        for member in t.members:
            if _tags_of(member) is not None and _matches(member, tag):
                return canonical_der(member, tlv)
        for member in t.members:
            if _tags_of(member) is None:
                return canonical_der(member, tlv)
        raise ValueError(f"no alternative of {t.name} has tag {tag.hex()}")
    if not isinstance(t, (_ber.ExplicitTag, _ber.MembersType) + _ARRAY):
        return tlv  # primitive, ANY or anything else asn1tools already writes canonically

    tag, start, end, _ = _read_tlv(tlv, 0)
    parts = _children(tlv, start, end)
    if isinstance(t, _ber.ExplicitTag):
        parts = [canonical_der(t.inner, parts[0])]
    elif isinstance(t, _ARRAY):
        parts = [canonical_der(t.element_type, p) for p in parts]
        if isinstance(t, _SET_OF):
            parts.sort()
    elif isinstance(t, _ber.Set):
        members = list(t.root_members)
        done = []
        for part in parts:
            part_tag, _, _, _ = _read_tlv(part, 0)
            member = next((m for m in members if _tags_of(m) is not None and _matches(m, part_tag)),
                          None) or next(m for m in members if _tags_of(m) is None)
            members.remove(member)
            done.append(canonical_der(member, part))
        parts = sorted(done, key=lambda p: _untag_constructed(_read_tlv(p, 0)[0]))
    else:  # SEQUENCE: components keep their order
        members = list(t.root_members)
        index = 0
        done = []
        for part in parts:
            part_tag, _, _, _ = _read_tlv(part, 0)
            while not _matches(members[index], part_tag):
                index += 1
            done.append(canonical_der(members[index], part))
            index += 1
        parts = done
    content = b"".join(parts)
    return tag + _der_length(len(content)) + content


def split_pdus(data: bytes) -> list[bytes]:
    """The PDUs of a trace: concatenated top-level TLVs."""
    return _children(data, 0, len(data))


# --------------------------------------------------------------------------------------------
# Value helpers


def bits(*positions: int) -> tuple[bytes, int]:
    """A BIT STRING value with the named bits at positions set, trailing zeros removed (DER)."""
    if not positions:
        return (b"", 0)
    nbits = max(positions) + 1
    buf = bytearray((nbits + 7) // 8)
    for p in positions:
        buf[p // 8] |= 0x80 >> (p % 8)
    return (bytes(buf), nbits)


def printable(text: str) -> str:
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?")
    return "".join(c if c in allowed else "-" for c in text)


def zipf_weights(n: int, exponent: float) -> list[float]:
    return [k ** -exponent for k in range(1, n + 1)]


class Draw:
    """Random draws made from random.random() alone.  Python keeps seeding and random() stable
    across versions, not its other methods, so a trace regenerates identically on any Python."""

    def __init__(self, seed: int):
        self._random = random.Random(seed).random

    def random(self) -> float:
        return self._random()

    def below(self, n: int) -> int:
        return min(int(self._random() * n), n - 1)

    def randint(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)

    def choice(self, items):
        return items[self.below(len(items))]

    def weighted(self, items, weights):
        items = list(items)
        point = self._random() * sum(weights)
        for item, weight in zip(items, weights):
            point -= weight
            if point < 0:
                return item
        return items[-1]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items, k: int) -> list:
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def gauss(self, mu: float, sigma: float) -> float:
        u1 = 1.0 - self._random()
        u2 = self._random()
        return mu + sigma * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def expovariate(self, rate: float) -> float:
        return -math.log(1.0 - self._random()) / rate

    def randbytes(self, n: int) -> bytes:
        return bytes(self.below(256) for _ in range(n))


# --------------------------------------------------------------------------------------------
# The population: administrations, private domains, organizations, MTAs and users.
# Names are invented, shaped like the research and commercial X.400 addresses of the early
# 1990s (README.md).  Each entry: country, ADMD, weight, [(PRMD or None, [organizations])],
# the DNS suffix used for MTA names and RFC 822 addresses behind gateways.

ADMINISTRATIONS = [
    ("FR", "ATLAS", 14, [("ARIANE", ["INRIA", "CNRS", "UPMC", "ENST"]), (None, ["TELESYSTEMES"])], "fr"),
    ("DE", "DBP", 16, [("DFN", ["GMD", "UNI-KARLSRUHE", "TU-BERLIN", "RWTH-AACHEN"]),
                       ("SIEMENS", ["SIEMENS"])], "de"),
    ("GB", " ", 14, [("UK.AC", ["UCL", "CAMBRIDGE", "EDINBURGH", "ULCC"]), ("ICL", ["ICL"])], "uk"),
    ("CH", "ARCOM", 8, [("SWITCH", ["ETHZ", "EPFL", "CERN", "UNIGE"])], "ch"),
    ("US", "TELEMAIL", 9, [("ESNET", ["LBL", "ORNL", "FNAL"]), ("DEC", ["DEC"])], "com"),
    ("US", "ATTMAIL", 5, [(None, ["ATT"]), ("BOEING", ["BOEING"])], "com"),
    ("NL", "400NET", 6, [("SURF", ["UVA", "TUDELFT", "CWI"])], "nl"),
    ("SE", "400NET", 6, [("SUNET", ["KTH", "SICS", "LUND"])], "se"),
    ("IT", "MASTER400", 6, [("GARR", ["CNR", "POLIMI", "INFN"])], "it"),
    ("NO", "TELEMAX", 4, [("UNINETT", ["SINTEF", "UIO"])], "no"),
    ("ES", "MENSATEX", 4, [("IRIS", ["UPM", "UAM"])], "es"),
    ("CA", "TELECOM.CANADA", 4, [("CDNNET", ["UBC", "TORONTO"])], "ca"),
    ("AU", "TELEMEMO", 3, [("AARNET", ["ANU", "MELBOURNE"])], "au"),
    ("JP", "KDD", 3, [("WIDE", ["KEIO", "NTT"])], "jp"),
]

# ITU-T X.121 data country codes, used by the few systems that write the country numerically.
X121_DCC = {"FR": "208", "DE": "262", "GB": "234", "CH": "228", "US": "310", "NL": "204",
            "SE": "240", "IT": "222", "NO": "242", "ES": "214", "CA": "302", "AU": "505",
            "JP": "440"}

SURNAMES = [
    "Martin", "Bernard", "Dubois", "Durand", "Lefebvre", "Moreau", "Laurent", "Simon", "Michel",
    "Mueller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann",
    "Smith", "Jones", "Williams", "Taylor", "Brown", "Davies", "Evans", "Wilson", "Thomas", "Roberts",
    "Johnson", "Miller", "Davis", "Garcia", "Anderson", "Clark", "Lewis", "Walker", "Young",
    "de Vries", "Jansen", "van den Berg", "Bakker", "Visser", "Andersson", "Johansson", "Karlsson",
    "Nilsson", "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Hansen", "Olsen", "Larsen",
    "Garcia", "Fernandez", "Lopez", "Tremblay", "Gagnon", "Sato", "Suzuki", "Takahashi", "Huitema",
    "Hoschka", "Kille", "Hardcastle-Kille", "Postel", "Rose", "Onions", "Plattner", "Eppenberger",
]
GIVEN_NAMES = [
    "Jean", "Pierre", "Marie", "Anne", "Philippe", "Christian", "Isabelle", "Nathalie", "Francois",
    "Hans", "Klaus", "Petra", "Monika", "Wolfgang", "Juergen", "Sabine", "Stefan", "Thomas",
    "John", "David", "Sarah", "Helen", "Peter", "Michael", "James", "Elizabeth", "Robert", "Susan",
    "Mary", "William", "Richard", "Jennifer", "Lars", "Karin", "Anders", "Ingrid", "Erik",
    "Marco", "Giulia", "Luca", "Paola", "Jan", "Pieter", "Els", "Carlos", "Carmen", "Javier",
    "Yuki", "Hiroshi", "Steve", "Julian", "Bernhard", "Urs", "Ruth",
]
UNIT_NAMES = [
    "Research", "Computer Centre", "Informatics", "Physics", "Mathematics", "Networks",
    "Administration", "Sales", "Marketing", "Engineering", "Library", "Directorate", "Rocquencourt",
    "Sophia", "Rennes", "Operations", "Support", "Projects", "Systems", "Telecoms", "Finance",
    "Personnel", "Electronics", "Chemistry", "Biology", "Geneva", "Zurich", "North", "South",
]
ROLE_NAMES = ["Postmaster", "Helpdesk", "Secretariat", "Info", "Admin", "Operator"]
LOCAL_PARTS = ["jdoe", "smith", "info", "bob", "alice", "support", "ops", "mary", "pjones", "lee"]
WORDS = (
    "the of and to a in is that for it as was with be by on not he this are or his from at which "
    "but have an they you were her she there been one all we their has would when if so no what "
    "meeting report network message protocol draft project deadline attached please review "
    "comments agenda next week minutes thanks regards results figures budget proposal "
    "conference paper deadline implementation interworking gateway directory mail relay"
).split()


@dataclass
class Domain:
    country: str
    admd: str
    prmd: str | None
    suffix: str
    mtas: list[str]


@dataclass
class User:
    domain: Domain
    organization: str
    surname: str
    given_name: str | None = None
    initials: str | None = None
    generation: str | None = None
    units: list[str] = field(default_factory=list)
    show_organization: bool = True     # subscribers of a public ADMD often have none
    rfc822: str | None = None          # reached through a gateway: an RFC-822 domain-defined attribute
    common_name: str | None = None     # extension attribute 1
    teletex_name: bool = False         # extension attribute 4 as well
    physical: bool = False             # physical delivery attributes (postal addresses)
    postal_code: str = ""
    street: str = ""
    directory_name: bool = False       # the ORName carries a directory name
    numeric_country: bool = False
    network_address: str | None = None


class Population:
    """Every administration, domain, organization and user of the simulated network."""

    def __init__(self, rng: Draw):
        self.domains: list[Domain] = []
        self.domain_weights: list[float] = []
        self.users: list[User] = []
        for country, admd, weight, prmds, suffix in ADMINISTRATIONS:
            for prmd, orgs in prmds:
                mtas = [f"{kind}.{org.lower()}.{suffix}"[:32] for org in orgs
                        for kind in ("mta", "relay")[:rng.randint(1, 2)]]
                domain = Domain(country, admd, prmd, suffix, mtas)
                self.domains.append(domain)
                self.domain_weights.append(weight / len(prmds))
                for org in orgs:
                    for _ in range(rng.randint(6, 30)):
                        self.users.append(self._make_user(rng, domain, org))
        # Some users write and receive far more mail than others.
        order = list(range(len(self.users)))
        rng.shuffle(order)
        self.user_weights = [0.0] * len(self.users)
        for rank, index in enumerate(order, start=1):
            self.user_weights[index] = rank ** -1.1

    @staticmethod
    def _make_user(rng: Draw, domain: Domain, org: str) -> User:
        if rng.random() < 0.06:
            user = User(domain, org, rng.choice(ROLE_NAMES))
        else:
            user = User(domain, org, rng.choice(SURNAMES))
            if rng.random() < 0.85:
                user.given_name = rng.choice(GIVEN_NAMES)
            if rng.random() < 0.25:
                user.initials = "".join(rng.choice("ABCDEFGHJKLMNPRSTW") for _ in range(rng.randint(1, 2)))
            if rng.random() < 0.01:
                user.generation = rng.choice(["Jr", "Sr", "III"])
        user.show_organization = domain.prmd is not None or rng.random() < 0.3
        units = rng.weighted([0, 1, 2, 3, 4], [30, 40, 20, 8, 2]) if user.show_organization else 0
        user.units = [rng.choice(UNIT_NAMES) for _ in range(units)]
        if rng.random() < 0.08:
            user.rfc822 = f"{rng.choice(LOCAL_PARTS)}(a){org.lower()}.{domain.suffix}"
        user.common_name = (f"{user.given_name} {user.surname}" if user.given_name else None) \
            if rng.random() < 0.04 else None
        user.teletex_name = rng.random() < 0.01
        user.physical = rng.random() < 0.006
        if user.physical:
            user.postal_code = f"{rng.randint(10000, 99999)}"
            user.street = f"{rng.randint(1, 200)} {rng.choice(UNIT_NAMES)} Street"
        user.directory_name = rng.random() < 0.04
        user.numeric_country = rng.random() < 0.03
        if rng.random() < 0.02:
            user.network_address = X121_DCC[domain.country] + "".join(
                rng.choice("0123456789") for _ in range(rng.randint(6, 10)))
        return user

    def pick_user(self, rng: Draw) -> User:
        return rng.weighted(self.users, self.user_weights)

    def pick_recipients(self, rng: Draw, originator: User, count: int) -> list[User]:
        """count distinct users, many near the originator (same organization or country)."""
        chosen: list[User] = []
        attempts = 0
        while len(chosen) < count and attempts < count * 50:
            attempts += 1
            r = rng.random()
            if r < 0.20:
                pool = [u for u in self.users if u.organization == originator.organization]
                user = rng.choice(pool)
            elif r < 0.40:
                pool = [u for u in self.users if u.domain.country == originator.domain.country]
                user = rng.choice(pool)
            else:
                user = self.pick_user(rng)
            if user is not originator and user not in chosen:
                chosen.append(user)
        return chosen


# --------------------------------------------------------------------------------------------
# Building values


class Encoder:
    """asn1tools DER plus canonical ordering, for whole PDUs and for the contents of ANYs."""

    def __init__(self):
        self.spec = compile_spec("der")

    def encode(self, type_name: str, value) -> bytes:
        compiled = self.spec.types[type_name]
        return canonical_der(compiled.type, compiled.encode(value))


def country_name(code: str, numeric: bool = False):
    return ("x121-dcc-code", X121_DCC[code]) if numeric else ("iso-3166-alpha2-code", code)


def global_domain_identifier(domain: Domain) -> dict:
    gdi = {"country-name": country_name(domain.country),
           "administration-domain-name": ("printable", domain.admd)}
    if domain.prmd:
        gdi["private-domain-identifier"] = ("printable", domain.prmd)
    return gdi


class Builder:
    def __init__(self, rng: Draw, population: Population, encoder: Encoder):
        self.rng = rng
        self.population = population
        self.encoder = encoder
        self.serial = 0

    # ----- names

    def or_name(self, user: User) -> dict:
        d = user.domain
        attrs: dict = {"country-name": country_name(d.country, user.numeric_country),
                       "administration-domain-name": ("printable", d.admd)}
        if user.network_address:
            attrs["network-address"] = user.network_address
        if d.prmd:
            attrs["private-domain-name"] = ("printable", d.prmd)
        if user.show_organization:
            attrs["organization-name"] = user.organization
        person = {"surname": user.surname}
        if user.given_name:
            person["given-name"] = user.given_name
        if user.initials:
            person["initials"] = user.initials
        if user.generation:
            person["generation-qualifier"] = user.generation
        attrs["personal-name"] = person
        if user.units:
            attrs["organizational-unit-names"] = list(user.units)
        name: dict = {"built-in-standard-attributes": attrs}
        if user.rfc822:
            name["built-in-domain-defined-attributes"] = [{"type": "RFC-822", "value": user.rfc822}]
        extension_attributes = []
        if user.common_name:
            extension_attributes.append((1, self.encoder.encode("CommonName", user.common_name)))
        if user.teletex_name:
            teletex = {"surname": user.surname}
            if user.given_name:
                teletex["given-name"] = user.given_name
            extension_attributes.append((4, self.encoder.encode("TeletexPersonalName", teletex)))
        if user.physical:
            extension_attributes += [
                (7, self.encoder.encode("PDSName", "POSTE")),
                (8, self.encoder.encode("PhysicalDeliveryCountryName", country_name(d.country))),
                (9, self.encoder.encode("PostalCode", ("numeric-code", user.postal_code))),
                (17, self.encoder.encode("StreetAddress", {"printable-string": user.street[:30]})),
            ]
        if extension_attributes:
            name["extension-attributes"] = [
                {"extension-attribute-type": t, "extension-attribute-value": v}
                for t, v in extension_attributes]
        if user.directory_name:
            rdns = [("2.5.4.6", b"\x13\x02" + d.country.encode()),
                    ("2.5.4.10", self._printable_der(user.organization)),
                    ("2.5.4.3", self._printable_der(
                        f"{user.given_name} {user.surname}" if user.given_name else user.surname))]
            name["directory-name"] = ("rdnSequence", [[{"type": t, "value": v}] for t, v in rdns])
        return name

    @staticmethod
    def _printable_der(text: str) -> bytes:
        raw = printable(text).encode()
        return b"\x13" + _der_length(len(raw)) + raw

    def mts_identifier(self, domain: Domain, when: dt.datetime) -> dict:
        rng = self.rng
        self.serial += 1
        style = rng.random()
        if style < 0.4:    # date-time stamp and a sequence number
            local = f"{when:%y%m%d%H%M%S}Z{self.serial:05d}"
        elif style < 0.7:  # host and queue entry
            local = f"{rng.choice(domain.mtas).split('.')[1][:10]}.{rng.randint(1000, 99999)}.{self.serial}"
        else:              # an opaque counter
            local = f"{rng.randint(0, 2**40 - 1):010X}-{self.serial}"
        return {"global-domain-identifier": global_domain_identifier(domain),
                "local-identifier": local[:32]}

    # ----- envelope fields

    def content_type(self):
        r = self.rng.random()
        if r < 0.58:
            return ("built-in", 22)          # interpersonal-messaging-1988 (P22)
        if r < 0.92:
            return ("built-in", 2)           # interpersonal-messaging-1984 (P2)
        if r < 0.95:
            return ("built-in", 35)          # edi-messaging
        if r < 0.96:
            return ("built-in", 1)           # external
        return ("extended", self.rng.choice(["1.3.26.0.4406.0.4.1", "2.6.1.10.0"]))

    def encoded_information_types(self) -> dict:
        rng = self.rng
        r = rng.random()
        if r < 0.75:
            eits = {"built-in-encoded-information-types": bits(2)}           # ia5-text
        elif r < 0.81:
            eits = {"built-in-encoded-information-types": bits(5),           # teletex
                    "teletex": {"graphic-character-sets": "\x1b(B"}}
        elif r < 0.86:
            eits = {"built-in-encoded-information-types": bits(2, 5)}
        elif r < 0.90:
            eits = {"built-in-encoded-information-types": bits(0)}           # unknown
        elif r < 0.93:
            eits = {"built-in-encoded-information-types": bits(3),           # g3-facsimile
                    "g3-facsimile": bits(8, 9)}
        else:
            eits = {"built-in-encoded-information-types": bits(2),
                    "extended-encoded-information-types": ["2.6.3.4.2"]}
        return eits

    def per_message_indicators(self, recipients: int, probe: bool = False) -> tuple[bytes, int] | None:
        rng = self.rng
        on = []
        if recipients > 1 and rng.random() < 0.25 and not probe:
            on.append(0)
        if rng.random() < 0.05:
            on.append(1)
        if rng.random() < 0.30:
            on.append(2)
        if rng.random() < 0.10 and not probe:
            on.append(3)
        return bits(*on) if on else None

    def per_recipient_indicators(self, responsible: bool) -> tuple[bytes, int]:
        r = self.rng.random()
        base = [0] if responsible else []
        if r < 0.15:
            requested = [2]                 # originator asked for no report
        elif r < 0.75:
            requested = [2, 4]              # non-delivery report
        elif r < 0.90:
            requested = [1, 3]              # delivery report
        else:
            requested = [1, 2, 3]           # audited report
        return bits(*(base + requested))

    def times_after(self, start: dt.datetime, hops: int) -> list[dt.datetime]:
        out = []
        t = start
        for _ in range(hops):
            delay = self.rng.expovariate(1 / 150.0)        # minutes-scale store and forward
            if self.rng.random() < 0.03:
                delay += self.rng.expovariate(1 / 7200.0)  # a queue held for hours
            t = t + dt.timedelta(seconds=int(delay) + 1)
            out.append(t)
        return out

    def route(self, origin: Domain, destination: Domain) -> list[Domain]:
        """The domains a message enters on its way, in order."""
        if origin is destination:
            return [origin]
        path = [origin]
        origin_admd = Domain(origin.country, origin.admd, None, origin.suffix, origin.mtas)
        destination_admd = Domain(destination.country, destination.admd, None,
                                  destination.suffix, destination.mtas)
        if origin.prmd:
            path.append(origin_admd)
        if (destination.country, destination.admd) != (origin.country, origin.admd):
            if destination.country != origin.country and self.rng.random() < 0.2:
                # through a third administration that relays between the two
                country, admd, _, _, suffix = self.rng.choice(ADMINISTRATIONS)
                if (country, admd) not in ((origin.country, origin.admd),
                                           (destination.country, destination.admd)):
                    path.append(Domain(country, admd, None, suffix, origin.mtas))
            path.append(destination_admd)
        if destination.prmd:
            path.append(destination)
        return path

    def trace_information(self, path: list[Domain], start: dt.datetime,
                          conversions: bool = True) -> tuple[list, dt.datetime]:
        rng = self.rng
        times = self.times_after(start, len(path))
        elements = []
        for i, (domain, when) in enumerate(zip(path, times)):
            supplied: dict = {"arrival-time": when, "routing-action": "relayed"}
            if i > 0 and rng.random() < 0.03:
                supplied["routing-action"] = "rerouted"
                supplied["attempted-domain"] = global_domain_identifier(rng.choice(self.population.domains))
            if conversions and rng.random() < 0.01:
                supplied["converted-encoded-information-types"] = {
                    "built-in-encoded-information-types": bits(5)}
            if rng.random() < 0.005:
                supplied["deferred-time"] = when + dt.timedelta(hours=rng.randint(1, 12))
            if rng.random() < 0.01:
                supplied["other-actions"] = bits(rng.choice([0, 1]))
            elements.append({"global-domain-identifier": global_domain_identifier(domain),
                             "domain-supplied-information": supplied})
        return elements, times[-1]

    # ----- extensions

    def extension(self, number: int, type_name: str | None, value=None, critical=()):
        extension_field = {"type": ("standard-extension", number)}
        if critical:
            extension_field["criticality"] = bits(*critical)
        if type_name is not None:
            extension_field["value"] = self.encoder.encode(type_name, value)
        return extension_field

    def internal_trace(self, domain: Domain, start: dt.datetime) -> list:
        rng = self.rng
        mtas = rng.randint(1, min(4, len(domain.mtas) + 2))
        times = self.times_after(start - dt.timedelta(minutes=5), mtas)
        elements = []
        for i, when in enumerate(times):
            supplied: dict = {"arrival-time": when, "routing-action": "relayed"}
            if rng.random() < 0.03:
                supplied["routing-action"] = "rerouted"
                supplied["attempted"] = ("mta", rng.choice(domain.mtas))
            elements.append({"global-domain-identifier": global_domain_identifier(domain),
                             "mta-name": domain.mtas[i % len(domain.mtas)],
                             "mta-supplied-information": supplied})
        return elements

    def message_extensions(self, originator: User, domain: Domain, when: dt.datetime,
                           recipients: list[User]) -> list:
        rng = self.rng
        out = []
        if rng.random() < 0.01:
            out.append(self.extension(1, "RecipientReassignmentProhibited",
                                      "recipient-reassignment-prohibited", critical=(2,)))
        if rng.random() < 0.02:
            out.append(self.extension(4, "ConversionWithLossProhibited",
                                      "conversion-with-loss-prohibited", critical=(2,)))
        if rng.random() < 0.02:
            out.append(self.extension(5, "LatestDeliveryTime", when + dt.timedelta(days=rng.randint(1, 3)),
                                      critical=(2,)))
        if rng.random() < 0.005:
            out.append(self.extension(13, "OriginatorReturnAddress",
                                      {"built-in-standard-attributes":
                                       self.or_name(originator)["built-in-standard-attributes"]}))
        if rng.random() < 0.005:
            out.append(self.extension(20, "MessageSecurityLabel",
                                      {"security-policy-identifier": "2.16.840.1.101.2.1.12.0.1",
                                       "security-classification": rng.choice([1, 2, 3]),
                                       "privacy-mark": "IN CONFIDENCE"}, critical=(2,)))
        if rng.random() < 0.03:
            correlator = (("ia5text", f"REF-{rng.randint(1, 99999)}") if rng.random() < 0.7
                          else ("octets", rng.randbytes(8)))
            out.append(self.extension(23, "ContentCorrelator", correlator))
        if rng.random() < 0.03 and len(recipients) > 2:
            dl = rng.choice(self.population.users)
            out.append(self.extension(26, "DLExpansionHistory",
                                      [{"dl": self.or_name(dl), "dl-expansion-time": when}]))
        if rng.random() < 0.25:
            out.append(self.extension(38, "InternalTraceInformation", self.internal_trace(domain, when)))
        if rng.random() < 0.01:
            out.append({"type": ("private-extension", "1.3.6.1.4.1.453.7.3.2"),
                        "value": b"\x04\x04" + rng.randbytes(4)})
        return out

    def recipient_extensions(self, recipient: User, when: dt.datetime) -> list:
        rng = self.rng
        out = []
        if rng.random() < 0.01:
            out.append(self.extension(2, "MTAOriginatorRequestedAlternateRecipient",
                                      self.or_name(self.population.pick_user(rng)), critical=(0,)))
        if rng.random() < 0.01:
            out.append(self.extension(6, "RequestedDeliveryMethod", rng.choice([[1], [1, 5], [2]])))
        if recipient.physical:
            out.append(self.extension(9, "PhysicalDeliveryModes", bits(rng.choice([0, 1, 2])), critical=(2,)))
            out.append(self.extension(10, "RegisteredMailType", rng.choice([1, 2]), critical=(2,)))
        if rng.random() < 0.005:
            out.append(self.extension(22, "ProofOfDeliveryRequest", "proof-of-delivery-requested",
                                      critical=(2,)))
        if rng.random() < 0.01:
            out.append(self.extension(25, "RedirectionHistory", [{
                "intended-recipient-name": {"intended-recipient": self.or_name(recipient),
                                            "redirection-time": when},
                "redirection-reason": rng.choice(["recipient-assigned-alternate-recipient",
                                                  "recipient-MD-assigned-alternate-recipient"])}]))
        return out

    # ----- the APDUs

    def recipient_count(self) -> int:
        return self.rng.weighted(range(1, MAX_RECIPIENTS + 1),
                                 zipf_weights(MAX_RECIPIENTS, RECIPIENT_ZIPF_EXPONENT))

    def content(self, size: int) -> bytes:
        rng = self.rng
        words = []
        length = 0
        while length < size:
            word = rng.choice(WORDS)
            words.append(word)
            length += len(word) + 1
        return " ".join(words).encode()[:size]

    def content_size(self) -> int:
        # Log-normal, median 1.5 kB: most mail is a short text, a few carry documents.
        return int(min(64000, max(120, math.exp(self.rng.gauss(math.log(1500), 1.1)))))

    def transfer(self, now: dt.datetime, probe: bool) -> tuple[dict, dict]:
        """A message (or probe) envelope and what a later report about it needs."""
        rng = self.rng
        originator = self.population.pick_user(rng)
        recipients = self.population.pick_recipients(rng, originator, self.recipient_count())
        destination = recipients[0].domain
        path = self.route(originator.domain, destination)
        submitted = now - dt.timedelta(seconds=rng.randint(30, 900) * len(path))
        trace, arrival = self.trace_information(path, submitted)
        envelope: dict = {
            ("probe-identifier" if probe else "message-identifier"):
                self.mts_identifier(originator.domain, submitted),
            "originator-name": self.or_name(originator),
        }
        if rng.random() < (0.7 if probe else 0.8):
            envelope["original-encoded-information-types"] = self.encoded_information_types()
        envelope["content-type"] = self.content_type()
        if rng.random() < (0.2 if probe else 0.35):
            envelope["content-identifier"] = f"{originator.organization[:6]}{rng.randint(1, 9999999)}"[:16]
        size = self.content_size()
        if probe:
            if rng.random() < 0.9:
                envelope["content-length"] = size
        else:
            priority = rng.weighted(["normal", "non-urgent", "urgent"], [86, 6, 8])
            if priority != "normal":
                envelope["priority"] = priority
        indicators = self.per_message_indicators(len(recipients), probe)
        if indicators:
            envelope["per-message-indicators"] = indicators
        if not probe and rng.random() < 0.01:
            envelope["deferred-delivery-time"] = submitted + dt.timedelta(hours=rng.randint(1, 24))
        if rng.random() < 0.01:
            partner = rng.choice(self.population.domains)
            envelope["per-domain-bilateral-information"] = [{
                "country-name": country_name(partner.country),
                "domain": ("administration-domain-name", ("printable", partner.admd)),
                "bilateral-information": b"\x04\x06" + rng.randbytes(6)}]
        envelope["trace-information"] = trace
        extensions = self.message_extensions(originator, destination, arrival, recipients)
        if probe:
            extensions = [e for e in extensions if e["type"] in (
                ("standard-extension", 1), ("standard-extension", 4), ("standard-extension", 20),
                ("standard-extension", 23), ("standard-extension", 38))]
        if extensions:
            envelope["extensions"] = extensions
        fields = []
        for number, recipient in enumerate(recipients, start=1):
            responsible = recipient.domain.country == destination.country
            per_recipient: dict = {
                "recipient-name": self.or_name(recipient),
                "originally-specified-recipient-number": number,
                "per-recipient-indicators": self.per_recipient_indicators(responsible),
            }
            if rng.random() < 0.005:
                per_recipient["explicit-conversion"] = rng.choice([0, 11])
            recipient_extensions = self.recipient_extensions(recipient, arrival)
            if probe:
                recipient_extensions = [e for e in recipient_extensions if e["type"] in (
                    ("standard-extension", 2), ("standard-extension", 6), ("standard-extension", 25))]
            if recipient_extensions:
                per_recipient["extensions"] = recipient_extensions
            fields.append(per_recipient)
        envelope["per-recipient-fields"] = fields
        subject = {"envelope": envelope, "originator": originator, "recipients": recipients,
                   "destination": destination, "arrival": arrival, "size": size, "trace": trace,
                   "identifier": envelope.get("message-identifier") or envelope["probe-identifier"]}
        return envelope, subject

    def message(self, now: dt.datetime) -> tuple[dict, dict]:
        envelope, subject = self.transfer(now, probe=False)
        content = self.content(subject["size"])
        subject["content"] = content
        return {"envelope": envelope, "content": content}, subject

    def report(self, now: dt.datetime, subject: dict) -> dict:
        rng = self.rng
        reporting = subject["destination"]
        originator = subject["originator"]
        path = self.route(reporting, originator.domain)
        trace, _ = self.trace_information(path, max(now - dt.timedelta(minutes=20), subject["arrival"]),
                                          conversions=False)
        envelope: dict = {"report-identifier": self.mts_identifier(reporting, subject["arrival"]),
                          "report-destination-name": self.or_name(originator),
                          "trace-information": trace}
        extensions = []
        if rng.random() < 0.2:
            extensions.append(self.extension(38, "InternalTraceInformation",
                                             self.internal_trace(reporting, subject["arrival"])))
        if rng.random() < 0.1:
            extensions.append(self.extension(39, "ReportingMTAName",
                                             {"domain": global_domain_identifier(reporting),
                                              "mta-name": rng.choice(reporting.mtas)}))
        if extensions:
            envelope["extensions"] = extensions

        original = subject["envelope"]
        content: dict = {"subject-identifier": subject["identifier"]}
        if rng.random() < 0.4:
            content["subject-intermediate-trace-information"] = subject["trace"]
        if "original-encoded-information-types" in original and rng.random() < 0.6:
            content["original-encoded-information-types"] = original["original-encoded-information-types"]
        if rng.random() < 0.85:
            content["content-type"] = original["content-type"]
        if "content-identifier" in original and rng.random() < 0.7:
            content["content-identifier"] = original["content-identifier"]
        non_delivery = rng.random() < 0.45
        indicators = original.get("per-message-indicators", (b"", 0))
        content_return = indicators[1] > 3 and bool(indicators[0][0] & 0x10)
        if non_delivery and content_return and "content" in subject:
            content["returned-content"] = subject["content"]
        reported = min(len(subject["recipients"]),
                       rng.weighted([1, 2, 3, 4], [80, 12, 5, 3]))
        fields = []
        numbers = sorted(rng.sample(range(1, len(subject["recipients"]) + 1), reported))
        for number in numbers:
            recipient = subject["recipients"][number - 1]
            when = subject["arrival"] + dt.timedelta(seconds=rng.randint(1, 600))
            if non_delivery:
                reason, diagnostic = rng.weighted(NON_DELIVERY_CAUSES, [w for *_, w in NON_DELIVERY_CAUSES])[:2]
                report_type = {"non-delivery-reason-code": reason}
                if diagnostic is not None:
                    report_type["non-delivery-diagnostic-code"] = diagnostic
                report_type = ("non-delivery", report_type)
            else:
                delivery = {"message-delivery-time": when}
                user_type = rng.weighted([0, 1, 2, 3], [80, 10, 8, 2])
                if user_type:
                    delivery["type-of-MTS-user"] = user_type
                report_type = ("delivery", delivery)
            last_trace: dict = {"arrival-time": when, "report-type": report_type}
            if rng.random() < 0.01:
                last_trace["converted-encoded-information-types"] = {
                    "built-in-encoded-information-types": bits(5)}
            report_field = {
                "actual-recipient-name": self.or_name(recipient),
                "originally-specified-recipient-number": number,
                "per-recipient-indicators":
                    original["per-recipient-fields"][number - 1]["per-recipient-indicators"],
                "last-trace-information": last_trace,
            }
            if rng.random() < 0.02:
                report_field["originally-intended-recipient-name"] = self.or_name(self.population.pick_user(rng))
            if non_delivery and rng.random() < 0.15:
                report_field["supplementary-information"] = rng.choice(SUPPLEMENTARY_TEXTS)
            fields.append(report_field)
        content["per-recipient-fields"] = fields
        return {"envelope": envelope, "content": content}


# (reason, diagnostic, weight): why transfers fail, most often an unknown O/R name.
NON_DELIVERY_CAUSES = [
    (1, 0, 45),    # unable-to-transfer, unrecognised-OR-name
    (1, 1, 5),     # unable-to-transfer, ambiguous-OR-name
    (0, 5, 15),    # transfer-failure, maximum-time-expired
    (0, 2, 5),     # transfer-failure, mts-congestion
    (0, 3, 3),     # transfer-failure, loop-detected
    (1, 4, 10),    # unable-to-transfer, recipient-unavailable
    (2, 6, 5),     # conversion-not-performed, encoded-information-types-unsupported
    (1, 7, 4),     # unable-to-transfer, content-too-long
    (1, 17, 3),    # unable-to-transfer, no-bilateral-agreement
    (0, None, 5),  # transfer-failure, no diagnostic
]
SUPPLEMENTARY_TEXTS = ["User unknown", "No such mailbox", "Message timed out in queue",
                       "Gateway rejected address", "Mailbox full"]


# --------------------------------------------------------------------------------------------
# The trace


def generate(seed: int, count: int) -> tuple[list[bytes], dict]:
    """count encoded MTS-APDUs and their summary; the same (seed, count) gives the same bytes."""
    rng = Draw(seed)
    encoder = Encoder()
    population = Population(rng)
    builder = Builder(rng, population, encoder)
    kinds = [k for k, _ in KIND_SHARES]
    shares = [s for _, s in KIND_SHARES]
    now = CAPTURE_START
    recent: list[dict] = []
    pdus: list[bytes] = []
    kind_counts = {k: 0 for k in kinds}
    recipients_histogram: dict[int, int] = {}
    report_histogram: dict[int, int] = {}
    for _ in range(count):
        now += dt.timedelta(seconds=int(rng.expovariate(1 / 45.0)) + 1)
        kind = rng.weighted(kinds, shares)
        if kind == "message":
            value, subject = builder.message(now)
            recent = (recent + [subject])[-50:]
            apdu = ("message", value)
            n = len(value["envelope"]["per-recipient-fields"])
            recipients_histogram[n] = recipients_histogram.get(n, 0) + 1
        elif kind == "probe":
            envelope, _ = builder.transfer(now, probe=True)
            apdu = ("probe", envelope)
            n = len(envelope["per-recipient-fields"])
            recipients_histogram[n] = recipients_histogram.get(n, 0) + 1
        else:
            # A report answers a recent message; with none yet seen, one that went before the capture.
            subject = rng.choice(recent) if recent else builder.message(now - dt.timedelta(hours=1))[1]
            value = builder.report(now, subject)
            apdu = ("report", value)
            n = len(value["content"]["per-recipient-fields"])
            report_histogram[n] = report_histogram.get(n, 0) + 1
        kind_counts[kind] += 1
        pdus.append(encoder.encode(PDU_TYPE, apdu))
    sizes = sorted(len(p) for p in pdus)
    summary = {
        "format": "concatenated DER encodings of MTAAbstractService.MTS-APDU",
        "generator": "examples/x400/traffic.py",
        "seed": seed,
        "messages": count,
        "bytes": sum(sizes),
        "kinds": kind_counts,
        "recipients_histogram": {str(k): recipients_histogram[k] for k in sorted(recipients_histogram)},
        "report_recipients_histogram": {str(k): report_histogram[k] for k in sorted(report_histogram)},
        "pdu_bytes": {"min": sizes[0], "median": sizes[len(sizes) // 2], "max": sizes[-1]}
        if sizes else {},
    }
    return pdus, summary


def write_trace(seed: int, count: int, output: Path) -> dict:
    pdus, summary = generate(seed, count)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(b"".join(pdus))
    output.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True, help="random seed")
    parser.add_argument("--messages", type=int, required=True, help="number of MTS-APDUs")
    parser.add_argument("-o", "--output", type=Path, required=True,
                        help="trace file to write; the summary goes beside it as .json")
    args = parser.parse_args(argv)
    if args.messages < 1:
        parser.error("--messages must be at least 1")
    summary = write_trace(args.seed, args.messages, args.output)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
