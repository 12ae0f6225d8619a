"""The compact tables (docs/runtime.md, "The table format"): identical tables are emitted
once, `--pdu` emits only what the PDUs can hold, and the generated file is what the
format says (16-byte type entries, 8-byte member entries).  The bytes themselves are
checked by runtime_c/tests/types.c, a table assembled by hand."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from asn1c_hybrid import api
from asn1c_hybrid.diagnostics import CompileError

import cbuild

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


DEFAULTS_SPEC = """Dflt DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Inner ::= SEQUENCE { x INTEGER OPTIONAL, y BOOLEAN OPTIONAL }
Pair ::= SEQUENCE { x INTEGER, y BOOLEAN OPTIONAL }
Colour ::= ENUMERATED { red(0), green(1) }
T ::= SEQUENCE {
  a INTEGER,
  f BOOLEAN DEFAULT FALSE, t BOOLEAN DEFAULT TRUE,
  i INTEGER DEFAULT 0, j INTEGER DEFAULT 7,
  r Colour DEFAULT red, g Colour DEFAULT green,
  s Inner DEFAULT {}, p Pair DEFAULT { x 0 }, q Inner DEFAULT { x 0 },
  b BIT STRING { x(0), y(1) } DEFAULT {}, c OCTET STRING DEFAULT ''H,
  d OCTET STRING DEFAULT '01'H, e BIT STRING DEFAULT ''B,
  z REAL DEFAULT 0, w REAL DEFAULT 2
}
END
"""
# the DEFAULTs whose C value is not all zero bits: TRUE, 7, green, q's presence bit, '01'H, 2
NOT_ZERO = ["t", "j", "g", "q", "d", "w"]


def test_only_a_default_that_is_not_all_zero_is_copied_in(tmp_path):
    """Decoding writes into zeroed memory, where an absent DEFAULT whose C value is all
    zero bits (FALSE, 0, the first item at 0, an empty string or bit string as a NULL
    buffer, a SEQUENCE with no member present) already is.  Only the others are copied in:
    by the interpreter (ASN1H_M_DEFAULT_VALUE) and by the compiled decoder.  Both paths
    still read every default back."""
    spec = tmp_path / "Dflt.asn"
    spec.write_text(DEFAULTS_SPEC)
    interpreted = cbuild.generate([spec], tmp_path / "i", "--name", "spec", "--converter",
                                  "--mode", "interpreted")
    compiled = cbuild.generate([spec], tmp_path / "c", "--name", "spec", "--converter",
                               "--mode", "compiled")
    source = (interpreted / "spec.c").read_text()
    table = source[source.index("_members["):]
    assert table[:table.index("};")].count("ASN1H_M_DEFAULT_VALUE") == len(NOT_ZERO)
    assert "{NULL, 0, 0}" in source and "{NULL, 0}" in source
    copied = re.findall(r"v->(\w+) = T_\w+_default;", (compiled / "spec.c").read_text())
    assert copied == NOT_ZERO
    expected = ('{"a":5,"f":false,"t":true,"i":0,"j":7,"r":"red","g":"green","s":{},'
                '"p":{"x":0},"q":{"x":0},"b":{"value":"","length":0},"c":"","d":"01",'
                '"e":{"value":"","length":0},"z":0,"w":2}\n').encode()
    for out in (interpreted, compiled):                 # { a 5 }: every other one absent
        program = cbuild.build_program(out, "spec")
        assert program.run("-p", "Dflt.T", "-o", "jer", "-",
                           input=bytes.fromhex("3003800105")).stdout == expected


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


# ---- Names, coded as words (docs/runtime.md, "Names") -------------------------------------

def _decode_names(words: bytes, common: list[int], codes: bytes, index: list[int],
                  shift: int, number: int) -> str:
    """Name `number`, read as docs/runtime.md describes, apart from the runtime's reading:
    from the index entry before it, past the names between, following references."""
    def word(at):
        return words[at:words.index(b"\0", at)]

    def start(n):
        k = index[n // 32] << shift
        for _ in range(n % 32):                 # past one name
            while codes[k] and codes[k] != 0xFF:
                k += 2 if codes[k] >= 0xC0 else 1
            k += 3 if codes[k] == 0xFF else 1
        return k
    out, k = b"", start(number)
    while codes[k]:
        c = codes[k]
        if 0x20 <= c < 0x80:
            out, k = out + bytes([c]), k + 1
        elif c == 0xFF:
            k = start(codes[k + 1] << 8 | codes[k + 2])
        elif c >= 0xC0:
            out, k = out + word((c & 0x3F) << 8 | codes[k + 1]), k + 2
        else:
            out, k = out + word(common[c - 1 if c < 0x20 else c - 0x80 + 31]), k + 1
    return out.decode()


def test_names_are_coded_as_words_as_documented():
    """Enough names for every kind of code and a shift of 1 (the codes take over 64 KB),
    numbered with repeats: each comes back from its number as the format describes.  A
    word used once is written as its characters, one used in several names once in the
    words; a long name that came before is a reference to it, a short one is written
    again."""
    from asn1c_hybrid.emit.tables import _NamePool
    pool = _NamePool()
    vocabulary = ["W" + "".join("abcdefghijklmnopqrstuvwxyz"[i // 26 ** p % 26]
                                for p in range(2)) for i in range(400)]
    names = [f"Module{k % 3}." + "".join(vocabulary[(k * 7 + j * j * 13 + k // 400 * j) % 400]
                                         for j in range(10)) + f"-r{k % 17}"
             for k in range(9000)] + ["x", "Once", "OCTET STRING", ""]
    assert len(set(names)) == len(names)
    numbered = names + names[::-7] + ["x"] * 40
    for name in numbered:
        pool.add(name)
    shift, index, codes, rows, common = pool.layout(numbered)
    words = b"".join(rows)
    assert shift >= 1 and len(codes) > 0xFFFF and len(common) == 95
    assert len(index) == -(-len(numbered) // 32)
    assert any(0x01 <= c < 0x20 for c in codes) and any(0x80 <= c < 0xC0 for c in codes)
    assert any(0xC0 <= c < 0xFF for c in codes)
    assert all(_decode_names(words, common, codes, index, shift, k) == n
               for k, n in enumerate(numbered))
    assert b"Once" not in words and b"Once\0" in codes
    # each long name written once, the others references; "x" written every time
    encoded, _, _ = pool.codes()
    written = sum(len(encoded[n]) for n in names) + 2 * 40
    assert written + 3 * len(names[::-7]) - 4 <= len(codes) <= written + \
        3 * len(names[::-7]) + len(index) * ((1 << shift) - 1)


def test_a_whole_3gpp_spec_reads_its_names_back_in_c(tmp_path):
    """LTE RRC's 7,000 names through the C runtime: every named type's name, found again
    by asn1h_find_type, and every member's and item's name, against the specification's
    own identifiers."""
    spec = SPECS / "3GPP_LTE_RRC_36331_r14" / "rrc_14_4_0.asn"
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "rrc", "--mode", "interpreted")
    main = tmp_path / "names.c"
    main.write_text(r'''
#include <stdio.h>
#include "rrc.h"
int main(void)
{
    const asn1h_spec *spec = &rrc_spec.spec;
    const asn1h_type *types = rrc_spec.types;
    char name[ASN1H_NAME_MAX];
    unsigned k, i;
    for (k = 0; k < spec->ntypes; k++) {
        const asn1h_type *t = &types[k];
        if (asn1h_name(spec, k, name, sizeof name)) {       /* not anonymous */
            asn1h_type_name(t, name, sizeof name);
            printf("T\t%u\t%s\t%s\n", k, name, asn1h_find_type(spec, name) == t ? "found" : "lost");
        }
        if (t->kind == ASN1H_SEQUENCE || t->kind == ASN1H_SET || t->kind == ASN1H_CHOICE)
            for (i = 0; i < t->count; i++) {
                asn1h_name(spec, ASN1H_MEMBER_NAME(spec, t->first + i), name, sizeof name);
                printf("M\t%u\t%s\n", k, name);
            }
        if (t->kind == ASN1H_ENUMERATED)
            for (i = 0; i < t->count; i++) {
                asn1h_name(spec, ASN1H_ITEM_NAME(spec, t->first + i), name, sizeof name);
                printf("E\t%u\t%s\n", k, name);
            }
    }
    return 0;
}
''')
    program = cbuild.build_program(out, "rrc", main, flags=("-O1",))
    lines = [line.split("\t") for line in program.run().stdout.decode().splitlines()]
    graph = api.load([str(spec)])
    entry_names = {int(k): name for k, name in enumerate(
        re.findall(r"^\s*\{ ASN1H_\w+, .*\},? /\* (.+) \*/$", (out / "rrc.c").read_text(),
                   re.M))}
    typed = [(int(k), name, found) for tag, k, name, found in
             (line for line in lines if line[0] == "T")]
    assert len(typed) > 1500
    for k, name, found in typed:
        if "." in name:                          # a named type
            assert name == entry_names[k] and found == "found", (k, name)
        else:                                    # anonymous ones sharing their built-in's
            assert name == entry_names[k], (k, name)
    members, items = {}, {}
    for tag, k, name in (line for line in lines if line[0] in "ME"):
        (members if tag == "M" else items).setdefault(int(k), []).append(name)
    assert sum(map(len, members.values())) > 6000 and sum(map(len, items.values())) > 3000
    for k, names in members.items():
        node = graph.target(entry_names[k])
        assert sorted(names) == sorted(c.name for c in node.components), entry_names[k]
    for k, names in items.items():
        node = graph.target(entry_names[k])
        assert sorted(names) == sorted(node.named_numbers), entry_names[k]


def test_names_written_in_characters_alone_still_name_everything(tmp_path):
    """A specification none of whose words is used twice has no words at all (NULL
    `strings`): JER and error paths still give every name."""
    spec = tmp_path / "Example.asn"
    spec.write_text("Example DEFINITIONS IMPLICIT TAGS ::= BEGIN\n"
                    "Point ::= SEQUENCE { x INTEGER (0..255), y [0] INTEGER (0..255) "
                    "OPTIONAL, label UTF8String }\nEND\n")
    build = cbuild.converter([spec], "--mode", "interpreted")
    source = (build.directory / "spec.c").read_text()
    assert "spec_strings" not in source and "#define SPEC_NAMES NULL, NULL, spec_names," \
        in source
    der = bytes.fromhex("3009020105800107 0c01 41".replace(" ", ""))
    out = build.run("-p", "Example.Point", "-o", "jer", "-", input=der).stdout
    assert json.loads(out) == {"x": 5, "y": 7, "label": "A"}
    bad = bytes.fromhex("3009020105800107 0401 41".replace(" ", ""))
    error = build.run("-p", "Example.Point", "-o", "jer", "-", input=bad, check=False)
    assert error.returncode != 0 and b"Example.Point.label" in error.stderr
