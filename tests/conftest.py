"""Shared fixtures: where the repository and the shared reference material are."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Reference specifications, papers and conformance corpora sit beside the checkout;
# ASN1H_SHARED points elsewhere when they do not.
SHARED = Path(os.environ.get("ASN1H_SHARED", REPO.parent / "shared"))
# A bug of the compiler shows its traceback in the tests, not the command line's one line.
os.environ.setdefault("ASN1H_TRACEBACK", "1")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"shared reference material not found at {SHARED} (set ASN1H_SHARED)")
    return SHARED
