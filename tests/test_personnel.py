"""The personnel record (X.690 Annex A; figure 1 of Hoschka & Huitema) end to end: the
spec compiled in every mode, checked against two independent implementations.

asn1tools and pyasn1 are the references, each with one known fault in its DER:
  - asn1tools writes SET components in definition order, which X.690 10.3 forbids (DER
    orders them by tag), so its output is compared after putting the SET in tag order;
  - pyasn1 (0.6) encodes negative powers of two non-minimally (-128 as FF 80, where X.690
    8.3.2 wants 80; asn1tools and OpenSSL write 80), so it is the reference only for
    values without them.
"""
from __future__ import annotations

import json
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cbuild
import personnel_pyasn1

sys.path.insert(0, str(cbuild.REPO))
from bench import corpora  # noqa: E402  (the benchmark suite's messages and helpers)

SPEC = cbuild.REPO / "examples" / "personnel" / "personnel.asn"
MODULE = "PersonnelRecordModule"

BUILDS = {
    "compiled": ["--mode", "compiled"],
    "interpreted": ["--mode", "interpreted"],
    "hybrid": ["--mode", "hybrid", "--budget", "20%", "--cost-model", "units"],
    # the boundary, both ways: a compiled record around an interpreted Name, and back
    "record-compiled": ["--mode", "compiled", "--interpret", f"{MODULE}.Name"],
    "name-compiled": ["--mode", "interpreted", "--compile", f"{MODULE}.Name"],
}

ENCODE_SMITHPERSON = """
#include <stdio.h>
#include "spec.h"
int main(void)
{
    uint8_t out[1024];
    size_t len, i;
    asn1h_error err;
    if (asn1h_encode(&PersonnelRecord_type, &smithperson, out, sizeof out, &len, &err))
        return 1;
    for (i = 0; i < len; i++)
        putchar(out[i]);
    return 0;
}
"""


# The presence accessors of the header: children is DEFAULT {}, so clearing its bit leaves
# it out of the DER (its default), and a decoder reads it back absent.
PRESENCE = """
#include <string.h>
#include "spec.h"
int main(void)
{
    static uint8_t full[1024], cut[1024], arena_bytes[8192];
    size_t full_len, cut_len;
    asn1h_error err;
    asn1h_arena arena;
    PersonnelRecord v = smithperson, back;
    if (!PersonnelRecord_has_children(&v) || PersonnelRecord_children_bit != 0)
        return 10;
    if (asn1h_encode(&PersonnelRecord_type, &v, full, sizeof full, &full_len, &err))
        return 11;
    PersonnelRecord_clear_children(&v);
    if (PersonnelRecord_has_children(&v) || v.present_[0] != 0)
        return 12;
    if (asn1h_encode(&PersonnelRecord_type, &v, cut, sizeof cut, &cut_len, &err))
        return 13;
    asn1h_arena_init(&arena, arena_bytes, sizeof arena_bytes, 0);
    if (asn1h_decode(&PersonnelRecord_type, &back, cut, cut_len, &arena, NULL, NULL, &err)
        || PersonnelRecord_has_children(&back) || back.children.count != 0)
        return 14;
    PersonnelRecord_set_children(&v);
    if (!PersonnelRecord_has_children(&v) || v.present_[0] != 1)
        return 15;
    if (asn1h_encode(&PersonnelRecord_type, &v, cut, sizeof cut, &cut_len, &err)
        || cut_len != full_len || memcmp(cut, full, full_len) != 0)
        return 16;
    return 0;
}
"""


@pytest.fixture(scope="module", params=list(BUILDS))
def build(request) -> cbuild.Build:
    b = cbuild.converter([SPEC], *BUILDS[request.param])
    for name, text in (("encode_smithperson", ENCODE_SMITHPERSON), ("presence", PRESENCE)):
        main = b.directory / f"{name}.c"
        main.write_text(text)
        cbuild.build_program(b.directory, "spec", main, program=name)
    return b


def test_presence_accessors(build):
    """has/set/clear on the DEFAULT member, the bit order the header documents, and what
    the encoder and decoder make of it."""
    result = subprocess.run([str(build.directory / "presence")], capture_output=True)
    assert result.returncode == 0, result.returncode


def jer_values(build: cbuild.Build, data: bytes, *options: str) -> list:
    out = build.run("-p", f"{MODULE}.PersonnelRecord", "-o", "jer", *options, "-",
                    input=data).stdout
    return [json.loads(line) for line in out.splitlines()]


def der_of(build: cbuild.Build, data: bytes, *options: str) -> bytes:
    return build.run("-p", f"{MODULE}.PersonnelRecord", "-o", "der", *options, "-",
                     input=data).stdout


