"""Types -> type graph nodes (the IR conventions of typegraph.py).

`build_type(t, scope, place)` returns the node id of the type `t` written at `place`:
  * a reference to a named type is that type's node (no new node), unless it is tagged or
    constrained there, in which case a node at `place` aliases (or, when the constraint
    changes an INTEGER's storage, copies) the referenced one;
  * any type written inline gets a node at `place` ("Module.Type", "Module.Type.comp",
    "Module.Type.comp.*" for a SEQUENCE OF element);
  * an instance of a parameterized type is built at `place`, its body read in a scope
    where the dummy references are bound to the actual parameters.

Tags are computed before a node is registered, so that a recursive reference to a node
still being built sees its final tags: pending tags travel down as `tagging`, outermost
first, and are applied to the innermost type's own tags.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from ..typegraph import (INT64_MAX, INT64_MIN, MAX_TAG_NUMBER, UNIVERSAL_TAGS, Component, Kind,
                         Node, OpenTypeRule, Tag, TagClass, universal)
from . import ast
from .builtins import ASSOCIATED_TYPES, BUILTIN_FILE, KINDS
from .resolve import CLASS, OBJECT, TYPE, VALUE_SET, article, plain_reference
from .scope import (Binding, Definition, Poisoned, Scope, SemanticError, Unbound,
                    Unresolved)
from .tagging import TAG_CLASSES, apply_tag, tagging_is_explicit

# A pending tag: (tag, "IMPLICIT"/"EXPLICIT"/None, position, scope it was written in).
Tagging = tuple[tuple[Tag, Optional[str], ast.Pos, Scope], ...]


@dataclass(frozen=True, eq=False)
class Frame:
    """An enclosing SEQUENCE, SET or CHOICE as written, for "@" component references."""
    items: tuple
    scope: Scope


class TypeBuilder:
    """Mixin of the analyzer: everything that creates nodes."""

    # ------------------------------------------------------------- registry

    def node(self, node_id: str) -> Node:
        found = self.graph.nodes.get(node_id)
        if found is None:
            found = self.scratch[node_id]
        return found

    def target_node(self, node_id: str) -> Node:
        node = self.node(node_id)
        while node.alias_of is not None:
            node = self.node(node.alias_of)
        return node

    def register(self, node: Node) -> Node:
        store = self.scratch if node.id.startswith("#") else self.graph.nodes
        if node.location is None or node.location.file == BUILTIN_FILE:
            # A type from a built-in definition (EXTERNAL's components, TYPE-IDENTIFIER's
            # &id, ...) is located where the specification uses it.
            used_at = self.current_location()
            if used_at is not None and used_at.file != BUILTIN_FILE:
                node.location = used_at
        if node.id in store:
            raise SemanticError(f"the name {node.id} is used twice", node.location)
        store[node.id] = node
        return node

    def scratch_place(self, hint: str) -> str:
        self.scratch_counter += 1
        return f"#{self.scratch_counter}.{hint}"

    # ----------------------------------------------------------- named types

    def named_type(self, target: Definition) -> str:
        """The node of a (non-parameterized) type or value set assignment, built on first use."""
        key = id(target.assignment)
        state = self.named.get(key)
        if state is not None:
            if state is _FAILED:
                raise Poisoned()
            return state
        place = target.qualified
        self.named[key] = place
        self.building.add(place)
        scope = Scope(target.module)
        try:
            with self.reporting_at(scope.location(target.assignment.pos)):
                assignment = target.assignment
                if isinstance(assignment, ast.SetAssignment):
                    built = self.build_value_set_type(assignment, scope, place)
                else:
                    built = self.build_type(assignment.type, scope, place)
                if built != place:
                    self.alias_node(built, place, (), None, scope)
                self.node(place).location = scope.location(assignment.pos)
        except SemanticError as error:
            self.named[key] = _FAILED
            self.report(error)
            raise Poisoned() from None
        except Poisoned:
            self.named[key] = _FAILED
            raise
        except Unresolved:
            self.stand_in(place, (), scope.location(target.assignment.pos))
        finally:
            self.building.discard(place)
        return place

    def build_value_set_type(self, assignment: ast.SetAssignment, scope: Scope,
                             place: str) -> str:
        """``Name Type ::= { ... }`` is the governor constrained by the element set."""
        specs = assignment.elements
        constraint = ast.Constraint(specs, specs.pos, "{...}")
        return self.build_type(ast.ConstrainedType(assignment.pos, assignment.type, [constraint]),
                               scope, place)

    # ------------------------------------------------------------ any type

    def build_type(self, t: ast.Type, scope: Scope, place: str, frames: tuple = (),
                   tagging: Tagging = ()) -> str:
        if isinstance(t, ast.TaggedType):
            tag = Tag(TAG_CLASSES[t.tag_class], self.tag_number(t, scope))
            if t.tag_class == "UNIVERSAL" and not scope.module.builtin:
                self.warning("UNIVERSAL tags are reserved for ASN.1 itself",
                             scope.location(t.pos))
            return self.build_type(t.type, scope, place, frames,
                                   tagging + ((tag, t.mode, t.pos, scope),))
        if isinstance(t, ast.ConstrainedType):
            inner = t.type
            if isinstance(inner, ast.ReferencedType):
                if inner.ref.fields:
                    return self.build_field_type(inner.ref, scope, place, frames, tagging,
                                                 t.constraints)
                return self.build_reference(inner.ref, scope, place, frames, tagging,
                                            t.constraints)
            built = self.build_type(inner, scope, place, frames, tagging)
            return self.constrain(built, place, t.constraints, scope, frames)
        if isinstance(t, ast.ReferencedType):
            if t.ref.fields:
                return self.build_field_type(t.ref, scope, place, frames, tagging, [])
            return self.build_reference(t.ref, scope, place, frames, tagging, [])
        return self.build_fresh(t, scope, place, frames, tagging)

    def tag_number(self, t: ast.TaggedType, scope: Scope) -> int:
        if isinstance(t.number, int):
            value = t.number
        else:
            value = self.value(ast.ReferencedValue(t.pos, t.number), self.integer_node(), scope)
        if not isinstance(value, int) or value < 0:
            raise SemanticError(f"a tag number must be a non-negative INTEGER, not {value!r}",
                                scope.location(t.pos))
        if value > MAX_TAG_NUMBER:
            raise SemanticError(f"tag number {value} is above {MAX_TAG_NUMBER}, the largest "
                                "this compiler's runtime keeps (30 bits)", scope.location(t.pos))
        return value

    def apply_tagging(self, kind: Kind, tags: tuple[Tag, ...], tagging: Tagging,
                      inner_is_dummy: bool = False) -> tuple[Tag, ...]:
        """Apply pending tags, innermost first (X.680 31.2)."""
        for tag, mode, pos, scope in reversed(tagging):
            untagged_without_tlv = not tags and not kind.has_own_tlv
            if mode == "IMPLICIT" and (untagged_without_tlv or inner_is_dummy):
                what = ("a dummy reference" if inner_is_dummy else
                        "an untagged CHOICE" if kind == Kind.CHOICE else "an open type")
                message = f"IMPLICIT cannot tag {what}: its tag is not known"
                if inner_is_dummy:
                    raise SemanticError(message, scope.location(pos),
                                        " (X.680 31.2.9); write EXPLICIT")
                # asn1c reads it as EXPLICIT too (ATN ULCS, C12.22, GOOSE, MMS).
                if not self.defect(message, scope.location(pos), rule="X.680 31.2.9",
                                   fix="write EXPLICIT", instead="read as EXPLICIT"):
                    raise Poisoned()
                mode = "EXPLICIT"
            explicit = tagging_is_explicit(mode, scope.module.tag_default, kind, tags,
                                           inner_is_dummy)
            tags = apply_tag(tag, explicit, tags)
            inner_is_dummy = False
        return tags

    # ------------------------------------------------------------ references

    def build_reference(self, ref: ast.Reference, scope: Scope, place: str, frames: tuple,
                        tagging: Tagging, constraints: list) -> str:
        try:
            target = self.lookup(ref, scope)
        except Unresolved:
            return self.stand_in(place, tagging, scope.location(ref.pos))
        if isinstance(target, Binding):
            category = self.category(target)
            if category == TYPE:
                if ref.args is not None:
                    raise SemanticError(f"'{ref.name}' is a dummy reference, not a "
                                        f"parameterized type", scope.location(ref.pos))
                actual = target.actual
                if isinstance(actual, Unbound):
                    return self.stand_in(place, tagging, scope.location(ref.pos))
                if not isinstance(actual, ast.Type):
                    raise SemanticError(f"the actual parameter for '{ref.name}' is not a type",
                                        scope.location(ref.pos))
                built = self.build_type(actual, target.scope, place)
                if tagging:
                    built = self.retag(built, place, tagging, inner_is_dummy=True)
                return self.constrain(built, place, constraints, scope, frames)
            if category == VALUE_SET:
                governor = target.param.governor
                specs = self.actual_as_element_set(target)
                built = self.build_type(governor, target.instance_scope, place, (), tagging)
                built = self.constrain(built, place, [ast.Constraint(specs, specs.pos, "{...}")],
                                       target.scope)
                return self.constrain(built, place, constraints, scope, frames)
            raise SemanticError(f"'{ref.name}' is {article(category)}, not a type",
                                scope.location(ref.pos))
        category = self.category(target)
        if category not in (TYPE, VALUE_SET):
            raise SemanticError(f"'{ref}' is {article(category)}, not a type",
                                scope.location(ref.pos))
        if target.params is None:
            if ref.args is not None:
                self.instantiate(target, ref, scope)        # reports the defect
            named = self.named_type(target)
            if not tagging and not constraints:
                return named
            return self.alias_node(named, place, tagging, constraints, scope, frames=frames)
        return self.build_instance(target, ref, scope, place, tagging, constraints, frames)

    def build_instance(self, target: Definition, ref: ast.Reference, scope: Scope,
                       place: str, tagging: Tagging, constraints: list, frames: tuple = ()) -> str:
        instance = self.instantiate(target, ref, scope)
        key = instance.key
        in_progress = self.instances_in_progress.get(key)
        if in_progress is not None:                  # a recursive parameterized type
            if not tagging and not constraints:
                return in_progress
            return self.alias_node(in_progress, place, tagging, constraints, scope, frames=frames)
        self.instances_in_progress[key] = place
        try:
            assignment = target.assignment
            with self.reporting_at(scope.location(ref.pos)):
                if isinstance(assignment, ast.SetAssignment):
                    built = self.build_value_set_type(assignment, instance, place)
                else:
                    built = self.build_type(assignment.type, instance, place, (), tagging)
                    tagging = ()
        finally:
            del self.instances_in_progress[key]
        if tagging:
            built = self.retag(built, place, tagging)
        built = self.constrain(built, place, constraints, scope, frames)
        if built == place:
            self.node(place).parameterized_from = self.describe_instance(target, ref)
        return built

    def describe_instance(self, target: Definition, ref: ast.Reference) -> str:
        return f"{target.qualified}{{{', '.join(describe_actual(a) for a in ref.args or [])}}}"

    def retag(self, built: str, place: str, tagging: Tagging, inner_is_dummy=False) -> str:
        """Tags applied to a type that is already built."""
        if built == place:
            node = self.node(place)
            node.tags = self.apply_tagging(node.kind, node.tags, tagging, inner_is_dummy)
            return place
        return self.alias_node(built, place, tagging, None, None, inner_is_dummy)

    def alias_node(self, target_id: str, place: str, tagging: Tagging,
                   constraints: Optional[list], scope: Optional[Scope],
                   inner_is_dummy: bool = False, frames: tuple = ()) -> str:
        """A node at `place` for a referenced type, retagged and/or constrained there."""
        if target_id in self.building and target_id not in self.graph.nodes \
                and target_id not in self.scratch:
            raise SemanticError(f"'{target_id}' is defined in terms of itself", None)
        target = self.node(target_id)
        tags = self.apply_tagging(target.kind, target.tags, tagging, inner_is_dummy)
        node = Node(id=place, kind=target.kind, builtin=target.builtin, tags=tags,
                    alias_of=target_id, extensible=target.extensible,
                    constraints=replace(target.constraints), location=self.current_location())
        self.register(node)
        if constraints:
            self.apply_constraints(node, constraints, scope, frames)
            self.maybe_copy_integer(node)
        return place

    def constrain(self, built: str, place: str, constraints: list, scope: Scope,
                  frames: tuple = ()) -> str:
        if not constraints:
            return built
        if built == place:
            self.apply_constraints(self.node(place), constraints, scope, frames)
            return place
        return self.alias_node(built, place, (), constraints, scope, frames=frames)

    def maybe_copy_integer(self, node: Node) -> None:
        """An INTEGER reference whose constraint changes the value range gets a node of
        its own (its C storage may differ), instead of being an alias."""
        target = self.target_node(node.alias_of)
        if target.kind != Kind.INTEGER or node.constraints.value == target.constraints.value:
            return
        node.alias_of = None
        node.named_numbers = dict(target.named_numbers)

    # ------------------------------------------------------- built-in types

    def build_fresh(self, t: ast.Type, scope: Scope, place: str, frames: tuple,
                    tagging: Tagging) -> str:
        location = scope.location(t.pos)
        if isinstance(t, ast.BuiltinType):
            if t.name in ASSOCIATED_TYPES:
                return self.build_associated(t.name, place, tagging, location)
            return self.new_node(place, KINDS[t.name], t.name, tagging, location).id
        if isinstance(t, ast.IntegerType):
            node = self.new_node(place, Kind.INTEGER, "INTEGER", tagging, location)
            node.named_numbers = self.named_numbers(t.named, scope, "INTEGER")
            return place
        if isinstance(t, ast.BitStringType):
            node = self.new_node(place, Kind.BIT_STRING, "BIT STRING", tagging, location)
            node.named_bits = self.named_numbers(t.named, scope, "BIT STRING")
            return place
        if isinstance(t, ast.EnumeratedType):
            node = self.new_node(place, Kind.ENUMERATED, "ENUMERATED", tagging, location)
            self.enumerations(node, t, scope)
            return place
        if isinstance(t, ast.StructuredType):
            node = self.new_node(place, KINDS[t.kind], t.kind, tagging, location)
            self.building.add(place)
            try:
                self.build_components(node, t, scope, frames)
            finally:
                self.building.discard(place)
            return place
        if isinstance(t, ast.CollectionType):
            node = self.new_node(place, KINDS[t.kind], t.kind, tagging, location)
            type_id, tags = self.build_member(t.element, scope, f"{place}.*", frames)
            node.element = Component(t.element_name or "", type_id, tags, location=location)
            if t.constraint is not None:
                self.apply_constraints(node, [t.constraint], scope, frames)
            return place
        if isinstance(t, ast.AnyType):
            return self.new_node(place, Kind.OPEN, "ANY", tagging, location).id
        if isinstance(t, ast.SelectionType):
            return self.build_selection(t, scope, place, tagging)
        if isinstance(t, ast.InstanceOfType):
            return self.build_instance_of(t, scope, place, tagging)
        raise AssertionError(f"unexpected type {type(t).__name__}")

    def stand_in(self, place: str, tagging: Tagging, location) -> str:
        """An open type in place of what lenient mode could not resolve (a name defined
        nowhere, a dummy given no actual parameter).  Its tags are explicit, as an open
        type's must be; tag clashes with it are only warned about (checks.py)."""
        for identifier in [i for i in self.graph.nodes
                           if i == place or i.startswith(place + ".")]:
            del self.graph.nodes[identifier]        # what was built before the failure
        tagging = tuple((tag, "EXPLICIT" if mode == "IMPLICIT" else mode, pos, scope)
                        for tag, mode, pos, scope in tagging)
        self.stand_ins.add(place)
        return self.new_node(place, Kind.OPEN, "ANY", tagging, location).id

    def new_node(self, place: str, kind: Kind, builtin: str, tagging: Tagging,
                 location, base_tags: Optional[tuple[Tag, ...]] = None) -> Node:
        if base_tags is None:
            base_tags = (universal(UNIVERSAL_TAGS[builtin]),) if kind.has_own_tlv else ()
        tags = self.apply_tagging(kind, base_tags, tagging)
        return self.register(Node(id=place, kind=kind, builtin=builtin, tags=tags,
                                  location=location))

    def build_associated(self, builtin: str, place: str, tagging: Tagging, location) -> str:
        """EXTERNAL, EMBEDDED PDV, CHARACTER STRING: their associated SEQUENCE, with the
        built-in type's universal tag."""
        module_name, type_name = ASSOCIATED_TYPES[builtin]
        module = self.builtin_modules[module_name]
        t = module.assignments[type_name].type
        node = self.new_node(place, Kind.SEQUENCE, builtin, tagging, location,
                             base_tags=(universal(UNIVERSAL_TAGS[builtin]),))
        self.build_components(node, t, Scope(module), ())
        return place

    def build_instance_of(self, t: ast.InstanceOfType, scope: Scope, place: str,
                          tagging: Tagging) -> str:
        """X.681 Annex C: SEQUENCE { type-id CLASS.&id, value [0] EXPLICIT CLASS.&Type }
        with the tag of EXTERNAL."""
        ref = t.ref
        id_ref = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ("&id",))
        type_ref = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ("&Type",))
        body = ast.StructuredType(t.pos, "SEQUENCE", [
            ast.NamedComponent("type-id", ast.ReferencedType(t.pos, id_ref), t.pos),
            ast.NamedComponent("value", ast.TaggedType(t.pos, "CONTEXT", 0, "EXPLICIT",
                                                       ast.ReferencedType(t.pos, type_ref)),
                               t.pos)])
        node = self.new_node(place, Kind.SEQUENCE, "INSTANCE OF", tagging,
                             scope.location(t.pos), base_tags=(universal(8),))
        self.build_components(node, body, scope, ())
        return place

    def build_selection(self, t: ast.SelectionType, scope: Scope, place: str,
                        tagging: Tagging) -> str:
        """``a < T``: the type of alternative a of the CHOICE T, with its tags (X.680 30)."""
        choice_id = self.build_type(t.type, scope, self.scratch_place("selection"))
        choice = self.target_node(choice_id)
        if choice.kind != Kind.CHOICE:
            raise SemanticError(f"a selection type needs a CHOICE, not {choice.builtin}",
                                scope.location(t.pos))
        for component in choice.components:
            if component.name == t.name:
                target = self.node(component.type)
                node = Node(id=place, kind=target.kind, builtin=target.builtin,
                            tags=self.apply_tagging(target.kind, component.tags, tagging),
                            alias_of=component.type, constraints=replace(target.constraints),
                            location=scope.location(t.pos))
                self.register(node)
                return place
        raise SemanticError(f"the CHOICE has no alternative '{t.name}'", scope.location(t.pos))

    # ----------------------------------------------- named numbers and enums

    def named_numbers(self, items: list[ast.NamedNumber], scope: Scope,
                      what: str) -> dict[str, int]:
        result: dict[str, int] = {}
        by_value: dict[int, str] = {}
        for item in items:
            location = scope.location(item.pos)
            if item.name is None:
                raise SemanticError(f"an extension marker is not allowed in the named "
                                    f"{'bits' if what == 'BIT STRING' else 'numbers'} of "
                                    f"{what}", location)
            if isinstance(item.value, int):
                number = item.value
            else:
                number = self.value(ast.ReferencedValue(item.pos, item.value),
                                    self.integer_node(), scope)
                if not isinstance(number, int):
                    raise SemanticError(f"'{item.value}' is not an INTEGER value", location)
            if what == "BIT STRING" and number < 0:
                raise SemanticError(f"named bit '{item.name}' must be non-negative, "
                                    f"not {number}", location)
            rule = "X.680 19" if what == "INTEGER" else "X.680 22"
            item = replace(item, name=self.unique_name(item.name, number, result, what, rule,
                                                       location))
            if number in by_value and not self.defect(
                    f"'{item.name}' and '{by_value[number]}' have the same value {number}",
                    location, rule=rule, fix="give them different values",
                    instead="both names are kept"):
                raise Poisoned()
            result[item.name] = number
            by_value[number] = item.name
        return result

    def unique_name(self, name: str, number: int, taken, what: str, rule: str,
                    location) -> str:
        """`name`; when `taken` has it already (the same identifier twice), a defect that
        lenient mode accepts by naming the second `name-number`."""
        if name not in taken:
            return name
        if not self.defect(f"'{name}' is named twice in {what}", location, rule=rule,
                           fix="rename one of them",
                           instead=f"the second is named '{name}-{number}'"):
            raise Poisoned()
        return f"{name}-{number}"

    def enumerations(self, node: Node, t: ast.EnumeratedType, scope: Scope) -> None:
        """X.680 20: numbers of the root, then of the extension additions."""
        root: list[ast.NamedNumber] = []
        additions: list[ast.NamedNumber] = []
        markers = 0
        for item in t.items:
            if item.name is None:
                markers += 1
                if markers > 1:
                    raise SemanticError("ENUMERATED has only one extension marker",
                                        scope.location(item.pos))
                continue
            (additions if markers else root).append(item)
        values: dict[str, int] = {}
        used: dict[int, str] = {}

        def number_of(item) -> Optional[int]:
            if item.value is None:
                return None
            if isinstance(item.value, int):
                return item.value
            number = self.value(ast.ReferencedValue(item.pos, item.value), self.integer_node(),
                                scope)
            if not isinstance(number, int):
                raise SemanticError(f"'{item.value}' is not an INTEGER value",
                                    scope.location(item.pos))
            return number

        def add(item, number):
            location = scope.location(item.pos)
            if not INT64_MIN <= number <= INT64_MAX:
                raise SemanticError(f"'{item.name}({number})': this compiler's runtime keeps "
                                    "an ENUMERATED's numbers in 64 bits", location)
            item = replace(item, name=self.unique_name(item.name, number, values,
                                                       "ENUMERATED", "X.680 20", location))
            if number in used:
                raise SemanticError(f"'{item.name}({number})' has the same value as "
                                    f"'{used[number]}'", location)
            values[item.name] = number
            used[number] = item.name
            return item.name

        for item in root:
            number = number_of(item)
            if number is not None:
                add(item, number)
        next_free = 0
        for item in root:
            if item.value is None:
                while next_free in used:
                    next_free += 1
                add(item, next_free)
        last_addition: Optional[int] = None
        addition_names: list[str] = []
        for item in additions:
            number = number_of(item)
            if number is None:
                number = 0 if last_addition is None else last_addition + 1
                while number in used:
                    number += 1
            elif last_addition is not None and number <= last_addition:
                raise SemanticError(f"extension addition '{item.name}({number})' must be "
                                    f"greater than the previous one ({last_addition})",
                                    scope.location(item.pos))
            addition_names.append(add(item, number))
            last_addition = number
        node.named_numbers = values
        extensible = markers > 0 or scope.module.extensibility_implied
        node.extensible = extensible
        node.enum_extension = addition_names if extensible else None

    # -------------------------------------------------------- components

    def build_member(self, t: ast.Type, scope: Scope, place: str,
                     frames: tuple) -> tuple[str, tuple[Tag, ...]]:
        """A component's type and its effective tags: the outermost tag written on the
        member belongs to the component, the rest to the type."""
        if isinstance(t, ast.TaggedType):
            tag = Tag(TAG_CLASSES[t.tag_class], self.tag_number(t, scope))
            tagging = ((tag, t.mode, t.pos, scope),)
            try:
                type_id = self.build_type(t.type, scope, place, frames)
            except Unresolved:                      # lenient mode: this member only
                type_id = self.stand_in(place, (), scope.location(t.pos))
            if type_id in self.stand_ins:           # explicit, as stand_in() says
                tagging = ((tag, "EXPLICIT", t.pos, scope),)
            node = self.node(type_id)
            is_dummy = self.is_untagged_dummy(t.type, scope)
            tags = self.apply_tagging(node.kind, node.tags, tagging, is_dummy)
            return type_id, tags
        try:
            type_id = self.build_type(t, scope, place, frames)
        except Unresolved:
            type_id = self.stand_in(place, (), scope.location(t.pos))
        return type_id, self.node(type_id).tags

    def is_untagged_dummy(self, t: ast.Type, scope: Scope) -> bool:
        while isinstance(t, ast.ConstrainedType):
            t = t.type
        ref = plain_reference(t)
        return (ref is not None and ref.module is None and not ref.fields
                and bool(scope.bindings) and ref.name in scope.bindings)

    def build_components(self, node: Node, t: ast.StructuredType, scope: Scope,
                         frames: tuple) -> None:
        """SEQUENCE, SET and CHOICE members: extension additions numbered, COMPONENTS OF
        expanded (X.680 25.5), automatic tags assigned (X.680 25.3)."""
        kind = t.kind
        frames = frames + (Frame(tuple(t.items), scope),)
        automatic = scope.module.tag_default == "AUTOMATIC" and not _any_tagged(t.items)
        entries: list[tuple[Component, bool]] = []       # (member, its type is a dummy)
        markers = 0
        addition = -1
        group_number = -1
        names: dict[str, ast.Pos] = {}

        def add_named(item: ast.NamedComponent, extension, group):
            location = scope.location(item.pos)
            if kind == "CHOICE" and (item.optional or item.default is not None):
                raise SemanticError("a CHOICE alternative cannot be OPTIONAL or have a "
                                    "DEFAULT", location)
            name = item.name
            if name is None:
                name = _x208_name(item.type)
                self.warning(f"component without an identifier (X.208 syntax); it is "
                             f"called '{name}'", location)
            if name in names:
                raise SemanticError(f"component '{name}' is defined twice "
                                    f"(line {names[name][0]})", location)
            names[name] = item.pos
            type_id, tags = self.build_member(item.type, scope, f"{node.id}.{name}", frames)
            component = Component(name, type_id, tags, optional=item.optional,
                                  extension=extension, group=group, location=location)
            entries.append((component, self.is_untagged_dummy(item.type, scope)))
            if item.default is not None:
                component.has_default = True
                self.pending_defaults.append((component, item.default, scope, node.id))

        for item in t.items:
            if isinstance(item, ast.ExtensionMarker):
                markers += 1
                if markers > 2:
                    raise SemanticError(f"{kind} has at most two extension markers",
                                        scope.location(item.pos))
                node.extensible = True
                if markers == 2 and kind != "CHOICE":   # the root's second part follows
                    node.extension_point = len(entries)
            elif isinstance(item, ast.ExtensionGroup):
                if markers != 1:
                    raise SemanticError("an extension addition group must follow the "
                                        "extension marker", scope.location(item.pos))
                addition += 1
                group_number += 1
                for inner in item.items:
                    if not isinstance(inner, ast.NamedComponent):
                        raise SemanticError("an extension addition group holds components "
                                            "only", scope.location(item.pos))
                    add_named(inner, addition, group_number)
            elif isinstance(item, ast.ComponentsOf):
                if kind == "CHOICE":
                    raise SemanticError("COMPONENTS OF is not allowed in a CHOICE",
                                        scope.location(item.pos))
                extension = None
                if markers == 1:
                    addition += 1
                    extension = addition
                for component in self.components_of(item, kind, scope):
                    if component.name in names:
                        raise SemanticError(f"component '{component.name}' (from COMPONENTS "
                                            f"OF) is defined twice", scope.location(item.pos))
                    names[component.name] = item.pos
                    component.extension = extension
                    entries.append((component, False))
            else:
                extension = None
                if markers == 1:
                    addition += 1
                    extension = addition
                add_named(item, extension, None)
        if scope.module.extensibility_implied:
            node.extensible = True
        if automatic:
            order = [e for e in entries if e[0].extension is None] + \
                    [e for e in entries if e[0].extension is not None]
            for number, (component, dummy) in enumerate(order):
                member_kind = self.node(component.type).kind
                explicit = dummy or (not component.tags and not member_kind.has_own_tlv)
                component.tags = apply_tag(Tag(TagClass.CONTEXT, number), explicit,
                                           component.tags)
        node.components = [entry[0] for entry in entries]

    def components_of(self, item: ast.ComponentsOf, kind: str, scope: Scope) -> list[Component]:
        """The root components of the referenced SEQUENCE (or SET), with their tags."""
        type_id = self.build_type(item.type, scope, self.scratch_place("components-of"))
        target = self.target_node(type_id)
        if target.kind != KINDS[kind]:
            raise SemanticError(f"COMPONENTS OF in a {kind} must reference a {kind} type, "
                                f"not {target.builtin}", scope.location(item.pos))
        if target.id in self.building:
            raise SemanticError(f"COMPONENTS OF {target.id} is used inside {target.id} itself",
                                scope.location(item.pos))
        copies = []
        for original in target.components:
            if original.extension is not None:
                continue
            copy = Component(original.name, original.type, original.tags,
                             optional=original.optional, default=original.default,
                             has_default=original.has_default, location=original.location)
            if original.has_default:
                self.default_copies.append((copy, original))   # the DEFAULT may be pending
            copies.append(copy)
        return copies

    # ---------------------------------------------------- class field types

    def build_field_type(self, ref: ast.Reference, scope: Scope, place: str, frames: tuple,
                         tagging: Tagging, constraints: list) -> str:
        """``CLASS.&field`` (X.681 14) and ``object.&Type`` (X.681 15)."""
        base = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ())
        location = scope.location(ref.pos)
        try:
            target = self.lookup(base, scope)
        except Unresolved:
            return self.stand_in(place, tagging, location)
        category = self.category(target)
        if category == CLASS:
            cls = self.class_info(target, base, scope)
            try:
                field_path, cls, field = self.field_path(cls, ref.fields, location)
            except SemanticError as error:          # a cut-down copy of the class
                if self.defect(error.message, location, rule="X.681 14",
                               fix="name a field of the class", instead="an open type"):
                    return self.stand_in(place, tagging, location)
                raise Poisoned() from None
            table, others = split_table_constraints(constraints)
            if field.kind in ("type", "variable-value", "variable-valueset"):
                node = self.new_node(place, Kind.OPEN, "OPEN", tagging, location)
                if table is not None:
                    self.open_type_rule(node, table, cls, field_path, scope, frames)
                return self.constrain(place, place, others, scope, frames)
            if field.kind in ("fixed-value", "fixed-valueset"):
                built = self.build_type(field.spec.governor, cls.scope, place, (), tagging)
                built = self.constrain(built, place, others, scope, frames)
                if table is not None:
                    if built != place:
                        built = self.alias_node(built, place, (), None, scope)
                    self.table_values(self.node(place), table, cls, field_path, scope)
                return built
            raise SemanticError(f"'{ref.fields[-1]}' is {article(field.kind)} field, "
                                f"not a type", location)
        if category == OBJECT:
            obj = self.object_of_target(target, base, scope)
            setting, setting_kind, _ = self.object_setting_path(obj, ref.fields, location)
            if setting_kind != "type":
                raise SemanticError(f"'{ref}' is not a type", location)
            built = self.build_type(setting.ast, setting.scope, place, (), tagging)
            return self.constrain(built, place, constraints, scope, frames)
        raise SemanticError(f"'{base}' is {article(category)}, not a class or an object; "
                            f"'{ref}' is not a type", location)

    def open_type_rule(self, node: Node, table, cls, field_path: tuple[str, ...],
                       scope: Scope, frames: tuple) -> None:
        """A table constraint on an open type: which type each key value selects."""
        object_set_block, at_list = table
        objects = self.table_object_set(object_set_block, cls, scope, node.id)
        self.set_table(node, (objects.name,))
        if not at_list:
            return                                   # no key: the type cannot be chosen
        at = at_list[0]
        try:
            levels_up, key_field = self.key_field(at, frames, scope, cls)
        except SemanticError as error:              # "@opcode" naming nothing
            if error.hint:
                raise
            if not self.defect(error.message, error.location, rule="X.682 10",
                               fix="name the key component",
                               instead="the open type is kept undecoded"):
                raise Poisoned() from None
            return
        entries: dict = {}
        for number, obj in enumerate(objects.objects, 1):
            key = self.object_value_or_none(obj, key_field)
            if key is None:
                continue
            type_id = self.object_field_type_or_none(obj, field_path, f"{node.id}.{number}")
            if type_id is None:
                continue
            entries.setdefault(freeze(key), type_id)
        node.open_type = OpenTypeRule(key_path=at.path, key_levels_up=levels_up,
                                      table=entries, object_set=objects.name,
                                      extensible=objects.extensible)

    def table_values(self, node: Node, table, cls, field_path, scope: Scope) -> None:
        """A table constraint on a fixed-type value field: the values of that field in the
        object set (kept for checking)."""
        object_set_block, _ = table
        objects = self.table_object_set(object_set_block, cls, scope, node.id)
        values = []
        for obj in objects.objects:
            value = self.object_value_or_none(obj, field_path[-1]) if len(field_path) == 1 \
                else None
            if value is not None:
                values.append(value)
        self.set_table(node, (objects.name, tuple(values), objects.extensible))

    def key_field(self, at: ast.AtNotation, frames: tuple, scope: Scope,
                  cls) -> tuple[int, str]:
        """For ``@a.b`` / ``@.a``: how many enclosing types up the key component is, and
        the class field its type is constrained by (its values are the table's keys)."""
        location = scope.location(at.pos)
        if not frames:
            raise SemanticError("a component relation constraint must be inside a "
                                "SEQUENCE, SET or CHOICE", location)
        index = 0 if at.level == 0 else len(frames) - at.level
        if index < 0:
            raise SemanticError(f"'@{'.' * at.level}{'.'.join(at.path)}' climbs out of the "
                                f"outermost type", location)
        frame = frames[index]
        items, item_scope = frame.items, frame.scope
        t = None
        for depth, name in enumerate(at.path):
            found = self.find_component_ast(items, name, item_scope)
            if found is None:
                raise SemanticError(f"'{'.'.join(at.path)}' names no component", location)
            t, item_scope = found
            if depth < len(at.path) - 1:
                inner = self.structured_ast(t, item_scope)
                if inner is None:
                    raise SemanticError(f"'{name}' has no components", location)
                items, item_scope = inner
        field_name = self.constrained_field(t, item_scope)
        if field_name is None:
            # Not X.682 (the key should be constrained by the same object set), but what a
            # specification means when that constraint was edited away: the class's
            # identifying (UNIQUE) field.
            unique = [name for name, spec in cls.fields.items() if spec.unique]
            if len(unique) != 1:
                raise SemanticError(f"component '{at.path[-1]}' is not of a class field "
                                    f"type", location)
            field_name = unique[0]
        return len(frames) - 1 - index, field_name

    def find_component_ast(self, items, name: str, scope: Scope):
        for item in items:
            if isinstance(item, ast.NamedComponent) and item.name == name:
                return item.type, scope
            if isinstance(item, ast.ExtensionGroup):
                found = self.find_component_ast(item.items, name, scope)
                if found is not None:
                    return found
            if isinstance(item, ast.ComponentsOf):
                inner = self.structured_ast(item.type, scope)
                if inner is not None:
                    found = self.find_component_ast(inner[0], name, inner[1])
                    if found is not None:
                        return found
        return None

    def structured_ast(self, t: ast.Type, scope: Scope, depth: int = 0):
        """The component list of a type as written, through tags, constraints and
        references to named types."""
        while isinstance(t, (ast.TaggedType, ast.ConstrainedType)):
            t = t.type
        if isinstance(t, ast.StructuredType):
            return t.items, scope
        if isinstance(t, ast.CollectionType):
            return self.structured_ast(t.element, scope, depth + 1)
        ref = plain_reference(t)
        if ref is not None and not ref.fields and depth < 20:
            referenced = self.referenced_type(ref, scope)
            if referenced is not None:
                return self.structured_ast(*referenced, depth + 1)
        return None

    def referenced_type(self, ref: ast.Reference, scope: Scope):
        """The type a reference names and the scope to read it in (its definition,
        instantiated if parameterized, or the actual parameter bound to it), or None."""
        target = self.lookup(ref, scope)
        if isinstance(target, Definition) and isinstance(target.assignment, ast.TypeAssignment) \
                and isinstance(target.assignment.type, ast.Type):
            inner_scope = self.instantiate(target, ref, scope) if target.params else \
                Scope(target.module)
            return target.assignment.type, inner_scope
        if isinstance(target, Binding) and isinstance(target.actual, ast.Type):
            return target.actual, target.scope
        return None

    def constrained_field(self, t: ast.Type, scope: Scope, depth: int = 0) -> Optional[str]:
        while isinstance(t, (ast.TaggedType, ast.ConstrainedType)):
            t = t.type
        ref = plain_reference(t)
        if ref is None:
            return None
        if ref.fields:
            return ref.fields[-1]
        if depth > 20:
            return None
        referenced = self.referenced_type(ref, scope)
        return None if referenced is None else self.constrained_field(*referenced, depth + 1)

    def integer_node(self) -> str:
        """A plain INTEGER, for reading numbers (tags, named numbers, bounds)."""
        if self.plain_integer is None:
            node = Node(id="#INTEGER", kind=Kind.INTEGER, builtin="INTEGER",
                        tags=(universal(2),))
            self.scratch[node.id] = node
            self.plain_integer = node.id
        return self.plain_integer


