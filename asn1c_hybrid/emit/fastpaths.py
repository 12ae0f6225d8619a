"""Layout fast paths (Blackwell; docs/layouts.md): for each exact layout chosen for a PDU
type, a straight-line decoder of the PDU's contents.

A fast path compares every identifier and length octet of the layout with masked 8-octet
words (constants built here), then stores every field of the C value at its constant
offset: strings as pointers into the input, integers loaded word-wide, presence bits and
CHOICE indexes as constants, list items into one arena block of the known count.  It has
no tag dispatch, no loop and no length parsing.

A fast path accepts exactly what the general decoder accepts, with the same value, or
misses: a template that does not match, or a content the general decoder might judge
otherwise (a BOOLEAN octet that is not 00 or FF, an INTEGER not in its shortest form or
outside its constraint, a string outside its own) makes it give up, roll back the arena,
clear the value, and leave the PDU to the general decoder.  A miss has no other effect.
A layout the generator cannot serve this way is refused with a reason (`refusals`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..estimate.layouts import Layout as MessageLayout, Tlv, from_text, size as length_of
from ..typegraph import Kind, Tag
from .constraints import intervals_test
from .layout import Layout, MemberLayout, TypeLayout, integer_storage

_C_RANGE = {"ASN1H_INT_U8": (0, 2**8 - 1), "ASN1H_INT_U16": (0, 2**16 - 1),
            "ASN1H_INT_U32": (0, 2**32 - 1), "ASN1H_INT_U64": (0, 2**64 - 1),
            "ASN1H_INT_I8": (-2**7, 2**7 - 1), "ASN1H_INT_I16": (-2**15, 2**15 - 1),
            "ASN1H_INT_I32": (-2**31, 2**31 - 1), "ASN1H_INT_I64": (-2**63, 2**63 - 1),
            "ASN1H_INT_BIG": (-2**63, 2**63 - 1)}
_TIMES = ("UTCTime", "GeneralizedTime", "DATE", "TIME-OF-DAY", "DATE-TIME", "DURATION",
          "TIME")
_CONSTRUCTED = (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF, Kind.SET_OF)


class Refused(Exception):
    """The layout cannot be served by a fast path; the message says why."""


@dataclass
class Word:
    """An 8-octet compare of the template, (w & mask) == want, each constant for little-
    and big-endian loads; for DER's BOOLEAN octets, the mask of their bits 1-7."""
    offset: int
    mask_le: int
    want_le: int
    mask_be: int
    want_be: int


@dataclass
class FastPath:
    layout: MessageLayout
    function: str                 # the C function
    length: int                   # contents octets of the PDU's TLV
    words: list[Word]
    booleans: list[Word]          # DER: the words holding BOOLEAN octets
    body: list[str]               # C statements, `goto miss` on a content check
    depth: int                    # nesting levels the general decoder may count
    der_miss: bool                # strict DER mode always misses (a DER rule to check)
    allocates: bool               # lists: an arena mark to roll back to
    locals: list[str]             # C declarations of the list pointers

    @property
    def misses_late(self) -> bool:
        """Whether a content check can give up after the template matched."""
        return any("goto miss" in line for line in self.body)


@dataclass
class FastPaths:
    """The fast paths of one PDU type, and the layouts that could not have one."""
    type: TypeLayout
    wrapper: str                  # the decoder entry that tries them
    general: str                  # C call on a miss
    encoder: str                  # the encoder entry beside the wrapper
    paths: list[FastPath] = field(default_factory=list)
    refusals: list[tuple[MessageLayout, str]] = field(default_factory=list)

    def uses(self, helper: str) -> bool:
        """Whether a path calls `helper` (the template defines only those that are)."""
        return any(helper + "(" in line for path in self.paths for line in path.body)

    @property
    def by_length(self) -> list[tuple[int, list[FastPath]]]:
        """The paths grouped by contents length, the dispatch's first step; each group in
        order of frequency."""
        groups: dict[int, list[FastPath]] = {}
        for path in self.paths:
            groups.setdefault(path.length, []).append(path)
        return sorted(groups.items())


@dataclass
class _Placed:
    tlv: Tlv
    start: int                    # offsets from the PDU's contents
    contents: int
    size: int
    children: list["_Placed"]


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


