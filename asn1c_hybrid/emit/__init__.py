"""The emitter: type graph + the set of compiled types -> C sources (docs/runtime.md)."""
from __future__ import annotations

from dataclasses import dataclass

from ..typegraph import TypeGraph
from .layout import build_layout
from .render import render


@dataclass
class EmitOptions:
    name: str                      # base name of the generated files
    prefix: str = ""               # prefix of every generated C symbol
    converter: bool = False        # also the source of the converter program


def generate(graph: TypeGraph, compiled: set[str], options: EmitOptions) -> dict[str, str]:
    """C sources (file name -> text) for `graph`, with compiled routines for the node ids
    in `compiled` and interpreter tables for everything."""
    layout = build_layout(graph, compiled, options.prefix)
    return render(layout, options.name, options.prefix, options.converter)
