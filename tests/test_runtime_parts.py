"""The runtime's cold parts are linked only by the specs that need them.

The tables reach each part through the spec's `asn1h_codecs` (docs/runtime.md), so a
program linked with --gc-sections (as docs/benchmarks.md measures code) keeps only the
parts its types use: SET contents, ENUMERATED (and the encoder's test of an extensible
one's numbers), times, REAL, unknown extensions, values kept as received
(an ANY), open types resolved through their tables, the general test of a DEFAULT value,
the general constraint checker, the effective tags of a member that takes the general
route of tags (its type has a list of tags, its tag is long, its value is stored through a
pointer).  Each spec below needs some of them, or none; its converter keeps exactly
those, and still round-trips a value.
"""
from __future__ import annotations

import subprocess

import asn1tools
import pytest

import cbuild
from asn1c_hybrid import api

FLAGS = ("-O1", "-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections")
PARTS = {"set": "asn1h_dec_set", "enumerated": "asn1h_dec_enumerated",
         "extensible enumerated": "asn1h_enc_enumerated",
         "time": "asn1h_dec_time", "real": "asn1h_dec_real",
         "extensions": "asn1h_take_unknown", "received": "asn1h_put_received",
         "open types": "asn1h_resolve_open_types",
         "general tags": "asn1h_member_tags"}
