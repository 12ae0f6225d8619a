"""Instructions, counted with callgrind (the method: measure/__init__.py)."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Sequence, Set

from ..errors import MeasurementError

VALGRIND = "valgrind"


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
                  cwd: Optional[Path] = None, timeout: float = 3600,
                  options: Sequence[str] = ()) -> tuple[str, str]:
    """Runs argv under callgrind (with its `options` too), collecting only while one of
    `functions` is on the stack.  Returns (callgrind output file text, the program's
    standard output)."""
    if shutil.which(VALGRIND) is None:
        raise MeasurementError("valgrind is not installed")
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [VALGRIND, "--tool=callgrind", "--collect-atstart=no",
                   *[f"--toggle-collect={f}" for f in functions], *options,
                   f"--callgrind-out-file={out}", "--", *argv]
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                                errors="replace", timeout=timeout)   # it may write binary
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


def executed_addresses(argv: Sequence[str], function: str, *, cwd: Optional[Path] = None,
                       timeout: float = 3600) -> Set[int]:
    """The addresses of the instructions of argv[0] (not of the libraries it calls) that ran
    while `function` was on the stack: callgrind with --dump-instr=yes."""
    text, _ = run_callgrind(argv, [function], cwd=cwd, timeout=timeout,
                            options=["--dump-instr=yes"])
    return parse_executed_addresses(text, Path(argv[0]).name)


def parse_executed_addresses(text: str, executable_name: str) -> Set[int]:
    """The instruction addresses with a cost in a callgrind file made with --dump-instr=yes,
    inside the object whose file name is executable_name.  The format compresses: a name is
    given once as `(id) name` and later as `(id)`; an address is written in full (0x...),
    relative to the previous one (+n, -n), or as the same (*)."""
    seen: Set[int] = set()
    objects: Dict[str, str] = {}
    current = ""
    address = 0
    for line in text.splitlines():
        if line.startswith(("ob=", "cob=")):
            match = re.match(r"c?ob=\((\d+)\)(?: (.*))?$", line)
            if not match:
                raise MeasurementError(f"unexpected callgrind line: {line!r}")
            if match.group(2):
                objects[match.group(1)] = match.group(2)
            if line.startswith("ob="):
                current = Path(objects[match.group(1)]).name
            continue
        if not line or line[0] not in "0+-*":
            continue                        # other names, calls=, headers, totals
        position = line.split()[0]
        if position.startswith("0x"):
            address = int(position, 16)
        elif position[0] in "+-":
            address += int(position)
        if current == executable_name:
            seen.add(address)
    return seen
