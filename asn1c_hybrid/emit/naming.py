"""C identifiers for the type graph: the same node id always gets the same name.

A named type keeps its ASN.1 name (hyphens become underscores) unless two modules define
the same name, in which case both are qualified with their module.  An anonymous type is
named after its parent and component (`PersonnelRecord_children`), the element of a
SEQUENCE OF after its parent with `_item`.  Every symbol starts with the user's prefix.
Whatever still collides (ASN.1 `a-b` and `a_b` cannot both exist, but `A-b` next to an
anonymous `A.b` can) gets a numeric suffix, in definition order.
"""
from __future__ import annotations

import re
from collections import Counter

from ..errors import UsageError
from ..typegraph import TypeGraph

C_RESERVED = frozenset("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Bool _Complex _Imaginary bool true false NULL
asm catch class delete friend mutable namespace new operator private protected public
template this throw try typeid typename using virtual explicit export
alignas alignof char16_t char32_t constexpr decltype noexcept nullptr static_assert
thread_local const_cast dynamic_cast reinterpret_cast static_cast wchar_t
and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq
""".split())   # C99 and C++11: the headers must compile as both

# Functions and objects of the C headers that generated code and the converter include
# (stdio.h, stdlib.h, string.h, math.h): a value named like one (SNMP's `system`) would
# redeclare it.  Type references start with a capital letter and cannot meet them.
C_LIBRARY = frozenset("""
abort abs acos asin atan atan2 atexit atof atoi atol atoll bsearch calloc ceil clearerr
cos cosh div exit exp fabs fclose feof ferror fflush fgetc fgetpos fgets floor fmod fopen
fprintf fputc fputs fread free freopen frexp fscanf fseek fsetpos ftell fwrite getc getchar
getenv gets labs ldexp ldiv llabs lldiv log log10 malloc memchr memcmp memcpy memmove
memset modf perror pow printf putc putchar puts qsort rand realloc remove rename rewind
scanf setbuf setvbuf sin sinh snprintf sprintf sqrt srand sscanf stderr stdin stdout
strcat strchr strcmp strcoll strcpy strcspn strerror strlen strncat strncmp strncpy
strpbrk strrchr strspn strstr strtod strtok strtol strtoul strxfrm system tan tanh tmpfile
tmpnam ungetc vfprintf vprintf vsprintf acosh asinh atanh cbrt copysign erf erfc exp2
expm1 fdim fma fmax fmin hypot ilogb lgamma llrint llround log1p log2 logb lrint lround
nan nearbyint nextafter nexttoward remainder remquo rint round scalbln scalbn tgamma trunc
""".split())


def c_identifier(asn1_name: str) -> str:
    """An ASN.1 identifier or type reference as a C identifier."""
    name = re.sub(r"[^0-9A-Za-z_]", "_", asn1_name.replace("-", "_"))
    if name in C_RESERVED or not name or name[0].isdigit():
        name += "_"
    return name


class CNames:
    """The C names of every node of a graph: `ctype(id)` and the derived symbols."""

    def __init__(self, graph: TypeGraph, prefix: str = ""):
        self.prefix = prefix
        self._names: dict[str, str] = {}
        short = Counter(node.name for node in graph if not node.is_anonymous)
        taken: set[str] = set()
        for node in graph:
            if not node.is_anonymous:
                base = c_identifier(node.name)
                if short[node.name] > 1:
                    base = f"{c_identifier(node.module)}_{base}"
            else:
                parent_id, component = node.id.rsplit(".", 1)
                part = "item" if component == "*" else c_identifier(component).rstrip("_")
                base = f"{self._names[parent_id]}_{part}" if parent_id in self._names \
                    else c_identifier(parent_id.replace(".", "_")) + "_" + part
                base = base[len(prefix):] if prefix and base.startswith(prefix) else base
            name = prefix + base
            counter = 2
            while name in taken or self._clashes_with_derived(name, taken):
                name = f"{prefix}{base}_{counter}"
                counter += 1
            taken.add(name)
            self._names[node.id] = name

    @staticmethod
    def _clashes_with_derived(name: str, taken: set[str]) -> bool:
        """`X_type` of one type must not be the name of another type."""
        for suffix in ("_type", "_members", "_decode", "_encode", "_tags"):
            if name.endswith(suffix) and name[: -len(suffix)] in taken:
                return True
        return any(f"{name}{suffix}" in taken
                   for suffix in ("_type", "_members", "_decode", "_encode", "_tags"))

    def __getitem__(self, node_id: str) -> str:
        return self._names[node_id]

    def values(self, graph: TypeGraph) -> dict[str, str]:
        """The C names of the value assignments, like those of types: qualified with their
        module when two modules define the same name (RFC 5912's modules repeat OIDs)."""
        short = Counter(v.id.rsplit(".", 1)[1] for v in graph.values.values())
        taken = set(self._names.values())
        out: dict[str, str] = {}
        for value in graph.values.values():
            module, name = value.id.rsplit(".", 1)
            base = c_identifier(name)
            if short[name] > 1:
                base = f"{c_identifier(module)}_{base}"
            elif base in C_LIBRARY and not self.prefix:
                base += "_"
            symbol, counter = self.prefix + base, 2
            while symbol in taken or self._clashes_with_derived(symbol, taken):
                symbol = f"{self.prefix}{base}_{counter}"
                counter += 1
            taken.add(symbol)
            out[value.id] = symbol
        return out

    def descriptor(self, node_id: str) -> str:
        return f"{self._names[node_id]}_type"

    def members(self, node_id: str) -> str:
        return f"{self._names[node_id]}_members"

    def tags(self, node_id: str) -> str:
        return f"{self._names[node_id]}_tags"

    def decoder(self, node_id: str) -> str:
        return f"{self._names[node_id]}_decode"

    def encoder(self, node_id: str) -> str:
        return f"{self._names[node_id]}_encode"


# The generated files' own symbols are `SYMBOL_suffix` (SYMBOL: the prefix and --name, by
# default the first module's name): the tables, the spec-level entry points.
SPEC_SYMBOL_SUFFIXES = frozenset("""
    spec tables members tags names name_index profile_names profile_strings codecs routines
    per_routines open enum_values defaults data constraints common_words bounds
    decode_per decode_per_owned decode_per_canonical encode_per types_follow_the_header
""".split())
# ... and a type's `TYPE_suffix` (with `TYPE` itself): descriptor, members, tags, routines.
TYPE_SYMBOL_SUFFIXES = ("type", "members", "tags", "decode", "encode", "decode_per",
                        "encode_per")


def check_spec_symbol(symbol: str, type_names) -> None:
    """Refuses a --name whose symbols are also a type's: module `T` with a type `T` would
    define `T_members` and `T_decode_per` twice, in C that does not compile."""
    spec_symbols = {symbol} | {f"{symbol}_{suffix}" for suffix in SPEC_SYMBOL_SUFFIXES}
    for name in sorted(type_names):
        if ({name} | {f"{name}_{suffix}" for suffix in TYPE_SYMBOL_SUFFIXES}) & spec_symbols:
            raise UsageError(f"the C names of type {name} and of the generated files' own "
                             f"symbols ({symbol}_...) would clash: give another --name")
