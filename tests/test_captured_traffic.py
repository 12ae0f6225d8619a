"""The captured traces of examples/snmp and examples/ldap (real net-snmp and OpenLDAP
traffic) with their specifications, in every mode: every message decodes, its JER agrees
with asn1tools' decoding of the same octets, and its DER re-encoding decodes to the same
value, up to the order of SET OF elements (net-snmp writes DER, so its messages re-encode
to themselves; OpenLDAP writes lengths in long form and keeps the values' order, which DER
does not)."""
from __future__ import annotations

import json
import sys

import pytest

import specbuilds
from reference import reference_for, resolve_named_integers, unordered_sets

sys.path.insert(0, str(specbuilds.REPO))
from bench import corpora  # noqa: E402

TRACES = {
    "snmp": ("snmp-traffic", "SNMP-Traffic.Message", "examples/snmp/trace.ber"),
    "ldap": ("ldap", "Lightweight-Directory-Access-Protocol-V3.LDAPMessage",
             "examples/ldap/trace.ber"),
}
MODES = list(specbuilds.MODES)


def messages(repo_root, name: str) -> list[bytes]:
    return corpora.split_pdus((repo_root / TRACES[name][2]).read_bytes())


def convert(build, type_id: str, data: bytes, output: str) -> bytes:
    result = build.run("-p", type_id, "-o", output, "-", input=data, check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


def test_traces_are_as_their_summaries_say(repo_root):
    for name, (_, _, path) in TRACES.items():
        summary = json.loads((repo_root / path).with_suffix(".json").read_text())
        pdus = messages(repo_root, name)
        assert len(pdus) == summary["messages"] and sum(map(len, pdus)) == summary["octets"]
        assert 0 < summary["second_round_from"] < len(pdus)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(TRACES))
def test_trace_decodes_and_reencodes(repo_root, name, mode):
    spec_set, type_id, _ = TRACES[name]
    build = specbuilds.builds(spec_set).builds[mode]
    pdus = messages(repo_root, name)
    jer = convert(build, type_id, b"".join(pdus), "jer").decode().split("\n")
    assert len(jer) == len(pdus) + 1
    der = corpora.split_pdus(convert(build, type_id, b"".join(pdus), "der"))
    assert len(der) == len(pdus)
    again = convert(build, type_id, b"".join(der), "jer").decode().split("\n")
    graph = specbuilds.builds(spec_set).graph
    for k, (before, after) in enumerate(zip(jer[:-1], again[:-1])):
        # DER sorts the elements of a SET OF (LDAP's attribute values)
        assert unordered_sets(graph, type_id, json.loads(after)) == \
            unordered_sets(graph, type_id, json.loads(before)), f"message {k}"
    if name == "snmp":
        assert der == pdus
    else:
        assert der != pdus      # OpenLDAP's long-form lengths are not DER


@pytest.mark.parametrize("name", list(TRACES))
def test_jer_agrees_with_asn1tools(repo_root, name):
    spec_set, type_id, _ = TRACES[name]
    built = specbuilds.builds(spec_set)
    reference = reference_for(built.spec.reference_texts())
    pdus = messages(repo_root, name)
    lines = convert(built.builds["hybrid"], type_id, b"".join(pdus), "jer").decode().split("\n")
    for k, (data, line) in enumerate(zip(pdus, lines)):
        theirs = resolve_named_integers(built.graph, type_id, reference.decode(type_id, data))
        assert json.loads(line) == reference.to_jer(type_id, theirs), f"message {k}"
