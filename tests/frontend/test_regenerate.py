"""The committed parser matches the grammar (grammars/*.g4 -> frontend/generated/)."""
from __future__ import annotations

import shutil

import pytest

from asn1c_hybrid.frontend import generated, regenerate


def test_recorded_grammar_digest_matches_the_grammar():
    """Cheap and always run: the grammar changed without `make grammar`."""
    assert generated.GRAMMAR_SHA256 == regenerate.grammar_digest(), \
        "grammars/ changed: run `make grammar` and commit the regenerated parser"


def test_committed_parser_is_what_antlr_generates(tmp_path):
    """Regenerate with the ANTLR tool into a temporary directory and compare every file."""
    if shutil.which("java") is None:
        pytest.skip("Java is not installed: the ANTLR tool cannot run here")
    try:
        written = regenerate.generate(tmp_path)
    except SystemExit as exc:
        pytest.skip(f"the ANTLR tool is not available here: {exc}")
    names = sorted(path.name for path in written)
    committed = sorted(p.name for p in regenerate.GENERATED_DIR.glob("*.py"))
    assert names == committed
    for name in names:
        fresh = (tmp_path / name).read_bytes()
        current = (regenerate.GENERATED_DIR / name).read_bytes()
        assert fresh == current, f"generated/{name} is stale: run `make grammar`"
