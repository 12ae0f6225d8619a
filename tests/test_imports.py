"""The package's layering: every module imports alone in a fresh interpreter, no two of
its parts (subpackages and top-level modules) import each other, directly or through
others, and nothing but the command line's entry points imports the command line."""
from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from asn1c_hybrid.typegraph import strongly_connected_components

PACKAGE = "asn1c_hybrid"
GENERATED = "generated"          # the ANTLR parser: generated code, imports only the runtime


def modules(repo_root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package but the generated
    parser."""
    root = repo_root / PACKAGE
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(repo_root).with_suffix("").parts
        if GENERATED in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported(module: str, path: Path) -> set[str]:
    """The package modules `module` imports anywhere in its text (functions included)."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.split(".")[0] == PACKAGE}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != PACKAGE:
                continue
            names.add(target)
            names |= {f"{target}.{a.name}" for a in node.names}   # `from . import api`
    return names


def part(module: str) -> str:
    """The layer a module belongs to: its subpackage, or itself at the top level."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else pieces[0]


def test_every_module_imports_alone(repo_root):
    def run(module: str) -> tuple[str, str]:
        result = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=repo_root,
                                capture_output=True, text=True)
        return module, result.stderr.strip().splitlines()[-1] if result.returncode else ""
    alone = [m for m in modules(repo_root) if m != f"{PACKAGE}.__main__"]   # that one runs
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [(m, e) for m, e in pool.map(run, alone) if e]
    assert failures == []


def test_no_cycle_between_the_parts_of_the_package(repo_root):
    found = modules(repo_root)
    edges: dict[str, set[str]] = {}
    for module, path in found.items():
        source = part(module)
        for target in imported(module, path):
            while target not in found and "." in target:   # a name inside a module
                target = target.rsplit(".", 1)[0]
            if target in found and part(target) != source and target != PACKAGE:
                edges.setdefault(source, set()).add(part(target))
    nodes = sorted(set(edges) | {t for ts in edges.values() for t in ts})
    cycles = [sorted(c) for c in strongly_connected_components(nodes,
                                                                lambda v: sorted(edges.get(v, ())))
              if len(c) > 1]
    assert cycles == [], f"import cycles between parts of the package: {cycles}"
    # the pipeline reads downwards: the front end needs no later stage
    assert not edges.get("frontend", set()) - {"typegraph", "diagnostics", "contents", "errors"}


def test_only_the_entry_points_import_the_command_line(repo_root):
    importers = [module for module, path in modules(repo_root).items()
                 if f"{PACKAGE}.cli" in imported(module, path) and module != f"{PACKAGE}.cli"]
    assert importers == [f"{PACKAGE}.__main__"]


@pytest.mark.parametrize("module, expected", [
    ("asn1c_hybrid.select.costs", "select"), ("asn1c_hybrid.api", "api"),
    ("asn1c_hybrid.study.run", "study")])
def test_parts_are_named_by_their_subpackage(module, expected):
    assert part(module) == expected
