"""The compact tables: a Layout laid out as the runtime's spec object (docs/runtime.md,
"The table format").

Types, members and every other entry refer to each other by 16-bit indices; names are
coded as sequences of words, the words that several names use kept once.  Identical
tables are emitted once: anonymous types whose entries are the same (same kind, C layout,
tags, members...) share one entry, types whose member lists are the same share one member
table (the ten X.520 name CHOICEs of RFC 5280), and ENUMERATED types with the same items
share them.  Sizes and offsets are C expressions (`sizeof`, `offsetof`) on one of the
types sharing an entry: structs with the same members in the same order have the same
layout.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..diagnostics import CompileError, Diagnostic
from ..typegraph import INT64_MAX, INT64_MIN, Tag
from .constraints import PerVisible, RuntimeCheck, big_bounds, per_decides
from .layout import Layout, MemberLayout, TypeLayout
from .per_routines import has_per_routines, per_names, ranked_roots, root_members

MAX_INDEX = 0xFFFF
PACKED_MAX = 0x3FFF          # the largest tag number packed in 16 bits
_CONSTRUCTED = ("ASN1H_SEQUENCE", "ASN1H_SET", "ASN1H_SEQUENCE_OF", "ASN1H_SET_OF",
                "ASN1H_CHOICE")


def packed_tag(tag: Tag) -> str:
    return f"ASN1H_PACK_TAG({int(tag.cls)}, {tag.number})"


def full_tag(tag: Tag) -> str:
    return f"ASN1H_TAG({int(tag.cls)}, {tag.number})"


def _too_many(what: str) -> CompileError:
    return CompileError([Diagnostic(
        "error", f"this specification has more than 65,535 {what}: the tables' indexes are "
        "16-bit (split the specification into several compile runs, with --prefix)")])


@dataclass
class TypeEntry:
    """One asn1h_type initializer, as C expressions."""
    kind: str
    flags: list[str]
    size: str
    tag: str
    first: int = 0
    count: int = 0
    aux: str = "0"
    extra: object = 0                # a number, or a C expression (offsetof)
    name: str = ""                   # "" for an anonymous type
    comment: str = ""


@dataclass
class MemberEntry:
    type: int
    offset: str
    tag: str
    flags: list[str]
    bit: Optional[int]
    name: str


@dataclass
class Default:
    member: int                      # index in the member array
    value: str                       # symbol of the C value
    der: Optional[bytes] = None      # its DER contents, when known here
    der_offset: int = 0              # where they are in spec->data


@dataclass
class Tables:
    """Everything the spec object holds."""
    types: list[TypeEntry] = field(default_factory=list)
    members: list[MemberEntry] = field(default_factory=list)
    routines: list[tuple[str, str]] = field(default_factory=list)   # (decoder, encoder)
    per_routines: list[tuple[str, str]] = field(default_factory=list)  # beside: PER's, or NULLs
    tags: list[str] = field(default_factory=list)                   # the uint32 tag pool
    defaults: list[Default] = field(default_factory=list)           # by member index
    open: list[tuple[int, int, int]] = field(default_factory=list)  # key, key_len, type
    data: bytes = b""               # open tables' keys, DEFAULTs' DER, PER bounds > 64 bits
    enum_values: list[int] = field(default_factory=list)
    enum_names: list = field(default_factory=list)                  # every item's name
    string_rows: list[bytes] = field(default_factory=list)          # names' words, in rows
    common_words: list[int] = field(default_factory=list)           # offsets of 1-octet codes
    names: bytes = b""                                              # every name, coded
    name_index: list[int] = field(default_factory=list)             # where every 32nd starts
    name_shift: int = 0
    profile_names: list = field(default_factory=list)               # every type's id
    profile_shift: int = 0
    profile_rows: list[bytes] = field(default_factory=list)
    constraints: list[tuple[int, ...]] = field(default_factory=list)
    # asn1h_constraint records: first pair in `bounds`, how many value, size and character
    # intervals follow; the PER flags, first pair and character intervals; `bounds` holds
    # the pairs' numbers
    bounds: list[int] = field(default_factory=list)
    codecs: set[str] = field(default_factory=set)   # the runtime's parts: "set", "real",
    # "enumerated", "extensible_enumerated", "time", "received", "open_types", "extensions",
    # "set_extensions", "choice_extensions", "check" (or "number_check" or "size_check",
    # which it makes unneeded; "number_check" makes "size_check" unneeded), "ber_forms",
    # "defaults", "general_tags" (source.c.j2)


# the parts asn1h_per.c reaches (asn1h_codecs)
PER_CODECS = {"real", "check", "number_check", "size_check", "defaults"}
# the kinds whose zero DEFAULT the encoder tests inline, without the "defaults" part
ZERO_TESTED_INLINE = {"ASN1H_BOOLEAN", "ASN1H_INTEGER", "ASN1H_ENUMERATED",
                      "ASN1H_SEQUENCE_OF", "ASN1H_SET_OF"}
ROW = 4096                   # C99 string literals may hold 4095 characters: the pool is
                             # char[rows][ROW], each row one literal, names never across rows


def _has_own_tlv(kind: str) -> bool:
    """Whether a type of this kind has a TLV of its own (a CHOICE's or an open type's tags
    are all explicit wrappers)."""
    return kind not in ("ASN1H_CHOICE", "ASN1H_OPEN")


def _has_tag_list(tags: tuple[Tag, ...], own_tlv: bool) -> bool:
    """Whether a type's entry refers to its tags in the tag pool (ASN1H_T_TAG_LIST) rather
    than packing its one tag."""
    return bool(tags) and not (len(tags) == 1 and tags[0].number <= PACKED_MAX and own_tlv)


def _checked_inline(kind: str, t: TypeLayout, check: Optional[RuntimeCheck]) -> bool:
    """Whether asn1h_check (asn1h_ber.h) decides the constraint record of t without the
    general checker (asn1h_check.c): nothing to check beyond what PER encodes, or one SIZE
    interval of a list or of a string of one octet per character.  A spec whose records
    are all such needs only asn1h_satisfies_size, for PER (the "size_check" part)."""
    if not check:
        return True
    return (len(check.sizes) == 1 and not check.chars and not check.values
            and (kind in ("ASN1H_SEQUENCE_OF", "ASN1H_SET_OF")
                 or (kind == "ASN1H_BYTES" and t.universal not in (12, 28, 30))))


def _checked_by_numbers(kind: str, t: TypeLayout, check: Optional[RuntimeCheck]) -> bool:
    """Whether asn1h_satisfies_numbers (asn1h_check.c) decides the constraint record of t:
    intervals of an INTEGER's values, in a storage whose numbers are all int64_t's (not
    uint64_t, not a big INTEGER), or of a BIT STRING's sizes.  A spec whose records are
    all such or checked inline needs only that checker (the "number_check" part), not the
    general one, which also counts characters and reads big numbers."""
    if check is None or check.chars:
        return False
    if kind == "ASN1H_INTEGER":
        return not check.sizes and t.storage not in ("ASN1H_INT_BIG", "ASN1H_INT_U64")
    return kind == "ASN1H_BIT_STRING" and not check.values


def _rows(items: dict[str, bytes], shifts=range(0, 5)) -> tuple[int, dict[str, int],
                                                                list[bytes]]:
    """Items (each ended by 0) laid out in rows of ROW bytes, none across rows, each at a
    multiple of 1 << shift, so that a 16-bit offset (its position >> shift) reaches it:
    (shift, key -> offset, rows), the smallest shift that does."""
    for shift in shifts:
        unit = 1 << shift
        position, offsets, data = 0, {}, bytearray()
        for key, raw in items.items():
            if len(raw) > ROW - 1:
                raise CompileError([Diagnostic(
                    "error", f"a name of {len(raw) - 1} characters: the tables keep "
                    f"names of at most {ROW - 2}")])
            position = -(-position // unit) * unit
            if position // ROW != (position + len(raw) - 1) // ROW or \
                    (position + len(raw)) % ROW == 0:
                position = -(-position // ROW) * ROW       # the next row
            if position >> shift > MAX_INDEX:
                break
            data.extend(b"\0" * (position - len(data)))
            offsets[key] = position >> shift
            data.extend(raw)
            position += len(raw)
        else:
            return shift, offsets, [bytes(data[k:k + ROW]) for k in range(0, len(data), ROW)]
    raise CompileError([Diagnostic(
        "error", "the names of this specification take more than 1 MiB: the tables' "
        "16-bit name offsets cannot reach them (split the specification)")])


class _Pool:
    """A string pool with each string once (offset 0: the empty string)."""

    def __init__(self):
        self.strings: dict[str, None] = {"": None}     # in the order first added

    def add(self, text: str) -> str:
        """Returns the string itself: offsets are given once the pool is complete."""
        self.strings.setdefault(text)
        return text

    def layout(self, shifts=range(0, 5)) -> tuple[int, dict[str, int], list[bytes]]:
        return _rows({text: text.encode("utf-8") + b"\0" for text in self.strings}, shifts)


# A name's words: a module's prefix ("Module."), revision suffixes ("-r13", "-v1310"), then
# runs of capitals, capitalized or lower-case words and digits, each with its hyphen
_WORD = re.compile(r"^[^.]*\.|-[rv][0-9]+|-?[A-Z]+(?![a-z])|-?[A-Z]?[a-z]+|-?[0-9]+|.")
# the octets that stand for the common words: 0x01..0x1F, then 0x80..0xBF
COMMON_CODES = list(range(0x01, 0x20)) + list(range(0x80, 0xC0))
WORD_OFFSET_MAX = 0x3EFF     # a 2-octet code 0xC0 | hi, lo (hi < 0x3F): a word's offset
REFERENCE = 0xFF             # then hi, lo: the rest of the name is name number hi << 8 | lo
NAME_STRIDE = 32             # asn1h.h's ASN1H_NAME_STRIDE: names between two index entries
NAME_MAX = 255               # asn1h.h's ASN1H_NAME_MAX - 1


def name_words(name: str) -> list[str]:
    return _WORD.findall(name)


def _printable(word: str) -> bool:
    """Whether a word can stand in a name's codes as its characters."""
    return all(" " <= c <= "~" for c in word)


