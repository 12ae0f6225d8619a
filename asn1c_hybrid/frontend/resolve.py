"""Name resolution: what a reference denotes (X.680 14, X.681 7, X.683 8-9).

A name is looked up in the bindings of the parameterized definition being instantiated,
then in its module's own assignments, then through its IMPORTS, then among the built-in
classes.  What the name *is* (type, class, value, object, value set, object set) is then
decided from the assignment's form and its governor (docs/frontend.md, "Categories"),
because ASN.1's syntax cannot say it.
"""
from __future__ import annotations

from functools import cached_property
from typing import Optional, Union

from ..diagnostics import lenient_hint
from . import ast
from .builtins import BUILTIN_CLASS_MODULE, BUILTIN_CLASSES, CHARACTER_STRING_TYPES, TIME_TYPES
from .scope import (Binding, Definition, ImportLink, ModuleScope, Poisoned, Scope,
                    SemanticError, Unbound, Unresolved)

Target = Union[Definition, Binding]

TYPE, CLASS, VALUE, OBJECT, VALUE_SET, OBJECT_SET, MACRO = (
    "type", "class", "value", "object", "value set", "object set", "macro")

_BUILTIN_TYPE_NAMES = frozenset(CHARACTER_STRING_TYPES + TIME_TYPES
                                + ("EXTERNAL", "RELATIVE-OID", "OID-IRI", "RELATIVE-OID-IRI"))


def article(category: str) -> str:
    return ("an " if category[0] in "aeiou" else "a ") + category


