"""ANTLR glue: ASN.1 text (or a run of kept tokens) -> parse tree, with syntax errors.

Parsing is two-stage, as ANTLR's authors recommend for speed: first with SLL prediction
and a strategy that gives up at the first error (fast, and right for almost every input),
then, only if that failed, again with full LL prediction and error reporting.  SLL can
fail on a valid input where full-context prediction is needed (the IMPORTS ambiguity of
of IMPORTS, 'FROM M b FROM N', is one), so a failure of the first stage is never reported by itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from antlr4 import CommonTokenStream, InputStream
from antlr4.CommonTokenFactory import CommonTokenFactory
from antlr4.ListTokenSource import ListTokenSource
from antlr4.Token import CommonToken, Token
from antlr4.atn.PredictionMode import PredictionMode
from antlr4.error.ErrorListener import ErrorListener
from antlr4.error.ErrorStrategy import BailErrorStrategy, DefaultErrorStrategy
from antlr4.error.Errors import ParseCancellationException

from . import ast
from .generated.ASN1Lexer import ASN1Lexer
from .generated.ASN1Parser import ASN1Parser


@dataclass(frozen=True)
class SyntaxProblem:
    line: int
    column: int              # 1-based
    message: str


# How tokens are named in messages: reserved words and punctuation as written, the
# others by what they are.
_TOKEN_DESCRIPTIONS = {
    ASN1Lexer.UREF: "a type reference",
    ASN1Lexer.LREF: "an identifier",
    ASN1Lexer.NUMBER: "a number",
    ASN1Lexer.REALNUMBER: "a real number",
    ASN1Lexer.CSTRING: "a character string",
    ASN1Lexer.BSTRING: "a binary string",
    ASN1Lexer.HSTRING: "a hexadecimal string",
    ASN1Lexer.TYPE_FIELD_REF: "a field name",
    ASN1Lexer.VALUE_FIELD_REF: "a field name",
    Token.EOF: "end of file",
}


def describe_token_type(token_type: int) -> str:
    if token_type in _TOKEN_DESCRIPTIONS:
        return _TOKEN_DESCRIPTIONS[token_type]
    # The parser's tables are indexed by token type (the lexer's skip the skipped tokens).
    literal = ASN1Parser.literalNames[token_type] \
        if token_type < len(ASN1Parser.literalNames) else None
    if literal and literal != "<INVALID>":
        return literal
    return ASN1Parser.symbolicNames[token_type]


class _FirstSyntaxError(ErrorListener):
    """Keeps the first syntax error only: ANTLR's recovery makes the later ones guesses."""

    def __init__(self) -> None:
        self.problem: Optional[SyntaxProblem] = None

    def syntaxError(self, recognizer, offendingSymbol, line, column, msg, e):  # noqa: N802
        if self.problem is not None:
            return
        if offendingSymbol is None:                        # from the lexer
            self.problem = SyntaxProblem(line, column + 1, f"syntax error: {msg}")
            return
        if offendingSymbol.type == Token.EOF:
            found = "end of input"
        elif offendingSymbol.type == ASN1Lexer.OTHER:
            found = f"unexpected character {offendingSymbol.text!r}"
        else:
            found = f"unexpected {offendingSymbol.text!r}"
        message = f"syntax error: {found}"
        try:
            expected = recognizer.getExpectedTokens()
        except Exception:                                  # recovery state only
            expected = None
        if expected is not None and expected.intervals:
            names = []
            for interval in expected.intervals:
                names.extend(describe_token_type(t) for t in interval)
            names = sorted(set(names))
            if 0 < len(names) <= 6:
                message += ", expected " + " or ".join(names)
        self.problem = SyntaxProblem(line, column + 1, message)


def _parse(stream: CommonTokenStream, rule: str):
    """Run `rule` on `stream`: SLL first, full LL with error reporting if that fails."""
    parser = ASN1Parser(stream)
    parser.removeErrorListeners()
    parser._interp.predictionMode = PredictionMode.SLL
    parser._errHandler = BailErrorStrategy()
    try:
        return getattr(parser, rule)(), None
    except ParseCancellationException:
        pass
    stream.seek(0)
    parser.reset()
    listener = _FirstSyntaxError()
    parser.addErrorListener(listener)
    parser._errHandler = DefaultErrorStrategy()
    parser._interp.predictionMode = PredictionMode.LL
    tree = getattr(parser, rule)()
    return tree, listener.problem


def parse_text(text: str):
    """Parse a whole file.  Returns (parse tree, token list, first syntax problem or None)."""
    lexer = ASN1Lexer(InputStream(text))
    lexer.removeErrorListeners()
    lexer_errors = _FirstSyntaxError()
    lexer.addErrorListener(lexer_errors)
    stream = CommonTokenStream(lexer)
    stream.fill()
    tree, problem = _parse(stream, "moduleDefinitions")
    return tree, stream.tokens, lexer_errors.problem or problem


def parse_tokens(tokens: Sequence[ast.Token], rule: str):
    """Parse a run of kept tokens (the inside of a block) with one of the grammar's
    ``...Only`` entry rules.  Returns (parse tree, token list, first syntax problem)."""
    antlr_tokens = []
    for index, (token_type, text, line, column) in enumerate(tokens):
        token = CommonToken(type=token_type)
        token.text = text
        token.line = line
        token.column = column - 1
        token.tokenIndex = index
        antlr_tokens.append(token)
    source = ListTokenSource(antlr_tokens)
    source._factory = CommonTokenFactory.DEFAULT
    stream = CommonTokenStream(source)
    stream.fill()
    tree, problem = _parse(stream, rule)
    return tree, stream.tokens, problem
