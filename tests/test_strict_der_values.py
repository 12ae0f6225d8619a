"""Strict DER on the contents of times and decimal REALs, in compiled and interpreted
builds.  Each form below is valid BER and decodes in BER mode; strict mode takes the
DER forms of X.690 and refuses the others:
  11.8  UTCTime: YYMMDDHHMMSSZ (seconds present, "Z"), midnight as 000000;
  11.7  GeneralizedTime: seconds present, "Z", fractional seconds after "." without
        trailing zeros (and none at all when zero), midnight as 000000;
  11.3.2 decimal REAL: NR3 only, no space, "-" only when negative, a mantissa without
        leading or trailing zeros followed by ".E", an exponent "+0" or without leading
        zero and without "+".
"""
from __future__ import annotations

import pytest

import cbuild

SPEC = cbuild.REPO / "tests" / "specs" / "Stamps.asn"
UTC, GENERALIZED = "991231235959Z", "20001231235959.5Z"
ONE = b"\x03" + b"1.E+0"                      # NR3, canonical: 1


def stamp(utc: str = UTC, generalized: str = GENERALIZED, real: bytes = ONE) -> bytes:
    def tlv(tag: int, contents: bytes) -> bytes:
        return bytes([tag, len(contents)]) + contents
    body = tlv(0x17, utc.encode()) + tlv(0x18, generalized.encode()) + tlv(0x09, real)
    return tlv(0x30, body)


NOT_DER = {
    "utc without seconds": stamp(utc="9912312359Z"),
    "utc with an offset": stamp(utc="991231235959+0100"),
    "utc midnight as 24": stamp(utc="991231240000Z"),
    "generalized without Z": stamp(generalized="20001231235959.5"),
    "generalized without seconds": stamp(generalized="200012312359Z"),
    "generalized trailing zero": stamp(generalized="20001231235959.50Z"),
    "generalized zero fraction": stamp(generalized="20001231235959.0Z"),
    "generalized comma": stamp(generalized="20001231235959,5Z"),
    "generalized midnight as 24": stamp(generalized="20001231240000Z"),
    "real NR1": stamp(real=b"\x01" + b"1"),
    "real NR2": stamp(real=b"\x02" + b"1.0"),
    "real mantissa trailing zero": stamp(real=b"\x03" + b"10.E-1"),
    "real mantissa leading zero": stamp(real=b"\x03" + b"01.E+0"),
    "real plus sign": stamp(real=b"\x03" + b"+1.E+0"),
    "real exponent with plus": stamp(real=b"\x03" + b"1.E+1"),
    "real exponent leading zero": stamp(real=b"\x03" + b"1.E01"),
    "real space": stamp(real=b"\x03" + b" 1.E+0"),
}
CANONICAL = {
    "the example": stamp(),
    "generalized without fraction": stamp(generalized="20001231235959Z"),
    "midnight": stamp(utc="000101000000Z", generalized="20000101000000Z"),
    "real negative": stamp(real=b"\x03" + b"-15.E-3"),
    "real large exponent": stamp(real=b"\x03" + b"25.E10"),
}


@pytest.fixture(scope="module", params=["compiled", "interpreted"])
def converter(request):
    return cbuild.converter([SPEC], "--mode", request.param)


def decode(converter, data: bytes, *options: str):
    return converter.run("-p", "Stamps.Stamp", "-o", "null", *options, "-", input=data,
                         check=False)


@pytest.mark.parametrize("name", sorted(NOT_DER))
def test_non_canonical_forms_are_ber_but_not_der(converter, name):
    assert decode(converter, NOT_DER[name]).returncode == 0
    strict = decode(converter, NOT_DER[name], "--strict-der")
    assert strict.returncode == 1
    assert b"not canonical" in strict.stderr


@pytest.mark.parametrize("name", sorted(CANONICAL))
def test_canonical_forms_pass_strict_der(converter, name):
    result = decode(converter, CANONICAL[name], "--strict-der")
    assert result.returncode == 0, result.stderr


# ---- DER encoding of times given in their other BER forms --------------------------------

def times_in(der: bytes) -> tuple[str, str]:
    """The two time strings of a Stamp's DER (SEQUENCE of 17 .., 18 .., 09 ..)."""
    assert der[0] == 0x30 and der[1] < 0x80
    p = 2
    found = []
    for tag in (0x17, 0x18):
        assert der[p] == tag
        n = der[p + 1]
        found.append(der[p + 2:p + 2 + n].decode())
        p += 2 + n
    return found[0], found[1]


# (UTCTime in, GeneralizedTime in) -> their DER forms, worked out by hand
NORMALIZED = {
    "seconds added": (("9912312359Z", "200012312359Z"), ("991231235900Z", "20001231235900Z")),
    "hours only": ((UTC, "2000123123Z"), (UTC, "20001231230000Z")),
    "offset east": (("991231235959+0100", "20000101003000+0100"),
                    ("991231225959Z", "19991231233000Z")),
    "offset west, into the next year": (("991231235959-0130", "20001231230000-0230"),
                                        ("000101012959Z", "20010101013000Z")),
    "midnight as 24": (("991231240000Z", "20001231240000Z"), ("000101000000Z", "20010101000000Z")),
    "fraction trailing zeros": ((UTC, "20001231235959.50Z"), (UTC, "20001231235959.5Z")),
    "zero fraction": ((UTC, "20001231235959.000Z"), (UTC, "20001231235959Z")),
    "comma": ((UTC, "20001231235959,25Z"), (UTC, "20001231235959.25Z")),
    "leap day 2000": ((UTC, "20000228230000-0200"), (UTC, "20000229010000Z")),
    "no leap day 1900": ((UTC, "19000228230000-0200"), (UTC, "19000301010000Z")),
}


@pytest.mark.parametrize("name", sorted(NORMALIZED))
def test_times_are_encoded_in_their_der_form(converter, name):
    (utc, generalized), expected = NORMALIZED[name]
    out = converter.run("-p", "Stamps.Stamp", "-o", "der", "-",
                        input=stamp(utc, generalized)).stdout
    assert times_in(out) == expected
    # and that DER is what strict mode takes
    assert decode(converter, out, "--strict-der").returncode == 0


def test_a_local_time_decodes_but_has_no_der_form(converter):
    local = stamp(generalized="20001231235959.5")        # X.680 allows it, DER needs "Z"
    assert decode(converter, local).returncode == 0
    result = converter.run("-p", "Stamps.Stamp", "-o", "der", "-", input=local, check=False)
    assert result.returncode == 1
    assert b"value has no DER form" in result.stderr


@pytest.mark.parametrize("text", ["9912312359", "991331235959Z", "990230235959Z",
                                  "9912312360Z", "991231235959+2400", "99123123595Z"])
def test_utctime_that_is_not_a_time_is_refused(converter, text):
    result = decode(converter, stamp(utc=text))
    assert result.returncode == 1
    assert b"malformed contents" in result.stderr
