"""Layout fast paths (emit/fastpaths.py) against the general decoder.

The example traces' layouts are learnt from their first halves; the same specification is
then built twice, without and with fast paths for the most frequent exact layouts, and
tests/c/fastpath_check.c decodes every PDU with both: the same result, the same error
offset and path, the same DER.  The PDUs are the held-out halves, and mutations of the
held-out PDUs that a chosen layout matches: every identifier and length octet changed,
leaves' first contents octets set to 00, FF and 80, truncations.  Under ASan/UBSan, in
BER and strict DER, with the PDU compiled and interpreted."""
from __future__ import annotations

import json
import random
import re
import struct
import sys

import hypothesis
import hypothesis.strategies as st
import pytest

import cbuild
from specbuilds import SPEC_SETS, SPECS

from asn1c_hybrid import api
from asn1c_hybrid.emit.fastpaths import (_all, _Checks, _Dispatch, _place, build_fast_paths,
                                         example, layouts_in, name_fast_paths,
                                         slot_instance)
from asn1c_hybrid.emit.layout import build_layout
from asn1c_hybrid.estimate.profile import Profile
from asn1c_hybrid.layouts import from_text, parse

sys.path.insert(0, str(cbuild.REPO))
from bench import corpora  # noqa: E402

EXAMPLES = {
    "snmp": (SPEC_SETS["snmp-traffic"].files, "SNMP-Traffic.Message", "examples/snmp/trace.ber"),
    "ldap": (sorted((SPECS / "IETF_LDAP_RFC4511").glob("*.asn")),
             "Lightweight-Directory-Access-Protocol-V3.LDAPMessage", "examples/ldap/trace.ber"),
    # Blackwell's message: 50 INTEGERs and 50 BOOLEANs, its one layout learnt from itself;
    # held out: other values of the same layout and of others
    "blackwell": ([corpora.BLACKWELL_SPEC], "BlackwellModule.BlackwellMessage", None),
    # the SNMP trace's PDUs alone (each message's third member): an untagged CHOICE, of
    # SNMPv2's PDUs (an untagged CHOICE too) and the v1 trap, whose door parts the paths
    # by the alternative's identifier
    "snmp-pdus": (SPEC_SETS["snmp-traffic"].files, "SNMP-Traffic.Traffic-PDUs",
                  "examples/snmp/trace.ber"),
}
LAYOUTS = {"snmp": 10, "ldap": 10, "blackwell": 1, "snmp-pdus": 10}
HITS = ["ASN1H_FAST_PATH_HIT()=do { extern unsigned long fast_path_hits; fast_path_hits++; } "
        "while (0)",
        "ASN1H_FAST_ENCODE_HIT()=do { extern unsigned long fast_encode_hits; "
        "fast_encode_hits++; } while (0)",
        "ASN1H_FAST_PATH_RESUMED()=do { extern unsigned long fast_path_resumes; "
        "fast_path_resumes++; } while (0)"]


def halves(name: str) -> tuple[list[bytes], list[bytes]]:
    if name == "blackwell":
        message = corpora.blackwell_message()
        others = [corpora.make_blackwell_message(seed) for seed in range(1, 40)]
        return [message, message], [message, *others]
    if name == "snmp-pdus":
        return tuple([_third_member(m) for m in half] for half in halves("snmp"))
    trace = cbuild.REPO / EXAMPLES[name][2]
    split = json.loads(trace.with_suffix(".json").read_text())["second_round_from"]
    pdus = corpora.split_pdus(trace.read_bytes())
    return pdus[:split], pdus[split:]


def _third_member(message: bytes) -> bytes:
    """The TLV of the third member of a message's SEQUENCE."""
    member = _place(parse(message), 0).children[2]
    return message[member.start:member.contents + member.size]


@pytest.fixture(scope="module")
def profiles(tmp_path_factory):
    out = {}
    for name, (specs, pdu, _) in EXAMPLES.items():
        training, _ = halves(name)
        trace = tmp_path_factory.mktemp(name) / "training.ber"
        trace.write_bytes(b"".join(training))
        profile = api.profile(api.load([str(s) for s in specs]), pdu, [str(trace)])
        path = trace.with_name("profile.json")
        profile.save(path)
        out[name] = (path, {form: profile.layouts[pdu].forms[form][:LAYOUTS[name]]
                            for form in ("exact", "slot")})
    return out


def checker(name: str, mode: str, form: str, profile, *options: str,
            example: tuple = ()) -> cbuild.Path:
    """The check program of the example's spec (or of `example`: specs, PDU type) built
    without fast paths and with those of `form` (`options`: other `compile` options that
    choose them)."""
    specs, pdu = example or EXAMPLES[name][:2]
    work = cbuild.session_dir() / f"fast-{name}-{mode}-{form}{'-'.join(options)}"
    general = cbuild.generate(specs, work / "general", "--name", "general", "--prefix", "g_",
                              "--pdu", pdu, "--mode", mode)
    fast = cbuild.generate(specs, work / "fast", "--name", "fast", "--prefix", "f_",
                           "--pdu", pdu, "--mode", mode, "--profile", str(profile),
                           *(options or ("--layouts", str(LAYOUTS[name]), "--layout-form",
                                         form)))
    flags = ("-O1", "-g", *cbuild.SANITIZE)
    program = work / "fastpath_check"
    cbuild.run(["gcc", *cbuild.STRICT, *flags, *(f"-D{hit}" for hit in HITS), "-I", general, "-I", fast,
                "-I", cbuild.RUNTIME, general / "general.c", fast / "fast.c",
                cbuild.REPO / "tests" / "c" / "fastpath_check.c",
                cbuild.runtime_library("gcc", flags), "-lm", "-o", program])
    return program


def framed(pdus: list[bytes]) -> bytes:
    return b"".join(struct.pack(">I", len(p)) + p for p in pdus)


