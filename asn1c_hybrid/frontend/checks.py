"""Whole-type checks made once every node is built: distinct tags (X.680 25.3, 27.3, 29.3)
and types whose every value would be infinite (reported as a warning: X.680 does not
forbid them, but nothing of them can be encoded).

Tags of a member, for these checks, are the outermost tags it can start with: its own
first tag, or for an untagged CHOICE those of its alternatives.  An untagged open type can
start with any tag; an untagged extensible CHOICE can start with any tag *not yet known*,
which clashes only with another such "unknown" (or with an open type): a decoder meeting
an unknown tag must be able to tell which member's extension it is.
"""
from __future__ import annotations

from typing import Optional

from ..typegraph import Component, Kind, Node

ANY_TAG = "any tag"                 # an untagged open type
UNKNOWN_TAG = "unknown extension"   # an extension of an untagged extensible CHOICE


class Checks:
    """Mixin of the analyzer."""

    def leading_tags(self, component: Component) -> frozenset:
        if component.tags:
            return frozenset([component.tags[0]])
        return self._leading_tags_of(component.type, set())

    def _leading_tags_of(self, node_id: str, seen: set) -> frozenset:
        node = self.target_node(node_id)
        if node.tags:
            return frozenset([node.tags[0]])
        if node.kind == Kind.OPEN:
            return frozenset([ANY_TAG])
        if node.kind != Kind.CHOICE or node.id in seen:
            return frozenset()
        seen.add(node.id)
        result = set()
        for alternative in node.components:
            if alternative.tags:
                result.add(alternative.tags[0])
            else:
                result |= self._leading_tags_of(alternative.type, seen)
        if node.extensible:
            result.add(UNKNOWN_TAG)
        return frozenset(result)

    def check_tags(self, node: Node) -> None:
        if node.alias_of is not None:
            return
        if node.kind in (Kind.SET, Kind.CHOICE):
            members = [(c, self.leading_tags(c)) for c in node.components]
            for index, (component, tags) in enumerate(members):
                for other, other_tags in members[:index]:
                    self._report_clash(node, component, tags, other, other_tags)
        elif node.kind == Kind.SEQUENCE:
            run: list[tuple[Component, frozenset]] = []
            for component in node.components:
                tags = self.leading_tags(component)
                for other, other_tags in run:
                    # asn1c accepts such clashes when an extension addition is involved
                    # (its test 55); a BER decoder may still be misled, hence a warning.
                    addition = component.extension is not None or other.extension is not None
                    self._report_clash(node, component, tags, other, other_tags,
                                       " (they follow each other and one may be absent)",
                                       warn=addition)
                if component.present_always:
                    run = []
                else:
                    run.append((component, tags))

    def _report_clash(self, node: Node, component: Component, tags: frozenset,
                      other: Component, other_tags: frozenset, why: str = "",
                      warn: bool = False) -> None:
        clash = _clash(tags, other_tags)
        if clash is None:
            return
        if any(self.graph.target(c.type).id in self.stand_ins for c in (component, other)):
            warn = True         # lenient mode: an open type stands in for a missing type
            why += "; one is an open type standing in for what could not be resolved"
        kind = "alternative" if node.kind == Kind.CHOICE else "component"
        message = (f"in {node.builtin} {node.id}: {kind} '{component.name}' and "
                   f"'{other.name}' can have the same tag {clash}{why}")
        location = component.location or node.location
        if warn:
            self.warning(message, location)
            return
        # Wireshark's files carry a few (they are read there by PER, or by position).
        clause = {Kind.SEQUENCE: "X.680 25", Kind.SET: "X.680 27"}.get(node.kind, "X.680 29")
        self.defect(message, location, rule=clause, fix="tag them apart",
                    instead=f"a BER decoder takes the first {kind} the tag fits")

    def check_finite(self) -> None:
        """Every type must have a finite value: a SEQUENCE that always contains itself
        (through components that cannot be absent) has none."""
        finite: set[str] = set()
        nodes = list(self.graph.nodes.values())
        changed = True
        while changed:
            changed = False
            for node in nodes:
                if node.id in finite:
                    continue
                if self._is_finite(node, finite):
                    finite.add(node.id)
                    changed = True
        bad = [n for n in nodes if n.id not in finite]
        named = [n for n in bad if not n.is_anonymous]
        for node in named or bad:
            # X.680 does not forbid such a type, but no value of it can ever be encoded.
            self.warning(f"{node.id} has no finite value: every value of it contains "
                         f"another one", node.location)

    def _is_finite(self, node: Node, finite: set[str]) -> bool:
        if node.alias_of is not None:
            return node.alias_of in finite
        if node.kind in (Kind.SEQUENCE, Kind.SET):
            return all(c.type in finite for c in node.components if c.present_always)
        if node.kind == Kind.CHOICE:
            return any(c.type in finite for c in node.components) or not node.components
        return True


def _clash(a: frozenset, b: frozenset) -> Optional[str]:
    common = (a & b) - {ANY_TAG, UNKNOWN_TAG}
    if common:
        return str(min(common))
    if (ANY_TAG in a and b) or (ANY_TAG in b and a):
        return "(an open type can have any tag)"
    if UNKNOWN_TAG in a and UNKNOWN_TAG in b:
        return "(both are extensible untagged CHOICEs)"
    return None
