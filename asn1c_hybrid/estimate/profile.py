"""Profile files: how many values of each type real messages held, and their layouts.

A profile is JSON, keyed by type identifier, and carries the hash of the specification
it was counted against (`TypeGraph.spec_hash()`):

    {
      "format": "asn1c-hybrid profile",
      "version": 1,
      "spec_hash": "<sha256 hex>",
      "messages": 18,
      "types": {
        "Module.Type": {"values": 40},
        "Module.Type.list": {"values": 18, "items": 51}
      },
      "layouts": {
        "Module.PDU": {
          "messages": 18,
          "exact": [{"id": "676b241c5c52", "count": 7, "layout": "30:05(02:01 01:01)"}],
          "slot": [{"id": "4da5141d7291", "count": 12, "layout": "30:*(02:* 01:01)"}]
        }
      }
    }

`values` counts the values decoded under that identifier; `items` (SEQUENCE OF and
SET OF only) the elements of those values.  Types with no values may be left out.
Names without a module (descriptors shared by anonymous primitive types, such as
"IA5String") are kept but are no types of the graph: the estimate leaves them out.

`layouts` (BER traces only) holds, per PDU type, the most frequent layouts of its
messages in both forms of `asn1c_hybrid/layouts.py`: `count` messages of the `messages` had
that layout.  It is optional: a profile without it (an older one, a PER trace's, the
runtime's counters) has no layouts.

Profiles of several runs of the same specification merge by summing every count (layouts
by their text).  The same file is written by trace replay (`asn1c-hybrid profile`).  The
runtime's `asn1h_profile_write` (an application built with ASN1H_PROFILE) prints the
counters as ``{"spec_hash": ..., "counters": {"Module.Type": [values, items]}}``,
optionally with "messages"; that form is read as well.  Without a message count (0),
frequencies are the run's totals: the knapsack's choice is the same, only the savings'
scale differs.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Iterable, Sequence, Union

from ..errors import ProfileError
from ..layouts import FORMS, LIMIT, Layout, LayoutError, layout_id, learn, parse
from ..typegraph import Kind, TypeGraph
from .estimate import Estimate
from .static import list_items

FORMAT = "asn1c-hybrid profile"
VERSION = 1


@dataclass
class TypeCounts:
    values: int = 0
    items: int = 0


@dataclass
class PduLayouts:
    """The layouts learnt from `messages` PDUs of one type, per form, most frequent first."""
    messages: int = 0
    forms: dict[str, list[Layout]] = field(default_factory=lambda: {f: [] for f in FORMS})


@dataclass
class Profile:
    spec_hash: str
    messages: int = 0
    counts: dict[str, TypeCounts] = field(default_factory=dict)
    origin: str = ""                      # the file it was read from, for messages
    layouts: dict[str, PduLayouts] = field(default_factory=dict)

    # ---- reading and writing ----------------------------------------------------------

    @classmethod
    def from_json(cls, data: object, origin: str = "profile") -> "Profile":
        def bad(why: str) -> ProfileError:
            return ProfileError(f"{origin}: not an asn1c-hybrid profile: {why}")

        if not isinstance(data, dict):
            raise bad("the top level is not a JSON object")
        if "counters" in data and "format" not in data:
            data = cls._from_runtime_form(data, bad)
        if data.get("format") != FORMAT:
            raise bad(f'"format" is not "{FORMAT}"')
        if data.get("version") != VERSION:
            raise bad(f'version {data.get("version")!r} is not supported (this compiler '
                      f"reads version {VERSION})")
        spec_hash = data.get("spec_hash")
        if not isinstance(spec_hash, str) or not spec_hash:
            raise bad('"spec_hash" is missing')
        messages = data.get("messages")
        if not _is_count(messages):
            raise bad('"messages" is not a non-negative integer')
        types = data.get("types")
        if not isinstance(types, dict):
            raise bad('"types" is not an object')
        counts: dict[str, TypeCounts] = {}
        for type_id, entry in types.items():
            if not isinstance(entry, dict) or set(entry) - {"values", "items"}:
                raise bad(f'the entry of "{type_id}" is not {{"values": n[, "items": n]}}')
            values, items = entry.get("values", 0), entry.get("items", 0)
            if not (_is_count(values) and _is_count(items)):
                raise bad(f'the counts of "{type_id}" are not non-negative integers')
            counts[type_id] = TypeCounts(values, items)
        layouts = _layouts_from_json(data.get("layouts", {}), bad)
        return cls(spec_hash, messages, counts, origin, layouts)

    @staticmethod
    def _from_runtime_form(data: dict, bad) -> dict:
        """The runtime's own form, {"spec_hash", ["messages",] "counters": {id: [values,
        items]}}, as the file form."""
        counters = data["counters"]
        if not isinstance(counters, dict):
            raise bad('"counters" is not an object')
        types = {}
        for type_id, pair in counters.items():
            if not (isinstance(pair, list) and len(pair) == 2):
                raise bad(f'the counters of "{type_id}" are not [values, items]')
            types[type_id] = {"values": pair[0], "items": pair[1]}
        return {"format": FORMAT, "version": VERSION, "spec_hash": data.get("spec_hash"),
                "messages": data.get("messages", 0), "types": types}

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "Profile":
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except json.JSONDecodeError as exc:
            raise ProfileError(f"{os.fspath(path)}:{exc.lineno}:{exc.colno}: "
                               f"not valid JSON: {exc.msg}") from None
        except UnicodeDecodeError:
            raise ProfileError(f"{os.fspath(path)}: not a text file") from None
        return cls.from_json(data, os.fspath(path))

    def to_json(self) -> dict:
        types = {}
        for type_id in sorted(self.counts):
            c = self.counts[type_id]
            if c.values or c.items:
                types[type_id] = {"values": c.values, **({"items": c.items} if c.items else {})}
        layouts = {}
        for pdu in sorted(self.layouts):
            learnt = self.layouts[pdu]
            layouts[pdu] = {"messages": learnt.messages, **{
                form: [{"id": l.id, "count": l.count, "layout": l.text}
                       for l in learnt.forms[form]] for form in FORMS}}
        return {"format": FORMAT, "version": VERSION, "spec_hash": self.spec_hash,
                "messages": self.messages, "types": types,
                **({"layouts": layouts} if layouts else {})}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=False) + "\n"

    def save(self, path: Union[str, os.PathLike]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.dumps())

    # ---- combining and checking -------------------------------------------------------

    @classmethod
    def merge(cls, profiles: Iterable["Profile"]) -> "Profile":
        """The sum of several runs' counts; all must be of the same specification."""
        profiles = list(profiles)
        if not profiles:
            raise ProfileError("no profile to merge")
        first = profiles[0]
        merged = cls(first.spec_hash, 0, {}, first.origin)
        for p in profiles:
            if p.spec_hash != first.spec_hash:
                raise ProfileError(
                    f"{p.origin or 'profile'} and {first.origin or 'profile'} were made from "
                    f"different specifications (spec hashes {p.spec_hash[:12]}... and "
                    f"{first.spec_hash[:12]}...): they cannot be merged")
            merged.messages += p.messages
            for type_id, c in p.counts.items():
                total = merged.counts.setdefault(type_id, TypeCounts())
                total.values += c.values
                total.items += c.items
        for pdu in sorted({pdu for p in profiles for pdu in p.layouts}):
            merged.layouts[pdu] = _merge_layouts([p.layouts[pdu] for p in profiles
                                                  if pdu in p.layouts])
        return merged

    def check(self, graph: TypeGraph) -> None:
        """Refuses a profile of another specification, or one naming unknown types."""
        spec_hash = graph.spec_hash()
        if self.spec_hash != spec_hash:
            raise ProfileError(
                f"{self.origin or 'profile'} was made from another specification (spec hash "
                f"{self.spec_hash[:12]}..., this one is {spec_hash[:12]}...): make it again "
                f"with `asn1c-hybrid profile` on these files")
        unknown = sorted(t for t in self.counts if t not in graph.nodes and _is_node_id(t))
        if unknown:
            raise ProfileError(f"{self.origin or 'profile'}: type {unknown[0]} is not in "
                               f"the specification")
        for type_id, c in self.counts.items():
            if c.items and type_id in graph.nodes and graph[type_id].kind not in (Kind.SEQUENCE_OF, Kind.SET_OF):
                raise ProfileError(f"{self.origin or 'profile'}: type {type_id} has "
                                   f'"items" but is not a SEQUENCE OF or SET OF')

    # ---- as a frequency source --------------------------------------------------------

    def frequencies(self) -> dict[str, float]:
        """Values per message, per type identifier (types never seen are left out)."""
        messages = max(self.messages, 1)
        return {t: c.values / messages for t, c in sorted(self.counts.items())}

    def estimate(self, graph: TypeGraph) -> Estimate:
        """The profile as the selection's input, after `check`.

        Elements per list value are summed over a list's aliases, since they share its
        routines; a list never seen keeps the static estimator's length."""
        self.check(graph)
        frequencies = {node.id: 0.0 for node in graph}
        frequencies.update((t, f) for t, f in self.frequencies().items() if t in graph.nodes)
        values: dict[str, int] = {}
        items: dict[str, int] = {}
        for type_id, c in self.counts.items():
            if type_id not in graph.nodes:
                continue
            owner = graph.target(type_id).id
            values[owner] = values.get(owner, 0) + c.values
            items[owner] = items.get(owner, 0) + c.items
        per_value = {}
        for node in graph:
            if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF) and node.alias_of is None:
                seen = values.get(node.id, 0)
                per_value[node.id] = items[node.id] / seen if seen else list_items(node)
        return Estimate(frequencies, per_value, "profile")


