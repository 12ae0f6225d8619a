"""The emitter: type graph + the set of compiled types -> C sources (docs/runtime.md)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..layouts import Layout as MessageLayout
from ..typegraph import TypeGraph
from .layout import build_layout
from .render import render
from .rules import BER, ENCODINGS, PER, RULES, carries_ber, per_rules

__all__ = ["BER", "ENCODINGS", "PER", "RULES", "EmitOptions", "carries_ber", "generate",
           "per_rules"]


@dataclass
class EmitOptions:
    name: str                      # base name of the generated files
    prefix: str = ""               # prefix of every generated C symbol
    converter: bool = False        # also the source of the converter program
    # the rules the build carries: without PER, the tables leave its constraints and
    # groups out and the converter does not link its codec; without BER, likewise, and
    # compiled types get PER routines only; der instead of ber: the program reads DER's
    # forms of strings and times alone and links none of BER's others (docs/runtime.md)
    encodings: tuple[str, ...] = ENCODINGS
    # SEQUENCE and SET types whose values keep their TLV as received (`encoding_`)
    keep_encoding: frozenset[str] = frozenset()
    # the PDU type and the message layouts that get fast paths (emit/fastpaths.py)
    fast_layouts: Optional[tuple[str, tuple[MessageLayout, ...]]] = None


def generate(graph: TypeGraph, compiled: set[str], options: EmitOptions) -> dict[str, str]:
    """C sources (file name -> text) for `graph`, with compiled routines for the node ids
    in `compiled` and interpreter tables for everything."""
    layout = build_layout(graph, compiled, options.prefix, bool(per_rules(options.encodings)),
                          options.keep_encoding,
                          ber=carries_ber(options.encodings),
                          ber_forms="der" not in options.encodings)
    return render(layout, options.name, options.prefix, options.converter, options.encodings,
                  options.fast_layouts)