def identifier(tag: Tag, constructed: bool) -> bytes:
    first = (int(tag.cls) << 6) | (0x20 if constructed else 0)
    if tag.number < 31:
        return bytes([first | tag.number])
    digits = []
    n = tag.number
    while True:
        digits.append(n & 0x7F)
        n >>= 7
        if not n:
            break
    digits.reverse()
    return bytes([first | 0x1F]) + bytes([d | 0x80 for d in digits[:-1]] + [digits[-1]])


def _minimal(length: bytes) -> bool:
    if length[0] < 0x80:
        return True
    n = int.from_bytes(length[1:], "big")
    return n >= 0x80 and length[1] != 0


class _Builder:
    def __init__(self, layout: Layout, root: TypeLayout):
        self.layout = layout
        self.graph = layout.graph
        self.root = root
        self.body: list[str] = []
        self.der_miss = False
        self.allocates = False
        self.lists = 0
        self.locals: list[str] = []
        self.booleans: list[int] = []       # offsets of BOOLEAN contents octets

    # ---- the walk -----------------------------------------------------------------------

    def type_of(self, node_id: str) -> TypeLayout:
        return self.layout.types[node_id]

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
                    deepest = max(deepest, self.member(m, child, self.access(lv, m), depth))
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
        for k, bits in sorted(present.items()):
            self.body.append(f"{lv}.present_[{k}] = 0x{bits:02x};")
        return deepest

    def owner_members(self, t: TypeLayout) -> list[MemberLayout]:
        owner = self.type_of(self.graph.target(t.node.id).id)
        return owner.members

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
            self.body.append(f"{self.access(lv, m)} = {m.default};")
        elif "ASN1H_M_OPTIONAL" not in m.flags and "ASN1H_M_EXTENSION" not in m.flags:
            raise Refused(f"{t.node.id}.{m.name}: a mandatory member is missing")

    def list_(self, t: TypeLayout, placed: _Placed, lv: str, depth: int) -> int:
        element = self.owner_members(t)[0]
        count = len(placed.children)
        if t.check is not None and t.check.sizes and \
                not any(low <= count <= high for low, high in t.check.sizes):
            raise Refused(f"{t.node.id}: {count} elements, outside its SIZE")
        if t.check is not None and (t.check.values or t.check.chars):
            raise Refused(f"{t.node.id}: a constraint beyond SIZE")
        if not count:
            return depth
        self.allocates = True
        items = f"items{self.lists}"
        self.lists += 1
        self.body += [f"{items} = ({element.ctype} *)asn1h_arena_alloc(d->arena, "
                      f"{count} * sizeof *{items});",
                      f"if (!{items}) goto miss;",
                      f"{lv}.items = {items};", f"{lv}.count = {count};"]
        self.locals.append(f"{element.ctype} *{items};")
        deepest = depth
        for i, child in enumerate(placed.children):
            if not self.matches(element, child.tlv):
                raise Refused(f"{t.node.id}: an element that is not of its type")
            deepest = max(deepest, self.member(element, child, f"{items}[{i}]", depth))
        if self.graph.target(t.node.id).kind == Kind.SET_OF and count > 1:
            for a, b in zip(placed.children, placed.children[1:]):
                self.body.append(
                    f"if ((d->flags & ASN1H_DER) && !asn1h_der_ascending(p + {a.start}, "
                    f"p + {b.start}, p + {b.contents + b.size})) goto miss;")
        return deepest

    # ---- members and their tags ---------------------------------------------------------

    def matches(self, m: MemberLayout, tlv: Tlv) -> bool:
        target = m.target
        if m.tags:
            return tlv.identifier == identifier(m.tags[0], self.wrapped(m) or
                                                target.kind in _CONSTRUCTED)
        if target.kind == Kind.CHOICE:
            return any(self.matches(a, tlv) for a in self.owner_members(
                self.type_of(target.id)))
        return False                    # an untagged open type

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
            placed = placed.children[0]
            depth += 1
            if k + 1 < len(m.tags) and placed.tlv.identifier != identifier(
                    m.tags[k + 1], k + 1 < wrappers or m.target.kind in _CONSTRUCTED):
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
            self.body.append(f"{lv}.which = {m.index + 1};")
            return self.member(m, placed, f"{lv}.u.{m.field}", depth + 1)
        constructed = placed.tlv.children is not None
        if constructed != (kind in _CONSTRUCTED):
            raise Refused(f"{node_id}: a {'constructed' if constructed else 'primitive'} "
                          "encoding the fast path does not take")
        if not _minimal(placed.tlv.length):
            self.der_miss = True
        if kind in _CONSTRUCTED:
            return self.constructed(t, placed, lv, depth + 1)
        self.primitive(t, target, placed, lv)
        return depth

    def primitive(self, t: TypeLayout, target, placed: _Placed, lv: str) -> None:
        at, n = placed.contents, placed.size
        kind = target.kind
        if kind in (Kind.INTEGER, Kind.ENUMERATED):
            self.integer(t, target, at, n, lv)
        elif kind == Kind.BOOLEAN:
            if n != 1:
                raise Refused(f"{t.node.id}: a BOOLEAN of {n} octets")
            self.booleans.append(at)        # DER: 00 or FF, checked before the stores
            self.body.append(f"{lv} = p[{at}] != 0;")
        elif kind == Kind.NULL:
            if n:
                raise Refused(f"{t.node.id}: a NULL with contents")
        elif kind == Kind.BYTES:
            if target.builtin in _TIMES:
                raise Refused(f"{t.node.id}: a time (checked by the runtime)")
            if target.builtin in ("OBJECT IDENTIFIER", "RELATIVE-OID"):
                if n == 0 and target.builtin == "OBJECT IDENTIFIER":
                    raise Refused(f"{t.node.id}: an empty OBJECT IDENTIFIER")
                if n:
                    self.body.append(f"if (!asn1h_fp_oid(p + {at}, {n})) goto miss;")
            self.body += [f"{lv}.buf = p + {at};", f"{lv}.len = {n};"]
            self.check(t, lv)
        elif kind == Kind.BIT_STRING:
            if target.named_bits or n < 2:
                raise Refused(f"{t.node.id}: a BIT STRING with named bits or no bits")
            self.body += [f"if (p[{at}] != 0) goto miss;", f"{lv}.buf = p + {at + 1};",
                          f"{lv}.len = {n - 1};"]
            self.check(t, lv)
        else:
            raise Refused(f"{t.node.id}: a {kind.value}")

    def check(self, t: TypeLayout, lv: str) -> None:
        if t.check is not None:
            self.body.append(f"if (asn1h_constrained(&{t.ref}) && !asn1h_check(d->spec, "
                             f"&{t.ref}, &{lv})) goto miss;")

    def integer(self, t: TypeLayout, target, at: int, n: int, lv: str) -> None:
        if not 1 <= n <= 8:
            raise Refused(f"{t.node.id}: an integer of {n} octets")
        storage, ctype = integer_storage(target)
        # one big-endian load of the word that ends with the contents (the octets before
        # them are the PDU's own: at least its header and the integer's), masked, then
        # sign-extended as (u ^ s) - s
        if n == 1:
            load = f"p[{at}]"
        elif n <= 4:
            load = f"asn1h_fp_be32(p + {at + n - 4})" + (f" & 0x{(1 << 8 * n) - 1:x}u"
                                                         if n < 4 else "")
        else:
            load = f"asn1h_fp_be64(p + {at + n - 8})" + (
                f" & UINT64_C(0x{(1 << 8 * n) - 1:x})" if n < 8 else "")
        if n < 8:
            sign = 1 << (8 * n - 1)
            self.body.append(f"x = (int64_t)(({load}) ^ 0x{sign:x}u) - INT64_C(0x{sign:x});"
                             if n <= 4 else
                             f"x = (int64_t)(({load}) ^ UINT64_C(0x{sign:x})) - "
                             f"INT64_C(0x{sign:x});")
        else:
            self.body.append(f"x = (int64_t)({load});")
        if n > 1:                           # not in its shortest form: the general path
            half = 1 << (8 * (n - 1) - 1)
            self.body.append(f"if ((uint64_t)(x + INT64_C({half})) < UINT64_C({2 * half})) "
                             f"goto miss;")
        low, high = _C_RANGE[storage]
        if storage == "ASN1H_INT_U64":
            high = 2**63 - 1                # as int64_t: a top bit set is a negative x
        tests = []
        span = (-2**(8 * n - 1), 2**(8 * n - 1) - 1)
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
        if t.check is not None:
            if t.check.sizes or t.check.chars:
                raise Refused(f"{t.node.id}: a constraint beyond values")
            if t.check.values:
                self.body.append(f"if (!({intervals_test('x', t.check.values)})) goto miss;")
        if storage == "ASN1H_INT_BIG":
            self.body.append(f"{lv}.v = x;")
        else:
            self.body.append(f"{lv} = ({ctype})x;")

    # ---- the whole path -----------------------------------------------------------------

    def build(self, chosen: MessageLayout, function: str) -> FastPath:
        top = _place(from_text(chosen.text), 0)
        tags = self.root.node.tags
        if len(tags) != 1 or tags[0].number >= 31:
            raise Refused("the PDU type has not one tag of one octet")
        if top.tlv.children is None or top.tlv.identifier != identifier(tags[0], True):
            raise Refused("the PDU's tag is not the type's")
        # offsets from the contents of the PDU's TLV, which the runtime has read
        shift = top.contents
        top = _place(from_text(chosen.text), -shift)
        depth = self.constructed(self.root, top, "(*v)", 1)
        want = bytearray(top.size)
        mask = bytearray(top.size)
        for placed in _all(top)[1:]:
            header = placed.tlv.identifier + placed.tlv.length
            want[placed.start:placed.start + len(header)] = header
            mask[placed.start:placed.start + len(header)] = b"\xff" * len(header)
        # DER's BOOLEAN octets are 00 or FF: all eight bits equal, so that (w ^ (w << 1))
        # has 0 in bits 1-7 of each (BER takes any octet)
        flags = bytearray(top.size)
        for at in self.booleans:
            flags[at] = 0xFE
        n = top.size
        words, booleans = [], []
        if n >= 8:
            offsets = list(range(0, n - 7, 8))
            if n % 8:
                offsets.append(n - 8)
            for off in offsets:
                m, w, b = (bytes(a[off:off + 8]) for a in (mask, want, flags))
                if off == n - 8 and n % 8:
                    b = bytes(8 - n % 8) + b[8 - n % 8:]    # checked by the word before
                if any(m):
                    words.append(Word(off, *(int.from_bytes(x, order)
                                             for order in ("little", "big") for x in (m, w))))
                if any(b):
                    booleans.append(Word(off, int.from_bytes(b, "little"), 0,
                                         int.from_bytes(b, "big"), 0))
            tail = []
        else:
            tail = [(k, want[k]) for k in range(n) if mask[k]]
        body = [f"if (p[{k}] != 0x{b:02x}) return 0;" for k, b in tail]
        if n < 8 and self.booleans:
            body.append("if (d->flags & ASN1H_DER) {")
            body += [f"    if (p[{at}] != 0x00 && p[{at}] != 0xFF) return 0;"
                     for at in self.booleans]
            body.append("}")
        return FastPath(chosen, function, n, words, booleans, body + self.body, depth,
                        self.der_miss, self.allocates, self.locals)


