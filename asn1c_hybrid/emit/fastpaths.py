"""Layout fast paths (Blackwell; docs/layouts.md): straight-line decoders of a PDU's
contents for the layouts chosen for its type.

An exact layout's path compares every identifier and length octet of the layout: where
they are dense, in masked 16-octet blocks; elsewhere a run of them at a time, in one load
of 1, 2, 4 or 8 octets (constants built here).  It then stores every field of the C value
at its constant offset: strings as pointers into the input, integers loaded word-wide,
presence bits and CHOICE indexes as constants, list items into one arena block of the
known count, and zeros where the layout leaves the value empty (or one clearing of the
whole value, where it chooses a CHOICE's alternative): the paths run before
asn1h_decode's own setup, from the door it opens (asn1h_codecs.layouts), and return what
the door returns.
It has no tag dispatch, no loop and no length parsing.  The slot layouts share one
decision tree of their headers (`_SlotTree`), whose leaves store values the same way.

A fast path accepts exactly what the general decoder accepts, with the same value, or
misses: a template that does not match, or a content the general decoder might judge
otherwise (in strict DER, a BOOLEAN octet that is not 00 or FF and an INTEGER not in its
shortest form, which BER takes for the same value; an INTEGER outside its constraint, a
string outside its own) makes it give up, roll back the arena, and leave the PDU to the
general decoder, which clears the value.  A miss has no other effect.
A layout the generator cannot serve this way is refused with a reason (`refusals`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..layouts import (Layout as MessageLayout, Tlv, flatten, from_text, instantiate, render,
                       size as length_of)
from ..typegraph import Kind
from .constraints import intervals_test
from .layout import (STORAGE_RANGES, Layout, MemberLayout, TypeLayout, identifier_octet,
                     integer_storage)

# an asn1h_int's `v` takes the values of int64_t (the fast paths leave bigger ones out)
_C_RANGE = {**STORAGE_RANGES, "ASN1H_INT_BIG": (-2**63, 2**63 - 1)}
_TIMES = ("UTCTime", "GeneralizedTime", "DATE", "TIME-OF-DAY", "DATE-TIME", "DURATION",
          "TIME")
_CONSTRUCTED = (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF, Kind.SET_OF)
_UNIVERSAL_TIMES = {"UTCTime": 23, "GeneralizedTime": 24}    # the times fast paths take


class Refused(Exception):
    """The layout cannot be served by a fast path; the message says why."""


@dataclass
class Block:
    """A 16-octet compare of the template, accumulated: (b & mask) ^ want is 0 where it
    matches; for DER's BOOLEAN octets, `mask` holds their bits 1-7 and `want` is 0.  In
    octets, so that one constant serves either byte order."""
    offset: int
    mask: bytes
    want: bytes


@dataclass
class DerBlock:
    """16 contents octets that only strict DER checks, in one load (and one more, one
    octet on, for integers):
    - `booleans` holds the bits 1-7 of BOOLEAN octets: (b ^ (b << 1)) & booleans is 0 for
      00 and FF alone;
    - `ints` is FF at the first octet of an INTEGER of two octets or more: that octet
      equal to the sign of the next (00 or FF) makes the first nine bits equal, a form not
      the shortest, which BER takes for the same value.
    `boolean_row` and `int_row` number its masks in the path's constant arrays."""
    offset: int
    booleans: Optional[bytes] = None
    ints: Optional[bytes] = None
    boolean_row: int = 0
    int_row: int = 0


@dataclass
class Run:
    """Header octets next to each other (1, 2, 4 or 8), compared in one load."""
    offset: int
    octets: bytes

    @property
    def constant(self) -> str:
        """The C constant that a native load of the octets equals."""
        if len(self.octets) == 1:
            return f"0x{self.octets[0]:02x}"
        le, be = (int.from_bytes(self.octets, order) for order in ("little", "big"))
        digits = 2 * len(self.octets)
        return f"ASN1H_FP_WORD(0x{le:0{digits}x}, 0x{be:0{digits}x})"


# a 16-octet window goes as a block (a load, an AND, an XOR and an OR, and a quarter of a
# test) where it would otherwise take this many runs (a compare and a branch each)
BLOCK_RUNS = 3


@dataclass
class FastPath:
    layout: MessageLayout
    function: str                 # the C function
    length: int                   # contents octets of the PDU's TLV
    blocks: list[Block]           # the windows dense in header octets
    runs: list[Run]               # the header octets outside the blocks
    der_blocks: list[DerBlock]    # DER: BOOLEAN and INTEGER octets, in PDUs of 16 octets
                                  # or more (17 for integers)
    checks: list[str]             # C statements before any store: `return 0` on a miss
    body: list[str]               # C statements, `goto miss` on a content check
    depth: int                    # nesting levels the general decoder may count
    der_miss: bool                # strict DER mode always misses (a DER rule to check)
    allocates: bool               # lists: an arena mark to roll back to
    locals: list[str]             # C declarations of the list pointers
    template: bytes = b""         # the contents with every header octet, the rest 00
    fixed: bytes = b""            # FF where `template` holds a header octet, else 00
    encoder: Optional["EncodePath"] = None     # None: the layout has no encoding path

    @property
    def gives_up(self) -> str:
        """The test before the path's stores that leaves the message to the general
        decoder (`_gives_up`)."""
        return _gives_up(self.depth, self.der_miss)

    @property
    def consumed(self) -> int:
        """The PDU's octets, header and contents: what the path returns on a hit."""
        tlv = from_text(self.layout.text)
        return len(tlv.identifier) + len(tlv.length) + self.length

    @property
    def identifier(self) -> int:
        """The PDU's identifier octet in the layout (the door reads one octet)."""
        return from_text(self.layout.text).identifier[0]

    @property
    def der_first(self) -> bool:
        """Whether DER's checks come before the template's compares: with BOOLEANs in them,
        so that GCC does not keep the template's loads for them (measured: 36 instructions
        of spills on Blackwell's message); else after, which spares most misses their
        test of `der`."""
        return any(block.booleans for block in self.der_blocks)

    @property
    def misses_late(self) -> bool:
        """Whether a content check can give up after the template matched."""
        return any("goto miss" in line for line in self.body)


@dataclass
class EncodePath:
    """Writes a value whose shape is the layout's: after `checks` (C statements that
    `return NULL` when the value does not have that shape, or might encode otherwise),
    the template, then `writes` fill the contents (at q)."""
    function: str
    checks: list[str]
    writes: list[str]
    header: bytes = b""           # an untagged CHOICE's: its alternative's identifier and
                                  # length, before the template (others: the caller's)


@dataclass
class _Checks:
    """A node of the encoding paths' check tree: `lines` run in order (a check that
    fails leaves the node's block by `break`), then the `writers` of the paths whose
    checks all passed, then the `children`, most frequent first.  Every line is a
    statement of its own (an INTEGER's value and its tests share one), so that the tree
    may part two paths between any two of their lines."""
    lines: list[str] = field(default_factory=list)
    writers: list[str] = field(default_factory=list)
    children: list["_Checks"] = field(default_factory=list)

    def add(self, checks: list[str], writer: str) -> None:
        node, rest = self, list(checks)
        while True:
            shared = 0
            while shared < min(len(node.lines), len(rest)) and node.lines[shared] == rest[shared]:
                shared += 1
            if shared < len(node.lines):          # split the node where the path leaves it
                tail = _Checks(node.lines[shared:], node.writers, node.children)
                node.lines, node.writers, node.children = node.lines[:shared], [], [tail]
            rest = rest[shared:]
            if not rest:
                node.writers.append(writer)
                return
            child = next((c for c in node.children if c.lines and c.lines[0] == rest[0]), None)
            if child is None:
                node.children.append(_Checks(rest, [writer]))
                return
            node = child

    def emit(self, out: list[str], indent: str) -> None:
        inner = indent + "    " if self.lines else indent
        if self.lines:
            out.append(f"{indent}do {{")
            out += [inner + line.replace("return NULL;", "break;") for line in self.lines]
        for writer in self.writers:
            out += [f"{inner}if ((q = {writer}(e, p, v)) != NULL) {{",
                    f"{inner}    ASN1H_FAST_ENCODE_HIT();", f"{inner}    return q;",
                    f"{inner}}}"]
        for child in self.children:
            child.emit(out, inner)
        if self.lines:
            out.append(f"{indent}}} while (0);")


