"""asn1c's conformance corpus: each file's verdict (OK, SE, SW, NP) from its name.

* OK: accepted (warnings allowed);
* SW: accepted, with at least one warning;
* SE: rejected with a semantic error (an error that is not a syntax error);
* NP: rejected with a syntax error.

docs/conformance-differences.md lists the files where the front end deliberately differs,
with the verdict it gives instead; the table there is the test's expectation for them.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from asn1c_hybrid.diagnostics import CompileError, Diagnostics
from asn1c_hybrid.frontend import load

CORPUS = "conformance/asn1c-0.9.28"
_ROW = re.compile(r"^\| (\S+\.asn1) \| (OK|SE|SW|NP) \| (OK|SE|SW|NP) \|", re.M)


def differences(repo_root: Path) -> dict[str, str]:
    text = (repo_root / "docs" / "conformance-differences.md").read_text()
    return {name: ours for name, _, ours in _ROW.findall(text)}


def corpus_files(shared: Path) -> list[Path]:
    files = sorted((shared / CORPUS).glob("*.asn1"), key=lambda p: int(p.name.split("-")[0]))
    return files


def verdict_of(path: Path) -> tuple[str, Diagnostics]:
    diagnostics = Diagnostics()
    try:
        load([str(path)], diagnostics)
    except CompileError:
        syntax = any(d.message.startswith("syntax error") for d in diagnostics.errors)
        return ("NP" if syntax else "SE"), diagnostics
    warned = any(d.severity == "warning" for d in diagnostics.items)
    return ("SW" if warned else "OK"), diagnostics


def expected_verdict(path: Path, deliberate: dict[str, str]) -> str:
    return deliberate.get(path.name, re.search(r"-(OK|SE|SW|NP)\.asn1$", path.name).group(1))


def test_every_file_gets_its_verdict(shared_dir, repo_root):
    deliberate = differences(repo_root)
    files = corpus_files(shared_dir)
    assert len(files) == 135
    assert set(deliberate) <= {f.name for f in files}
    failures = []
    for path in files:
        expected = expected_verdict(path, deliberate)
        got, diagnostics = verdict_of(path)
        ok = (got == expected) or (expected == "OK" and got == "SW")
        if not ok:
            failures.append(f"{path.name}: expected {expected}, got {got}: "
                            + "; ".join(d.message for d in diagnostics.items[:3]))
    assert not failures, "\n".join(failures)


def test_the_listed_differences_are_few_and_explained(repo_root):
    deliberate = differences(repo_root)
    assert len(deliberate) <= 6
    text = (repo_root / "docs" / "conformance-differences.md").read_text()
    for name in deliberate:
        row = next(line for line in text.splitlines() if line.startswith(f"| {name} "))
        assert len(row.split("|")[4].strip()) > 40, f"{name}: the reason is missing"


@pytest.mark.parametrize("name, fragment", [
    ("02-garbage-NP.asn1", "syntax error"),
    ("04-enum-SE.asn1", "'blue(1)' has the same value as 'green'"),
    ("26-sequence-SE.asn1", "'c' and 'b' can have the same tag [UNIVERSAL 2]"),
    ("53-constraint-SE.asn1", "outside the parent type's range 1..32"),
    ("54-constraint-SE.asn1", "'#' is not a character of NumericString"),
    ("63-any-2-SE.asn1", "IMPLICIT cannot tag an open type"),
    ("78-str-default-SE.asn1", "a GeneralString value, but a UTF8String is expected"),
    ("103-reference-SE.asn1", "imports from itself"),
    ("111-param-4-SE.asn1", "'cyan' is not defined"),
])
def test_messages_say_what_is_wrong(shared_dir, name, fragment):
    got, diagnostics = verdict_of(shared_dir / CORPUS / name)
    assert any(fragment in d.message for d in diagnostics.errors), \
        [d.format() for d in diagnostics.items]


def test_errors_point_into_the_file_with_the_source_line(shared_dir):
    path = shared_dir / CORPUS / "45-undefined-type-SE.asn1"
    _, diagnostics = verdict_of(path)
    error = diagnostics.errors[0]
    assert error.location.file == str(path)
    assert "KnownExt" in error.source_line
    text = error.format()
    assert text.startswith(f"{path}:{error.location.line}:{error.location.column}: error: ")
    assert "KnownExt" in text.splitlines()[1]
