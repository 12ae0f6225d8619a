"""values.py: value notation read against its type, in the asn1tools convention."""
from __future__ import annotations

import math

import pytest


def values(spec, assignments: str, header="M DEFINITIONS ::= BEGIN") -> dict:
    graph = spec.load(f"{header}\n{assignments}\nEND")
    return {name.split(".", 1)[1]: v.value for name, v in graph.values.items()}


def test_simple_kinds(spec):
    got = values(spec, """
        b BOOLEAN ::= TRUE
        n NULL ::= NULL
        i INTEGER ::= -42
        r REAL ::= 2.5
        ri REAL ::= { mantissa 5, base 10, exponent -1 }
        inf REAL ::= PLUS-INFINITY
        s IA5String ::= "text"
        o OCTET STRING ::= 'DEADBEEF'H
        ob OCTET STRING ::= '00000001'B
        odd OCTET STRING ::= 'F'H
        """)
    assert got["b"] is True and got["n"] is None and got["i"] == -42
    assert got["r"] == 2.5 and got["ri"] == 0.5 and got["inf"] == math.inf
    assert got["s"] == "text"
    assert got["o"] == b"\xde\xad\xbe\xef" and got["ob"] == b"\x01" and got["odd"] == b"\xf0"


def test_bit_strings(spec):
    """asn1c test 23: { first, third } is '101'B."""
    got = values(spec, """
        BS ::= BIT STRING { first(0), third(2), twenty-eight(28) }
        a BS ::= { first, third }
        b BS ::= '101'B
        c BS ::= 'A'H
        d BS ::= {}
        """)
    assert got["a"] == got["b"] == (b"\xa0", 3)
    assert got["c"] == (b"\xa0", 4)
    assert got["d"] == (b"", 0)


def test_values_past_what_c_holds_are_errors_not_memory_or_tracebacks(spec):
    """Found by fuzz/mutate_specs.py: `{ bit }` of a bit numbered 10^20 was built bit by
    bit (the process was killed for memory), and a REAL past a double's range ended in an
    internal error (OverflowError)."""
    assert values(spec, """
        zero REAL ::= { mantissa 0, base 10, exponent 400 }
        top REAL ::= { mantissa 1, base 10, exponent 308 }
        """) == {"zero": 0.0, "top": 1e308}
    found = spec.error_places("""
        M DEFINITIONS ::= BEGIN
        BS ::= BIT STRING { low(0), far(99999999999999999999) }
        big BS ::= { low, far }
        r REAL ::= { mantissa 1, base 2, exponent 99999999999999999999 }
        s REAL ::= 1""" + "0" * 400 + """
        END""")
    assert found == [
        (4, 12, "this value has 100000000000000000000 bits, more than this compiler writes "
                "out (16777216 at most)"),
        (5, 12, "this REAL value is beyond the range of a C double, which the runtime "
                "keeps REALs in"),
        (6, 12, "this REAL value is beyond the range of a C double, which the runtime "
                "keeps REALs in")]


def test_named_numbers_win_over_value_references(spec):
    """asn1c test 10: in Type2's values `alpha` is its named number 3; in its named
    numbers, `beta(alpha)` refers to the value alpha = 1."""
    got = values(spec, """
        alpha INTEGER ::= 1
        Type2 ::= INTEGER { alpha(3), beta(alpha) }
        gamma Type2 ::= beta
        delta Type2 ::= alpha
        """)
    assert (got["gamma"], got["delta"]) == (1, 3)


def test_enumerated_values_are_identifiers(spec):
    got = values(spec, """
        Color ::= ENUMERATED { red, green }
        c Color ::= green
        d Color ::= c
        """)
    assert got == {"c": "green", "d": "green"}


def test_object_identifiers(spec):
    got = values(spec, """
        rsadsi OBJECT IDENTIFIER ::= { iso(1) member-body(2) us(840) 113549 }
        pkcs1 OBJECT IDENTIFIER ::= { rsadsi pkcs(1) 1 }
        ds OBJECT IDENTIFIER ::= { joint-iso-itu-t ds(5) }
        ce OBJECT IDENTIFIER ::= { ds 29 }
        itu OBJECT IDENTIFIER ::= { itu-t recommendation x 400 }
        arc INTEGER ::= 7
        with-int OBJECT IDENTIFIER ::= { ce arc }
        rel RELATIVE-OID ::= { 3 2 1 }
        joined OBJECT IDENTIFIER ::= { ce rel }
        """)
    assert got["rsadsi"] == "1.2.840.113549"
    assert got["pkcs1"] == "1.2.840.113549.1.1"
    assert got["ce"] == "2.5.29"
    assert got["itu"] == "0.0.24.400"
    assert got["with-int"] == "2.5.29.7"
    assert got["rel"] == "3.2.1"
    assert got["joined"] == "2.5.29.3.2.1"


