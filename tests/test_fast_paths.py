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
import struct
import sys

import pytest

import cbuild
from specbuilds import SPECS

from asn1c_hybrid import api
from asn1c_hybrid.emit.fastpaths import _all, _place
from asn1c_hybrid.layouts import from_text, parse

sys.path.insert(0, str(cbuild.REPO))
from bench import corpora  # noqa: E402

SNMP_SPECS = [*sorted((cbuild.REPO / "examples" / "snmp" / "spec").glob("*.asn")),
              SPECS / "IETF_SNMP" / "RFC1155-SMI.asn",
              SPECS / "IETF_SNMP" / "RFC1157-SNMP.asn"]
EXAMPLES = {
    "snmp": (SNMP_SPECS, "SNMP-Traffic.Message", "examples/snmp/trace.ber"),
    "ldap": (sorted((SPECS / "IETF_LDAP_RFC4511").glob("*.asn")),
             "Lightweight-Directory-Access-Protocol-V3.LDAPMessage", "examples/ldap/trace.ber"),
    # Blackwell's message: 50 INTEGERs and 50 BOOLEANs, its one layout learnt from itself;
    # held out: other values of the same layout and of others
    "blackwell": ([corpora.BLACKWELL_SPEC], "BlackwellModule.BlackwellMessage", None),
}
LAYOUTS = {"snmp": 10, "ldap": 10, "blackwell": 1}
HIT = "ASN1H_FAST_PATH_HIT()=do { extern unsigned long fast_path_hits; fast_path_hits++; } " \
      "while (0)"


def halves(name: str) -> tuple[list[bytes], list[bytes]]:
    if name == "blackwell":
        message = corpora.blackwell_message()
        others = [corpora.make_blackwell_message(seed) for seed in range(1, 40)]
        return [message, message], [message, *others]
    trace = cbuild.REPO / EXAMPLES[name][2]
    split = json.loads(trace.with_suffix(".json").read_text())["second_round_from"]
    pdus = corpora.split_pdus(trace.read_bytes())
    return pdus[:split], pdus[split:]


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


def checker(name: str, mode: str, form: str, profile) -> cbuild.Path:
    specs, pdu, _ = EXAMPLES[name]
    work = cbuild.session_dir() / f"fast-{name}-{mode}-{form}"
    general = cbuild.generate(specs, work / "general", "--name", "general", "--prefix", "g_",
                              "--pdu", pdu, "--mode", mode)
    fast = cbuild.generate(specs, work / "fast", "--name", "fast", "--prefix", "f_",
                           "--pdu", pdu, "--mode", mode, "--profile", str(profile),
                           "--layouts", str(LAYOUTS[name]), "--layout-form", form)
    flags = ("-O1", "-g", *cbuild.SANITIZE)
    program = work / "fastpath_check"
    cbuild.run(["gcc", *cbuild.STRICT, *flags, f"-D{HIT}", "-I", general, "-I", fast,
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


def check(program, pdu_type: str, pdus: list[bytes], tmp_path, strict: bool) -> int:
    path = tmp_path / ("strict.bin" if strict else "ber.bin")
    path.write_bytes(framed(pdus))
    result = cbuild.subprocess.run([str(program), pdu_type, *(["--strict-der"] if strict
                                                              else []), str(path)],
                                   capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    count, hits = map(int, result.stdout.split())
    assert count == len(pdus)
    return hits


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
    hits = check(program, pdu_type, held_out, tmp_path, strict=False)
    # every held-out PDU of a chosen layout takes its fast path, no other does (the top
    # TLV's own length is the runtime's to read: a slot layout's is open)
    assert hits == len(matching) > 0
    assert len(matching) > len(held_out) // 3 or name == "blackwell"
    strict_hits = check(program, pdu_type, held_out, tmp_path, strict=True)
    assert strict_hits <= hits
    mutated = [m for p in matching[::max(1, len(matching) // 25)] for m in mutations(p)]
    assert len(mutated) > 500
    assert check(program, pdu_type, mutated, tmp_path, strict=False) > 0
    check(program, pdu_type, mutated, tmp_path, strict=True)


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
