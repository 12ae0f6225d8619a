"""The measured cost model: bytes from a real build, instructions from the calibration.

Code size of a type: the spec is generated all compiled and its C compiled with the C
compiler in use ($CC, else gcc) at -O2 with -ffunction-sections, so that every routine is
a symbol of its own; `nm -S` gives their sizes.  A type's cost is the size of its decoder
plus its encoder: its BER ones in a build that carries BER (a program links the rules it
calls, and BER is the one every such build can be called with), its PER ones in a build
without BER, where a type that has no PER routines is no item (compiling it would change
nothing).  Cross-routine inlining is turned off (-fno-inline-small-functions
-fno-inline-functions -fno-inline-functions-called-once -fno-ipa-icf; the routines are
static) so that a routine's bytes are its own and costs add
up, as the knapsack assumes; the runtime's inline helpers are still inlined, as they are
in every build.  The sizes are cached by the generated C and the compiler, so a build
step that regenerates an unchanged spec does not compile it again.

The fixed cost, which every build pays whatever the budget: the runtime and the tables
of an all-interpreted build, linked with --gc-sections into a program that decodes and
encodes the PDUs (measure/sizes.py's definition of code bytes), in BER, or in PER for a
build without BER.

The time saved per value, in instructions, comes from the calibrated model
(select/calibration.py, measured once per compiler and machine by `asn1c-hybrid
calibrate`), BER's or PER's as the sizes are: `calibrated_costs`.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..emit import ENCODINGS, EmitOptions, carries_ber, generate
from ..emit.naming import CNames
from ..emit.per_routines import per_symbol
from ..errors import CalibrationError, MeasurementError
from ..measure import CFLAGS, LDFLAGS, RUNTIME_BLOCK_CFLAGS, RUNTIME_CFLAGS, c_compiler, \
    runtime_cflags
from ..measure.sizes import code_bytes, symbol_sizes
from ..resources import data_dir, runtime_sources
from ..typegraph import TypeGraph
from .calibrate import calibrate
from .calibration import Calibration, cache_dir, calibrated_savings, default_path, load_checked
from .costs import Cost, knapsack_items

SIZE_FLAGS = ("-std=c99", "-O2", "-ffunction-sections", "-fno-inline-small-functions",
              "-fno-inline-functions", "-fno-inline-functions-called-once", "-fno-ipa-icf")
BYTES = "bytes"


@dataclass(frozen=True)
class FixedCost:
    """What every build of the spec links whatever the selection: the runtime and the
    descriptor tables (bytes)."""
    runtime: int
    tables: int

    @property
    def total(self) -> int:
        return self.runtime + self.tables


def run_tool(command: Sequence[str], what: str) -> str:
    try:
        result = subprocess.run(list(command), capture_output=True, text=True)
    except FileNotFoundError:
        raise MeasurementError(f"measuring costs needs {command[0]}, which was not found "
                               "(set CC)") from None
    if result.returncode != 0:
        raise MeasurementError(f"{what} failed:\n{result.stderr.strip()[-3000:]}")
    return result.stdout


def cached(kind: str, key_parts: Sequence[object], compute):
    """compute() once per key: the result is kept as JSON in the cache directory (when it
    can be written; a read-only home only costs the recomputation)."""
    digest = hashlib.sha256(repr(list(key_parts)).encode()).hexdigest()[:24]
    path = cache_dir() / kind / f"{digest}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    value = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(value))
        tmp.replace(path)
    except OSError:
        pass
    return value


def routine_sizes(graph: TypeGraph, encodings: tuple[str, ...] = ENCODINGS) -> dict[str, int]:
    """Bytes of machine code of the compiled decoder and encoder of every knapsack item,
    in a build that carries `encodings` (BER's routines, or PER's without BER)."""
    items = [node.id for node in knapsack_items(graph)]
    files = generate(graph, set(items), EmitOptions("measure", encodings=encodings))
    names = CNames(graph)
    per = not carries_ber(encodings)
    symbols = {i: (names.decoder(i), names.encoder(i)) for i in items}
    if per:
        symbols = {i: (per_symbol(d), per_symbol(e)) for i, (d, e) in symbols.items()}
    runtime = [(p.name, p.read_bytes()) for p in runtime_sources()]

    def compute() -> dict[str, int]:
        with tempfile.TemporaryDirectory(prefix="asn1h-measure-") as tmp:
            directory = Path(tmp)
            for name, text in files.items():
                (directory / name).write_text(text)
            obj = directory / "measure.o"
            run_tool([*c_compiler(), *SIZE_FLAGS, "-I", str(directory), "-I",
                  str(data_dir("runtime_c")), "-c", str(directory / "measure.c"), "-o",
                  str(obj)], "compiling the spec to measure its routines")
            sizes = symbol_sizes(obj)
        # without BER, a type that has no PER routines (no symbol) is no item
        return {i: sizes.get(d, 0) + sizes.get(e, 0) for i, (d, e) in symbols.items()
                if not per or d in sizes}
    return cached("routine-sizes", [sorted(files.items()), sorted(symbols.items()), runtime,
                                     c_compiler(), SIZE_FLAGS], compute)


def fixed_cost(graph: TypeGraph, pdus: Sequence[str],
               encodings: tuple[str, ...] = ENCODINGS) -> FixedCost:
    """The runtime and table bytes of an all-interpreted build that decodes and encodes
    the PDUs (every build pays them; the budget is on top): in BER, or in PER (both
    variants) for a build without BER."""
    files = generate(graph, set(), EmitOptions("fixed", encodings=encodings))
    names = CNames(graph)
    if carries_ber(encodings):
        call = ("asn1h_decode(&{t}, value, buf, len, &arena, NULL, NULL, NULL) + "
                "asn1h_encode(&{t}, value, buf, len, &len, NULL)")
    else:
        call = ("fixed_decode_per(&{t}, value, buf, len, (unsigned)argc & 1, &arena, NULL, "
                "NULL, NULL) + fixed_encode_per(&{t}, value, (unsigned)argc & 1, buf, len, "
                "&len, NULL)")
    calls = "\n".join(f"    case {k}: return {call.format(t=names.descriptor(pdu))};"
                      for k, pdu in enumerate(pdus))
    files["fixed_main.c"] = f"""#include "fixed.h"
