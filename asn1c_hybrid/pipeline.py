"""The stages chained: load -> estimate -> select -> emit, as the CLI and the study use them."""
from __future__ import annotations

from typing import Optional, Sequence

from .diagnostics import Diagnostics
from .typegraph import TypeGraph


def load(specs: Sequence[str], diagnostics: Optional[Diagnostics] = None) -> TypeGraph:
    from . import frontend
    return frontend.load(specs, diagnostics)


# ---- selection: estimate -> cost model -> knapsack (docs/selection.md) ------------------

def estimate_for(graph: TypeGraph, args):
    """The frequency source the options ask for: profile files (merged), or the static
    estimate from the `--pdu` types."""
    from .cli import UsageError
    from .estimate.pdus import UnknownTypeError, resolve_pdus
    from .estimate.profile import Profile, ProfileError
    from .estimate.static import static_estimate
    profiles = getattr(args, "profile", None) or []
    if isinstance(profiles, str):
        profiles = [profiles]
    try:
        if profiles:
            return Profile.merge(Profile.load(p) for p in profiles).estimate(graph)
        return static_estimate(graph, resolve_pdus(graph, getattr(args, "pdu", None) or []))
    except (ProfileError, UnknownTypeError) as exc:
        raise UsageError(str(exc)) from None


def costs_for(graph: TypeGraph, estimate, args):
    """(cost per knapsack item, unit of cost) for `--cost-model`: the paper's units, or
    measured bytes with the calibrated instructions saved (`--calibration FILE`, else the
    file `asn1c-hybrid calibrate` writes by default)."""
    from .cli import UsageError
    from .select.costs import UNIT, unit_costs
    if getattr(args, "cost_model", "units") != "measured":
        return unit_costs(graph, estimate.items_per_value), UNIT
    from .select.calibration import CalibrationError, load_for_use
    from .select.measured import BYTES, MeasureError, calibrated_costs
    try:
        calibration = load_for_use(getattr(args, "calibration", None))
        return calibrated_costs(graph, estimate, calibration), BYTES
    except (CalibrationError, MeasureError) as exc:
        raise UsageError(str(exc)) from None


def select_for(graph: TypeGraph, args):
    """The selection the options ask for (`explain`, `compile --mode hybrid`)."""
    from .cli import UsageError
    from .select.budget import BudgetError, parse_budget
    from .select.selection import SelectionError, select
    try:
        budget = parse_budget(getattr(args, "budget", "20%"))
    except BudgetError as exc:
        raise UsageError(str(exc)) from None
    estimate = estimate_for(graph, args)
    costs, unit = costs_for(graph, estimate, args)
    from .estimate.pdus import UnknownTypeError, reachable_items, resolve_pdus, resolve_type
    if getattr(args, "pdu", None):
        # only what the PDUs can hold: the budget is a share of the code that can run
        try:
            items = reachable_items(graph, [n.id for n in resolve_pdus(graph, args.pdu)])
        except UnknownTypeError as exc:
            raise UsageError(str(exc)) from None
        costs = {i: c for i, c in costs.items() if i in items}
    try:
        forced = [[resolve_type(graph, name).id for name in getattr(args, option, None) or ()]
                  for option in ("force_compiled", "force_interpreted")]
        return select(graph, estimate.frequencies, costs, budget,
                      force_compiled=forced[0], force_interpreted=forced[1],
                      unit=unit, source=estimate.source)
    except (SelectionError, UnknownTypeError) as exc:
        raise UsageError(str(exc)) from None


def format_selection(selection, fmt: str = "text") -> str:
    """The `explain` table: "text", "json" or "csv"."""
    from .select.report import format_selection as render
    return render(selection, fmt)


# ---- generation: the chosen types -> C (docs/runtime.md) ------------------------------

def compiled_types(graph: TypeGraph, args) -> set[str]:
    """The node ids that get compiled routines, as `--mode` and the overrides ask."""
    from .cli import UsageError
    from .estimate.pdus import UnknownTypeError, resolve_type
    from .select.costs import is_knapsack_item, knapsack_items
    mode = getattr(args, "mode", "hybrid")
    if mode == "hybrid":
        return select_for(graph, args).compiled
    chosen = {n.id for n in knapsack_items(graph)} if mode == "compiled" else set()
    for names, compile_it in ((getattr(args, "force_compiled", None) or [], True),
                              (getattr(args, "force_interpreted", None) or [], False)):
        for name in names:
            try:
                node = resolve_type(graph, name)
            except UnknownTypeError as exc:
                raise UsageError(str(exc)) from None
            if not is_knapsack_item(node):
                raise UsageError(f"{node.id} is not a constructed type with its own "
                                 "representation: it has no routines to compile")
            (chosen.add if compile_it else chosen.discard)(node.id)
    return chosen


