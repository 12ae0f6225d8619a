"""A cache of parsed modules, keyed by the hash of the file's text (and of the blocks that
analysis parsed, keyed by the hashes of all the inputs).

Parsing is the slow part of the front end (the ANTLR Python runtime), and specifications
rarely change between runs, so the AST of every file that parsed without error is kept in
the user's cache directory (never inside the repository):

    $ASN1H_CACHE_DIR, else $XDG_CACHE_HOME/asn1c-hybrid/parsed, else ~/.cache/asn1c-hybrid/parsed

ASN1H_NO_CACHE=1 turns it off.  The key includes a hash of the grammar and of the AST
code, so a changed front end never reads an entry written by an older one.  Every failure
to read or write the cache is silent: it only costs a parse.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Optional

from . import ast

_HERE = Path(__file__).resolve().parent


def _code_version() -> str:
    digest = hashlib.sha256()
    from .generated import GRAMMAR_SHA256
    digest.update(GRAMMAR_SHA256.encode())
    for name in ("ast.py", "astbuilder.py", "parsing.py"):
        try:
            digest.update((_HERE / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()[:16]


_VERSION = _code_version()


def cache_dir() -> Optional[Path]:
    if os.environ.get("ASN1H_NO_CACHE"):
        return None
    explicit = os.environ.get("ASN1H_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "asn1c-hybrid" / "parsed"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _entry(text: str) -> Optional[Path]:
    directory = cache_dir()
    if directory is None:
        return None
    return directory / f"{_VERSION}-{_digest(text)}.pickle"


def _memo_entry(texts: list[str]) -> Optional[Path]:
    directory = cache_dir()
    if directory is None:
        return None
    combined = hashlib.sha256("".join(_digest(t) for t in texts).encode()).hexdigest()
    return directory / f"{_VERSION}-deferred-{combined}.pickle"


def _read(entry: Optional[Path], kind: type):
    if entry is None:
        return None
    try:
        with open(entry, "rb") as stream:
            data = pickle.load(stream)
    except Exception:                       # missing, truncated, or from another Python
        return None
    return data if isinstance(data, kind) else None


def load(text: str) -> Optional[list[ast.Module]]:
    return _read(_entry(text), list)


def store(text: str, modules: list[ast.Module]) -> None:
    _write(_entry(text), modules)


def load_deferred(texts: list[str]) -> Optional[dict]:
    """The notation read from blocks while analysing exactly these texts (deferred.py):
    the parses that analysis does itself, kept for the next run over the same inputs."""
    return _read(_memo_entry(texts), dict)


def store_deferred(texts: list[str], memo: dict) -> None:
    _write(_memo_entry(texts), memo)


def _write(entry: Optional[Path], data) -> None:
    if entry is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=entry.parent, delete=False) as stream:
            pickle.dump(data, stream, protocol=pickle.HIGHEST_PROTOCOL)
            temporary = stream.name
        os.replace(temporary, entry)
    except Exception:
        pass