@dataclass
class FastPaths:
    """The fast paths of one PDU type, and the layouts that could not have one."""
    type: TypeLayout
    door: str                     # the decoder entry that tries them (codecs.layouts)
    identifiers: list[int]        # the identifier octets the door takes (none: no door
                                  # opens): the PDU's, or its alternatives' (a CHOICE)
    encoder: str                  # the encoder entry of the PDU's routines
    paths: list[FastPath] = field(default_factory=list)        # exact layouts
    general_encoder: str = ""     # C call when no encoding path takes the value
    slots: Optional["_SlotTree"] = None                        # slot layouts
    refusals: list[tuple[MessageLayout, str]] = field(default_factory=list)
    encode_refusals: list[tuple[MessageLayout, str]] = field(default_factory=list)

    def uses(self, helper: str) -> bool:
        """Whether a path calls `helper` (the template defines only those that are)."""
        lines = [line for path in self.paths for line in path.checks + path.body +
                 (path.encoder.checks if path.encoder else [])]
        if self.slots is not None:
            lines += self.slots.code()
        return any(helper + "(" in line for line in lines)

    @property
    def uses_blocks(self) -> bool:
        """Whether a path compares 16-octet blocks (of its template or DER's contents)."""
        return any(path.blocks or path.der_blocks for path in self.paths)

    @property
    def uses_vectors(self) -> bool:
        """Whether the generated code has 16-octet vectors: blocks, or asn1h_fp_oid's."""
        return self.uses_blocks or self.uses("asn1h_fp_oid")

    @property
    def checks_der_ints(self) -> bool:
        """Whether a path checks INTEGERs' shortest form in DER blocks (by sign)."""
        return any(block.ints for path in self.paths for block in path.der_blocks)

    @property
    def run_sizes(self) -> set[int]:
        """The sizes of the paths' run loads and of the slot tree's header loads (the
        template defines a load of each)."""
        sizes = {len(run.octets) for path in self.paths for run in path.runs}
        return sizes | (self.slots.loads if self.slots is not None else set())

    @property
    def by_length(self) -> list[tuple[int, list[FastPath]]]:
        """The exact layouts' paths grouped by contents length, the dispatch's first
        step; each group in order of frequency."""
        return _by_length(self.paths)

    @property
    def any(self) -> bool:
        return bool(self.paths or self.slots)

    def decode_dispatch(self) -> list[str]:
        """The exact layouts' dispatch (Blackwell §4.4): a switch on the contents' length,
        then within a length a decision tree on header octets that all its layouts fix,
        so that a message is compared with one template (a few where no octet parts
        them): a miss costs the switches and one compare that fails.  A path returns
        what the door returns, so that the door calls it last (a tail call, which spares
        the door a frame); with a slot tree to try after, only on a hit."""
        if not self.paths:
            return []
        if not self.choice:
            return self._length_switch(self.paths, "    ")
        # an untagged CHOICE: its paths by their alternative's identifier first
        by_identifier: dict[int, list[FastPath]] = {}
        for path in self.paths:
            by_identifier.setdefault(path.identifier, []).append(path)
        lines = ["    switch (buf[0]) {"]
        for octet, paths in sorted(by_identifier.items()):
            lines.append(f"    case 0x{octet:02x}:")
            lines += self._length_switch(paths, "        ")
            lines.append("        break;")
        return lines + ["    default:", "        break;", "    }"]

    def _length_switch(self, paths: list[FastPath], indent: str) -> list[str]:
        lines = [f"{indent}switch (n) {{"]
        for length, group in _by_length(paths):
            lines.append(f"{indent}case {length}:")
            _Dispatch.of(group).emit(lines, indent + "    ", last=self.slots is None)
            lines.append(f"{indent}    break;")
        return lines + [f"{indent}default:", f"{indent}    break;", f"{indent}}}"]

    @property
    def choice(self) -> bool:
        return _alternative_at_top(self.type)

    @property
    def door_test(self) -> str:
        """The C test of an identifier octet `buf[0]` that the door turns away."""
        ids = self.identifiers
        if len(ids) == 1:
            return f"buf[0] != 0x{ids[0]:02x}"
        if ids == list(range(ids[0], ids[-1] + 1)):
            return f"(unsigned)(buf[0] - 0x{ids[0]:02x}) > {len(ids) - 1}u"
        return "(" + " && ".join(f"buf[0] != 0x{i:02x}" for i in ids) + ")"

    @property
    def encoders(self) -> list[EncodePath]:
        """The exact layouts' encoding paths, most frequent first."""
        return [path.encoder for path in self.paths if path.encoder is not None]

    def encode_dispatch(self) -> list[str]:
        """The encoder's checks of every encoding path as one tree (`_Checks`): a check
        that paths share is made once, so a value that no path takes costs its first
        failing check on each branch, not a try of every path."""
        root = _Checks()
        for path in self.encoders:
            root.add(path.checks, path.function)
        lines: list[str] = []
        root.emit(lines, "    ")
        return lines


def _by_length(paths: list[FastPath]) -> list[tuple[int, list[FastPath]]]:
    groups: dict[int, list[FastPath]] = {}
    for path in paths:
        groups.setdefault(path.length, []).append(path)
    return sorted(groups.items())


@dataclass
class _Dispatch:
    """The exact layouts of one contents length as a decision tree (Blackwell §4.4): a
    node parts its paths by the header octet `octet` that all of them fix and that parts
    them into the most groups (the first such octet), recursively; a leaf holds the paths
    that no octet parts, most frequent first, tried in turn.  Every path still compares
    its whole template, so the tree only skips paths that would fail, and a message of no
    layout costs the tree and the template compares of one leaf."""
    paths: list[FastPath]
    octet: Optional[int] = None
    parts: dict[int, "_Dispatch"] = field(default_factory=dict)

    @classmethod
    def of(cls, paths: list[FastPath]) -> "_Dispatch":
        best, groups = None, {}
        if len(paths) > 1:
            for k in range(paths[0].length):
                if all(path.fixed[k] for path in paths):
                    parts: dict[int, list[FastPath]] = {}
                    for path in paths:
                        parts.setdefault(path.template[k], []).append(path)
                    if len(parts) > len(groups):
                        best, groups = k, parts
        if len(groups) < 2:
            return cls(paths)
        return cls(paths, best, {octet: cls.of(part) for octet, part in sorted(groups.items())})

    def route(self, contents: bytes) -> list[FastPath]:
        """The paths that the tree tries on `contents`."""
        node = self
        while node.octet is not None:
            node = node.parts.get(contents[node.octet])
            if node is None:
                return []
        return node.paths

    def emit(self, lines: list[str], indent: str, last: bool) -> None:
        """The tree's C statements; `last`: nothing to try after its paths."""
        if self.octet is None:
            calls = [f"{path.function}(p, end, v, arena, opts)" for path in self.paths]
            for k, call in enumerate(calls):
                if last and k == len(calls) - 1:
                    lines.append(f"{indent}return {call};")
                else:
                    lines += [f"{indent}if ((taken = {call}) != 0)",
                              f"{indent}    return taken;"]
            return
        lines.append(f"{indent}switch (p[{self.octet}]) {{")
        for octet, part in self.parts.items():
            lines.append(f"{indent}case 0x{octet:02x}:")
            part.emit(lines, indent + "    ", last)
            lines.append(f"{indent}    break;")
        lines += [f"{indent}default:", f"{indent}    break;", f"{indent}}}"]


@dataclass
class _Placed:
    """A TLV of the layout where the decoder finds it: its contents start at `ptr` +
    `contents` (an exact layout: offsets from the PDU's contents `p`; a slot layout: the
    variable its header was read into, offset 0), and are `size` octets long, or
    `size_var` when the layout leaves the length open."""
    tlv: Tlv
    start: int
    contents: int
    size: Optional[int]
    children: list["_Placed"]
    ptr: str = "p"
    size_var: str = ""

    def at(self, k: int) -> str:
        return f"{self.ptr}[{self.contents + k}]"

    def addr(self, k: int) -> str:
        return f"{self.ptr} + {self.contents + k}" if self.contents + k else self.ptr

    @property
    def n(self) -> str:
        return str(self.size) if self.size is not None else self.size_var


def _place(tlv: Tlv, start: int) -> _Placed:
    if tlv.length[:1] == b"\x80":
        raise Refused("an indefinite length")
    contents = start + len(tlv.identifier) + len(tlv.length)
    n = length_of(tlv.length)
    children, at = [], contents
    for child in tlv.children or ():
        placed = _place(child, at)
        children.append(placed)
        at = placed.contents + placed.size
    if tlv.children is not None and at != contents + n:
        raise Refused("lengths that do not add up")
    return _Placed(tlv, start, contents, n, children)


def _minimal(length: bytes) -> bool:
    if length[0] < 0x80:
        return True
    n = int.from_bytes(length[1:], "big")
    return n >= 0x80 and length[1] != 0