def mutations(pdu: bytes) -> list[bytes]:
    """Every identifier and length octet changed, the first contents octet of every
    primitive set to 00, FF and 80, truncations, and random contents."""
    tree = _place(parse(pdu), 0)
    out = []
    stack = [tree]
    while stack:
        placed = stack.pop()
        stack += placed.children
        for k in range(placed.start, placed.contents):
            for flip in (0x01, 0x80, 0x20):
                out.append(pdu[:k] + bytes([pdu[k] ^ flip]) + pdu[k + 1:])
        if placed.tlv.children is None and placed.size:
            for octet in (0x00, 0xFF, 0x80):
                k = placed.contents
                out.append(pdu[:k] + bytes([octet]) + pdu[k + 1:])
    out += [pdu[:k] for k in range(0, len(pdu), 3)]
    # the same headers with other contents: random octets, and octets of values in
    # their shortest form (a first octet other than 00 and FF)
    rng = random.Random(len(pdu))
    leaves = [p for p in _all(tree) if p.tlv.children is None]
    for _ in range(20):
        data = bytearray(pdu)
        for leaf in leaves:
            for k in range(leaf.contents, leaf.contents + leaf.size):
                data[k] = rng.randrange(256)
            if leaf.size and rng.random() < 0.7:
                data[leaf.contents] = rng.choice((0x01, 0x7F, 0x80, 0xFE, 0x00, 0xFF))
        out.append(bytes(data))
    return out


def check(program, pdu_type: str, pdus: list[bytes], tmp_path, strict: bool
          ) -> tuple[int, int]:
    """(PDUs a fast path decoded, values an encoding path wrote: two per PDU)."""
    return check_counts(program, pdu_type, pdus, tmp_path, strict)[:2]


