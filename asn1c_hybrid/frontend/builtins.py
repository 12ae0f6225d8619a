"""What ASN.1 defines without a module saying so: the built-in classes TYPE-IDENTIFIER and
ABSTRACT-SYNTAX (X.681 Annex A, B), the associated types of EXTERNAL, EMBEDDED PDV and
CHARACTER STRING (X.690 8.18, X.680 36.5 and 44.5), the names of the top OID arcs
(X.660 Annex A), and how each built-in type maps onto the type graph's kinds.

The definitions are written in ASN.1 and analysed by the front end itself; the types are
instantiated where a specification uses them, so their nodes are named after that place.
"""
from __future__ import annotations

from ..typegraph import Kind

BUILTIN_FILE = "<built-in>"

# The classes are in a module of their own so that `TYPE-IDENTIFIER` is found without an
# import; the associated types of EXTERNAL use the explicit tagging environment that
# X.690 8.18.1 defines them in, the others the automatic one of X.680.
BUILTIN_SOURCE = """
ASN1-Builtin-Classes DEFINITIONS ::= BEGIN
TYPE-IDENTIFIER ::= CLASS {
    &id OBJECT IDENTIFIER UNIQUE,
    &Type
} WITH SYNTAX { &Type IDENTIFIED BY &id }

ABSTRACT-SYNTAX ::= CLASS {
    &id OBJECT IDENTIFIER UNIQUE,
    &Type,
    &property BIT STRING { handles-invalid-encodings(0) } DEFAULT {}
} WITH SYNTAX { &Type IDENTIFIED BY &id [HAS PROPERTY &property] }
END

ASN1-Builtin-External DEFINITIONS EXPLICIT TAGS ::= BEGIN
EXTERNAL ::= SEQUENCE {
    direct-reference      OBJECT IDENTIFIER OPTIONAL,
    indirect-reference    INTEGER OPTIONAL,
    data-value-descriptor ObjectDescriptor OPTIONAL,
    encoding CHOICE {
        single-ASN1-type  [0] ABSTRACT-SYNTAX.&Type,
        octet-aligned     [1] IMPLICIT OCTET STRING,
        arbitrary         [2] IMPLICIT BIT STRING } }
END

ASN1-Builtin-Associated-Types DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Identification ::= CHOICE {
    syntaxes SEQUENCE { abstract OBJECT IDENTIFIER, transfer OBJECT IDENTIFIER },
    syntax OBJECT IDENTIFIER,
    presentation-context-id INTEGER,
    context-negotiation SEQUENCE {
        presentation-context-id INTEGER,
        transfer-syntax OBJECT IDENTIFIER },
    transfer-syntax OBJECT IDENTIFIER,
    fixed NULL }

EMBEDDED-PDV ::= SEQUENCE {
    identification        Identification,
    data-value-descriptor ObjectDescriptor OPTIONAL,
    data-value            OCTET STRING }

CHARACTER-STRING ::= SEQUENCE {
    identification        Identification,
    string-value          OCTET STRING }
END
"""

# Built-in type -> (module, type) of its associated type in BUILTIN_SOURCE.
ASSOCIATED_TYPES = {
    "EXTERNAL": ("ASN1-Builtin-External", "EXTERNAL"),
    "EMBEDDED PDV": ("ASN1-Builtin-Associated-Types", "EMBEDDED-PDV"),
    "CHARACTER STRING": ("ASN1-Builtin-Associated-Types", "CHARACTER-STRING"),
}

BUILTIN_CLASS_MODULE = "ASN1-Builtin-Classes"
BUILTIN_CLASSES = ("TYPE-IDENTIFIER", "ABSTRACT-SYNTAX")

CHARACTER_STRING_TYPES = (
    "BMPString", "GeneralString", "GraphicString", "IA5String", "ISO646String",
    "NumericString", "PrintableString", "TeletexString", "T61String", "UniversalString",
    "UTF8String", "VideotexString", "VisibleString", "ObjectDescriptor",
)
TIME_TYPES = ("UTCTime", "GeneralizedTime", "DATE", "DATE-TIME", "DURATION", "TIME",
              "TIME-OF-DAY")