TABLE = """ALG ::= CLASS { &id INTEGER UNIQUE, &Type } WITH SYNTAX { ID &id TYPE &Type }
Algs ALG ::= { { ID 1 TYPE INTEGER } | { ID 2 TYPE BOOLEAN } }
"""
# (the type's body, the parts it needs, a DER value of it)
SPECS = {
    "plain": ("SEQUENCE { a INTEGER, b OCTET STRING }", set(), "3006020105040161"),
    # an upper size bound past int64_t is no bound, as MAX (a lower one is an error)
    "size past 64 bits": ("SEQUENCE { s OCTET STRING (SIZE (1..99999999999999999999)) }",
                          set(), "3003040161"),
    "set": ("SET { a [0] INTEGER, b [1] BOOLEAN }", {"set"}, "3106800105810100"),
    "time": ("SEQUENCE { t UTCTime }", {"time"}, "300f170d3236313132363136303030305a"),
    "real": ("SEQUENCE { r REAL }", {"real"}, "3005090380fb05"),
    "enumerated": ("SEQUENCE { e ENUMERATED { a, b } }", {"enumerated"}, "30030a0101"),
    # the ends of the 64 bits that the tables keep an ENUMERATED's numbers in (asn1tools'
    # DER)
    "enumerated ends": ("SEQUENCE { e ENUMERATED { lo(-9223372036854775808), "
                        "hi(9223372036854775807) } }", {"enumerated"}, "300a0a088000000000000000"),
    "extensible enumerated": ("SEQUENCE { e ENUMERATED { a, b, ... } }",
                              {"enumerated", "extensible enumerated"}, "30030a0101"),
    "extensions": ("SEQUENCE { a INTEGER, ... }", {"extensions", "received"}, "3003020105"),
    # an ANY without a table is written back as received, never resolved
    "any": ("SEQUENCE { id INTEGER, value ANY DEFINED BY id }", {"received"},
            "3006020101020105"),
    "open types": ("SEQUENCE { id ALG.&id ({Algs}), value ALG.&Type ({Algs}{@id}) }\n"
                   + TABLE, {"received", "open types"}, "3006020101020105"),
    # an explicit tag around a CHOICE, or around a type of one tag, takes the usual route
    "explicit": ("SEQUENCE { c [0] CHOICE { a INTEGER, b BOOLEAN }, d [1] EXPLICIT INTEGER }",
                 set(), "300aa003020105a103020106"),
    # a PDU's own list of tags is read without the part; a member's effective tags take it
    # when its type has two tags, its tag number is past 16 bits' packing, or its value is
    # stored through a pointer
    "tagged pdu": ("[APPLICATION 1] EXPLICIT SEQUENCE { a INTEGER }", set(),
                   "61053003020105"),
    "tag list": ("SEQUENCE { a U }\nU ::= [APPLICATION 1] EXPLICIT SEQUENCE { b INTEGER }",
                 {"general tags"}, "300761053003020105"),
    "long tag": ("SEQUENCE { a [20000] INTEGER }", {"general tags"}, "30069f819c200105"),
    # the largest tag number the runtime keeps (typegraph.MAX_TAG_NUMBER; asn1tools' DER)
    "largest tag": ("SEQUENCE { a [1073741823] INTEGER }", {"general tags"},
                    "30089f83ffffff7f0105"),
    "pointer": ("SEQUENCE { a INTEGER, next T OPTIONAL }", {"general tags"},
                "30080201053003020106"),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_program_links_the_parts_its_types_need(tmp_path, name):
    body, parts, der = SPECS[name]
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted", "--encoding", "ber")
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    symbols = {line.split()[-1] for line in subprocess.run(
        ["nm", str(program.program)], capture_output=True, text=True,
        check=True).stdout.splitlines()}
    assert {p for p, symbol in PARTS.items() if symbol in symbols} == parts
    data = bytes.fromhex(der)
    assert program.run("-p", "Parts.T", "-o", "der", "-", input=data).stdout == data


VALUES_SPEC = """Values DEFINITIONS IMPLICIT TAGS ::= BEGIN
T ::= SEQUENCE { a INTEGER, b OCTET STRING DEFAULT 'C0FFEE'H }
unusedOid OBJECT IDENTIFIER ::= { 1 2 840 113549 1 1 11 }
unusedOctets OCTET STRING ::= 'DEADBEEFCAFE'H
END
"""


@pytest.mark.parametrize("level", ["-O2", "-Os"])
def test_a_program_keeps_none_of_the_values_it_does_not_use(tmp_path, level):
    """The octets of a value the program does not use are left out by the link, beside a
    DEFAULT's that it keeps (had they been string literals, they would share one section
    of merged strings, kept whole for the DEFAULT's sake)."""
    spec = tmp_path / "values.asn"
    spec.write_text(VALUES_SPEC)
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted")
    program = cbuild.build_program(out, "spec", flags=(level, *FLAGS[1:]))
    image = program.program.read_bytes()
    assert bytes.fromhex("2a864886f70d01010b") not in image
    assert bytes.fromhex("deadbeefcafe") not in image
    assert bytes.fromhex("c0ffee") in image
    written = program.run("-p", "Values.T", "-o", "der", "-",
                          input=bytes.fromhex("3008020105040399ffee")).stdout
    assert written == bytes.fromhex("3008020105040399ffee")
    assert program.run("-p", "Values.T", "-o", "der", "-",   # the DEFAULT: left out
                       input=bytes.fromhex("30080201050403c0ffee")).stdout == \
        bytes.fromhex("3003020105")


POINTER_BER_MAIN = r"""
#include <stdio.h>
#include "spec.h"
int main(void)
{
    static const uint8_t der[] = {0x30, 0x08, 0x02, 0x01, 0x05,     /* { a 5, next { a 6 } } */
                                  0x30, 0x03, 0x02, 0x01, 0x06};
    static uint8_t memory[4096];
    char message[128];
    T value;
    asn1h_arena arena;
    asn1h_error err;
    asn1h_arena_init(&arena, memory, sizeof memory, 0);
    asn1h_decode(&T_type, &value, der, sizeof der, &arena, NULL, NULL, &err);
    asn1h_error_format(&err, message, sizeof message);
    printf("%s at %u\n", message, (unsigned)err.offset);
    return 0;
}
"""


def test_ber_on_a_build_without_it_refuses_a_member_of_the_general_route(tmp_path):
    """A build without BER leaves the general route's member tags out of the spec's parts:
    BER called on it anyway refuses such a member (here `next`, at its TLV) cleanly."""
    body = SPECS["pointer"][0]
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--mode", "interpreted",
                          "--encoding", "uper")
    assert "asn1h_member_tags" not in (out / "spec.c").read_text()
    main = tmp_path / "ber_main.c"
    main.write_text(POINTER_BER_MAIN)
    program = cbuild.build_program(out, "spec", main, program="ber")
    assert program.run().stdout == b"Parts.T.next: malformed contents at 5\n"


BER_MAIN = r"""
#include "spec.h"
int main(void)
{
    static const uint8_t der[] = { 0x30, 0x03, 0x02, 0x01, 0x05 };
    static uint8_t memory[4096], out[64];
    T value;
    asn1h_arena arena;
    asn1h_error err;
    size_t len;
    asn1h_arena_init(&arena, memory, sizeof memory, 0);
    (void)asn1h_decode(&T_type, &value, der, sizeof der, &arena, NULL, NULL, &err);
    return (int)asn1h_encode(&T_type, &value, out, sizeof out, &len, &err);
}
"""


