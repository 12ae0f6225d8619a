"""Where names are looked up: modules, imports, and the bindings of parameterized
definitions (X.683) while they are instantiated.

A `Scope` is a module plus, inside an instance of a parameterized definition, the actual
parameters bound to its dummy references.  Every scope has a `key`, a hashable
fingerprint of what its names mean, used to recognize a parameterized definition that is
instantiated again, with the same actual parameters, inside itself (a recursive
parameterized type).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..typegraph import Location
from . import ast


class SemanticError(Exception):
    """An error in the specification, reported once where it is found.  `hint` follows
    the message in the diagnostic (Diagnostic.hint)."""

    def __init__(self, message: str, location: Optional[Location] = None, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint


class Poisoned(Exception):
    """The thing being analysed depends on something already reported as wrong (or on a
    module that is missing): give up on it without a second message."""


@dataclass(eq=False)
class MissingModule:
    """A module named in IMPORTS that none of the inputs defines."""
    name: str
    location: Location
    used: bool = False                       # some symbol imported from it is referenced
    reported: bool = False


@dataclass(eq=False)
class ImportLink:
    symbol: ast.ImportedSymbol
    clause: ast.Import
    target: Optional["ModuleScope"]
    missing: Optional[MissingModule] = None
    shadowed: bool = False                   # the module also defines the symbol itself


@dataclass(eq=False)
class ModuleScope:
    ast: ast.Module
    file: str
    index: int                               # position among the inputs: definition order
    oid: Optional[str] = None
    builtin: bool = False
    assignments: dict[str, ast.Assignment] = field(default_factory=dict)
    imports: dict[str, ImportLink] = field(default_factory=dict)     # unambiguous ones
    all_imports: list[ImportLink] = field(default_factory=list)
    ambiguous: dict[str, list[ImportLink]] = field(default_factory=dict)
    exports: Optional[set[str]] = None       # None: everything

    @property
    def name(self) -> str:
        return self.ast.name

    @property
    def tag_default(self) -> str:
        return self.ast.tag_default

    @property
    def extensibility_implied(self) -> bool:
        return self.ast.extensibility_implied

    def location(self, pos: ast.Pos) -> Location:
        return Location(self.file, pos[0], pos[1])


@dataclass(frozen=True)
class Unbound:
    """The actual parameter of a dummy that was given none (lenient mode)."""
    pos: ast.Pos


class Unresolved(Exception):
    """Raised where lenient mode left a name without meaning (a dummy given no actual
    parameter, a name imported from a module that does not define it and that no input
    defines): a constraint that needs it is left out, a type that names it is an open
    type, and any other definition that needs it is left out (docs/frontend.md).  Not a
    SemanticError: the lenient warning was given where the name was found wanting."""

    def __init__(self, message: str, location: Optional[Location] = None):
        super().__init__(message)
        self.message = message
        self.location = location


@dataclass(eq=False)
class Binding:
    """A dummy reference bound to an actual parameter for one instantiation."""
    param: ast.Parameter
    actual: ast.Actual
    scope: "Scope"                           # where the actual parameter was written
    fingerprint: Any = None
    instance_scope: Optional["Scope"] = None # the instance it belongs to (for its governor)


@dataclass(eq=False)
class Scope:
    module: ModuleScope
    bindings: dict[str, Binding] = field(default_factory=dict)
    key: Any = None

    def __post_init__(self) -> None:
        if self.key is None:
            self.key = ("module", self.module.name, self.module.index)

    def location(self, pos: ast.Pos) -> Location:
        return self.module.location(pos)


@dataclass(eq=False)
class Definition:
    """An assignment, found by name, in the module that makes it."""
    module: ModuleScope
    assignment: ast.Assignment

    @property
    def name(self) -> str:
        return self.assignment.name

    @property
    def qualified(self) -> str:
        return f"{self.module.name}.{self.assignment.name}"

    @property
    def params(self) -> Optional[list[ast.Parameter]]:
        return getattr(self.assignment, "params", None)

    def location(self) -> Location:
        return self.module.location(self.assignment.pos)
