"""parsing.py: the lexer's lexical items, two-stage parsing, and the first syntax error."""
from __future__ import annotations

from asn1c_hybrid.frontend.generated.ASN1Lexer import ASN1Lexer as L
from asn1c_hybrid.frontend.generated.ASN1Parser import ASN1Parser as P
from asn1c_hybrid.frontend.parsing import describe_token_type, parse_text, parse_tokens


def lex(text: str) -> list[tuple[str, str]]:
    from antlr4 import InputStream
    lexer = L(InputStream(text))
    return [(P.symbolicNames[t.type], t.text) for t in lexer.getAllTokens()]


def test_identifiers_by_case_and_reserved_words():
    assert lex("Foo-Bar foo-1 INTEGER INTEGER-TYPE TYPE-IDENTIFIER") == [
        ("UREF", "Foo-Bar"), ("LREF", "foo-1"), ("INTEGER", "INTEGER"),
        ("UREF", "INTEGER-TYPE"), ("TYPE_IDENTIFIER", "TYPE-IDENTIFIER")]


def test_field_references():
    assert lex("&Type &id") == [("TYPE_FIELD_REF", "&Type"), ("VALUE_FIELD_REF", "&id")]


def test_numbers_ranges_and_reals():
    assert lex("1..5 -3 2.5 1e10 0..MAX") == [
        ("NUMBER", "1"), ("RANGE", ".."), ("NUMBER", "5"), ("MINUS", "-"), ("NUMBER", "3"),
        ("REALNUMBER", "2.5"), ("REALNUMBER", "1e10"), ("NUMBER", "0"), ("RANGE", ".."),
        ("MAX", "MAX")]


def test_strings():
    assert lex("'0101'B 'AB CD'H \"say \"\"hi\"\"\"") == [
        ("BSTRING", "'0101'B"), ("HSTRING", "'AB CD'H"), ("CSTRING", '"say ""hi"""')]


def test_comments_x680():
    """X.680 12.6: "--" ends at "--" or at the end of the line; /* */ nests."""
    assert lex("a -- one -- b -- two\nc /* x /* y */ z */ d") == [
        ("LREF", "a"), ("LREF", "b"), ("LREF", "c"), ("LREF", "d")]
    assert lex("a--b--c") == [("LREF", "a"), ("LREF", "c")]


def test_comments_with_three_or_more_hyphens():
    """asn1c's reading, which its test 85 relies on: "---- x ----" is one comment."""
    assert lex("SEQUENCE---- comment ---- { }") == [
        ("SEQUENCE", "SEQUENCE"), ("LBRACE", "{"), ("RBRACE", "}")]
    assert lex("a ------------\nb") == [("LREF", "a"), ("LREF", "b")]


def test_stray_character_is_a_token_not_a_lexer_failure():
    assert lex("a $ b") == [("LREF", "a"), ("OTHER", "$"), ("LREF", "b")]


def test_valid_module_parses_without_problem():
    tree, tokens, problem = parse_text("M DEFINITIONS ::= BEGIN T ::= INTEGER END")
    assert problem is None
    assert tree.moduleDefinition(0).UREF().getText() == "M"


def test_import_ambiguity_needs_full_lookahead():
    """X.680 13.11: after `FROM M`, `b` followed by FROM is the next module's symbol."""
    from asn1c_hybrid.frontend.astbuilder import AstBuilder
    text = ("X DEFINITIONS ::= BEGIN IMPORTS a FROM M b FROM N c FROM P v d, e FROM Q; END")
    tree, tokens, problem = parse_text(text)
    assert problem is None
    module = AstBuilder(tokens).modules(tree)[0]
    got = [([s.name for s in i.symbols], i.module, i.assigned) for i in module.imports]
    assert [g[:2] for g in got] == [(["a"], "M"), (["b"], "N"), (["c"], "P"), (["d", "e"], "Q")]
    assert got[2][2].ref.name == "v"           # P's assigned identifier is the value v
    assert got[0][2] is None and got[1][2] is None


def test_first_syntax_error_only_with_one_based_column():
    text = "M DEFINITIONS ::= BEGIN\n  T ::= SEQUENCE { a INTEGER,, }\n  U ::= ,\nEND"
    _, _, problem = parse_text(text)
    assert (problem.line, problem.column) == (2, 30)
    assert problem.message.startswith("syntax error: unexpected ','")


def test_unexpected_character_message():
    _, _, problem = parse_text("M DEFINITIONS ::= BEGIN T ::= INTEGER $ END")
    assert problem.message.startswith("syntax error: unexpected character '$'")


def test_missing_end_is_reported_at_end_of_input():
    _, _, problem = parse_text("M DEFINITIONS ::= BEGIN T ::= INTEGER")
    assert "end of input" in problem.message


def test_kept_tokens_parse_from_an_entry_rule():
    tokens = [(L.SEQUENCE, "SEQUENCE", 3, 5), (L.LBRACE, "{", 3, 14), (L.LREF, "a", 3, 16),
              (L.INTEGER, "INTEGER", 3, 18), (L.RBRACE, "}", 3, 26)]
    tree, _, problem = parse_tokens(tokens, "typeOnly")
    assert problem is None
    assert tree.asnType().getText() == "SEQUENCE{aINTEGER}"
    _, _, problem = parse_tokens(tokens[:-1], "typeOnly")
    assert problem is not None and problem.line == 3


def test_token_descriptions_for_messages():
    assert describe_token_type(L.UREF) == "a type reference"
    assert describe_token_type(L.ASSIGN) == "'::='"
    assert describe_token_type(L.SEQUENCE) == "'SEQUENCE'"


def test_expected_tokens_are_named_in_the_message():
    _, _, problem = parse_text("M DEFINITIONS ::= BEGIN T ::= BIT STRING { a(1) b(2) } END")
    assert problem.message == "syntax error: unexpected 'b', expected ',' or '}'"
