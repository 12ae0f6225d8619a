"""The project's own X.400 P1 module set (examples/x400, the trace study's) passes check."""
from __future__ import annotations

from asn1c_hybrid.cli import main


def test_x400_example_passes_check(repo_root, capfd):
    specs = repo_root / "examples" / "x400" / "spec"
    assert any(specs.glob("*.asn")), f"no ASN.1 files in {specs}"
    assert main(["check", str(specs)]) == 0, capfd.readouterr().err
    assert "error:" not in capfd.readouterr().err
