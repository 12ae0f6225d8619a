"""Code bytes: what a static link kept (a GNU ld map), and the sizes of an object's
functions (`nm -S`).  The method: measure/__init__.py."""
from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, List

from ..errors import MeasurementError

COUNTED_SECTION_PREFIXES = (".text", ".rodata", ".data")

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


def symbol_sizes(object_file: Path, kinds: str = "Tt") -> Dict[str, int]:
    """Sizes of the functions (`kinds`: nm's symbol types, such as r for constant data)
    an object file defines (`nm -S`)."""
    try:
        result = subprocess.run(["nm", "-S", "--defined-only", str(object_file)],
                                capture_output=True, text=True)
    except FileNotFoundError:
        raise MeasurementError("measuring code size needs nm (binutils), which was not "
                               "found") from None
    if result.returncode != 0:
        raise MeasurementError(f"nm failed:\n{result.stderr.strip()}")
    sizes: Dict[str, int] = {}
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in kinds:
            sizes[parts[3]] = sizes.get(parts[3], 0) + int(parts[1], 16)
    return sizes