class _NamePool:
    """Names as codes (docs/runtime.md, "Names").  A word used once is written as its
    characters; a word used more is kept once in a string pool and written as a 2-octet
    code, or as a 1-octet one for the 95 that this saves the most.  The names follow each
    other in the order of their numbers, a name that came before as a reference to it
    when that is shorter, with the start of every 32nd in an index."""

    def __init__(self):
        self.names: dict[str, None] = {"": None}     # in the order first added

    def add(self, text: str) -> str:
        """Returns the name itself: it is coded once every name is known."""
        if len(text.encode("utf-8")) > NAME_MAX:
            raise CompileError([Diagnostic(
                "error", f"the name {text[:40]}... has {len(text)} characters: the tables "
                f"keep names of at most {NAME_MAX}")])
        self.names.setdefault(text)
        return text

    def codes(self) -> tuple[dict[str, bytes], list[bytes], list[int]]:
        """(each name's codes with their ending 0, the words' rows, the common words'
        offsets)."""
        words_of = {n: name_words(n) for n in self.names}
        uses: dict[str, int] = {}
        for words in words_of.values():           # first appearance breaks ties
            for word in words:
                uses[word] = uses.get(word, 0) + 1
        size = {w: len(w.encode("utf-8")) for w in uses}

        def as_code(w: str) -> bool:              # a 2-octet code takes fewer octets
            return not _printable(w) or size[w] + 1 + 2 * uses[w] < size[w] * uses[w]

        def saving(w: str) -> int:                # of a 1-octet code, and its 2 in the table
            cheapest = size[w] + 1 + 2 * uses[w] if as_code(w) else size[w] * uses[w]
            return cheapest - (size[w] + 3 + uses[w])
        common = [w for w in sorted(uses, key=lambda w: -saving(w))[:len(COMMON_CODES)]
                  if saving(w) > 0]
        coded = sorted((w for w in uses if w not in common and as_code(w)), key=_printable)
        while True:                               # common words last: any offset will do
            pool = _Pool()
            for w in coded + common:
                pool.add(w)
            _, at, rows = pool.layout(shifts=(0,))
            reached = [w for w in coded if at[w] <= WORD_OFFSET_MAX]
            if len(reached) == len(coded):
                break
            if not all(map(_printable, coded[len(reached):])):
                raise CompileError([Diagnostic(
                    "error", "the names of this specification hold more than 16 KB of "
                    "words that are not printable ASCII")])
            coded = reached                       # the others written as characters
        code_of = {w: bytes([0xC0 | at[w] >> 8, at[w] & 0xFF]) for w in coded}
        code_of.update((w, bytes([c])) for w, c in zip(common, COMMON_CODES))
        encoded = {name: b"".join(code_of.get(w) or w.encode("utf-8") for w in words) + b"\0"
                   for name, words in words_of.items()}
        return encoded, rows, [at[w] for w in common]

    def layout(self, numbered: list[str]) -> tuple[int, list[int], bytes, list[bytes],
                                                    list[int]]:
        """The names `numbered` lists (each added), in that order: (shift, the index,
        the codes, the words' rows, the common words' offsets)."""
        encoded, rows, common = self.codes()
        for shift in range(0, 5):                 # the index points at multiples of 1 << shift
            data, index, first = bytearray(), [], {}
            for number, name in enumerate(numbered):
                if number % NAME_STRIDE == 0:
                    data.extend(b"\0" * (-len(data) % (1 << shift)))
                    index.append(len(data) >> shift)
                earlier = first.get(name)
                if earlier is not None and len(encoded[name]) > 3:
                    data.extend(bytes([REFERENCE, earlier >> 8, earlier & 0xFF]))
                    continue
                data.extend(encoded[name])
                if number <= 0xFFFF:
                    first.setdefault(name, number)
            if not index or index[-1] <= MAX_INDEX:
                return shift, index, bytes(data), rows, common
        raise CompileError([Diagnostic(
            "error", "the names of this specification take more than 1 MiB: the tables' "
            "16-bit name index cannot reach them (split the specification)")])