_FAILED = object()


def _any_tagged(items) -> bool:
    for item in items:
        if isinstance(item, ast.NamedComponent) and isinstance(item.type, ast.TaggedType):
            return True
        if isinstance(item, ast.ExtensionGroup) and _any_tagged(item.items):
            return True
    return False


def _x208_name(t: ast.Type) -> str:
    """A name for a component written without one (X.208): a reference's name with its
    first letter in lower case, or the built-in type's name in lower case."""
    while isinstance(t, (ast.TaggedType, ast.ConstrainedType)):
        t = t.type
    if isinstance(t, ast.ReferencedType):
        name = t.ref.name.lstrip("&")
        return name[0].lower() + name[1:]
    if isinstance(t, ast.BuiltinType):
        name = t.name
    elif isinstance(t, (ast.StructuredType, ast.CollectionType)):
        name = t.kind
    elif isinstance(t, ast.IntegerType):
        name = "INTEGER"
    elif isinstance(t, ast.BitStringType):
        name = "BIT STRING"
    elif isinstance(t, ast.EnumeratedType):
        name = "ENUMERATED"
    else:
        name = "component"
    name = name.replace(" ", "-")
    return name.lower() if name.isupper() or "-" in name else name[0].lower() + name[1:]


def split_table_constraints(constraints: list):
    """Separate the table constraint (``({OS})`` or ``({OS}{@key})``) from the others."""
    table = None
    others = []
    for constraint in constraints:
        spec = constraint.spec
        if isinstance(spec, ast.TableConstraint):
            table = (spec.object_set, spec.at)
            continue
        if (isinstance(spec, ast.ElementSetSpecs) and not spec.extensible
                and isinstance(spec.root, ast.SingleValue)
                and isinstance(spec.root.value, ast.BlockValue)):
            table = (spec.root.value, [])
            continue
        others.append(constraint)
    return table, others


