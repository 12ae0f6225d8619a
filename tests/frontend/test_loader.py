"""loader.py: inputs, import links by OID or name, missing and duplicate modules."""
from __future__ import annotations

import os

from asn1c_hybrid.diagnostics import Diagnostics
from asn1c_hybrid.frontend.loader import load_specification, spec_files


def test_directories_give_their_asn1_files_in_name_order(tmp_path):
    for name in ("b.asn1", "a.asn", "c.txt", "D.ASN"):
        (tmp_path / name).write_text("")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "e.asn").write_text("")
    files = spec_files([str(tmp_path)])
    assert [os.path.basename(f) for f in files] == ["D.ASN", "a.asn", "b.asn1"]


def test_names_are_kept_as_given_and_duplicates_dropped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.asn").write_text("")
    assert spec_files(["a.asn", "./a.asn", str(tmp_path / "a.asn")]) == ["a.asn"]


def test_import_by_oid_wins_over_the_name(spec):
    """X.680: the module identifier's OID identifies the module (asn1c test 13)."""
    graph = spec.load("""
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM Renamed { 1 2 3 };
        U ::= T
        END""", """
        B { 1 2 3 } DEFINITIONS ::= BEGIN
        T ::= BOOLEAN
        END""")
    assert graph["A.U"].alias_of == "B.T"


def test_module_oids_are_in_module_info(spec):
    graph = spec.load("""
        M { iso(1) member-body(2) 840 } DEFINITIONS ::= BEGIN T ::= NULL END""")
    assert graph.modules[0].oid == "1.2.840"


def test_missing_module_is_an_error_at_the_import_when_used(spec):
    path = spec.write("""
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM Nowhere;
        U ::= SEQUENCE { t T }
        END""")
    from asn1c_hybrid.diagnostics import CompileError
    from asn1c_hybrid.frontend import load
    diagnostics = Diagnostics()
    try:
        load([path], diagnostics)
    except CompileError:
        pass
    [error] = diagnostics.items
    assert error.severity == "error"
    assert error.message == "module 'Nowhere' is imported but not found among the inputs"
    assert (error.location.line, error.location.column) == (3, 16)


def test_missing_module_whose_symbols_are_unused_is_a_warning(spec):
    graph = spec.load("""
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM Nowhere;
        U ::= INTEGER
        END""")
    [warning] = graph.diagnostics.items
    assert warning.severity == "warning" and "Nowhere" in warning.message


def test_duplicate_module_names(spec):
    errors = spec.errors("""
        A DEFINITIONS ::= BEGIN END
        A DEFINITIONS ::= BEGIN END""")
    assert errors == ["module A is defined more than once (first at "
                      f"{spec.directory / 'spec1.asn'}:2)"]
    graph = spec.load("""
        A { 1 1 } DEFINITIONS ::= BEGIN END
        A { 1 2 } DEFINITIONS ::= BEGIN END""")
    assert "different OBJECT IDENTIFIERs" in graph.diagnostics.items[0].message


def test_self_import(spec):
    assert spec.errors("""
        A DEFINITIONS ::= BEGIN IMPORTS T FROM A; U ::= T END""") == [
        "module A imports from itself"]


def test_duplicate_assignment(spec):
    errors = spec.errors("A DEFINITIONS ::= BEGIN\nT ::= INTEGER\nT ::= BOOLEAN\nEND")
    assert errors == ["'T' is already defined in module A (line 2)"]


def test_load_specification_links(spec):
    path = spec.write("""
        A DEFINITIONS ::= BEGIN IMPORTS X FROM B y FROM Missing; END
        B DEFINITIONS ::= BEGIN X ::= INTEGER END""")
    loaded = load_specification([path], Diagnostics())
    a = loaded.modules[0]
    assert a.imports["X"].target is loaded.modules[1]
    assert a.imports["y"].target is None and a.imports["y"].missing.name == "Missing"
    assert [m.name for m in loaded.missing] == ["Missing"]
    assert loaded.sources == {path: open(path).read()}


def test_modules_of_a_file_that_does_not_parse_are_not_reported_missing(spec):
    errors = spec.errors("""
        A DEFINITIONS ::= BEGIN
        IMPORTS T FROM B;
        U ::= SEQUENCE { t T }
        END""", """
        B DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { oops ,, }
        END""")
    assert len(errors) == 1 and errors[0].startswith("syntax error")
