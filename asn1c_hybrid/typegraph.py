"""The type graph: the IR between the front end and every later stage.

Every type, named or anonymous, is a `Node` with a stable identifier:
``Module.Type`` for a type assignment, ``Module.Type.component`` for an anonymous type
inside it, and ``Module.Type.component.*`` for the anonymous element of a SEQUENCE OF.
The same string names the type in profiles, in `explain`, and (mangled) in the generated C.

A node is complete on its own: its tags are the ones seen on the wire after the module's
tagging environment was applied, and each component carries its *effective* tags (the
member's own tagging applied to the referenced node's tags).  Later stages never look at
the AST.

Value notation is kept as plain Python values, in the same convention as asn1tools so that
differential tests can pass values straight through:

=====================  =======================================================
BOOLEAN                bool
INTEGER                int
ENUMERATED             str (the identifier)
REAL                   float (``math.inf``, ``-math.inf``, ``math.nan`` allowed)
BIT STRING             (bytes, number_of_bits)
OCTET STRING           bytes
NULL                   None
OBJECT IDENTIFIER,     str, dotted decimal ("1.2.840.113549")
RELATIVE-OID
character strings,     str
time types
SEQUENCE, SET          dict: component name -> value (absent members left out)
SEQUENCE OF, SET OF    list
CHOICE                 (alternative name, value)
open type / ANY        bytes (a complete BER encoding)
=====================  =======================================================
"""
from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Sequence


class TagClass(enum.IntEnum):
    UNIVERSAL = 0
    APPLICATION = 1
    CONTEXT = 2
    PRIVATE = 3


@dataclass(frozen=True, order=True)
class Tag:
    cls: TagClass
    number: int

    def __str__(self) -> str:
        if self.cls == TagClass.CONTEXT:
            return f"[{self.number}]"
        return f"[{self.cls.name} {self.number}]"

    def identifier(self, constructed: bool) -> bytes:
        """The BER identifier octets (X.690 8.1.2): numbers from 31 in base 128."""
        first = (int(self.cls) << 6) | (0x20 if constructed else 0)
        if self.number < 31:
            return bytes([first | self.number])
        groups = []
        number = self.number
        while True:
            groups.append(number & 0x7F)
            number >>= 7
            if not number:
                break
        groups.reverse()
        return bytes([first | 0x1F] + [g | 0x80 for g in groups[:-1]] + [groups[-1]])


def universal(number: int) -> Tag:
    return Tag(TagClass.UNIVERSAL, number)


class Kind(str, enum.Enum):
    """The runtime's coarse kinds: one decoder/encoder routine family each.

    Every character string, time type, OBJECT IDENTIFIER and RELATIVE-OID is BYTES
    (contents octets kept as they are); `Node.builtin` says which one it is.
    EXTERNAL, EMBEDDED PDV and CHARACTER STRING are SEQUENCEs of their associated types.
    """
    BOOLEAN = "BOOLEAN"
    INTEGER = "INTEGER"
    ENUMERATED = "ENUMERATED"
    REAL = "REAL"
    BIT_STRING = "BIT STRING"
    BYTES = "BYTES"
    NULL = "NULL"
    SEQUENCE = "SEQUENCE"
    SET = "SET"
    SEQUENCE_OF = "SEQUENCE OF"
    SET_OF = "SET OF"
    CHOICE = "CHOICE"
    OPEN = "OPEN"          # ANY, ANY DEFINED BY, open types (&Type fields)

    @property
    def constructed(self) -> bool:
        """SEQUENCE, SET, CHOICE and the lists: the kinds with member tables."""
        return self in _CONSTRUCTED

    @property
    def has_own_tlv(self) -> bool:
        """CHOICE and open types have no identifier of their own: their tags are all
        explicit wrappers around the chosen alternative's (or the carried value's) TLV."""
        return self not in (Kind.CHOICE, Kind.OPEN)


_CONSTRUCTED = frozenset({Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF, Kind.SET_OF, Kind.CHOICE})

# The largest tag number the runtime keeps: a tag is one 32-bit number, its class in the
# top two bits (asn1h.h, ASN1H_TAG).
MAX_TAG_NUMBER = 2**30 - 1
# The range of int64_t: an ENUMERATED's numbers in the runtime's tables, the bounds of its
# constraint records.
INT64_MIN, INT64_MAX = -2**63, 2**63 - 1

