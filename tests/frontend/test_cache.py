"""cache.py: parsed modules cached by the hash of the text, outside the repository."""
from __future__ import annotations

import pickle

from asn1c_hybrid.diagnostics import Diagnostics
from asn1c_hybrid.frontend import cache
from asn1c_hybrid.frontend.loader import parse_source

TEXT = "M DEFINITIONS ::= BEGIN T ::= INTEGER END\n"


def test_store_then_load(tmp_path, monkeypatch):
    monkeypatch.setenv("ASN1H_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ASN1H_NO_CACHE", raising=False)
    assert cache.load(TEXT) is None
    modules = parse_source(TEXT, "a.asn", Diagnostics())
    entries = list(tmp_path.iterdir())
    assert len(entries) == 1 and entries[0].suffix == ".pickle"
    cached = cache.load(TEXT)
    assert [m.name for m in cached] == ["M"]
    assert cached[0].assignments[0].name == "T"
    assert cache.load(TEXT + " ") is None            # another text, another entry


def test_file_name_is_not_part_of_the_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("ASN1H_CACHE_DIR", str(tmp_path))
    first = parse_source(TEXT, "first/a.asn", Diagnostics())
    second = parse_source(TEXT, "second/b.asn", Diagnostics())
    assert len(list(tmp_path.iterdir())) == 1
    assert first[0].file == "first/a.asn" and second[0].file == "second/b.asn"


def test_syntax_errors_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("ASN1H_CACHE_DIR", str(tmp_path))
    diagnostics = Diagnostics()
    assert parse_source("M DEFINITIONS ::= BEGIN T ::= END", "x.asn", diagnostics) == []
    assert diagnostics.errors and not list(tmp_path.iterdir())


def test_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("ASN1H_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("ASN1H_NO_CACHE", "1")
    parse_source(TEXT, "a.asn", Diagnostics())
    assert cache.cache_dir() is None and not list(tmp_path.iterdir())


def test_default_location_is_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("ASN1H_CACHE_DIR", raising=False)
    monkeypatch.delenv("ASN1H_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "asn1c-hybrid" / "parsed"


def test_a_damaged_entry_costs_only_a_parse(tmp_path, monkeypatch):
    monkeypatch.setenv("ASN1H_CACHE_DIR", str(tmp_path))
    parse_source(TEXT, "a.asn", Diagnostics())
    entry = next(tmp_path.iterdir())
    entry.write_bytes(b"not a pickle")
    assert cache.load(TEXT) is None
    assert [m.name for m in parse_source(TEXT, "a.asn", Diagnostics())] == ["M"]
    with open(entry, "rb") as stream:
        assert isinstance(pickle.load(stream), list)      # rewritten