def test_structured_values(spec):
    got = values(spec, """
        S ::= SEQUENCE { a INTEGER, b BOOLEAN OPTIONAL, c SEQUENCE OF IA5String }
        C ::= CHOICE { x INTEGER, y S }
        s S ::= { a 1, c { "p", "q" } }
        c C ::= y : { a 2, b FALSE, c {} }
        """)
    assert got["s"] == {"a": 1, "c": ["p", "q"]}
    assert got["c"] == ("y", {"a": 2, "b": False, "c": []})


def test_character_string_notations(spec):
    """asn1c test 80, X.680 41.8: Tuple, Quadruple, and lists of them."""
    got = values(spec, """
        nul IA5String ::= {0, 0}
        space BMPString ::= {0, 0, 0, 32}
        greek BMPString ::= {0, 0, 3, 112}
        mixed UTF8String ::= { "ab", {0, 0, 0, 33}, space-u }
        space-u UTF8String ::= " "
        multi IA5String ::= "one
            two"
        """)
    assert got["nul"] == "\x00" and got["space"] == " " and got["greek"] == "\u0370"
    assert got["mixed"] == "ab! "
    assert got["multi"] == "onetwo"


def test_open_type_values_are_their_der_encoding(spec):
    """X411's `DEFAULT NULL:NULL`: an open type's value is a complete encoding."""
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { v [0] TYPE-IDENTIFIER.&Type DEFAULT NULL:NULL,
                         w [1] ANY DEFAULT INTEGER:300 }
        END""")
    v, w = graph["M.T"].components
    assert v.default == b"\x05\x00" and w.default == b"\x02\x02\x01\x2c"


def test_default_values(spec):
    graph = spec.load("""
        M DEFINITIONS AUTOMATIC TAGS ::= BEGIN
        E ::= ENUMERATED { a, b, ra-default }
        T ::= SEQUENCE {
            e E DEFAULT ra-default,
            n INTEGER DEFAULT ten,
            s SEQUENCE { m INTEGER } DEFAULT { m 5 },
            z NULL DEFAULT NULL,
            l SEQUENCE OF INTEGER DEFAULT {} }
        ten INTEGER ::= 10
        END""")
    defaults = {c.name: (c.has_default, c.default) for c in graph["M.T"].components}
    assert defaults == {"e": (True, "ra-default"), "n": (True, 10), "s": (True, {"m": 5}),
                        "z": (True, None), "l": (True, [])}


@pytest.mark.parametrize("assignment, message", [
    ("v INTEGER ::= TRUE", "TRUE is not a valid INTEGER value"),
    ("v BOOLEAN ::= 5", "5 is not a valid BOOLEAN value"),
    ("v NumericString ::= \"12a\"", "'a' is not a character of NumericString"),
    ("v OBJECT IDENTIFIER ::= { nowhere 1 }", "'nowhere' is not defined"),
    ("v SEQUENCE { a INTEGER } ::= { b 1 }", "has no component 'b'"),
    ("v SEQUENCE { a INTEGER } ::= {}", "the value has no 'a', which is not OPTIONAL"),
    ("v INTEGER (0..9) ::= 10", "(10) is not permitted by the constraint ( 0 .. 9 )"),
    ("v IA5String (SIZE (2)) ::= \"abc\"", "has size 3, not permitted"),
    ("v BIT STRING { a(0) } ::= { b }", "'b' is not a named bit of this BIT STRING"),
    ("v INTEGER ::= undefined-x", "'undefined-x' is not defined"),
])
def test_bad_values(spec, assignment, message):
    errors = spec.errors(f"M DEFINITIONS ::= BEGIN\n{assignment}\nEND")
    assert any(message in e for e in errors), errors


def test_circular_values(spec):
    assert spec.errors("""
        M DEFINITIONS ::= BEGIN
        alpha INTEGER ::= beta
        beta INTEGER ::= alpha
        END""") == ["the value of 'alpha' depends on itself"]


def test_string_value_compatibility(spec):
    """asn1c tests 77 and 78: PrintableString values fit UniversalString; GeneralString
    values do not fit UTF8String."""
    graph = spec.load("""
        M DEFINITIONS AUTOMATIC TAGS ::= BEGIN
        T ::= SEQUENCE { u UniversalString DEFAULT p }
        p PrintableString ::= "Rwanda"
        END""")
    assert graph["M.T"].components[0].default == "Rwanda"
    errors = spec.errors("""
        M DEFINITIONS AUTOMATIC TAGS ::= BEGIN
        T ::= SEQUENCE { u UTF8String DEFAULT g }
        g GeneralString ::= "Cyprus"
        END""")
    assert errors == ["bad DEFAULT value for 'u': 'g' is a GeneralString value, but a "
                      "UTF8String is expected"]


def test_boolean_numbers_are_read_with_a_warning(spec):
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { b BOOLEAN DEFAULT 1 }
        END""")
    assert graph["M.T"].components[0].default is True
    assert "X.680 wants TRUE" in graph.diagnostics.items[0].message


def test_parameterized_values(spec):
    got = values(spec, """
        T{INTEGER:base} ::= SEQUENCE { x INTEGER DEFAULT base }
        U ::= T{7}
        u U ::= { x 3 }
        """)
    assert got["u"] == {"x": 3}
