"""Writing what `compile` produces: all files or none, and the depfile for build tools.

Build systems (docs/build-integration.md) rely on three properties: a failed run leaves
nothing behind, an unchanged output keeps its time stamp, and a depfile names every input
read, so that the build reruns the generator exactly when it must.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Sequence


def format_depfile(targets: Sequence[str], deps: Sequence[str]) -> str:
    """A Make/Ninja depfile.  Each input also gets an empty rule of its own (as gcc's -MP
    does), so that deleting or renaming an input is not an error for Make."""
    def escape(path: str) -> str:
        return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")
    rule = " ".join(map(escape, targets)) + ":" + "".join(f" \\\n  {escape(d)}" for d in deps)
    return "\n\n".join([rule] + [f"{escape(d)}:" for d in deps]) + "\n"


def write_atomically(contents: dict) -> None:
    """Writes every file (Path -> bytes) or none: each goes to a temporary name first, and
    only when all of them are written are they renamed into place.  A file whose content
    is unchanged is left untouched (so that build tools see no spurious change).  On
    failure, temporary files and the directories made for them are removed."""
    made_dirs: list = []
    pending: list = []
    try:
        for path, data in contents.items():
            _make_directories(path.parent, made_dirs)
            if path.is_dir():         # the one way a rename below could fail: check first
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
            try:
                if path.read_bytes() == data:
                    continue
            except OSError:
                pass
            tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
            pending.append((tmp, path))
            tmp.write_bytes(data)
        for tmp, path in pending:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in pending:
            try:
                tmp.unlink()
            except OSError:       # never written: its directory may not even be one
                pass
        for directory in reversed(made_dirs):
            try:
                directory.rmdir()
            except OSError:
                pass
        raise


def _make_directories(directory, made: list) -> None:
    """Creates `directory` and its missing parents, outermost first, adding each to `made`."""
    missing = []
    while not directory.exists() and directory != directory.parent:
        missing.append(directory)
        directory = directory.parent
    for directory in reversed(missing):
        directory.mkdir()
        made.append(directory)


def write_files(outdir, files: dict[str, str]) -> list:
    """Writes `files` (name -> text) into `outdir`, all or nothing; returns their paths."""
    paths = {Path(outdir) / name: text.encode() for name, text in files.items()}
    write_atomically(paths)
    return list(paths)
