"""Where the C templates and runtime sources are: inside the package when installed from a
wheel, at the top of the source tree otherwise."""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """`name` is "templates", "runtime_c" or "cmake"."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"asn1c-hybrid installation is missing its {name}/ directory")


def runtime_sources() -> list[Path]:
    """The runtime's .c and .h files (not its tests)."""
    root = data_dir("runtime_c")
    return sorted(p for p in root.iterdir() if p.suffix in (".c", ".h"))


def compiler_files() -> list[Path]:
    """The files whose change can change what `compile` writes: the package's Python
    sources and the templates (build tools regenerate when the compiler is upgraded)."""
    files = {p for p in _PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}
    files.update(data_dir("templates").glob("*.j2"))
    return sorted(files)
