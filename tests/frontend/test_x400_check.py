"""The project's own X.400 P1 module set (examples/x400, from the trace study) passes check."""
from __future__ import annotations

import pytest

from asn1c_hybrid.cli import main


def test_x400_example_passes_check(repo_root, capfd):
    example = repo_root / "examples" / "x400"
    if not example.is_dir():
        pytest.skip("examples/x400 does not exist yet (the trace study writes it)")
    specs = example / "spec" if (example / "spec").is_dir() else example
    assert any(specs.glob("*.asn")) or any(specs.glob("*.asn1")), f"no ASN.1 files in {specs}"
    assert main(["check", str(specs)]) == 0, capfd.readouterr().err
    assert "error:" not in capfd.readouterr().err
