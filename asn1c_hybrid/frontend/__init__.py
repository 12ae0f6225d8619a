"""The front end: ASN.1 text -> TypeGraph (see docs/frontend.md)."""
from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from ..diagnostics import Diagnostics
from ..typegraph import TypeGraph


def load(paths: Sequence[Union[str, os.PathLike]],
         diagnostics: Optional[Diagnostics] = None) -> TypeGraph:
    """Parse and analyse the given files, and the .asn/.asn1 files in the given directories.

    Errors and warnings are recorded in `diagnostics`; if there is any error, raises
    CompileError carrying all of them."""
    raise NotImplementedError("front end not written yet")