def check_counts(program, pdu_type: str, pdus: list[bytes], tmp_path, strict: bool
                 ) -> tuple[int, int, int]:
    """check's counts, and the misses a slot tree resumed (decoded past the headers they
    share with the layouts)."""
    path = tmp_path / ("strict.bin" if strict else "ber.bin")
    path.write_bytes(framed(pdus))
    result = cbuild.subprocess.run([str(program), pdu_type, *(["--strict-der"] if strict
                                                              else []), str(path)],
                                   capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    count, hits, encode_hits, resumes = map(int, result.stdout.split())
    assert count == len(pdus)
    return hits, encode_hits, resumes


def encoding_paths(program) -> set[str]:
    """The ids of the layouts with an encoding path in the fast build."""
    return set(re.findall(r"^static uint8_t \*\w+_layouts_encode_([0-9a-f]{12})\(",
                          (program.parent / "fast" / "fast.c").read_text(), re.M))


@pytest.mark.parametrize("form", ["exact", "slot"])
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_fast_paths_agree_with_the_general_decoder(profiles, name, mode, form, tmp_path):
    profile, forms = profiles[name]
    chosen = forms[form]
    assert 0 < len(chosen) <= LAYOUTS[name]
    program = checker(name, mode, form, profile)
    _, held_out = halves(name)
    pdu_type = EXAMPLES[name][1]
    matching = [p for p in held_out if any(l.matches(parse(p)) for l in chosen)]
    hits, encode_hits, resumes = check_counts(program, pdu_type, held_out, tmp_path,
                                              strict=False)
    # every held-out PDU of a chosen layout takes its fast path, no other does (the top
    # TLV's own length is the runtime's to read: a slot layout's is open)
    assert hits == len(matching) > 0
    # the slot tree resumes misses (SNMP's long bulk responses, a PDU no layout has)
    # where they part from the layouts; exact layouts never resume, nor LDAP's tree,
    # whose branches would take more variants than layouts to exclude one another.
    # Blackwell's resumes at its last member, which no message here reaches intact
    resuming = form == "slot" and name != "ldap"
    assert ("resume where" in (program.parent / "fast" / "fast.c").read_text()) == resuming
    assert resumes <= len(held_out) - hits
    assert (resumes > 0) == (resuming and name != "blackwell")
    assert len(matching) > len(held_out) // 3 or name == "blackwell"
    # the value of every PDU of an exact layout with an encoding path takes it, twice
    encoders = encoding_paths(program)
    encodable = [p for p in held_out if any(l.matches(parse(p)) for l in chosen
                                            if l.id in encoders)]
    assert encode_hits >= 2 * len(encodable)
    assert (encode_hits > 0) == (form == "exact")
    strict_hits, _ = check(program, pdu_type, held_out, tmp_path, strict=True)
    assert strict_hits <= hits
    mutated = [m for p in matching[::max(1, len(matching) // 25)] for m in mutations(p)]
    assert len(mutated) > 500
    hits, _, resumes = check_counts(program, pdu_type, mutated, tmp_path, strict=False)
    assert hits > 0
    assert (resumes > 0) == (resuming and name != "blackwell")
    check(program, pdu_type, mutated, tmp_path, strict=True)


@pytest.mark.skipif(cbuild.shutil.which("valgrind") is None,
                    reason="the knapsack measures layouts with valgrind")
def test_fast_paths_the_knapsack_chose_agree_with_the_general_decoder(profiles, tmp_path):
    profile, _ = profiles["snmp"]
    program = checker("snmp", "hybrid", "exact", profile, "--layouts", "auto",
                      "--cost-model", "measured", "--budget", "12000")
    # every path and every leaf of the slot tree names its layout (at this budget the
    # slot layouts' knapsack saves more)
    source = (program.parent / "fast" / "fast.c").read_text()
    chosen = layouts_in(source)
    assert chosen and "_layouts_slots(" in source
    learnt = {l.id: l for form in Profile.load(profile).layouts[EXAMPLES["snmp"][1]]
              .forms.values() for l in form}
    _, held_out = halves("snmp")
    matching = [p for p in held_out if any(learnt[i].matches(parse(p)) for i in chosen)]
    assert check(program, EXAMPLES["snmp"][1], held_out, tmp_path, strict=False)[0] == \
        len(matching) > 0
    mutated = [m for p in matching[::max(1, len(matching) // 10)] for m in mutations(p)]
    check(program, EXAMPLES["snmp"][1], mutated, tmp_path, strict=False)
    check(program, EXAMPLES["snmp"][1], mutated, tmp_path, strict=True)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_values_of_a_layouts_shape_encode_alike_on_both_paths(profiles, name, tmp_path):
    """Hypothesis: messages of the chosen exact layouts with random contents (each leaf
    kept or redrawn) are decoded by the general decoder, and the values DER-encoded by
    the general encoder and by the fast build's, which tries its encoding paths first:
    the same octets (fastpath_check's `cross`)."""
    profile, forms = profiles[name]
    program = checker(name, "compiled", "exact", profile)
    encoders = encoding_paths(program)
    chosen = [l for l in forms["exact"] if l.id in encoders]
    assert chosen
    _, held_out = halves(name)
    bases = []
    for layout in chosen:
        base = next(p for p in held_out if layout.matches(parse(p)))
        bases.append((base, [leaf for leaf in _all(_place(parse(base), 0))
                             if leaf.tlv.children is None and leaf.size]))
    totals = {"values": 0, "encoded": 0}

    @hypothesis.settings(max_examples=12, deadline=None, derandomize=True, database=None)
    @hypothesis.given(st.data())
    def run(data):
        pdus = []
        for base, leaves in bases:
            message = bytearray(base)
            for leaf in leaves:
                if data.draw(st.booleans()):
                    message[leaf.contents:leaf.contents + leaf.size] = data.draw(
                        st.binary(min_size=leaf.size, max_size=leaf.size))
            pdus.append(bytes(message))
        _, encoded = check(program, EXAMPLES[name][1], pdus, tmp_path, strict=False)
        totals["values"] += len(pdus)
        totals["encoded"] += encoded
    run()
    # most values keep their layout's shape: the encoding paths wrote them
    assert totals["encoded"] >= totals["values"] // 2, totals


def test_the_encoding_check_tree_takes_a_path_whose_checks_all_pass(tmp_path):
    """Random paths of checks `c[k] != value` share prefixes; for every input the tree
    must call the writer of a path whose checks all pass, and one whenever any does."""
    rng = random.Random(7)
    paths = []
    for k in range(12):
        base = paths[rng.randrange(len(paths))][:rng.randrange(6)] if paths else []
        rest = [f"if (c[{rng.randrange(6)}] != {rng.randrange(3)}) return NULL;"
                for _ in range(rng.randrange(1, 5))]
        paths.append(base + rest)
    root = _Checks()
    for k, checks in enumerate(paths):
        root.add(checks, f"w{k}")
    lines: list[str] = []
    root.emit(lines, "    ")
    writers = "\n".join(f"static uint8_t *w{k}(int e, uint8_t *p, int v) "
                        f"{{ (void)e; (void)v; taken = {k}; return p; }}"
                        for k in range(len(paths)))
    program = tmp_path / "tree.c"
    program.write_text(f"""#include <stdint.h>
#include <stdio.h>
#define ASN1H_FAST_ENCODE_HIT() ((void)0)
static int taken;
static int c[6];
{writers}
static uint8_t *tree(int e, uint8_t *p, int v)
{{
    uint8_t *q;
{chr(10).join(lines)}
    return NULL;
}}
int main(void)
{{
    static uint8_t byte;
    int n, k;
    for (n = 0; n < 729; n++) {{
        int m = n;
        for (k = 0; k < 6; k++, m /= 3)
            c[k] = m % 3;
        taken = -1;
        printf("%d\\n", tree(0, &byte, 0) ? taken : -1);
    }}
    return 0;
}}
""")
    cbuild.run(["gcc", *cbuild.STRICT, "-o", tmp_path / "tree", program])
    out = cbuild.subprocess.run([str(tmp_path / "tree")], capture_output=True, text=True,
                                check=True).stdout.split()
    for n, taken in enumerate(map(int, out)):
        c = [(n // 3 ** k) % 3 for k in range(6)]

        def passes(checks):
            return all(c[int(re.search(r"c\[(\d)\]", x).group(1))] ==
                       int(re.search(r"!= (\d)", x).group(1)) for x in checks)
        if taken < 0:
            assert not any(passes(p) for p in paths), n
        else:
            assert passes(paths[taken]), n


def test_the_dispatch_tree_gives_a_message_one_template_to_compare(profiles):
    # SNMP's 50 most frequent exact layouts: up to five share a contents length, and a
    # header octet that all of them fix (the PDU's tag, a value's tag or length) parts them
    specs, pdu, _ = EXAMPLES["snmp"]
    chosen = Profile.load(profiles["snmp"][0]).layouts[pdu].forms["exact"][:50]
    layout = build_layout(api.load([str(s) for s in specs]), set(), "", False, frozenset())
    name_fast_paths(layout.types[pdu], chosen)
    fast = build_fast_paths(layout, pdu, chosen)
    assert len(fast.paths) == 50 and max(len(paths) for _, paths in fast.by_length) >= 3
    trees = {length: _Dispatch.of(paths) for length, paths in fast.by_length}
    _, held_out = halves("snmp")
    routed_any = 0
    for message in held_out:
        tlv = parse(message)
        contents = message[len(tlv.identifier) + len(tlv.length):]
        tree = trees.get(len(contents))
        routed = tree.route(contents) if tree else []
        # the tree never skips the path of the message's layout, and tries one at most
        assert [p for p in fast.paths if p.layout.matches(tlv)] in ([], routed)
        assert len(routed) <= 1
        routed_any += bool(routed)
    for path in fast.paths:                 # and each template reaches its own path
        assert trees[path.length].route(path.template) == [path]
    assert routed_any > len(held_out) // 2


def test_template_words_of_a_get_request():
    # net-snmp's get-request for sysDescr.0 (docs/layouts.md): the contents of the
    # message's SEQUENCE, 38 octets; header octets at 0 1, 3 4, 11-14, 19 20, 22 23,
    # 25-30, 36 37
    text = "30:26(02:01 04:06 a1:19(02:04 02:01 02:01 30:0b(30:09(06:05 05:00))))"
    top = _place(from_text(text), -2)
    headers = sorted(k for placed in _all(top)[1:]
                     for k in range(placed.start, placed.contents))
    assert headers == [0, 1, 3, 4, 11, 12, 13, 14, 19, 20, 22, 23, 25, 26, 27, 28, 29, 30,
                       36, 37]
    assert top.size == 38
    assert _tag(2, 1).identifier(True) == b"\xa1"
    assert _tag(1, 200).identifier(False) == b"\x5f\x81\x48"


def _tag(cls: int, number: int):
    from asn1c_hybrid.typegraph import Tag, TagClass
    return Tag(TagClass(cls), number)


NOTES = """Notes DEFINITIONS ::= BEGIN
Note ::= SEQUENCE { text OCTET STRING, urgent BOOLEAN, count INTEGER }
END
"""


def test_a_layout_of_sparse_headers_checks_its_boolean_in_a_block(tmp_path):
    """28 octets of contents whose headers (at 0-1, 22-23 and 25-26) leave no window
    three runs: the template goes as runs, while strict DER's BOOLEAN octet is checked
    in a 16-octet block; both on every mutation agree with the general decoder."""
    spec = tmp_path / "Notes.asn"
    spec.write_text(NOTES)

    def note(urgent: int, count: int) -> bytes:
        return bytes([0x30, 28, 0x04, 20]) + b"x" * 20 + bytes([1, 1, urgent, 2, 1, count])
    trace = tmp_path / "notes.ber"
    trace.write_bytes(note(0xFF, 5) * 2)
    profile = api.profile(api.load([str(spec)]), "Notes.Note", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker("notes", "compiled", "exact", tmp_path / "profile.json", "--layouts",
                      "1", example=([spec], "Notes.Note"))
    source = (program.parent / "fast" / "fast.c").read_text()
    assert "_booleans[1]" in source and "_mask[" not in source
    assert source.count("asn1h_fp_u16(p + ") == 3
    pdus = [note(0xFF, 5), note(0x00, 7), note(0x01, 5), note(0x80, 0x80)]
    assert check(program, "Notes.Note", pdus, tmp_path, strict=False)[0] == 4
    assert check(program, "Notes.Note", pdus, tmp_path, strict=True)[0] == 2
    mutated = mutations(note(0xFF, 5))
    check(program, "Notes.Note", mutated, tmp_path, strict=False)
    check(program, "Notes.Note", mutated, tmp_path, strict=True)


COUNTS = """Counts DEFINITIONS ::= BEGIN
Counts ::= SEQUENCE { a INTEGER, b INTEGER, note OCTET STRING, c INTEGER }
END
"""


def counts(a: bytes, b: bytes, note: bytes, c: bytes) -> bytes:
    body = b"".join(bytes([tag, len(x)]) + x for tag, x in ((2, a), (2, b), (4, note), (2, c)))
    return bytes([0x30, len(body)]) + body


def test_an_integer_not_in_its_shortest_form_takes_the_path_in_ber_only(tmp_path):
    """BER decodes an INTEGER whose first nine bits are equal (00 05, FF 80) to the
    value of its shortest form; strict DER refuses it.  In a PDU of 26 octets, a and b
    are checked for DER in one 16-octet block, c (alone in the last window) by its own
    test of `der`: the path takes every such form in BER and misses it in strict DER,
    where the general decoder then fails.  A PDU of 14 octets has no block, and no test
    of `der` to pay for: its path leaves every longer form to the general decoder."""
    spec = tmp_path / "Counts.asn"
    spec.write_text(COUNTS)
    trace = tmp_path / "counts.ber"
    trace.write_bytes(b"".join(counts(b"\x01\x02", b"\x03\x04", note, b"\x05\x06")
                               for note in (b"twelve chars", b"") for _ in range(2)))
    profile = api.profile(api.load([str(spec)]), "Counts.Counts", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker("counts", "compiled", "exact", tmp_path / "profile.json", "--layouts",
                      "2", example=([spec], "Counts.Counts"))
    source = (program.parent / "fast" / "fast.c").read_text()
    assert re.findall(r"memcpy\(&next, p \+ (\d+), 16\)", source) == ["1"]
    test = "(uint64_t)(x + INT64_C(128)) < UINT64_C(256)) goto miss;"
    assert source.count("if (der && " + test) == 1 and source.count("if (" + test) == 3
    shortest = [b"\x00\x80", b"\xff\x7f", b"\x12\x34"]
    longer = [b"\x00\x05", b"\xff\x80"]
    values = [(a, b, c) for a in shortest + longer for b in shortest + longer
              for c in (shortest[0], longer[0])]
    pdus = [counts(a, b, note, c) for note in (b"twelve chars", b"") for a, b, c in values]
    assert check(program, "Counts.Counts", pdus, tmp_path, strict=False)[0] == \
        len(values) + len(shortest) ** 2
    assert check(program, "Counts.Counts", pdus, tmp_path, strict=True)[0] == \
        2 * len(shortest) ** 2
    check(program, "Counts.Counts", [m for p in pdus[:2] for m in mutations(p)], tmp_path,
          strict=True)


NAMES = """Names DEFINITIONS ::= BEGIN
Named ::= SEQUENCE { id OBJECT IDENTIFIER, n INTEGER }
END
"""


def test_an_object_identifier_is_checked_as_the_decoder_checks_it(tmp_path):
    """asn1h_fp_oid, in each of its ways (octet by octet below 8 octets, two words up to
    16, vectors from 16 on): an octet 80 that starts a subidentifier, or a last octet
    with its top bit set, misses and the general decoder fails; an 80 inside a
    subidentifier is taken.  Every position of 80 in OIDs of 5, 12, 16, 23 and 40 octets."""
    spec = tmp_path / "Names.asn"
    spec.write_text(NAMES)

    def named(oid: bytes) -> bytes:
        body = bytes([6, len(oid)]) + oid + b"\x02\x01\x07"
        return bytes([0x30, len(body)]) + body
    sizes = (5, 12, 16, 23, 40)
    trace = tmp_path / "names.ber"
    trace.write_bytes(b"".join(named(b"\x2b" * size) * 2 for size in sizes))
    profile = api.profile(api.load([str(spec)]), "Names.Named", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker("names", "compiled", "exact", tmp_path / "profile.json", "--layouts",
                      str(len(sizes)), example=([spec], "Names.Named"))
    pdus, valid = [], 0
    for size in sizes:
        for k in range(size):
            for before in (0x2b, 0x81):         # the octet before: a subidentifier's end or not
                oid = bytearray(b"\x2b" * size)
                oid[k] = 0x80
                if k:
                    oid[k - 1] = before
                pdus.append(named(bytes(oid)))
                valid += k != size - 1 and k > 0 and before == 0x81
        pdus.append(named(b"\x2b" * (size - 1) + b"\x81"))
    hits, _ = check(program, "Names.Named", pdus, tmp_path, strict=False)
    assert hits == valid > 0
    assert check(program, "Names.Named", pdus, tmp_path, strict=True)[0] == valid


def test_template_blocks_cover_every_header_octet_and_no_other(profiles):
    """The constants a path compares with (16-octet blocks where header octets are
    dense, runs of them elsewhere) against the octets of a message of its layout: every
    identifier and length octet is compared with its value, and no contents octet is
    looked at."""
    cases = []
    for name in ("snmp", "ldap", "blackwell"):
        specs, pdu, _ = EXAMPLES[name]
        chosen = Profile.load(profiles[name][0]).layouts[pdu].forms["exact"][:50]
        layout = build_layout(api.load([str(s) for s in specs]), set(), "", False, frozenset())
        name_fast_paths(layout.types[pdu], chosen)
        training, _ = halves(name)
        for path in build_fast_paths(layout, pdu, chosen).paths:
            message = next(m for m in training if path.layout.matches(parse(m)))
            cases.append((path, message))
    assert all(any(getattr(path, form) for path, _ in cases) for form in ("blocks", "runs"))
    for path, message in cases:
        tlv = parse(message)
        contents = message[len(tlv.identifier) + len(tlv.length):]
        headers = {k for placed in _all(_place(tlv, -(len(message) - len(contents))))[1:]
                   for k in range(placed.start, placed.contents)}
        compared = {}                       # octet -> (mask, want) of every compare
        for offset, mask, want in [(b.offset, b.mask, b.want) for b in path.blocks] + \
                [(r.offset, b"\xff" * len(r.octets), r.octets) for r in path.runs]:
            assert offset + len(mask) <= len(contents) and len(mask) in (1, 2, 4, 8, 16)
            for k, (m, v) in enumerate(zip(mask, want)):
                compared.setdefault(offset + k, set()).add((m, v))
        for k in range(len(contents)):
            if k in headers:
                assert (0xFF, contents[k]) in compared.get(k, ()), (path.layout.id, k)
            else:
                assert compared.get(k, {(0, 0)}) == {(0, 0)}, (path.layout.id, k)
        # Blackwell's headers are two octets in every three to six: blocks
        if len(contents) == 377:
            assert len(path.blocks) >= 20 and len(path.runs) <= 10


ZEROS = """Zeros DEFINITIONS AUTOMATIC TAGS ::= BEGIN
Record ::= SEQUENCE {
    id      INTEGER,
    name    OCTET STRING OPTIONAL,
    inner   Inner OPTIONAL,
    list    SEQUENCE OF INTEGER,
    bits    BIT STRING,
    nothing NULL,
    more    Inner,
    ...
}
Inner ::= SEQUENCE { x INTEGER OPTIONAL, y BOOLEAN, ... }
END
"""

# every field of a Zeros.Record, as the C struct names them (down to those around which
# the compiler may pad); `list` is compared apart
RECORD_FIELDS = ["present_", "id", "name", "bits.buf", "bits.len", "bits.unused", "nothing",
                 "unknown_"] + [
    f"{inner}.{field}" for inner in ("inner", "more")
    for field in ("present_", "x", "y", "unknown_")]


def zeros_record(n: int, full: bool) -> bytes:
    """A Zeros.Record of one of two layouts, its contents varied by n: without the
    OPTIONAL members, an empty list and `more` without x; or with all of them."""
    def tlv(tag: int, contents: bytes) -> bytes:
        return bytes([tag, len(contents)]) + contents
    if not full:
        body = (tlv(0x80, bytes([n % 100])) + tlv(0xA3, b"") + tlv(0x84, bytes([0, 0x80]))
                + tlv(0x85, b"") + tlv(0xA6, tlv(0x81, b"\xff")))
    else:
        body = (tlv(0x80, bytes([1, n % 200])) + tlv(0x81, bytes([0x61 + n % 26, 0x62]))
                + tlv(0xA2, tlv(0x80, bytes([n % 50])) + tlv(0x81, b"\x00"))
                + tlv(0xA3, tlv(0x02, b"\x01") + tlv(0x02, bytes([n % 90])))
                + tlv(0x84, bytes([0, n])) + tlv(0x85, b"")
                + tlv(0xA6, tlv(0x80, b"\x07") + tlv(0x81, b"\xff")))
    return tlv(0x30, body)


def test_a_path_writes_every_field_of_a_value_it_clears_as_it_goes(tmp_path):
    """A layout without a CHOICE stores zeros where it leaves the value empty, in place
    of a memset of the whole value before the door: absent OPTIONAL members, a big
    INTEGER's `big` and `big_len`, presence octets, an empty list, a NULL, `unknown_`
    (a BIT STRING's unused bits are its first octet's).  Decoded over a value filled with
    A5 octets, every field (padding aside) must be the general decoder's, which clears the
    value first."""
    spec = tmp_path / "Zeros.asn"
    spec.write_text(ZEROS)
    trace = tmp_path / "zeros.ber"
    trace.write_bytes(b"".join(zeros_record(n, full) for n in (1, 2) for full in (0, 1)))
    profile = api.profile(api.load([str(spec)]), "Zeros.Record", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker("zeros", "compiled", "exact", tmp_path / "profile.json", "--layouts",
                      "2", example=([spec], "Zeros.Record"))
    source = (program.parent / "fast" / "fast.c").read_text()
    assert "asn1h_fp_clear(v" not in source        # no whole-value clearing
    for store in ("memset(&(*v).name, 0, sizeof (*v).name);",
                  "memset(&(*v).more.x, 0, sizeof (*v).more.x);",
                  "memset(&(*v).id.big, 0, sizeof (*v).id - offsetof(asn1h_int, big));",
                  "(*v).list.items = NULL;", "(*v).nothing = 0;", "(*v).bits.unused = p[",
                  "memset(&(*v).unknown_, 0, sizeof (*v).unknown_);"):
        assert store in source, store
    pdus = [zeros_record(n, full) for n in range(3, 40) for full in (0, 1)]
    assert check(program, "Zeros.Record", pdus, tmp_path, strict=False)[0] == len(pdus)
    mutated = [m for p in pdus[:2] for m in mutations(p)]
    check(program, "Zeros.Record", mutated, tmp_path, strict=False)
    check(program, "Zeros.Record", mutated, tmp_path, strict=True)

    work = program.parent
    messages = ",\n".join("{" + ", ".join(str(b) for b in p) + "}" for p in pdus)
    same = "\n".join(f"        SAME({field});" for field in RECORD_FIELDS)
    (work / "fields.c").write_text(f"""#include <stdio.h>
#include <string.h>
#include "general.h"
#include "fast.h"
unsigned long fast_path_hits, fast_encode_hits;
static const uint8_t messages[][{max(map(len, pdus))}] = {{
{messages}
}};
static const size_t lengths[] = {{ {", ".join(str(len(p)) for p in pdus)} }};
#define SAME(field) \\
    if (memcmp(&g.field, &f.field, sizeof g.field) != 0) {{ \\
        printf("message %zu: " #field " differs\\n", k); \\
        bad++; \\
    }}
int main(void)
{{
    static g_Record g;
    static f_Record f;
    const asn1h_type *gt = asn1h_find_type(&g_general_spec.spec, "Zeros.Record");
    const asn1h_type *ft = asn1h_find_type(&f_fast_spec.spec, "Zeros.Record");
    size_t k, i;
    int bad = 0;
    for (k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {{
        asn1h_arena ga, fa;
        asn1h_arena_init(&ga, NULL, 0, (size_t)1 << 20);
        asn1h_arena_init(&fa, NULL, 0, (size_t)1 << 20);
        memset(&g, 0xA5, sizeof g);
        memset(&f, 0xA5, sizeof f);
        if (asn1h_decode(gt, &g, messages[k], lengths[k], &ga, NULL, NULL, NULL) != ASN1H_OK
            || asn1h_decode(ft, &f, messages[k], lengths[k], &fa, NULL, NULL, NULL)
                   != ASN1H_OK) {{
            printf("message %zu: not decoded\\n", k);
            return 1;
        }}
{same}
        SAME(list.count);
        if ((g.list.items == NULL) != (f.list.items == NULL)) {{
            printf("message %zu: list.items differs\\n", k);
            bad++;
        }}
        for (i = 0; i < g.list.count && i < f.list.count; i++)
            SAME(list.items[i]);
        asn1h_arena_free(&ga);
        asn1h_arena_free(&fa);
    }}
    printf("%lu\\n", fast_path_hits);
    return bad;
}}
""")
    cbuild.run(["gcc", *cbuild.STRICT, "-O1", "-g", *cbuild.SANITIZE, f"-D{HITS[0]}",
                f"-D{HITS[1]}", "-I", work / "general", "-I",
                work / "fast", "-I", cbuild.RUNTIME, work / "general" / "general.c",
                work / "fast" / "fast.c", work / "fields.c",
                cbuild.runtime_library("gcc", ("-O1", "-g", *cbuild.SANITIZE)), "-lm", "-o",
                work / "fields"])
    result = cbuild.subprocess.run([str(work / "fields")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert int(result.stdout.split()[-1]) == len(pdus)   # every one by its path


def test_a_layout_whose_pdu_length_the_door_does_not_read_gets_no_path(tmp_path):
    """The door reads the PDU's length in its shortest form only (DER's too): a layout
    whose length octets are 81 10 has no path, the generated code says why, and its PDUs
    go to the general decoder."""
    spec = tmp_path / "Zeros.asn"
    spec.write_text(ZEROS)
    long_form = [b"\x30\x81" + p[1:] for p in (zeros_record(n, False) for n in (1, 2, 3))]
    trace = tmp_path / "zeros.ber"
    trace.write_bytes(b"".join(long_form + [zeros_record(n, True) for n in (1, 2)]))
    profile = api.profile(api.load([str(spec)]), "Zeros.Record", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker("zeros-long", "compiled", "exact", tmp_path / "profile.json",
                      "--layouts", "2", example=([spec], "Zeros.Record"))
    source = (program.parent / "fast" / "fast.c").read_text()
    assert "not in the short, 0x81 or 0x82 shortest form" in source
    pdus = [b"\x30\x81" + zeros_record(n, False)[1:] for n in range(5, 15)]
    assert check(program, "Zeros.Record", pdus, tmp_path, strict=False)[0] == 0
    full = [zeros_record(n, True) for n in range(5, 15)]
    assert check(program, "Zeros.Record", full, tmp_path, strict=False)[0] == len(full)


STAMPS = """Stamps DEFINITIONS ::= BEGIN
Stamp ::= SEQUENCE {
    flags BIT STRING { a(0), b(1), c(2) }, raw BIT STRING, at UTCTime, until GeneralizedTime }
END
"""
GOOD_UTC, GOOD_GENERALIZED = b"250101000000Z", b"20250101000000Z"


def stamp(flags: bytes, raw: bytes, at: bytes = GOOD_UTC, until: bytes = GOOD_GENERALIZED
          ) -> bytes:
    body = b"".join(bytes([tag, len(x)]) + x for tag, x in
                    ((3, flags), (3, raw), (0x17, at), (0x18, until)))
    return bytes([0x30, len(body)]) + body


def bits_take(octets: bytes, named: bool, der: bool) -> bool:
    """Whether X.690 takes a BIT STRING's contents (8.6.2; DER 11.2: unused bits 0, and
    with named bits no trailing 0 bit)."""
    unused, last = octets[0], octets[-1]
    if unused > 7 or (unused and len(octets) == 1):
        return False
    if not der or len(octets) == 1:
        return True
    return last & ((1 << unused) - 1) == 0 and (not named or last >> unused & 1 == 1)


@pytest.mark.parametrize("form", ["exact", "slot"])
def test_bit_strings_and_times_are_checked_as_the_decoder_checks_them(form, tmp_path):
    """A BIT STRING's unused bits (0 to 7, none without bits; in DER zero, and with named
    bits no trailing 0 bit) and the times (in DER's form; in BER also X.680's others) are
    checked by the paths as dec_bits and the time codec check them: every count of unused
    bits with last octets of each kind, and times in DER, in BER alone, and in neither."""
    spec = tmp_path / "Stamps.asn"
    spec.write_text(STAMPS)
    trace = tmp_path / "stamps.ber"
    # one exact layout three times, another twice: one slot layout, every length open
    trace.write_bytes(stamp(b"\x05\xa0", b"\x00\xff") * 3 + stamp(
        b"\x04\xa0\x10", b"\x00\xff\xff", b"2501010000Z", b"20250101000000.5Z") * 2)
    profile = api.profile(api.load([str(spec)]), "Stamps.Stamp", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker(f"stamps-{form}", "compiled", form, tmp_path / "profile.json",
                      "--layouts", "1", "--layout-form", form, example=([spec], "Stamps.Stamp"))
    flags = [bytes([u, b]) for u in range(9) for b in (0xa0, 0xa1, 0x80, 0x00)]
    raw = [bytes([u, b]) for u in range(9) for b in (0xff, 0xf0, 0x0f)]
    pdus = [stamp(f, b"\x00\xff") for f in flags] + [stamp(b"\x05\xa0", r) for r in raw]
    expected = {der: sum(bits_take(f, True, der) for f in flags) +
                sum(bits_take(r, False, der) for r in raw) for der in (False, True)}
    # times of the layout's lengths: DER's form, a minute's fraction (BER's alone), and
    # no time; of other lengths, which only the slot layout takes: without seconds (BER)
    times = [(GOOD_UTC, GOOD_GENERALIZED, True), (GOOD_UTC, b"202501010000.5Z", False),
             (b"25010100000XZ", GOOD_GENERALIZED, None),
             (GOOD_UTC, b"2025010100000,Z", None)]
    if form == "slot":
        times += [(b"2501010000Z", GOOD_GENERALIZED, False),
                  (GOOD_UTC, b"20250101000000.25Z", True), (b"", GOOD_GENERALIZED, None),
                  (b"\x00\x00\x80", b"\x00\x00", None)]
        pdus += [stamp(b"\x00", b"\x00"), stamp(b"\x03", b"\x00")]       # no bits
        expected = {der: n + 1 for der, n in expected.items()}
    pdus += [stamp(b"\x05\xa0", b"\x00\xff", at, until) for at, until, _ in times]
    for der in (False, True):
        expected[der] += sum(ok is True or (ok is False and not der) for *_, ok in times)
    assert check(program, "Stamps.Stamp", pdus, tmp_path, strict=False)[0] == expected[False]
    assert check(program, "Stamps.Stamp", pdus, tmp_path, strict=True)[0] == expected[True]
    check(program, "Stamps.Stamp", [m for p in pdus[:3] for m in mutations(p)], tmp_path,
          strict=True)


def test_a_slot_layout_without_an_exact_one_is_made_a_message_of_its_least_lengths(tmp_path):
    """Where the profile keeps no exact layout of a slot layout (each was seen once), the
    knapsack measures it on a message made by slot_instance: each open length the least
    that the leaf's type has a value of (a BIT STRING's first octet alone, DER's UTCTime
    with seconds, DER's GeneralizedTime), each constructed one the sum of its contents."""
    spec = tmp_path / "Stamps.asn"
    spec.write_text(STAMPS)
    trace = tmp_path / "stamps.ber"
    trace.write_bytes(stamp(b"\x05\xa0", b"\x00\xff") + stamp(
        b"\x04\xa0\x10", b"\x00\xff\xff", b"2501010000Z", b"20250101000000.5Z"))
    pdu = "Stamps.Stamp"
    profile = api.profile(api.load([str(spec)]), pdu, [str(trace)])
    assert not profile.layouts[pdu].forms["exact"]
    slot, = profile.layouts[pdu].forms["slot"]
    assert slot.text == "30:*(03:* 03:* 17:* 18:*)"
    layout = build_layout(api.load([str(spec)]), set(), "", False, frozenset())
    instance = slot_instance(layout, pdu, slot)
    assert instance.text == "30:26(03:01 03:01 17:0d 18:0f)"
    message = example(layout, pdu, instance)
    assert message == stamp(b"\x00", b"\x00") and slot.matches(parse(message))


OPS = """Ops DEFINITIONS IMPLICIT TAGS ::= BEGIN
Op ::= CHOICE {
    get  [0] SEQUENCE { id INTEGER },
    put  [3] SEQUENCE { id INTEGER, value OCTET STRING },
    note [APPLICATION 1] SEQUENCE { at UTCTime, text OCTET STRING OPTIONAL } }
END
"""


def op(tag: int, *fields: tuple[int, bytes]) -> bytes:
    body = b"".join(bytes([t, len(x)]) + x for t, x in fields)
    return bytes([tag, len(body)]) + body


@pytest.mark.parametrize("form", ["exact", "slot"])
def test_a_choice_pdu_opens_its_door_to_its_alternatives_identifiers(form, tmp_path):
    """An untagged CHOICE as the PDU: the door takes the identifiers of its alternatives
    (A0, A3 and 61, which no range covers), the paths part by them, and each message of
    a chosen layout takes its path, whichever alternative it is; the others, and every
    mutation, decode as the general decoder decodes them."""
    spec = tmp_path / "Ops.asn"
    spec.write_text(OPS)
    # three exact layouts three times each, and a put of other lengths twice: the slot
    # layout of put leaves its lengths open
    training = [op(0xA0, (0x02, b"\x07")), op(0xA3, (0x02, b"\x07"), (0x04, b"abc")),
                op(0x61, (0x17, GOOD_UTC))] * 3 + \
        [op(0xA3, (0x02, b"\x01\x07"), (0x04, b"abcdef"))] * 2
    trace = tmp_path / "ops.ber"
    trace.write_bytes(b"".join(training))
    profile = api.profile(api.load([str(spec)]), "Ops.Op", [str(trace)])
    profile.save(tmp_path / "profile.json")
    program = checker(f"ops-{form}", "compiled", form, tmp_path / "profile.json",
                      "--layouts", "3", "--layout-form", form, example=([spec], "Ops.Op"))
    source = (program.parent / "fast" / "fast.c").read_text()
    assert "buf[0] != 0x61 && buf[0] != 0xa0 && buf[0] != 0xa3" in source
    taken = [op(0xA0, (0x02, bytes([n]))) for n in range(1, 100)] + \
        [op(0xA3, (0x02, bytes([n])), (0x04, b"xyz")) for n in range(1, 100)] + \
        [op(0x61, (0x17, GOOD_UTC.replace(b"01", b"%02d" % n, 1))) for n in range(1, 13)]
    others = [op(0xA1, (0x02, b"\x07")), op(0x61, (0x17, GOOD_UTC), (0x04, b"hi")),
              op(0xA0, (0x02, b"\x07\x08")), op(0x30, (0x02, b"\x07"))]
    if form == "slot":
        taken += [op(0xA3, (0x02, b"\x01\x02"), (0x04, b"longer text"))]
    else:
        others += [op(0xA3, (0x02, b"\x01\x02"), (0x04, b"longer text"))]
    assert check(program, "Ops.Op", taken + others, tmp_path, strict=False)[0] == len(taken)
    assert check(program, "Ops.Op", taken + others, tmp_path, strict=True)[0] == len(taken)
    check(program, "Ops.Op", [m for p in training[:3] for m in mutations(p)], tmp_path,
          strict=True)


LOG = """Log DEFINITIONS IMPLICIT TAGS ::= BEGIN
Entry ::= SEQUENCE { id INTEGER, source OCTET STRING, body Body }
Body ::= SEQUENCE { level INTEGER, notes SEQUENCE OF OCTET STRING }
END
"""


def entry(source: bytes, *notes: bytes, level: int = 3) -> bytes:
    """An Entry of Log (all short lengths)."""
    body = bytes([0x02, 1, level]) + op(0x30, *((0x04, n) for n in notes))
    return op(0x30, (0x02, b"\x07"), (0x04, source), (0x30, body))


def test_a_slot_tree_miss_resumes_where_it_parts_and_an_open_length_yields_to_a_fixed_one(
        tmp_path):
    """Two slot layouts: one note after a source of 6 octets (04:06), and two notes after
    a source of any length (04:*).  The tree adds the second under 04:06 as well (a
    variant), and its 04:* branch takes no source of 6 octets, so that when no branch
    takes a message, no layout does: a message of two notes and a source of 6 octets
    takes the variant's path, and a message of no note or three, under either branch,
    resumes at the notes (their list is the last of the body, the body the last of the
    entry), whatever was read of them.  Each decodes as the general decoder does."""
    spec = tmp_path / "Log.asn"
    spec.write_text(LOG)
    training = [entry(b"sensor", b"n" * k) for k in range(1, 7)] + \
        [entry(b"s" * k, b"a" * k, b"b" * (k + 1)) for k in (3, 5, 9, 12)]
    trace = tmp_path / "log.ber"
    trace.write_bytes(b"".join(training))
    profile = api.profile(api.load([str(spec)]), "Log.Entry", [str(trace)])
    assert [l.text for l in profile.layouts["Log.Entry"].forms["slot"]] == [
        "30:*(02:01 04:06 30:*(02:01 30:*(04:*)))",
        "30:*(02:01 04:* 30:*(02:01 30:*(04:* 04:*)))"]
    profile.save(tmp_path / "profile.json")
    program = checker("log-slot", "compiled", "slot", tmp_path / "profile.json",
                      "--layouts", "2", "--layout-form", "slot",
                      example=([spec], "Log.Entry"))
    source = (program.parent / "fast" / "fast.c").read_text()
    assert source.count("== 6) break;  /* a sibling's */") == 1
    taken = [entry(b"sensor", b"n" * k) for k in (0, 8, 100)] + \
        [entry(b"s" * k, b"x", b"yy" * k) for k in (1, 6, 7, 20)]
    resumed = [entry(b"s" * k, b"x", b"y", b"z" * k, level=k) for k in (2, 6, 30)] + \
        [entry(b"sensor", *[b"n"] * k) for k in (0, 3, 9)]
    others = [op(0x30, (0x02, b"\x07\x01"), (0x04, b"sensor"))]
    for strict in (False, True):
        assert check_counts(program, "Log.Entry", taken + resumed + others, tmp_path,
                            strict) == (len(taken), 0, len(resumed))
    check(program, "Log.Entry", [m for p in taken + resumed for m in mutations(p)],
          tmp_path, strict=False)