class _Builder:
    def __init__(self, layout: Layout, root: TypeLayout, prefix: str = ""):
        self.layout = layout
        self.prefix = prefix                # of its local variables
        self.graph = layout.graph
        self.root = root
        self.body: list[str] = []
        self.total: Optional[int] = None    # an exact layout's contents octets
        self.der_miss = False
        self.allocates = False
        self.lists = 0
        self.locals: list[str] = []
        self.booleans: list[int] = []       # offsets of BOOLEAN contents octets
        self.minimal_ints: dict[int, tuple[int, int]] = {}  # INTEGERs' first octets: the
                                            # body's line testing their shortest form, and
                                            # their octets
        self.depth = 0                      # nesting levels (a slot tree's leaves)
        self.zeroed = 0                     # inside zeroed memory: list items (the
                                            # arena's), a CHOICE's cleared union
        self.zero_lines: set[int] = set()   # the body's stores of zeros
        self.clears_union = False

    # ---- the walk -----------------------------------------------------------------------

    def type_of(self, node_id: str) -> TypeLayout:
        return self.layout.types[node_id]

    def root_value(self, top: _Placed) -> int:
        """The PDU's value from its TLV `top`: the contents of a SEQUENCE, SET or list, or
        the alternative of an untagged CHOICE that the TLV is; returns the nesting levels
        used."""
        if _alternative_at_top(self.root):
            return self.value(self.root.node.id, top, "(*v)", 0)
        return self.constructed(self.root, top, "(*v)", 1)

    def constructed(self, t: TypeLayout, placed: _Placed, lv: str, depth: int) -> int:
        """The contents of a SEQUENCE, SET, SEQUENCE OF or SET OF; returns the nesting
        levels used."""
        kind = self.graph.target(t.node.id).kind
        if t.keep_encoding or "ASN1H_T_OPEN_MEMBERS" in t.flags:
            raise Refused(f"{t.node.id} keeps encodings or resolves open types")
        if kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            return self.list_(t, placed, lv, depth)
        members = self.owner_members(t)
        children = list(placed.children)
        present: dict[int, int] = {}
        deepest = depth
        if kind == Kind.SEQUENCE:
            for m in members:
                child = children[0] if children else None
                if child is not None and self.matches(m, child.tlv):
                    children.pop(0)
                    deepest = max(deepest, self.sequence_member(t, m, child, lv, depth))
                    self.mark(m, present)
                else:
                    self.absent(t, m, lv)
            if children:
                raise Refused(f"{t.node.id}: a TLV that no member takes (an unknown "
                              "extension, or out of order)")
        else:                                       # SET: any order; DER's is checked
            taken = set()
            order = []
            for child in children:
                m = next((m for m in members if m.index not in taken
                          and self.matches(m, child.tlv)), None)
                if m is None:
                    raise Refused(f"{t.node.id}: a TLV that no member takes")
                taken.add(m.index)
                order.append(m.index)
                deepest = max(deepest, self.member(m, child, self.access(lv, m), depth))
                self.mark(m, present)
            for m in members:
                if m.index not in taken:
                    self.absent(t, m, lv)
            if order != [i for i in t.der_order if i in taken]:
                self.der_miss = True
        self.presence(t, lv, present)
        if t.unknown_at is not None:
            self.clear(f"{lv}.unknown_")
        elif not t.present_bytes and not members:
            self.zero(f"{lv}.unused_ = 0;")
        return deepest

    def presence(self, t: TypeLayout, lv: str, present: dict[int, int]) -> None:
        """The presence bytes of a SEQUENCE or SET value with the members of the layout
        (all of them, zeros too, outside the arena's zeroed memory)."""
        for k in range(t.present_bytes):
            if present.get(k) or not self.zeroed:
                self.body.append(f"{lv}.present_[{k}] = 0x{present.get(k, 0):02x};")

    def zero(self, *lines: str) -> None:
        """Stores zeros where the layout leaves the value empty: a path writes every octet
        of the value but padding, so that no memset of it all comes first.  Inside zeroed
        memory (list items, which the arena gives zeroed, and a CHOICE's union, cleared
        whole before its alternative) there is nothing to do."""
        if not self.zeroed:
            self.zero_lines.update(range(len(self.body), len(self.body) + len(lines)))
            self.body += lines

    def clear(self, lv: str) -> None:
        self.zero(f"memset(&{lv}, 0, sizeof {lv});")

    def stores(self, checked: set[int] = frozenset()) -> list[str]:
        """The body (but its lines `checked` elsewhere), clearing the value as it goes; or,
        where it clears a CHOICE's union (which covers most of a value), one clearing of
        the whole value first (asn1h_fp_clear) and no other zeros: measured cheaper on the
        SNMP and LDAP traces, where the per-field stores win on Blackwell's message."""
        dropped = set(checked) | (self.zero_lines if self.clears_union else set())
        body = [line for k, line in enumerate(self.body) if k not in dropped]
        if not self.clears_union:
            return body
        return ["asn1h_fp_clear(v, sizeof *v);"] + body

    def sequence_member(self, t: TypeLayout, m: MemberLayout, placed: _Placed, lv: str,
                        depth: int) -> int:
        """Member m of SEQUENCE t (whose value is `lv`), present as the TLV `placed`."""
        return self.member(m, placed, self.access(lv, m), depth)

    def owner(self, t: TypeLayout) -> TypeLayout:
        """The layout owning t's members: itself, or the type an alias names."""
        return self.type_of(self.graph.target(t.node.id).id)

    def owner_members(self, t: TypeLayout) -> list[MemberLayout]:
        return self.owner(t).members

    @staticmethod
    def access(lv: str, m: MemberLayout) -> str:
        return f"{lv}.{m.field}"

    def mark(self, m: MemberLayout, present: dict[int, int]) -> None:
        if m.bit is not None:
            present[m.bit // 8] = present.get(m.bit // 8, 0) | (1 << (m.bit % 8))
        if m.default:
            self.der_miss = True        # DER: a DEFAULT value must be left out

    def absent(self, t: TypeLayout, m: MemberLayout, lv: str) -> None:
        if "ASN1H_M_DEFAULT" in m.flags:
            if not m.default or m.pointer:
                raise Refused(f"{t.node.id}.{m.name}: a DEFAULT the runtime fills in")
            self.default(m, lv)
        elif "ASN1H_M_OPTIONAL" not in m.flags and "ASN1H_M_EXTENSION" not in m.flags:
            raise Refused(f"{t.node.id}.{m.name}: a mandatory member is missing")
        else:
            self.clear(self.access(lv, m))

    def default(self, m: MemberLayout, lv: str) -> None:
        """An absent DEFAULT member: its value is the default."""
        self.body.append(f"{self.access(lv, m)} = {m.default};")

    def list_(self, t: TypeLayout, placed: _Placed, lv: str, depth: int) -> int:
        element = self.owner_members(t)[0]
        count = len(placed.children)
        if t.check is not None and t.check.sizes and \
                not any(low <= count <= high for low, high in t.check.sizes):
            raise Refused(f"{t.node.id}: {count} elements, outside its SIZE")
        if t.check is not None and (t.check.values or t.check.chars):
            raise Refused(f"{t.node.id}: a constraint beyond SIZE")
        items = self.items(t, element, lv, count)
        if not count:
            self.zero(f"{lv}.items = NULL;", f"{lv}.count = 0;")
            return depth
        deepest = depth
        self.zeroed += 1
        for i, child in enumerate(placed.children):
            if not self.matches(element, child.tlv):
                raise Refused(f"{t.node.id}: an element that is not of its type")
            deepest = max(deepest, self.member(element, child, f"{items}[{i}]", depth))
        self.zeroed -= 1
        if self.graph.target(t.node.id).kind == Kind.SET_OF and count > 1 \
                and placed.ptr != "p":
            self.der_miss = True            # DER's order of a slot layout's elements
        elif self.graph.target(t.node.id).kind == Kind.SET_OF and count > 1:
            for a, b in zip(placed.children, placed.children[1:]):
                self.body.append(
                    f"if (der && !asn1h_der_ascending(p + {a.start}, "
                    f"p + {b.start}, p + {b.contents + b.size})) goto miss;")
        return deepest

    def items(self, t: TypeLayout, element: MemberLayout, lv: str, count: int) -> str:
        """The C expression of a list's items, `count` of them (allocated here)."""
        if not count:
            return ""
        self.allocates = True
        items = f"{self.prefix}items{self.lists}"
        self.lists += 1
        self.body += [f"{items} = ({element.ctype} *)asn1h_arena_alloc(arena, "
                      f"{count} * sizeof *{items});",
                      f"if (!{items}) goto miss;",
                      f"{lv}.items = {items};", f"{lv}.count = {count};"]
        self.locals.append(f"{element.ctype} *{items};")
        return items

    # ---- members and their tags ---------------------------------------------------------

    def matches(self, m: MemberLayout, tlv: Tlv) -> bool:
        return tlv.identifier in self.identifiers_of(m)

    def identifiers_of(self, m: MemberLayout) -> set[bytes]:
        """The identifiers a TLV of m's value may start with: its tag's, or those of an
        untagged CHOICE's alternatives (none for an untagged open type)."""
        target = m.target
        if m.tags:
            return {m.tags[0].identifier(self.wrapped(m) or target.kind in _CONSTRUCTED)}
        if target.kind == Kind.CHOICE:
            return {i for a in self.owner_members(self.type_of(target.id))
                    for i in self.identifiers_of(a)}
        return set()                    # an untagged open type

    @staticmethod
    def wrapped(m: MemberLayout) -> bool:
        """Whether m's first tag is a wrapper TLV around another one (EXPLICIT tagging,
        or any tag on a CHOICE)."""
        return len(m.tags) > 1 or (len(m.tags) == 1 and m.target.kind == Kind.CHOICE)

    def member(self, m: MemberLayout, placed: _Placed, lv: str, depth: int) -> int:
        if m.pointer:
            raise Refused(f"{m.node_id}: stored through a pointer (a recursive type)")
        wrappers = len(m.tags) - (0 if m.target.kind == Kind.CHOICE else 1)
        for k in range(wrappers):
            if len(placed.children) != 1:
                raise Refused(f"{m.node_id}: a tag wrapper without exactly one TLV inside")
            if placed.tlv.length and not _minimal(placed.tlv.length):
                self.der_miss = True
            placed = placed.children[0]
            depth += 1
            if k + 1 < len(m.tags) and placed.tlv.identifier != m.tags[k + 1].identifier(
                    k + 1 < wrappers or m.target.kind in _CONSTRUCTED):
                raise Refused(f"{m.node_id}: a tag that is not its own")
        return self.value(m.node_id, placed, lv, depth)

    def value(self, node_id: str, placed: _Placed, lv: str, depth: int) -> int:
        t = self.type_of(node_id)
        target = self.graph.target(node_id)
        kind = target.kind
        if kind == Kind.CHOICE:
            alternatives = self.owner_members(t)
            m = next((a for a in alternatives if self.matches(a, placed.tlv)), None)
            if m is None:
                raise Refused(f"{node_id}: an alternative it does not know")
            self.clears_union |= not self.zeroed
            self.clear(f"{lv}.u")              # then the alternative writes no zeros
            self.choose(lv, m)
            self.zeroed += 1
            depth = self.member(m, placed, f"{lv}.u.{m.field}", depth + 1)
            self.zeroed -= 1
            return depth
        constructed = placed.tlv.children is not None
        if constructed != (kind in _CONSTRUCTED):
            raise Refused(f"{node_id}: a {'constructed' if constructed else 'primitive'} "
                          "encoding the fast path does not take")
        if placed.tlv.length and not _minimal(placed.tlv.length):
            self.der_miss = True
        if kind in _CONSTRUCTED:
            return self.constructed(t, placed, lv, depth + 1)
        self.primitive(t, target, placed, lv)
        return depth

    def choose(self, lv: str, m: MemberLayout) -> None:
        """A CHOICE value whose alternative is m."""
        self.body.append(f"{lv}.which = {m.index + 1};")

    def primitive(self, t: TypeLayout, target, placed: _Placed, lv: str) -> None:
        n, fixed = placed.n, placed.size is not None
        kind = target.kind

        def length_is(test: str, allowed: bool, what: str) -> None:
            """A length the type requires: refused when the layout fixes another, else
            checked (`test` is the C condition of a wrong length)."""
            if fixed and not allowed:
                raise Refused(f"{t.node.id}: {what}")
            if not fixed:
                self.body.append(f"if ({test}) goto miss;")

        if kind in (Kind.INTEGER, Kind.ENUMERATED):
            self.integer(t, target, placed, lv)
        elif kind == Kind.BOOLEAN:
            length_is(f"{n} != 1", placed.size == 1, "a BOOLEAN not of one octet")
            if fixed and placed.ptr == "p":
                self.booleans.append(placed.contents)   # DER: checked with the template
            else:
                self.body.append(f"if (der && {placed.at(0)} != 0x00 "
                                 f"&& {placed.at(0)} != 0xFF) goto miss;")
            self.body.append(f"{lv} = {placed.at(0)} != 0;")
        elif kind == Kind.NULL:
            length_is(n, placed.size == 0, "a NULL with contents")
            self.zero(f"{lv} = 0;")
        elif kind == Kind.BYTES:
            if target.builtin in _TIMES:
                self.time(t, target.builtin, placed)
            if target.builtin in ("OBJECT IDENTIFIER", "RELATIVE-OID"):
                if target.builtin == "OBJECT IDENTIFIER":
                    length_is(f"{n} == 0", placed.size != 0, "an empty OBJECT IDENTIFIER")
                if placed.size != 0:
                    test = f"!asn1h_fp_oid({placed.addr(0)}, {n})"
                    if not fixed and target.builtin == "RELATIVE-OID":
                        test = f"{n} && {test}"
                    self.body.append(f"if ({test}) goto miss;")
            self.body += [f"{lv}.buf = {placed.addr(0)};", f"{lv}.len = {n};"]
            self.check(t, lv)
        elif kind == Kind.BIT_STRING:
            length_is(f"{n} == 0", placed.size != 0, "a BIT STRING without its first octet")
            self.bits(placed, lv, target.named_bits)
            self.check(t, lv)
        else:
            raise Refused(f"{t.node.id}: a {kind.value}")

    def time(self, t: TypeLayout, builtin: str, placed: _Placed) -> None:
        """A UTCTime or GeneralizedTime checked as the runtime's time codec checks it
        (asn1h_dec_time: fast paths are BER's, so the program reads BER's forms): in
        strict DER in its DER form, else in any form X.680 gives it."""
        if builtin not in _UNIVERSAL_TIMES:
            raise Refused(f"{t.node.id}: a {builtin} (checked by the runtime)")
        args = f"{placed.addr(0)}, {placed.addr(0)} + {placed.n}, {_UNIVERSAL_TIMES[builtin]}"
        self.body.append(f"if (!(der ? asn1h_is_der_time({args}) : asn1h_is_time({args}))) "
                         "goto miss;")

    def bits(self, placed: _Placed, lv: str, named: bool) -> None:
        """A BIT STRING's contents as dec_bits takes them: 0 to 7 unused bits, none
        without bits; in DER, unused bits 0 and (named bits) no trailing 0 bit."""
        n, unused = placed.n, placed.at(0)
        if placed.size == 1:
            self.body.append(f"if ({unused} != 0) goto miss;")
        else:
            last = placed.at(placed.size - 1) if placed.size is not None else \
                f"{placed.ptr}[{placed.contents} + {n} - 1]"
            no_bits = f" || ({unused} && {n} == 1)" if placed.size is None else ""
            self.body.append(f"if ({unused} > 7{no_bits}) goto miss;")
            # DER: the unused bits 0, and with named bits the last bit used a 1
            low = f"(1u << {unused}) - 1" if not named else f"(2u << {unused}) - 1"
            test = f"({last} & ({low})) != {'0' if not named else f'1u << {unused}'}"
            if placed.size is None:
                test = f"{n} > 1 && {test}"
            self.body.append(f"if (der && {test}) goto miss;")
        self.body += [f"{lv}.buf = {placed.addr(1)};", f"{lv}.len = {n} - 1;",
                      f"{lv}.unused = {unused};"]

    def check(self, t: TypeLayout, lv: str) -> None:
        if t.check is not None:
            self.body.append(f"if (asn1h_constrained(&{t.ref}) && "
                             f"!asn1h_check(asn1h_spec_of(&{t.ref}), &{t.ref}, &{lv})) "
                             "goto miss;")

    def integer(self, t: TypeLayout, target, placed: _Placed, lv: str) -> None:
        n = placed.size
        storage, ctype = integer_storage(target)
        if n is None:
            # a slot: 1 to 8 octets, in their shortest form (asn1h_fp_int)
            self.body.append(f"if (!asn1h_fp_int({placed.addr(0)}, {placed.n}, &x)) goto miss;")
            span = (-2**63, 2**63 - 1)
        else:
            if not 1 <= n <= 8:
                raise Refused(f"{t.node.id}: an integer of {n} octets")
            self.exact_integer(placed, n)
            span = (-2**(8 * n - 1), 2**(8 * n - 1) - 1)
        low, high = _C_RANGE[storage]
        if storage == "ASN1H_INT_U64":
            high = 2**63 - 1                # as int64_t: a top bit set is a negative x
        tests = []
        if low > span[0]:
            tests.append(f"x < {_literal(low)}")
        if high < span[1]:
            tests.append(f"x > {_literal(high)}")
        if tests:
            self.body.append(f"if ({' || '.join(tests)}) goto miss;")
        if target.kind == Kind.ENUMERATED and not target.extensible:
            values = sorted({v for _, v in self.type_of(target.id).enum_items})
            if values == list(range(values[0], values[-1] + 1)):
                test = f"x >= {_literal(values[0])} && x <= {_literal(values[-1])}"
            else:
                test = " || ".join(f"x == {_literal(v)}" for v in values)
            self.body.append(f"if (!({test})) goto miss;")
        elif target.kind == Kind.ENUMERATED and n >= 4:
            self.body.append("if (asn1h_enum_addition(x)) goto miss;")  # numbers PER keeps
        if t.check is not None:
            if t.check.sizes or t.check.chars:
                raise Refused(f"{t.node.id}: a constraint beyond values")
            if t.check.values:
                self.body.append(f"if (!({intervals_test('x', t.check.values)})) goto miss;")
        if storage == "ASN1H_INT_BIG":
            self.body.append(f"{lv}.v = x;")
            # big and big_len in one store (a memset of the rest of the struct)
            self.zero(f"memset(&{lv}.big, 0, sizeof {lv} - offsetof(asn1h_int, big));")
        else:
            self.body.append(f"{lv} = ({ctype})x;")

    def exact_integer(self, placed: _Placed, n: int) -> None:
        """x from an integer of n octets, in one big-endian load and a sign extension:
        - where the word that starts with the contents lies inside the PDU (an exact
          layout), an arithmetic shift right of it as a signed word: of 64 bits where
          they fit, which needs no sign extension after the shift;
        - else the word that ends with the contents (the octets before them are the
          PDU's own: at least its header and the integer's), masked and sign-extended as
          (u ^ s) - s;
        then its shortest form.  The narrowing conversions and signed shifts are two's
        complement, as in GCC and Clang: the fast paths are built only for compilers that
        say their byte order (__BYTE_ORDER__), which are those."""
        inside = (placed.ptr == "p" and self.total is not None and
                  placed.contents + (4 if n <= 4 else 8) <= self.total)
        wide = placed.ptr == "p" and self.total is not None and placed.contents + 8 <= self.total
        if n == 1:
            self.body.append(f"x = (int8_t){placed.at(0)};")
        elif inside and n <= 4 and not wide:
            shift = f" >> {32 - 8 * n}" if n < 4 else ""
            self.body.append(f"x = (int32_t)asn1h_fp_be32({placed.addr(0)}){shift};")
        elif inside or wide:
            shift = f" >> {64 - 8 * n}" if n < 8 else ""
            self.body.append(f"x = (int64_t)asn1h_fp_be64({placed.addr(0)}){shift};")
        else:
            if n <= 4:
                load = f"asn1h_fp_be32({placed.addr(n - 4)})" + (
                    f" & 0x{(1 << 8 * n) - 1:x}u" if n < 4 else "")
            else:
                load = f"asn1h_fp_be64({placed.addr(n - 8)})" + (
                    f" & UINT64_C(0x{(1 << 8 * n) - 1:x})" if n < 8 else "")
            sign = 1 << (8 * n - 1)
            if n == 8:
                self.body.append(f"x = (int64_t)({load});")
            elif n <= 4:
                self.body.append(f"x = (int64_t)(({load}) ^ 0x{sign:x}u) - INT64_C(0x{sign:x});")
            else:
                self.body.append(f"x = (int64_t)(({load}) ^ UINT64_C(0x{sign:x})) - "
                                 f"INT64_C(0x{sign:x});")
        if n > 1:            # not in its shortest form: BER's same value, DER's general path
            self.body.append(_longer_form(n, der=False))
            if placed.ptr == "p" and self.total is not None:
                self.minimal_ints[placed.contents] = (len(self.body) - 1, n)

    # ---- the whole path -----------------------------------------------------------------

    def build(self, chosen: MessageLayout, function: str) -> FastPath:
        tlv = from_text(chosen.text)
        top_tlv_check(self.root, tlv)
        # offsets from the contents of the PDU's TLV, which the door has read
        top = _place(tlv, -(len(tlv.identifier) + len(tlv.length)))
        self.total = top.size
        depth = self.root_value(top)
        want = bytearray(top.size)
        mask = bytearray(top.size)
        for placed in _all(top)[1:]:
            header = placed.tlv.identifier + placed.tlv.length
            want[placed.start:placed.start + len(header)] = header
            mask[placed.start:placed.start + len(header)] = b"\xff" * len(header)
        # DER's BOOLEAN octets are 00 or FF: all eight bits equal, so that (b ^ (b << 1))
        # has 0 in bits 1-7 of each (BER takes any octet)
        flags = bytearray(top.size)
        for at in self.booleans:
            flags[at] = 0xFE
        n = top.size
        blocks, covered = [], set()
        for off in _windows(n - 16):
            if len(_runs(mask, off, off + 16, covered)) >= BLOCK_RUNS:
                blocks.append(Block(off, bytes(mask[off:off + 16]), bytes(want[off:off + 16])))
                covered.update(range(off, off + 16))
        runs = [Run(k, bytes(want[k:k + size])) for k, size in _runs(mask, 0, n, covered)]
        der_blocks, in_blocks = _der_blocks(n, flags, set(self.minimal_ints))
        if der_blocks:
            # the path tests `der` anyway: BER takes the other INTEGERs' longer forms too
            for k, size in self.minimal_ints.values():
                self.body[k] = _longer_form(size, der=True)
        body = []
        if n < 16 and self.booleans:
            body.append("if (der) {")
            body += [f"    if (p[{at}] != 0x00 && p[{at}] != 0xFF) return 0;"
                     for at in self.booleans]
            body.append("}")
        return FastPath(chosen, function, n, blocks, runs, der_blocks, body,
                        self.stores({self.minimal_ints[at][0] for at in in_blocks}),
                        depth, self.der_miss, self.allocates, self.locals, bytes(want),
                        bytes(mask))


def _gives_up(depth: int, der_miss: bool) -> str:
    """The C test by which a path that reached its stores leaves the message to the
    general decoder all the same: the PDU nests deeper than the options allow, or
    (`der_miss`) strict DER, whose rule the layout breaks."""
    return f"asn1h_max_depth(opts) < {depth}" + (" || der" if der_miss else "")


def _longer_form(n: int, der: bool) -> str:
    """The test that gives up an INTEGER x of n octets not in its shortest form (the
    first nine bits equal): in every mode, or (`der`) in strict DER alone."""
    half = 1 << (8 * (n - 1) - 1)
    return (f"if ({'der && ' if der else ''}(uint64_t)(x + INT64_C({half})) < "
            f"UINT64_C({2 * half})) goto miss;")


def _windows(last: int) -> list[int]:
    """The offsets of the 16-octet windows that cover octets 0 to last + 15: every 16th,
    and one that ends there (none when last < 0)."""
    return sorted(set(range(0, last + 1, 16)) | {last}) if last >= 0 else []


def _der_blocks(n: int, booleans: bytes, ints: set[int]) -> tuple[list[DerBlock], set[int]]:
    """The 16-octet windows of a PDU's n contents octets that hold DER's checks, and the
    INTEGERs they check:
    - every BOOLEAN octet (`booleans`: their masks);
    - INTEGERs' first octets (`ints`: their offsets) two or more to a window, or any
      where there are BOOLEANs to check; the others keep their own test, which costs less
      code.  Their second load reads one octet on, so their last window ends earlier."""
    by_offset: dict[int, DerBlock] = {}
    taken: set[int] = set()
    firsts = bytearray(n)
    for at in ints:
        firsts[at] = 0xFF
    for kind, flags, last in (("booleans", booleans, n - 16), ("ints", firsts, n - 17)):
        covered = bytearray(n)
        for off in _windows(last):
            window = bytes(f if not c else 0 for f, c in zip(flags[off:off + 16],
                                                              covered[off:off + 16]))
            lanes = sum(1 for f in window if f)
            if lanes and (kind == "booleans" or lanes >= 2 or any(booleans)):
                setattr(by_offset.setdefault(off, DerBlock(off)), kind, window)
                covered[off:off + 16] = b"\x01" * 16
                if kind == "ints":
                    taken |= {off + k for k, f in enumerate(window) if f}
    out = [by_offset[off] for off in sorted(by_offset)]
    for kind in ("boolean", "int"):
        for row, block in enumerate(b for b in out if getattr(b, kind + "s")):
            setattr(block, kind + "_row", row)
    return out, taken


def _runs(mask: bytes, start: int, stop: int, covered: set) -> list[tuple[int, int]]:
    """(offset, size) of the loads that compare the header octets of mask[start:stop]
    not in `covered`: each run of them in loads of 8, 4, 2 and 1 octets."""
    out, k = [], start
    while k < stop:
        if not mask[k] or k in covered:
            k += 1
            continue
        end = k
        while end < stop and mask[end] and end not in covered:
            end += 1
        while k < end:
            size = next(s for s in (8, 4, 2, 1) if s <= end - k)
            out.append((k, size))
            k += size
    return out


class _Encoder(_Builder):
    """The encoding path of an exact layout (USC's straight-line conversion): the same
    walk as the decoding path's, with checks that the value has the layout's shape and
    encodes to its lengths in DER, then stores of its contents.  The decoding path's
    refusals hold; so does any DER rule the layout breaks (its decoding path misses in
    strict DER: a DEFAULT member present, a long length not in its shortest form, a SET
    out of order), and a SET OF of several elements (DER sorts them)."""

    def __init__(self, layout: Layout, root: TypeLayout):
        super().__init__(layout, root)
        self.writes: list[str] = []

    def presence(self, t: TypeLayout, lv: str, present: dict[int, int]) -> None:
        owner = self.owner(t)
        bits = [m.bit for m in owner.members if m.bit is not None]
        for k in range(max(bits) // 8 + 1 if bits else 0):
            self.body.append(f"if ({lv}.present_[{k}] != 0x{present.get(k, 0):02x}) "
                             "return NULL;")
        if owner.unknown_at is not None:
            self.body.append(f"if ({lv}.unknown_.len) return NULL;")

    def default(self, m: MemberLayout, lv: str) -> None:
        pass                            # absent: its presence bit is checked clear

    def zero(self, *lines: str) -> None:
        pass                            # the decoder's stores

    def items(self, t: TypeLayout, element: MemberLayout, lv: str, count: int) -> str:
        if self.graph.target(t.node.id).kind == Kind.SET_OF and count > 1:
            raise Refused(f"{t.node.id}: a SET OF of several elements (DER sorts them)")
        self.body.append(f"if ({lv}.count != {count}) return NULL;")
        return f"{lv}.items"

    def choose(self, lv: str, m: MemberLayout) -> None:
        self.body.append(f"if ({lv}.which != {m.index + 1}) return NULL;")

    def primitive(self, t: TypeLayout, target, placed: _Placed, lv: str) -> None:
        # the decoding path's refusals first; its statements are not the encoder's
        body, booleans, ints = len(self.body), list(self.booleans), dict(self.minimal_ints)
        super().primitive(t, target, placed, lv)
        del self.body[body:]
        self.booleans, self.minimal_ints = booleans, ints
        n, at, kind = placed.size, placed.contents, target.kind
        if kind in (Kind.INTEGER, Kind.ENUMERATED):
            self.encode_integer(t, target, n, at, lv)
        elif kind == Kind.BOOLEAN:
            self.writes.append(f"q[{at}] = {lv} ? 0xFF : 0x00;")
        elif kind == Kind.BYTES:
            self.body.append(f"if ({lv}.len != {n}) return NULL;")
            if target.builtin in ("OBJECT IDENTIFIER", "RELATIVE-OID") and n:
                self.body.append(f"if (!asn1h_fp_oid({lv}.buf, {n})) return NULL;")
            if target.builtin in _UNIVERSAL_TIMES:      # else DER's form of it is written
                self.body.append(f"if (!asn1h_is_der_time({lv}.buf, {lv}.buf + {n}, "
                                 f"{_UNIVERSAL_TIMES[target.builtin]})) return NULL;")
            self.constrained(t, lv)
            if n:
                self.writes.append(f"memcpy(q + {at}, {lv}.buf, {n});")
        elif kind == Kind.BIT_STRING:
            # whole octets only; with named bits, no trailing 0 bit for DER to drop
            trailing = f" || !({lv}.buf[{n - 2}] & 1)" if target.named_bits and n > 1 else ""
            self.body.append(f"if ({lv}.len != {n - 1} || {lv}.unused{trailing}) return NULL;")
            self.constrained(t, lv)
            self.writes.append(f"memcpy(q + {at + 1}, {lv}.buf, {n - 1});")

    def constrained(self, t: TypeLayout, lv: str) -> None:
        if t.check is not None:
            self.body.append(f"if (asn1h_constrained(&{t.ref}) && !asn1h_check(e->spec, "
                             f"&{t.ref}, &{lv})) return NULL;")

    def encode_integer(self, t: TypeLayout, target, n: int, at: int, lv: str) -> None:
        """Checks that the value's shortest form has n octets (and that the general
        encoder would take it), then stores them big-endian."""
        storage, _ = integer_storage(target)
        if storage == "ASN1H_INT_U64":          # above INT64_MAX: nine octets
            self.body.append(f"if ({lv} > (uint64_t)INT64_MAX) return NULL;")
            value = f"(int64_t){lv}"
        elif storage == "ASN1H_INT_BIG":
            self.body.append(f"if ({lv}.big) return NULL;")
            value = f"{lv}.v"
        else:
            value = f"(int64_t){lv}"
        tests = []
        if n < 8:
            tests.append(f"(uint64_t)x + UINT64_C(0x{1 << (8 * n - 1):x}) >= "
                         f"UINT64_C(0x{1 << 8 * n:x})")
        if n > 1:
            tests.append(f"(uint64_t)x + UINT64_C(0x{1 << (8 * n - 9):x}) < "
                         f"UINT64_C(0x{1 << (8 * n - 8):x})")
        if target.kind == Kind.ENUMERATED and not target.extensible:
            values = sorted({v for _, v in self.type_of(target.id).enum_items})
            tests.append(" && ".join(f"x != {_literal(v)}" for v in values))
        elif target.kind == Kind.ENUMERATED and n >= 4:
            tests.append("asn1h_enum_addition(x)")
        if t.check is not None and t.check.values:
            tests.append(f"!({intervals_test('x', t.check.values)})")
        if tests:
            # one line: the check tree may part paths between any two lines, and x must
            # be this value wherever its tests run
            self.body.append(f"if ((x = {value}, {' || '.join(f'({x})' for x in tests)})) "
                             "return NULL;")
        self.writes += [f"q[{at + k}] = (uint8_t)((uint64_t)({value}) >> {8 * (n - 1 - k)});"
                        if k < n - 1 else f"q[{at + k}] = (uint8_t)({value});"
                        for k in range(n)]

    def encoder(self, chosen: MessageLayout, function: str) -> EncodePath:
        self.build(chosen, function)
        if self.der_miss:
            raise Refused("a DER rule the layout breaks")
        tlv = from_text(chosen.text)
        header = tlv.identifier + tlv.length if _alternative_at_top(self.root) else b""
        return EncodePath(function, self.body, self.writes, header)


class _Example(_Builder):
    """Walks a layout as its path does, and fills every primitive's contents with octets
    the path accepts (`example`)."""

    def __init__(self, layout: Layout, root: TypeLayout):
        super().__init__(layout, root)
        self.fills: list[tuple[int, bytes]] = []      # (offset from the PDU's contents, octets)

    def primitive(self, t: TypeLayout, target, placed: _Placed, lv: str) -> None:
        super().primitive(t, target, placed, lv)
        self.fills.append((placed.contents, _contents(self, t, target, placed.size)))


def _contents(builder: _Builder, t: TypeLayout, target, n: int) -> bytes:
    """n contents octets of a primitive of type t that its path accepts: the first
    candidate value that fits, else Refused."""
    kind = target.kind
    if kind in (Kind.INTEGER, Kind.ENUMERATED):
        span = (-2**(8 * n - 1), 2**(8 * n - 1) - 1)
        low, high = _C_RANGE[integer_storage(target)[0]]
        if kind == Kind.ENUMERATED and not target.extensible:
            candidates = sorted({v for _, v in builder.type_of(target.id).enum_items})
        else:
            bounds = t.check.values if t.check is not None and t.check.values else ()
            candidates = [v for iv in bounds for v in iv]
            candidates += [0, 1, -1, 2**(8 * n - 9) if n > 1 else 0, span[1], span[0]]
        for v in candidates:
            shortest = (v + (v < 0)).bit_length() // 8 + 1
            if kind == Kind.ENUMERATED and 0 <= v + 2**31 < 2**16:
                continue                    # the numbers of PER's kept additions (asn1h.h)
            in_bounds = t.check is None or not t.check.values or \
                any(lo <= v <= hi for lo, hi in t.check.values)
            if shortest == n and low <= v <= high and in_bounds:
                return v.to_bytes(n, "big", signed=True)
        raise Refused(f"{t.node.id}: no value of {n} octets that it takes")
    if kind == Kind.BOOLEAN:
        return b"\xff"
    if kind == Kind.BIT_STRING:             # no trailing 0 bit where DER drops them
        return bytes(n) if n < 2 or not target.named_bits else bytes(n - 1) + b"\x01"
    if target.builtin == "OBJECT IDENTIFIER":
        return b"\x2a" + b"\x01" * (n - 1)
    if target.builtin == "RELATIVE-OID":
        return b"\x01" * n
    if target.builtin == "UTCTime":         # in DER's form: seconds, Z
        if n != 13:
            raise Refused(f"{t.node.id}: no UTCTime of {n} octets in DER")
        return b"250101000000Z"
    if target.builtin == "GeneralizedTime":     # seconds, a fraction not ending in 0, Z
        if n != 15 and n < 17:
            raise Refused(f"{t.node.id}: no GeneralizedTime of {n} octets in DER")
        return b"20250101000000" + (b"." + b"1" * (n - 16) if n > 15 else b"") + b"Z"
    if target.builtin == "BMPString":
        return b"\x00\x31" * (n // 2) + b"\x31" * (n % 2)
    if target.builtin == "UniversalString":
        return b"\x00\x00\x00\x31" * (n // 4) + b"\x31" * (n % 4)
    return b"1" * n                     # NULL: n is 0


class _SlotExample(_Builder):
    """Walks a slot layout as its leaf in the slot tree does, and takes each open
    primitive length as the least one its type has a value of (`slot_instance`)."""

    def __init__(self, layout: Layout, root: TypeLayout):
        super().__init__(layout, root)
        self.lengths: dict[int, int] = {}       # id of a leaf's Tlv -> contents octets

    def primitive(self, t: TypeLayout, target, placed: _Placed, lv: str) -> None:
        super().primitive(t, target, placed, lv)
        if placed.size is None:
            for n in range(1, 64):
                try:
                    _contents(self, t, target, n)
                except Refused:
                    continue
                self.lengths[id(placed.tlv)] = n
                return
            raise Refused(f"{t.node.id}: no value of up to 63 octets that it takes")


def slot_instance(layout: Layout, pdu_id: str, chosen: MessageLayout) -> MessageLayout:
    """An exact layout that the slot layout `chosen` takes, to make a message of when the
    profile has none: each open primitive length the least that its type has a value of
    (`_contents`), each open constructed one what its contents add up to."""
    root = layout.types[pdu_id]
    tlv = from_text(chosen.text)
    top_tlv_check(root, tlv)

    def open_places(t: Tlv) -> _Placed:
        size = length_of(t.length) if t.length else None
        return _Placed(t, 0, 0, size, [open_places(c) for c in t.children or ()])
    walk = _SlotExample(layout, root)
    walk.root_value(open_places(tlv))
    text = render(instantiate(tlv, lambda leaf: walk.lengths[id(leaf)]))
    return MessageLayout("exact", text, chosen.count)


def example(layout: Layout, pdu_id: str, chosen: MessageLayout) -> bytes:
    """A message of the exact layout `chosen` that its fast path decodes: its headers,
    and contents of values each type takes (a message to measure the path on).  Raises
    Refused when the layout has no path, or some contents cannot be made here; a string
    constraint the guess misses shows when the message is decoded."""
    tlv = from_text(chosen.text)
    builder = _Example(layout, layout.types[pdu_id])
    builder.build(chosen, "example")
    top = _place(tlv, 0)
    out = bytearray(top.contents + top.size)
    for placed in _all(top):
        header = placed.tlv.identifier + placed.tlv.length
        out[placed.start:placed.start + len(header)] = header
    start = top.contents
    for offset, octets in builder.fills:
        out[start + offset:start + offset + len(octets)] = octets
    return bytes(out)


class _Resumer(_Builder):
    """Where a slot-tree miss resumes: the values a layout's leaf stores before the TLV
    `target`, which starts at `here` and ends with the PDU, then the general decoder for
    the SEQUENCE member whose TLV `target` is, up to the PDU's end (`function`, which
    calls asn1h_decode_member).  `resume_depth` stays None when no SEQUENCE member's TLV
    outside a list's elements is `target` (an element, a SET's member, a tag wrapper's
    contents): no resuming there."""

    def __init__(self, layout: Layout, root: TypeLayout, prefix: str, target: _Placed,
                 here: str, function: str):
        super().__init__(layout, root, prefix)
        self.target, self.here, self.function = target, here, function
        self.clears_union = True            # the miss clears the value before its stores
        self.resume_depth: Optional[int] = None
        self.in_list = 0                    # inside a list's elements

    def list_(self, t: TypeLayout, placed: _Placed, lv: str, depth: int) -> int:
        self.in_list += 1
        depth = super().list_(t, placed, lv, depth)
        self.in_list -= 1
        return depth

    def sequence_member(self, t: TypeLayout, m: MemberLayout, placed: _Placed, lv: str,
                        depth: int) -> int:
        if placed is not self.target or self.in_list:
            return super().sequence_member(t, m, placed, lv, depth)
        owner = self.owner(t)
        self.resume_depth = depth
        self.body.append(f"if (!{self.function}(&{owner.members_ref}[{m.slot}], &{lv}, "
                         f"{self.here}, end, {depth}, buf, arena, opts)) goto miss;")
        return depth


@dataclass
class _Step:
    """A node of the slot layouts' header tree: one TLV header read (`tlv`), the check
    that the constructed TLV `closes` ends here, or (an untagged CHOICE) that the PDU's
    identifier, which the door read, is `top`; `later` are the steps that may follow,
    in order of frequency, and `done` the layout complete after a last close."""
    tlv: Optional[Tlv] = None
    closes: Optional[str] = None          # the end variable checked
    top: Optional[int] = None             # an untagged CHOICE's: the PDU's identifier
    last: bool = True                     # the TLV ends with what encloses it, in every
                                          # layout through the step
    number: int = 0
    later: list["_Step"] = field(default_factory=list)
    # by the key of each layout through the step: its TLV here, and the TLV's index in
    # the order of the encoding
    placed: dict[str, tuple[_Placed, int]] = field(default_factory=dict)
    excluded: set[bytes] = field(default_factory=set)   # lengths a sibling step fixes
    done: Optional[str] = None            # the key of the layout complete here


class _SlotTree:
    """The slot layouts of a PDU type in one decision tree (Blackwell §4.4): every
    header of a message is read once, whatever the number of layouts; at each step the
    next header's identifier (and fixed length) chooses the branch, most frequent first,
    and a message no branch takes misses after reading only what it has in common with
    the layouts.  The leaves store the values as an exact layout's path does, from the
    pointers the headers gave: open lengths are read whole (asn1h_fp_length) and checked
    against what encloses them."""

    def __init__(self, layout: Layout, root: TypeLayout, chosen: Sequence[MessageLayout],
                 function: str):
        self.layout, self.root, self.function = layout, root, function
        self.refusals: list[tuple[MessageLayout, str]] = []
        self.choice = _alternative_at_top(root)
        chosen = list(chosen)
        for l in list(chosen):
            tlv = from_text(l.text)
            try:
                top_tlv_check(root, tlv)
            except Refused as exc:
                self.refusals.append((l, str(exc)))
                chosen.remove(l)
                continue
            if any(t.length[:1] == b"\x80" for t in flatten(tlv)):
                self.refusals.append((l, "an indefinite length"))
                chosen.remove(l)
        while True:                 # a layout the value walk refuses leaves the tree
            self.exclusive = self._grow(chosen, specialize=True)
            if not self.exclusive:
                self._grow(chosen, specialize=False)
            self.leaves: dict[str, _Builder] = {}
            refused = {}
            for key, (l, _) in self.variants.items():
                if key not in self.placed:      # a variant another layout's leaf took
                    continue
                builder = _Builder(self.layout, self.root, prefix=f"l{len(self.leaves)}_")
                try:
                    builder.depth = builder.root_value(self.placed[key])
                    self.leaves[key] = builder
                except Refused as exc:
                    refused.setdefault(l.id, (l, str(exc)))
            if not refused:
                break
            self.refusals += refused.values()
            chosen = [l for l in chosen if l.id not in refused]
        self.chosen = chosen
        self.saves = 0
        self.loads: set[int] = set()        # sizes of the header loads (asn1h_fp_u16...)
        self.lines: list[str] = []
        self.resumes: list[_Resumer] = []
        self.final_ends = {"end"}           # ends that are the PDU's
        self._emit(self.start, "end", [], frozenset(), self.lines, "", "p")
        self.lines.append("return 0;")

    def _grow(self, chosen: Sequence[MessageLayout], specialize: bool) -> bool:
        """The tree of the layouts `chosen`, whose branches exclude one another with
        `specialize`: whether they do (not when that would take more variants than
        layouts, `_specialize`)."""
        self.steps = 0
        self.start = _Step()
        self.placed: dict[str, _Placed] = {}
        # a layout's key, or a variant's (the layout with open lengths fixed: TLV indexes
        # in the order of the encoding, and their length octets)
        self.variants: dict[str, tuple[MessageLayout, dict[int, bytes]]] = {}
        for l in chosen:
            self.variants[l.id] = (l, {})
            self.add(l.id)
        return specialize and self._specialize(limit=2 * len(chosen))

    def add(self, key: str) -> None:
        """Adds a layout's (or a variant's) steps, sharing those it has in common with the
        tree's."""
        chosen, fixed = self.variants[key]
        tlv = from_text(chosen.text)
        step = self.start
        top = _Placed(tlv, 0, 0, None, [], "p", "(size_t)(end - p)")
        index = 0

        def follow(match, make) -> "_Step":
            for later in step.later:
                if match(later):
                    return later
            made = make()
            step.later.append(made)
            return made

        def walk(t: Tlv, end: str, last: bool) -> _Placed:
            nonlocal step, index
            index += 1
            if index - 1 in fixed:
                t = Tlv(t.identifier, fixed[index - 1], t.children)
            step = follow(lambda s: s.tlv is not None and (s.tlv.identifier, s.tlv.length,
                          s.tlv.children is None) == (t.identifier, t.length, t.children is None),
                          lambda: _Step(tlv=t, number=self._number()))
            step.last &= last
            k = step.number
            size = length_of(t.length) if t.length else None
            placed = _Placed(t, 0, 0, size, [], f"c{k}", "" if size is not None else f"n{k}")
            step.placed.setdefault(key, (placed, index - 1))
            if t.children is not None:
                placed.children = [walk(child, f"e{k}", i == len(t.children) - 1)
                                   for i, child in enumerate(t.children)]
                close(f"e{k}")
            return placed

        def close(end: str) -> None:
            nonlocal step
            step = follow(lambda s: s.closes == end, lambda: _Step(closes=end))

        if self.choice:         # an untagged CHOICE's alternatives part at the top
            step = follow(lambda s: s.top == tlv.identifier[0],
                          lambda: _Step(top=tlv.identifier[0]))
        top.children = [walk(child, "end", i == len(tlv.children) - 1)
                        for i, child in enumerate(tlv.children)]
        close("end")
        if step.done is None:           # else a variant that a layout's leaf takes alike
            step.done = key
            self.placed[key] = top

    def _specialize(self, limit: int) -> bool:
        """Makes the alternatives of every step exclusive, so that a message fails to be
        taken where it parts from the layouts and nowhere else: where one layout leaves
        a length open that a sibling fixes, the layout is also added under the sibling,
        as a variant with that length fixed, and the open branch takes no length a
        sibling fixes (`excluded`).  Variants of variants can multiply (X.400's slot
        layouts, where every member may be open in one and fixed in another): beyond
        `limit` layouts and variants, False, and the tree keeps its branches that
        overlap and resumes no miss."""
        while True:
            added = False
            for step in self._all(self.start):
                tlvs = [s for s in step.later if s.tlv is not None]
                for open_ in (s for s in tlvs if not s.tlv.length):
                    for fixed in tlvs:
                        if not fixed.tlv.length or (fixed.tlv.identifier, fixed.tlv.children
                                                    is None) != (open_.tlv.identifier,
                                                                 open_.tlv.children is None):
                            continue
                        open_.excluded.add(fixed.tlv.length)
                        for key, (_, index) in list(open_.placed.items()):
                            chosen, lengths = self.variants[key]
                            variant = f"{key}/{index}:{fixed.tlv.length.hex()}"
                            if variant not in self.variants:
                                if len(self.variants) >= limit:
                                    return False
                                self.variants[variant] = (
                                    chosen, {**lengths, index: fixed.tlv.length})
                                self.add(variant)
                                added = True
            if not added:
                return True

    def _number(self) -> int:
        self.steps += 1
        return self.steps - 1

    # ---- C ------------------------------------------------------------------------------

    def locals(self) -> list[str]:
        out = ["const uint8_t *q = p;", "size_t h;"]
        out += [f"const uint8_t *s{k};" for k in range(self.saves)]
        for step in self._all(self.start):
            if step.tlv is None:
                continue
            k = step.number
            out.append(f"const uint8_t *c{k};")
            if not step.tlv.length:
                out.append(f"size_t n{k};")
            if step.tlv.children is not None:
                out.append(f"const uint8_t *e{k};")
        for builder in [*self.leaves.values(), *self.resumes]:
            out += builder.locals
        return out

    def _all(self, step: _Step) -> list[_Step]:
        out = [step]
        for later in step.later:
            out += self._all(later)
        return out

    def code(self) -> list[str]:
        return self.lines

    def _emit(self, step: _Step, end: str, ends: list[str], sure: frozenset[str],
              lines: list[str], indent: str, here: str) -> None:
        """The step's alternatives, each in a `do { ... } while (0)` that `break` leaves
        for the next one (q back where it was).  When they exclude one another
        (`_specialize`), a message none takes is taken by no layout: control falls to
        where the step resumes the miss, if it does, else back to the step before; when
        they do not, a branch that fails deeper tries the others, and a message goes to
        the first layout, in order of frequency, that takes it.  A TLV that is the last
        of what encloses it in every layout through its step must end where that ends,
        which its header says: checked there (in place of the bound on its contents), a
        message with more or fewer elements misses before its contents are read, and the
        close of the enclosing TLV (in `sure`) tests nothing.  `here` is where the next
        TLV starts."""
        if step.done is not None:
            self._leaf(step.done, lines, indent)
            return
        resumer = self._resume_point(step, here) if end in self.final_ends else None
        saved = ""
        if len(step.later) > 1:
            saved = f"s{self.saves}"
            self.saves += 1
            lines.append(f"{indent}{saved} = q;")
        inner = indent + "    "
        for i, later in enumerate(step.later):
            if i and saved:
                lines.append(f"{indent}q = {saved};")
            lines.append(f"{indent}do {{")
            if later.top is not None:
                lines.append(f"{inner}if (buf[0] != 0x{later.top:02x}) break;")
                self._emit(later, end, ends, sure, lines, inner, here)
            elif later.tlv is not None:
                t = later.tlv
                octets = t.identifier + t.length
                need = len(octets) if t.length else len(t.identifier) + 1
                size = length_of(t.length) if t.length else 0
                one_load = bool(t.length) and len(octets) in (2, 4)
                short = "!=" if later.last else "<"     # what the contents' bound tests
                inside = sure | {end} if later.last else sure
                if one_load:
                    # a fixed header: one bound for it and its contents, one load for it
                    self.loads.add(len(octets))
                    run = Run(0, octets)
                    test = [f"(size_t)({end} - q) {short} {need + size}",
                            f"asn1h_fp_u{8 * len(octets)}(q) != {run.constant}"]
                else:
                    test = [f"(size_t)({end} - q) < {need}"] + \
                        [f"q[{j}] != 0x{b:02x}" for j, b in enumerate(octets)]
                lines.append(f"{inner}if ({' || '.join(test)}) break;")
                k = later.number
                if t.length:
                    lines.append(f"{inner}c{k} = q + {need};")
                    if (size or later.last) and not one_load:
                        lines.append(f"{inner}if ((size_t)({end} - c{k}) {short} {size}) break;")
                    n = str(size)
                else:
                    i_len = len(t.identifier)
                    # the short form inline; the long form by asn1h_fp_length
                    lines += [f"{inner}if (q[{i_len}] < 0x80) {{",
                              f"{inner}    n{k} = q[{i_len}];",
                              f"{inner}    c{k} = q + {i_len + 1};",
                              f"{inner}}} else if ((h = asn1h_fp_length(q + {i_len}, {end}, "
                              f"der, &n{k})) != 0) {{",
                              f"{inner}    c{k} = q + {i_len} + h;",
                              f"{inner}}} else {{",
                              f"{inner}    break;",
                              f"{inner}}}",
                              f"{inner}if ((size_t)({end} - c{k}) {short} n{k}) break;"]
                    lines += [f"{inner}if (n{k} == {length_of(length)}) break;  /* a sibling's */"
                              for length in sorted(later.excluded, key=length_of)]
                    n = f"n{k}"
                if t.children is None:
                    lines.append(f"{inner}q = c{k} + {n};")
                    self._emit(later, end, ends, inside, lines, inner, f"c{k} + {n}")
                else:
                    lines += [f"{inner}e{k} = c{k} + {n};", f"{inner}q = c{k};"]
                    if later.last and end in self.final_ends:
                        self.final_ends.add(f"e{k}")
                    self._emit(later, f"e{k}", ends + [end], inside, lines, inner, f"c{k}")
            else:
                if later.closes not in sure:
                    lines.append(f"{inner}if (q != {later.closes}) break;")
                self._emit(later, ends[-1] if ends else "end", ends[:-1], sure, lines, inner,
                           later.closes)
            lines.append(f"{indent}}} while (0);")
        if resumer is not None:
            lines += [indent + line for line in self._resume(resumer)]

    def _resume_point(self, step: _Step, here: str) -> Optional["_Resumer"]:
        """How a miss resumes when the message parts from every layout past `step`, when
        it does: the TLV at `here` (in the most frequent layout that has one there) is
        the last of all that encloses it, and a SEQUENCE member's outside any list's
        element."""
        later = next((s for s in step.later if s.tlv is not None), None)
        if later is None or not later.last or not self.exclusive:
            return None
        key = next(k for k in later.placed if k in self.placed)    # a leaf's layout
        resumer = _Resumer(self.layout, self.root, f"r{len(self.resumes)}_",
                           later.placed[key][0], here, f"{self.function}_resume")
        try:
            resumer.root_value(self.placed[key])
        except Refused:
            return None
        if resumer.resume_depth is None:
            return None
        self.resumes.append(resumer)
        return resumer

    @staticmethod
    def _resume(resumer: "_Resumer") -> list[str]:
        """A miss resumed: the value cleared (the general decoder writes into zeros), what
        the layout's leaf stores before the TLV, then the general decoder from there.  A
        failure goes back to asn1h_decode's general decoder, which starts over and
        reports it."""
        return ["/* no layout takes the message: resume where it parts from them */",
                f"if ({_gives_up(resumer.resume_depth, resumer.der_miss)}) return 0;",
                "asn1h_arena_save(arena, &mark);",
                *resumer.stores(),
                "ASN1H_FAST_PATH_RESUMED();",
                "return (size_t)(end - buf);     /* the PDU's octets */"]

    def _leaf(self, key: str, lines: list[str], indent: str) -> None:
        chosen = self.variants[key][0]
        builder = self.leaves[key]
        lines.append(f"{indent}/* {chosen.id}: {chosen.count} of the profile's messages */")
        lines.append(f"{indent}if ({_gives_up(builder.depth, builder.der_miss)}) return 0;")
        if self.allocates:                  # the miss label rolls back to it
            lines.append(f"{indent}asn1h_arena_save(arena, &mark);")
        lines += [indent + line for line in builder.stores()]
        lines += [f"{indent}ASN1H_FAST_PATH_HIT();",
                  f"{indent}return (size_t)(end - buf);     /* the PDU's octets */"]

    @property
    def allocates(self) -> bool:
        return bool(self.resumes) or any(b.allocates for b in self.leaves.values())

    @property
    def misses_late(self) -> bool:
        return any("goto miss" in line for b in [*self.leaves.values(), *self.resumes]
                   for line in b.body)


def _all(placed: _Placed) -> list[_Placed]:
    out = [placed]
    for child in placed.children:
        out += _all(child)
    return out


def _literal(v: int) -> str:
    if v == -2**63:
        return "INT64_MIN"
    return f"INT64_C({v})"


def layouts_in(source: str) -> list[str]:
    """The ids of the layouts whose fast paths a generated source holds: each path and
    each leaf of the slot tree names its layout in a comment."""
    return list(dict.fromkeys(
        re.findall(r"/\* ([0-9a-f]{12}): \d+ of the profile's messages", source)))


def name_fast_paths(t: TypeLayout, chosen: Sequence[MessageLayout]) -> None:
    """Names the entries of a PDU type with fast paths, before the tables refer to them:
    the door that tries the decoding paths (asn1h_codecs.layouts), and the routines that
    the exact layouts' encoding paths need: an encoder that tries them (else the compiled
    encoder, or the interpreter), beside a decoder that calls the interpreter when the
    type is not compiled."""
    if not t.decoder or t.node.kind not in (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF,
                                            Kind.SET_OF, Kind.CHOICE):
        return
    t.layouts_door = f"{t.decoder}_layouts"
    if any(c.form == "exact" for c in chosen):
        t.fast_encoder = f"{t.decoder}_layouts_encode"
        if not t.compiled:
            t.fast_decoder = f"{t.decoder}_layouts_interpreted"


def door_reads(length: bytes) -> bool:
    """Whether the door reads the PDU's length octets, as asn1h_expect does: a definite
    length in its shortest form, of at most two octets (every form it takes is DER's too)."""
    return length[0] < 0x80 or (length[0] == 0x81 and length[1] >= 0x80) or \
        (length[0] == 0x82 and length[1] != 0)


def _alternative_at_top(t: TypeLayout) -> bool:
    """Whether the PDU type t is a CHOICE, whose TLV is its alternative's (its door takes
    one when the CHOICE is untagged, door_identifiers)."""
    return t.node.kind == Kind.CHOICE


def door_identifiers(layout: Layout, t: TypeLayout) -> list[int]:
    """The identifier octets that the PDU's door takes: its own, where its encoding
    starts with one tag of one octet (not EXPLICIT tags, nor a tag number above 30); for
    an untagged CHOICE, those of its alternatives (through untagged CHOICEs among them)
    that are one octet each."""
    tags = t.node.tags
    if _alternative_at_top(t):
        if tags:
            return []                      # a tagged CHOICE: EXPLICIT, a wrapper TLV
        builder = _Builder(layout, t)
        return sorted({i[0] for a in builder.owner_members(t)
                       for i in builder.identifiers_of(a) if len(i) == 1})
    octet = identifier_octet(tags[0], True) if len(tags) == 1 else None
    return [] if octet is None else [octet]


def top_tlv_check(root: TypeLayout, tlv: Tlv) -> None:
    """Refused unless the layout's PDU TLV is one the door reads for type `root`:
    constructed, with the type's own identifier of one octet, or for an untagged
    CHOICE an identifier of one octet (the walk finds its alternative)."""
    if tlv.children is None:
        raise Refused("a primitive PDU TLV")
    if _alternative_at_top(root):
        if root.node.tags or len(tlv.identifier) != 1:
            raise Refused("the PDU's identifier is not one octet of an untagged CHOICE's "
                          "alternative")
        return
    tags = root.node.tags
    if len(tags) != 1 or tags[0].number >= 31:
        raise Refused("the PDU type has not one tag of one octet")
    if tlv.identifier != tags[0].identifier(True):
        raise Refused("the PDU's tag is not the type's")


def build_fast_paths(layout: Layout, pdu_id: str,
                     chosen: Sequence[MessageLayout]) -> Optional[FastPaths]:
    """The fast paths of `chosen` (exact layouts of PDUs of type `pdu_id`), after
    `name_fast_paths` and the tables; None when the type cannot have any."""
    t = layout.types[pdu_id]
    if not t.layouts_door:
        return None
    out = FastPaths(t, t.layouts_door, door_identifiers(layout, t),
                    t.fast_encoder or t.encoder)
    out.general_encoder = f"{t.encoder}(e, p, value)" if t.compiled else \
        f"asn1h_interpret_encode(e, &{t.ref}, p, value)"
    door = t.layouts_door
    if not out.identifiers:
        out.refusals += [(c, "the PDU's encoding does not start with a one-octet identifier, "
                          "which the door compares") for c in chosen]
        return out
    for message_layout in chosen:
        if message_layout.form != "exact":
            continue
        if not door_reads(from_text(message_layout.text).length):
            out.refusals.append((message_layout, "the PDU's length is not in the short, "
                                 "0x81 or 0x82 shortest form that the door reads"))
            continue
        try:
            path = _Builder(layout, t).build(message_layout, f"{door}_{message_layout.id}")
        except Refused as exc:
            out.refusals.append((message_layout, str(exc)))
            continue
        out.paths.append(path)
        try:
            path.encoder = _Encoder(layout, t).encoder(
                message_layout, f"{t.fast_encoder}_{message_layout.id}")
        except Refused as exc:
            out.encode_refusals.append((message_layout, str(exc)))
    slots = [l for l in chosen if l.form == "slot"]
    if slots:
        out.slots = _SlotTree(layout, t, slots, f"{door}_slots")
        out.refusals += out.slots.refusals
        if not out.slots.chosen:
            out.slots = None
    return out
