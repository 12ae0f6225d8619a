"""Semantic analysis: parsed modules -> TypeGraph.

Every assignment of every input module is analysed in definition order; what it refers to
is analysed on first use (and memoized), so references may point forward, into other
modules, and around cycles.  Errors are reported once, where they are found; whatever
depends on a failed definition gives up silently (scope.Poisoned).  Whole-graph checks
(tags, infinite types) run once all nodes exist.  See docs/frontend.md.
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Optional

from ..diagnostics import Diagnostics
from ..typegraph import ModuleInfo, TypeGraph
from . import ast, cache
from .builtins import BUILTIN_SOURCE, CHARACTER_STRING_TYPES, TIME_TYPES
from .checks import Checks
from .constraints import ConstraintReader
from .deferred import DeferredReader
from .loader import LoadedSpecification
from .objects import ObjectReader
from .resolve import CLASS, OBJECT, OBJECT_SET, TYPE, VALUE, VALUE_SET, Resolver
from .scope import Definition, Poisoned, Scope, SemanticError, Unresolved
from .typebuilder import TypeBuilder
from .values import ValueReader

_RESERVED_TYPE_NAMES = frozenset(CHARACTER_STRING_TYPES + TIME_TYPES + ("EXTERNAL",
                                  "RELATIVE-OID", "OID-IRI", "RELATIVE-OID-IRI"))


def referenced_names(module: ast.Module) -> set[str]:
    """Every name a module's assignments mention, including inside kept blocks."""
    names: set[str] = set()
    stack: list = list(module.assignments)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Reference):
            names.add(item.name)
            if item.module:
                names.add(item.module)
        if isinstance(item, ast.BlockValue):
            names.update(token[1] for token in item.tokens)
            continue
        if isinstance(item, (list, tuple)):
            stack.extend(x for x in item if not isinstance(x, (str, int, float)))
            continue
        fields = getattr(item, "__dataclass_fields__", None)
        if fields:
            stack.extend(getattr(item, name) for name in fields
                         if not isinstance(getattr(item, name), (str, int, float, type(None))))
    return names