KINDS: dict[str, Kind] = {
    "BOOLEAN": Kind.BOOLEAN, "INTEGER": Kind.INTEGER, "ENUMERATED": Kind.ENUMERATED,
    "REAL": Kind.REAL, "BIT STRING": Kind.BIT_STRING, "NULL": Kind.NULL,
    "OCTET STRING": Kind.BYTES, "OBJECT IDENTIFIER": Kind.BYTES, "RELATIVE-OID": Kind.BYTES,
    "OID-IRI": Kind.BYTES, "RELATIVE-OID-IRI": Kind.BYTES,
    "SEQUENCE": Kind.SEQUENCE, "SET": Kind.SET, "CHOICE": Kind.CHOICE,
    "SEQUENCE OF": Kind.SEQUENCE_OF, "SET OF": Kind.SET_OF,
    "EXTERNAL": Kind.SEQUENCE, "EMBEDDED PDV": Kind.SEQUENCE, "CHARACTER STRING": Kind.SEQUENCE,
    "INSTANCE OF": Kind.SEQUENCE, "ANY": Kind.OPEN, "OPEN": Kind.OPEN,
    **{name: Kind.BYTES for name in CHARACTER_STRING_TYPES + TIME_TYPES},
}

# Characters of the known-multiplier string types (X.680 41, table 8), for checking
# permitted alphabets and values; None: any character of ISO 10646.
_VISIBLE = "".join(chr(c) for c in range(0x20, 0x7F))
STRING_ALPHABETS: dict[str, str] = {
    "NumericString": " 0123456789",
    "PrintableString": ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        "0123456789 '()+,-./:=?"),
    "VisibleString": _VISIBLE,
    "ISO646String": _VISIBLE,
    "IA5String": "".join(chr(c) for c in range(0x80)),
}
STRING_LIMITS: dict[str, int] = {"BMPString": 0xFFFF, "UniversalString": 0x10FFFF,
                                 "UTF8String": 0x10FFFF}

# Which character string values may be used where (X.680 Annex B and 41.*): a value of
# the left type can be assigned to the right type when its repertoire is a subset.
_REPERTOIRE_ORDER = ["NumericString", "PrintableString", "VisibleString", "IA5String",
                     "BMPString", "UniversalString"]


def string_value_compatible(source: str, target: str) -> bool:
    if source == target:
        return True
    aliases = {"ISO646String": "VisibleString", "T61String": "TeletexString",
               "UTF8String": "UniversalString"}
    source = aliases.get(source, source)
    target = aliases.get(target, target)
    if source == target:
        return True
    if source in _REPERTOIRE_ORDER and target in _REPERTOIRE_ORDER:
        return _REPERTOIRE_ORDER.index(source) <= _REPERTOIRE_ORDER.index(target)
    return False


# Top arcs of the OID tree, and the arcs named under them (X.660 Annex A; X.680 32.3).
OID_ROOT_NAMES = {"itu-t": 0, "ccitt": 0, "itu-r": 0, "iso": 1, "joint-iso-itu-t": 2,
                  "joint-iso-ccitt": 2}
OID_SECOND_NAMES = {
    0: {"recommendation": 0, "question": 1, "administration": 2, "network-operator": 3,
        "identified-organization": 4, "r-recommendation": 5},
    1: {"standard": 0, "registration-authority": 1, "member-body": 2,
        "identified-organization": 3},
    2: {"presentation": 0, "asn1": 1, "association-control": 2, "reliable-transfer": 3,
        "remote-operations": 4, "ds": 5, "directory": 5, "mhs": 6, "mhs-motis": 6,
        "ccr": 7, "oda": 8, "ms": 9, "osi-management": 9, "transaction-processing": 10,
        "dor": 11, "distinguished-object-reference": 11, "reference-data-transfer": 12,
        "network-layer": 13, "network-layer-management": 13, "transport-layer": 14,
        "transport-layer-management": 14, "datalink-layer": 15,
        "datalink-layer-management": 15, "datalink-layer-management-information": 15,
        "country": 16, "registration-procedures": 17, "registration-procedure": 17,
        "physical-layer": 18, "physical-layer-management": 18, "mheg": 19,
        "genericULS": 20, "generic-upper-layers-security": 20, "guls": 20,
        "transport-layer-security-protocol": 21, "network-layer-security-protocol": 22,
        "international-organizations": 23, "internationalRA": 23, "sios": 24,
        "uuid": 25, "odp": 26, "upu": 40},
}
# ITU-T recommendation series letters: { itu-t recommendation x(24) } may omit the number.
OID_RECOMMENDATION_LETTERS = {chr(ord("a") + i): i + 1 for i in range(26)}