def _all(placed: _Placed) -> list[_Placed]:
    out = [placed]
    for child in placed.children:
        out += _all(child)
    return out


def _literal(v: int) -> str:
    if v == -2**63:
        return "INT64_MIN"
    return f"INT64_C({v})"


def name_fast_paths(t: TypeLayout) -> None:
    """Names the routines of a PDU type with fast paths, before the tables refer to them:
    the decoder that tries them, and beside it the compiled encoder or one that calls the
    interpreter."""
    if not t.decoder or t.node.kind not in (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF,
                                            Kind.SET_OF):
        return
    t.fast_decoder = f"{t.decoder}_layouts"
    t.fast_encoder = t.encoder if t.compiled else f"{t.decoder}_layouts_encode"


def build_fast_paths(layout: Layout, pdu_id: str,
                     chosen: Sequence[MessageLayout]) -> Optional[FastPaths]:
    """The fast paths of `chosen` (exact layouts of PDUs of type `pdu_id`), after
    `name_fast_paths` and the tables; None when the type cannot have any."""
    t = layout.types[pdu_id]
    if not t.fast_decoder:
        return None
    if t.compiled:
        general = f"{t.decoder}(d, p, end, form, value)"
    else:
        general = f"asn1h_interpret_contents(d, &{t.ref}, p, end, form, value)"
    out = FastPaths(t, t.fast_decoder, general, t.fast_encoder)
    wrapper = t.fast_decoder
    for k, message_layout in enumerate(chosen):
        if message_layout.form != "exact":
            out.refusals.append((message_layout, "a slot layout (exact layouts only)"))
            continue
        try:
            out.paths.append(_Builder(layout, t).build(
                message_layout, f"{wrapper}_{message_layout.id}"))
        except Refused as exc:
            out.refusals.append((message_layout, str(exc)))
    return out
