"""`asn1c-hybrid check`: diagnostics on stderr, exit status 0 only without errors."""
from __future__ import annotations

import subprocess
import sys

import pytest

from asn1c_hybrid.cli import main


def test_clean_file_exits_zero(spec, capfd):
    path = spec.write("""
        M DEFINITIONS ::= BEGIN
        T ::= INTEGER
        END
    """)
    assert main(["check", path]) == 0
    out, err = capfd.readouterr()
    assert err == ""


def test_verbose_counts(spec, capfd):
    path = spec.write("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a INTEGER }
        v T ::= { a 5 }
        END
    """)
    assert main(["check", "-v", path]) == 0
    assert capfd.readouterr().out.strip() == "1 modules, 2 types, 1 values"


def test_warnings_alone_still_exit_zero(spec, capfd):
    path = spec.write("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { INTEGER }
        END
    """)
    assert main(["check", path]) == 0
    assert ": warning: component without an identifier" in capfd.readouterr().err


def test_semantic_error_format_and_exit_one(spec, capfd):
    path = spec.write("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a Undefined }
        END
    """)
    assert main(["check", path]) == 1
    err = capfd.readouterr().err.splitlines()
    assert err[0] == f"{path}:3:20: error: 'Undefined' is not defined (X.680 13); define " \
                     "or import it, or accept it with --lenient"
    assert err[1] == "    T ::= SEQUENCE { a Undefined }"
    assert err[2] == "    " + " " * 19 + "^"


def test_syntax_error_is_reported_with_its_position(spec, capfd):
    path = spec.write("""
        M DEFINITIONS ::= BEGIN
        T ::= SEQUENCE { a INTEGER,, }
        END
    """)
    assert main(["check", path]) == 1
    err = capfd.readouterr().err
    assert err.startswith(f"{path}:3:28: error: syntax error: unexpected ','")


def test_directory_and_missing_file(tmp_path, capfd):
    (tmp_path / "a.asn").write_text("A DEFINITIONS ::= BEGIN IMPORTS T FROM B; U ::= T END\n")
    (tmp_path / "b.asn1").write_text("B DEFINITIONS ::= BEGIN T ::= BOOLEAN END\n")
    (tmp_path / "notes.txt").write_text("not ASN.1")
    assert main(["check", str(tmp_path)]) == 0
    assert main(["check", str(tmp_path / "absent.asn")]) == 1
    assert "absent.asn" in capfd.readouterr().err


def test_no_traceback_on_a_broken_input(spec):
    """Random bytes: a syntax error, exit 1, never a Python traceback."""
    path = spec.write("M DEFINITIONS ::= BEGIN \x00\x01 ::= {{{ END")
    result = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "check", path],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert ": error: syntax error" in result.stderr


def test_an_empty_directory_is_named_in_the_error_form(tmp_path, capfd):
    empty = tmp_path / "no specs here"
    empty.mkdir()
    (empty / "notes.txt").write_text("not ASN.1")
    assert main(["check", str(empty)]) == 1
    err = capfd.readouterr().err.strip()
    assert err == (f"{empty}:1:1: error: no ASN.1 files (.asn or .asn1) in the directory "
                   f"{empty}")


@pytest.mark.parametrize("text", ["", "-- a header comment, and no module\n"],
                         ids=["empty", "comment only"])
def test_a_file_without_a_module_is_an_error_not_a_traceback(tmp_path, text):
    """A file that parses to no module (empty, or cut inside its header comment) is named in
    an error, beside a file that does define one too; `compile` used to fail with an
    IndexError when no module was left at all."""
    nothing = tmp_path / "nothing.asn"
    nothing.write_text(text)
    (tmp_path / "m.asn1").write_text("M DEFINITIONS ::= BEGIN T ::= BOOLEAN END\n")
    for inputs in ([nothing], [nothing, tmp_path / "m.asn1"]):
        result = subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", *inputs,
                                 "-o", tmp_path / "out"], capture_output=True, text=True)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith(f'{nothing}:1:1: error: no module in the file (a module '
                                        'starts "Name DEFINITIONS ::= BEGIN")\n'), result.stderr
    assert not (tmp_path / "out").exists()


def test_a_bug_of_ours_is_one_line_and_exit_70_not_a_traceback(spec, capfd, monkeypatch):
    """Any exception that no error class covers (a bug) ends the command with one
    `internal error` line; ASN1H_TRACEBACK=1 (set for the tests) raises it instead."""
    path = spec.write("M DEFINITIONS ::= BEGIN T ::= BOOLEAN END")

    def broken(*args, **kwargs):
        raise IndexError("list index out of range")
    monkeypatch.setattr("asn1c_hybrid.api.load", broken)
    with pytest.raises(IndexError):
        main(["check", path])
    monkeypatch.delenv("ASN1H_TRACEBACK")
    assert main(["check", path]) == 70
    assert capfd.readouterr().err == (
        "asn1c-hybrid: internal error: IndexError: list index out of range (a bug of "
        "asn1c-hybrid; ASN1H_TRACEBACK=1 shows where)\n")