static union {{ uint64_t align; uint8_t bytes[1 << 16]; }} value_buffer, data;
int main(int argc, char **argv)
{{
    asn1h_arena arena;
    void *value = value_buffer.bytes;
    uint8_t *buf = data.bytes;
    size_t len = sizeof data.bytes;
    (void)argv;
    asn1h_arena_init(&arena, NULL, 0, 1u << 20);
    switch (argc) {{
{calls}
    default: return 0;
    }}
}}
"""
    runtime = [(p.name, p.read_bytes()) for p in runtime_sources()]

    def compute() -> list[int]:
        with tempfile.TemporaryDirectory(prefix="asn1h-fixed-") as tmp:
            directory = Path(tmp)
            generated, runtime_dir = directory / "generated", directory / "runtime"
            generated.mkdir()
            runtime_dir.mkdir()
            for name, text in files.items():
                (generated / name).write_text(text)
            includes = ["-I", str(generated), "-I", str(data_dir("runtime_c"))]
            objects = []
            for source, out_dir, own in [(generated / "fixed.c", generated, ()),
                                         (generated / "fixed_main.c", directory, ())] + \
                    [(p, runtime_dir, runtime_cflags(p)) for p in runtime_sources()
                     if p.suffix == ".c"]:
                obj = out_dir / (source.stem + ".o")
                run_tool([*c_compiler(), *CFLAGS, *own, *includes, "-c", str(source), "-o",
                          str(obj)], "compiling the all-interpreted build")
                objects.append(str(obj))
            map_file = directory / "fixed.map"
            run_tool([*c_compiler(), *CFLAGS, *LDFLAGS, f"-Wl,-Map={map_file}", "-o",
                  str(directory / "fixed"), *objects, "-lm"], "linking the all-interpreted build")
            return [code_bytes(map_file, lambda o: o.startswith(f"{runtime_dir}/")),
                    code_bytes(map_file, lambda o: o.startswith(f"{generated}/fixed.o"))]
    runtime_bytes, table_bytes = cached(
        "fixed-cost", [sorted(files.items()), runtime, c_compiler(), CFLAGS, RUNTIME_CFLAGS,
                       RUNTIME_BLOCK_CFLAGS, LDFLAGS], compute)
    return FixedCost(runtime_bytes, table_bytes)


def calibration_for_use(path: Optional[str] = None,
                        progress: Optional[Callable[[str], None]] = None) -> Calibration:
    """The calibration the measured model uses.  A file named by the user must be valid;
    the default one is made on first use (and remade when the compiler, the machine or
    the runtime changed), which takes about a minute and a half once."""
    if path:
        return load_checked(path)
    target = default_path()
    try:
        return load_checked(target)
    except CalibrationError:
        pass
    if progress:
        progress(f"calibrating the measured cost model for this compiler and machine "
                 f"(once; kept in {target}) ...")
    calibration = calibrate()
    try:
        calibration.save(target)
    except OSError:
        pass                        # a read-only cache: calibrate again next time
    return calibration


def calibrated_costs(graph: TypeGraph, estimate, calibration: Calibration,
                     encodings: tuple[str, ...] = ENCODINGS) -> dict[str, Cost]:
    """The measured model: measured bytes of the compiled routines, and the instructions
    the calibrated model says compiling saves per value (`estimate` gives the members
    present, alternatives chosen and elements per value), by the routines the sizes are
    of: BER's, or PER's in a build without BER."""
    sizes = routine_sizes(graph, encodings)
    savings = calibrated_savings(graph, estimate, calibration, per=not carries_ber(encodings))
    return {i: Cost(sizes[i], savings[i]) for i in sizes}

