"""The module loader: files and directories -> parsed modules, with imports linked.

* A directory stands for the .asn and .asn1 files directly in it, in name order.
* File names are kept as the user wrote them (relative stays relative), for messages.
* Each file is parsed once (or read from the cache of parsed modules); a syntax error is
  reported with its position and the file's modules are left out.
* IMPORTS name a module and, optionally, its OBJECT IDENTIFIER.  An import is linked to
  the module with that OID when one is given and known (the OID identifies a module whatever
  its name), else to the module with that name.  A module that no input defines is recorded
  as missing, with the position of the import; analysis reports it (docs/frontend.md).
* Two modules with the same name: an error when their OIDs are the same (or absent), a
  warning when the OIDs differ (they are then told apart by OID).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Optional, Sequence, Union

from ..diagnostics import Diagnostics
from ..typegraph import Location
from . import ast, cache
from .builtins import BUILTIN_FILE, BUILTIN_SOURCE
from .oids import definitive_oid
from .scope import ImportLink, MissingModule, ModuleScope

SPEC_SUFFIXES = (".asn", ".asn1")
# What a module header looks like, to know which modules a file that did not parse defines.
_MODULE_HEADER = re.compile(r"^\s*([A-Z][\w-]*)\s*(?:\{[^}]*\})?\s*DEFINITIONS\b", re.M)


@dataclass
class LoadedSpecification:
    modules: list[ModuleScope] = field(default_factory=list)      # the inputs' modules
    builtin: list[ModuleScope] = field(default_factory=list)
    missing: list[MissingModule] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    # Modules of files that did not parse: imports of them are not reported again.
    unreadable: set[str] = field(default_factory=set)


def spec_files(paths: Sequence[Union[str, os.PathLike]]) -> list[str]:
    """The files named, and the ASN.1 files in the directories named, in a stable order."""
    files: list[str] = []
    for path in paths:
        path = os.fspath(path)
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path)
                           if n.lower().endswith(SPEC_SUFFIXES)
                           and os.path.isfile(os.path.join(path, n)))
            files.extend(os.path.join(path, n) for n in names)
        else:
            files.append(path)
    seen = set()
    unique = []
    for name in files:
        key = os.path.realpath(name)
        if key not in seen:
            seen.add(key)
            unique.append(name)
    return unique


def read_source(path: str) -> str:
    with open(path, "rb") as stream:
        data = stream.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_source(text: str, file: str, diagnostics: Diagnostics) -> list[ast.Module]:
    """Modules of one file, from the cache or the parser; [] after a syntax error."""
    modules = cache.load(text)
    if modules is None:
        # The parser is imported only when something is not in the cache.
        from .astbuilder import AstBuilder
        from .parsing import parse_text
        try:
            tree, tokens, problem = parse_text(text)
            if problem is None:
                modules = AstBuilder(tokens).modules(tree)
        except RecursionError:
            diagnostics.error("the file nests too deeply to be parsed", Location(file, 1, 1))
            return []
        except Exception as exc:  # noqa: BLE001 - reported, never a traceback
            diagnostics.error(f"internal error while parsing: {type(exc).__name__}: {exc}",
                              Location(file, 1, 1))
            return []
        if problem is not None:
            diagnostics.error(problem.message, Location(file, problem.line, problem.column))
            return []
        cache.store(text, modules)
    for module in modules:
        module.file = file
    return modules


_builtin_modules: Optional[list[ast.Module]] = None


def builtin_modules() -> list[ast.Module]:
    global _builtin_modules
    if _builtin_modules is None:
        diagnostics = Diagnostics()
        _builtin_modules = parse_source(BUILTIN_SOURCE, BUILTIN_FILE, diagnostics)
        assert not diagnostics.items, diagnostics.items
    return _builtin_modules


def load_specification(paths: Sequence[Union[str, os.PathLike]],
                       diagnostics: Diagnostics) -> LoadedSpecification:
    loaded = LoadedSpecification()
    asts: list[ast.Module] = []
    for file in spec_files(paths):
        text = read_source(file)           # OSError propagates: the CLI reports it
        loaded.sources[file] = text
        diagnostics.sources[file] = text
        errors = len(diagnostics.errors)
        modules = parse_source(text, file, diagnostics)
        if not modules:
            loaded.unreadable.update(_MODULE_HEADER.findall(text))
            if len(diagnostics.errors) == errors:   # it parsed, to nothing: X.680 13 wants one
                diagnostics.error('no module in the file (a module starts "Name DEFINITIONS '
                                  '::= BEGIN")', Location(file, 1, 1))
        asts.extend(modules)
    for path in map(os.fspath, paths):
        if os.path.isdir(path) and not spec_files([path]):
            suffixes = " or ".join(SPEC_SUFFIXES)
            diagnostics.error(f"no ASN.1 files ({suffixes}) in the directory {path}",
                              Location(path, 1, 1))
    if not paths:
        diagnostics.error("no ASN.1 files given")
    for module in builtin_modules():
        loaded.builtin.append(_module_scope(module, -1, diagnostics, builtin=True))
    for index, module in enumerate(asts):
        loaded.modules.append(_module_scope(module, index, diagnostics))
    _check_duplicate_modules(loaded.modules, diagnostics)
    _link_imports(loaded, diagnostics)
    return loaded


def _module_scope(module: ast.Module, index: int, diagnostics: Diagnostics,
                  builtin: bool = False) -> ModuleScope:
    scope = ModuleScope(module, module.file, index, builtin=builtin)
    if module.oid is not None:
        scope.oid = definitive_oid(module.oid)
    for assignment in module.assignments:
        previous = scope.assignments.get(assignment.name)
        if previous is not None:
            diagnostics.error(
                f"'{assignment.name}' is already defined in module {module.name} "
                f"(line {previous.pos[0]})", scope.location(assignment.pos))
            continue
        scope.assignments[assignment.name] = assignment
    if module.exports is not None:
        scope.exports = {symbol.name for symbol in module.exports}
    return scope


def _check_duplicate_modules(modules: list[ModuleScope], diagnostics: Diagnostics) -> None:
    first_by_name: dict[str, ModuleScope] = {}
    for module in modules:
        first = first_by_name.get(module.name)
        if first is None:
            first_by_name[module.name] = module
            continue
        where = f"{first.file}:{first.ast.pos[0]}"
        if module.oid is not None and first.oid is not None and module.oid != first.oid:
            diagnostics.warning(f"module {module.name} is defined more than once, with "
                                f"different OBJECT IDENTIFIERs (first at {where})",
                                module.location(module.ast.pos))
        else:
            diagnostics.error(f"module {module.name} is defined more than once "
                              f"(first at {where})", module.location(module.ast.pos))


def _link_imports(loaded: LoadedSpecification, diagnostics: Diagnostics) -> None:
    by_name: dict[str, ModuleScope] = {}
    by_oid: dict[str, ModuleScope] = {}
    for module in loaded.builtin + loaded.modules:
        by_name.setdefault(module.name, module)
        if module.oid:
            by_oid.setdefault(module.oid, module)
    for module in loaded.builtin + loaded.modules:
        for clause in module.ast.imports:
            target = None
            if isinstance(clause.assigned, ast.BlockValue):
                oid = definitive_oid(clause.assigned)
                if oid is not None:
                    target = by_oid.get(oid)
            if target is None:
                target = by_name.get(clause.module)
            missing = None
            if target is None:
                missing = MissingModule(clause.module, module.location(clause.pos),
                                        reported=clause.module in loaded.unreadable)
                loaded.missing.append(missing)
            elif target is module:
                diagnostics.error(f"module {module.name} imports from itself",
                                  module.location(clause.pos))
                missing = MissingModule(clause.module, module.location(clause.pos),
                                        used=True, reported=True)
                target = None
            for symbol in clause.symbols:
                link = ImportLink(symbol, clause, target, missing)
                module.all_imports.append(link)
                if symbol.name in module.assignments:
                    link.shadowed = True           # analysis decides whether that is harmless
                    continue
                if symbol.name in module.ambiguous:
                    module.ambiguous[symbol.name].append(link)
                elif symbol.name in module.imports:
                    if module.imports[symbol.name].clause.module == clause.module:
                        diagnostics.defect(f"'{symbol.name}' is imported twice from "
                                           f"{clause.module}", module.location(symbol.pos),
                                           rule="X.680 13", fix="remove one",
                                           instead="the second is ignored")
                        continue
                    module.ambiguous[symbol.name] = [module.imports.pop(symbol.name), link]
                else:
                    module.imports[symbol.name] = link
