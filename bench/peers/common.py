"""Building an implementation into the benchmark driver, the same way for everyone.

Compiler and flags (identical for every implementation and for the driver):
    gcc -O2 -ffunction-sections -fdata-sections -w
    link: gcc ... -Wl,--gc-sections -Wl,-z,now -Wl,-Map=driver.map
Our runtime's sources alone also take, after those, the flags our CMake function and Make
fragment give them by default (asn1c_hybrid.measure.runtime_cflags).
(bench/sizes.py builds with -Os as well, through `optimization`.)
-ffunction-sections/--gc-sections let the linker keep only what the driver reaches, so the
code size counts only what a program using the implementation carries.  -z now binds every
shared-library call at start-up, so that lazy symbol binding is never counted.
Prebuilt libraries (Heimdal's libasn1.a, OpenSSL's libcrypto.a) are linked as Debian built
them; their members are kept or dropped whole.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence

BENCH = Path(__file__).resolve().parent.parent
DRIVERS = BENCH / "drivers"

CC = os.environ.get("BENCH_CC", "gcc")
CFLAGS = ["-O2", "-ffunction-sections", "-fdata-sections", "-w"]   # [0]: optimization


@contextmanager
def optimization(level: str):
    """Builds inside the block use `level` ("-O2", "-Os") for every object and the link."""
    saved = CFLAGS[0]
    CFLAGS[0] = level
    try:
        yield
    finally:
        CFLAGS[0] = saved
LDFLAGS = ["-Wl,--gc-sections", "-Wl,-z,now"]


class NotApplicable(Exception):
    """The implementation cannot take this spec or these messages; the message says why."""


@dataclass
class Build:
    implementation: str
    executable: Path
    map_file: Path
    object_dir: Path                       # the implementation's own objects
    archives: Sequence[Path] = ()          # prebuilt libraries whose members count
    notes: List[str] = field(default_factory=list)
    error_name: Optional[Callable[[int], str]] = None   # the implementation's error codes

    def counts(self, obj: str) -> bool:
        """Whether an object named in the linker map belongs to the implementation."""
        if obj.startswith(str(self.object_dir) + os.sep):
            return True
        return any(obj.startswith(f"{archive}(") for archive in self.archives)


def run(argv: Sequence[str], cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise NotApplicable(_first_error(result.stderr or result.stdout, argv[0],
                                         result.returncode))
    return result


def _first_error(output: str, program, returncode: int) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    wanted = [l for l in lines if ("error" in l.lower() or "abort" in l.lower()
                                   or "assert" in l.lower() or "undefined" in l.lower())
              and not l.startswith("collect2")]
    detail = (wanted or lines or [f"exit status {returncode}"])[0]
    if returncode < 0 or returncode == 134:
        detail += " (aborted)"
    return f"{Path(str(program)).name} failed: {detail[:300]}"


def fingerprint(*parts: object) -> str:
    """A hash of the inputs of a build step: file contents for paths, text otherwise."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path) and part.is_file():
            digest.update(part.read_bytes())
        else:
            digest.update(repr(part).encode())
    return digest.hexdigest()[:16]


def fresh_dir(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def compile_objects(sources: Iterable[Path], object_dir: Path, include_dirs: Sequence[Path],
                    defines: Sequence[str] = (),
                    own_flags: Callable[[Path], Sequence[str]] = lambda source: ()
                    ) -> List[Path]:
    """`own_flags`: the flags a source takes after the common ones (our runtime's)."""
    object_dir.mkdir(parents=True, exist_ok=True)
    sources = list(sources)
    flags = CFLAGS + [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]

    # Rebuild an object when its source, a header it may include, or the flags changed.
    flags_stamp = object_dir / "flags"
    stamp = repr(flags) + "".join(f"\n{s.name}: {list(own_flags(s))}" for s in sources
                                  if own_flags(s))
    if not flags_stamp.exists() or flags_stamp.read_text() != stamp:
        for stale in object_dir.glob("*.o"):
            stale.unlink()
        flags_stamp.write_text(stamp)
    newest_header = max((h.stat().st_mtime for d in include_dirs for h in Path(d).glob("*.h")),
                        default=0.0)

    def one(source: Path) -> Path:
        obj = object_dir / (source.stem + ".o")
        if obj.exists() and obj.stat().st_mtime > max(source.stat().st_mtime, newest_header):
            return obj
        run([CC, *flags, *own_flags(source), "-c", source, "-o", obj])
        return obj

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(one, sources))


def link_driver(build_dir: Path, implementation: str, adapter: str,
                implementation_sources: Iterable[Path], include_dirs: Sequence[Path],
                defines: Sequence[str] = (), archives: Sequence[Path] = (),
                libraries: Sequence[str] = (), notes: Sequence[str] = (),
                own_flags: Callable[[Path], Sequence[str]] = lambda source: ()) -> Build:
    """Compiles the implementation's sources (each with its `own_flags` too) and the driver
    with its adapter, and links them with the prebuilt `archives` and system `libraries`
    (-l names)."""
    object_dir = build_dir / "obj"
    driver_dir = build_dir / "driver-obj"
    objects = compile_objects(implementation_sources, object_dir, include_dirs, defines,
                              own_flags)
    driver_objects = compile_objects([DRIVERS / "bench_main.c", DRIVERS / adapter],
                                     driver_dir, [DRIVERS, *include_dirs], defines)
    executable = build_dir / "driver"
    map_file = build_dir / "driver.map"
    run([CC, *CFLAGS, *LDFLAGS, f"-Wl,-Map={map_file}", "-o", executable,
         *driver_objects, *objects, *archives, *[f"-l{lib}" for lib in libraries]])
    return Build(implementation, executable, map_file, object_dir, tuple(archives),
                 list(notes))
