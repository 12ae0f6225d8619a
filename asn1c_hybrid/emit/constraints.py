"""Which constraints generated code checks at run time, and in what form.

The front end computes each type's effective constraint (frontend/constraints.py); this
module keeps the part that the runtime's constraint records can express
(asn1h_constraint): intervals of INTEGER values, of sizes and of permitted characters.

A check may only ever be wider than the constraint, never narrower: a value the
specification allows must pass.  Hence:
  - an extensible constraint is not checked at all (X.680 49.4: a decoder may meet values
    beyond it), nor an aspect limited by an extensible inner constraint (SIZE(1..8, ...));
  - the sizes of strings whose characters take a variable number of octets other than
    UTF8String (TeletexString, GeneralString, ...) are checked from below only: a string
    has at least as many octets as characters;
  - BIT STRING with named bits is not size-checked: trailing 0 bits may be added or
    removed to meet the constraint (X.680 22.7);
  - REAL values, single values of strings and other types, WITH COMPONENT(S), PATTERN and
    the alphabet of UTF8String are not checked (docs/runtime.md, "Constraints").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..typegraph import INT64_MAX, INT64_MIN, Kind, Node
from .values import c_int

UINT64_MAX = 2**64 - 1
MAX_INTERVALS = 255             # asn1h_constraint's counts are 8-bit

# The universal tag number of each string type whose size the runtime counts in characters
# of a fixed number of octets (X.691's known-multiplier strings), or in UTF-8 characters.
KNOWN_MULTIPLIER = {"IA5String": 22, "PrintableString": 19, "VisibleString": 26,
                    "ISO646String": 26, "NumericString": 18, "BMPString": 30,
                    "UniversalString": 28}
OCTETS_PER_CHARACTER = {30: 2, 28: 4}
_LOWER_ONLY = {"TeletexString", "T61String", "VideotexString", "GraphicString",
               "GeneralString", "ObjectDescriptor"}

Intervals = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class PerVisible:
    """A type's PER-visible constraint (X.691 8.3): the root's bounds of its values and of
    its sizes (None: MIN / MAX, or no constraint), whether each is extensible, and its
    permitted alphabet (intervals of character codes)."""
    values: Optional[tuple[Optional[int], Optional[int]]] = None
    value_ext: bool = False
    sizes: Optional[tuple[int, Optional[int]]] = None
    size_ext: bool = False
    chars: Intervals = ()

    def __bool__(self) -> bool:
        return bool(self.values or self.value_ext or self.sizes or self.size_ext or self.chars)


@dataclass(frozen=True)
class RuntimeCheck:
    """Permitted INTEGER values, sizes and characters, as inclusive intervals with
    INT64_MIN / INT64_MAX for MIN / MAX; an empty tuple is no check."""
    values: Intervals = ()
    sizes: Intervals = ()
    chars: Intervals = ()

    def __bool__(self) -> bool:
        return bool(self.values or self.sizes or self.chars)

    @property
    def single_size(self) -> Optional[tuple[int, int]]:
        """The one size interval when there is exactly one (the inline-checkable case)."""
        return self.sizes[0] if len(self.sizes) == 1 else None

    @property
    def single_value(self) -> Optional[tuple[int, int]]:
        return self.values[0] if len(self.values) == 1 else None


def runtime_check(node: Node, target: Node) -> Optional[RuntimeCheck]:
    """The check of values of `node`, whose representation `target` owns (its built-in
    type and named bits); None when nothing is checked."""
    tree = node.constraints.tree
    root = getattr(tree, "root", None)
    if root is None or getattr(tree, "extensible", False):
        return None
    loose = root.loose
    values = sizes = chars = ()
    if target.kind == Kind.INTEGER and root.values is not None and "values" not in loose:
        values = _intervals(root.values.ranges, INT64_MIN)
    if target.kind in (Kind.BYTES, Kind.BIT_STRING, Kind.SEQUENCE_OF, Kind.SET_OF) \
            and root.sizes is not None and "sizes" not in loose:
        sizes = _sizes(root.sizes.ranges, target)
    if target.kind == Kind.BYTES and target.builtin in KNOWN_MULTIPLIER \
            and root.alphabet is not None and "alphabet" not in loose:
        chars = _intervals(_runs(sorted(ord(c) for c in root.alphabet)), 0)
    check = RuntimeCheck(values, sizes, chars)
    return check or None


def big_bounds(values: tuple[Optional[int], Optional[int]]) -> bool:
    """Whether PER bounds of INTEGER values go beyond what the tables' int64_t pairs hold
    (a lower bound outside int64_t, or an upper bound beyond INT64_MAX that is not the
    uint64_t case of a lower bound >= 0): the tables then give them as octets."""
    lo, hi = values
    if lo is None:
        return False
    if not INT64_MIN <= lo <= INT64_MAX:
        return True
    return hi is not None and hi > INT64_MAX and not (lo >= 0 and hi <= UINT64_MAX)


def per_visible(node: Node, target: Node) -> Optional[PerVisible]:
    """What PER encodes of `node`'s constraint.  Value constraints on INTEGER (bounds of
    any size from a lower one; an upper bound alone within int64_t); SIZE on
    BIT STRING, OCTET STRING, the known-multiplier strings and lists; FROM on those
    strings unless extensible.  A string constrained by single values has none (X.691
    8.3.x: only SIZE and FROM are PER-visible there), nor have the other strings."""
    tree = node.constraints.tree
    root = getattr(tree, "root", None)
    if root is None:
        return None
    extensible = bool(getattr(tree, "extensible", False))
    values = sizes = None
    value_ext = size_ext = False
    chars: Intervals = ()
    kind = target.kind
    if kind == Kind.INTEGER and root.values is not None:
        lo, hi = root.values.hull()
        # (bounds of up to 255 octets: the tables count a bound's octets in one)
        if all(b is None or isinstance(b, int) and b.bit_length() < 2040 for b in (lo, hi)) \
                and (lo is not None or hi is None or INT64_MIN <= hi <= INT64_MAX):
            values = (lo, hi)
            value_ext = extensible or "values" in root.loose
    sized = kind in (Kind.BIT_STRING, Kind.SEQUENCE_OF, Kind.SET_OF) or kind == Kind.BYTES \
        and (target.builtin == "OCTET STRING" or target.builtin in KNOWN_MULTIPLIER)
    if kind == Kind.BYTES and root.singles is not None:
        sized = False
    if sized and root.sizes is not None:
        lo, hi = root.sizes.hull()
        if isinstance(lo, int) and (hi is None or isinstance(hi, int)) and \
                (hi is None or hi <= INT64_MAX):
            sizes = (lo or 0, hi)
            size_ext = extensible or "sizes" in root.loose
    if kind == Kind.BYTES and target.builtin in KNOWN_MULTIPLIER and root.singles is None \
            and root.alphabet is not None and not extensible and "alphabet" not in root.loose:
        chars = _intervals(_runs(sorted(ord(c) for c in root.alphabet)), 0)
    visible = PerVisible(values, value_ext, sizes, size_ext, chars)
    return visible or None


def per_decides(check: RuntimeCheck, per: Optional[PerVisible]) -> bool:
    """Whether a PER codec needs no check of `check` beyond its own: the constraint is one
    interval of values or of sizes, bounded both ways and not extensible, which PER
    encodes as a constrained number or length and so refuses outside (asn1h_per.c).
    Sizes that PER does not see (a UTF8String's, a BIT STRING's with named bits) make
    `per` differ from `check`, hence False."""
    if not per or per.value_ext or per.size_ext or per.chars or check.chars:
        return False
    if check.values and (per.values is None or None in per.values
                         or check.values != (per.values,)):
        return False
    if check.sizes and (per.sizes is None or per.sizes[1] is None
                        or check.sizes != (per.sizes,)):
        return False
    return bool(check.values or check.sizes)


def _sizes(ranges, target: Node) -> Intervals:
    if target.kind == Kind.BIT_STRING and target.named_bits:
        return ()
    if target.kind == Kind.BYTES:
        if target.builtin in _LOWER_ONLY:
            lowest = ranges[0][0] if ranges else None
            return () if not lowest else ((lowest, INT64_MAX),)
        if target.builtin not in KNOWN_MULTIPLIER and target.builtin not in \
                ("OCTET STRING", "UTF8String"):
            return ()                       # times, OBJECT IDENTIFIER, ...
    return _intervals(ranges, 0)


def _intervals(ranges, lowest: int) -> Intervals:
    """Front-end intervals (None: unbounded) as int64 pairs.  A bound beyond int64_t is
    clamped to INT64_MIN or INT64_MAX, which the runtime reads as unbounded: wider, never
    narrower.  Too many intervals become their hull."""
    out = []
    for lo, hi in ranges:
        lo = lowest if lo is None else lo
        hi = INT64_MAX if hi is None else hi
        if not (isinstance(lo, int) and isinstance(hi, int)):
            return ()
        out.append((min(max(lo, lowest), INT64_MAX), max(min(hi, INT64_MAX), INT64_MIN)))
    if len(out) > MAX_INTERVALS:
        out = [(out[0][0], out[-1][1])]
    if out == [(lowest, INT64_MAX)]:
        return ()                           # everything
    return tuple(out)


def _runs(codes: list[int]) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    for code in codes:
        if runs and runs[-1][1] + 1 == code:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return [(a, b) for a, b in runs]


def size_expression(builtin: str, start: str, end: str) -> Optional[str]:
    """A C expression (unsigned) for the size of a string whose contents are [start, end),
    as its constraint counts it; None for BMPString and UniversalString, whose count the
    runtime makes (it also refuses a length that is not a whole number of characters)."""
    if builtin == "UTF8String":
        return f"asn1h_utf8_length({start}, {end})"
    if KNOWN_MULTIPLIER.get(builtin) in OCTETS_PER_CHARACTER:
        return None
    return f"(size_t)({end} - {start})"


def interval_test(expr: str, interval: tuple[int, int], unsigned: bool = False) -> str:
    """A C condition that `expr` lies in `interval`, leaving out a comparison with MIN or
    MAX (or, for an unsigned `expr`, with 0 or below)."""
    lo, hi = interval
    literal = (lambda v: f"UINT64_C({v})") if unsigned else c_int
    parts = []
    if lo > (0 if unsigned else INT64_MIN):
        parts.append(f"{expr} >= {literal(lo)}")
    if hi < INT64_MAX:
        parts.append(f"{expr} <= {literal(hi)}")
    return " && ".join(parts) or "1"


def size_test(size: str, low: int, high: int) -> str:
    """A C condition that a size lies in [low, high]; a size that is counted by a call
    (UTF-8 characters) is passed to asn1h_size_within, so that it is counted once."""
    if size.startswith("asn1h_"):
        top = f"UINT64_C({high})" if high < INT64_MAX else "UINT64_MAX"
        return f"asn1h_size_within({size}, UINT64_C({low}), {top})"
    return interval_test(size, (low, high), unsigned=True)


def intervals_test(expr: str, intervals: Intervals, unsigned: bool = False) -> str:
    """A C condition that `expr` lies in one of `intervals`."""
    tests = [interval_test(expr, iv, unsigned) for iv in intervals]
    if len(tests) == 1:
        return tests[0]
    return " || ".join(f"({t})" for t in tests)