# Universal tag numbers of the built-in types (X.680 8.4, table 1).
UNIVERSAL_TAGS: dict[str, int] = {
    "BOOLEAN": 1, "INTEGER": 2, "BIT STRING": 3, "OCTET STRING": 4, "NULL": 5,
    "OBJECT IDENTIFIER": 6, "ObjectDescriptor": 7, "EXTERNAL": 8, "REAL": 9,
    "ENUMERATED": 10, "EMBEDDED PDV": 11, "UTF8String": 12, "RELATIVE-OID": 13,
    "TIME": 14, "SEQUENCE": 16, "SEQUENCE OF": 16, "SET": 17, "SET OF": 17,
    "NumericString": 18, "PrintableString": 19, "TeletexString": 20, "T61String": 20,
    "VideotexString": 21, "IA5String": 22, "UTCTime": 23, "GeneralizedTime": 24,
    "GraphicString": 25, "VisibleString": 26, "ISO646String": 26, "GeneralString": 27,
    "UniversalString": 28, "CHARACTER STRING": 29, "BMPString": 30, "DATE": 31,
    "TIME-OF-DAY": 32, "DATE-TIME": 33, "DURATION": 34, "OID-IRI": 35,
    "RELATIVE-OID-IRI": 36,
}


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    column: int          # 1-based, as printed in diagnostics

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Range:
    """An effective value or size range.  None bounds mean MIN/MAX (unbounded)."""
    lower: Optional[int] = None
    upper: Optional[int] = None
    extensible: bool = False

    def contains(self, value: int) -> bool:
        return ((self.lower is None or value >= self.lower)
                and (self.upper is None or value <= self.upper))


@dataclass
class Constraints:
    """Effective constraints, as far as they choose a C type or can be checked.

    `text` keeps the constraint as written, for messages; `tree` keeps the analysed
    constraint (front-end defined) for later checking.
    """
    value: Optional[Range] = None          # INTEGER, ENUMERATED, REAL (integral bounds)
    size: Optional[Range] = None           # strings, BIT STRING, SEQUENCE OF / SET OF
    alphabet: Optional[str] = None         # FROM "..." permitted characters, when finite
    text: str = ""
    tree: Any = None


@dataclass
class Component:
    """A member of a SEQUENCE, SET or CHOICE, or the element of a SEQUENCE OF / SET OF."""
    name: str                              # "" for an unnamed SEQUENCE OF element
    type: str                              # node id of the member's type
    tags: tuple[Tag, ...]                  # effective tags on the wire, outermost first
    optional: bool = False
    default: Any = None                    # value notation (see module doc); None = no DEFAULT
    has_default: bool = False              # distinguishes DEFAULT NULL from no DEFAULT
    extension: Optional[int] = None        # None: extension root; k: k-th extension addition
    group: Optional[int] = None            # extension addition group number ([[ ]]), if any
    location: Optional[Location] = None

    @property
    def present_always(self) -> bool:
        return not (self.optional or self.has_default or self.extension is not None)


@dataclass
class OpenTypeRule:
    """How an open type is resolved: the value of a sibling component (found by
    `relative path`) selects the type of this one through an information object set."""
    key_path: tuple[str, ...]              # component path, relative to the referencing SEQUENCE
    key_levels_up: int                     # how many enclosing types to climb first ("@.x" = 0)
    table: dict[Any, str]                  # key value (value notation) -> node id
    object_set: str = ""                   # name of the governing object set, for messages
    extensible: bool = True


