"""`asn1c-hybrid check`: diagnostics on stderr, exit status 0 only without errors."""
from __future__ import annotations

import subprocess
import sys

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
