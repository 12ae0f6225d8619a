"""The converter program's interface and its error output:

    PROG -p Module.Type [-i ber] [-o der|jer|null] [-n N] [--strict-der]
         [--max-depth N] [--max-memory BYTES] FILE...

It reads files of concatenated BER PDUs; on the first bad PDU it prints
`file:offset: Type.path: error` on stderr and exits 1; a bad command line exits 2.
Built with the personnel record in compiled and interpreted modes, under ASan and UBSan.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import cbuild

sys.path.insert(0, str(cbuild.REPO))
from bench import corpora  # noqa: E402

SPEC = cbuild.REPO / "examples" / "personnel" / "personnel.asn"
PDU = "PersonnelRecordModule.PersonnelRecord"
DER = corpora.personnel_der()
INDEFINITE = corpora.personnel_indefinite()
ERROR_LINE = re.compile(r"^(?P<file>.+):(?P<offset>\d+): (?P<path>PersonnelRecordModule\."
                        r"PersonnelRecord(?:\.[\w-]+|\[\d+\])*): (?P<message>.+)$")


@pytest.fixture(scope="module", params=["compiled", "interpreted", "hybrid"])
def prog(request) -> cbuild.Build:
    extra = ("--budget", "30%", "--cost-model", "units") if request.param == "hybrid" else ()
    return cbuild.converter([SPEC], "--mode", request.param, *extra)


@pytest.fixture
def files(tmp_path: Path):
    def write(name: str, data: bytes) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)
    return write


def error_of(result) -> re.Match:
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    match = ERROR_LINE.match(lines[0])
    assert match, lines[0]
    return match


def test_der_output_is_the_concatenated_re_encodings(prog, files):
    path = files("three.ber", DER + INDEFINITE + DER)
    result = prog.run("-p", PDU, "-o", "der", path)
    assert result.stdout == DER * 3
    assert prog.run("-p", PDU, path).stdout == DER * 3            # der is the default
    assert prog.run("-p", PDU, "-i", "ber", "-o", "der", path).stdout == DER * 3


def test_type_by_short_name(prog, files):
    assert prog.run("-p", "PersonnelRecord", files("one.der", DER)).stdout == DER


def test_jer_output_one_value_a_line(prog, files):
    out = prog.run("-p", PDU, "-o", "jer", files("two.ber", DER + INDEFINITE)).stdout
    lines = out.decode().splitlines()
    assert len(lines) == 2
    values = [json.loads(line) for line in lines]
    assert values[0] == values[1]
    assert values[0]["name"]["givenName"] == "Jean"


def test_null_output_and_repeats(prog, files):
    path = files("one.der", DER)
    assert prog.run("-p", PDU, "-o", "null", path).stdout == b""
    assert prog.run("-p", PDU, "-o", "null", "-n", "50", path).returncode == 0
    assert prog.run("-p", PDU, "-n", "3", path).stdout == DER     # output once per PDU


def test_several_files_and_stdin(prog, files):
    a, b = files("a.der", DER), files("b.ber", INDEFINITE)
    assert prog.run("-p", PDU, a, b).stdout == DER * 2
    assert prog.run("-p", PDU, "-", input=DER + DER).stdout == DER * 2


def test_empty_input_is_an_error(prog, files):
    """A file, or standard input, with no PDU in it is an error, not an empty success."""
    for argv, name in (([files("empty", b"")], "empty"), (["-"], "-")):
        result = prog.run("-p", PDU, *argv, input=b"", check=False)
        assert result.returncode == 1 and result.stdout == b""
        assert result.stderr.decode() == f"{argv[0]}:0: empty: no {PDU} in it\n"
    # the files before it are converted; the empty one stops the run
    result = prog.run("-p", PDU, files("one.der", DER), files("none", b""), check=False)
    assert result.returncode == 1 and result.stdout == DER


def test_error_line_names_file_offset_and_path(prog, files):
    # the second PDU's `title` ([0] IMPLICIT IA5String) in the constructed form, with a
    # segment tagged IA5String where X.690 8.23.5 wants OCTET STRING
    title = DER.index(b"\x80\x0eThe Big Cheese")
    bad = DER.replace(b"\x80\x0eThe Big Cheese", b"\xa0\x0e\x16\x0cThe Big Chee")
    path = files("mixed.ber", DER + bad)
    result = prog.run("-p", PDU, "-o", "der", path, check=False)
    assert result.returncode == 1
    assert result.stdout == DER                    # the first PDU went out
    match = error_of(result)
    assert match["file"] == path
    assert int(match["offset"]) == len(DER) + title + 2
    assert match["path"] == f"{PDU}.title"
    assert match["message"] == "unexpected tag"


def test_error_in_a_later_file_names_that_file(prog, files):
    good, bad = files("good.der", DER), files("cut.der", DER[:-5])
    result = prog.run("-p", PDU, good, bad, check=False)
    assert result.returncode == 1
    match = error_of(result)
    assert match["file"] == bad
    assert int(match["offset"]) <= len(DER) - 5
    assert match["message"] in ("bad length", "input ends inside a value")


def test_trailing_garbage_is_an_error(prog, files):
    result = prog.run("-p", PDU, files("tail.der", DER + b"\x05"), check=False)
    assert result.returncode == 1
    match = error_of(result)
    assert int(match["offset"]) == len(DER)
    assert match["path"] == PDU


def test_strict_der(prog, files):
    assert prog.run("-p", PDU, "--strict-der", files("ok.der", DER)).stdout == DER
    result = prog.run("-p", PDU, "--strict-der", files("indef.ber", INDEFINITE), check=False)
    assert result.returncode == 1
    match = error_of(result)
    assert match["message"] == "not canonical"
    assert int(match["offset"]) == 1                # the outermost length, 0x80


def test_limits(prog, files):
    path = files("one.der", DER)
    # PersonnelRecord > children > ChildInformation > Name: four levels
    assert prog.run("-p", PDU, "--max-depth", "4", path).stdout == DER
    match = error_of(prog.run("-p", PDU, "--max-depth", "3", path, check=False))
    assert match["message"] == "nesting too deep"
    assert match["path"].startswith(f"{PDU}.children[0]")
    match = error_of(prog.run("-p", PDU, "--max-memory", "64", path, check=False))
    assert match["message"] == "memory limit reached"
    assert prog.run("-p", PDU, "--max-memory", "100000", path).stdout == DER


@pytest.mark.parametrize("argv", [
    [],                                             # nothing
    ["-p", PDU],                                    # no file
    ["FILE"],                                       # no type
    ["-p", PDU, "-i", "xer", "FILE"],               # only BER input
    ["-p", PDU, "-o", "xml", "FILE"],               # unknown output
    ["-p", PDU, "-n", "0", "FILE"],                 # no repeats
    ["-p", PDU, "--frobnicate", "FILE"],            # unknown option
    ["-p", PDU, "-o"],                              # option without its value
])
def test_bad_command_lines_exit_2_with_usage(prog, files, argv):
    path = files("one.der", DER)
    result = prog.run(*[path if a == "FILE" else a for a in argv], check=False)
    assert result.returncode == 2
    assert result.stdout == b""
    assert b"usage:" in result.stderr


def test_unknown_type_and_missing_file(prog, files):
    result = prog.run("-p", "PersonnelRecordModule.Nothing", files("one.der", DER), check=False)
    assert result.returncode == 2
    assert b"no type PersonnelRecordModule.Nothing" in result.stderr
    result = prog.run("-p", PDU, str(Path(files("one.der", DER)).parent / "absent"), check=False)
    assert result.returncode == 1
    assert b"absent" in result.stderr
