"""How speed and code size are measured: instructions with callgrind, bytes with the linker.

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
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

VALGRIND = "valgrind"
COUNTED_SECTION_PREFIXES = (".text", ".rodata", ".data")

# The build every measurement uses, for every implementation and for the driver:
# -ffunction-sections/--gc-sections keep only what the driver reaches, -z now binds every
# shared-library call at start-up so that lazy binding is never counted.
CFLAGS = ("-O2", "-ffunction-sections", "-fdata-sections", "-w")
LDFLAGS = ("-Wl,--gc-sections", "-Wl,-z,now")


class MeasurementError(RuntimeError):
    pass


def c_compiler() -> List[str]:
    """The C compiler of measurements: $CC, else gcc."""
    return shlex.split(os.environ.get("CC") or "gcc")


@dataclass(frozen=True)
class Count:
    function: str
    instructions: int     # inside `function` and its callees, over all calls
    calls: int

    @property
    def per_call(self) -> float:
        return self.instructions / self.calls


def parse_callgrind_total(text: str) -> int:
    """The Ir total of a callgrind output file (its `totals:` line, else `summary:`)."""
    for key in ("totals:", "summary:"):
        for line in text.splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    raise MeasurementError("no totals in callgrind output")


def run_callgrind(argv: Sequence[str], functions: Sequence[str], *,
                  cwd: Optional[Path] = None, timeout: float = 3600) -> tuple[str, str]:
    """Runs argv under callgrind, collecting only while one of `functions` is on the
    stack.  Returns (callgrind output file text, the program's standard output)."""
    if shutil.which(VALGRIND) is None:
        raise MeasurementError("valgrind is not installed")
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [VALGRIND, "--tool=callgrind", "--collect-atstart=no",
                   *[f"--toggle-collect={f}" for f in functions],
                   f"--callgrind-out-file={out}", "--", *argv]
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                                timeout=timeout)
        if result.returncode != 0:
            raise MeasurementError(f"{' '.join(argv)} failed under callgrind "
                                   f"(exit {result.returncode}):\n{result.stderr[-2000:]}")
        return out.read_text(), result.stdout


def count_instructions(argv: Sequence[str], function: str, *, calls: Optional[int] = None,
                       cwd: Optional[Path] = None, keep: Optional[Path] = None,
                       timeout: float = 3600) -> Count:
    """Runs argv under callgrind, counting only inside `function`.

    `calls` is how many times the program calls it; when None the program must say so on
    its standard output as a line `calls N` (the benchmark drivers do).  Callgrind's own
    call records cannot tell: calls made while collection is off are not recorded."""
    text, stdout = run_callgrind(argv, [function], cwd=cwd, timeout=timeout)
    if keep is not None:
        keep.parent.mkdir(parents=True, exist_ok=True)
        keep.write_text(text)
    total = parse_callgrind_total(text)
    if calls is None:
        reported = re.findall(r"^calls (\d+)$", stdout, re.M)
        if not reported:
            raise MeasurementError(f"{argv[0]} did not print `calls N`: pass calls=")
        calls = int(reported[-1])
    if calls <= 0:
        raise MeasurementError(f"{function} was never called")
    return Count(function, total, calls)


def count_each(argv: Sequence[str], functions: Sequence[str], *,
               cwd: Optional[Path] = None, timeout: float = 3600) -> Dict[str, int]:
    """One callgrind run counting inside each of `functions` separately: instructions
    spent in each and its callees.  The functions must not call one another."""
    text, _ = run_callgrind(argv, functions, cwd=cwd, timeout=timeout)
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        path = Path(tmp) / "callgrind.out"
        path.write_text(text)
        counts = {f: inclusive_instructions(path, f) for f in functions}
    total = parse_callgrind_total(text)
    if sum(counts.values()) != total:
        raise MeasurementError(f"callgrind counted {total} instructions in all, but "
                               f"{sum(counts.values())} inside {', '.join(functions)}")
    return counts


# ---- Code size from a GNU ld map ---------------------------------------------------------

_INPUT_SECTION = re.compile(r"^ (\.[^\s]+)\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(.+)$")


def kept_sections(map_text: str) -> List[tuple]:
    """(section, size, object) for every input section the link kept (GNU ld -Map)."""
    start = map_text.find("Linker script and memory map")
    if start < 0:
        raise MeasurementError("not a GNU ld map file")
    lines = map_text[start:].splitlines()
    result = []
    i = 0
    while i < len(lines):
        line = lines[i]
        # A long section name stands alone, its address, size and object on the next line.
        if re.match(r"^ \.[^\s]+$", line) and i + 1 < len(lines):
            line = line + " " + lines[i + 1].strip()
            i += 1
        match = _INPUT_SECTION.match(line)
        if match:
            name, _, size, obj = match.groups()
            result.append((name, int(size, 16), obj.strip()))
        i += 1
    return result


def code_bytes_by_object(map_text: str) -> Dict[str, int]:
    sizes: Dict[str, int] = defaultdict(int)
    for name, size, obj in kept_sections(map_text):
        if name.startswith(COUNTED_SECTION_PREFIXES) and size:
            sizes[obj] += size
    return dict(sizes)


def code_bytes(map_path: Path, counts: Callable[[str], bool]) -> int:
    """Bytes of code, constants and initialised data the link kept from the objects for
    which counts(object) is true (an archive member reads `lib.a(member.o)`)."""
    return sum(size for obj, size in code_bytes_by_object(map_path.read_text()).items()
               if counts(obj))


def inclusive_instructions(callgrind_file: Path, function: str) -> int:
    """Instructions spent inside `function` and its callees, from a callgrind output file
    (by callgrind_annotate --inclusive=yes); 0 when it never ran."""
    try:
        result = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                                 str(callgrind_file)], capture_output=True, text=True,
                                check=True)
    except FileNotFoundError:
        raise MeasurementError("callgrind_annotate (valgrind's) is not installed") from None
    except subprocess.CalledProcessError as exc:
        raise MeasurementError(f"callgrind_annotate failed: {exc.stderr.strip()[-500:]}") \
            from None
    pattern = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+\S*:" + re.escape(function) + r"\s")
    for line in result.stdout.splitlines():
        match = pattern.match(line)
        if match:
            return int(match.group(1).replace(",", ""))
    return 0
