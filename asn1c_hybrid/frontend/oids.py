"""OBJECT IDENTIFIER components (X.680 32): names of arcs, and module identifiers.

Value references inside OID values need analysis (values.py); a module's definitive
identifier may not use them, so it is read here from its tokens alone.
"""
from __future__ import annotations

from typing import Optional

from . import ast
from .builtins import OID_RECOMMENDATION_LETTERS, OID_ROOT_NAMES, OID_SECOND_NAMES
from .generated.ASN1Lexer import ASN1Lexer as L


def well_known_arc(arcs: list[int], name: str) -> Optional[int]:
    """The number of the arc called `name` under `arcs`, when X.660 names it."""
    if not arcs:
        return OID_ROOT_NAMES.get(name)
    if len(arcs) == 1:
        return OID_SECOND_NAMES.get(arcs[0], {}).get(name)
    if arcs[:2] == [0, 0] and len(arcs) == 2:
        return OID_RECOMMENDATION_LETTERS.get(name)
    return None


def definitive_oid(block: ast.BlockValue) -> Optional[str]:
    """Dotted form of a module's ``{ iso(1) member-body(2) ... }``, or None when it uses
    anything but numbers, ``name(number)`` and the names X.660 gives to top arcs."""
    arcs: list[int] = []
    tokens = block.tokens
    i = 0
    while i < len(tokens):
        token_type, text = tokens[i][0], tokens[i][1]
        if token_type == L.NUMBER:
            arcs.append(int(text))
            i += 1
        elif token_type == L.LREF:
            if (i + 2 < len(tokens) and tokens[i + 1][0] == L.LPAREN
                    and tokens[i + 2][0] == L.NUMBER):
                if i + 3 >= len(tokens) or tokens[i + 3][0] != L.RPAREN:
                    return None
                arcs.append(int(tokens[i + 2][1]))
                i += 4
            else:
                number = well_known_arc(arcs, text)
                if number is None:
                    return None
                arcs.append(number)
                i += 1
        else:
            return None
    return ".".join(map(str, arcs)) if arcs else None