class Resolver:
    """Mixin of the analyzer: lookup and categories.  Needs `modules_by_name`,
    `builtin_modules`, `error()` and the memo dictionaries created in Analyzer."""

    # ------------------------------------------------------------------ lookup

    def lookup(self, ref: ast.Reference, scope: Scope) -> Target:
        if ref.module is None:
            binding = scope.bindings.get(ref.name) if scope.bindings else None
            if binding is not None:
                return binding
            return self.lookup_in_module(scope.module, ref.name, ref.pos, scope.module)
        module = self.qualifier_module(ref, scope)
        return self.lookup_in_module(module, ref.name, ref.pos, scope.module, qualified=True)

    def qualifier_module(self, ref: ast.Reference, scope: Scope) -> ModuleScope:
        """The module of ``Module.name``: the scope's own, one named in its IMPORTS (under
        the name written there), or any input module of that name."""
        if ref.module == scope.module.name:
            return scope.module
        for link in scope.module.all_imports:
            if link.clause.module == ref.module:
                if link.target is None:
                    self.mark_missing_used(link)
                    raise Poisoned()
                return link.target
        module = self.modules_by_name.get(ref.module)
        if module is None:
            raise SemanticError(f"module '{ref.module}' is not known", scope.location(ref.pos))
        return module

    def lookup_in_module(self, module: ModuleScope, name: str, pos: ast.Pos,
                         from_module: ModuleScope, qualified: bool = False) -> Definition:
        seen = set()
        while True:
            assignment = module.assignments.get(name)
            if assignment is not None:
                return Definition(module, assignment)
            if name in module.ambiguous:
                sources = " and ".join(link.clause.module for link in module.ambiguous[name])
                raise SemanticError(f"'{name}' is imported from {sources}: write "
                                    f"Module.{name} to say which", from_module.location(pos))
            link = module.imports.get(name)
            if link is None or id(module) in seen:
                break
            seen.add(id(module))
            self.check_import(link, module)
            module = self.import_redirects.get(id(link), link.target)
        if name in BUILTIN_CLASSES:
            builtin = self.builtin_modules[BUILTIN_CLASS_MODULE]
            return Definition(builtin, builtin.assignments[name])
        where = f" in module {module.name}" if (qualified or module is not from_module) else ""
        if where:
            raise SemanticError(f"'{name}' is not defined{where}", from_module.location(pos))
        return self.undefined_name(name, from_module.location(pos))

    def definers(self, name: str) -> list[ModuleScope]:
        """The input modules that define `name`."""
        return self.definers_index.get(name, [])

    @cached_property
    def definers_index(self) -> dict[str, list[ModuleScope]]:
        """Name -> the input modules defining it; built when first asked, as only failing
        look-ups and lenient mode ask."""
        index: dict[str, list[ModuleScope]] = {}
        for module in self.modules:
            for name in module.assignments:
                index.setdefault(name, []).append(module)
        return index

    def undefined_name(self, name: str, location) -> Definition:
        """A name neither defined nor imported.  Lenient mode takes it from the one input
        module that defines it (files edited by hand often lose an import), or leaves it
        Unresolved.  A probing caller catches the SemanticError this raises, so nothing is
        reported here but the lenient warning."""
        definers = self.definers(name)
        if not self.diagnostics.lenient:
            fix = f"import it from {definers[0].name}" if len(definers) == 1 else \
                "define or import it"
            raise SemanticError(f"'{name}' is not defined", location,
                                lenient_hint("X.680 13", fix))
        if len(definers) == 1:
            self.defect(f"'{name}' is not defined or imported", location, rule="X.680 13",
                        fix="", instead=f"taken from {definers[0].name}, which defines it")
            return Definition(definers[0], definers[0].assignments[name])
        self.defect(f"'{name}' is not defined or imported", location, rule="X.680 13",
                    fix="", instead="no single input defines it: what needs it is an open "
                                    "type or left out")
        raise Unresolved(f"'{name}' is not defined", location)

    def check_import(self, link: ImportLink, module: ModuleScope) -> None:
        """An imported symbol must be defined (or imported) by its module and exported."""
        state = self.import_state.get(id(link))
        if state is True:
            return
        if state is False:
            raise Poisoned()
        if state is Unresolved:
            raise Unresolved(f"'{link.symbol.name}' is defined nowhere",
                             module.location(link.symbol.pos))
        if link.target is None:
            self.mark_missing_used(link)
            if link.missing is None or link.missing.reported or not self.diagnostics.lenient:
                raise Poisoned()
            # Lenient mode: report_missing_modules warns about the module once.
            state = self.import_from_elsewhere(link, module, quiet=True)
            self.import_state[id(link)] = state
            if state is Unresolved:
                raise Unresolved(f"'{link.symbol.name}' is defined nowhere",
                                 module.location(link.symbol.pos))
            return
        name = link.symbol.name
        target = link.target
        location = module.location(link.symbol.pos)
        ok = True
        if name not in target.assignments and name not in target.imports \
                and name not in target.ambiguous:
            if name in self.macro_names(module) and target.exports is not None \
                    and name in target.exports:
                self.warning(f"the X.208 macro {name} is exported by {target.name} but not "
                             f"defined there; its instances are read as values", location)
            else:
                ok = self.import_from_elsewhere(link, module)
        elif target.exports is not None and name not in target.exports:
            ok = self.defect(f"'{name}' is not exported by module {target.name}", location,
                             rule="X.680 13", fix=f"export it from {target.name}",
                             instead="imported all the same")
        self.import_state[id(link)] = ok
        if ok is Unresolved:
            raise Unresolved(f"'{name}' is defined nowhere", location)
        if not ok:
            raise Poisoned()

    def import_from_elsewhere(self, link: ImportLink, module: ModuleScope,
                              quiet: bool = False):
        """A symbol its module does not define (often a cut-down copy of a standard
        module), or imported from a module no input defines (`quiet`: that is reported
        once per module).  Lenient mode imports it from the one input module that defines
        it, or, when none does, leaves it Unresolved.  Returns the import's state."""
        name = link.symbol.name
        definers = self.definers(name)
        if quiet:
            if len(definers) == 1:
                self.import_redirects[id(link)] = definers[0]
                return True
            return Unresolved
        location = module.location(link.symbol.pos)
        message = f"'{name}' is not defined in module {link.target.name}"
        if len(definers) == 1:
            instead = f"imported from {definers[0].name}, which defines it"
        elif definers:
            instead = ("imported from none of " + ", ".join(m.name for m in definers)
                       + ", which all define it: what needs it is an open type or left out")
        else:
            instead = "no input defines it: what needs it is an open type or left out"
        if not self.defect(message, location, rule="X.680 13",
                           fix=f"define it in {link.target.name} or import it from where "
                               "it is defined", instead=instead):
            return False
        if len(definers) == 1:
            self.import_redirects[id(link)] = definers[0]
            return True
        return Unresolved

    def macro_names(self, module: ModuleScope) -> set[str]:
        """Names used as macros (``value MACRO-NAME ... ::= value``) in a module."""
        return {a.macro for a in module.ast.assignments if isinstance(a, ast.MacroValueAssignment)}

    def mark_missing_used(self, link: ImportLink) -> None:
        if link.missing is not None:
            link.missing.used = True

    def check_all_imports(self) -> None:
        """Report bad imports even when nothing uses them."""
        for module in self.modules:
            for link in module.all_imports:
                name = link.symbol.name
                location = module.location(link.symbol.pos)
                if name in _BUILTIN_TYPE_NAMES:
                    self.warning(f"'{name}' is a built-in type; importing it has no effect",
                                 location)
                    self.import_state[id(link)] = True
                    continue
                if link.target is None:
                    continue
                try:
                    self.check_import(link, module)
                except (Poisoned, Unresolved):
                    continue
                if link.shadowed:
                    self.check_shadowed_import(link, module, location)

    def check_shadowed_import(self, link: ImportLink, module: ModuleScope, location) -> None:
        """A symbol both imported and defined: harmless only if both definitions say the
        same thing (a copy made to keep a module self-contained); the local one is used."""
        mine = module.assignments[link.symbol.name]
        try:
            theirs = self.lookup_in_module(link.target, link.symbol.name, link.symbol.pos,
                                           module, qualified=True).assignment
        except (SemanticError, Poisoned):
            theirs = None
        if theirs is None or ast_shape(mine) != ast_shape(theirs):
            self.defect(f"'{link.symbol.name}' is both imported from {link.target.name} and "
                        f"defined in module {module.name}", location, rule="X.680 13",
                        fix="remove the import or the definition",
                        instead="the module's own definition is used")

    # -------------------------------------------------------------- categories

    def category(self, target: Target) -> str:
        """type, class, value, object, value set, object set or macro."""
        if isinstance(target, Binding):
            return self.binding_category(target)
        key = id(target.assignment)
        known = self.categories.get(key)
        if known is not None:
            if known == "?":
                raise SemanticError(f"'{target.name}' is defined circularly",
                                    target.location())
            return known
        self.categories[key] = "?"
        try:
            result = self._definition_category(target)
        except BaseException:
            del self.categories[key]
            raise
        self.categories[key] = result
        return result

    def _definition_category(self, target: Definition) -> str:
        assignment = target.assignment
        scope = Scope(target.module)
        if isinstance(assignment, ast.TypeAssignment):
            if isinstance(assignment.type, ast.ClassDefinition):
                return CLASS
            ref = plain_reference(assignment.type)
            if ref is not None and ref.is_upper and not ref.fields and self._names_class(ref, scope):
                return CLASS
            return TYPE
        if isinstance(assignment, ast.ValueAssignment):
            return OBJECT if self.governs_objects(assignment.type, scope) else VALUE
        if isinstance(assignment, ast.SetAssignment):
            return OBJECT_SET if self.governs_objects(assignment.type, scope) else VALUE_SET
        if isinstance(assignment, ast.MacroDefinition):
            return MACRO
        return VALUE                                  # a macro instance

    def _names_class(self, ref: ast.Reference, scope: Scope) -> bool:
        try:
            target = self.lookup(ref, scope)
        except (SemanticError, Poisoned):
            return False
        return self.category(target) == CLASS

    def governs_objects(self, governor: ast.Type, scope: Scope) -> bool:
        """Whether a governor (the type before ``::=``, or a parameter's) is a class."""
        ref = plain_reference(governor)
        if ref is None or not ref.is_upper or ref.fields:
            return False
        try:
            target = self.lookup(ref, scope)
        except SemanticError:
            return False
        return self.category(target) == CLASS

    def binding_category(self, binding: Binding) -> str:
        param = binding.param
        upper = param.name[0].isupper()
        if param.governor is None:
            if not upper:
                return VALUE
            ref = plain_reference(binding.actual) if isinstance(binding.actual, ast.Type) else None
            if ref is not None and ref.is_upper and not ref.fields:
                try:
                    if self.category(self.lookup(ref, binding.scope)) == CLASS:
                        return CLASS
                except SemanticError:
                    pass
            return TYPE
        is_class = self.governs_objects(param.governor, binding.instance_scope)
        if is_class:
            return OBJECT_SET if upper else OBJECT
        return VALUE_SET if upper else VALUE

    # ---------------------------------------------------------- instantiation

    def instantiate(self, target: Definition, ref: ast.Reference, scope: Scope) -> Scope:
        """The scope in which a parameterized definition's body means ``ref``'s instance."""
        params = target.params
        args = ref.args
        if params is None:
            # Cut-down copies of standard modules drop the parameters of DirectoryString
            # and the like, but not from the references to them.
            if args is not None and not self.defect(
                    f"'{target.name}' is not parameterized", scope.location(ref.pos),
                    rule="X.683 9", fix="remove the actual parameters",
                    instead="the actual parameters are ignored"):
                raise Poisoned()
            return Scope(target.module)
        if not args:
            # An empty list is usually a bound commented out ({--ub-name--}), which asn2wrs
            # ignores: lenient mode leaves the constraints of the unbound dummies unapplied.
            message = f"'{target.name}' is given no actual parameters" if args is not None \
                else f"'{target.name}' needs {len(params)} actual parameter(s)"
            if not self.defect(message, scope.location(ref.pos), rule="X.683 9",
                               fix="give them",
                               instead="constraints that use its dummies are left out, "
                                       "and a type dummy is an open type"):
                raise Poisoned()
            args = [Unbound(ref.pos) for _ in params]
        if len(args) != len(params):
            raise SemanticError(f"'{target.name}' takes {len(params)} parameter(s), "
                                f"{len(args)} given", scope.location(ref.pos))
        instance = Scope(target.module, {})
        fingerprints = []
        for param, actual in zip(params, args):
            binding = Binding(param, actual, scope)
            binding.instance_scope = instance
            binding.fingerprint = self.actual_fingerprint(actual, scope)
            fingerprints.append(binding.fingerprint)
            instance.bindings[param.name] = binding
        instance.key = (target.qualified, tuple(fingerprints))
        return instance

    def actual_fingerprint(self, actual: ast.Actual, scope: Scope):
        """What an actual parameter means, as a hashable value: a bare dummy reference is
        replaced by what it is bound to, so that a recursive instance is recognised."""
        if isinstance(actual, Unbound):
            return ("unbound",)
        ref = None
        if isinstance(actual, ast.ReferencedType):
            ref = actual.ref
        elif isinstance(actual, ast.ReferencedValue):
            ref = actual.ref
        elif isinstance(actual, ast.BlockValue) and len(actual.tokens) == 1:
            binding = scope.bindings.get(actual.tokens[0][1]) if scope.bindings else None
            if binding is not None:
                return binding.fingerprint
        if ref is not None and ref.module is None and not ref.fields and ref.args is None:
            binding = scope.bindings.get(ref.name) if scope.bindings else None
            if binding is not None:
                return binding.fingerprint
            return ("name", scope.module.name, ref.name)
        return ("ast", id(actual), scope.key)


def ast_shape(node):
    """An AST without its positions, to compare two definitions."""
    if isinstance(node, ast.BlockValue):
        return ("block", tuple((token[0], token[1]) for token in node.tokens))
    if isinstance(node, list):
        return tuple(ast_shape(item) for item in node)
    if isinstance(node, tuple):
        return tuple(ast_shape(item) if not isinstance(item, (int, str)) else item
                     for item in node)
    slots = getattr(type(node), "__slots__", None)
    if slots is None or not hasattr(node, "__dataclass_fields__"):
        return node
    return (type(node).__name__,) + tuple(
        ast_shape(getattr(node, name)) for name in node.__dataclass_fields__
        if name not in ("pos", "end"))


def plain_reference(node) -> Optional[ast.Reference]:
    """The reference a type (or value) consists of, if that is all it is."""
    if isinstance(node, (ast.ReferencedType, ast.ReferencedValue)):
        return node.ref
    return None
