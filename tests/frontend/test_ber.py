"""ber.py: the DER encoding of values written in a specification (open-type values),
compared with asn1tools' encoder on the same module."""
from __future__ import annotations

import asn1tools
import pytest

from asn1c_hybrid.frontend import ber, load

MODULE = """
M DEFINITIONS IMPLICIT TAGS ::= BEGIN
Color ::= ENUMERATED { red(0), green(1), blue(5) }
Flags ::= BIT STRING { a(0), b(1), c(2) }
Inner ::= [APPLICATION 7] EXPLICIT SEQUENCE { n INTEGER, s [0] UTF8String OPTIONAL }
Alt ::= CHOICE { i [0] INTEGER, o [1] OBJECT IDENTIFIER, t [2] EXPLICIT BOOLEAN }
Rec ::= SEQUENCE {
    color   Color,
    flags   [1] Flags,
    inner   Inner,
    alt     [2] EXPLICIT Alt,
    list    SEQUENCE OF [3] INTEGER,
    big     INTEGER,
    neg     INTEGER,
    bmp     BMPString,
    oid     OBJECT IDENTIFIER,
    nothing [4] NULL,
    raw     OCTET STRING,
    tag99   [99] IA5String }
END
"""

VALUE = {"color": "blue", "flags": (b"\xa0", 3), "inner": {"n": 300, "s": "é"},
         "alt": ("o", "1.2.840.113549"), "list": [0, -1, 128], "big": 2 ** 70, "neg": -129,
         "bmp": "Ωmega", "oid": "2.999.3", "nothing": None, "raw": b"\x00\xff", "tag99": "x"}


class Graph:
    def __init__(self, graph):
        self.graph = graph

    def node(self, node_id):
        return self.graph.nodes[node_id]

    def target_node(self, node_id):
        return self.graph.target(node_id)


@pytest.fixture(scope="module")
def encoders(tmp_path_factory):
    path = tmp_path_factory.mktemp("ber") / "m.asn"
    path.write_text(MODULE)
    return Graph(load([str(path)])), asn1tools.compile_string(MODULE, "der")


@pytest.mark.parametrize("type_name, value", [
    ("Rec", VALUE),
    ("Alt", ("i", 5)),
    ("Alt", ("t", True)),
    ("Color", "green"),
    ("Flags", (b"\xe0", 3)),
    ("Inner", {"n": -1}),
])
def test_same_encoding_as_asn1tools(encoders, type_name, value):
    ours, theirs = encoders
    assert ber.encode(ours, f"M.{type_name}", value) == theirs.encode(type_name, value)


def test_open_type_value_is_kept_as_is(encoders):
    from asn1c_hybrid.typegraph import Kind, Node
    graph, _ = encoders
    graph.graph.nodes["M.Open"] = Node("M.Open", Kind.OPEN, "ANY")
    assert ber.encode(graph, "M.Open", b"\x05\x00") == b"\x05\x00"


def test_tag_order_of_set_members():
    """X.690 10.3: SET components in the canonical order of their tags."""
    assert sorted([b"\x80\x00", b"\x42\x00", b"\x61\x00", b"\x01\x00"], key=ber._tag_order) \
        == [b"\x01\x00", b"\x61\x00", b"\x42\x00", b"\x80\x00"]
