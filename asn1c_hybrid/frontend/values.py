"""Value notation -> plain Python values, in the asn1tools convention of typegraph.py.

A value is always read against its governing type (a node), because the notation alone
does not say what it is: ``{ a b }`` is an OBJECT IDENTIFIER or a SEQUENCE value, ``red``
an ENUMERATED identifier, a named number or a value reference.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from .. import contents
from ..typegraph import Kind, Node, ValueDef, universal
from . import ast
from .ber import encode
from .builtins import (CHARACTER_STRING_TYPES, STRING_ALPHABETS, STRING_LIMITS,
                       string_value_compatible)
from .deferred import split_items
from .generated.ASN1Lexer import ASN1Lexer as L
from .oids import well_known_arc
from .resolve import OBJECT, VALUE, article
from .scope import Binding, Definition, Poisoned, Scope, SemanticError, Unbound, Unresolved

_OID_TYPES = ("OBJECT IDENTIFIER", "RELATIVE-OID")
# The most bits of a BIT STRING value given by its named bits (2 MiB of C): `{ bit }` of a
# bit numbered 10^20 would otherwise be built in memory, bit by bit.
MAX_NAMED_VALUE_BITS = 2**24
_SPECIAL_REALS = {"PLUS-INFINITY": math.inf, "MINUS-INFINITY": -math.inf,
                  "NOT-A-NUMBER": math.nan}


class ValueReader:
    """Mixin of the analyzer: reading values."""

    # --------------------------------------------------------------- entry

    def value(self, v: ast.Value, type_id: str, scope: Scope) -> Any:
        node = self.target_node(type_id)
        location = scope.location(v.pos)
        if isinstance(v, ast.ReferencedValue):
            return self.referenced_value(v.ref, node, type_id, scope)
        if isinstance(v, ast.OpenTypeValue):
            return self.open_type_value(v, node, scope)
        if isinstance(v, ast.ContainingValue):
            return self.containing_value(v, node, scope)
        reader = _READERS.get(node.kind)
        if reader is None:
            raise SemanticError(f"{node.builtin} has no value notation here", location)
        return reader(self, v, node, scope, location)

    def bad_value(self, v: ast.Value, node: Node, location, detail: str = "") -> SemanticError:
        what = _describe_value(v)
        message = f"{what} is not a valid {node.builtin} value"
        if detail:
            message += f": {detail}"
        return SemanticError(message, location)

    # ---------------------------------------------------------- references

    def referenced_value(self, ref: ast.Reference, node: Node, type_id: str, scope: Scope):
        location = scope.location(ref.pos)
        if ref.fields:
            return self.value_from_object(ref, scope)
        if ref.module is None and ref.args is None:
            if node.kind == Kind.INTEGER and ref.name in node.named_numbers:
                return node.named_numbers[ref.name]
            if node.kind == Kind.ENUMERATED:
                if ref.name in node.named_numbers:
                    return ref.name
        target = self.lookup(ref, scope)
        if isinstance(target, Binding):
            category = self.category(target)
            if category != VALUE:
                raise SemanticError(f"'{ref.name}' is {article(category)}, not a value",
                                    location)
            actual = target.actual
            if isinstance(actual, Unbound):
                raise Unresolved(f"'{ref.name}' has no actual parameter", location)
            if isinstance(actual, ast.Type):
                actual = _type_as_value(actual)
                if actual is None:
                    raise SemanticError(f"the actual parameter for '{ref.name}' is not a "
                                        f"value", location)
            return self.value(actual, type_id, target.scope)
        category = self.category(target)
        if category != VALUE:
            raise SemanticError(f"'{ref}' is {article(category)}, not a value", location)
        if target.params is not None:
            return self.parameterized_value(target, ref, scope, type_id)
        value, value_type = self.value_definition(target)
        if value_type is None:              # an X.208 macro's value, kept unread
            raise SemanticError(f"'{ref}' is a value of the macro "
                                f"{target.assignment.macro}, which this compiler keeps "
                                f"unread: it cannot be used where {node.builtin} is expected",
                                location)
        self.check_compatible(value_type, type_id, value, location, f"'{ref}'")
        if node.kind == Kind.ENUMERATED and value not in node.named_numbers:
            raise SemanticError(f"'{ref}' ({value}) is not an identifier of this ENUMERATED",
                                location)
        return value

    def value_definition(self, target: Definition) -> tuple[Any, Optional[str]]:
        """The value of a value assignment, with the node of its type (memoized)."""
        key = id(target.assignment)
        state = self.value_states.get(key)
        if state is not None:
            if state == "busy":
                raise SemanticError(f"the value of '{target.name}' depends on itself",
                                    target.location())
            if state == "failed":
                raise Poisoned()
            if isinstance(state, Unresolved):
                raise state
            return state
        self.value_states[key] = "busy"
        scope = Scope(target.module)
        assignment = target.assignment
        try:
            with self.reporting_at(target.location()):
                if isinstance(assignment, ast.MacroValueAssignment):
                    result = self.macro_value(assignment, scope)
                else:
                    place = f"{target.qualified}.type"
                    if target.module.builtin:
                        place = self.scratch_place(target.name)
                    type_id = self.build_type(assignment.type, scope, place)
                    value = self.value(assignment.value, type_id, scope)
                    self.check_value_constraints(value, type_id, target.location(),
                                                 f"the value of '{target.name}'")
                    result = (value, type_id)
                    if not target.module.builtin and \
                            self.encodable_value(target, value, type_id):
                        self.graph.values[target.qualified] = ValueDef(
                            target.qualified, type_id, value, target.location())
        except SemanticError as error:
            self.value_states[key] = "failed"
            self.report(error)
            raise Poisoned() from None
        except Poisoned:
            self.value_states[key] = "failed"
            raise
        except Unresolved as unresolved:
            self.value_states[key] = unresolved
            raise
        self.value_states[key] = result
        return result

    def encodable_value(self, target: Definition, value, type_id: str) -> bool:
        """An OBJECT IDENTIFIER value such as `{ iso }` is a valid prefix for other values,
        but X.690 cannot encode it: it gets a warning and no C constant."""
        if self.graph.target(type_id).builtin != "OBJECT IDENTIFIER":
            return True
        problem = contents.oid_unencodable([int(arc) for arc in value.split(".")])
        if problem:
            self.diagnostics.warning(f"the value of '{target.name}' ({value}) {problem}, "
                                     "so X.690 8.19.4 cannot encode it; it has no C constant",
                                     target.location())
        return not problem

    def macro_value(self, assignment: ast.MacroValueAssignment, scope: Scope):
        """An X.208 macro instance: the macros of real specifications (SNMP's OBJECT-TYPE
        and its kin) have OBJECT IDENTIFIER values; other values are kept unread."""
        if isinstance(assignment.value, ast.BlockValue):
            return self.oid_value(assignment.value, scope, relative=False), self.oid_node()
        return None, None

    def parameterized_value(self, target: Definition, ref: ast.Reference, scope: Scope,
                            type_id: str):
        instance = self.instantiate(target, ref, scope)
        assignment = target.assignment
        value_type = self.build_type(assignment.type, instance, self.scratch_place(target.name))
        value = self.value(assignment.value, value_type, instance)
        self.check_compatible(value_type, type_id, value, scope.location(ref.pos), f"'{ref}'")
        return value

    def check_compatible(self, source_id: Optional[str], target_id: str, value,
                         location, what: str) -> None:
        """X.680 Annex B, as far as it matters for BER: a value of one type used where
        another is expected must be of the same kind; character string values must fit
        the target's repertoire."""
        if source_id is None:
            return
        source = self.target_node(source_id)
        target = self.target_node(target_id)
        if source.kind != target.kind:
            numeric = {Kind.INTEGER, Kind.REAL}
            if source.kind in numeric and target.kind in numeric:
                return
            raise SemanticError(f"{what} is a {source.builtin} value, but a "
                                f"{target.builtin} is expected", location)
        if source.kind == Kind.BYTES and source.builtin != target.builtin:
            strings = source.builtin in CHARACTER_STRING_TYPES and \
                target.builtin in CHARACTER_STRING_TYPES
            if not (strings and string_value_compatible(source.builtin, target.builtin)):
                raise SemanticError(f"{what} is a {source.builtin} value, but a "
                                    f"{target.builtin} is expected", location)

    def value_from_object(self, ref: ast.Reference, scope: Scope):
        """``object.&field`` used as a value."""
        base = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ())
        target = self.lookup(base, scope)
        if self.category(target) != OBJECT:
            raise SemanticError(f"'{base}' is not an object", scope.location(ref.pos))
        obj = self.object_of_target(target, base, scope)
        setting, kind, owner = self.object_setting_path(obj, ref.fields,
                                                        scope.location(ref.pos))
        if kind != "value":
            raise SemanticError(f"'{ref}' is not a value", scope.location(ref.pos))
        return self.object_value(owner, ref.fields[-1])

    # ------------------------------------------------------- special forms

    def open_type_value(self, v: ast.OpenTypeValue, node: Node, scope: Scope):
        """``Type : value``: for an open type, the complete encoding of the value."""
        type_id = self.build_type(v.type, scope, self.scratch_place("open-value"))
        value = self.value(v.value, type_id, scope)
        if node.kind == Kind.OPEN:
            return encode(self, type_id, value)
        self.check_compatible(type_id, node.id, value, scope.location(v.pos), "the value")
        return value

    def containing_value(self, v: ast.ContainingValue, node: Node, scope: Scope):
        if node.kind not in (Kind.BYTES, Kind.BIT_STRING) or not node.contained:
            raise SemanticError("CONTAINING needs an OCTET STRING or BIT STRING with a "
                                "contents constraint", scope.location(v.pos))
        data = encode(self, node.contained, self.value(v.value, node.contained, scope))
        return data if node.kind == Kind.BYTES else (data, 8 * len(data))

    # ----------------------------------------------------------- by kind

    def read_boolean(self, v, node, scope, location):
        if isinstance(v, ast.KeywordValue) and v.keyword in ("TRUE", "FALSE"):
            return v.keyword == "TRUE"
        if isinstance(v, ast.NumberValue) and v.value in (0, 1):
            self.warning(f"BOOLEAN value written as {v.value}; X.680 wants "
                         f"{'TRUE' if v.value else 'FALSE'}", location)
            return bool(v.value)
        raise self.bad_value(v, node, location)

    def read_null(self, v, node, scope, location):
        if isinstance(v, ast.KeywordValue) and v.keyword == "NULL":
            return None
        raise self.bad_value(v, node, location)

    def read_integer(self, v, node, scope, location):
        if isinstance(v, ast.NumberValue) and isinstance(v.value, int):
            return v.value
        raise self.bad_value(v, node, location)

    def read_real(self, v, node, scope, location):
        try:
            return self.real_value(v, node, scope, location)
        except OverflowError:
            raise SemanticError("this REAL value is beyond the range of a C double, which "
                                "the runtime keeps REALs in", location) from None

    def real_value(self, v, node, scope, location) -> float:
        if isinstance(v, ast.NumberValue):
            return float(v.value)
        if isinstance(v, ast.KeywordValue) and v.keyword in _SPECIAL_REALS:
            return _SPECIAL_REALS[v.keyword]
        if isinstance(v, ast.BlockValue):
            fields = self.named_items(v, scope, ("mantissa", "base", "exponent"), location)
            integer = self.integer_node()
            mantissa = self.value(fields["mantissa"], integer, scope)
            base = self.value(fields["base"], integer, scope)
            exponent = self.value(fields["exponent"], integer, scope)
            if base not in (2, 10):
                raise SemanticError(f"the base of a REAL is 2 or 10, not {base}", location)
            return float(mantissa) * float(base) ** exponent if mantissa else 0.0
        raise self.bad_value(v, node, location)

    def read_enumerated(self, v, node, scope, location):
        raise self.bad_value(v, node, location, "an identifier of the enumeration is expected")

    def read_bit_string(self, v, node, scope, location):
        if isinstance(v, ast.BStringValue):
            return _bits_to_value(v.bits)
        if isinstance(v, ast.HStringValue):
            return _bits_to_value("".join(f"{int(d, 16):04b}" for d in v.digits))
        if isinstance(v, ast.BlockValue):
            bits = set()
            for item in split_items(v.tokens):
                if len(item) != 1 or item[0][0] != L.LREF:
                    raise self.bad_value(v, node, location, "named bits are expected")
                name = item[0][1]
                if name not in node.named_bits:
                    raise SemanticError(f"'{name}' is not a named bit of this BIT STRING",
                                        scope.location((item[0][2], item[0][3])))
                bits.add(node.named_bits[name])
            if not bits:
                return (b"", 0)
            if max(bits) >= MAX_NAMED_VALUE_BITS:
                raise SemanticError(f"this value has {max(bits) + 1} bits, more than this "
                                    f"compiler writes out ({MAX_NAMED_VALUE_BITS} at most)",
                                    location)
            text = "".join("1" if i in bits else "0" for i in range(max(bits) + 1))
            return _bits_to_value(text)
        raise self.bad_value(v, node, location)

    def read_bytes(self, v, node, scope, location):
        builtin = node.builtin
        if builtin == "OCTET STRING":
            if isinstance(v, ast.HStringValue):
                digits = v.digits + ("0" if len(v.digits) % 2 else "")
                return bytes.fromhex(digits)
            if isinstance(v, ast.BStringValue):
                data, _ = _bits_to_value(v.bits)
                return data
            raise self.bad_value(v, node, location)
        if builtin in _OID_TYPES:
            if isinstance(v, ast.BlockValue):
                return self.oid_value(v, scope, relative=builtin == "RELATIVE-OID")
            raise self.bad_value(v, node, location)
        if isinstance(v, ast.CStringValue):
            self.check_characters(v.text, builtin, location)
            return v.text
        if isinstance(v, ast.BlockValue):
            text = self.character_list(v, node, scope, location)
            self.check_characters(text, builtin, location)
            return text
        raise self.bad_value(v, node, location)

    def check_characters(self, text: str, builtin: str, location) -> None:
        alphabet = STRING_ALPHABETS.get(builtin)
        limit = STRING_LIMITS.get(builtin)
        for char in text:
            if (alphabet is not None and char not in alphabet) or \
                    (limit is not None and ord(char) > limit):
                raise SemanticError(f"{char!r} is not a character of {builtin}", location)

    def character_list(self, v: ast.BlockValue, node: Node, scope: Scope, location) -> str:
        """``{ "abc", nul, {0, 0, 3, 112} }``, a Quadruple ``{0,0,0,32}`` or a Tuple
        ``{0, 0}`` (X.680 41.8)."""
        items = split_items(v.tokens)
        if items and all(len(i) == 1 and i[0][0] == L.NUMBER for i in items) \
                and len(items) in (2, 4):
            return chr(_cell_code([int(i[0][1]) for i in items], location))
        text = []
        for item in items:
            if len(item) == 1 and item[0][0] == L.CSTRING:
                text.append(self.parse_deferred(item, "valueOnly", scope, "a string").text)
                continue
            value = self.parse_deferred(item, "valueOnly", scope, "a character")
            if isinstance(value, ast.BlockValue):
                numbers = split_items(value.tokens)
                if all(len(i) == 1 and i[0][0] == L.NUMBER for i in numbers) \
                        and len(numbers) in (2, 4):
                    text.append(chr(_cell_code([int(i[0][1]) for i in numbers], location)))
                    continue
            part = self.value(value, node.id, scope)
            if not isinstance(part, str):
                raise self.bad_value(v, node, location)
            text.append(part)
        return "".join(text)

    def read_sequence(self, v, node, scope, location):
        if not isinstance(v, ast.BlockValue):
            raise self.bad_value(v, node, location)
        by_name = {c.name: c for c in node.components}
        result: dict[str, Any] = {}
        for item in split_items(v.tokens):
            if item[0][0] != L.LREF or len(item) < 2:
                raise self.bad_value(v, node, scope.location((item[0][2], item[0][3])),
                                     "'name value' pairs are expected")
            name = item[0][1]
            item_location = scope.location((item[0][2], item[0][3]))
            component = by_name.get(name)
            if component is None:
                raise SemanticError(f"{node.builtin} {node.id} has no component '{name}'",
                                    item_location)
            if name in result:
                raise SemanticError(f"component '{name}' is given twice", item_location)
            value_ast = self.parse_deferred(item[1:], "valueOnly", scope, f"the value of {name}")
            result[name] = self.value(value_ast, component.type, scope)
        for component in node.components:
            if component.present_always and component.name not in result:
                raise SemanticError(f"the value has no '{component.name}', which is not "
                                    f"OPTIONAL", location)
        return result

    def read_sequence_of(self, v, node, scope, location):
        if not isinstance(v, ast.BlockValue):
            raise self.bad_value(v, node, location)
        element = node.element
        result = []
        for item in split_items(v.tokens):
            if element.name and len(item) > 1 and item[0][0] == L.LREF \
                    and item[0][1] == element.name:
                item = item[1:]
            value_ast = self.parse_deferred(item, "valueOnly", scope, "an element")
            result.append(self.value(value_ast, element.type, scope))
        return result

    def read_choice(self, v, node, scope, location):
        if isinstance(v, ast.ChoiceValue):
            for component in node.components:
                if component.name == v.name:
                    return (v.name, self.value(v.value, component.type, scope))
            raise SemanticError(f"CHOICE {node.id} has no alternative '{v.name}'", location)
        raise self.bad_value(v, node, location, "'alternative : value' is expected")

    def read_open(self, v, node, scope, location):
        raise self.bad_value(v, node, location, "an open type value is written 'Type : value'")

    # --------------------------------------------------------------- OIDs

    def upper_value_reference(self, name: str, scope: Scope, location) -> Optional[str]:
        """The value `name`, spelled with an upper-case initial, stands for: a value
        assignment of that name, or of the name with a lower-case initial (Z39.50 defines
        `z39-50` and writes `{Z39-50 2}`).  A defect lenient mode accepts; None if neither
        is a value."""
        for candidate in (name, name[0].lower() + name[1:]):
            if candidate not in scope.module.assignments and \
                    candidate not in scope.module.imports:
                continue                            # looking it up would report it
            try:
                target = self.lookup(ast.Reference(candidate, (location.line,
                                                               location.column)), scope)
            except (SemanticError, Poisoned, Unresolved):
                continue
            if isinstance(target, Definition) and \
                    isinstance(target.assignment, ast.ValueAssignment):
                instead = "read as a value reference" if candidate == name else \
                    f"read as '{candidate}'"
                if not self.defect(f"'{name}' is a value reference spelled in upper case",
                                   location, rule="X.680 12.4",
                                   fix="begin it with a lower-case letter", instead=instead):
                    raise Poisoned()
                return candidate
        return None

    def oid_value(self, block: ast.BlockValue, scope: Scope, relative: bool) -> str:
        """Dotted form of ``{ iso(1) member-body(2) 840 }``, ``{ id-pkix 3 }``, ..."""
        arcs: list[int] = []
        tokens = block.tokens
        i = 0
        while i < len(tokens):
            token_type, text, line, column = tokens[i]
            location = scope.location((line, column))
            if token_type == L.NUMBER:
                arcs.append(int(text))
                i += 1
                continue
            if token_type == L.UREF and i + 2 < len(tokens) and tokens[i + 1][0] == L.DOT \
                    and tokens[i + 2][0] == L.LREF:
                ref = ast.Reference(tokens[i + 2][1], (line, column), text)
                self.oid_reference(ref, arcs, scope, location, relative)
                i += 3
                continue
            meant = self.upper_value_reference(text, scope, location) \
                if token_type == L.UREF else None
            if meant is not None:
                self.oid_reference(ast.Reference(meant, (line, column)), arcs, scope, location,
                                   relative)
                i += 1
                continue
            if token_type != L.LREF:
                raise SemanticError(f"{text!r} cannot be part of an OBJECT IDENTIFIER value",
                                    location)
            if i + 3 < len(tokens) and tokens[i + 1][0] == L.LPAREN and \
                    tokens[i + 3][0] == L.RPAREN:
                inner = tokens[i + 2]
                if self.prefix_meant(tokens, scope, location, relative):
                    self.oid_reference(ast.Reference(text, (line, column)), arcs, scope,
                                       location, relative)
                    arcs.append(int(inner[1]))
                    i += 4
                    continue
                if inner[0] == L.NUMBER:
                    arcs.append(int(inner[1]))
                else:
                    number = self.value(ast.ReferencedValue((inner[2], inner[3]),
                                                            ast.Reference(inner[1],
                                                                          (inner[2], inner[3]))),
                                        self.integer_node(), scope)
                    arcs.append(number)
                i += 4
                continue
            known = well_known_arc(arcs, text) if not relative else None
            if known is not None and not self.defines_value(scope, text):
                arcs.append(known)
            else:
                self.oid_reference(ast.Reference(text, (line, column)), arcs, scope, location,
                                   relative)
            i += 1
        if not relative and len(arcs) < 1:
            raise SemanticError("an OBJECT IDENTIFIER value needs at least one arc",
                                scope.location(block.pos))
        return ".".join(map(str, arcs))

    def prefix_meant(self, tokens, scope: Scope, location, relative: bool) -> bool:
        """`{ pkiAttributeType (1) }` is a name and number form, the single arc 1, which
        X.690 8.19.4 cannot encode; when the name is also a value in scope, its author meant
        `{ pkiAttributeType 1 }`.  A defect lenient mode reads as meant.  (Four tokens
        are that one component, so it is the first.)"""
        if relative or len(tokens) != 4 or tokens[2][0] != L.NUMBER:
            return False
        name, number = tokens[0][1], tokens[2][1]
        if well_known_arc([], name) is not None or not self.defines_value(scope, name):
            return False
        if not self.defect(f"'{name} ({number})' is a name and number form: this value is "
                           f"the one arc {number}, which cannot be encoded",
                           location, rule="X.680 32, X.690 8.19.4",
                           fix=f"write {{ {name} {number} }}",
                           instead=f"read as {{ {name} {number} }}"):
            raise Poisoned()
        return True

    def defines_value(self, scope: Scope, name: str) -> bool:
        if scope.bindings and name in scope.bindings:
            return True
        module = scope.module
        return name in module.assignments or name in module.imports or name in module.ambiguous

    def oid_reference(self, ref: ast.Reference, arcs: list[int], scope: Scope, location,
                      relative: bool) -> None:
        target = self.lookup(ref, scope)
        if isinstance(target, Binding):
            actual = target.actual
            value_type = None
        else:
            if self.category(target) != VALUE:
                raise SemanticError(f"'{ref}' is not a value", location)
            value, value_type = self.value_definition(target)
            actual = None
        if actual is not None:
            for type_id in (self.oid_node(), self.integer_node()):
                try:
                    value = self.value(actual, type_id, target.scope)
                    break
                except SemanticError:
                    continue
            else:
                raise SemanticError(f"'{ref}' is not an OBJECT IDENTIFIER or INTEGER", location)
        if isinstance(value, int) and not isinstance(value, bool):
            if not arcs and not relative:
                raise SemanticError(f"'{ref}' is an INTEGER; an OBJECT IDENTIFIER value "
                                    f"starts with an OBJECT IDENTIFIER", location)
            arcs.append(value)
            return
        if isinstance(value, str) and value_type is not None:
            builtin = self.target_node(value_type).builtin
            if builtin == "OBJECT IDENTIFIER" and arcs:
                raise SemanticError(f"'{ref}' is an OBJECT IDENTIFIER; only the first "
                                    f"component may be one", location)
            if builtin in _OID_TYPES:
                arcs.extend(int(a) for a in value.split(".") if a)
                return
        if isinstance(value, str) and value_type is None and value:
            arcs.extend(int(a) for a in value.split("."))
            return
        raise SemanticError(f"'{ref}' cannot be a component of an OBJECT IDENTIFIER", location)

    def oid_node(self) -> str:
        if "#OID" not in self.scratch:
            self.scratch["#OID"] = Node(id="#OID", kind=Kind.BYTES, builtin="OBJECT IDENTIFIER",
                                        tags=(universal(6),))
        return "#OID"

    # ------------------------------------------------------------ helpers

    def named_items(self, v: ast.BlockValue, scope: Scope, names: tuple[str, ...],
                    location) -> dict[str, ast.Value]:
        result = {}
        for item in split_items(v.tokens):
            if item[0][0] != L.LREF or item[0][1] not in names or len(item) < 2:
                raise SemanticError(f"expected {', '.join(names)}", location)
            result[item[0][1]] = self.parse_deferred(item[1:], "valueOnly", scope, item[0][1])
        missing = [n for n in names if n not in result]
        if missing:
            raise SemanticError(f"missing {', '.join(missing)}", location)
        return result

    def check_value_constraints(self, value, type_id: str, location, what: str) -> None:
        """A value must satisfy the non-extensible constraints of its type."""
        node = self.node(type_id)
        constraints = node.constraints
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int) and constraints.value is not None \
                and not constraints.value.extensible and self.value_set_of(node) is not None:
            if not self.value_set_of(node).contains(value):
                raise SemanticError(f"{what} ({value}) is not permitted by the constraint "
                                    f"{constraints.text}", location)
        size = None
        if isinstance(value, (str, bytes, list)):
            size = len(value)
        elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], bytes):
            size = value[1]
        if isinstance(value, tuple) and self.target_node(type_id).named_bits:
            # X.680 22.7: trailing 0 bits of a named-bit value are insignificant, so
            # {app} of BIT STRING {app(0)} (SIZE (8)) is fine (IEEE 1609.2's DEFAULT {app}).
            size = len(_significant_bits(value))
            if constraints.size is not None and (constraints.size.upper is None
                                                 or size <= constraints.size.upper):
                size = None
        if size is not None and constraints.size is not None and not constraints.size.extensible:
            if not constraints.size.contains(size):
                raise SemanticError(f"{what} has size {size}, not permitted by "
                                    f"{constraints.text}", location)
        if isinstance(value, str) and constraints.alphabet is not None \
                and self.alphabet_is_strict(node):
            for char in value:
                if char not in constraints.alphabet:
                    raise SemanticError(f"{what} has {char!r}, not permitted by "
                                        f"{constraints.text}", location)


