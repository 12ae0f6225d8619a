"""Information object classes, objects and object sets (X.681), as analysis needs them.

* A class is its field specifications and, if written, its WITH SYNTAX.
* An object is the settings of its fields, each kept as notation plus the scope it was
  written in, and read when something asks for it: a value for a table key, a type for an
  open type, a set for a field of a set.  Named objects are read completely at the end, so
  that errors in them are reported even when nothing uses them.
* An object set is an ordered list of objects (duplicates removed) and an extensible flag.

Objects written in a defined syntax are matched against the class's WITH SYNTAX: literals
must appear as written; a setting runs until the next literal that may follow it, at
nesting depth 0 (docs/frontend.md, "Defined syntax").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from . import ast
from .deferred import top_level
from .generated.ASN1Lexer import ASN1Lexer as L
from .resolve import CLASS, OBJECT, OBJECT_SET, article, plain_reference
from .scope import Binding, Poisoned, Scope, SemanticError, Unbound, Unresolved

_FIELD_TOKENS = (L.TYPE_FIELD_REF, L.VALUE_FIELD_REF)
_FAILED = object()


@dataclass(eq=False)
class ClassInfo:
    name: str
    definition: ast.ClassDefinition
    scope: Scope
    fields: dict[str, ast.FieldSpec]
    field_infos: dict[str, "FieldInfo"] = field(default_factory=dict)
    field_types: dict[str, str] = field(default_factory=dict)


@dataclass(eq=False)
class FieldInfo:
    name: str
    spec: ast.FieldSpec
    kind: str            # type, fixed-value, variable-value, fixed-valueset,
    #                      variable-valueset, object, objectset
    cls: Optional[ClassInfo] = None          # of an object or object set field


@dataclass(eq=False)
class Setting:
    field: FieldInfo
    ast: Any
    scope: Scope
    cache: dict = field(default_factory=dict)


@dataclass(eq=False)
class InfoObject:
    cls: ClassInfo
    settings: dict[str, Setting]
    home: str                                # node ids of its inline types start here
    location: Any = None


@dataclass(eq=False)
class InfoObjectSet:
    objects: list[InfoObject]
    extensible: bool
    name: str


class ObjectReader:
    """Mixin of the analyzer: classes, objects and object sets."""

    # ----------------------------------------------------------------- classes

    def class_info(self, target, ref: ast.Reference, scope: Scope, depth: int = 0) -> ClassInfo:
        location = scope.location(ref.pos)
        if depth > 50:
            raise SemanticError(f"'{ref}' is defined circularly", location)
        if isinstance(target, Binding):
            actual = target.actual
            actual_ref = plain_reference(actual)
            if actual_ref is None:
                raise SemanticError(f"the actual parameter for '{ref.name}' is not a class",
                                    location)
            return self.class_info(self.lookup(actual_ref, target.scope), actual_ref,
                                   target.scope, depth + 1)
        if self.category(target) != CLASS:
            raise SemanticError(f"'{ref}' is {article(self.category(target))}, not a class",
                                location)
        instance = self.instantiate(target, ref, scope)
        key = (id(target.assignment), instance.key)
        known = self.classes.get(key)
        if known is not None:
            return known
        definition = target.assignment.type
        if isinstance(definition, ast.ClassDefinition):
            fields = {}
            for spec in definition.fields:
                if spec.name in fields:
                    raise SemanticError(f"field {spec.name} is defined twice",
                                        target.module.location(spec.pos))
                fields[spec.name] = spec
            info = ClassInfo(target.qualified, definition, instance, fields)
        else:
            alias = plain_reference(definition)
            info = self.class_info(self.lookup(alias, instance), alias, instance, depth + 1)
        self.classes[key] = info
        return info

    def field_info(self, cls: ClassInfo, name: str, location) -> FieldInfo:
        known = cls.field_infos.get(name)
        if known is not None:
            return known
        spec = cls.fields.get(name)
        if spec is None:
            raise SemanticError(f"class {cls.name} has no field {name}", location)
        info = FieldInfo(name, spec, "type")
        if spec.category != "type":
            governor = spec.governor
            ref = plain_reference(governor)
            single = spec.category == "value"
            if ref is not None and ref.name.startswith("&"):
                info.kind = "variable-value" if single else "variable-valueset"
            elif self.governs_objects(governor, cls.scope):
                info.kind = "object" if single else "objectset"
                info.cls = self.class_info(self.lookup(ref, cls.scope), ref, cls.scope)
            else:
                info.kind = "fixed-value" if single else "fixed-valueset"
        cls.field_infos[name] = info
        return info

    def field_path(self, cls: ClassInfo, fields: tuple[str, ...], location):
        """``CLASS.&a.&b``: the class that has the last field, and that field."""
        info = self.field_info(cls, fields[0], location)
        for name in fields[1:]:
            if info.kind not in ("object", "objectset"):
                raise SemanticError(f"{info.name} is not an object field", location)
            cls = info.cls
            info = self.field_info(cls, name, location)
        return tuple(fields), cls, info

    def field_type(self, cls: ClassInfo, info: FieldInfo) -> str:
        """The node of a fixed-type field's governor (not part of the graph)."""
        known = cls.field_types.get(info.name)
        if known is None:
            known = self.build_type(info.spec.governor, cls.scope,
                                    self.scratch_place(info.name[1:]))
            cls.field_types[info.name] = known
        return known

    # ----------------------------------------------------------------- objects

    def object_of_target(self, target, ref: ast.Reference, scope: Scope) -> InfoObject:
        location = scope.location(ref.pos)
        if isinstance(target, Binding):
            if self.category(target) != OBJECT:
                raise SemanticError(f"'{ref.name}' is not an object", location)
            cls = self.class_info(self.lookup(plain_reference(target.param.governor),
                                              target.instance_scope),
                                  plain_reference(target.param.governor), target.instance_scope)
            return self.object_of(target.actual, cls, target.scope, f"#object.{ref.name}")
        if self.category(target) != OBJECT:
            raise SemanticError(f"'{ref}' is not an object", location)
        instance = self.instantiate(target, ref, scope)
        assignment = target.assignment

        def analyse() -> InfoObject:
            with self.reporting_at(target.location()):
                governor = plain_reference(assignment.type)
                cls = self.class_info(self.lookup(governor, instance), governor, instance)
                home = target.qualified if target.params is None else \
                    self.scratch_place(target.name)
                return self.object_of(assignment.value, cls, instance, home)
        return self._once(self.objects, (id(assignment), instance.key), analyse)

    def object_of(self, v, cls: ClassInfo, scope: Scope, home: str) -> InfoObject:
        if isinstance(v, ast.BlockValue):
            key = (id(v), scope.key)
            known = self.objects.get(key)
            if known is _FAILED:
                raise Poisoned()
            if known is None:
                known = self.read_object(v, cls, scope, home)
                self.objects[key] = known
            return known
        ref = plain_reference(v)
        if ref is None:
            raise SemanticError(f"an object of class {cls.name} is expected",
                                scope.location(v.pos))
        if ref.fields:
            base = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ())
            owner = self.object_of_target(self.lookup(base, scope), base, scope)
            setting, kind, _ = self.object_setting_path(owner, ref.fields,
                                                        scope.location(ref.pos))
            if kind != "object":
                raise SemanticError(f"'{ref}' is not an object", scope.location(ref.pos))
            return self.setting_object(setting)
        return self.object_of_target(self.lookup(ref, scope), ref, scope)

    def read_object(self, block: ast.BlockValue, cls: ClassInfo, scope: Scope,
                    home: str) -> InfoObject:
        """An object's notation (X.681 11).  One that cannot be read (a comment without
        its "--", a list where a set is due) is left out of its sets in lenient mode."""
        try:
            return self._read_object(block, cls, scope, home)
        except SemanticError as error:
            if error.hint:                          # already says what to do
                raise
            location = error.location or scope.location(block.pos)
            if self.defect(error.message, location, rule="X.681 11", fix="correct the object",
                           instead="the object is left out"):
                raise Unresolved(error.message, location) from None
            raise Poisoned() from None

    def _read_object(self, block: ast.BlockValue, cls: ClassInfo, scope: Scope,
                     home: str) -> InfoObject:
        tokens = block.tokens
        location = scope.location(block.pos)
        if cls.definition.syntax is None or (tokens and tokens[0][0] in _FIELD_TOKENS):
            spans = self.default_syntax(tokens, scope)
        else:
            spans = {}
            position = self.match_syntax(cls.definition.syntax, tokens, 0, spans, frozenset(),
                                         cls, scope)
            if position < len(tokens):
                token = tokens[position]
                raise SemanticError(f"unexpected {token[1]!r} in an object of class "
                                    f"{cls.name}", scope.location((token[2], token[3])))
        settings = {}
        for name, span in spans.items():
            info = self.field_info(cls, name, location)
            settings[name] = Setting(info, self.setting_notation(info, span, scope), scope)
        for name, spec in cls.fields.items():
            if name not in settings and not spec.optional and spec.default is None:
                raise SemanticError(f"the object has no setting for {name} of class "
                                    f"{cls.name}", location)
        return InfoObject(cls, settings, home, location)

    def default_syntax(self, tokens, scope: Scope) -> dict[str, tuple]:
        """``{ &field setting, ... }``: a setting runs to the next field name that starts
        one (at depth 0, not after a '.'); commas between settings are optional here."""
        spans: dict[str, tuple] = {}
        depth_zero = top_level(tokens)
        starts = [i for i, t in enumerate(tokens)
                  if t[0] in _FIELD_TOKENS and depth_zero[i]
                  and (i == 0 or tokens[i - 1][0] != L.DOT)]
        if not starts or starts[0] != 0:
            token = tokens[0] if tokens else None
            raise SemanticError("a field name (&name) is expected",
                                scope.location((token[2], token[3])) if token else None)
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(tokens)
            span = tokens[start + 1:end]
            if span and span[-1][0] == L.COMMA:
                span = span[:-1]
            name = tokens[start][1]
            if name in spans:
                raise SemanticError(f"{name} is set twice",
                                    scope.location((tokens[start][2], tokens[start][3])))
            spans[name] = span
        return spans

    def match_syntax(self, items, tokens, position: int, spans: dict, follow: frozenset,
                     cls: ClassInfo, scope: Scope) -> int:
        for index, item in enumerate(items):
            rest_first, rest_nullable = _first(items[index + 1:])
            item_follow = rest_first | follow if rest_nullable else rest_first
            if isinstance(item, ast.SyntaxLiteral):
                if position < len(tokens) and tokens[position][1] == item.text:
                    position += 1
                    continue
                found = tokens[position] if position < len(tokens) else None
                where = scope.location((found[2], found[3])) if found else None
                raise SemanticError(f"expected {item.text!r} in an object of class {cls.name}"
                                    + (f", found {found[1]!r}" if found else ""), where)
            if isinstance(item, ast.SyntaxField):
                end = _setting_end(tokens, position, item_follow)
                if end == position:
                    found = tokens[position] if position < len(tokens) else None
                    where = scope.location((found[2], found[3])) if found else None
                    raise SemanticError(f"a setting for {item.name} is missing", where)
                spans[item.name] = tuple(tokens[position:end])
                position = end
                continue
            group_first, _ = _first(item.items)
            if position >= len(tokens):
                continue
            text = tokens[position][1]
            starts_with_field = isinstance(item.items[0], ast.SyntaxField)
            if text in group_first or (starts_with_field and text not in item_follow):
                position = self.match_syntax(item.items, tokens, position, spans, item_follow,
                                             cls, scope)
        return position

    def setting_notation(self, info: FieldInfo, span: tuple, scope: Scope):
        if info.kind == "type":
            return self.parse_deferred(span, "typeOnly", scope, f"the type for {info.name}")
        if info.kind in ("fixed-value", "variable-value", "object"):
            return self.parse_deferred(span, "valueOnly", scope, f"the value for {info.name}")
        if span and span[0][0] == L.LBRACE and span[-1][0] == L.RBRACE:
            return self.parse_deferred(span[1:-1], "elementSetSpecsOnly", scope,
                                       f"the set for {info.name}")
        return self.parse_deferred(span, "elementSetSpecsOnly", scope, f"the set for {info.name}")

    def setting_for(self, obj: InfoObject, name: str, location=None) -> Optional[Setting]:
        """The setting of a field, or the class's default for it, or None."""
        setting = obj.settings.get(name)
        if setting is not None:
            return setting
        info = self.field_info(obj.cls, name, location)
        if info.spec.default is None:
            return None
        key = ("default", name)
        setting = obj.settings.get(key)
        if setting is None:
            default = info.spec.default
            if info.kind in ("fixed-valueset", "variable-valueset", "objectset") and \
                    isinstance(default, ast.BlockValue):
                default = self.block_as_element_set(default, obj.cls.scope)
            setting = Setting(info, default, obj.cls.scope)
            obj.settings[key] = setting
        return setting

    def object_setting_path(self, obj: InfoObject, fields: tuple, location):
        """``object.&a.&b``: the setting of the last field, what it is ("type", "value",
        "object", "objectset" or "valueset"), and the object it belongs to."""
        for name in fields[:-1]:
            setting = self.setting_for(obj, name, location)
            if setting is None or setting.field.kind != "object":
                raise SemanticError(f"{name} is not an object field that is set", location)
            obj = self.setting_object(setting)
        setting = self.setting_for(obj, fields[-1], location)
        if setting is None:
            raise SemanticError(f"{fields[-1]} is not set in this object", location)
        kind = setting.field.kind
        simple = {"fixed-value": "value", "variable-value": "value", "type": "type",
                  "object": "object", "objectset": "objectset"}.get(kind, "valueset")
        return setting, simple, obj

    # ------------------------------------------------------- reading settings

    def _once(self, cache: dict, key, compute):
        """compute() at most once per key: its result, or a failure reported once that
        poisons the key, so that what depends on it fails quietly."""
        known = cache.get(key)
        if known is _FAILED:
            raise Poisoned()
        if isinstance(known, Unresolved):
            raise known
        if known is not None:
            return known
        try:
            result = compute()
        except Unresolved as unresolved:            # lenient mode: left out, quietly
            cache[key] = unresolved
            raise
        except SemanticError as error:
            cache[key] = _FAILED
            self.report(error)
            raise Poisoned() from None
        except Poisoned:
            cache[key] = _FAILED
            raise
        cache[key] = result
        return result

    def object_value(self, obj: InfoObject, name: str):
        setting = self.setting_for(obj, name)
        if setting is None:
            return None
        return self._once(setting.cache, "value", lambda: self.setting_value(setting, obj)) \
            if setting.field.kind in ("fixed-value", "variable-value") else None

    def setting_value(self, setting: Setting, obj: InfoObject):
        info = setting.field
        if info.kind == "fixed-value":
            type_id = self.field_type(obj.cls, info)
        else:
            governing = plain_reference(info.spec.governor).name
            type_id = self.object_field_type(obj, (governing,))
        return self.value(setting.ast, type_id, setting.scope)

    def object_value_or_none(self, obj: InfoObject, name: str):
        try:
            return self.object_value(obj, name)
        except Poisoned:
            return None

    def setting_object(self, setting: Setting, home: Optional[str] = None) -> InfoObject:
        """The object an object field is set to; an object written inline there is
        named after `home` (its owner and the field)."""
        return self._once(setting.cache, "object", lambda: self.object_of(
            setting.ast, setting.field.cls, setting.scope,
            home or self.scratch_place("object")))

    def setting_object_set(self, setting: Setting, home: str) -> InfoObjectSet:
        return self._once(setting.cache, "objectset", lambda: self.object_set_of(
            setting.ast, setting.field.cls, setting.scope, home, setting.field.name))

    def object_field_type(self, obj: InfoObject, path: tuple[str, ...],
                          fallback_home: Optional[str] = None) -> Optional[str]:
        """The node of the type an object gives to a type field (or that governs a
        variable-type value field).  Types written inside the object are named after the
        object; an object with no name of its own in the graph (one given as a parameter,
        say) uses `fallback_home` when there is one."""
        home = obj.home if fallback_home is None or not obj.home.startswith("#") \
            else fallback_home
        for name in path[:-1]:
            setting = self.setting_for(obj, name)
            if setting is None:
                return None
            home = f"{home}.{name.lstrip('&')}"
            obj = self.setting_object(setting, home)
            if not obj.home.startswith("#"):
                home = obj.home
        name = path[-1]
        setting = self.setting_for(obj, name)
        if setting is None:
            return None
        info = setting.field
        if info.kind == "variable-value":
            return self.object_field_type(obj, (plain_reference(info.spec.governor).name,),
                                          home)
        if info.kind != "type":
            return None
        place = f"{home}.{name.lstrip('&')}"
        key = "scratch-type" if place.startswith("#") else "type"
        return self._once(setting.cache, key, lambda: self.build_type(
            setting.ast, setting.scope, place))

    def object_field_type_or_none(self, obj: InfoObject, path: tuple[str, ...],
                                  fallback_home: Optional[str] = None):
        try:
            return self.object_field_type(obj, path, fallback_home)
        except Poisoned:
            return None

    # ------------------------------------------------------------- object sets

    def object_set_of_target(self, target, ref: ast.Reference, scope: Scope,
                             home: Optional[str] = None) -> InfoObjectSet:
        location = scope.location(ref.pos)
        if isinstance(target, Binding):
            if self.category(target) != OBJECT_SET:
                raise SemanticError(f"'{ref.name}' is not an object set", location)
            governor = plain_reference(target.param.governor)
            cls = self.class_info(self.lookup(governor, target.instance_scope), governor,
                                  target.instance_scope)
            specs = self.actual_as_element_set(target)
            return self.object_set_of(specs, cls, target.scope,
                                      home or self.scratch_place(ref.name), ref.name)
        if self.category(target) != OBJECT_SET:
            raise SemanticError(f"'{ref}' is {article(self.category(target))}, not an "
                                f"object set", location)
        instance = self.instantiate(target, ref, scope)
        assignment = target.assignment

        def analyse() -> InfoObjectSet:
            with self.reporting_at(target.location()):
                governor = plain_reference(assignment.type)
                cls = self.class_info(self.lookup(governor, instance), governor, instance)
                set_home = target.qualified if target.params is None else \
                    (home or self.scratch_place(target.name))
                return self.object_set_of(assignment.elements, cls, instance, set_home,
                                          target.name)
        return self._once(self.object_sets, (id(assignment), instance.key), analyse)

    def actual_as_element_set(self, binding: Binding) -> ast.ElementSetSpecs:
        """An actual parameter for a value set or object set dummy: ``{...}``, or (not
        quite X.683, but common) a bare reference to a set."""
        actual = binding.actual
        if isinstance(actual, Unbound):             # lenient mode: an empty extensible set
            return ast.ElementSetSpecs(None, True, None, actual.pos)
        if isinstance(actual, ast.BlockValue):
            return self.block_as_element_set(actual, binding.scope)
        if isinstance(actual, ast.ReferencedType):
            return ast.ElementSetSpecs(ast.TypeElement(actual, actual.pos), pos=actual.pos)
        raise SemanticError(f"the actual parameter for '{binding.param.name}' is not a set "
                            f"({{...}})", binding.scope.location(actual.pos))

    def table_object_set(self, block: ast.BlockValue, cls: ClassInfo, scope: Scope,
                         home: str) -> InfoObjectSet:
        specs = self.block_as_element_set(block, scope)
        name = " ".join(token[1] for token in block.tokens)
        return self.object_set_of(specs, cls, scope, home, name)

    def object_set_of(self, specs: ast.ElementSetSpecs, cls: ClassInfo, scope: Scope,
                      home: str, name: str) -> InfoObjectSet:
        """An object set from its notation.  It is extensible when it says so, or when a
        set it is made from is (so a dummy bound to an extensible set stays extensible)."""
        self.check_markers(specs, scope)
        state = _SetState()
        objects: list[InfoObject] = []
        if specs.root is not None:
            objects.extend(self.object_elements(specs.root, cls, scope, home, state))
        if specs.additions is not None:
            objects.extend(self.object_elements(specs.additions, cls, scope, home, state))
        unique = []
        seen = set()
        for obj in objects:
            if id(obj) not in seen:
                seen.add(id(obj))
                unique.append(obj)
        if isinstance(specs.root, ast.TypeElement) and specs.additions is None \
                and state.single_name is not None:
            name = state.single_name                 # {Set}: name it after the set itself
        return InfoObjectSet(unique, specs.extensible or state.extensible, name)

    def object_elements(self, element, cls: ClassInfo, scope: Scope, home: str,
                        counter: "_SetState") -> list[InfoObject]:
        if isinstance(element, ast.Union_):
            result = []
            for item in element.items:
                result.extend(self.object_elements(item, cls, scope, home, counter))
            return result
        if isinstance(element, ast.Intersection):
            sets = [self.object_elements(i, cls, scope, home, counter) for i in element.items]
            keep = set.intersection(*[set(map(id, s)) for s in sets])
            return [o for o in sets[0] if id(o) in keep]
        if isinstance(element, ast.Exclusion):
            if element.base is None:
                raise SemanticError("ALL EXCEPT cannot make an object set",
                                    scope.location(element.pos))
            base = self.object_elements(element.base, cls, scope, home, counter)
            drop = set(map(id, self.object_elements(element.excluded, cls, scope, home,
                                                    counter)))
            return [o for o in base if id(o) not in drop]
        if isinstance(element, ast.ElementSetSpecs):
            result = []
            for part in (element.root, element.additions):
                if part is not None:
                    result.extend(self.object_elements(part, cls, scope, home, counter))
            return result
        if isinstance(element, ast.SingleValue):
            value = element.value
            try:
                if isinstance(value, ast.BlockValue):
                    counter.count += 1
                    return [self.object_of(value, cls, scope, f"{home}.{counter.count}")]
                ref = plain_reference(value)
                if ref is not None and ref.fields:
                    return self.objects_from_object(ref, scope)
                return [self.object_of(value, cls, scope, home)]
            except Unresolved:
                return []                           # lenient mode: left out
        if isinstance(element, ast.TypeElement) and isinstance(element.type, ast.ReferencedType):
            ref = element.type.ref
            if ref.fields:
                return self.objects_from_object_set(ref, scope, home)
            try:
                referenced = self.object_set_of_target(self.lookup(ref, scope), ref, scope,
                                                       home)
            except Unresolved:
                return []                           # lenient mode: left out
            counter.extensible = counter.extensible or referenced.extensible
            counter.single_name = referenced.name
            return referenced.objects
        raise SemanticError("an object or object set is expected here",
                            scope.location(element.pos))

    def objects_from_object(self, ref: ast.Reference, scope: Scope) -> list[InfoObject]:
        """``object.&objectSetField`` (or ``.&objectField``) in an object set."""
        base = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ())
        owner = self.object_of_target(self.lookup(base, scope), base, scope)
        setting, kind, _ = self.object_setting_path(owner, ref.fields, scope.location(ref.pos))
        if kind == "object":
            return [self.setting_object(setting)]
        if kind == "objectset":
            return self.setting_object_set(setting, owner.home).objects
        raise SemanticError(f"'{ref}' is not an object or object set", scope.location(ref.pos))

    def objects_from_object_set(self, ref: ast.Reference, scope: Scope,
                                home: str) -> list[InfoObject]:
        """``ObjectSet.&field``: the objects (or object sets) of that field of every object
        in the set (X.681, information from objects)."""
        base = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ())
        target = self.lookup(base, scope)
        if self.category(target) == OBJECT:
            return self.objects_from_object(ref, scope)
        objects = self.object_set_of_target(target, base, scope, home)
        result = []
        for obj in objects.objects:
            setting = self.setting_for(obj, ref.fields[0], scope.location(ref.pos))
            if setting is None:
                continue
            if setting.field.kind == "object":
                result.append(self.setting_object(setting))
            elif setting.field.kind == "objectset":
                result.extend(self.setting_object_set(setting, obj.home).objects)
            else:
                raise SemanticError(f"{ref.fields[0]} is not an object or object set field",
                                    scope.location(ref.pos))
        return result


@dataclass
class _SetState:
    """What reading an object set's elements gathers besides the objects."""
    count: int = 0                           # inline objects so far (they are numbered)
    extensible: bool = False                 # some referenced set is extensible
    single_name: Optional[str] = None


def _first(items) -> tuple[frozenset, bool]:
    """Literals that can start `items`, and whether `items` can be empty."""
    first: set = set()
    for item in items:
        if isinstance(item, ast.SyntaxLiteral):
            first.add(item.text)
            return frozenset(first), False
        if isinstance(item, ast.SyntaxField):
            return frozenset(first), False
        inner, _ = _first(item.items)
        first |= inner
    return frozenset(first), True


def _setting_end(tokens, start: int, follow: frozenset) -> int:
    depth = 0
    for index in range(start, len(tokens)):
        token_type, text = tokens[index][0], tokens[index][1]
        if depth == 0 and index > start and text in follow:
            return index
        if token_type in (L.LBRACE, L.LPAREN, L.LBRACKET):
            depth += 1
        elif token_type in (L.RBRACE, L.RPAREN, L.RBRACKET):
            depth -= 1
    return len(tokens)
