"""builtins.py: the built-in definitions parse, and the tables agree with X.680."""
from __future__ import annotations

from asn1c_hybrid.frontend.builtins import KINDS, STRING_ALPHABETS, string_value_compatible
from asn1c_hybrid.frontend.loader import builtin_modules
from asn1c_hybrid.typegraph import UNIVERSAL_TAGS, Kind


def test_builtin_source_parses():
    names = [m.name for m in builtin_modules()]
    assert names == ["ASN1-Builtin-Classes", "ASN1-Builtin-External",
                     "ASN1-Builtin-Associated-Types"]


def test_every_builtin_kind_has_a_universal_tag():
    for name, kind in KINDS.items():
        if kind.has_own_tlv and name not in ("INSTANCE OF",):
            assert name in UNIVERSAL_TAGS, name
    assert KINDS["UTCTime"] == Kind.BYTES and KINDS["ANY"] == Kind.OPEN


def test_string_alphabets():
    """X.680 41 table 8 (NumericString, PrintableString)."""
    assert STRING_ALPHABETS["NumericString"] == " 0123456789"
    assert set(STRING_ALPHABETS["PrintableString"]) == set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?")


def test_string_repertoires():
    assert string_value_compatible("PrintableString", "UniversalString")
    assert string_value_compatible("NumericString", "IA5String")
    assert string_value_compatible("UTF8String", "UniversalString")
    assert not string_value_compatible("IA5String", "PrintableString")
    assert not string_value_compatible("GeneralString", "UTF8String")