def _significant_bits(value: tuple[bytes, int]) -> str:
    """The bits of a BIT STRING value without its trailing 0 bits."""
    data, count = value
    return "".join(f"{byte:08b}" for byte in data)[:count].rstrip("0")


def _bits_to_value(bits: str) -> tuple[bytes, int]:
    count = len(bits)
    padded = bits + "0" * (-count % 8)
    data = bytes(int(padded[i:i + 8], 2) for i in range(0, len(padded), 8))
    return data, count


def _cell_code(numbers: list[int], location) -> int:
    if len(numbers) == 4:
        group, plane, row, cell = numbers
        if not (0 <= group <= 127 and all(0 <= n <= 255 for n in (plane, row, cell))):
            raise SemanticError("a Quadruple is {group(0..127), plane, row, cell(0..255)}",
                                location)
        code = (group << 24) | (plane << 16) | (row << 8) | cell
        if code > 0x10FFFF:
            raise SemanticError(f"{{{group}, {plane}, {row}, {cell}}} is beyond the characters "
                                f"of ISO/IEC 10646", location)
        return code
    table_column, table_row = numbers
    if not (0 <= table_column <= 7 and 0 <= table_row <= 15):
        raise SemanticError("a Tuple is {table-column(0..7), table-row(0..15)}", location)
    return table_column * 16 + table_row


