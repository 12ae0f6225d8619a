"""Measured code size: the bytes of each type's compiled routines, from a real build.

The spec is generated all compiled and its C compiled with the C compiler in use
($CC, else cc) at -O2 with -ffunction-sections, so that every routine is a symbol of its
own; `nm -S` gives their sizes.  A type's cost is the size of its decoder plus its
encoder.  Cross-routine inlining is turned off (-fno-inline-small-functions
-fno-inline-functions -fno-ipa-icf) so that a routine's bytes are its own and costs add
up, as the knapsack assumes; the runtime's inline helpers are still inlined, as they are
in every build.  The descriptors and member tables are not counted: every type has them,
compiled or not.

The time saved per value, in instructions, comes from the calibrated model
(select/calibration.py, measured once per compiler and machine by `asn1c-hybrid
calibrate`): `calibrated_costs`, what `--cost-model measured` uses.  Without a
calibration, `measured_costs` keeps the paper's interpreter calls saved (figure 3).
"""
from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Mapping, Optional

from ..typegraph import TypeGraph
from .costs import Cost, knapsack_items, unit_costs

SIZE_FLAGS = ("-std=c99", "-O2", "-ffunction-sections", "-fno-inline-small-functions",
              "-fno-inline-functions", "-fno-ipa-icf")
BYTES = "bytes"


class MeasureError(Exception):
    """The measurement build failed (no compiler, no nm, a compile error)."""


def compiler() -> list[str]:
    return shlex.split(os.environ.get("CC", "cc"))


def _run(command: list[str], what: str) -> str:
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise MeasureError(f"measuring costs needs {command[0]}, which was not found") \
            from None
    if result.returncode != 0:
        raise MeasureError(f"{what} failed:\n{result.stderr.strip()}")
    return result.stdout


def symbol_sizes(object_file: Path) -> dict[str, int]:
    """Sizes of the functions an object file defines (`nm -S`)."""
    sizes: dict[str, int] = {}
    for line in _run(["nm", "-S", "--defined-only", str(object_file)], "nm").splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in ("T", "t"):
            sizes[parts[3]] = sizes.get(parts[3], 0) + int(parts[1], 16)
    return sizes


def routine_sizes(graph: TypeGraph) -> dict[str, int]:
    """Bytes of machine code of the compiled decoder and encoder of every knapsack item."""
    from ..emit import EmitOptions, generate
    from ..emit.naming import CNames
    from ..resources import data_dir
    items = [node.id for node in knapsack_items(graph)]
    with tempfile.TemporaryDirectory(prefix="asn1h-measure-") as tmp:
        directory = Path(tmp)
        files = generate(graph, set(items), EmitOptions("measure"))
        for name, text in files.items():
            (directory / name).write_text(text)
        obj = directory / "measure.o"
        _run([*compiler(), *SIZE_FLAGS, "-I", str(directory), "-I", str(data_dir("runtime_c")),
              "-c", str(directory / "measure.c"), "-o", str(obj)], "compiling the spec")
        sizes = symbol_sizes(obj)
    names = CNames(graph)
    return {i: sizes.get(names.decoder(i), 0) + sizes.get(names.encoder(i), 0) for i in items}


def measured_costs(graph: TypeGraph,
                   items_per_value: Optional[Mapping[str, float]] = None) -> dict[str, Cost]:
    """Cost: measured bytes of the compiled routines.  Saving per value: the interpreter
    calls compiling saves (figure 3's time column), for want of a calibration."""
    sizes = routine_sizes(graph)
    calls = unit_costs(graph, items_per_value)
    return {i: Cost(sizes[i], calls[i].saving) for i in sizes}


def calibrated_costs(graph: TypeGraph, estimate, calibration) -> dict[str, Cost]:
    """`--cost-model measured`: measured bytes of the compiled routines, and the
    instructions the calibrated model says compiling saves per value (`estimate` gives
    the members present, alternatives chosen and elements per value)."""
    from .calibration import calibrated_savings
    sizes = routine_sizes(graph)
    savings = calibrated_savings(graph, estimate, calibration)
    return {i: Cost(sizes[i], savings[i]) for i in sizes}
