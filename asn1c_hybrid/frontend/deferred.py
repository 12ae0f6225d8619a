"""Reading deferred notation: the tokens kept in a block, once it is known what they are.

A block's items are separated by commas at brace, parenthesis and bracket depth 0.  An item
that is one token is read directly; anything longer goes back through the parser, from one
of the grammar's ``...Only`` entry rules.  Results are memoized on the tokens, so a block
that is read in many instances of a parameterized definition is parsed once.
"""
from __future__ import annotations

from typing import Optional, Sequence

from . import ast
from .generated.ASN1Lexer import ASN1Lexer as L
from .lexical import bstring_bits, cstring_text, hstring_digits
from .scope import Scope, SemanticError

_OPEN = {L.LBRACE, L.LPAREN, L.LBRACKET}
_CLOSE = {L.RBRACE, L.RPAREN, L.RBRACKET}
_KEYWORD_VALUES = {L.TRUE: "TRUE", L.FALSE: "FALSE", L.NULL: "NULL",
                   L.PLUS_INFINITY: "PLUS-INFINITY", L.MINUS_INFINITY: "MINUS-INFINITY",
                   L.NOT_A_NUMBER: "NOT-A-NUMBER"}


def split_items(tokens: Sequence[ast.Token]) -> list[tuple[ast.Token, ...]]:
    """The comma-separated items of a block (empty items dropped)."""
    items: list[tuple[ast.Token, ...]] = []
    depth = 0
    start = 0
    for index, token in enumerate(tokens):
        if token[0] in _OPEN:
            depth += 1
        elif token[0] in _CLOSE:
            depth -= 1
        elif token[0] == L.COMMA and depth == 0:
            if index > start:
                items.append(tuple(tokens[start:index]))
            start = index + 1
    if len(tokens) > start:
        items.append(tuple(tokens[start:]))
    return items


def top_level(tokens: Sequence[ast.Token]) -> list[bool]:
    """For each token, whether it is at depth 0."""
    result = []
    depth = 0
    for token in tokens:
        if token[0] in _CLOSE:
            depth -= 1
        result.append(depth == 0)
        if token[0] in _OPEN:
            depth += 1
    return result


def single_token_value(token: ast.Token) -> Optional[ast.Value]:
    token_type, text, line, column = token
    pos = (line, column)
    if token_type == L.NUMBER:
        return ast.NumberValue(pos, int(text))
    if token_type == L.REALNUMBER:
        return ast.NumberValue(pos, float(text))
    if token_type == L.LREF:
        return ast.ReferencedValue(pos, ast.Reference(text, pos))
    if token_type == L.CSTRING:
        return ast.CStringValue(pos, cstring_text(text))
    if token_type in _KEYWORD_VALUES:
        return ast.KeywordValue(pos, _KEYWORD_VALUES[token_type])
    if token_type == L.BSTRING:
        return ast.BStringValue(pos, bstring_bits(text))
    if token_type == L.HSTRING:
        return ast.HStringValue(pos, hstring_digits(text))
    return None


def parse_tokens(tokens, rule):
    from .parsing import parse_tokens as parse
    return parse(tokens, rule)


class DeferredReader:
    """Mixin of the analyzer: parse kept tokens as a value, a type or an element set."""

    def parse_deferred(self, tokens: Sequence[ast.Token], rule: str, scope: Scope,
                       what: str):
        tokens = tuple(tokens)
        if rule == "valueOnly" and len(tokens) == 1:
            value = single_token_value(tokens[0])
            if value is not None:
                return value
        key = (rule, tokens)
        known = self.deferred_memo.get(key)
        if known is not None:
            return known
        if not tokens:
            raise SemanticError(f"{what} is missing", None)
        from .astbuilder import AstBuilder     # the parser is imported only when needed
        tree, token_list, problem = parse_tokens(tokens, rule)
        if problem is not None:
            message = problem.message.replace("syntax error", f"cannot read {what}", 1)
            raise SemanticError(message, scope.location((problem.line, problem.column)))
        builder = AstBuilder(token_list)
        if rule == "valueOnly":
            result = builder.value(tree.asnValue())
        elif rule == "typeOnly":
            result = builder.type(tree.asnType())
        else:
            specs = tree.elementSetSpecs()
            if specs is None:
                pos = (tokens[0][2], tokens[0][3]) if tokens else (0, 0)
                result = ast.ElementSetSpecs(None, False, None, pos)
            else:
                result = builder.element_set_specs(specs)
        self.deferred_memo[key] = result
        return result

    def block_as_element_set(self, block: ast.BlockValue, scope: Scope) -> ast.ElementSetSpecs:
        return self.parse_deferred(block.tokens, "elementSetSpecsOnly", scope, "a set")