def learn_layouts(pdus: Sequence[bytes], names: Sequence[str]) -> PduLayouts:
    """The layouts of BER `pdus` in every form; `names` says where each came from."""
    trees = []
    for pdu, name in zip(pdus, names):
        try:
            trees.append(parse(pdu))
        except LayoutError as exc:
            raise ProfileError(f"{name}: {exc}") from None
    return PduLayouts(len(trees), {form: learn(trees, form) for form in FORMS})


def _layouts_from_json(data: object, bad) -> dict[str, PduLayouts]:
    if not isinstance(data, dict):
        raise bad('"layouts" is not an object')
    layouts = {}
    for pdu, entry in data.items():
        if not (isinstance(entry, dict) and _is_count(entry.get("messages"))
                and set(entry) <= {"messages", *FORMS}):
            raise bad(f'the layouts of "{pdu}" are not {{"messages": n, "exact": [...], '
                      f'"slot": [...]}}')
        learnt = PduLayouts(entry["messages"])
        for form in FORMS:
            rows = entry.get(form, [])
            if not isinstance(rows, list):
                raise bad(f'the {form} layouts of "{pdu}" are not a list')
            for row in rows:
                if not (isinstance(row, dict) and set(row) == {"id", "count", "layout"}
                        and _is_count(row["count"]) and isinstance(row["layout"], str)):
                    raise bad(f'a {form} layout of "{pdu}" is not {{"id", "count", "layout"}}')
                if row["id"] != layout_id(row["layout"]):
                    raise bad(f'layout {row["id"]!r} of "{pdu}" does not have the id of its '
                              f"text ({layout_id(row['layout'])})")
                learnt.forms[form].append(Layout(form, row["layout"], row["count"]))
        layouts[pdu] = learnt
    return layouts


def _merge_layouts(runs: list[PduLayouts]) -> PduLayouts:
    """Counts summed by layout text; the most frequent LIMIT kept per form."""
    merged = PduLayouts(sum(r.messages for r in runs))
    for form in FORMS:
        counts: dict[str, int] = {}
        for run in runs:
            for l in run.forms[form]:
                counts[l.text] = counts.get(l.text, 0) + l.count
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:LIMIT]
        merged.forms[form] = [Layout(form, text, n) for text, n in ranked]
    return merged


def _is_node_id(name: str) -> bool:
    """Node identifiers are `Module.Type...`; the runtime also counts under descriptors
    that anonymous primitive types share, named after their built-in type ("IA5String"),
    which are not types of the graph and are left out of the estimate."""
    return "." in name


def _is_count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0