def freeze(value):
    """A value usable as a dictionary key (lists and dicts become tuples)."""
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, freeze(v)) for k, v in value.items())
    if isinstance(value, tuple):
        return tuple(freeze(v) for v in value)
    return value


def describe_actual(actual) -> str:
    """A short text for an actual parameter, for `Node.parameterized_from`."""
    if isinstance(actual, (ast.ReferencedType, ast.ReferencedValue)):
        return str(actual.ref)
    if isinstance(actual, ast.BuiltinType):
        return actual.name
    if isinstance(actual, ast.BlockValue):
        return "{" + " ".join(token[1] for token in actual.tokens) + "}"
    if isinstance(actual, ast.NumberValue):
        return str(actual.value)
    if isinstance(actual, ast.CStringValue):
        return f'"{actual.text}"'
    if isinstance(actual, ast.KeywordValue):
        return actual.keyword
    if isinstance(actual, ast.IntegerType):
        return "INTEGER"
    if isinstance(actual, ast.StructuredType):
        return actual.kind + " {...}"
    if isinstance(actual, ast.CollectionType):
        return actual.kind + " ..."
    if isinstance(actual, ast.ConstrainedType):
        return describe_actual(actual.type) + " (...)"
    if isinstance(actual, ast.TaggedType):
        return "[...] " + describe_actual(actual.type)
    return type(actual).__name__
