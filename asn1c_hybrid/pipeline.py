"""The stages chained: load -> estimate -> select -> emit, as the CLI and the study use them."""
from __future__ import annotations

from typing import Optional, Sequence

from .diagnostics import Diagnostics
from .typegraph import TypeGraph


def load(specs: Sequence[str], diagnostics: Optional[Diagnostics] = None) -> TypeGraph:
    from . import frontend
    return frontend.load(specs, diagnostics)
