"""The abstract syntax of ASN.1 modules, as the parser leaves them.

Plain dataclasses, one per production that analysis needs.  Positions are ``(line,
column)`` pairs (1-based) and the file name lives on the `Module`, so that a parsed module
can be cached by the hash of its text whatever path it was read from.

What syntax alone cannot decide stays undecided here (docs/frontend.md):
  * a `Reference` may name a type, value, value set, class, object or object set;
  * a `BlockValue` keeps the tokens of a braced notation until its governor is known;
  * a `TypeAssignment` may define a type or a class, a `ValueAssignment` a value or an
    object, a `SetAssignment` a value set or an object set.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

Pos = tuple[int, int]
# A token kept for deferred reading: (token type, text, line, column).
Token = tuple[int, str, int, int]


# ------------------------------------------------------------------ references

@dataclass(slots=True)
class Reference:
    """``name``, ``Module.name``, ``name{args}``, ``name.&field.&field`` or ``&field``."""
    name: str
    pos: Pos
    module: Optional[str] = None
    args: Optional[list["Actual"]] = None
    fields: tuple[str, ...] = ()

    @property
    def is_upper(self) -> bool:
        return self.name[0].isupper()

    def __str__(self) -> str:
        text = f"{self.module}.{self.name}" if self.module else self.name
        if self.args is not None:
            text += "{...}"
        return text + "".join("." + f for f in self.fields)


# ----------------------------------------------------------------------- types

@dataclass(slots=True)
class Type:
    pos: Pos


@dataclass(slots=True)
class BuiltinType(Type):
    """A built-in type without a body: BOOLEAN, NULL, REAL, OCTET STRING, the character
    string and time types, OBJECT IDENTIFIER, RELATIVE-OID, EXTERNAL, EMBEDDED PDV, ..."""
    name: str


@dataclass(slots=True)
class NamedNumber:
    name: Optional[str]                      # None: an extension marker written in the list
    value: Union[int, Reference, None]
    pos: Pos


@dataclass(slots=True)
class IntegerType(Type):
    named: list[NamedNumber] = field(default_factory=list)


@dataclass(slots=True)
class BitStringType(Type):
    named: list[NamedNumber] = field(default_factory=list)


@dataclass(slots=True)
class EnumeratedType(Type):
    items: list[NamedNumber]                 # name None: the extension marker "..."


@dataclass(slots=True)
class NamedComponent:
    name: Optional[str]                      # None only in X.208 syntax
    type: Type
    pos: Pos
    optional: bool = False
    default: Optional["Value"] = None


@dataclass(slots=True)
class ComponentsOf:
    type: Type
    pos: Pos


@dataclass(slots=True)
class ExtensionMarker:
    pos: Pos


@dataclass(slots=True)
class ExtensionGroup:
    items: list["ComponentItem"]
    pos: Pos
    version: Optional[int] = None


ComponentItem = Union[NamedComponent, ComponentsOf, ExtensionMarker, ExtensionGroup]


@dataclass(slots=True)
class StructuredType(Type):
    """SEQUENCE, SET or CHOICE with its component list as written."""
    kind: str                                # "SEQUENCE", "SET" or "CHOICE"
    items: list[ComponentItem] = field(default_factory=list)


@dataclass(slots=True)
class CollectionType(Type):
    """SEQUENCE OF / SET OF, with the constraint written before OF, if any."""
    kind: str                                # "SEQUENCE OF" or "SET OF"
    element: Type
    element_name: Optional[str] = None
    constraint: Optional["Constraint"] = None


@dataclass(slots=True)
class TaggedType(Type):
    tag_class: str                           # "UNIVERSAL", "APPLICATION", "PRIVATE", "CONTEXT"
    number: Union[int, Reference]
    mode: Optional[str]                      # "IMPLICIT", "EXPLICIT" or None (module default)
    type: Type


@dataclass(slots=True)
class ConstrainedType(Type):
    type: Type
    constraints: list["Constraint"]


@dataclass(slots=True)
class ReferencedType(Type):
    ref: Reference


@dataclass(slots=True)
class SelectionType(Type):
    name: str
    type: Type


@dataclass(slots=True)
class AnyType(Type):
    defined_by: Optional[str] = None


@dataclass(slots=True)
class InstanceOfType(Type):
    ref: Reference


# ---------------------------------------------------------------------- values

@dataclass(slots=True)
class Value:
    pos: Pos


@dataclass(slots=True)
class KeywordValue(Value):
    """TRUE, FALSE, NULL, PLUS-INFINITY, MINUS-INFINITY, NOT-A-NUMBER."""
    keyword: str


@dataclass(slots=True)
class NumberValue(Value):
    value: Union[int, float]


@dataclass(slots=True)
class CStringValue(Value):
    text: str                                # quotes removed, "" undoubled, lines joined


@dataclass(slots=True)
class BStringValue(Value):
    bits: str                                # the binary digits


@dataclass(slots=True)
class HStringValue(Value):
    digits: str                              # the hexadecimal digits


@dataclass(slots=True)
class ChoiceValue(Value):
    name: str
    value: Value


@dataclass(slots=True)
class OpenTypeValue(Value):
    type: Type
    value: Value


@dataclass(slots=True)
class ReferencedValue(Value):
    ref: Reference


@dataclass(slots=True)
class ContainingValue(Value):
    value: Value


@dataclass(slots=True)
class BlockValue(Value):
    """A braced notation, kept as the tokens between the braces."""
    tokens: tuple[Token, ...]
    end: Pos = (0, 0)


Actual = Union[Type, Value]


# ----------------------------------------------------------------- constraints

class ElementSet:
    """Base of the element set tree: unions, intersections, exclusions and elements."""
    __slots__ = ()


@dataclass(slots=True)
class ElementSetSpecs(ElementSet):
    """Root and extension additions; also an element, when written in parentheses."""
    root: Optional[ElementSet]
    extensible: bool = False
    additions: Optional[ElementSet] = None
    pos: Pos = (0, 0)
    # Extension markers after the first (a defect; their additions are in `additions`).
    extra_markers: tuple[Pos, ...] = ()


@dataclass(slots=True)
class Constraint:
    spec: Union[ElementSetSpecs, "GeneralConstraint"]
    pos: Pos
    text: str = ""                           # as written, for messages


@dataclass(slots=True)
class Union_(ElementSet):
    items: list[ElementSet]
    pos: Pos


@dataclass(slots=True)
class Intersection(ElementSet):
    items: list[ElementSet]
    pos: Pos


@dataclass(slots=True)
class Exclusion(ElementSet):
    base: Optional[ElementSet]               # None: ALL EXCEPT ...
    excluded: ElementSet
    pos: Pos


@dataclass(slots=True)
class SingleValue(ElementSet):
    value: Value
    pos: Pos


@dataclass(slots=True)
class ValueRange(ElementSet):
    lower: Union[Value, str]                 # "MIN" or a value
    upper: Union[Value, str]                 # "MAX" or a value
    pos: Pos
    lower_open: bool = False
    upper_open: bool = False


@dataclass(slots=True)
class SizeElement(ElementSet):
    constraint: Constraint
    pos: Pos


@dataclass(slots=True)
class AlphabetElement(ElementSet):
    constraint: Constraint
    pos: Pos


@dataclass(slots=True)
class InnerTypeElement(ElementSet):
    constraint: Constraint
    pos: Pos


@dataclass(slots=True)
class NamedConstraint:
    name: str
    constraint: Optional[Constraint]
    presence: Optional[str]                  # "PRESENT", "ABSENT", "OPTIONAL"
    pos: Pos


@dataclass(slots=True)
class InnerTypesElement(ElementSet):
    partial: bool
    items: list[NamedConstraint]
    pos: Pos


@dataclass(slots=True)
class PatternElement(ElementSet):
    value: Value
    pos: Pos


@dataclass(slots=True)
class SettingsElement(ElementSet):
    text: str
    pos: Pos


@dataclass(slots=True)
class TypeElement(ElementSet):
    """A type, value set, object set reference, or INCLUDES type."""
    type: Type
    pos: Pos
    includes: bool = False


@dataclass(slots=True)
class UserDefinedConstraint:
    block: BlockValue


@dataclass(slots=True)
class AtNotation:
    level: int                               # 0: "@a" (outermost); 1: "@.a"; 2: "@..a"
    path: tuple[str, ...]
    pos: Pos


@dataclass(slots=True)
class TableConstraint:
    """``{ObjectSet}{@a, @.b}``; the simple form ``({ObjectSet})`` is a SingleValue block."""
    object_set: BlockValue
    at: list[AtNotation]


@dataclass(slots=True)
class ContentsConstraint:
    type: Optional[Type]
    encoded_by: Optional[Value]


GeneralConstraint = Union[UserDefinedConstraint, TableConstraint, ContentsConstraint]


# ------------------------------------------------ information object classes

@dataclass(slots=True)
class FieldSpec:
    """One field of a CLASS.  `category` is what the syntax says: "type" (``&Type``),
    "value" (``&value Type``: a value or an object field) or "set" (``&Set Type``: a value
    set or an object set field); analysis tells objects and values apart by the governor."""
    name: str                                # with the "&"
    category: str
    pos: Pos
    governor: Optional[Type] = None
    unique: bool = False
    optional: bool = False
    default: Optional[Actual] = None


@dataclass(slots=True)
class SyntaxLiteral:
    text: str
    pos: Pos


@dataclass(slots=True)
class SyntaxField:
    name: str
    pos: Pos


@dataclass(slots=True)
class SyntaxGroup:
    items: list["SyntaxItem"]
    pos: Pos


SyntaxItem = Union[SyntaxLiteral, SyntaxField, SyntaxGroup]


@dataclass(slots=True)
class ClassDefinition:
    fields: list[FieldSpec]
    pos: Pos
    syntax: Optional[list[SyntaxItem]] = None


# ----------------------------------------------------------------- assignments

@dataclass(slots=True)
class Parameter:
    name: str
    pos: Pos
    governor: Optional[Type] = None


@dataclass(slots=True)
class Assignment:
    name: str
    pos: Pos


@dataclass(slots=True)
class TypeAssignment(Assignment):
    """``Name ::= Type`` or ``NAME ::= CLASS {...}`` (also a class reference)."""
    type: Union[Type, ClassDefinition]
    params: Optional[list[Parameter]] = None


@dataclass(slots=True)
class ValueAssignment(Assignment):
    """``name Type ::= value`` or ``name CLASS ::= object``."""
    type: Type
    value: Value
    params: Optional[list[Parameter]] = None


@dataclass(slots=True)
class SetAssignment(Assignment):
    """``Name Type ::= { ... }`` (value set) or ``Name CLASS ::= { ... }`` (object set)."""
    type: Type
    elements: Optional[ElementSetSpecs]
    params: Optional[list[Parameter]] = None


@dataclass(slots=True)
class MacroDefinition(Assignment):
    pass


@dataclass(slots=True)
class MacroValueAssignment(Assignment):
    macro: str
    macro_pos: Pos
    value: Value


# --------------------------------------------------------------------- modules

@dataclass(slots=True)
class ImportedSymbol:
    name: str
    pos: Pos


@dataclass(slots=True)
class Import:
    symbols: list[ImportedSymbol]
    module: str
    pos: Pos                                 # of the module name after FROM
    assigned: Optional[Value] = None         # the module's OID, or a value naming it


@dataclass(slots=True)
class Module:
    name: str
    pos: Pos
    tag_default: str = "EXPLICIT"
    extensibility_implied: bool = False
    oid: Optional[BlockValue] = None
    exports: Optional[list[ImportedSymbol]] = None   # None: everything is exported
    imports: list[Import] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    file: str = ""                           # set by the loader, not cached