@pytest.mark.parametrize("body, sorts", [("SEQUENCE OF INTEGER (0..7)", False),
                                         ("SET OF INTEGER (0..7)", True)])
def test_canonical_per_is_per_code_that_a_ber_program_does_not_link(tmp_path, body, sorts):
    """--canonical (ASN1H_PER_CANONICAL) sorts a SET OF (elements 5, 1, 3 as 1, 3, 5: a
    count of 3, then 001 011 101) and leaves a SEQUENCE OF as it is.  The sorting is the
    PER encoder's own, not a part of asn1h_codecs, which every program links: a BER
    program of the same build (every rule) links no PER code."""
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {body}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", "interpreted")
    converter = cbuild.build_program(out, "spec", flags=FLAGS)
    given = bytes.fromhex("03" "a580")      # 3 elements: 101 001 011 (and padding)
    written = converter.run("-p", "Parts.T", "-i", "uper", "-o", "uper", "--canonical", "-",
                            input=given).stdout
    assert written == (bytes.fromhex("03" "2e80") if sorts else given)
    main = tmp_path / "ber_main.c"
    main.write_text(BER_MAIN)
    ber = cbuild.build_program(out, "spec", main, flags=FLAGS, program="ber")
    symbols = subprocess.run(["nm", str(ber.program)], capture_output=True, text=True,
                             check=True).stdout
    assert "asn1h_encode" in symbols
    assert "_per" not in symbols.replace("asn1h_kept_in_per", "")


def tlv(identifier: int, contents: bytes) -> bytes:
    return bytes([identifier, len(contents)]) + contents


# BER's forms of strings and times beside DER's: each (name, the value's encoding, where
# it is refused) decodes to DER_VALUE in a build of BER, and is refused at its contents by
# a build of DER's forms.
DER_SPEC = "SEQUENCE { n INTEGER, s OCTET STRING, b BIT STRING, t UTCTime }"
N, S, B = tlv(0x02, b"\x05"), tlv(0x04, b"ab"), tlv(0x03, b"\x07\x80")
TIME = tlv(0x17, b"261126160000Z")
DER_VALUE = tlv(0x30, N + S + B + TIME)
BER_FORMS = [
    ("a constructed OCTET STRING",
     tlv(0x30, N + tlv(0x24, tlv(0x04, b"a") + tlv(0x04, b"b")) + B + TIME), "7: Parts.T.s"),
    ("a constructed BIT STRING", tlv(0x30, N + S + tlv(0x23, B) + TIME), "11: Parts.T.b"),
    ("a time with an offset", tlv(0x30, N + S + B + tlv(0x17, b"2611261700+0100")),
     "15: Parts.T.t"),
]
TIME_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "spec.h"
int main(void)
{
    static const char when[] = "2611261700+0100";   /* 16:00 UTC, not DER's form */
    static uint8_t out[64];
    T value;
    asn1h_error err;
    size_t len, i;
    memset(&value, 0, sizeof value);
    value.n.v = 5;
    value.t.buf = (const uint8_t *)when;
    value.t.len = sizeof when - 1;
    if (asn1h_encode(&T_type, &value, out, sizeof out, &len, &err) != ASN1H_OK) {
        printf("%s\n", err.code == ASN1H_ERR_NO_DER ? "no DER form" : "another error");
        return 1;
    }
    for (i = 0; i < len; i++)
        printf("%02x", out[i]);
    return 0;
}
"""


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_a_der_build_reads_ders_forms_alone_and_links_none_of_the_others(tmp_path, mode):
    """`--encoding der`: the program reads and writes DER as a `ber` build does, refuses
    BER's other forms of strings and times (whatever the options) where the `ber` build
    takes them, and links none of their code: the reading of constructed strings, the
    general time parser, the conversion of a time to DER.  Lengths are BER's in both,
    DER's with --strict-der."""
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\nT ::= {DER_SPEC}\nEND\n")
    main = tmp_path / "time.c"
    main.write_text(TIME_MAIN)
    builds = {}
    for rules in ("ber", "der"):
        out = cbuild.generate([spec], tmp_path / rules, "--name", "spec", "--converter",
                              "--mode", mode, "--encoding", rules)
        builds[rules] = (cbuild.build_program(out, "spec", flags=FLAGS),
                         cbuild.build_program(out, "spec", main, flags=FLAGS, program="time"))
    ber, der = (builds[rules][0] for rules in ("ber", "der"))
    value = DER_VALUE
    for program in (ber, der):
        assert program.run("-p", "Parts.T", "-", input=value).stdout == value
    for name, data, where in BER_FORMS:
        assert ber.run("-p", "Parts.T", "-", input=data).stdout == value, name
        refused = der.run("-p", "Parts.T", "-", input=data, check=False)
        assert (refused.returncode, refused.stdout) == (1, b""), name
        assert refused.stderr.decode() == f"-:{where}: not canonical\n", name
    # the other DER rules still follow --strict-der: a length in more octets than needed,
    # an indefinite length
    for lengths in (b"\x30\x81" + DER_VALUE[1:], b"\x30\x80" + N + S + B + TIME + b"\0\0"):
        for program in (ber, der):
            assert program.run("-p", "Parts.T", "-", input=lengths).stdout == value
            assert program.run("-p", "Parts.T", "--strict-der", "-", input=lengths,
                               check=False).returncode == 1
    # encoding a time in another form: brought to DER, or refused (ASN1H_ERR_NO_DER)
    written = builds["ber"][1].run().stdout.decode()
    assert written.endswith(TIME.hex())
    refused = builds["der"][1].run(check=False)
    assert (refused.returncode, refused.stdout) == (1, b"no DER form\n")
    symbols = {rules: {line.split()[-1] for line in subprocess.run(
        ["nm", str(builds[rules][0].program)], capture_output=True, text=True,
        check=True).stdout.splitlines()} for rules in builds}
    others = {"asn1h_dec_constructed", "parse_time", "asn1h_der_time"}
    assert others <= symbols["ber"]
    assert not others & symbols["der"]


