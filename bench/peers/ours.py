"""asn1c-hybrid itself: compiled, interpreted, and hybrid under a 20% code budget.

    asn1c-hybrid compile SPEC... -o DIR --mode compiled|interpreted|hybrid [--budget 20%]
                         --pdu Module.Type

then the generated .c files and runtime_c/*.c, compiled and linked like every peer (the
runtime's sources with the flags a user's build gives them too).  The
PDU's descriptor is found in the generated headers (`#define X_type (spec.types[k])`).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence, Tuple

from asn1c_hybrid.measure import runtime_cflags

from .common import CFLAGS, Build, NotApplicable, fresh_dir, link_driver

REPO = Path(__file__).resolve().parent.parent.parent
RUNTIME = REPO / "runtime_c"

# implementation name -> (mode, budget)
VARIANTS = {
    "compiled": ("compiled", None),
    "interpreted": ("interpreted", None),
    "hybrid-20%": ("hybrid", "20%"),
}


def runtime_flags(source: Path) -> Sequence[str]:
    """The flags a runtime source takes by default in a user's build, beside the common ones."""
    return runtime_cflags(source, CFLAGS[0]) if source.parent == RUNTIME else ()


class Pending(Exception):
    """Our compiler or runtime cannot build this yet; the message says where it stopped."""


def _descriptor(generated: Path, pdu: str) -> Tuple[str, str]:
    """(descriptor symbol, header file name) of the PDU type."""
    c_name = re.sub(r"[^A-Za-z0-9_]", "_", pdu)
    found = []
    for header in sorted(generated.glob("*.h")):
        for symbol in re.findall(r"^#define (\w+_type) \(\w+\.types\[\d+\]\)$",
                                 header.read_text(), re.M):
            if symbol == f"{c_name}_type" or symbol.endswith(f"_{c_name}_type"):
                found.append((len(symbol), symbol, header.name))
    if not found:
        raise Pending(f"no descriptor for {pdu} in the generated headers")
    _, symbol, header = min(found)
    return symbol, header


def variant(implementation: str) -> Tuple[str, Optional[str]]:
    """(mode, budget) of "compiled", "interpreted" or "hybrid-N%"."""
    if implementation in VARIANTS:
        return VARIANTS[implementation]
    found = re.fullmatch(r"hybrid-(\d+%)", implementation)
    if not found:
        raise ValueError(f"no build of ours called {implementation}")
    return "hybrid", found.group(1)


def build(implementation: str, specs: Sequence[Path], pdu: str, module: str,
          build_dir: Path, also: Sequence[str] = (), options: Sequence[str] = ()) -> Build:
    """Our build of the PDU `module.pdu` (`also`: more PDUs the build carries; `options`:
    more `compile` options, such as a profile and layouts)."""
    mode, budget = variant(implementation)
    generated = build_dir / "generated"
    command = [sys.executable, "-m", "asn1c_hybrid", "compile", *map(str, specs),
               "-o", str(generated), "--mode", mode, "--pdu", f"{module}.{pdu}"]
    for other in also:
        command += ["--pdu", f"{module}.{other}"]
    if budget:
        command += ["--budget", budget]
    command += list(options)
    fresh_dir(generated)
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    if result.returncode != 0:
        lines = [l for l in (result.stderr or result.stdout).splitlines() if l.strip()]
        raise Pending(f"asn1c-hybrid compile failed: {lines[-1] if lines else result.returncode}")
    symbol, header = _descriptor(generated, pdu)
    sources = sorted(generated.glob("*.c")) + sorted(RUNTIME.glob("*.c"))
    # A converter program, if the compiler wrote one, has its own main.
    sources = [s for s in sources if "int main(" not in s.read_text()]
    try:
        return link_driver(build_dir, implementation, "adapter_ours.c", sources,
                           [generated, RUNTIME],
                           defines=[f"BENCH_DESCRIPTOR={symbol}", f"BENCH_HEADER={header}"],
                           own_flags=runtime_flags)
    except NotApplicable as error:
        raise Pending(str(error)) from None
