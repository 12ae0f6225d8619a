"""Subtype constraints checked at run time, on the compiled, interpreted and mixed paths.

The values come from asn1tools, which encodes them without looking at constraints; which
of them the specification allows is decided here by predicates written from the comments
of tests/specs/constraints/Constraints.asn (X.680's reading of each constraint), not by the
code under test.  For every value, on every path:
  - decoding accepts it exactly when the predicate does, and re-encodes it to asn1tools'
    DER; otherwise it fails with the constraint error and the path of the offending
    component, also when the output is JER (whose printer checks nothing: the decoder
    refuses it, not only the DER encoder after it);
  - decoding with ASN1H_SKIP_CONSTRAINTS (--skip-constraints) accepts it, and encoding the
    decoded value refuses it again: the encoder never writes a value outside its
    constraints.
"""
from __future__ import annotations

import json
from pathlib import Path

import asn1tools
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cbuild
import specbuilds
from asn1c_hybrid import api
from asn1c_hybrid.emit.constraints import INT64_MAX, INT64_MIN, runtime_check

SPEC = Path(__file__).resolve().parent / "specs" / "constraints" / "Constraints.asn"
MODES = list(specbuilds.MODES)
CONSTRAINT_ERROR = "value out of range"

HEX = "ABCDEF0123456789"

# What X.680 lets each component of Record be (the comments of the module).
ALLOWED = {
    "small": lambda v: 1 <= v <= 10,
    "narrower": lambda v: 3 <= v <= 4,
    "signed": lambda v: -300 <= v <= -100 or 100 <= v <= 300,
    "huge": lambda v: v >= 0,
    "wide": lambda v: -5 <= v <= 5_000_000_000_000,
    "prime": lambda v: v in (2, 3, 5, 7),
    "loose": lambda v: True,
    "code": lambda v: 1 <= len(v) <= 4 and all(c in HEX for c in v),
    "digits": lambda v: len(v) == 3,
    "name": lambda v: 1 <= len(v) <= 3,
    "wide2": lambda v: len(v) == 2,
    "flags": lambda v: 8 <= v[1] <= 16,
    "blob": lambda v: len(v) in (0, 1, 2, 4),
    "teletex": lambda v: 2 <= len(v) <= 3,
    "list": lambda v: 1 <= len(v) <= 3 and all(1 <= x <= 10 for x in v),
    "bag": lambda v: len(v) == 2 and all(ALLOWED["code"](c) for c in v),
    "looseList": lambda v: True,
    "inline": lambda v: 0 <= v <= 7,
    "inlineList": lambda v: len(v) <= 1 and all(ALLOWED["list"](x) for x in v),
}
ORDER = list(ALLOWED)


def violations(value: dict) -> list[str]:
    """The components (in encoding order) whose values the constraints forbid."""
    return [name for name in ORDER if name in value and not ALLOWED[name](value[name])]


def bits(data: bytes, count: int) -> tuple:
    return (data, count)


# -- values: around every bound, in and out ---------------------------------------------
def near(*bounds):
    return st.sampled_from(sorted({b + d for b in bounds for d in (-1, 0, 1)}))