# Values kept as received: an open type, and an unknown addition of an extensible
# SEQUENCE.  A build of BER writes them back with DER's framing; a build of DER's forms
# writes back those whose framing is DER's already and refuses the others when encoding
# (it reads them, as it reads BER's lengths elsewhere), without the code that redoes it.
KEPT_SPEC = ("T ::= SEQUENCE { id INTEGER, e E, value ANY DEFINED BY id }\n"
             "E ::= SEQUENCE { a INTEGER, ... }")
ID, A, ADDITION, ANY = tlv(0x02, b"\x01"), tlv(0x02, b"\x05"), tlv(0x81, b"\x07"), S
KEPT_VALUE = tlv(0x30, ID + tlv(0x30, A + ADDITION) + ANY)
# (name, the value with BER's framing, what the BER build writes back, the component whose
# framing it is)
KEPT_BER = [
    ("an open type's length in two octets",
     tlv(0x30, ID + tlv(0x30, A + ADDITION) + b"\x04\x81\x02ab"), KEPT_VALUE,
     "Parts.T.value"),
    ("an open type's indefinite length",
     tlv(0x30, ID + tlv(0x30, A + ADDITION) + b"\x24\x80" + S + b"\0\0"),
     tlv(0x30, ID + tlv(0x30, A + ADDITION) + tlv(0x24, S)), "Parts.T.value"),
    ("an addition's length in two octets",
     tlv(0x30, ID + tlv(0x30, A + b"\x81\x81\x01\x07") + ANY), KEPT_VALUE, "Parts.T.e"),
]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_a_der_build_writes_back_kept_values_in_ders_framing_alone(tmp_path, mode):
    spec = tmp_path / "parts.asn"
    spec.write_text(f"Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\n{KEPT_SPEC}\nEND\n")
    ber, der = (cbuild.build_program(
        cbuild.generate([spec], tmp_path / rules, "--name", "spec", "--converter",
                        "--mode", mode, "--encoding", rules), "spec", flags=FLAGS)
        for rules in ("ber", "der"))
    for program in (ber, der):
        assert program.run("-p", "Parts.T", "-", input=KEPT_VALUE).stdout == KEPT_VALUE
    for name, data, written, where in KEPT_BER:
        assert ber.run("-p", "Parts.T", "-", input=data).stdout == written, name
        assert der.run("-p", "Parts.T", "-o", "null", "-", input=data).returncode == 0
        refused = der.run("-p", "Parts.T", "-", input=data, check=False)
        assert (refused.returncode, refused.stdout) == (1, b""), name
        assert refused.stderr.decode() == \
            f"-:0: encoding: {where}: value has no DER form\n", name
    ber_symbols, der_symbols = (subprocess.run(["nm", str(build.program)],
                                               capture_output=True, text=True,
                                               check=True).stdout for build in (ber, der))
    assert "received_write" in ber_symbols and "received_write" not in der_symbols