def _type_as_value(t: ast.Type) -> Optional[ast.Value]:
    """An actual parameter parsed as a type that is really a value (``NULL``, or a value
    from an object, ``zonalMatch.&id``: X.681 14.6)."""
    if isinstance(t, ast.BuiltinType) and t.name == "NULL":
        return ast.KeywordValue(t.pos, "NULL")
    if isinstance(t, ast.ReferencedType) and t.ref.fields and not t.ref.is_upper:
        return ast.ReferencedValue(t.pos, t.ref)
    return None


def _describe_value(v: ast.Value) -> str:
    if isinstance(v, ast.NumberValue):
        return str(v.value)
    if isinstance(v, ast.KeywordValue):
        return v.keyword
    if isinstance(v, ast.CStringValue):
        return f'"{v.text}"'
    if isinstance(v, ast.BStringValue):
        return f"'{v.bits}'B"
    if isinstance(v, ast.HStringValue):
        return f"'{v.digits}'H"
    if isinstance(v, ast.ReferencedValue):
        return f"'{v.ref}'"
    if isinstance(v, ast.ChoiceValue):
        return f"'{v.name}: ...'"
    if isinstance(v, ast.BlockValue):
        text = " ".join(t[1] for t in v.tokens)
        return "{" + (text if len(text) < 40 else text[:37] + "...") + "}"
    return "the value"


_READERS = {
    Kind.BOOLEAN: ValueReader.read_boolean,
    Kind.NULL: ValueReader.read_null,
    Kind.INTEGER: ValueReader.read_integer,
    Kind.REAL: ValueReader.read_real,
    Kind.ENUMERATED: ValueReader.read_enumerated,
    Kind.BIT_STRING: ValueReader.read_bit_string,
    Kind.BYTES: ValueReader.read_bytes,
    Kind.SEQUENCE: ValueReader.read_sequence,
    Kind.SET: ValueReader.read_sequence,
    Kind.SEQUENCE_OF: ValueReader.read_sequence_of,
    Kind.SET_OF: ValueReader.read_sequence_of,
    Kind.CHOICE: ValueReader.read_choice,
    Kind.OPEN: ValueReader.read_open,
}
