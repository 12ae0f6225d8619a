"""frontend.load on the personnel record of X.690 Annex A (the paper's figure 1).

Tags are checked two ways: against X.680's rules written out by hand, and by encoding the
`smithperson` value with the graph's tags and comparing with asn1tools' DER encoding of the
same value compiled from the same file by asn1tools' own front end.
"""
from __future__ import annotations

import asn1tools
import pytest

from asn1c_hybrid.frontend import load
from asn1c_hybrid.typegraph import Kind, Tag, TagClass, universal

M = "PersonnelRecordModule"
APP = TagClass.APPLICATION
CTX = TagClass.CONTEXT

# X.690 Annex A's value, as written in the specification (asn1tools convention).
SMITH = {
    "name": {"givenName": "Jean", "initial": "E", "familyName": "Smith"},
    "title": "The Big Cheese",
    "number": 99999,
    "dateOfHire": "19820104",
    "nameOfSpouse": {"givenName": "John", "initial": "L", "familyName": "Smith"},
    "children": [
        {"name": {"givenName": "James", "initial": "R", "familyName": "Smith"},
         "dateOfBirth": "19570210"},
        {"name": {"givenName": "Lisa", "initial": "M", "familyName": "Smith"},
         "dateOfBirth": "19590621"},
    ],
}


@pytest.fixture(scope="module")
def personnel_path(repo_root):
    return str(repo_root / "examples" / "personnel" / "personnel.asn")


@pytest.fixture(scope="module")
def graph(personnel_path):
    return load([personnel_path])


def test_named_and_anonymous_nodes_in_definition_order(graph):
    assert list(graph.nodes) == [
        f"{M}.PersonnelRecord", f"{M}.PersonnelRecord.title", f"{M}.PersonnelRecord.children",
        f"{M}.ChildInformation", f"{M}.Name", f"{M}.Name.givenName", f"{M}.Name.initial",
        f"{M}.Name.familyName", f"{M}.EmployeeNumber", f"{M}.Date"]


def test_node_tags_follow_the_implicit_tagging_environment(graph):
    assert graph[f"{M}.PersonnelRecord"].tags == (Tag(APP, 0),)
    assert graph[f"{M}.Name"].tags == (Tag(APP, 1),)
    assert graph[f"{M}.EmployeeNumber"].tags == (Tag(APP, 2),)
    assert graph[f"{M}.Date"].tags == (Tag(APP, 3),)
    assert graph[f"{M}.ChildInformation"].tags == (universal(17),)
    assert graph[f"{M}.PersonnelRecord.title"].tags == (universal(22),)
    assert graph[f"{M}.PersonnelRecord.children"].tags == (universal(16),)


def test_components_carry_their_effective_tags_and_types(graph):
    record = graph[f"{M}.PersonnelRecord"]
    assert record.kind == Kind.SET
    got = [(c.name, c.type, c.tags) for c in record.components]
    assert got == [
        ("name", f"{M}.Name", (Tag(APP, 1),)),
        ("title", f"{M}.PersonnelRecord.title", (Tag(CTX, 0),)),
        ("number", f"{M}.EmployeeNumber", (Tag(APP, 2),)),
        ("dateOfHire", f"{M}.Date", (Tag(CTX, 1),)),
        ("nameOfSpouse", f"{M}.Name", (Tag(CTX, 2),)),
        ("children", f"{M}.PersonnelRecord.children", (Tag(CTX, 3),)),
    ]
    children = record.components[-1]
    assert children.has_default and children.default == []
    assert not children.present_always
    element = graph[f"{M}.PersonnelRecord.children"].element
    assert (element.name, element.type, element.tags) == \
        ("", f"{M}.ChildInformation", (universal(17),))


def test_kinds_and_builtins(graph):
    assert graph[f"{M}.Date"].kind == Kind.BYTES
    assert graph[f"{M}.Date"].builtin == "IA5String"
    assert graph[f"{M}.EmployeeNumber"].kind == Kind.INTEGER
    assert graph[f"{M}.PersonnelRecord.children"].kind == Kind.SEQUENCE_OF
    assert graph[f"{M}.Name"].kind == Kind.SEQUENCE
    assert not any(node.recursive for node in graph)


def test_smithperson_value_is_plain_python(graph):
    value = graph.values[f"{M}.smithperson"]
    assert value.type == f"{M}.PersonnelRecord"
    assert value.value == SMITH
    assert value.location.line == 27


def test_modules_and_sources(graph, personnel_path):
    assert [m.name for m in graph.modules] == [M]
    assert graph.modules[0].tag_default == "IMPLICIT"
    assert graph.modules[0].file == personnel_path
    assert list(graph.sources) == [personnel_path]
    assert graph.roots() == [graph[f"{M}.PersonnelRecord"]]


def test_graph_tags_agree_with_asn1tools(graph, personnel_path):
    """An independent front end (asn1tools) agrees with every tag the graph carries: it
    decodes the value encoded with the graph's tags (SET members in X.690's canonical tag
    order, which asn1tools itself does not produce), and encodes the SEQUENCE Name
    byte for byte the same."""
    from asn1c_hybrid.frontend import ber

    class GraphOnly:
        node = staticmethod(lambda node_id: graph.nodes[node_id])
        target_node = staticmethod(lambda node_id: graph.target(node_id))

    ours = ber.encode(GraphOnly, f"{M}.PersonnelRecord", graph.values[f"{M}.smithperson"].value)
    text = open(personnel_path).read()
    types_only = text[:text.index("smithperson")] + "END\n"   # asn1tools reads no values
    spec = asn1tools.compile_string(types_only, "der")
    assert spec.decode("PersonnelRecord", ours) == SMITH
    name = SMITH["nameOfSpouse"]
    assert ber.encode(GraphOnly, f"{M}.Name", name) == spec.encode("Name", name)


def test_relative_file_names_stay_relative(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    graph = load(["examples/personnel/personnel.asn"])
    assert graph[f"{M}.Name"].location.file == "examples/personnel/personnel.asn"


def test_same_input_gives_the_same_graph(personnel_path):
    first, second = load([personnel_path]), load([personnel_path])
    assert list(first.nodes) == list(second.nodes)
    assert first.nodes == second.nodes
    assert first.values == second.values