@dataclass
class Node:
    id: str                                # "Module.Type", "Module.Type.comp", "...comp.*"
    kind: Kind
    builtin: str                           # the ASN.1 built-in type ("IA5String", "SET OF", ...)
    tags: tuple[Tag, ...] = ()             # effective tags, outermost first (see Kind.has_own_tlv)
    components: list[Component] = field(default_factory=list)   # SEQUENCE, SET, CHOICE
    element: Optional[Component] = None    # SEQUENCE OF, SET OF
    alias_of: Optional[str] = None         # same C representation as this node (a reference)
    extensible: bool = False               # has an extension marker "..."
    # SEQUENCE, SET: how many components come before the place of unknown extension
    # additions (the second "..." of X.680 25.1); None: after the last component
    extension_point: Optional[int] = None
    constraints: Constraints = field(default_factory=Constraints)
    named_numbers: dict[str, int] = field(default_factory=dict)  # INTEGER {a(1)}, ENUMERATED
    enum_extension: Optional[list[str]] = None                   # ENUMERATED additions after "..."
    named_bits: dict[str, int] = field(default_factory=dict)     # BIT STRING {a(0)}
    open_type: Optional[OpenTypeRule] = None                    # OPEN, when table-constrained
    contained: Optional[str] = None        # BYTES/BIT STRING (CONTAINING T): node id of T
    recursive: bool = False                # reachable from itself
    parameterized_from: Optional[str] = None  # "Module.Param{...}" this was instantiated from
    location: Optional[Location] = None

    @property
    def module(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def name(self) -> str:
        """The last part of the identifier ("Name", "children", "*")."""
        return self.id.rsplit(".", 1)[-1]

    @property
    def is_anonymous(self) -> bool:
        return self.id.count(".") > 1

    @property
    def has_routines(self) -> bool:
        """A constructed type that owns its C representation (not an alias of another):
        it has a member table, and compiled routines when the selection chooses it."""
        return self.kind.constructed and self.alias_of is None

    def members(self) -> list[Component]:
        """Components, or the SEQUENCE OF element as a one-member list."""
        if self.element is not None:
            return [self.element]
        return self.components


@dataclass
class ValueDef:
    id: str                                # "Module.valueName"
    type: str                              # node id
    value: Any                             # value notation
    location: Optional[Location] = None


@dataclass
class ModuleInfo:
    name: str
    oid: Optional[str]                     # dotted, when the module identifier has one
    file: str
    tag_default: str                       # "EXPLICIT", "IMPLICIT" or "AUTOMATIC"
    extensibility_implied: bool = False


def strongly_connected_components(nodes: Sequence[str],
                                  successors: Callable[[str], Sequence[str]]
                                  ) -> list[list[str]]:
    """Tarjan's algorithm, iterative (deep specs must not hit Python's recursion limit).

    Components come out in reverse topological order: every edge between two components
    goes from a later one to an earlier one.  Deterministic for a given node order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors(root)))]
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(successors(w))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    component.reverse()
                    components.append(component)
    return components


@dataclass
class TypeGraph:
    modules: list[ModuleInfo] = field(default_factory=list)
    nodes: dict[str, Node] = field(default_factory=dict)         # definition order
    values: dict[str, ValueDef] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)        # file name -> text

    def __getitem__(self, node_id: str) -> Node:
        return self.nodes[node_id]

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes.values())

    def add(self, node: Node) -> Node:
        if node.id in self.nodes:
            raise ValueError(f"duplicate node {node.id}")
        self.nodes[node.id] = node
        return node

    def target(self, node_id: str) -> Node:
        """Follow `alias_of` to the node that owns the representation."""
        node = self.nodes[node_id]
        while node.alias_of is not None:
            node = self.nodes[node.alias_of]
        return node

    def children(self, node: Node) -> Iterator[tuple[Component, Node]]:
        for comp in self.target(node.id).members():
            yield comp, self.nodes[comp.type]

    def spec_hash(self) -> str:
        """Hash of the specification text, independent of file paths and order."""
        digest = hashlib.sha256()
        for text in sorted(self.sources.values()):
            digest.update(hashlib.sha256(text.encode()).digest())
        return digest.hexdigest()

    def successors(self, node_id: str) -> list[str]:
        """The nodes a node refers to: its members' types, the node it is an alias of."""
        node = self.nodes[node_id]
        return [c.type for c in node.members()] + ([node.alias_of] if node.alias_of else [])

    def restricted_to(self, keep: set[str]) -> "TypeGraph":
        """The graph of the nodes in `keep` (closed under `successors`), same order."""
        return TypeGraph(self.modules, {i: n for i, n in self.nodes.items() if i in keep},
                         self.values, self.sources)

    def roots(self) -> list[Node]:
        """The likely PDUs: named types that no type outside their own recursive cycle
        refers to (`Tree ::= SEQUENCE { children SEQUENCE OF Tree }` alone in a spec is a
        message type, though it refers to itself)."""
        components = strongly_connected_components(list(self.nodes), self.successors)
        component_of = {v: i for i, c in enumerate(components) for v in c}
        entered = {w for v in self.nodes for w in self.successors(v)
                   if component_of[w] != component_of[v]}
        return [n for n in self if not n.is_anonymous and not any(
            v in entered for v in components[component_of[n.id]])]

    def mark_recursion(self) -> None:
        """Set `Node.recursive` for every node that can reach itself."""
        for component in strongly_connected_components(list(self.nodes), self.successors):
            cyclic = len(component) > 1 or component[0] in self.successors(component[0])
            for v in component:
                self.nodes[v].recursive = cyclic
