"""Building generated C in tests.

The runtime is compiled once per compiler and flag set per test session; each test then
generates its specification's C with the real command line (`asn1c-hybrid compile`),
compiles it with the warnings the project promises (-std=c99 -Wall -Wextra -Wpedantic
-Werror) and links it with the runtime, usually into the generated converter program.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import pytest

from asn1c_hybrid.cli import main as cli_main

REPO = Path(__file__).resolve().parent.parent
RUNTIME = REPO / "runtime_c"
STRICT = ("-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror")
SANITIZE = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer")

_session_dir: Optional[Path] = None
_runtime_libs: dict[tuple, Path] = {}


def session_dir() -> Path:
    global _session_dir
    if _session_dir is None:
        _session_dir = Path(tempfile.mkdtemp(prefix="asn1h-tests-"))
        atexit.register(shutil.rmtree, _session_dir, True)
    return _session_dir


def run(argv: Sequence[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(list(map(str, argv)), capture_output=True, **kwargs)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, argv))} failed ({result.returncode}):\n"
                             + result.stderr.decode(errors="replace"))
    return result


def runtime_library(cc: str = "gcc", flags: Sequence[str] = ()) -> Path:
    """libasn1h.a built from runtime_c/ with these flags (cached for the session)."""
    key = (cc, tuple(flags))
    if key not in _runtime_libs:
        out = session_dir() / f"runtime-{len(_runtime_libs)}"
        out.mkdir()
        objects = []
        for source in sorted(RUNTIME.glob("*.c")):
            obj = out / (source.stem + ".o")
            run([cc, *STRICT, *flags, "-I", RUNTIME, "-c", source, "-o", obj])
            objects.append(obj)
        lib = out / "libasn1h.a"
        run(["ar", "rcs", lib, *objects])
        _runtime_libs[key] = lib
    return _runtime_libs[key]


def generate(specs: Sequence[os.PathLike], outdir: Path, *options: str) -> Path:
    """Runs `asn1c-hybrid compile` in-process; returns the output directory."""
    argv = ["compile", *map(str, specs), "-o", str(outdir), *options]
    status = cli_main(argv)
    assert status == 0, f"asn1c-hybrid {' '.join(argv)} exited with {status}"
    return outdir


@dataclass
class Build:
    directory: Path
    name: str
    program: Path

    def run(self, *args: str, input: Optional[bytes] = None,
            check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run([str(self.program), *args], input=input, capture_output=True)
        if check and result.returncode != 0:
            raise AssertionError(f"{self.program.name} {' '.join(args)} failed "
                                 f"({result.returncode}):\n{result.stderr.decode(errors='replace')}")
        return result

    def assert_der(self, pdu: str, given: bytes, expected: bytes) -> None:
        """The converter writes `given` (BER, one value or several) as `expected`, which
        its --strict-der reader takes back unchanged: DER that DER's own checks accept."""
        result = self.run("-p", pdu, "-o", "der", "-", input=given, check=False)
        assert result.returncode == 0, result.stderr.decode(errors="replace")
        assert result.stdout == expected
        again = self.run("-p", pdu, "-o", "der", "--strict-der", "-", input=expected,
                         check=False)
        assert again.returncode == 0 and again.stdout == expected, again.stderr


def build_program(gen_dir: Path, name: str, main_source: Optional[Path] = None, *,
                  cc: str = "gcc", flags: Sequence[str] = ("-O1", "-g", *SANITIZE),
                  defines: Sequence[str] = (), program: str = "") -> Build:
    """Compiles the generated `name`.c with `main_source` (default: the generated
    converter) and links them with the runtime."""
    main_source = main_source or gen_dir / "converter" / f"{name}_converter.c"
    exe = gen_dir / (program or f"{name}_{cc}")
    defs = [f"-D{d}" for d in defines]
    run([cc, *STRICT, *flags, *defs, "-I", gen_dir, "-I", RUNTIME, gen_dir / f"{name}.c",
         main_source, runtime_library(cc, tuple(flags) + tuple(defs)), "-lm", "-o", exe])
    return Build(gen_dir, name, exe)


def converter(specs: Sequence[os.PathLike], *options: str, name: str = "spec",
              cc: str = "gcc", flags: Sequence[str] = ("-O1", "-g", *SANITIZE),
              defines: Sequence[str] = ()) -> Build:
    """Generates `specs` with `options` and builds the converter program."""
    out = Path(tempfile.mkdtemp(prefix="gen-", dir=session_dir()))
    generate(specs, out, "--name", name, "--converter", *options)
    return build_program(out, name, cc=cc, flags=flags, defines=defines)


def converter_fixture(spec: os.PathLike):
    """A test module's `converter` fixture: `spec`'s converter program, interpreted and
    compiled."""
    @pytest.fixture(scope="module", params=["interpreted", "compiled"])
    def fixture(request):
        return converter([spec], "--mode", request.param)
    return fixture
