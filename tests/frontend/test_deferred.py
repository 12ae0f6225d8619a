"""deferred.py: reading the tokens kept in a block."""
from __future__ import annotations

from asn1c_hybrid.frontend import ast
from asn1c_hybrid.frontend.deferred import single_token_value, split_items, top_level
from asn1c_hybrid.frontend.generated.ASN1Lexer import ASN1Lexer as L


def tok(token_type, text, column=1):
    return (token_type, text, 1, column)


def test_items_split_at_top_level_commas_only():
    tokens = [tok(L.LREF, "a"), tok(L.NUMBER, "1"), tok(L.COMMA, ","), tok(L.LREF, "b"),
              tok(L.LBRACE, "{"), tok(L.NUMBER, "2"), tok(L.COMMA, ","), tok(L.NUMBER, "3"),
              tok(L.RBRACE, "}"), tok(L.COMMA, ",")]
    items = split_items(tokens)
    assert [[t[1] for t in item] for item in items] == [["a", "1"], ["b", "{", "2", ",", "3", "}"]]
    assert top_level(tokens) == [True, True, True, True, True, False, False, False, True, True]


def test_single_tokens_are_read_directly():
    assert single_token_value(tok(L.NUMBER, "42")).value == 42
    assert single_token_value(tok(L.CSTRING, '"a""b"')).text == 'a"b'
    assert single_token_value(tok(L.TRUE, "TRUE")).keyword == "TRUE"
    ref = single_token_value(tok(L.LREF, "id-x"))
    assert isinstance(ref, ast.ReferencedValue) and ref.ref.name == "id-x"
    assert single_token_value(tok(L.HSTRING, "'0A'H")).digits == "0A"
    assert single_token_value(tok(L.UREF, "Type")) is None


def test_longer_items_go_through_the_parser_once(spec, monkeypatch):
    """A block read in two instances of a parameterized type is parsed once."""
    from asn1c_hybrid.frontend import deferred
    calls = []
    real = deferred.parse_tokens
    monkeypatch.setattr(deferred, "parse_tokens",
                        lambda tokens, rule: calls.append(rule) or real(tokens, rule))
    graph = spec.load("""
        M DEFINITIONS ::= BEGIN
        P{INTEGER:n} ::= SEQUENCE { s SEQUENCE { a INTEGER, b INTEGER } DEFAULT { a n, b -1 } }
        A ::= P{1}
        B ::= P{2}
        END""")
    assert graph["M.A"].components[0].default == {"a": 1, "b": -1}
    assert graph["M.B"].components[0].default == {"a": 2, "b": -1}
    assert calls == ["valueOnly"]
