"""Subtype constraints (X.680, X.682): effective ranges, sizes and alphabets.

A constraint is evaluated into a `Projection`: for each thing that can choose a C type or
be checked cheaply (the integer or real values, the sizes, the permitted characters, the
explicit values of other types), the set it allows, or None for "unconstrained".  Unions,
intersections and exclusions act on each projection separately, which over-approximates
mixed forms such as ``("ABCD" | SIZE(4))`` soundly: nothing a value may be is ever left
out.  Serially applied constraints intersect, and MIN / MAX mean the bounds of the parent
type, which is why evaluation carries the parent's projection.

The extension marker is kept: the root is what PER calls effective, but a BER decoder may
meet any value of an extensible type, so `Range.extensible` tells the C type chooser.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from ..typegraph import INT64_MAX, Constraints, Kind, Node, Range, universal
from . import ast
from .builtins import CHARACTER_STRING_TYPES, STRING_ALPHABETS, STRING_LIMITS, TIME_TYPES
from .resolve import OBJECT_SET
from .scope import Poisoned, Scope, SemanticError, Unresolved

_MAX_ALPHABET = 1 << 16


class IntervalSet:
    """A set of numbers as sorted, disjoint, inclusive intervals; None bounds are -inf/+inf."""
    __slots__ = ("ranges",)

    def __init__(self, ranges=()):
        self.ranges = _normalize(list(ranges))

    @classmethod
    def full(cls) -> "IntervalSet":
        return cls([(None, None)])

    @classmethod
    def point(cls, value) -> "IntervalSet":
        return cls([(value, value)])

    def union(self, other: "IntervalSet") -> "IntervalSet":
        return IntervalSet(self.ranges + other.ranges)

    def intersect(self, other: "IntervalSet") -> "IntervalSet":
        result = []
        for lo1, hi1 in self.ranges:
            for lo2, hi2 in other.ranges:
                lo = _max_lo(lo1, lo2)
                hi = _min_hi(hi1, hi2)
                if lo is None or hi is None or lo <= hi:
                    result.append((lo, hi))
        return IntervalSet(result)

    def difference(self, other: "IntervalSet") -> "IntervalSet":
        result = self.ranges
        for lo2, hi2 in other.ranges:
            pieces = []
            for lo1, hi1 in result:
                if hi2 is not None and lo1 is not None and hi2 < lo1 or \
                        lo2 is not None and hi1 is not None and lo2 > hi1:
                    pieces.append((lo1, hi1))
                    continue
                if lo2 is not None and (lo1 is None or lo1 < lo2):
                    pieces.append((lo1, _before(lo2)))
                if hi2 is not None and (hi1 is None or hi2 < hi1):
                    pieces.append((_after(hi2), hi1))
            result = pieces
        return IntervalSet(result)

    def contains(self, value) -> bool:
        return any((lo is None or value >= lo) and (hi is None or value <= hi)
                   for lo, hi in self.ranges)

    @property
    def empty(self) -> bool:
        return not self.ranges

    def hull(self) -> tuple:
        if not self.ranges:
            return (None, None)
        return self.ranges[0][0], self.ranges[-1][1]

    def __eq__(self, other) -> bool:
        return isinstance(other, IntervalSet) and self.ranges == other.ranges

    def __repr__(self) -> str:
        return "IntervalSet(" + ", ".join(
            f"{'MIN' if lo is None else lo}..{'MAX' if hi is None else hi}"
            for lo, hi in self.ranges) + ")"


def _before(value):
    return value - 1 if isinstance(value, int) else value


def _after(value):
    return value + 1 if isinstance(value, int) else value


def _max_lo(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def _min_hi(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def _normalize(ranges: list) -> list:
    key = lambda r: (r[0] is not None, r[0] if r[0] is not None else 0)
    ranges = [r for r in ranges if r[0] is None or r[1] is None or r[0] <= r[1]]
    ranges.sort(key=key)
    merged: list = []
    for lo, hi in ranges:
        if merged:
            last_lo, last_hi = merged[-1]
            touches = last_hi is None or lo is None or \
                lo <= (last_hi + 1 if isinstance(last_hi, int) and isinstance(lo, int) else last_hi)
            if touches:
                merged[-1] = (last_lo, None if last_hi is None or hi is None else max(last_hi, hi))
                continue
        merged.append((lo, hi))
    return merged


@dataclass(frozen=True)
class Projection:
    """What a constraint allows, seen one aspect at a time; None: unconstrained."""
    values: Optional[IntervalSet] = None      # INTEGER, REAL, and sizes inside SIZE
    sizes: Optional[IntervalSet] = None
    alphabet: Optional[frozenset] = None      # permitted characters
    singles: Optional[tuple] = None           # permitted values of other types
    # Aspects limited by an extensible inner constraint ("SIZE (1..8, ...)"): a decoder
    # may meet values outside them.
    loose: frozenset = frozenset()

    def aspects(self) -> frozenset:
        """The aspects this projection limits, named as in `loose`."""
        return frozenset(name for name in ("values", "sizes", "alphabet", "singles")
                         if getattr(self, name) is not None)

    def union(self, other: "Projection") -> "Projection":
        def join(a, b, op):
            return None if a is None or b is None else op(a, b)
        return Projection(join(self.values, other.values, IntervalSet.union),
                          join(self.sizes, other.sizes, IntervalSet.union),
                          join(self.alphabet, other.alphabet, frozenset.union),
                          join(self.singles, other.singles, _tuple_union),
                          self.loose | other.loose)

    def intersect(self, other: "Projection") -> "Projection":
        def meet(a, b, op):
            if a is None:
                return b
            if b is None:
                return a
            return op(a, b)
        return Projection(meet(self.values, other.values, IntervalSet.intersect),
                          meet(self.sizes, other.sizes, IntervalSet.intersect),
                          meet(self.alphabet, other.alphabet, frozenset.intersection),
                          meet(self.singles, other.singles, _tuple_intersection),
                          self.loose | other.loose)

    def exclude(self, other: "Projection") -> "Projection":
        values = self.values
        if other.values is not None:
            values = (values or IntervalSet.full()).difference(other.values)
        alphabet = self.alphabet
        if other.alphabet is not None and alphabet is not None:
            alphabet = alphabet - other.alphabet
        singles = self.singles
        if other.singles is not None and singles is not None:
            singles = tuple(s for s in singles if s not in other.singles)
        return Projection(values, self.sizes, alphabet, singles, self.loose | other.loose)


def _tuple_union(a: tuple, b: tuple) -> tuple:
    return a + tuple(x for x in b if x not in a)


def _tuple_intersection(a: tuple, b: tuple) -> tuple:
    return tuple(x for x in a if x in b)


@dataclass
class ConstraintTree:
    """The analysed constraint kept in `Constraints.tree`."""
    root: Projection = field(default_factory=Projection)
    extensible: bool = False
    additions: Optional[Projection] = None
    patterns: list[str] = field(default_factory=list)
    user_defined: bool = False
    table: Optional[tuple] = None             # ("object set name", permitted key values)


@dataclass(frozen=True)
class Domain:
    """What is being constrained: values of `node`, its sizes, or its characters."""
    aspect: str                               # "value", "size" or "alphabet"
    node: Node
    parent: Projection
    scope: Scope


_SIZED = (Kind.BYTES, Kind.BIT_STRING, Kind.SEQUENCE_OF, Kind.SET_OF)
_STRINGS = set(CHARACTER_STRING_TYPES) | set(TIME_TYPES)


def _is_string(node: Node) -> bool:
    return node.kind == Kind.BYTES and node.builtin in _STRINGS


def _check_size(size, location) -> None:
    """A size, or a size range's lower bound, that the runtime can count (an upper bound
    beyond int64_t reads as no bound)."""
    if isinstance(size, int) and size < 0:
        raise SemanticError(f"a size cannot be negative ({size})", location)
    if isinstance(size, int) and size > INT64_MAX:
        raise SemanticError(f"a size of {size} is more than this compiler's runtime counts "
                            f"({INT64_MAX} at most)", location)


class ConstraintReader:
    """Mixin of the analyzer: applying constraints to nodes."""

    def tree_of(self, node: Node) -> ConstraintTree:
        tree = node.constraints.tree
        return tree if isinstance(tree, ConstraintTree) else ConstraintTree()

    def value_set_of(self, node: Node) -> Optional[IntervalSet]:
        return self.tree_of(node).root.values

    def alphabet_is_strict(self, node: Node) -> bool:
        tree = self.tree_of(node)
        return not tree.extensible and "alphabet" not in tree.root.loose

    def set_table(self, node: Node, table: tuple) -> None:
        tree = replace(self.tree_of(node), table=table)
        node.constraints = replace(node.constraints, tree=tree)

    def apply_constraints(self, node: Node, constraints: list, scope: Scope,
                          frames: tuple = ()) -> None:
        """Serially apply `constraints` (as written on `node`) to its current ones."""
        target = self.target_node(node.id)
        tree = self.tree_of(node)
        current = tree.root
        extensible = tree.extensible
        additions = tree.additions
        patterns = list(tree.patterns)
        user_defined = tree.user_defined
        texts = [node.constraints.text] if node.constraints.text else []
        for constraint in constraints:
            texts.append(constraint.text)
            spec = constraint.spec
            location = scope.location(constraint.pos)
            if isinstance(spec, ast.UserDefinedConstraint):
                user_defined = True
                continue
            if isinstance(spec, ast.ContentsConstraint):
                self.contents_constraint(node, target, spec, scope, location, frames)
                continue
            if isinstance(spec, ast.TableConstraint):
                raise SemanticError("a table constraint applies to a class field type only",
                                    location)
            self.check_markers(spec, scope)
            domain = Domain("value", target, current, scope)
            try:
                root = self.evaluate_set(spec.root, domain, patterns) \
                    if spec.root is not None else Projection()
                added = self.evaluate_set(spec.additions, domain, patterns) \
                    if spec.additions is not None else None
            except Unresolved:
                continue                            # lenient mode: left unapplied
            except SemanticError as error:
                # OCTET STRING (5) for (SIZE (5)), INTEGER (SIZE (24)), a component that
                # is not there: lenient mode leaves such a constraint out.
                if error.hint:                      # already says what to do
                    raise
                if self.defect(error.message, error.location or location, rule="X.680 51",
                               fix="correct the constraint",
                               instead="the constraint is left out"):
                    continue
                raise Poisoned() from None

            self.check_within_parent(root, current, extensible, target, constraint, location)
            # The last constraint on an aspect says whether it is extensible: X.691 A.3's
            # `NameString (SIZE (1))` of a NameString of extensible size has an exact
            # size, while an alphabet constraint after it leaves the size as it was
            # (X.691 B.2.2.2: a constraint that is not PER-visible is ignored).
            loose = (current.loose - root.aspects()) | root.loose
            current = replace(current.intersect(root), loose=loose)
            extensible = spec.extensible
            additions = added
        node.constraints = self.summarize(target, ConstraintTree(
            current, extensible, additions, patterns, user_defined, tree.table),
            " ".join(texts), node.constraints)

    def summarize(self, target: Node, tree: ConstraintTree, text: str,
                  old: Constraints) -> Constraints:
        root = tree.root
        value = size = None
        alphabet = None
        if root.values is not None and target.kind in (Kind.INTEGER, Kind.REAL):
            lo, hi = root.values.hull()
            integral = all(b is None or float(b).is_integer() for b in (lo, hi))
            if target.kind == Kind.INTEGER or integral:
                value = Range(None if lo is None else int(lo), None if hi is None else int(hi),
                              tree.extensible or "values" in root.loose)
        elif root.singles is not None and target.kind == Kind.ENUMERATED:
            numbers = [target.named_numbers[s] for s in root.singles if s in target.named_numbers]
            if numbers:
                value = Range(min(numbers), max(numbers), tree.extensible)
        if root.sizes is not None:
            lo, hi = root.sizes.hull()
            size = Range(lo, hi, tree.extensible or "sizes" in root.loose)
        if root.alphabet is not None and len(root.alphabet) <= 1024:
            alphabet = "".join(sorted(root.alphabet))
        return Constraints(value=value, size=size, alphabet=alphabet, text=text, tree=tree)

    def contents_constraint(self, node: Node, target: Node, spec: ast.ContentsConstraint,
                            scope: Scope, location, frames: tuple = ()) -> None:
        if not (target.builtin == "OCTET STRING" or target.kind == Kind.BIT_STRING):
            raise SemanticError(f"CONTAINING applies to OCTET STRING and BIT STRING, not "
                                f"{target.builtin}", location)
        if spec.type is not None:
            node.contained = self.build_type(spec.type, scope, f"{node.id}.contained", frames)
        if spec.encoded_by is not None:
            self.value(spec.encoded_by, self.oid_node(), scope)

    def check_within_parent(self, root: Projection, parent: Projection, parent_extensible: bool,
                            target: Node, constraint: ast.Constraint, location) -> None:
        """A serially applied constraint may not allow values outside a (non-extensible)
        parent range (its values must be values of the parent type)."""
        if parent_extensible or parent.values is None or root.values is None:
            return
        outside = root.values.difference(parent.values)
        if not outside.empty and target.kind == Kind.INTEGER:
            lo, hi = outside.hull()
            bad = lo if lo is not None else hi
            plo, phi = parent.values.hull()
            shown = f"{'MIN' if plo is None else plo}..{'MAX' if phi is None else phi}"
            raise SemanticError(f"the constraint {constraint.text} allows "
                                f"{'values' if bad is None else bad} outside the parent "
                                f"type's range {shown}", location)

    # ------------------------------------------------------------ evaluation

    def evaluate_set(self, element, domain: Domain, patterns: list) -> Projection:
        if isinstance(element, ast.Union_):
            result = self.evaluate_set(element.items[0], domain, patterns)
            for item in element.items[1:]:
                result = result.union(self.evaluate_set(item, domain, patterns))
            return result
        if isinstance(element, ast.Intersection):
            result = self.evaluate_set(element.items[0], domain, patterns)
            for item in element.items[1:]:
                result = result.intersect(self.evaluate_set(item, domain, patterns))
            return result
        if isinstance(element, ast.Exclusion):
            base = self.evaluate_set(element.base, domain, patterns) \
                if element.base is not None else Projection(values=IntervalSet.full())
            return base.exclude(self.evaluate_set(element.excluded, domain, patterns))
        if isinstance(element, ast.ElementSetSpecs):
            return self.evaluate_set(element.root, domain, patterns) \
                if element.root is not None else Projection()
        return self.evaluate_element(element, domain, patterns)

    def evaluate_element(self, element, domain: Domain, patterns: list) -> Projection:
        node = domain.node
        scope = domain.scope
        location = scope.location(element.pos)
        aspect = domain.aspect
        if isinstance(element, ast.SingleValue):
            return self.single_value(element.value, domain, location)
        if isinstance(element, ast.ValueRange):
            return self.value_range(element, domain, location)
        if isinstance(element, ast.SizeElement):
            if aspect != "value" or node.kind not in _SIZED or node.builtin in \
                    ("OBJECT IDENTIFIER", "RELATIVE-OID"):
                raise SemanticError(f"a SIZE constraint is not applicable to "
                                    f"{self.aspect_name(domain)}", location)
            sizes = domain.parent.sizes
            inner, loose = self.evaluate_nested(element.constraint, Domain(
                "size", node, Projection(values=sizes), scope), patterns)
            return Projection(sizes=inner.values,
                              loose=frozenset(["sizes"]) if loose else frozenset())
        if isinstance(element, ast.AlphabetElement):
            if aspect != "value" or not _is_string(node):
                raise SemanticError(f"a permitted alphabet (FROM) is not applicable to "
                                    f"{self.aspect_name(domain)}", location)
            inner, loose = self.evaluate_nested(element.constraint, Domain(
                "alphabet", node, Projection(alphabet=domain.parent.alphabet), scope), patterns)
            return Projection(alphabet=inner.alphabet,
                              loose=frozenset(["alphabet"]) if loose else frozenset())
        if isinstance(element, ast.InnerTypeElement):
            if aspect != "value" or node.kind not in (Kind.SEQUENCE_OF, Kind.SET_OF):
                raise SemanticError(f"WITH COMPONENT is not applicable to "
                                    f"{self.aspect_name(domain)}", location)
            element_node = self.target_node(node.element.type)
            self.evaluate_nested(element.constraint, Domain(
                "value", element_node, self.tree_of(element_node).root, scope), [])
            return Projection()
        if isinstance(element, ast.InnerTypesElement):
            if aspect != "value" or node.kind not in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE):
                raise SemanticError(f"WITH COMPONENTS is not applicable to "
                                    f"{self.aspect_name(domain)}", location)
            by_name = {c.name: c for c in node.components}
            for item in element.items:
                component = by_name.get(item.name)
                if component is None:
                    raise SemanticError(f"WITH COMPONENTS names '{item.name}', which "
                                        f"{node.id} does not have", scope.location(item.pos))
                if item.constraint is not None:
                    inner = self.target_node(component.type)
                    self.evaluate_nested(item.constraint, Domain(
                        "value", inner, self.tree_of(inner).root, scope), [])
            return Projection()
        if isinstance(element, ast.PatternElement):
            if aspect != "value" or not _is_string(node):
                raise SemanticError(f"PATTERN is not applicable to {self.aspect_name(domain)}",
                                    location)
            pattern = self.value(element.value, self.string_node(), scope)
            patterns.append(pattern)
            return Projection()
        if isinstance(element, ast.SettingsElement):
            return Projection()
        if isinstance(element, ast.TypeElement):
            return self.contained_subtype(element, domain, location)
        raise SemanticError(f"unsupported constraint element {type(element).__name__}",
                            location)

    def evaluate_nested(self, constraint: ast.Constraint, domain: Domain,
                        patterns: list) -> tuple[Projection, bool]:
        """The root of a constraint inside SIZE, FROM or WITH COMPONENT(S), and whether
        it is extensible."""
        spec = constraint.spec
        if isinstance(spec, ast.UserDefinedConstraint):
            return Projection(), False              # not checked (X.682 9), as at top level
        if not isinstance(spec, ast.ElementSetSpecs):
            raise SemanticError("this constraint cannot be nested",
                                domain.scope.location(constraint.pos))
        if spec.root is None:
            return Projection(), True
        return self.evaluate_set(spec.root, domain, patterns), spec.extensible

    def aspect_name(self, domain: Domain) -> str:
        if domain.aspect == "size":
            return "a size"
        if domain.aspect == "alphabet":
            return "a permitted alphabet"
        return domain.node.builtin

    def single_value(self, v: ast.Value, domain: Domain, location) -> Projection:
        node = domain.node
        scope = domain.scope
        if domain.aspect == "size":
            size = self.value(v, self.integer_node(), scope)
            _check_size(size, location)
            return Projection(values=IntervalSet.point(size))
        if domain.aspect == "alphabet":
            text = self.value(v, node.id, scope)
            self.check_alphabet_characters(text, node, location)
            return Projection(alphabet=frozenset(text))
        if node.kind == Kind.OPEN:
            raise SemanticError("an open type cannot be constrained by a value", location)
        value = self.value(v, node.id, scope)
        if node.kind in (Kind.INTEGER, Kind.REAL):
            return Projection(values=IntervalSet.point(value))
        if isinstance(value, str) and _is_string(node):
            return Projection(sizes=IntervalSet.point(len(value)), alphabet=frozenset(value),
                              singles=(value,))
        if isinstance(value, bytes):
            return Projection(sizes=IntervalSet.point(len(value)), singles=(value,))
        if node.kind == Kind.BIT_STRING:
            return Projection(sizes=IntervalSet.point(value[1]), singles=(value,))
        if isinstance(value, list):
            return Projection(sizes=IntervalSet.point(len(value)))
        if isinstance(value, dict):
            return Projection()
        return Projection(singles=(value,))

    def value_range(self, element: ast.ValueRange, domain: Domain, location) -> Projection:
        node = domain.node
        scope = domain.scope
        aspect = domain.aspect
        if aspect == "alphabet":
            low = self.range_character(element.lower, domain, "MIN", location)
            high = self.range_character(element.upper, domain, "MAX", location)
            if element.lower_open:
                low += 1
            if element.upper_open:
                high -= 1
            if high - low > _MAX_ALPHABET:
                return Projection()
            base = STRING_ALPHABETS.get(node.builtin)
            chars = frozenset(chr(c) for c in range(low, high + 1)
                              if base is None or chr(c) in base)
            return Projection(alphabet=chars)
        if aspect == "value" and node.kind not in (Kind.INTEGER, Kind.REAL) and \
                node.builtin not in TIME_TYPES:
            raise SemanticError(f"a value range is not applicable to {node.builtin}", location)
        if aspect == "value" and node.builtin in TIME_TYPES:
            return Projection()
        # The bounds of a value range are values of the constrained type, so its named
        # numbers can be used (IEEE 1609.2: NinetyDegreeInt (min..max)).
        number_type = self.integer_node() if aspect == "size" else node.id
        parent = domain.parent.values
        parent_lo, parent_hi = parent.hull() if parent is not None else (None, None)
        if aspect == "size" and parent_lo is None:
            parent_lo = 0

        def bound(endpoint, default):
            if endpoint == "MIN" or endpoint == "MAX":
                return default
            return self.value(endpoint, number_type, scope)

        low = bound(element.lower, parent_lo)
        high = bound(element.upper, parent_hi)
        if element.lower_open and low is not None:
            low = low + 1 if isinstance(low, int) else low
        if element.upper_open and high is not None:
            high = high - 1 if isinstance(high, int) else high
        if aspect == "size" and low is not None:
            _check_size(low, location)
        if low is not None and high is not None and low > high:
            what = "size range" if aspect == "size" else "value range"
            raise SemanticError(f"this {what} is empty: no value lies between its bounds "
                                f"(the smallest allowed would be {low}, the largest {high})",
                                location)
        return Projection(values=IntervalSet([(low, high)]))

    def range_character(self, endpoint, domain: Domain, which: str, location) -> int:
        node = domain.node
        if endpoint in ("MIN", "MAX"):
            base = STRING_ALPHABETS.get(node.builtin)
            if base is not None:
                return ord(min(base) if which == "MIN" else max(base))
            return 0 if which == "MIN" else STRING_LIMITS.get(node.builtin, 0x10FFFF)
        text = self.value(endpoint, node.id, domain.scope)
        if not isinstance(text, str) or len(text) != 1:
            raise SemanticError("a character range needs single characters", location)
        self.check_alphabet_characters(text, node, location)
        return ord(text)

    def check_alphabet_characters(self, text, node: Node, location) -> None:
        if not isinstance(text, str):
            raise SemanticError("a permitted alphabet is made of character strings", location)
        base = STRING_ALPHABETS.get(node.builtin)
        limit = STRING_LIMITS.get(node.builtin)
        for char in text:
            if (base is not None and char not in base) or (limit is not None and ord(char) > limit):
                raise SemanticError(f"{char!r} is not a character of {node.builtin}", location)

    def contained_subtype(self, element: ast.TypeElement, domain: Domain, location) -> Projection:
        """A type or value set reference used as a constraint: the values it allows."""
        scope = domain.scope
        t = element.type
        ref = t.ref if isinstance(t, ast.ReferencedType) else None
        if ref is not None and ref.fields:
            base = ast.Reference(ref.name, ref.pos, ref.module, ref.args, ())
            target = self.lookup(base, scope)
            if self.category(target) == OBJECT_SET:
                return self.values_from_objects(target, base, ref.fields, domain, location)
        type_id = self.build_type(t, scope, self.scratch_place("subtype"))
        source = self.target_node(type_id)
        node = domain.node
        if domain.aspect == "value":
            if node.kind == Kind.OPEN:
                # X.680 51.6, a type constraint (H.235's TYPE-IDENTIFIER.&Type(KeySigned...)):
                # the value is kept as its encoding, like any open type, and not checked.
                return Projection()
            if source.kind != node.kind:
                raise SemanticError(f"{source.builtin} cannot constrain {node.builtin}",
                                    location)
            return self.tree_of(self.node(type_id)).root
        if domain.aspect == "size":
            return Projection(values=self.tree_of(self.node(type_id)).root.values)
        return Projection(alphabet=self.tree_of(self.node(type_id)).root.alphabet)

    def values_from_objects(self, target, base, fields, domain: Domain, location) -> Projection:
        """``ObjectSet.&field`` as a value set (X.681, information from objects)."""
        objects = self.object_set_of_target(target, base, domain.scope)
        values = []
        for obj in objects.objects:
            value = self.object_value_or_none(obj, fields[-1])
            if value is not None:
                values.append(value)
        if domain.node.kind in (Kind.INTEGER, Kind.REAL):
            result = IntervalSet()
            for value in values:
                result = result.union(IntervalSet.point(value))
            return Projection(values=result)
        return Projection(singles=tuple(values))

    def string_node(self) -> str:
        if "#UTF8String" not in self.scratch:
            self.scratch["#UTF8String"] = Node(id="#UTF8String", kind=Kind.BYTES,
                                               builtin="UTF8String", tags=(universal(12),))
        return "#UTF8String"
