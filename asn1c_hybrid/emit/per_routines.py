"""Compiled PER routines (X.691; docs/runtime.md, "PER"): a compiled SEQUENCE's, SET's,
CHOICE's or list's decoder and encoder for both variants, unaligned and aligned, beside
its BER routines.

They do inline what the generator knows: the extension bit, the preamble of the OPTIONAL
and DEFAULT members read or written as one number, the rank of each root alternative, and
the members of the common kinds (BOOLEAN, NULL, and INTEGER and ENUMERATED whose
PER-visible constraint is all their constraint), with their bounds as constants; an
extensible one inline while it is in its root (an extensible INTEGER, stored as a big
number, while it holds no big one), by the tables (from its extension bit) otherwise.
Mandatory members in a row that go as bit-fields (BOOLEAN, NULL, numbers of a range of 1
to 254) are read and written as one number while in their root (`fused_runs`), as are an
extensible SEQUENCE's extension bit and preamble and an extensible CHOICE's extension bit
and index; out of their root, the tables take the group member by member.
BIT STRING (without named bits), OCTET STRING and the known-multiplier strings without a
PER-visible FROM go through asn1h_per_string and asn1h_per_put_string, with a shape of
their sizes and characters worked out here, as the tables' bounds_of and alphabet_of
would at run time; short ones of characters that go as their own values through
asn1h_per_short_string and asn1h_per_put_short_string (`_short_string`).  Every
other member goes through asn1h_per_member (the tables, or its own type's compiled
routine), and extension additions through the tables, so that a compiled type and an
interpreted one call each other at every level, as in BER.  A list's count goes through
asn1h_per_items and asn1h_per_put_items (the tables' reading of it; a count in 16K
fragments is left to the tables), its elements inline when they are of the common kinds.
A type they cannot serve (more than 64 OPTIONAL members, a CHOICE without root
alternatives) has no PER routines: the tables encode it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..typegraph import Kind
from .constraints import per_decides
from .layout import STORAGE_RANGES, Layout, MemberLayout, TypeLayout, integer_storage

MAX_PREAMBLE = 64                   # OPTIONAL and DEFAULT root members read as one number
FUSED_BITS = 57                     # what asn1h_per_peek and asn1h_per_put_bits take at once
_LISTS = (Kind.SEQUENCE_OF, Kind.SET_OF)


@dataclass
class PerRoutines:
    """The PER decoder and encoder of one compiled type (C definitions)."""
    type: TypeLayout
    decoder: str
    encoder: str
    code: list[str]


@dataclass
class _Inline:
    """A member read and written inline: `kind` bool, null, number (an INTEGER or
    ENUMERATED whose value less `low` is a constrained whole number up to `range`), or
    string (through asn1h_per_string with the asn1h_per_shape `shape`); `tests`: C
    conditions on the value `{acc}` that must hold to encode it inline."""
    kind: str
    low: int = 0
    range: int = 0
    ctype: str = ""
    tests: tuple[str, ...] = ()
    extensible: bool = False        # an extension bit first: 0 inline, 1 by the tables
    shape: str = ""                 # string: the asn1h_per_shape initializer
    short: bool = False             # string: asn1h_per_short_string's kind (_short_string)
    field: str = ""                 # number: ".v" of a big one (asn1h_int)


# The repertoires of the known-multiplier strings by universal tag, as the tables'
# alphabet_of (asn1h_per.c) has them: (lowest, count, largest, numeric); count 0 is 2^32.
_REPERTOIRES = {18: (0, 11, ord("9"), 1), 19: (32, 74, ord("z"), 0), 22: (0, 128, 127, 0),
                26: (32, 95, 126, 0), 30: (0, 65536, 65535, 0), 28: (0, 0, 0xFFFFFFFF, 0)}
_UNITS = {30: 2, 28: 4}


def _character_bits(count: int, largest: int, numeric: int, aligned: bool) -> tuple[int, int]:
    """Bits per character and whether characters go as indices (X.691 30.5.2-30.5.4)."""
    bits = ((count or 2**32) - 1).bit_length()
    if aligned:                         # 1, 2, 4, 8, 16 or 32
        bits = 1 << (bits - 1).bit_length() if bits > 1 else 1
    return bits, int(bool(numeric) or (bits < 32 and largest >= 1 << bits))


def _string_shape(t: TypeLayout) -> Optional[str]:
    """The asn1h_per_shape of a string type that compiled routines read and write
    themselves: a BIT STRING without named bits, an OCTET STRING that holds no open type,
    a known-multiplier string without a PER-visible FROM; None for the others."""
    per = t.per
    kind = t.kind
    if per is not None and per.chars:
        return None
    if kind == "ASN1H_BIT_STRING":
        if "ASN1H_T_NAMED_BITS" in t.flags:
            return None
        form, chars = "ASN1H_PER_BIT_STRING", (0, 0, 0, 0)
    elif kind == "ASN1H_BYTES" and t.universal == 4 and "ASN1H_T_CONTAINING" not in t.flags:
        form, chars = "ASN1H_PER_OCTETS", (0, 0, 0, 0)
    elif kind == "ASN1H_BYTES" and t.universal in _REPERTOIRES:
        form, chars = "ASN1H_PER_CHARACTERS", _REPERTOIRES[t.universal]
    else:
        return None
    flags, low, high = [], 0, 0
    if per is not None and per.sizes is not None:
        flags.append("ASN1H_PER_SIZE")
        low, high = per.sizes[0], per.sizes[1]
        if high is not None:
            flags.append("ASN1H_PER_SIZE_UB")
        if per.size_ext:
            flags.append("ASN1H_PER_SIZE_EXT")
    lowest, count, largest, numeric = chars
    (ubits, uindexed), (abits, aindexed) = (
        _character_bits(count, largest, numeric, aligned) for aligned in (False, True)) \
        if form == "ASN1H_PER_CHARACTERS" else ((0, 0), (0, 0))
    top = "UINT64_C(0x7FFFFFFFFFFFFFFF)" if high is None else f"UINT64_C({high})"
    return (f"{{ {form}, {' | '.join(flags) or '0'}, {_UNITS.get(t.universal, 1)}, "
            f"{numeric}, {{ {ubits}, {abits} }}, {{ {uindexed}, {aindexed} }}, "
            f"{lowest}u, {count}u, {largest}u, UINT64_C({low}), {top} }}")


def _short_string(t: TypeLayout) -> bool:
    """Whether a string of _string_shape is one for asn1h_per_short_string: characters
    that go as their own values, in 7 bits or fewer in UPER and as octets in APER, one
    octet each in C, of SIZE (lb..ub) with ub - lb < 255 (a length of 8 bits at most)."""
    per = t.per
    if t.kind != "ASN1H_BYTES" or t.universal not in _REPERTOIRES \
            or _UNITS.get(t.universal, 1) != 1:
        return False
    if per is None or per.sizes is None or per.sizes[1] is None:
        return False
    _, count, largest, numeric = _REPERTOIRES[t.universal]
    if _character_bits(count, largest, numeric, True) != (8, 0):
        return False
    bits, indexed = _character_bits(count, largest, numeric, False)
    return 0 < bits < 8 and not indexed and per.sizes[1] - per.sizes[0] < 255


def root_members(t: TypeLayout) -> list[MemberLayout]:
    """The root members in the order PER writes them: a SET's in the canonical order of
    their tags (X.691 21), as its member table holds them."""
    members = [t.members[i] for i in t.der_order] if t.der_order else t.members
    return [m for m in members if "ASN1H_M_EXTENSION" not in m.flags]


def _optional(m: MemberLayout) -> bool:
    return "ASN1H_M_OPTIONAL" in m.flags or "ASN1H_M_DEFAULT" in m.flags


def has_per_routines(layout: Layout, t: TypeLayout) -> bool:
    """Whether compiled type t gets PER routines (else the tables encode it in PER)."""
    if not layout.per or not t.compiled or t.node.alias_of is not None:
        return False
    roots = root_members(t)
    if t.node.kind in (Kind.SEQUENCE, Kind.SET):
        return sum(_optional(m) for m in roots) <= MAX_PREAMBLE
    return t.node.kind in _LISTS or (t.node.kind == Kind.CHOICE and bool(roots))


def _inline(layout: Layout, m: MemberLayout) -> Optional[_Inline]:
    if "ASN1H_M_POINTER" in m.flags:
        return None
    kind = m.target.kind
    if kind == Kind.BOOLEAN:
        return _Inline("bool")
    if kind == Kind.NULL:
        return _Inline("null")
    member_type = layout.types[m.node_id]
    if kind in (Kind.BIT_STRING, Kind.BYTES):
        shape = _string_shape(member_type)
        check = member_type.check
        if shape is None or (check and not per_decides(check, member_type.per)):
            return None                 # more than PER sees: asn1h_check judges it
        return _Inline("string", shape=shape, short=_short_string(member_type))
    storage, ctype = integer_storage(m.target)
    if kind == Kind.ENUMERATED:
        enum = layout.types[m.target.id]
        extensible = bool(m.target.extensible)
        root = enum.enum_root if extensible else len(enum.enum_items)
        values = [v for _, v in enum.enum_items[:root]]
        if member_type.check or not root or values != list(range(root)):
            return None
        return _Inline("number", 0, root - 1, ctype, (f"(uint64_t){{acc}} <= {root - 1}u",),
                       extensible)
    # an extensible INTEGER is stored as a big number (asn1h_int): its root inline, as
    # `v`, while `big` is NULL
    big = storage == "ASN1H_INT_BIG"
    if kind != Kind.INTEGER or (storage not in STORAGE_RANGES and not big):
        return None
    per, check = member_type.per, member_type.check
    if per is None or per.values is None or per.sizes or per.chars or \
            (big and not per.value_ext):
        return None
    low, high = per.values
    c_low, c_high = (-2**63, 2**63 - 1) if big else STORAGE_RANGES[storage]
    if low is None or high is None or not (c_low <= low <= high <= min(c_high, 2**63 - 1)):
        return None
    if check and not per_decides(check, per):
        return None                     # more than PER sees: asn1h_check judges it
    literal = (lambda v: f"UINT64_C({v})") if ctype == "uint64_t" else _literal
    tests = ([f"{{acc}} >= {literal(low)}"] if low > c_low else []) + \
            ([f"{{acc}} <= {literal(high)}"] if high < c_high else [])
    if big:
        tests = ["{acc}.big == NULL"] + [t.replace("{acc}", "{acc}.v") for t in tests]
    return _Inline("number", low, high - low, "int64_t" if big else ctype, tuple(tests),
                   bool(per.value_ext), field=".v" if big else "")


def per_class(layout: Layout, m: MemberLayout) -> str:
    """The calibrated model's PER class of member m: `inline` (a BOOLEAN, NULL or number
    that compiled PER routines read and write themselves), `string` (one they read and
    write through asn1h_per_string) or `generic` (by asn1h_per_member)."""
    how = _inline(layout, m)
    return "generic" if how is None else "string" if how.kind == "string" else "inline"


def _fixed_bits(how: Optional[_Inline]) -> Optional[int]:
    """The bits of a member that goes as a bit-field of the same width in both variants
    while its value is in its root (a BOOLEAN, NULL, or a number of range 1 to 254, after
    its extension bit), else None."""
    if how is None or how.kind == "string":
        return None
    if how.kind in ("bool", "null"):
        return int(how.kind == "bool")
    return how.range.bit_length() + how.extensible if 1 <= how.range <= 254 else None


def fused_runs(layout: Layout, roots: list[MemberLayout]) -> list[list[MemberLayout]]:
    """The groups of consecutive mandatory bit-fields among the root members (at most
    FUSED_BITS bits a group) worth one read: two fields or more with bits.  Each is read
    and written as one number, its fields taken apart with shifts (Dabbous & Diot's fused
    passes, USC's word-wide moves); every other member goes its own way."""
    runs: list[list[MemberLayout]] = []
    fields: list[int] = []              # each run's fields with bits
    bits: Optional[int] = None          # the last run's, None when nothing may join it
    for m in roots:
        n = None if _optional(m) else _fixed_bits(_inline(layout, m))
        if n is not None and bits is not None and bits + n <= FUSED_BITS:
            runs[-1].append(m)
            bits += n
        else:
            runs.append([m])
            fields.append(0)
            bits = n
        fields[-1] += bool(n)
    return [run for run, count in zip(runs, fields) if count >= 2]


def _fused_groups(layout: Layout, roots: list[MemberLayout]) -> dict[int, list[MemberLayout]]:
    """The groups of fused_runs by the id of each of their members."""
    return {id(m): run for run in fused_runs(layout, roots) for m in run}


def _bit_field(shift: int, width: int, total: int) -> str:
    """The `width` bits of x above its lowest `shift`, of a number of `total` bits."""
    field = f"x >> {shift}" if shift else "x"
    return f"({field})" if shift + width == total else f"({field} & {hex((1 << width) - 1)}u)"


def _literal(v: int) -> str:
    return "INT64_MIN" if v == -2**63 else f"INT64_C({v})"


class _Shapes:
    """The asn1h_per_shape objects of a spec's compiled string members, one per shape."""
    def __init__(self, symbol: str):
        self.symbol = symbol
        self.names: dict[str, str] = {}

    def name(self, initializer: str) -> str:
        if initializer not in self.names:
            self.names[initializer] = f"{self.symbol}_per_shape{len(self.names)}"
        return self.names[initializer]

    def definitions(self) -> list[str]:
        return [f"static const asn1h_per_shape {name} = {init};"
                for init, name in self.names.items()]


class _Writer:
    def __init__(self, layout: Layout, t: TypeLayout, shapes: _Shapes):
        self.layout = layout
        self.t = t
        self.members = t.members_ref
        self.shapes = shapes

    def member(self, m: MemberLayout) -> str:
        return f"&{self.members}[{m.slot}]"

    # ---- decoding ----------------------------------------------------------------------

    def decode_member(self, m: MemberLayout, indent: str, element: bool = False) -> list[str]:
        """Member m, or the element `*item` of list element i."""
        how = _inline(self.layout, m)
        fail = (f"return asn1h_per_unwind_item(r, {self.member(m)}, i);" if element
                else f"return asn1h_per_unwind(r, {self.member(m)});")
        access = "(*item)" if element else m.access
        count = f"ASN1H_COUNT(r->d, {m.desc_index});"
        general = ([f"if (!asn1h_per_member(r, {self.member(m)}, item))",
                    "    return asn1h_per_unwind_item(r, NULL, i);"] if element else
                   [f"if (!asn1h_per_member(r, {self.member(m)}, v))", "    return 0;"])
        if how is None:
            return [f"{indent}{line}" for line in general]
        if how.kind == "null":
            return [f"{indent}{count}"]
        if how.kind == "bool":
            return [f"{indent}if (!asn1h_per_bits(r, 1, &x))", f"{indent}    {fail}",
                    f"{indent}{access} = x != 0;", f"{indent}{count}"]
        if how.kind == "string":
            call = "asn1h_per_short_string" if how.short else "asn1h_per_string"
            return [f"{indent}if (!{call}(r, &{self.shapes.name(how.shape)}, &{access}))",
                    f"{indent}    {fail}", f"{indent}{count}"]
        value = "x" if not how.low else f"{_literal(how.low)} + (int64_t)x"   # x <= range < 2^63
        number = [f"{indent}if (!asn1h_per_number(r, UINT64_C({how.range}), &x))",
                  f"{indent}    {fail}",
                  f"{indent}{access}{how.field} = ({how.ctype})({value});", f"{indent}{count}"]
        if not how.extensible:
            return number
        # outside the root: the extension bit again, and the rest, by the tables
        return ([f"{indent}if (!asn1h_per_bits(r, 1, &x))", f"{indent}    {fail}",
                 f"{indent}if (ASN1H_UNLIKELY(x)) {{", f"{indent}    r->pos--;"] +
                [f"{indent}    {line}" for line in general] + [f"{indent}}} else {{"] +
                [f"    {line}" for line in number] + [f"{indent}}}"])

    def fields(self, run: list[MemberLayout]) -> tuple[int, list[tuple[MemberLayout, _Inline,
                                                                      int]]]:
        """A group of fused_runs: its bits, and each member's way and the bits after it."""
        hows = [_inline(self.layout, m) for m in run]
        shift = total = sum(_fixed_bits(how) for how in hows)
        fields = []
        for m, how in zip(run, hows):
            shift -= _fixed_bits(how)
            fields.append((m, how, shift))
        return total, fields

    def decode_fused(self, run: list[MemberLayout]) -> list[str]:
        """A group of fused_runs: its bits peeked at once, then its fields taken apart
        while each is in its root; else member by member, by the tables."""
        total, fields_of = self.fields(run)
        checks: list[str] = []
        fields: list[str] = []
        for m, how, shift in fields_of:
            if how.kind == "bool":
                fields.append(f"{m.access} = {_bit_field(shift, 1, total)} != 0;")
            elif how.kind == "number":
                width = _fixed_bits(how) - how.extensible
                field = _bit_field(shift, width, total)
                if how.extensible:          # its extension bit must be 0
                    checks.append(f"!{_bit_field(shift + width, 1, total)}")
                if (how.range + 1) & how.range:
                    checks.append(f"{field} <= {how.range}u")
                value = field if not how.low else f"{_literal(how.low)} + (int64_t){field}"
                fields.append(f"{m.access}{how.field} = ({how.ctype})({value});")
            fields.append(f"ASN1H_COUNT(r->d, {m.desc_index});")
        test = " && ".join([f"asn1h_per_peek(r, {total}, &x)", *checks])
        return [f"    /* {', '.join(m.name for m in run)}: {total} bits at once */",
                f"    if (ASN1H_LIKELY({test})) {{", f"        r->pos += {total};",
                *[f"        {line}" for line in fields],
                "    } else {                                /* as the tables read them */",
                *[line for m in run for line in
                  (f"        if (!asn1h_per_member(r, {self.member(m)}, v))",
                   "            return 0;")],
                "    }",
                *[f"    asn1h_set_bit(v, {m.bit});" for m in run if m.bit is not None]]

    def list_decoder(self, name: str) -> list[str]:
        t, m = self.t, self.t.members[0]
        out = [f"static int {name}(asn1h_per_in *r, const asn1h_type *t, void *value)", "{",
               f"    {t.cname} *v = ({t.cname} *)value;", "    uint64_t x = 0;", "    size_t i;"]
        bounds = _count_bounds(t)
        if bounds is None:                  # the tables' reading of the count
            out += ["    int in_bounds = 1;", "    (void)x;",
                    "    switch (asn1h_per_items(r, t, v, sizeof *v->items, &in_bounds)) {",
                    "    case 0:", "        return 0;",
                    "    case 2:                                /* in fragments: by the tables */",
                    "        return 1;", "    }"]
            end = "    return in_bounds || asn1h_per_out_of_bounds(r);"
        else:                               # a constrained number: inline
            low, high = bounds
            out += ["    (void)x;"]
            if low == high:
                out += [f"    if (!asn1h_per_alloc_items(r, t, v, {low}u, sizeof *v->items))",
                        "        return 0;"]
                end = "    return 1;"
            else:
                out[-1:-1] = ["    uint64_t count;"]           # before the statement
                out += [f"    if (!asn1h_per_number(r, UINT64_C({high - low}), &count)",
                        f"        || !asn1h_per_alloc_items(r, t, v, (size_t)count + {low}u, "
                        "sizeof *v->items))", "        return 0;"]
                # a number of more bits than the range needs may exceed it
                end = ("    return 1;" if (high - low + 1) & (high - low) == 0 else
                       f"    return count <= {high - low}u || asn1h_per_out_of_bounds(r);")
        return out + ["    for (i = 0; i < v->count; i++) {",
                      f"        {m.ctype} *item = &v->items[i];",
                      "        (void)item;                         /* a NULL has nothing to store */",
                      *self.decode_member(m, "        ", element=True), "    }", end, "}"]

    def decoder(self, name: str) -> list[str]:
        t = self.t
        extensible = "ASN1H_T_EXTENSIBLE" in t.flags
        out = [f"static int {name}(asn1h_per_in *r, const asn1h_type *t, void *value)", "{",
               f"    {t.cname} *v = ({t.cname} *)value;", "    uint64_t x = 0;"]
        roots = root_members(t)
        if t.node.kind in (Kind.SEQUENCE, Kind.SET):
            optional = [m for m in roots if _optional(m)]
            if extensible:
                out.append("    uint64_t ext;")
            if optional:
                out.append("    uint64_t preamble;")
            out += ["    (void)t;", "    (void)x;", "    (void)r;",
                    "    (void)v;                                /* SEQUENCE {} reads none */"]
            n = len(optional)
            if extensible and optional and 1 + n <= FUSED_BITS:
                out += [f"    if (ASN1H_LIKELY(asn1h_per_peek(r, {1 + n}, &preamble))) {{"
                        "    /* with the extension bit */",
                        f"        r->pos += {1 + n};", f"        ext = preamble >> {n};",
                        f"        preamble &= {hex((1 << n) - 1)}u;",
                        "    } else if (!asn1h_per_bits(r, 1, &ext)",
                        f"               || !asn1h_per_bits(r, {n}, &preamble)) {{",
                        "        return 0;", "    }"]
            else:
                if extensible:
                    out += ["    if (!asn1h_per_bits(r, 1, &ext))", "        return 0;"]
                if optional:
                    out += [f"    if (!asn1h_per_bits(r, {n}, &preamble))", "        return 0;"]
            fused = _fused_groups(self.layout, roots)
            for m in roots:
                group = fused.get(id(m))
                if group is not None:
                    if m is group[0]:
                        out += self.decode_fused(group)
                    continue
                out.append(f"    /* {m.name} */")
                if not _optional(m):
                    out += self.decode_member(m, "    ")
                    if m.bit is not None:
                        out.append(f"    asn1h_set_bit(v, {m.bit});")
                    continue
                k = len(optional) - 1 - optional.index(m)
                out.append(f"    if ((preamble >> {k}) & 1) {{")
                out += self.decode_member(m, "        ")
                if m.bit is not None:
                    out.append(f"        asn1h_set_bit(v, {m.bit});")
                if "ASN1H_M_DEFAULT" in m.flags:
                    out += ["    } else {",
                            f"        asn1h_set_default(r->d, {self.member(m)}, v);"]
                out.append("    }")
            out.append("    return !ext || asn1h_per_additions(r, t, v);" if extensible
                       else "    return 1;")
        else:
            out += ["    (void)t;"]
            last = len(roots) - 1
            index = [f"if (!asn1h_per_number(r, {last}u, &x))", "    return 0;"]
            if extensible:
                index = ["if (!asn1h_per_bits(r, 1, &x))", "    return 0;",
                         "if (x)", "    return asn1h_per_addition_alternative(r, t, v);",
                         *index]
            if extensible and 1 <= last <= 254:
                n = 1 + last.bit_length()
                out += [f"    if (ASN1H_LIKELY(asn1h_per_peek(r, {n}, &x) && x <= {last}u)) {{"
                        "    /* its extension bit 0 */", f"        r->pos += {n};",
                        "    } else {", *[f"        {line}" for line in index], "    }"]
            else:
                out += [f"    {line}" for line in index]
            out += ["    switch (x) {"]
            ranked = ranked_roots(roots)
            for rank, m in enumerate(ranked):
                out.append(f"    {'default' if rank == len(ranked) - 1 else f'case {rank}'}:"
                           f" /* {m.name} */")
                out.append(f"        v->which = {m.index + 1};")
                out += self.decode_member(m, "        ")
                out.append("        return 1;")
            out.append("    }")
        return out + ["}"]

    # ---- encoding ----------------------------------------------------------------------

    def encode_member(self, m: MemberLayout, indent: str, element: bool = False) -> list[str]:
        """Member m, or the element `*item` of list element i."""
        how = _inline(self.layout, m)
        general = ([f"{indent}if (!asn1h_per_put_member(w, {self.member(m)}, item))",
                    f"{indent}    return asn1h_per_put_unwind_item(w, NULL, i);"] if element
                   else [f"{indent}if (!asn1h_per_put_member(w, {self.member(m)}, v))",
                         f"{indent}    return 0;"])
        fail = (f"return asn1h_per_put_unwind_item(w, {self.member(m)}, i);" if element
                else f"return (asn1h_enc_unwind(w->e, {self.member(m)}), 0);")
        access = "(*item)" if element else m.access
        if how is None:
            return general
        if how.kind == "null":
            return []
        if how.kind == "bool":
            return [f"{indent}if (!asn1h_per_put_bits(w, 1, {access} != 0))",
                    f"{indent}    {fail}"]
        if how.kind == "string":
            call = "asn1h_per_put_short_string" if how.short else "asn1h_per_put_string"
            return [f"{indent}if (!{call}(w, &{self.shapes.name(how.shape)}, &{access}))",
                    f"{indent}    {fail}"]
        offset = (f"(uint64_t)((int64_t){access}{how.field} - {_literal(how.low)})" if how.low
                  else f"(uint64_t){access}{how.field}")
        number = f"!asn1h_per_put_number(w, UINT64_C({how.range}), {offset})"
        # an extensible one in its root: an extension bit of 0 first
        put = ([f"{indent}if (!asn1h_per_put_bits(w, 1, 0)", f"{indent}    || {number})"]
               if how.extensible else [f"{indent}if ({number})"]) + [f"{indent}    {fail}"]
        if not how.tests:
            return put
        # a value outside the constraint: the tables refuse it, with the member's name
        test = " && ".join(x.replace("{acc}", access) for x in how.tests)
        return ([f"{indent}if (ASN1H_UNLIKELY(!({test}))) {{"] +
                [f"    {line}" for line in general] + [f"{indent}}} else {{"] +
                [f"    {line}" for line in put] + [f"{indent}}}"])

    def encode_fused(self, run: list[MemberLayout]) -> list[str]:
        """A group of fused_runs written as one number while each field is in its root
        and the output has room, else member by member, by the tables."""
        total, fields_of = self.fields(run)
        tests: list[str] = []
        parts: list[str] = []
        for m, how, shift in fields_of:
            if how.kind == "null":
                continue
            if how.kind == "bool":
                part = f"(uint64_t)({m.access} != 0)"
            else:
                tests += [x.replace("{acc}", m.access) for x in how.tests]
                part = (f"(uint64_t)((int64_t){m.access}{how.field} - {_literal(how.low)})"
                        if how.low else f"(uint64_t){m.access}{how.field}")
            parts.append(f"{part} << {shift}" if shift else part)
        test = " && ".join([*tests, f"w->cap - w->pos >= {total}u"])
        put = [f"        (void)asn1h_per_put_bits(w, {total}, {parts[0]}",
               *[f"                                 | {part}" for part in parts[1:]]]
        put[-1] += ");"                     # with the room tested: it cannot fail
        return [f"    /* {', '.join(m.name for m in run)}: {total} bits at once */",
                f"    if (ASN1H_LIKELY({test})) {{", *put,
                "    } else {                                /* as the tables write them */",
                *[line for m in run for line in
                  (f"        if (!asn1h_per_put_member(w, {self.member(m)}, v))",
                   "            return 0;")],
                "    }"]

    def list_encoder(self, name: str) -> list[str]:
        t, m = self.t, self.t.members[0]
        out = [f"static int {name}(asn1h_per_out *w, const asn1h_type *t, const void *value)",
               "{", f"    const {t.cname} *v = (const {t.cname} *)value;", "    size_t i;"]
        bounds = _count_bounds(t)
        if bounds is None:
            out += ["    switch (asn1h_per_put_items(w, t, v->count)) {",
                    "    case 0:", "        return 0;",
                    "    case 2:                                /* in fragments: by the tables */",
                    "        return asn1h_per_by_tables(w, t, v);", "    }"]
        else:
            low, high = bounds
            outside = " || ".join(([f"v->count < {low}u"] if low else []) +
                                  [f"v->count > {high}u"])
            out += [f"    if ({outside})             /* refused by the tables */",
                    "        return asn1h_per_by_tables(w, t, v);"]
            if low < high:
                offset = f"v->count - {low}u" if low else "v->count"
                out += [f"    if (!asn1h_per_put_number(w, UINT64_C({high - low}), "
                        f"(uint64_t)({offset})))", "        return 0;"]
        return out + [
                "    for (i = 0; i < v->count; i++) {",
                f"        const {m.ctype} *item = &v->items[i];",
                "        (void)item;                         /* a NULL writes nothing */",
                *self.encode_member(m, "        ", element=True), "    }",
                "    return 1;", "}"]

    def present(self, m: MemberLayout) -> str:
        if "ASN1H_M_DEFAULT" in m.flags or m.bit is None:
            return f"asn1h_member_encoded(w->e->spec, {self.member(m)}, v)"
        return f"{self.t.cname}_has_{m.field}(v)"

    def encoder(self, name: str) -> list[str]:
        t = self.t
        extensible = "ASN1H_T_EXTENSIBLE" in t.flags
        out = [f"static int {name}(asn1h_per_out *w, const asn1h_type *t, const void *value)",
               "{", f"    const {t.cname} *v = (const {t.cname} *)value;"]
        roots = root_members(t)
        if t.node.kind in (Kind.SEQUENCE, Kind.SET):
            optional = [m for m in roots if _optional(m)]
            if optional:
                out.append("    uint64_t preamble = 0;")
            out += ["    (void)t;", "    (void)w;",
                    "    (void)v;                                /* SEQUENCE {} writes none */"]
            if extensible:
                # an addition to write, known or kept from PER: the tables write it all
                additions = [f"{self.present(m)}" for m in t.members
                             if "ASN1H_M_EXTENSION" in m.flags]
                tests = ["asn1h_kept_in_per(&v->unknown_)", *additions]
                test = [f"    if ({tests[0]}", *[f"        || {x}" for x in tests[1:]]]
                test[-1] += ")"
                out += [*test, "        return asn1h_per_by_tables(w, t, v);"]
            n = len(optional)
            with_preamble = bool(extensible and optional and 1 + n <= FUSED_BITS)
            if extensible and not with_preamble:
                out += ["    if (!asn1h_per_put_bits(w, 1, 0))", "        return 0;"]
            for m in optional:
                out.append(f"    preamble = preamble << 1 | (uint64_t)({self.present(m)} != 0);")
            if optional:            # after the extension bit 0, when it fits in one write
                out += [f"    if (!asn1h_per_put_bits(w, {n + with_preamble}, preamble))",
                        "        return 0;"]
            fused = _fused_groups(self.layout, roots)
            for m in roots:
                group = fused.get(id(m))
                if group is not None:
                    if m is group[0]:
                        out += self.encode_fused(group)
                    continue
                out.append(f"    /* {m.name} */")
                if not _optional(m):
                    out += self.encode_member(m, "    ")
                    continue
                k = len(optional) - 1 - optional.index(m)
                body = self.encode_member(m, "        ")
                if body:
                    out += [f"    if ((preamble >> {k}) & 1) {{", *body, "    }"]
            out.append("    return 1;")
        else:
            out += ["    (void)t;", "    switch (v->which) {"]
            for rank, m in enumerate(ranked_roots(roots)):
                out.append(f"    case {m.index + 1}: /* {m.name} */")
                last = len(roots) - 1
                if extensible and 1 <= last <= 254:  # the extension bit 0, then the index
                    out += [f"        if (!asn1h_per_put_bits(w, {1 + last.bit_length()}, "
                            f"{rank}u))", "            return 0;"]
                else:
                    if extensible:
                        out += ["        if (!asn1h_per_put_bits(w, 1, 0))",
                                "            return 0;"]
                    out += [f"        if (!asn1h_per_put_number(w, {last}u, {rank}u))",
                            "            return 0;"]
                out += self.encode_member(m, "        ")
                out.append("        return 1;")
            out += ["    default:                                /* additions, errors */",
                    "        return asn1h_per_by_tables(w, t, v);", "    }"]
        return out + ["}"]


def _count_bounds(t: TypeLayout) -> Optional[tuple[int, int]]:
    """A list's size bounds when its count is a constrained number (X.691 11.9.3.3: a
    root without extension, an upper bound under 64K), read and written inline."""
    per = t.per
    if per is None or per.sizes is None or per.size_ext:
        return None
    low, high = per.sizes
    return (low, high) if high is not None and high < 65536 else None


def ranked_roots(roots: list[MemberLayout]) -> list[MemberLayout]:
    """A CHOICE's root alternatives by their index (X.691 23.6): in the canonical order of
    their tags, which is the order of definition when one has no tag of its own (as the
    tables judge, asn1h_per.c: roots_in_tag_order)."""
    if any(not m.tags for m in roots):
        return roots
    return sorted(roots, key=lambda m: (int(m.tags[0].cls), m.tags[0].number))


def per_routines(layout: Layout, compiled: list[TypeLayout],
                 symbol: str) -> tuple[list[PerRoutines], list[str]]:
    """The PER routines of the compiled types that have them, after the tables, and the
    definitions of the string shapes they use (`symbol`: the spec's C prefix)."""
    out = []
    shapes = _Shapes(symbol)
    for t in compiled:
        if has_per_routines(layout, t):
            writer = _Writer(layout, t, shapes)
            decoder, encoder = per_names(t)
            code = (writer.list_decoder(decoder) + [""] + writer.list_encoder(encoder)
                    if t.node.kind in _LISTS else
                    writer.decoder(decoder) + [""] + writer.encoder(encoder))
            out.append(PerRoutines(t, decoder, encoder, code))
    return out, shapes.definitions()


def per_names(t: TypeLayout) -> tuple[str, str]:
    return per_symbol(t.decoder), per_symbol(t.encoder)


def per_symbol(routine: str) -> str:
    """The PER twin of a compiled type's BER routine name."""
    return f"{routine}_per"