code = st.text(alphabet=HEX + "GZ", min_size=0, max_size=5)
small = st.integers(0, 11)
components = {
    "small": small,
    "narrower": st.integers(3, 4),           # Narrower's C type holds only 1..10
    "signed": near(-300, -100, 100, 300) | st.integers(-400, 400),
    "huge": near(0) | st.integers(-2**70, 2**70),
    "wide": near(-5, 5_000_000_000_000),
    "prime": st.integers(0, 9),
    "loose": st.integers(-20, 20),
    "code": code,
    "digits": st.text(alphabet="0123456789", min_size=2, max_size=4),
    "name": st.text(alphabet="ab\u00e9\u4e2d", min_size=0, max_size=4),
    "wide2": st.text(alphabet="x\u00e9\u4e2d", min_size=1, max_size=3),
    "flags": st.integers(7, 17).map(lambda n: bits(b"\xa5" * ((n + 7) // 8), n)),
    "blob": st.binary(min_size=0, max_size=5),
    "teletex": st.text(alphabet="abc", min_size=0, max_size=3),
    "list": st.lists(small, min_size=0, max_size=4),
    "bag": st.lists(code, min_size=1, max_size=3),
    "looseList": st.lists(st.integers(-3, 3), min_size=0, max_size=4),
    "inline": st.integers(0, 8),
    "inlineList": st.lists(st.lists(small, min_size=0, max_size=4), min_size=0, max_size=2),
}


@st.composite
def records(draw):
    value = {"small": draw(small)}
    for name, strategy in components.items():
        if name != "small" and draw(st.booleans()):
            value[name] = draw(strategy)
    return value


@pytest.fixture(scope="module")
def reference():
    return asn1tools.compile_files([str(SPEC)], "der")


@pytest.fixture(scope="module")
def builds():
    return {mode: cbuild.converter([SPEC], *specbuilds.MODES[mode], flags=specbuilds.FLAGS)
            for mode in MODES}


def convert(build, data: bytes, pdu: str = "Constraints.Record", *options: str,
            output: str = "der"):
    return build.run("-p", pdu, "-o", output, *options, "-", input=data, check=False)


def check_value(builds, reference, value: dict) -> None:
    data = reference.encode("Record", value)
    bad = violations(value)
    for mode, build in builds.items():
        decoded = convert(build, data)
        if not bad:
            assert decoded.returncode == 0, (mode, value, decoded.stderr.decode())
            assert decoded.stdout == data, (mode, value)
        else:
            message = decoded.stderr.decode()
            assert decoded.returncode == 1, (mode, value)
            assert f"Constraints.Record.{bad[0]}" in message and CONSTRAINT_ERROR in message, \
                (mode, value, message)
            # the decoder refuses it, not only the DER encoder after it: JER checks nothing
            printed = convert(build, data, output="jer")
            message = printed.stderr.decode()
            assert printed.returncode == 1 and printed.stdout == b"", (mode, value)
            assert f"Constraints.Record.{bad[0]}" in message and CONSTRAINT_ERROR in message, \
                (mode, value, message)
        # unchecked decoding takes it; encoding refuses it again (the encoder writes
        # backwards: the last offending component is the one it meets first)
        lax = convert(build, data, "Constraints.Record", "--skip-constraints")
        if not bad:
            assert lax.returncode == 0 and lax.stdout == data, (mode, value)
        else:
            message = lax.stderr.decode()
            assert lax.returncode == 1 and lax.stdout == b"", (mode, value)
            assert f"Constraints.Record.{bad[-1]}" in message and CONSTRAINT_ERROR in message, \
                (mode, value, message)
        jer = convert(build, data, "Constraints.Record", "--skip-constraints", output="jer")
        assert jer.returncode == 0, (mode, value, jer.stderr.decode())
        assert json.loads(jer.stdout)["small"] == value["small"]


# -- every bound, one component at a time ------------------------------------------------
EDGES = [
    ("small", 0), ("small", 1), ("small", 10), ("small", 11),
    ("narrower", 3), ("narrower", 4),
    ("signed", -301), ("signed", -300), ("signed", -100), ("signed", -99), ("signed", 0),
    ("signed", 99), ("signed", 100), ("signed", 300), ("signed", 301),
    ("huge", -1), ("huge", 0), ("huge", 2**80), ("huge", -2**80),
    ("wide", -6), ("wide", -5), ("wide", 5_000_000_000_000), ("wide", 5_000_000_000_001),
    ("prime", 4), ("prime", 5), ("loose", 1000),
    ("code", ""), ("code", "A"), ("code", "F09A"), ("code", "F09AB"), ("code", "G"),
    ("code", "a"), ("digits", "12"), ("digits", "123"), ("digits", "1234"),
    ("name", ""), ("name", "\u00e9\u00e9\u00e9"), ("name", "abcd"), ("name", "\u4e2d\u4e2d"),
    ("wide2", "x"), ("wide2", "\u4e2d\u4e2d"), ("wide2", "xyz"),
    ("flags", bits(b"\xff", 7)), ("flags", bits(b"\xff", 8)), ("flags", bits(b"\xff\xff", 16)),
    ("flags", bits(b"\xff\xff\x80", 17)),
    ("blob", b""), ("blob", b"12"), ("blob", b"123"), ("blob", b"1234"), ("blob", b"12345"),
    ("teletex", "a"), ("teletex", "ab"),
    ("list", []), ("list", [1, 2, 3]), ("list", [1, 2, 3, 4]), ("list", [1, 11]),
    ("bag", ["A"]), ("bag", ["A", "B"]), ("bag", ["A", "B", "C"]), ("bag", ["A", "x"]),
    ("looseList", []), ("looseList", [1, 2, 3, 4, 5]),
    ("inline", 7), ("inline", 8),
    ("inlineList", []), ("inlineList", [[1]]), ("inlineList", [[1], [2]]),
    ("inlineList", [[]]), ("inlineList", [[0]]),
]


@pytest.mark.parametrize("name,component", EDGES, ids=[f"{n}={v!r}"[:40] for n, v in EDGES])
def test_each_bound_on_every_path(builds, reference, name, component):
    value = {"small": 5, name: component}
    check_value(builds, reference, value)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=records())
def test_random_records_on_every_path(builds, reference, value):
    check_value(builds, reference, value)


@pytest.mark.parametrize("pdu,value,allowed", [
    ("Small", 10, True), ("Small", 11, False),
    ("Prime", 7, True), ("Prime", 6, False),
    ("Code", "ABC", True), ("Code", "ABCDE", False),
    ("List", [1], True), ("List", [], False),
    ("Bag", ["1", "2"], True), ("Bag", ["1"], False),
    ("Pick", ("list", [2, 3]), True), ("Pick", ("list", [2, 30]), False),
    ("Pick", ("code", "Q"), False),
])
def test_constrained_pdus_on_every_path(builds, reference, pdu, value, allowed):
    """A constrained type at the top, and as a CHOICE alternative."""
    data = reference.encode(pdu, value)
    for mode, build in builds.items():
        result = convert(build, data, f"Constraints.{pdu}")
        assert (result.returncode == 0) == allowed, (mode, result.stderr.decode())
        if allowed:
            assert result.stdout == data
        else:
            assert CONSTRAINT_ERROR in result.stderr.decode()
            # the offset of the value that breaks it: the start of the contents of the
            # innermost offending value (the top value's, or the list element's)
            assert f"Constraints.{pdu}" in result.stderr.decode()


# -- PER: a value inside the PER-visible bounds but outside the constraint ---------------
# (type, value, allowed, UPER, APER), the encodings made by hand from X.691 (asn1tools
# cannot compile Prime's value set for PER): a constrained whole number in the bits of
# its range, or for APER's range of 601 two aligned octets; a length in the bits of its
# range, APER aligning the octets after it
PER_CASES = [
    ("Signed", 0, False, "4b00", "012c"),          # PER sees -300..300: 300 in 10 bits
    ("Signed", 100, True, "6400", "0190"),
    ("Prime", 6, False, "80", "80"),               # PER sees 2..7: 4 in 3 bits
    ("Prime", 7, True, "a0", "a0"),
    ("Blob", b"123", False, "66264660", "60313233"),       # PER sees SIZE (0..4)
    ("Blob", b"1234", True, "8626466680", "8031323334"),
    ("Small", 10, True, "90", "90"),               # PER's bounds are all of it
    ("List", [1, 10], True, "4240", "4240"),
]


@pytest.mark.parametrize("rules", ["uper", "aper"])
@pytest.mark.parametrize("pdu,value,allowed,uper,aper", PER_CASES,
                         ids=[f"{c[0]}={c[1]!r}" for c in PER_CASES])
def test_per_checks_what_its_bounds_do_not_say(builds, reference, pdu, value, allowed, uper,
                                               aper, rules):
    """PER's bounds take each of these values; the constraint decides, decoding and
    encoding, on every path.  Where PER's bounds are the whole constraint
    (ASN1H_PER_DECIDES) they alone judge.  An allowed value decodes to asn1tools' DER of
    it, a refused one, unchecked, to its JER: so the hand-made encodings are the values'."""
    data = bytes.fromhex(uper if rules == "uper" else aper)
    der = reference.encode(pdu, value)
    for mode, build in builds.items():
        def run(*options, output=rules):
            return build.run("-p", f"Constraints.{pdu}", "-i", rules, "-o", output,
                             *options, "-", input=data, check=False)
        result = run()
        if allowed:
            assert result.returncode == 0 and result.stdout == data, \
                (mode, result.stderr.decode())
            assert run(output="der").stdout == der, mode
            continue
        lax = run("--skip-constraints", output="jer")   # JER checks no constraint
        assert lax.returncode == 0, (mode, lax.stderr.decode())
        assert json.loads(lax.stdout) == (value.hex().upper() if isinstance(value, bytes)
                                          else value), mode
        assert result.returncode == 1, mode
        assert f"Constraints.{pdu}: {CONSTRAINT_ERROR}" in result.stderr.decode(), mode
        again = run("--skip-constraints")               # decoded, then refused by the encoder
        assert again.returncode == 1 and again.stdout == b"", mode
        assert CONSTRAINT_ERROR in again.stderr.decode(), mode


# -- what the front end hands the runtime -------------------------------------------------
@pytest.fixture(scope="module")
def graph():
    return api.load([str(SPEC)])


def check_of(graph, name):
    node = graph[f"Constraints.{name}"]
    return runtime_check(node, graph.target(node.id))


@pytest.mark.parametrize("name,values,sizes,chars", [
    ("Small", ((1, 10),), (), ()),
    ("Signed", ((-300, -100), (100, 300)), (), ()),
    ("Huge", ((0, INT64_MAX),), (), ()),
    ("Prime", ((2, 3), (5, 5), (7, 7)), (), ()),           # 2 and 3 touch: one interval
    ("Narrower", ((3, 4),), (), ()),
    ("Code", (), ((1, 4),), ((ord("0"), ord("9")), (ord("A"), ord("F")))),
    ("Digits", (), ((3, 3),), ()),
    ("Flags", (), ((8, 16),), ()),
    ("Blob", (), ((0, 2), (4, 4)), ()),
    ("Teletex", (), ((2, INT64_MAX),), ()),                  # octets >= characters
    ("List", (), ((1, 3),), ()),
    ("Bag", (), ((2, 2),), ()),
])
def test_effective_constraints(graph, name, values, sizes, chars):
    check = check_of(graph, name)
    assert (check.values, check.sizes, check.chars) == (values, sizes, chars)


@pytest.mark.parametrize("name", ["Loose", "LooseList"])
def test_extensible_constraints_are_not_checked(graph, name):
    """X.680 49.4: a value outside an extensible constraint may still come."""
    assert check_of(graph, name) is None


def test_bounds_beyond_64_bits_become_unbounded():
    """Clamped to MIN/MAX: the check is wider than the constraint, never narrower."""
    text = """M DEFINITIONS ::= BEGIN
        Big ::= INTEGER (0..18446744073709551616)
        Neg ::= INTEGER (-18446744073709551616..5)
        END"""
    path = Path(cbuild.session_dir()) / "Big.asn"
    path.write_text(text)
    g = api.load([str(path)])
    assert runtime_check(g["M.Big"], g["M.Big"]).values == ((0, INT64_MAX),)
    assert runtime_check(g["M.Neg"], g["M.Neg"]).values == ((INT64_MIN, 5),)