class _Builder:
    def __init__(self, layout: Layout, spec_symbol: str, members_symbol: str):
        self.layout = layout
        self.spec = spec_symbol
        self.members_symbol = members_symbol
        self.t = Tables()
        self.pool = _NamePool()
        self.profile_pool = _Pool()
        self.defaults = {symbol: (ctype, init) for ctype, symbol, init in layout.defaults}
        self.table_defaults: dict[tuple, list] = {}   # member table key -> DEFAULT symbols
        self.records: dict[tuple, int] = {}           # (check, per) -> constraint record

    def owner(self, t: TypeLayout) -> TypeLayout:
        """The layout owning t's members: itself, or the type an alias names."""
        if t.node.alias_of is None:
            return t
        return self.layout.types[self.layout.graph.target(t.node.id).id]

    def build(self) -> Tables:
        descriptors = self.layout.descriptors
        index_of = self.share_entries(descriptors)
        order: list[TypeLayout] = []
        for t in descriptors:
            if index_of[id(t)] == len(order):
                order.append(t)
        if len(order) > MAX_INDEX:
            raise _too_many("types")
        for t in descriptors:
            t.table_index = index_of[id(t)]
            t.ref = f"{self.spec}.types[{t.table_index}]"
        member_tables: dict[tuple, int] = {}
        enum_items = self.enum_tables(order)
        for t in order:
            self.t.types.append(self.type_entry(t, member_tables, enum_items))
        if self.layout.ber_forms:               # every BER program may meet them
            self.t.codecs.add("ber_forms")
        if not self.layout.ber:                 # a PER program calls none of BER's parts
            self.t.codecs &= PER_CODECS
        for t in descriptors:                  # the types that share an entry share all
            rep = order[t.table_index]
            t.members_first = rep.members_first
            t.members_ref = f"({self.members_symbol} + {t.members_first})"
            for m in t.members:
                m.desc = self.layout.types[m.node_id].ref
                m.desc_index = self.layout.types[m.node_id].table_index
        sharing = {}
        for t in descriptors:
            sharing[t.table_index] = sharing.get(t.table_index, 0) + 1
        for k, t in enumerate(order):           # counted together: their built-in's name
            name = t.shared_name or (t.node.builtin if sharing[k] > 1 else t.node.id)
            self.t.profile_names.append(self.profile_pool.add(name))
        self.t.defaults.sort(key=lambda d: d.member)
        numbered = [e.name for e in self.t.types] + [m.name for m in self.t.members] + \
            self.t.enum_names                  # as asn1h.h numbers names
        (self.t.name_shift, self.t.name_index, self.t.names, self.t.string_rows,
         self.t.common_words) = self.pool.layout(numbered)
        self.t.profile_shift, offsets, self.t.profile_rows = self.profile_pool.layout()
        self.t.profile_names = [offsets[n] for n in self.t.profile_names]
        return self.t

    # -- which descriptors share an entry ------------------------------------------------
    def share_entries(self, descriptors: list[TypeLayout]) -> dict[int, int]:
        """id(layout) -> the index of its entry: anonymous primitive types with the same
        entry share one."""
        seen: dict[tuple, int] = {}
        index_of: dict[int, int] = {}
        for t in descriptors:
            key = self.class_key(t)
            index = len(seen) if key is None or key not in seen else seen[key]
            if key is None:
                seen[("own", id(t))] = index
            else:
                seen.setdefault(key, index)
            index_of[id(t)] = index
        return index_of

    def class_key(self, t: TypeLayout) -> Optional[tuple]:
        """What makes two anonymous primitive types one entry; None for a type that keeps
        its own: named ones keep their names, and constructed ones their own counters and
        routines, which profiles and the selection tell apart (they share their member
        tables instead)."""
        if not t.node.is_anonymous or t.kind in _CONSTRUCTED or t.node.alias_of is not None:
            return None
        return (t.kind, tuple(t.flags), t.storage, t.node.tags, tuple(t.enum_items),
                t.enum_root, tuple(t.open_entries), t.open_key_member, t.node.builtin,
                t.shared_name, t.universal, t.check, t.per)

    # -- member tables -------------------------------------------------------------------
    @staticmethod
    def table_order(owner: TypeLayout) -> list[MemberLayout]:
        """A SET's members in DER order (the interpreter encodes in table order)."""
        if owner.der_order:
            return [owner.members[i] for i in owner.der_order]
        return owner.members

    def member_table(self, t: TypeLayout, tables: dict[tuple, int]) -> int:
        """The index of t's first member, after emitting its table unless an identical
        one exists."""
        owner = self.owner(t)
        members = self.table_order(owner)
        entries = [self.member_entry(m) for m in members]
        if owner.unknown_at is not None:
            # the extension entry: where unknown additions come and where they are kept
            entries.append(MemberEntry(owner.unknown_at, f"offsetof({owner.cname}, unknown_)",
                                       self.group_list(members), [], None, self.pool.add("")))
        # the same members, defaults and C layout: the same bytes
        key = (tuple((e.type, e.tag, tuple(e.flags), e.bit, e.name,
                      self.defaults.get(m.default) if m.default else None)
                     for e, m in zip(entries, members)),
               tuple((m.ctype, m.pointer) for m in owner.members), owner.present_bytes,
               owner.kind, owner.unknown_at, tuple(m.group for m in members))
        for slot, m in enumerate(members):
            m.slot = slot
        if key in tables:                   # its defaults are the first table's too
            for m, first_default in zip(members, self.table_defaults[key]):
                m.default = first_default
            return tables[key]
        self.table_defaults[key] = [m.default for m in members]
        first = len(self.t.members)
        if first + len(entries) > MAX_INDEX:
            raise _too_many("members")
        tables[key] = first
        for slot, (entry, m) in enumerate(zip(entries, members)):
            if m.default:
                der = m.default_der
                self.t.defaults.append(Default(first + slot, m.default, der,
                                               self.data_offset(der) if der is not None else 0))
        self.t.members.extend(entries)
        return first

    def group_list(self, members: list[MemberLayout]) -> str:
        """The extension entry's `tag`: 0, or when additions are grouped ([[ ]]), 1 + the
        index in the tag pool of {count, then for each extension member: 2 * the number
        of its addition, plus 1 in a group} (PER encodes a group as one addition)."""
        codes = [2 * m.addition + (m.group is not None) for m in members
                 if "ASN1H_M_EXTENSION" in m.flags]
        if not self.layout.per or not any(m.group is not None for m in members):
            return "0"
        index = len(self.t.tags)
        self.t.tags.append(str(len(codes)))
        self.t.tags.extend(str(c) for c in codes)
        return str(index + 1)

    def member_entry(self, m: MemberLayout) -> MemberEntry:
        """The member's `tag` is the outermost tag of its encoding (its own, or its
        type's): matching a member then reads the member alone."""
        flags = list(m.flags)
        tag = "0"
        if m.tags:
            first = m.tags[0]
            if first.number <= PACKED_MAX:
                tag = packed_tag(first)
            else:
                tag = str(len(self.t.tags))
                self.t.tags.append(full_tag(first))
                flags.append("ASN1H_M_LONG_TAG")
        target = self.layout.types[m.node_id]
        if ("ASN1H_M_POINTER" in flags or "ASN1H_M_LONG_TAG" in flags
                or _has_tag_list(target.node.tags, _has_own_tlv(target.kind))):
            self.t.codecs.add("general_tags")   # the decoder's general route of tags
        if m.default_copied:
            flags.append("ASN1H_M_DEFAULT_VALUE")
        if m.default and not m.pointer and (
                "ASN1H_M_DEFAULT_VALUE" in flags
                or self.layout.types[m.node_id].kind not in ZERO_TESTED_INLINE):
            self.t.codecs.add("defaults")       # the encoder's general test (is_default)
        return MemberEntry(self.layout.types[m.node_id].table_index, m.offset, tag, flags,
                           m.bit, self.pool.add(m.name))

    # -- type entries --------------------------------------------------------------------
    def tag_fields(self, tags: tuple[Tag, ...], own_tlv: bool) -> tuple[str, list[str]]:
        """(tag field, extra flags): one tag packed, else an index of the tag pool.  A
        tagged CHOICE or open type (whose tags are all explicit wrappers) always takes
        the pool, so that a packed tag means "the identifier of the type's own TLV"."""
        if not tags:
            return "0", []
        if not _has_tag_list(tags, own_tlv):
            return packed_tag(tags[0]), []
        index = len(self.t.tags)
        self.t.tags.append(str(len(tags)))
        self.t.tags.extend(full_tag(tag) for tag in tags)
        return str(index), ["ASN1H_T_TAG_LIST"]

    def type_entry(self, t: TypeLayout, member_tables: dict, enum_items: dict) -> TypeEntry:
        node = t.node
        tag, tag_flags = self.tag_fields(node.tags, _has_own_tlv(t.kind))
        entry = TypeEntry(t.kind, list(t.flags) + tag_flags, f"sizeof({t.cname})", tag,
                          comment=t.shared_name or node.id)
        if not node.is_anonymous or t.shared_name:
            entry.name = self.pool.add(t.shared_name or node.id)
        kind = t.kind
        if kind in _CONSTRUCTED:
            t.members_first = entry.first = self.member_table(t, member_tables)
            entry.count = len(self.owner(t).members)
            if t.layouts_door:                  # asn1h_decode opens its door first
                entry.flags.append("ASN1H_T_LAYOUTS")
            if t.compiled or t.fast_encoder:
                self.t.routines.append((t.fast_decoder or t.decoder,
                                        t.fast_encoder or t.encoder))
                owner = self.owner(t)
                per = t.compiled and has_per_routines(self.layout, owner)
                self.t.per_routines.append(per_names(owner) if per else ("NULL", "NULL"))
                entry.aux = str(len(self.t.routines))
                if self.layout.ber:             # a build without BER has no BER routines
                    entry.flags.append("ASN1H_T_COMPILED")
                if per:
                    entry.flags.append("ASN1H_T_PER_COMPILED")
            if t.keep_encoding:                 # SEQUENCE, SET: where the TLV is kept
                entry.extra = f"offsetof({t.cname}, encoding_) + 1"
            if kind == "ASN1H_CHOICE":
                members = self.owner(t).members
                roots = root_members(self.owner(t))
                if roots and members[:len(roots)] == roots and ranked_roots(roots) == roots:
                    entry.flags.append("ASN1H_T_DENSE")     # alternative i's PER index: i
                    entry.extra = len(roots)
            if kind == "ASN1H_SET":             # its contents in any order
                self.t.codecs.add("set")
            if "ASN1H_T_EXTENSIBLE" in t.flags or "ASN1H_T_OPEN_MEMBERS" in t.flags:
                self.t.codecs.add("received")
            if "ASN1H_T_OPEN_MEMBERS" in t.flags:   # resolved through their tables
                self.t.codecs.add("open_types")
            if "ASN1H_T_EXTENSIBLE" in t.flags:     # unknown extensions kept
                self.t.codecs.add({"ASN1H_SEQUENCE": "extensions", "ASN1H_SET": "extensions",
                                   "ASN1H_CHOICE": "choice_extensions"}[kind])
                if kind == "ASN1H_SET":
                    self.t.codecs.add("set_extensions")
        elif kind == "ASN1H_INTEGER":
            entry.aux = t.storage
        elif kind == "ASN1H_ENUMERATED":
            items, root = self.enum_of(t)
            dense = [v for _, v in items] == list(range(len(items)))
            if dense:
                entry.flags.append("ASN1H_T_DENSE")
            entry.first = enum_items[tuple(items)]
            entry.count = len(items)
            entry.aux = t.storage
            entry.extra = root
            self.t.codecs.add("enumerated")
            if "ASN1H_T_EXTENSIBLE" in t.flags:     # the encoder looks at its numbers
                self.t.codecs.add("extensible_enumerated")
        elif kind == "ASN1H_BYTES":
            entry.aux = str(t.universal)
            if t.universal in (23, 24):
                self.t.codecs.add("time")
        elif kind == "ASN1H_REAL":
            self.t.codecs.add("real")
        if t.check or t.per:
            entry.extra = self.constraint_record(t.check or RuntimeCheck(), t.per) + 1
            self.t.codecs.add("size_check" if _checked_inline(kind, t, t.check)
                              else "number_check" if _checked_by_numbers(kind, t, t.check)
                              else "check")
        if kind == "ASN1H_OPEN" or t.open_entries:
            self.t.codecs.add("received")
        if t.open_entries:
            self.t.codecs.add("open_types")
            entry.first = len(self.t.open)
            entry.count = len(t.open_entries)
            entry.extra = t.open_key_member + 1  # never 0 (aux stays a BYTES type's universal tag)
            for key, target in t.open_entries:
                self.t.open.append((self.data_offset(key), len(key),
                                    self.layout.types[target].table_index))
        return entry

    def constraint_record(self, check: RuntimeCheck, per: Optional[PerVisible]) -> int:
        """The index of the asn1h_constraint record of `check` and `per`, added once."""
        flags, pairs = per_pairs(per, self.bound_offset)
        if per_decides(check, per):
            flags.append("ASN1H_PER_DECIDES")
        key = (check, per)
        if key in self.records:
            return self.records[key]
        first = self.bounds_pair(list(check.values) + list(check.sizes) + list(check.chars))
        per_first = self.bounds_pair(pairs) if pairs else 0
        if len(self.t.constraints) >= MAX_INDEX:
            raise _too_many("constraints")
        self.t.constraints.append((first, len(check.values), len(check.sizes),
                                   len(check.chars), " | ".join(flags) or "0", per_first,
                                   len(per.chars) if per else 0))
        self.records[key] = len(self.t.constraints) - 1
        return self.records[key]

    def bound_offset(self, bound: int) -> int:
        """The offset in spec->data of a PER bound beyond 64 bits: a count octet, then
        its two's-complement octets (shared with equal octets already there)."""
        octets = bound.to_bytes(bound.bit_length() // 8 + 1, "big", signed=True)
        return self.data_offset(bytes([len(octets)]) + octets)

    def data_offset(self, blob: bytes) -> int:
        """The offset of `blob` in spec->data, shared with equal octets already there.  The
        pool is never empty once asked for, so that an empty blob's address is not NULL."""
        offset = self.t.data.find(blob) if self.t.data else -1
        if offset < 0:
            offset = len(self.t.data)
            self.t.data += blob or b"\0"
        if offset + len(blob) > MAX_INDEX:
            raise _too_many("octets of table keys, DEFAULT values and bounds")
        return offset

    def bounds_pair(self, pairs: list) -> int:
        """The index of the first of `pairs` in spec->bounds, where they follow each other
        (shared with an earlier record's when they are the same)."""
        flat = [n for pair in pairs for n in pair]
        for start in range(0, len(self.t.bounds) - len(flat) + 1, 2):
            if self.t.bounds[start:start + len(flat)] == flat:
                return start // 2
        first = len(self.t.bounds) // 2
        if first + len(pairs) > MAX_INDEX:
            raise _too_many("constraint intervals")
        self.t.bounds.extend(flat)
        return first

    def enum_tables(self, order: list[TypeLayout]) -> dict[tuple, int]:
        """Every ENUMERATED's items, once per list of items: those whose values are not
        0, 1, 2, ... first, so that spec->enum_values needs to cover only them."""
        lists = [tuple(self.enum_of(t)[0]) for t in order if t.kind == "ASN1H_ENUMERATED"]
        sparse = [items for items in lists if [v for _, v in items] != list(range(len(items)))]
        first: dict[tuple, int] = {}
        for items in sparse + lists:
            if items not in first:
                first[items] = len(self.t.enum_names)
                self.t.enum_names.extend(self.pool.add(name) for name, _ in items)
                if items in sparse:
                    self.t.enum_values.extend(v for _, v in items)
        if len(self.t.enum_names) > MAX_INDEX:
            raise _too_many("enumeration items")
        return first

    def enum_of(self, t: TypeLayout) -> tuple[list[tuple[str, int]], int]:
        """The items (root first, then additions) and the root's count of an ENUMERATED,
        from the type an alias names when t is one."""
        target = self.layout.types[self.layout.graph.target(t.node.id).id]
        return target.enum_items, target.enum_root


def per_pairs(per: Optional[PerVisible], bound_offset: Callable[[int], int]
              ) -> tuple[list[str], list[tuple[int, int]]]:
    """The ASN1H_PER_* flags of a PER-visible constraint and its pairs of bounds; values'
    bounds beyond 64 bits as the offsets `bound_offset` gives them (-1: no upper bound),
    with ASN1H_PER_BIG."""
    flags: list[str] = []
    pairs: list[tuple[int, int]] = []
    if not per:
        return flags, pairs
    if per.values is not None:
        lo, hi = per.values
        big = big_bounds(per.values)
        if lo is not None:
            flags.append("ASN1H_PER_LB")
        if hi is not None and not big:      # big: ASN1H_PER_LB alone, which the usual
            flags.append("ASN1H_PER_UB")    # numbers' paths pass by
        if big:
            flags.append("ASN1H_PER_BIG")
            pairs.append((bound_offset(lo), -1 if hi is None else bound_offset(hi)))
        elif lo is not None or hi is not None:
            # an upper bound beyond INT64_MAX (its lower bound is not negative) as its
            # int64_t pattern, below the lower bound: the runtime reads it as unsigned
            pairs.append((INT64_MIN if lo is None else lo,
                          INT64_MAX if hi is None else hi - 2**64 if hi > INT64_MAX else hi))
    if per.value_ext:
        flags.append("ASN1H_PER_VALUE_EXT")
    if per.sizes is not None:
        lo, hi = per.sizes
        flags.append("ASN1H_PER_SIZE")
        if hi is not None:
            flags.append("ASN1H_PER_SIZE_UB")
        pairs.append((lo, INT64_MAX if hi is None else hi))
    if per.size_ext:
        flags.append("ASN1H_PER_SIZE_EXT")
    if per.chars:
        flags.append("ASN1H_PER_CHARS")
        pairs.extend(per.chars)
    return flags, pairs


def build_tables(layout: Layout, spec_symbol: str, members_symbol: str) -> Tables:
    """The tables of `layout`; also sets, on every type and member layout, the C
    expressions templates use to name entries (`ref`, `members_ref`, `slot`...)."""
    return _Builder(layout, spec_symbol, members_symbol).build()
