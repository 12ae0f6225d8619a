"""Code bytes: what a static link kept (a GNU ld map), and the sizes of an object's
functions (`nm -S`).  The method: measure/__init__.py."""
from __future__ import annotations

import bisect
import re
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, Iterable, List

from ..errors import MeasurementError

COUNTED_SECTION_PREFIXES = (".text", ".rodata", ".data")

_INPUT_SECTION = re.compile(r"^ (\.[^\s]+)\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(.+)$")


def kept_sections(map_text: str, *, addresses: bool = False) -> List[tuple]:
    """(section, size, object) for every input section the link kept (GNU ld -Map); with
    `addresses`, (section, address, size, object)."""
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
            name, address, size, obj = match.groups()
            result.append((name, int(address, 16), int(size, 16), obj.strip()) if addresses
                          else (name, int(size, 16), obj.strip()))
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


def _binutils(argv: List[str]) -> str:
    """The standard output of a binutils tool (nm, objdump)."""
    try:
        result = subprocess.run(argv, capture_output=True, text=True)
    except FileNotFoundError:
        raise MeasurementError(f"measuring code needs {argv[0]} (binutils), which was not "
                               "found") from None
    if result.returncode != 0:
        raise MeasurementError(f"{argv[0]} failed:\n{result.stderr.strip()}")
    return result.stdout


def instruction_lengths(executable: Path) -> Dict[int, int]:
    """The length in octets of each instruction of an executable's code, by address
    (`objdump -d --wide`: its octets, on one line)."""
    listing = _binutils(["objdump", "-d", "--wide", str(executable)])
    return {int(match.group(1), 16): len(match.group(2)) // 3 for match in
            re.finditer(r"^\s+([0-9a-f]+):\t((?:[0-9a-f]{2} )+)", listing, re.M)}


def executed_code_bytes(map_text: str, lengths: Dict[int, int], executed: Iterable[int],
                        counts: Callable[[str], bool]) -> int:
    """Octets of the instructions that ran (`executed` addresses) in the code sections
    (.text*) the link kept from the objects for which counts(object) is true."""
    ranges = [(address, size) for name, address, size, obj in
              kept_sections(map_text, addresses=True)
              if name.startswith(".text") and size and counts(obj)]
    ranges.sort()
    starts = [start for start, _ in ranges]
    total = 0
    for address in set(executed):
        at = bisect.bisect_right(starts, address) - 1
        if at >= 0 and address < ranges[at][0] + ranges[at][1]:
            total += lengths.get(address, 0)
    return total


def symbol_sizes(object_file: Path, kinds: str = "Tt") -> Dict[str, int]:
    """Sizes of the functions (`kinds`: nm's symbol types, such as r for constant data)
    an object file defines (`nm -S`)."""
    sizes: Dict[str, int] = {}
    for line in _binutils(["nm", "-S", "--defined-only", str(object_file)]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in kinds:
            sizes[parts[3]] = sizes.get(parts[3], 0) + int(parts[1], 16)
    return sizes
