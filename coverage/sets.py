"""The module sets of a Wireshark `epan/dissectors/asn1` tree, as its build defines them.

Each folder's CMakeLists.txt lists its modules (ASN_FILE_LIST) and the ones it borrows
from other folders (EXT_ASN_FILE_LIST).  A set is those files, plus, transitively, the file
of every module they import that the tree defines elsewhere (asn2wrs reads those through
its .cnf exports instead).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_SET = re.compile(r"set\s*\(\s*(\w+)\b(.*?)\)", re.S)
_HEADER = re.compile(r"^\s*([A-Z][\w-]*)\s*(?:\{[^}]*\})?\s*DEFINITIONS\b", re.M)
_IMPORTS = re.compile(r"\bIMPORTS\b(.*?);", re.S)
_FROM = re.compile(r"\bFROM\s+([A-Z][\w-]*)")
_COMMENT = re.compile(r"--.*?(--|$)|/\*.*?\*/", re.M | re.S)


@dataclass
class ModuleSet:
    name: str                       # the folder's name
    files: list[Path] = field(default_factory=list)
    ber: bool = True                # dissected as BER (asn2wrs -b), else PER


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def _listed(folder: Path) -> tuple[list[Path], bool]:
    """The files a folder's build lists, and whether asn2wrs reads them as BER."""
    text = _COMMENT.sub("", _text(folder / "CMakeLists.txt"))
    variables = {"CMAKE_CURRENT_SOURCE_DIR": [str(folder)]}
    for name, body in _SET.findall(text):
        variables[name] = body.split()

    def expand(word: str, depth: int = 0) -> list[str]:
        whole = re.fullmatch(r"\$\{(\w+)\}", word)
        if whole and depth < 8:
            return [w for item in variables.get(whole.group(1), [])
                    for w in expand(item, depth + 1)]
        return [re.sub(r"\$\{(\w+)\}",
                       lambda m: " ".join(variables.get(m.group(1), [])), word)]

    ber = "-b" in variables.get("A2W_FLAGS", [])
    files = []
    for word in expand("${ASN_FILE_LIST}") + expand("${EXT_ASN_FILE_LIST}"):
        path = Path(word) if Path(word).is_absolute() else folder / word
        if word.lower().endswith((".asn", ".asn1")) and path.is_file():
            files.append(path.resolve())
    return files, ber


def defined_modules(path: Path) -> dict[str, int]:
    """The modules a file defines, with the length of each one's text."""
    text = _COMMENT.sub("", _text(path))
    starts = [(m.start(), m.group(1)) for m in _HEADER.finditer(text)] + [(len(text), "")]
    return {name: starts[k + 1][0] - start for k, (start, name) in enumerate(starts[:-1])}


def module_index(tree: Path) -> dict[str, Path]:
    """Module name -> the file of the tree that defines it.  Some files carry a cut-down
    copy of another folder's module: the longest definition wins."""
    best: dict[str, tuple[int, Path]] = {}
    for path in sorted(tree.glob("*/*.asn*")):
        for name, length in defined_modules(path).items():
            if name not in best or length > best[name][0]:
                best[name] = (length, path.resolve())
    return {name: path for name, (_, path) in best.items()}


def imported_modules(path: Path) -> list[str]:
    text = _COMMENT.sub("", _text(path))
    names: list[str] = []
    for section in _IMPORTS.findall(text):
        names.extend(_FROM.findall(section))
    return names


def module_sets(tree: Path) -> list[ModuleSet]:
    index = module_index(tree)
    sets = []
    for cmake in sorted(tree.glob("*/CMakeLists.txt")):
        files, ber = _listed(cmake.parent)
        if not files:
            continue
        defined = {name for path in files for name in defined_modules(path)}
        work = list(files)
        while work:
            for name in imported_modules(work.pop()):
                path = index.get(name)
                if name not in defined and path is not None and path not in files:
                    files.append(path)
                    work.append(path)
                    defined.update(defined_modules(path))
        sets.append(ModuleSet(cmake.parent.name, files, ber))
    return sets
