"""Measured builds: a selection built into the measurement driver, and what it measures
on a trace.

The spec is generated with compiled routines for the chosen types, compiled with the
runtime and the driver (templates/measure_driver.c.j2) the way the benchmark suite builds
every implementation (`measure.CFLAGS`, `measure.LDFLAGS`), and linked with a map.  Then:

- code bytes: what the link kept of the generated code and the runtime (`measure.code_bytes`);
- instructions: one callgrind run of the driver over a trace, counting the decoding pass
  (decode and free every PDU) and the encoding pass (DER-encode every value) separately.
  A builder for UPER or APER builds with those rules alone and reads framed traces
  (each PDU after its length, 4 octets big-endian); its encoding pass writes PER.

The runtime is compiled once per builder; a build is reused when the generated sources,
the compiler and the runtime are the same (the study's traces share their selections,
and a rerun its builds).
"""
from __future__ import annotations

import hashlib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .. import __version__
from ..emit import ENCODINGS, PER, EmitOptions, generate
from ..emit.naming import CNames
from ..emit.render import environment
from ..resources import data_dir, runtime_sources
from ..typegraph import TypeGraph
from . import CFLAGS, LDFLAGS, RUNTIME_BLOCK_CFLAGS, RUNTIME_CFLAGS, MeasurementError, \
    c_compiler, runtime_cflags
from .counts import count_each
from .sizes import code_bytes

DECODE_PASS = "measure_decode_pass"
ENCODE_PASS = "measure_encode_pass"
_NAME = "spec"                               # base name of the generated files


@dataclass(frozen=True)
class Measurement:
    messages: int
    decode: int                              # instructions, decoding and freeing every PDU
    encode: int                              # instructions, DER-encoding every value
    reencoded_differently: int = 0           # PDUs whose DER re-encoding is not the PDU

    @property
    def instructions(self) -> int:
        return self.decode + self.encode


@dataclass(frozen=True)
class Program:
    executable: Path
    map_file: Path
    counted_dirs: tuple[Path, ...]           # objects of the generated code and the runtime

    def code_bytes(self) -> int:
        """Bytes the link kept of the generated code and the runtime."""
        prefixes = tuple(f"{d}/" for d in self.counted_dirs)
        return code_bytes(self.map_file, lambda obj: obj.startswith(prefixes))

    def code_bytes_split(self) -> tuple[int, int]:
        """(generated code, runtime): the bytes the link kept of each."""
        generated, runtime = (f"{d}/" for d in self.counted_dirs)
        return (code_bytes(self.map_file, lambda obj: obj.startswith(generated)),
                code_bytes(self.map_file, lambda obj: obj.startswith(runtime)))

    def measure(self, trace: Path) -> Measurement:
        """Instructions of decoding and encoding every PDU of `trace` (callgrind)."""
        result = subprocess.run([str(self.executable), str(trace)], capture_output=True,
                                text=True)
        if result.returncode != 0:
            raise MeasurementError(result.stderr.strip() or f"{self.executable} failed")
        messages = int(re.findall(r"^messages (\d+)$", result.stdout, re.M)[-1])
        differently = int(re.findall(r"^reencoded-differently (\d+)$", result.stdout,
                                     re.M)[-1])
        counts = count_each([str(self.executable), str(trace)], [DECODE_PASS, ENCODE_PASS])
        return Measurement(messages, counts[DECODE_PASS], counts[ENCODE_PASS], differently)


def _run(command: Sequence[object], what: str) -> None:
    try:
        result = subprocess.run([str(c) for c in command], capture_output=True, text=True)
    except FileNotFoundError:
        raise MeasurementError(f"{what} needs {command[0]}, which was not found (set CC)") \
            from None
    if result.returncode != 0:
        raise MeasurementError(f"{what} failed:\n{result.stderr.strip()[-3000:]}")


def _digest(*parts: object) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


class Builder:
    """Builds selections of one type graph into measurement programs under `directory`."""

    def __init__(self, graph: TypeGraph, pdu: str, directory: Path, encoding: str = "ber"):
        self.graph = graph
        self.encoding = encoding     # ber, or uper / aper: a build of that rules alone
        # the rules the programs carry (a BER program: the default, every rule)
        self.encodings = (encoding,) if encoding in PER else ENCODINGS
        self.pdu = graph.target(pdu).id if pdu in graph.nodes else pdu
        self.directory = Path(directory).resolve()
        self.runtime_dir = data_dir("runtime_c")
        self.descriptor = CNames(graph).descriptor(pdu)
        self.compiler = c_compiler()
        sources = [p for p in runtime_sources() if p.suffix == ".c"]
        key = _digest(self.compiler, CFLAGS, RUNTIME_CFLAGS, RUNTIME_BLOCK_CFLAGS,
                      *[(p.name, p.read_bytes()) for p in runtime_sources()])
        self.runtime_objects = self._compile(sources, self.directory / f"runtime-{key}",
                                             [self.runtime_dir], "compiling the runtime",
                                             runtime_cflags)

    def _compile(self, sources: Iterable[Path], object_dir: Path, includes: Sequence[Path],
                 what: str, own_flags: Callable[[Path], Sequence[str]] = lambda _: ()
                 ) -> list[Path]:
        object_dir.mkdir(parents=True, exist_ok=True)
        objects = []
        for source in sources:
            obj = object_dir / (source.stem + ".o")
            if not obj.exists():
                partial = obj.with_suffix(".o.partial")
                _run([*self.compiler, *CFLAGS, *own_flags(source),
                      *[f"-I{d}" for d in includes],
                      "-c", source, "-o", partial], what)
                partial.replace(obj)
            objects.append(obj)
        return objects

    def build(self, compiled: Iterable[str]) -> Program:
        """The program with compiled routines for the node ids in `compiled`."""
        files = generate(self.graph, set(compiled), EmitOptions(_NAME, encodings=self.encodings))
        files["measure_driver.c"] = environment().get_template("measure_driver.c.j2").render(
            version=__version__, pdu=self.pdu, header=f"{_NAME}.h",
            descriptor=self.descriptor, name=_NAME,
            variant={"uper": "ASN1H_UPER", "aper": "ASN1H_APER"}.get(self.encoding))
        # the same sources, compiler and runtime make the same program
        key = _digest(sorted(files.items()), self.compiler, CFLAGS, LDFLAGS,
                      self.runtime_objects)
        build_dir = self.directory / f"build-{key}"
        executable, map_file = build_dir / "driver", build_dir / "driver.map"
        generated_dir = build_dir / "generated"
        program = Program(executable, map_file, (generated_dir, self.runtime_objects[0].parent))
        if executable.exists() and map_file.exists():
            return program
        generated_dir.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (generated_dir / name).write_text(text)
        includes = [generated_dir, self.runtime_dir]
        objects = self._compile([generated_dir / f"{_NAME}.c"], generated_dir, includes,
                                "compiling the generated code")
        driver = self._compile([generated_dir / "measure_driver.c"], build_dir, includes,
                               "compiling the measurement driver")
        partial = executable.with_name("driver.partial")
        _run([*self.compiler, *CFLAGS, *LDFLAGS, f"-Wl,-Map={map_file}", "-o", partial,
              *driver, *objects, *self.runtime_objects, "-lm"], "linking the measurement driver")
        partial.replace(executable)
        return program
