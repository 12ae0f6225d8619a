"""The compact tables (docs/runtime.md, "The table format"): identical tables are emitted
once, `--pdu` emits only what the PDUs can hold, and the generated file is what the
format says (16-byte type entries, 8-byte member entries).  The bytes themselves are
checked by runtime_c/tests/types.c, a table assembled by hand."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from asn1c_hybrid import api
from asn1c_hybrid.diagnostics import CompileError

SPECS = Path(__file__).resolve().parent.parent.parent / "shared" / "specs"
PKIX = SPECS / "IETF_PKI_RFC5280" / "PKIX1Explicit88.asn"

# { kind, flags, self, size, tag, first, count, aux, extra }, /* name */
TYPE_ENTRY = re.compile(r"^\s*\{ (ASN1H_\w+), [^,]+, \d+, sizeof\(\w+\), [^,]*(?:\([^)]*\))?, "
                        r"(\d+), (\d+), [^}]*\},? /\* (\S+) \*/$", re.M)
MEMBERS = re.compile(r"asn1h_member \w+_members\[(\d+)\]")


def generated(spec: str | Path, pdus=(), name="m") -> str:
    graph = api.load([str(spec)])
    options = api.CompileOptions(mode="interpreted", name=name,
                                 select=api.SelectOptions(pdus=pdus, cost_model="units"))
    return api.generate(graph, options)[f"{name}.c"]


def entries(source: str) -> dict[str, tuple[str, int, int]]:
    """type name -> (kind, first member, member count)"""
    return {m[3]: (m[0], int(m[1]), int(m[2])) for m in TYPE_ENTRY.findall(source)}


def members(source: str) -> int:
    found = MEMBERS.search(source)
    return int(found.group(1)) if found else 0


def test_identical_member_tables_are_emitted_once(tmp_path):
    """Ten CHOICEs of one shape, two SEQUENCEs of another: two member tables."""
    spec = tmp_path / "Same.asn"
    choices = "\n".join(
        f"N{k} ::= CHOICE {{ teletex TeletexString (SIZE (1..8)), "
        f"printable PrintableString (SIZE (1..8)), utf8 UTF8String (SIZE (1..8)) }}"
        for k in range(10))
    spec.write_text("Same DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n" + choices + "\n"
                    "P ::= SEQUENCE { a INTEGER, b BOOLEAN OPTIONAL }\n"
                    "Q ::= SEQUENCE { a INTEGER, b BOOLEAN OPTIONAL }\n"
                    "Top ::= SEQUENCE { " + ", ".join(f"n{k} N{k}" for k in range(10))
                    + ", p P, q Q }\nEND\n")
    source = generated(spec)
    types = entries(source)
    choice_tables = {types[f"Same.N{k}"][1] for k in range(10)}
    assert len(choice_tables) == 1
    assert types["Same.P"][1] == types["Same.Q"][1]
    # 3 alternatives + 2 members + Top's 12: each table once
    assert members(source) == 3 + 2 + 12
    # each named type keeps its own entry (its name, profile counter and routines)
    assert len({types[f"Same.N{k}"] for k in range(10)}) == 1
    assert len([n for n in types if n.startswith("Same.N")]) == 10


def test_the_x520_names_of_one_bound_share_one_table():
    """RFC 5280's X520 name CHOICEs differ only in their size bounds, which are checked:
    those of one bound share a member table (64: common, organization, organizational
    unit names and titles; 128: locality and state names; 32768: X520name)."""
    types = entries(generated(PKIX))
    table = {name.split(".")[1]: types[name][1] for name in types
             if name.startswith("PKIX1Explicit88.X520") and types[name][0] == "ASN1H_CHOICE"
             and types[name][2] == 5}
    assert len({table[n] for n in ("X520CommonName", "X520OrganizationName",
                                   "X520OrganizationalUnitName", "X520Title")}) == 1
    assert table["X520LocalityName"] == table["X520StateOrProvinceName"]
    assert len({table["X520name"], table["X520CommonName"], table["X520LocalityName"]}) == 3


def test_anonymous_primitives_share_an_entry():
    """Anonymous built-in types alike in all but their position: one entry each."""
    lines = re.findall(r"^\s*\{ (ASN1H_\w+), ([^,]+), \d+, (.*) /\* (INTEGER|OCTET STRING"
                       r"|BOOLEAN|OBJECT IDENTIFIER) \*/$", generated(PKIX), re.M)
    assert len(lines) >= 4
    assert len(set(lines)) == len(lines)


def test_pdu_limits_the_tables_to_what_it_can_hold():
    everything = entries(generated(PKIX))
    certificate = entries(generated(PKIX, pdus=("PKIX1Explicit88.Certificate",)))
    assert "PKIX1Explicit88.TBSCertificate" in certificate
    assert "PKIX1Explicit88.X520name" in everything
    assert "PKIX1Explicit88.X520name" not in certificate
    assert len(certificate) < len(everything) / 2


def test_presence_bits_stop_at_255_with_a_clear_error(tmp_path):
    spec = tmp_path / "Wide.asn"
    members = ", ".join(f"m{k} INTEGER OPTIONAL" for k in range(256))
    spec.write_text("Wide DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n"
                    f"W ::= SEQUENCE {{ {members} }}\nEND\n")
    with pytest.raises(CompileError) as error:
        generated(spec)
    assert "Wide.W has more than 255 OPTIONAL" in str(error.value)


def test_per_indices_and_checks_are_settled_when_generating(tmp_path):
    """A CHOICE whose roots come first and in tag order is DENSE, `extra` counting its
    roots: alternative i has PER index i.  One defined out of tag order is not (the
    runtime ranks its tags).  A constraint record whose PER bounds are the whole
    constraint says ASN1H_PER_DECIDES; one with a hole in it (a union), an extensible one
    and one that PER does not see (a UTF8String's size) do not.  Both are checked on the
    wire by tests/test_per.py (PerTest.Tagged) and tests/test_constraint_checks.py."""
    spec = tmp_path / "Ranks.asn"
    spec.write_text(
        "Ranks DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n"
        "InOrder ::= CHOICE { a INTEGER (0..7), b BOOLEAN, ..., c NULL }\n"
        "OutOfOrder ::= CHOICE { b [2] BOOLEAN, a [0] INTEGER (0..7) }\n"
        "Exact ::= INTEGER (1..10)\n"
        "Holes ::= INTEGER (1..4 | 8)\n"
        "Loose ::= INTEGER (1..10, ...)\n"
        "Short ::= OCTET STRING (SIZE (1..4))\n"
        "Text ::= UTF8String (SIZE (1..4))\n"
        "Few ::= SEQUENCE (SIZE (1..4)) OF Holes\n"
        "Top ::= SEQUENCE { i InOrder, o OutOfOrder, e Exact, h Holes, l Loose, s Short,"
        " f Few, t Text }\nEND\n")
    source = generated(spec)
    entry = re.compile(r"^\s*\{ (ASN1H_\w+), ([^,]+), \d+, sizeof\(\w+\), "
                       r"[^,(]*(?:\([^)]*\))?, \d+, \d+, \w+, (\d+) \},? /\* (\S+) \*/$", re.M)
    types = {m[3]: (m[1], int(m[2])) for m in entry.findall(source)}
    assert "ASN1H_T_DENSE" in types["Ranks.InOrder"][0] and types["Ranks.InOrder"][1] == 2
    assert "ASN1H_T_DENSE" not in types["Ranks.OutOfOrder"][0]
    records = re.search(r"asn1h_constraint \w+\[\d+\] = \{\n(.*?)\n\};", source, re.S)[1]
    records = [line.strip() for line in records.splitlines()]

    def decides(name):
        return "ASN1H_PER_DECIDES" in records[types[f"Ranks.{name}"][1] - 1]
    assert decides("Exact") and decides("Few") and decides("Short")
    assert not decides("Holes") and not decides("Loose") and not decides("Text")