def test_der_names_bers_restriction_and_ber_beside_it_wins():
    """der is BER with DER's forms of strings and times: named beside ber, ber (which
    reads them all) is the build's rule; an unknown rule is refused with the list of known
    ones."""
    assert api.encoding_rules(["der"]) == ("der",)
    assert api.encoding_rules(["uper", "der"]) == ("der", "uper")
    assert api.encoding_rules(["der", "aper", "ber"]) == ("ber", "aper")
    with pytest.raises(api.UsageError, match="carries ber, der, uper, aper"):
        api.encoding_rules(["cer"])


# DEFAULT members (X.690 11.5: DER leaves out a value equal to the default).  A zero
# default of the usual kinds (FALSE, 0, {}) the encoder tests inline; any other default
# needs the general test (asn1h_is_default, the "defaults" part).
DEFAULTS_SPEC = ("SEQUENCE {{ a [0] INTEGER DEFAULT {a}, b [1] BOOLEAN DEFAULT {b}, "
                 "c [2] SEQUENCE OF INTEGER DEFAULT {{}}, "
                 "d [3] ENUMERATED {{ zero, one }} DEFAULT {d}, {more}n INTEGER }}")
DEFAULTS = {   # the defaults, then the contents of members a, b, d given their defaults
    "zero": (dict(a="0", b="FALSE", d="zero", more=""), "800100" "810100" "830100"),
    "nonzero": (dict(a="5", b="TRUE", d="one", more=""), "800105" "8101ff" "830101"),
    "string": (dict(a="0", b="FALSE", d="zero", more="s [4] OCTET STRING DEFAULT 'AB'H, "),
               "800100" "810100" "830100" "8401ab"),
}
ZERO_BIG_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "spec.h"
int main(void)
{
    static const uint8_t zero[3] = { 0, 0, 0 };
    static uint8_t out[64];
    T value;
    asn1h_error err;
    size_t len, i;
    memset(&value, 0, sizeof value);
    T_set_a(&value);                /* 0 in three octets: still the default */
    value.a.big = zero;
    value.a.big_len = sizeof zero;
    value.n.v = 5;
    if (asn1h_encode(&T_type, &value, out, sizeof out, &len, &err) != ASN1H_OK)
        return 1;
    for (i = 0; i < len; i++)
        printf("%02x", out[i]);
    return 0;
}
"""


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_der_leaves_out_defaults_and_links_the_general_test_only_when_needed(
        tmp_path, mode, name):
    defaults, given = DEFAULTS[name]
    spec = tmp_path / "parts.asn"
    spec.write_text("Parts DEFINITIONS IMPLICIT TAGS ::= BEGIN\n"
                    f"T ::= {DEFAULTS_SPEC.format(**defaults)}\nEND\n")
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", mode, "--encoding", "ber")
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    n = "020107"
    der = tlv(0x30, bytes.fromhex(n))
    contents = bytes.fromhex(given[:12] + "a200" + given[12:] + n)
    # every DEFAULT member given its default (c as {}), in BER: DER has none of them
    assert program.run("-p", "Parts.T", "-", input=tlv(0x30, contents)).stdout == der
    # a value other than the default stays: a = 6, c = { 1 }
    other = bytes.fromhex("800106" + given[6:12] + "a203020101" + given[12:] + n)
    assert program.run("-p", "Parts.T", "-", input=tlv(0x30, other)).stdout == \
        tlv(0x30, bytes.fromhex("800106" + "a203020101" + n))
    symbols = subprocess.run(["nm", str(program.program)], capture_output=True, text=True,
                             check=True).stdout
    assert ("asn1h_is_default" in symbols) == (name != "zero")
    if name == "zero":
        main = tmp_path / "zero.c"
        main.write_text(ZERO_BIG_MAIN)
        written = cbuild.build_program(out, "spec", main, flags=FLAGS, program="zero").run()
        assert written.stdout.decode() == tlv(0x30, bytes.fromhex("020105")).hex()


# Constraints that asn1h_check (asn1h_ber.h) decides inline, one SIZE interval of a list or
# of an octet string, need no general checker (asn1h_check.c's asn1h_satisfies, the "check"
# part): BER decodes and encodes without it, PER with asn1h_satisfies_size, and all refuse
# values outside them.  Beside them, an INTEGER range of a storage of int64_t's numbers,
# or a BIT STRING's SIZE, needs asn1h_satisfies_numbers alone.  A list's lower bound alone
# is not PER-visible: PER writes its length as if unconstrained, and the decoder checks it.
CHECKED = ("SEQUENCE {{ l SEQUENCE SIZE ({lb}..MAX) OF INTEGER, s OCTET STRING (SIZE (1..4)),"
           " {more}n INTEGER }}")
GENERAL_CHECKS = {"inline": "", "range": "r INTEGER (0..7), ",
                  "bits": "b BIT STRING (SIZE (1..8)), ",
                  "utf8": "u UTF8String (SIZE (1..2)), "}
CHECKER = {"inline": "asn1h_satisfies_size", "range": "asn1h_satisfies_numbers",
           "bits": "asn1h_satisfies_numbers", "utf8": "asn1h_satisfies"}
# beyond the constraint, in DER (in UPER these are PER's to decide)
OUT_OF_RANGE = {"range": [("r", 9)], "bits": [("b", (b"\x00\x00", 16))]}
INPUT = {"der": "ber", "uper": "uper"}   # the converter reads DER as BER
CHECKED_VALUES = {"inline": {}, "range": {"r": 3}, "bits": {"b": (b"\x80", 1)},
                  "utf8": {"u": "é"}}
CONSTRAINT_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "spec.h"
static void encode_both(const T *value)
{
    static uint8_t out[64];
    asn1h_error err;
    size_t len;
    printf("%d %d\n", (int)asn1h_encode(&T_type, value, out, sizeof out, &len, &err),
           (int)spec_encode_per(&T_type, value, ASN1H_UPER, out, sizeof out, &len, &err));
}
int main(void)
{
    static asn1h_int item;
    T value;
    printf("%d\n", (int)ASN1H_ERR_CONSTRAINT);
    memset(&value, 0, sizeof value);
    value.s.buf = (const uint8_t *)"abcde";
    value.s.len = 2;
    value.n.v = 5;
    encode_both(&value);            /* no element */
    value.l.items = &item;
    value.l.count = 1;
    value.s.len = 5;
    encode_both(&value);            /* five octets */
    return 0;
}
"""


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("name", sorted(GENERAL_CHECKS))
def test_constraints_checked_inline_link_no_general_checker(tmp_path, mode, name):
    def spec_text(lb: int, more: str) -> str:
        return (f"Parts DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n"
                f"T ::= {CHECKED.format(lb=lb, more=more)}\nEND\n")
    more = GENERAL_CHECKS[name]
    spec = tmp_path / "parts.asn"
    spec.write_text(spec_text(1, more))
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "spec", "--converter",
                          "--mode", mode)
    program = cbuild.build_program(out, "spec", flags=FLAGS)
    symbols = {line.split()[-1] for line in subprocess.run(
        ["nm", str(program.program)], capture_output=True, text=True,
        check=True).stdout.splitlines()}
    # the general checker, the numbers' checker, or (for PER, which asks spec->codecs) the
    # size check alone
    assert symbols & set(CHECKER.values()) == {CHECKER[name]}
    # asn1tools, with the list's lower bound 0, writes the values; ours refuses the empty
    # list and the five octets, in DER and in UPER
    relaxed = {rule: asn1tools.compile_string(spec_text(0, more), rule)
               for rule in ("der", "uper")}
    good = {"l": [7], "s": b"ab", "n": 5, **CHECKED_VALUES[name]}
    for rule in ("der", "uper"):
        data = relaxed[rule].encode("T", good)
        run = program.run("-p", "Parts.T", "-i", INPUT[rule], "-o", rule, "-", input=data)
        assert run.stdout == data
        # in UPER, SIZE (1..4) is PER's to decide: it writes the length in two bits
        refusals = [("l", []), ("s", b"abcde")] + OUT_OF_RANGE.get(name, [])
        for member, bad in refusals[:None if rule == "der" else 1]:
            data = relaxed[rule].encode("T", {**good, member: bad})
            refused = program.run("-p", "Parts.T", "-i", INPUT[rule], "-o", rule, "-",
                                  input=data, check=False)
            assert refused.returncode != 0
            assert f": Parts.T.{member}: value out of range" in refused.stderr.decode()
    main = tmp_path / "encode.c"
    main.write_text(CONSTRAINT_MAIN)
    encoded = cbuild.build_program(out, "spec", main, flags=FLAGS, program="encode").run()
    lines = encoded.stdout.decode().split("\n")
    # each value refused by the BER and the PER encoder, with ASN1H_ERR_CONSTRAINT
    assert lines[1:] == [f"{lines[0]} {lines[0]}"] * 2 + [""]