def with_defaults(value: dict) -> dict:
    return {**value, "children": value.get("children", [])}


def test_smithperson_value_from_the_spec_is_encoded_as_pyasn1_does(build):
    ours = subprocess.run([str(build.directory / "encode_smithperson")], capture_output=True,
                          check=True).stdout
    assert ours == personnel_pyasn1.der(corpora.SMITHPERSON)


def test_asn1tools_der_differs_only_in_set_order(build):
    theirs = corpora.personnel_spec("der").encode("PersonnelRecord", corpora.SMITHPERSON)
    ours = der_of(build, theirs)
    assert ours != theirs                               # asn1tools: definition order
    assert ours == corpora.sort_set_components(theirs)  # the same components, tag order
    assert ours == personnel_pyasn1.der(corpora.SMITHPERSON)


def test_decodes_to_the_value_asn1tools_decodes(build):
    der = personnel_pyasn1.der(corpora.SMITHPERSON)
    [value] = jer_values(build, der, "--strict-der")
    assert value == corpora.personnel_spec("der").decode("PersonnelRecord", der)
    assert value == with_defaults(corpora.SMITHPERSON)


def test_indefinite_lengths_as_in_the_papers_experiment(build):
    ber = corpora.to_indefinite(personnel_pyasn1.der(corpora.SMITHPERSON))
    assert len(ber) == 148                              # the size the paper reports
    assert jer_values(build, ber) == [with_defaults(corpora.SMITHPERSON)]
    assert der_of(build, ber) == personnel_pyasn1.der(corpora.SMITHPERSON)
    # strict DER refuses it, with the offset of the first indefinite length
    result = build.run("-p", f"{MODULE}.PersonnelRecord", "-o", "null", "--strict-der", "-",
                       input=ber, check=False)
    assert result.returncode == 1
    assert b"-:1: PersonnelRecordModule.PersonnelRecord: not canonical" in result.stderr


def test_mixed_builds_cross_the_boundary_both_ways():
    record = cbuild.converter([SPEC], *BUILDS["record-compiled"]).directory / "spec.c"
    name = cbuild.converter([SPEC], *BUILDS["name-compiled"]).directory / "spec.c"
    record_c, name_c = record.read_text(), name.read_text()
    # compiled record, interpreted Name: the record's routine hands Name to the interpreter
    name_entry = re.search(r"\{ ASN1H_SEQUENCE, 0, (\d+), sizeof\(Name\).*\},? /\* "
                           r"PersonnelRecordModule.Name \*/", record_c)
    assert "const uint8_t *PersonnelRecord_decode(" in record_c
    assert "const uint8_t *Name_decode(" not in record_c
    assert f"asn1h_decode_contents(d, &spec_spec.types[{name_entry.group(1)}]" in record_c
    # interpreted record, compiled Name: the interpreter finds Name's routine in the tables
    assert "const uint8_t *PersonnelRecord_decode(" not in name_c
    assert "    { Name_decode, Name_encode }\n};" in name_c
    assert re.search(r"\{ ASN1H_SET, 0, 0, sizeof\(PersonnelRecord\), [^}]*, 0 \},? /\* "
                     r"PersonnelRecordModule.PersonnelRecord \*/", name_c)


# ---- random values -----------------------------------------------------------------------

ia5 = st.text(alphabet=string.printable, max_size=20)
names = st.fixed_dictionaries({"givenName": ia5, "initial": ia5, "familyName": ia5})
dates = st.text(alphabet=string.digits, min_size=8, max_size=8)
records = st.fixed_dictionaries(
    {"name": names, "title": ia5, "number": st.integers(), "dateOfHire": dates,
     "nameOfSpouse": names},
    optional={"children": st.lists(st.fixed_dictionaries({"name": names, "dateOfBirth": dates}),
                                   max_size=4)})


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(values=st.lists(records, min_size=1, max_size=25))
def test_random_values_agree_with_asn1tools_and_pyasn1(build, values):
    ber_spec = corpora.personnel_spec("ber")
    trace = b"".join(ber_spec.encode("PersonnelRecord", v) for v in values)
    assert jer_values(build, trace) == [with_defaults(v) for v in values]
    der_spec = corpora.personnel_spec("der")
    expected = [corpora.sort_set_components(der_spec.encode("PersonnelRecord", v)) for v in values]
    assert der_of(build, trace) == b"".join(expected)
    # our DER decodes in asn1tools to the same values
    ours = corpora.split_pdus(der_of(build, trace))
    assert [der_spec.decode("PersonnelRecord", d) for d in ours] == \
        [with_defaults(v) for v in values]
