"""Measuring: how speed and code size are measured: instructions with callgrind, bytes with the linker.

The benchmark suite (bench/), the X.400 trace study and the calibration of the time-saving
model all measure this way, so that their numbers mean the same thing.

Instructions
    A driver program calls one measured function (for example bench_decode_once) many
    times.  Callgrind runs it with collection off (--collect-atstart=no) and switched on
    only while that function is on the stack (--toggle-collect=NAME): the count is every
    instruction executed inside it and its callees (malloc and free included), and nothing
    of the program's start, input reading or warm-up.  Divided by the number of calls it
    gives instructions per call.  Callgrind counts executed guest instructions exactly, so
    the same binary and input give the same number on every run and machine load.

Code size
    Each implementation is linked statically into its driver with -ffunction-sections,
    -fdata-sections and --gc-sections, and a linker map.  Its code size is the sum of the
    input sections the link kept from its own objects (generated code and its runtime
    library, including archive members of a prebuilt library) whose names start with .text,
    .rodata or .data: machine code, constant tables and initialised data (descriptors and
    interpreter tables are part of an implementation's size).  Not counted: the driver,
    libc and libgcc, .bss, unwind tables (.eh_frame) and debug information.

Code that runs
    Callgrind with --dump-instr=yes lists the addresses of the instructions executed inside
    the measured function; objdump gives each instruction's length.  Their sum over an
    implementation's kept .text sections is the code a benchmark runs, beside the code it
    keeps (counts.executed_addresses, sizes.executed_code_bytes).
"""
from __future__ import annotations

import functools
import os
import shlex
import subprocess
from pathlib import PurePath
from typing import List, Tuple, Union

from ..errors import MeasurementError

# The build every measurement uses, for every implementation and for the driver:
# -ffunction-sections/--gc-sections keep only what the driver reaches, -z now binds every
# shared-library call at start-up so that lazy binding is never counted.
CFLAGS = ("-O2", "-ffunction-sections", "-fdata-sections", "-w")
LDFLAGS = ("-Wl,--gc-sections", "-Wl,-z,now")
# The runtime's sources take these after CFLAGS, as the CMake function and the Make fragment
# give them by default (docs/build-integration.md, "Optimization flags"): no padding to
# align jump targets and loops.  Its code is about 6% smaller and runs no more
# instructions.  Nor are a function's unlikely blocks split off into a .cold part: they stay
# at its end, reached by short jumps: 180 to 230 bytes less, the same instructions run.
# clang ignores -falign-jumps under -w, but refuses the last one: runtime_cflags leaves
# GCC_ONLY_CFLAGS out for it.
GCC_ONLY_CFLAGS = ("-fno-reorder-blocks-and-partition",)
RUNTIME_CFLAGS = ("-falign-jumps=1", "-falign-loops=1") + GCC_ONLY_CFLAGS
# Every runtime source but two also takes these, unless the build is for size (-Os, -Oz):
# basic blocks laid out in source order.  The BER interpreter is about 3% smaller at -O2 and,
# its dispatch being a tail call, runs fewer instructions than before either.  PER's decoder
# and the TLV loops of asn1h_ber.c (SET OF's sort) would run more, so they keep gcc's
# default, and so does -Os, where this order is larger.  clang has no such flag: under -w it
# ignores it.
RUNTIME_BLOCK_CFLAGS = ("-freorder-blocks-algorithm=simple",)
RUNTIME_BLOCK_EXCEPT = ("asn1h_ber.c", "asn1h_per.c")
SIZE_LEVELS = ("-Os", "-Oz")


def runtime_cflags(source: Union[str, PurePath], level: str = "-O2") -> Tuple[str, ...]:
    """The flags runtime source `source` (a path or a file name) takes after CFLAGS and the
    optimization `level`, with the measurements' compiler (c_compiler)."""
    flags = RUNTIME_CFLAGS
    if _is_clang(tuple(c_compiler())):
        flags = tuple(flag for flag in flags if flag not in GCC_ONLY_CFLAGS)
    if PurePath(source).name in RUNTIME_BLOCK_EXCEPT or level in SIZE_LEVELS:
        return flags
    return flags + RUNTIME_BLOCK_CFLAGS


@functools.lru_cache(maxsize=None)
def _is_clang(compiler: Tuple[str, ...]) -> bool:
    """Whether `compiler` is clang (which `cc` may be), as the Make fragment asks it."""
    try:
        return "clang" in subprocess.run([*compiler, "--version"], capture_output=True,
                                          text=True, check=False).stdout
    except OSError:
        return False


__all__ = ["CFLAGS", "GCC_ONLY_CFLAGS", "LDFLAGS", "RUNTIME_BLOCK_CFLAGS", "RUNTIME_BLOCK_EXCEPT",
           "RUNTIME_CFLAGS", "SIZE_LEVELS", "MeasurementError", "c_compiler", "runtime_cflags"]


def c_compiler() -> List[str]:
    """The C compiler of measurements: $CC, else gcc."""
    return shlex.split(os.environ.get("CC") or "gcc")
