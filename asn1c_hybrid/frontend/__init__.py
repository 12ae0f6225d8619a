"""The front end: ASN.1 text -> TypeGraph (see docs/frontend.md)."""
from __future__ import annotations

import os
import sys
from typing import Optional, Sequence, Union

from ..diagnostics import CompileError, Diagnostics
from ..typegraph import TypeGraph
from .analysis import Analyzer
from .loader import load_specification

# Analysis follows nested types recursively; real specifications nest a few dozen levels,
# and each level costs a handful of Python frames.
_RECURSION_LIMIT = 20000


def load(paths: Sequence[Union[str, os.PathLike]],
         diagnostics: Optional[Diagnostics] = None, *, lenient: bool = False) -> TypeGraph:
    """Parse and analyse the given files, and the .asn/.asn1 files in the given directories.
    `lenient` (or `diagnostics.lenient`) tolerates the common defects of real
    specifications with a warning each (docs/frontend.md, "Lenient mode").

    Errors and warnings are recorded in `diagnostics`; if there is any error, raises
    CompileError carrying all of them."""
    if diagnostics is None:
        diagnostics = Diagnostics()
    diagnostics.lenient = diagnostics.lenient or lenient
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, _RECURSION_LIMIT))
    graph = None
    try:
        loaded = load_specification(paths, diagnostics)
        graph = Analyzer(loaded, diagnostics).run()
    except (CompileError, OSError):
        raise
    except Exception as exc:  # noqa: BLE001 - reported, never a traceback
        diagnostics.error(f"internal error: {type(exc).__name__}: {exc}")
    finally:
        sys.setrecursionlimit(previous_limit)
    diagnostics.raise_if_errors()
    return graph
