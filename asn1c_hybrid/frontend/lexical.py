"""The values of lexical items (X.680 12): what a cstring, bstring or hstring token says."""
from __future__ import annotations

import re

_CSTRING_NEWLINE = re.compile(r"[ \t]*\r?\n[ \t\r\n]*")


def cstring_text(token_text: str) -> str:
    """X.680 12.14: quotes doubled inside, and spacing around line ends is not significant."""
    body = token_text[1:-1].replace('""', '"')
    return _CSTRING_NEWLINE.sub("", body)


def bstring_bits(token_text: str) -> str:
    """The binary digits of ``'0101'B`` (spacing is not significant)."""
    return "".join(token_text[1:-2].split())


def hstring_digits(token_text: str) -> str:
    """The hexadecimal digits of ``'0A F1'H``, in upper case."""
    return "".join(token_text[1:-2].split()).upper()
