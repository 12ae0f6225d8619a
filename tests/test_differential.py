"""Differential tests: random values of the types of every spec set, through the generated
converter in compiled, interpreted and mixed builds, against asn1tools.

For each spec set (tests/specbuilds.py says which, and what the reference reads of each),
hypothesis makes values of a broad sample of its types (every root, and the named types the
reference knows, up to a cap) from the type graph (tests/valuegen.py).  asn1tools encodes
them; each value then goes to the converter as the reference's DER, as the reference's BER
where its BER codec reads the spec, and as a BER variant (tests/typedtlv.py: indefinite and
long-form lengths, strings in nested segments, SET components shuffled, unknown extension
additions, DEFAULT values written out).  Every one must give:
  - our DER = the reference's DER in X.690's canonical form (tests/reference.py lists the
    reference's faults that this corrects), with the variant's unknown additions kept;
  - our JER = asn1tools' JER of the value asn1tools decodes from that DER;
  - and asn1tools decodes our DER to that same value.
"""
from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import specbuilds
import typedtlv
from asn1c_hybrid import api
from reference import reference_for, resolve_named_integers, same, unordered_sets
from valuegen import ValueStrategies

SETS = ["personnel", "blackwell", "allkinds", "x400", "rfc5280", "rfc5652", "ldap",
        "kerberos", "snmp"]
MAX_TYPES = 60          # per spec set: every root first, then other named types
VALUES_PER_TYPE = 3
# X.400's values are large: three of each of 60 types overflow hypothesis' buffer in
# nearly every example (546 of 549 discarded), and the few that fit are the smallest
VALUES_PER_TYPE_OF = {"x400": 1}
# hypothesis examples per spec set; ASN1H_DIFF_EXAMPLES=50 for a longer run
EXAMPLES = int(os.environ.get("ASN1H_DIFF_EXAMPLES", "3"))

_contexts: dict[str, "Context"] = {}


class Context:
    def __init__(self, name: str):
        self.entry = specbuilds.builds(name)
        self.graph = self.entry.graph
        self.reference = reference_for(self.entry.spec.reference_texts())
        self.strategies = ValueStrategies(self.graph, avoid=self.entry.spec.avoided())
        self.types = sample_types(self.graph, self.reference)


def context(name: str) -> Context:
    if name not in _contexts:
        _contexts[name] = Context(name)
    return _contexts[name]


def sample_types(graph, reference) -> list[str]:
    """Roots first (the likely PDUs and open-type values), then constructed named types,
    then the rest, all of them named types that the reference knows."""
    known = [n for n in graph if not n.is_anonymous and reference.knows(n.id)]
    roots = {n.id for n in graph.roots()}
    ranked = sorted(known, key=lambda n: (n.id not in roots,
                                          not graph.target(n.id).kind.constructed))
    return [n.id for n in ranked[:MAX_TYPES]]


class Case:
    """One value of one type, and what the reference says of it."""

    def __init__(self, ctx: Context, type_id: str, value, seed: int):
        ref = ctx.reference
        self.type_id = type_id
        self.value = value
        der = ref.encode_der(type_id, value)
        self.der = typedtlv.canonical_der(ctx.graph, type_id, der)
        self.decoded = resolve_named_integers(ctx.graph, type_id, ref.decode(type_id, self.der))
        self.jer = unordered_sets(ctx.graph, type_id, ref.to_jer(type_id, self.decoded))
        variant, variant_der = typedtlv.ber_variant(ctx.graph, type_id, self.der, seed)
        self.inputs = [der, variant]
        self.expected_der = [self.der, variant_der]     # the variant's unknown additions kept
        ber = ref.encode_ber(type_id, value)
        if ber is not None:
            self.inputs.append(ber)
            self.expected_der.append(self.der)


def describe(case: Case, index: int, got: bytes | None = None) -> str:
    text = (f"{case.type_id} value {case.value!r}\n  input {index}: "
            f"{case.inputs[index].hex()}\n  expected DER: {case.expected_der[index].hex()}")
    if got is not None:
        text += f"\n  our DER:      {got.hex()}"
    return text


def without_unknown(jer):
    """Our JER less the unknown additions (key "..."), which the reference never sees."""
    if isinstance(jer, dict):
        return {k: without_unknown(v) for k, v in jer.items() if k != "..."}
    if isinstance(jer, list):
        return [without_unknown(v) for v in jer]
    return jer