def output_name(graph: Optional[TypeGraph], args) -> str:
    """The base name of the generated files: `--name`, else the first module's name."""
    from .cli import UsageError
    from .emit.naming import c_identifier
    name = getattr(args, "name", None)
    if name is None:
        name = c_identifier(graph.modules[0].name)
    if name in ("", ".", "..") or "/" in name or "\\" in name:
        raise UsageError(f"--name {name!r} is not a file name")
    return name


def output_names(name: str, args) -> list[str]:
    """The files `compile` writes into OUTDIR, in the order `--list-outputs` prints them."""
    from .resources import runtime_sources
    names = [f"{name}.h", f"{name}.c"]
    if getattr(args, "converter", False):
        names.append(f"{name}_converter.c")
    if getattr(args, "emit_runtime", False):
        names += [path.name for path in runtime_sources()]
    return names


def list_outputs(args) -> list[str]:
    """`compile --list-outputs`: the paths `compile` would write, writing nothing.  The
    specifications are read only when `--name` is not given, so that a build system can
    ask cheaply at configure time."""
    import os
    graph = None if getattr(args, "name", None) is not None else load(args.specs)
    return [os.path.join(args.output, name)
            for name in output_names(output_name(graph, args), args)]


def generate_files(graph: TypeGraph, args) -> dict[str, str]:
    """Every output file of `compile`, by name, rendered in memory: nothing is written
    until all of it exists."""
    from .emit import EmitOptions, generate
    from .resources import runtime_sources
    name = output_name(graph, args)
    options = EmitOptions(name, getattr(args, "prefix", "") or "",
                          converter=bool(getattr(args, "converter", False)))
    files = generate(graph, compiled_types(graph, args), options)
    if getattr(args, "emit_runtime", False):
        for path in runtime_sources():
            files[path.name] = path.read_text(encoding="utf-8")
    names = output_names(name, args)
    if sorted(files) != sorted(names):
        raise AssertionError(f"generated {sorted(files)}, but --list-outputs says {names}")
    return {name: files[name] for name in names}


def dependencies(graph: TypeGraph, args) -> list[str]:
    """Every input of `compile`, for `--depfile`: the directories named (so that a file added
    to one is noticed), the specification files read, the profiles, and the compiler's own
    sources and templates (so that upgrading the compiler regenerates); the runtime too
    when it is copied, or compiled to measure costs."""
    import os
    from .resources import compiler_files, runtime_sources
    deps = [spec for spec in args.specs if os.path.isdir(spec)]
    deps += [file for file in graph.sources if os.path.isfile(file)]
    deps += list(getattr(args, "profile", None) or [])
    deps += [str(path) for path in compiler_files()]
    if getattr(args, "emit_runtime", False) or getattr(args, "cost_model", "") == "measured":
        deps += [str(path) for path in runtime_sources()]
    if getattr(args, "cost_model", "") == "measured":
        from .select.calibration import default_path
        deps.append(str(getattr(args, "calibration", None) or default_path()))
    return list(dict.fromkeys(deps))


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
    import errno
    import os
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
    from pathlib import Path
    paths = {Path(outdir) / name: text.encode() for name, text in files.items()}
    write_atomically(paths)
    return list(paths)


def compile_to(graph: TypeGraph, args) -> list:
    """`asn1c-hybrid compile`: generate, then write into `args.output`, with the depfile
    when `--depfile` asks for one; then touch the `--stamp` file."""
    import os
    from pathlib import Path
    files = generate_files(graph, args)
    paths = {Path(args.output) / name: text.encode() for name, text in files.items()}
    contents = dict(paths)
    depfile, stamp = getattr(args, "depfile", None), getattr(args, "stamp", None)
    if depfile:
        targets = [stamp] if stamp else [os.path.join(args.output, name) for name in files]
        contents[Path(depfile)] = format_depfile(targets, dependencies(graph, args)).encode()
    write_atomically(contents)
    if stamp:
        Path(stamp).parent.mkdir(parents=True, exist_ok=True)
        Path(stamp).touch()
    return list(paths)