class Analyzer(Resolver, DeferredReader, TypeBuilder, ValueReader, ConstraintReader,
               ObjectReader, Checks):
    def __init__(self, loaded: LoadedSpecification, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.loaded = loaded
        self.modules = loaded.modules
        self.builtin_modules = {m.name: m for m in loaded.builtin}
        self.modules_by_name = {}
        for module in loaded.modules:
            self.modules_by_name.setdefault(module.name, module)
        self.graph = TypeGraph(sources=dict(loaded.sources))
        self.scratch = {}
        self.scratch_counter = 0
        self.plain_integer: Optional[str] = None
        # memo tables (keyed by assignment identity and instance keys)
        self.categories: dict = {}
        self.import_state: dict = {}
        self.import_redirects: dict = {}        # lenient mode: id(ImportLink) -> module
        self.stand_ins: set[str] = set()        # lenient mode: open types standing in
        self.named: dict = {}
        self.building: set = set()
        self.instances_in_progress: dict = {}
        self.value_states: dict = {}
        self.classes: dict = {}
        self.objects: dict = {}
        self.object_sets: dict = {}
        self.memo_texts = [BUILTIN_SOURCE] + list(loaded.sources.values())
        self.deferred_memo: dict = cache.load_deferred(self.memo_texts) or {}
        self.memo_loaded = len(self.deferred_memo)
        self.pending_defaults: list = []
        self.default_copies: list = []          # (COMPONENTS OF copy, original)
        self.reported: set = set()
        self.locations: list = []

    # ------------------------------------------------------------ reporting

    @contextlib.contextmanager
    def reporting_at(self, location):
        self.locations.append(location)
        try:
            yield
        finally:
            self.locations.pop()

    def current_location(self):
        return self.locations[-1] if self.locations else None

    def report(self, error: SemanticError) -> None:
        self.error(error.message, error.location or self.current_location(), error.hint)

    def error(self, message: str, location=None, hint: str = "") -> None:
        key = ("error", message, location)
        if key not in self.reported:
            self.reported.add(key)
            self.diagnostics.error(message, location, hint)

    def warning(self, message: str, location=None) -> None:
        key = ("warning", message, location)
        if key not in self.reported:
            self.reported.add(key)
            self.diagnostics.warning(message, location)

    def defect(self, message: str, location, *, rule: str, fix: str, instead: str) -> bool:
        """A tolerated defect (Diagnostics.defect), reported once per place."""
        key = ("defect", message, location)
        if key not in self.reported:
            self.reported.add(key)
            return self.diagnostics.defect(message, location, rule=rule, fix=fix,
                                           instead=instead)
        return self.diagnostics.lenient

    def check_markers(self, specs: ast.ElementSetSpecs, scope: Scope) -> None:
        """A second extension marker: lenient mode reads what follows as more additions."""
        for pos in specs.extra_markers:
            if not self.defect("a second extension marker", scope.location(pos),
                               rule="X.680 50, X.681 12", fix="remove it",
                               instead="what follows it is read as more additions"):
                raise Poisoned()

    # ------------------------------------------------------------------ run

    def run(self) -> TypeGraph:
        self.check_all_imports()
        self.check_exports()
        for module in self.modules:
            for assignment in module.ast.assignments:
                if module.assignments.get(assignment.name) is assignment:
                    self.analyse(Definition(module, assignment))
        self.fill_defaults()
        for node in list(self.graph.nodes.values()):
            self.guarded(node.location, self.check_tags, node)
        self.guarded(None, self.check_finite)
        self.report_missing_modules()
        self.order_graph()
        self.graph.mark_recursion()
        if len(self.deferred_memo) > self.memo_loaded:
            cache.store_deferred(self.memo_texts, self.deferred_memo)
        self.graph.modules = [ModuleInfo(m.name, m.oid, m.file, m.tag_default,
                                         m.extensibility_implied) for m in self.modules]
        return self.graph

    def guarded(self, location, function, *args):
        """Run one unit of analysis; an unexpected exception becomes an internal error
        diagnostic at the best known location instead of a traceback."""
        try:
            with self.reporting_at(location):
                return function(*args)
        except Unresolved:
            pass                # lenient mode: left out, as the warning at its cause said
        except SemanticError as error:
            self.report(error)
        except Poisoned:
            pass
        except RecursionError:
            self.error("internal error: the specification nests too deeply to analyse",
                       self.current_location() or location)
        except Exception as exc:  # noqa: BLE001 - never a traceback
            self.error(f"internal error: {type(exc).__name__}: {exc}", location)

    def analyse(self, target: Definition) -> None:
        self.guarded(target.location(), self._analyse, target)

    def _analyse(self, target: Definition) -> None:
        assignment = target.assignment
        name = assignment.name
        if name in ("TYPE-IDENTIFIER", "ABSTRACT-SYNTAX"):
            self.warning(f"{name} is a built-in class; this module's definition hides it",
                         target.location())
        if name in _RESERVED_TYPE_NAMES:
            self.warning(f"{name} is a built-in type and cannot be redefined; this "
                         f"definition is ignored", target.location())
            return
        category = self.category(target)
        if isinstance(assignment, ast.ValueAssignment) and name[0].isupper() and \
                not self.defect(f"'{name}' is a value reference spelled in upper case",
                                target.location(), rule="X.680 12.4",
                                fix="begin it with a lower-case letter",
                                instead="read as a value reference"):
            return
        if target.params is not None:
            self.check_parameters(target)
            return
        if category in (TYPE, VALUE_SET):
            self.named_type(target)
        elif category == VALUE:
            self.value_definition(target)
        elif category == CLASS:
            self.check_class(target)
        elif category == OBJECT:
            ref = ast.Reference(name, assignment.pos)
            self.object_of_target(target, ref, Scope(target.module))
        elif category == OBJECT_SET:
            ref = ast.Reference(name, assignment.pos)
            self.object_set_of_target(target, ref, Scope(target.module))

    def check_parameters(self, target: Definition) -> None:
        """Parameters must have distinct names; governors must make sense."""
        seen = set()
        for param in target.params:
            location = target.module.location(param.pos)
            if param.name in seen:
                raise SemanticError(f"parameter '{param.name}' is listed twice", location)
            seen.add(param.name)
            if param.governor is None and param.name[0].islower():
                raise SemanticError(f"parameter '{param.name}' (a value or object) needs a "
                                    f"governor: Type:{param.name}", location)

    def check_class(self, target: Definition) -> None:
        ref = ast.Reference(target.name, target.assignment.pos)
        cls = self.class_info(target, ref, Scope(target.module))
        location = target.location()
        for name in cls.fields:
            info = self.field_info(cls, name, location)
            if info.kind in ("fixed-value", "fixed-valueset"):
                self.field_type(cls, info)
        syntax = cls.definition.syntax
        if syntax is not None:
            self.check_syntax_fields(syntax, cls, target)

    def check_syntax_fields(self, items, cls, target: Definition) -> None:
        for item in items:
            if isinstance(item, ast.SyntaxField) and item.name not in cls.fields:
                raise SemanticError(f"WITH SYNTAX names {item.name}, which class "
                                    f"{target.name} does not have",
                                    target.module.location(item.pos))
            if isinstance(item, ast.SyntaxGroup):
                self.check_syntax_fields(item.items, cls, target)

    def check_exports(self) -> None:
        for module in self.modules:
            for symbol in module.ast.exports or []:
                if symbol.name not in module.assignments and symbol.name not in module.imports \
                        and symbol.name not in module.ambiguous:
                    self.warning(f"module {module.name} exports '{symbol.name}', which it "
                                 f"does not define", module.location(symbol.pos))

    def fill_defaults(self) -> None:
        """DEFAULT values, read once every type exists (a DEFAULT may be of any type)."""
        while self.pending_defaults:
            batch, self.pending_defaults = self.pending_defaults, []
            for component, value, scope, owner in batch:
                self.guarded(component.location, self._fill_default, component, value, scope)
        for copy, original in self.default_copies:
            copy.default = original.default

    def _fill_default(self, component, value, scope) -> None:
        try:
            result = self.value(value, component.type, scope)
            self.check_value_constraints(result, component.type, component.location,
                                         f"the DEFAULT value of '{component.name}'")
        except Unresolved:
            component.has_default = False           # lenient mode: left out
            return
        except SemanticError as error:
            if error.hint:                          # already says what to do
                raise
            message = f"bad DEFAULT value for '{component.name}': {error.message}"
            if self.defect(message, error.location or component.location, rule="X.680 25",
                           fix="correct the value", instead="the component is OPTIONAL"):
                component.has_default = False
                component.optional = True
                return
            raise Poisoned() from None
        component.default = result

    def report_missing_modules(self) -> None:
        """One diagnostic per import of a module that no input defines: an error when
        what it imports is referenced in the importing module, else a warning."""
        referenced: dict[int, set[str]] = {}
        for module in self.modules:
            for link in module.all_imports:
                missing = link.missing
                if missing is None or missing.used:
                    continue
                if id(module) not in referenced:
                    referenced[id(module)] = referenced_names(module.ast)
                if link.symbol.name in referenced[id(module)]:
                    missing.used = True
        for missing in self.loaded.missing:
            if missing.reported:
                continue
            if missing.used:
                self.defect(f"module '{missing.name}' is imported but not found among the "
                            f"inputs", missing.location, rule="X.680 13",
                            fix="give the file that defines it",
                            instead="a name imported from it is taken from the one input "
                                    "that defines it, else what needs it is an open type "
                                    "or left out")
            else:
                self.warning(f"module '{missing.name}' is imported but not found among the "
                             f"inputs; nothing imported from it is used", missing.location)

    def order_graph(self) -> None:
        """Nodes and values in definition order: by the assignment that owns them (the
        first two parts of their identifier), then in the order they were made."""
        ranks: dict[str, tuple[int, int]] = {}
        for module in self.modules:
            for index, assignment in enumerate(module.ast.assignments):
                ranks.setdefault(f"{module.name}.{assignment.name}", (module.index, index))
        unknown = (len(self.modules), 0)

        def rank(identifier: str):
            owner = ".".join(identifier.split(".", 2)[:2])
            return ranks.get(owner, unknown)

        counter = itertools.count()
        nodes = sorted(self.graph.nodes.items(), key=lambda kv: (rank(kv[0]), next(counter)))
        self.graph.nodes = dict(nodes)
        counter = itertools.count()
        values = sorted(self.graph.values.items(), key=lambda kv: (rank(kv[0]), next(counter)))
        self.graph.values = dict(values)