def check_type(ctx: Context, mode: str, type_id: str, cases: list[Case], der_result,
               jer_result) -> None:
    for result in (der_result, jer_result):
        assert result.returncode == 0, (
            f"[{mode}] {type_id}: converter failed: {result.stderr.decode(errors='replace')}"
            + "".join("\n" + describe(c, i) for c in cases for i in range(len(c.inputs))))
    pieces = typedtlv.split_values(der_result.stdout)
    lines = jer_result.stdout.decode().split("\n")[:-1]
    expected = [(c, i) for c in cases for i in range(len(c.inputs))]
    assert len(pieces) == len(expected) == len(lines), (mode, type_id)
    for (case, i), piece, line in zip(expected, pieces, lines):
        assert piece == case.expected_der[i], f"[{mode}] DER differs\n" + describe(case, i, piece)
        assert unordered_sets(ctx.graph, type_id, without_unknown(json.loads(line))) == case.jer, \
            f"[{mode}] JER differs\n{describe(case, i)}\n  ours:     {line}\n  expected: " \
            f"{json.dumps(case.jer)}"
    # the other direction: the reference reads our DER back as the same value
    for (case, i), piece in zip(expected, pieces):
        if i == 0:
            theirs = ctx.reference.decode(type_id, piece)
            assert same(resolve_named_integers(ctx.graph, type_id, theirs), case.decoded), \
                describe(case, 0, piece)


def run_all(ctx: Context, cases_by_type: dict[str, list[Case]]) -> None:
    jobs, keys = [], []
    for mode, build in ctx.entry.builds.items():
        for type_id, cases in cases_by_type.items():
            stream = b"".join(i for c in cases for i in c.inputs)
            for output in ("der", "jer"):
                jobs.append((build, ["-p", type_id, "-o", output, "-"], stream))
            keys.append((mode, type_id))
    results = specbuilds.run_many(jobs)
    for k, (mode, type_id) in enumerate(keys):
        check_type(ctx, mode, type_id, cases_by_type[type_id], results[2 * k],
                   results[2 * k + 1])


@pytest.mark.parametrize("set_name", SETS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(data=st.data())
def test_random_values_agree_with_the_reference(set_name, data):
    ctx = context(set_name)
    drawn = {}
    for type_id in ctx.types:
        values = data.draw(st.lists(ctx.strategies.of(type_id), min_size=1, max_size=(
            VALUES_PER_TYPE_OF.get(set_name, VALUES_PER_TYPE))), label=type_id)
        drawn[type_id] = values, data.draw(st.integers(0, 2**32), label="variant seed")
    # the reference's work once every value is drawn: a draw past the end of hypothesis'
    # buffer discards the example, and would discard that work with it
    run_all(ctx, {type_id: [Case(ctx, type_id, v, seed + k) for k, v in enumerate(values)]
                  for type_id, (values, seed) in drawn.items()})


def test_the_sample_covers_every_kind():
    """What the random values above go through, over all the spec sets: every kind of the
    type graph, every string and time type the specs use, and recursion."""
    from asn1c_hybrid.typegraph import Kind
    kinds, builtins, recursive = set(), set(), False
    for name in SETS:
        spec = specbuilds.SPEC_SETS[name]
        graph = api.load([str(f) for f in spec.files])
        reference = reference_for(spec.reference_texts())
        seen, stack = set(), sample_types(graph, reference)
        while stack:
            node_id = stack.pop()
            if node_id not in seen:
                seen.add(node_id)
                stack.extend(graph.successors(node_id))
        for node_id in seen:
            node = graph.target(node_id)
            kinds.add(node.kind)
            builtins.add(node.builtin)
            recursive |= node.recursive
    assert kinds == set(Kind)
    assert {"UTF8String", "NumericString", "PrintableString", "TeletexString", "IA5String",
            "GraphicString", "VisibleString", "GeneralString", "UniversalString", "BMPString",
            "UTCTime", "GeneralizedTime", "OBJECT IDENTIFIER", "OCTET STRING"} <= builtins
    assert recursive


@pytest.mark.parametrize("set_name", [s for s in SETS if s != "blackwell"])
def test_hybrid_builds_cross_the_boundary(set_name):
    """The mixed builds above do mix: some constructed types compiled, some interpreted
    (Blackwell's spec has a single type, which the 20% budget leaves interpreted)."""
    entry = specbuilds.builds(set_name)
    source = (entry.builds["hybrid"].directory / "spec.c").read_text()
    assert "Compiled: none" not in source.split("*/", 1)[0]
    # a constructed type whose entry has no routines: interpreted
    interpreted = re.findall(r"\{ ASN1H_(?:SEQUENCE|SET|CHOICE)\w*, (?:(?!ASN1H_T_COMPILED)[^,])*, "
                             r"\d+, sizeof", source)
    assert interpreted
