"""The C layout of a type graph: the one representation that compiled routines and the
interpreter share, and the model the templates render.

Decisions made here (docs/runtime.md explains them):
  - INTEGER gets the smallest native type its effective constraint allows, else asn1h_int;
  - a member is stored through a pointer exactly when inlining it would make a struct
    contain itself (same strongly connected component of the containment graph);
  - OPTIONAL, DEFAULT and extension members get a bit in the struct's `present_` octets;
  - anonymous primitive types that would get identical descriptors share one.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from ..diagnostics import CompileError, Diagnostic
from ..errors import UsageError
from ..typegraph import (UNIVERSAL_TAGS, Component, Kind, Node, Tag, TagClass, TypeGraph,
                         strongly_connected_components)
from .constraints import (PerVisible, RuntimeCheck, interval_test, intervals_test,
                          per_visible, runtime_check, size_expression, size_test)
from .naming import CNames, c_identifier
from ..contents import integer, object_identifier
from .values import ValueWriter

_KIND_CONST = {
    Kind.BOOLEAN: "ASN1H_BOOLEAN", Kind.INTEGER: "ASN1H_INTEGER",
    Kind.ENUMERATED: "ASN1H_ENUMERATED", Kind.REAL: "ASN1H_REAL",
    Kind.BIT_STRING: "ASN1H_BIT_STRING", Kind.BYTES: "ASN1H_BYTES", Kind.NULL: "ASN1H_NULL",
    Kind.SEQUENCE: "ASN1H_SEQUENCE", Kind.SET: "ASN1H_SET",
    Kind.SEQUENCE_OF: "ASN1H_SEQUENCE_OF", Kind.SET_OF: "ASN1H_SET_OF",
    Kind.CHOICE: "ASN1H_CHOICE", Kind.OPEN: "ASN1H_OPEN",
}

_BASE_CTYPE = {
    Kind.BOOLEAN: "bool", Kind.REAL: "double", Kind.BIT_STRING: "asn1h_bits",
    Kind.BYTES: "asn1h_bytes", Kind.NULL: "asn1h_null", Kind.OPEN: "asn1h_open",
}

# (storage constant, C type, lowest, highest), smallest first
_UNSIGNED = [("ASN1H_INT_U8", "uint8_t", 0, 2**8 - 1), ("ASN1H_INT_U16", "uint16_t", 0, 2**16 - 1),
             ("ASN1H_INT_U32", "uint32_t", 0, 2**32 - 1), ("ASN1H_INT_U64", "uint64_t", 0, 2**64 - 1)]
_SIGNED = [("ASN1H_INT_I8", "int8_t", -2**7, 2**7 - 1), ("ASN1H_INT_I16", "int16_t", -2**15, 2**15 - 1),
           ("ASN1H_INT_I32", "int32_t", -2**31, 2**31 - 1), ("ASN1H_INT_I64", "int64_t", -2**63, 2**63 - 1)]
# the values each native INTEGER storage holds
STORAGE_RANGES = {storage: (low, high) for storage, _, low, high in _UNSIGNED + _SIGNED}

STRUCT_KINDS = (Kind.SEQUENCE, Kind.SET, Kind.CHOICE, Kind.SEQUENCE_OF, Kind.SET_OF)
_CONSTRUCTED_FORM = (Kind.SEQUENCE, Kind.SET, Kind.SEQUENCE_OF, Kind.SET_OF)
MAX_TAGS = 8
MAX_PRESENCE_BITS = 255           # asn1h_member.bit is 8-bit; 0xFF is ASN1H_NO_BIT


def integer_storage(node: Node) -> tuple[str, str]:
    """(storage constant, C type) of an INTEGER or ENUMERATED node."""
    if node.kind == Kind.ENUMERATED:
        values = list(node.named_numbers.values()) or [0]
        if min(values) >= -2**31 and max(values) < 2**31:
            return "ASN1H_INT_I32", "int32_t"
        return "ASN1H_INT_I64", "int64_t"
    r = node.constraints.value
    if r is None or r.lower is None or r.upper is None or r.extensible:
        return "ASN1H_INT_BIG", "asn1h_int"
    for storage, ctype, low, high in (_UNSIGNED if r.lower >= 0 else _SIGNED):
        if r.lower >= low and r.upper <= high:
            return storage, ctype
    return "ASN1H_INT_BIG", "asn1h_int"


def tag_expr(tag: Tag) -> str:
    return f"ASN1H_TAG({int(tag.cls)}, {tag.number})"


def identifier_octet(tag: Tag, constructed: bool) -> Optional[int]:
    if tag.number >= 31:
        return None
    return (int(tag.cls) << 6) | (0x20 if constructed else 0) | tag.number


@dataclass
class MemberLayout:
    name: str                     # ASN.1 identifier
    field: str                    # C field ("" for a SEQUENCE OF element)
    node_id: str                  # the member's type
    target: Node                  # the node owning its representation
    ctype: str
    pointer: bool
    tags: tuple[Tag, ...]         # effective tags
    desc: str                     # descriptor symbol of the member's type
    tag: str = "0"                # own tag (IMPLICIT/EXPLICIT), as an expression
    flags: list[str] = field(default_factory=list)
    bit: Optional[int] = None
    default: Optional[str] = None  # symbol of the DEFAULT constant
    default_der: Optional[bytes] = None  # its DER contents, when the emitter knows them
    default_zero: bool = False    # all zero bits: decoding into zeroed memory leaves it there
    access: str = ""              # lvalue of the member, relative to `v`
    offset: str = ""              # offsetof expression
    index: int = 0                # in the parent's member table
    # what compiled routines need
    strategy: str = "generic"
    first_octet: Optional[int] = None   # identifier octet of the outermost TLV
    storage: str = ""                   # INTEGER storage constant
    child_decoder: Optional[str] = None
    child_encoder: Optional[str] = None
    int_range: tuple[int, int] = (0, 0)
    wrapper_octet: Optional[int] = None   # a tagged CHOICE's one-octet explicit wrapper
    takes_unknown: bool = False         # an untagged extensible CHOICE: takes unknown tags
    addition: int = 0                   # an extension addition: its number (X.680 25)
    group: Optional[int] = None         # its extension addition group ([[ ]]), if any
    # its type's constraint, as the fast paths check it (emit/constraints.py): a C condition
    # on the decoded contents [c, ce) or number x, and one on the value `{acc}` to encode;
    # when it fails, the interpreter's member routine checks it and reports the error
    decode_test: str = ""
    encode_test: str = ""
    # set by the tables (emit/tables.py)
    desc_index: int = 0                 # the index of its type's entry (profiles)
    slot: int = 0                       # its place in its parent's member table

    @property
    def match_octet(self) -> int:
        """The identifier octet without its form bit: BER strings may come constructed."""
        return self.first_octet & 0xDF

    @property
    def bit_mask(self) -> int:
        return 1 << (self.bit % 8)

    @property
    def default_copied(self) -> bool:
        """Whether decoding copies the DEFAULT in when the member is absent: a default of
        all zero bits is what the zeroed memory already holds."""
        return bool(self.default) and not self.default_zero

    @property
    def default_compare(self) -> str:
        """How a compiled encoder tells a DEFAULT member's value from the default inline:
        "scalar" (BOOLEAN, native integers: `!=`), "empty" (a list whose default is {}),
        "big" (an asn1h_int: `v`, unless the value is beyond int64_t), or "" (the runtime
        compares, asn1h_member_encoded)."""
        if not self.default or self.pointer:
            return ""
        kind = self.target.kind
        if kind == Kind.BOOLEAN or kind in (Kind.INTEGER, Kind.ENUMERATED) \
                and integer_storage(self.target)[0] != "ASN1H_INT_BIG":
            return "scalar"
        if kind == Kind.INTEGER and self.default_der is not None and len(self.default_der) <= 8:
            return "big"                # an asn1h_int whose default fits its `v`
        if kind in (Kind.SEQUENCE_OF, Kind.SET_OF) and self.default_der == b"":
            return "empty"
        return ""

    @property
    def seen_mask(self) -> int:
        """A SET's decoder marks each member seen by its place in the member table."""
        return 1 << (self.slot % 8)


@dataclass
class TypeLayout:
    node: Node
    cname: str                    # the C type of values of this node
    desc: str                     # descriptor symbol
    exported: bool                # declared in the header
    owns_struct: bool
    kind: str
    tags: list[str]
    members: list[MemberLayout] = field(default_factory=list)
    present_bytes: int = 0
    storage: str = ""
    compiled: bool = False
    decoder: str = ""
    encoder: str = ""
    flags: list[str] = field(default_factory=list)
    universal: int = 0            # BYTES: the universal tag number of the built-in type
    der_order: list[int] = field(default_factory=list)    # SET: member indexes, tag order
    # an extensible SEQUENCE or SET keeps unknown extension additions in `unknown_`: the
    # index of the member they come before (the member count: after the last); else None
    unknown_at: Optional[int] = None
    enum_items: list[tuple[str, int]] = field(default_factory=list)
    enum_root: int = 0
    open_entries: list[tuple[bytes, str]] = field(default_factory=list)  # key, node id
    open_key_member: int = 0
    shared_name: str = ""         # descriptor shared by anonymous primitives: its builtin
    keep_encoding: bool = False   # its struct ends with `encoding_`, its TLV as received
    # a PDU with layout fast paths (emit/fastpaths.py): the door asn1h_decode tries first
    # (asn1h_codecs.layouts), and its routines: the encoder that tries the encoding paths,
    # beside a decoder that calls the interpreter when the type is not compiled
    layouts_door: str = ""
    fast_decoder: str = ""
    fast_encoder: str = ""
    check: Optional[RuntimeCheck] = None  # the constraint checked at run time
    per: Optional[PerVisible] = None      # the constraint PER encodes
    # set by the tables (emit/tables.py)
    table_index: int = 0          # its entry in the spec's type array
    ref: str = ""                 # C: the entry, `spec.types[k]`
    members_first: int = 0        # its member table's first index
    members_ref: str = ""         # C: a pointer to its member table

    def member(self, name: str) -> MemberLayout:
        for m in self.members:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def has_presence(self) -> bool:
        return self.present_bytes > 0

    @property
    def size_test(self) -> str:
        """A list's SIZE constraint as a C condition on its element count `{acc}`."""
        if self.check is None or not self.check.sizes:
            return "1"
        return intervals_test("{acc}", self.check.sizes, unsigned=True)


@dataclass
class Layout:
    graph: TypeGraph
    names: CNames
    types: dict[str, TypeLayout]          # every node id -> its layout
    descriptors: list[TypeLayout]         # one per emitted descriptor, in id order
    struct_order: list[str]               # node ids of struct owners, definition order
    definitions: list[str]                # auxiliary C objects (DEFAULT values, arrays)
    defaults: list[tuple[str, str, str]]  # (ctype, symbol, initializer)
    values: list[tuple[str, str, str]]    # value assignments: (ctype, symbol, initializer)
    constants: list[tuple[str, int]]      # INTEGER value assignments that fit an int:
                                          # (symbol, value), enumeration constants
    per: bool = True                      # the tables carry what PER needs
    ber: bool = True                      # compiled types get BER routines
    ber_forms: bool = True                # strings and times in BER's other forms are read


class _Builder:
    def __init__(self, graph: TypeGraph, compiled: set[str], prefix: str, per: bool,
                 keep_encoding: frozenset[str] = frozenset(), ber: bool = True,
                 ber_forms: bool = True):
        self.prefix = prefix
        self.per = per
        self.ber = ber
        self.ber_forms = ber_forms
        self.graph = graph
        self.compiled = compiled
        self.keep_encoding = self._kept(keep_encoding)
        self.names = CNames(graph, prefix)
        self.types: dict[str, TypeLayout] = {}
        self.pointer_edges: set[tuple[str, str]] = set()
        self.defaults: list[tuple[str, str, str]] = []

    def _kept(self, owners: frozenset[str]) -> frozenset[str]:
        """The SEQUENCE and SET types that --keep-encoding names (api.kept_types resolved
        them), checked: their TLV starts with a one-octet identifier wherever they occur,
        which is how their routines find the TLV's start from its contents
        (asn1h_keep_encoding)."""
        for node in self.graph:
            uses = [(node.id, node.tags, node.id)] + [
                (f"{node.id}.{c.name}", c.tags, c.type) for c in node.members()]
            for where, tags, type_id in uses:
                owner = self.graph.target(type_id).id
                if owner in owners and tags and tags[-1].number >= 31:
                    raise UsageError(f"cannot keep the encoding of {owner}: {where} tags it "
                                     f"{tags[-1]}, an identifier of several octets")
        return owners

    # -- C types ---------------------------------------------------------------------
    def owns_struct(self, node: Node) -> bool:
        return node.alias_of is None and node.kind in STRUCT_KINDS

    def ctype(self, node_id: str) -> str:
        node = self.graph[node_id]
        target = self.graph.target(node_id)
        if not node.is_anonymous or self.owns_struct(node):
            return self.names[node_id]
        if node.alias_of is not None:
            return self.ctype(node.alias_of)
        if node.kind in (Kind.INTEGER, Kind.ENUMERATED):
            return integer_storage(target)[1]
        if self._containing(node):
            return "asn1h_open"
        return _BASE_CTYPE[node.kind]

    def _holds_open_type(self, member: Node) -> bool:
        """A member that asn1h_resolve_open_types looks at: an open type, an OCTET STRING
        containing one, or a list of open types."""
        if member.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            member = self.graph.target(member.element.type)
        return member.open_type is not None or self._containing(member)

    def _containing(self, node: Node) -> bool:
        """An anonymous OCTET STRING (CONTAINING T) whose T is a table-constrained open type
        (RFC 5912's Extension.extnValue): stored as an asn1h_open, whose buf and len are
        those of asn1h_bytes, so that the contents can carry their decoded value too."""
        if node.kind != Kind.BYTES or node.builtin != "OCTET STRING" or not node.contained \
                or not node.is_anonymous or node.alias_of is not None:
            return False
        inner = self.graph.nodes.get(node.contained)
        return bool(inner is not None and inner.open_type is not None and inner.open_type.table)

    # -- recursion: which members must be pointers -------------------------------------
    def find_pointer_edges(self) -> None:
        edges: dict[str, list[str]] = {}
        for node in self.graph:
            if node.alias_of is None and node.kind in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE):
                edges[node.id] = [self.graph.target(c.type).id for c in node.components
                                  if self.owns_struct(self.graph.target(c.type))]
        components = strongly_connected_components(list(edges), lambda v: edges.get(v, []))
        component = {v: i for i, c in enumerate(components) for v in c}
        for parent, targets in edges.items():
            for t in targets:
                if component[t] == component[parent]:
                    self.pointer_edges.add((parent, t))

    def struct_order(self) -> list[str]:
        """Struct owners so that every inline member's struct comes first."""
        order: list[str] = []
        done: set[str] = set()

        def visit(node_id: str) -> None:
            stack = [(node_id, iter(self._inline_children(node_id)))]
            done.add(node_id)
            while stack:
                current, children = stack[-1]
                for child in children:
                    if child not in done:
                        done.add(child)
                        stack.append((child, iter(self._inline_children(child))))
                        break
                else:
                    stack.pop()
                    order.append(current)

        for node in self.graph:
            if self.owns_struct(node) and node.id not in done:
                visit(node.id)
        return order

    def _inline_children(self, node_id: str) -> list[str]:
        node = self.graph[node_id]
        if node.kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
            return []
        out = []
        for c in node.components:
            target = self.graph.target(c.type)
            if self.owns_struct(target) and (node_id, target.id) not in self.pointer_edges:
                out.append(target.id)
        return out

    # -- descriptors ------------------------------------------------------------------
    def descriptor_key(self, node: Node) -> Optional[tuple]:
        """Anonymous primitive nodes with equal keys share a descriptor."""
        if not node.is_anonymous or node.alias_of is not None or node.kind in STRUCT_KINDS:
            return None
        if node.kind == Kind.OPEN and node.open_type is not None or self._containing(node):
            return None
        if node.kind == Kind.ENUMERATED:
            return None
        storage = integer_storage(node)[0] if node.kind == Kind.INTEGER else ""
        return (node.kind, node.builtin, node.tags, storage, bool(node.named_bits),
                self._fixed_size(node), self._check(node), self._per(node))

    def _shared_name(self, node: Node, key: tuple, shared: dict) -> str:
        base = f"{self.prefix}{c_identifier(node.builtin)}"
        storage = key[3]
        if storage and storage != "ASN1H_INT_BIG":
            base += "_" + storage.rsplit("_", 1)[1].lower()
        if any(t.cls != TagClass.UNIVERSAL for t in node.tags) or len(node.tags) > 1:
            base += "_tagged"
        if key[4]:
            base += "_named"
        if key[5]:
            base += "_fixed"
        if key[6] or key[7]:
            base += "_constrained"
        name, n = f"{base}_type", 2
        taken = {t.desc for t in shared.values()}
        while name in taken:
            name = f"{base}_{n}_type"
            n += 1
        return name

    @staticmethod
    def _fixed_size(node: Node) -> bool:
        s = node.constraints.size
        return bool(s and s.lower is not None and s.lower == s.upper and not s.extensible)

    def build(self) -> Layout:
        self.find_pointer_edges()
        shared: dict[tuple, TypeLayout] = {}
        descriptors: list[TypeLayout] = []
        for node in self.graph:
            key = self.descriptor_key(node)
            if key is not None and key in shared:
                self.types[node.id] = shared[key]
                continue
            layout = self._type_layout(node)
            if key is not None:                  # shared: named after what it is
                layout.desc = self._shared_name(node, key, shared)
                layout.shared_name = node.builtin
            descriptors.append(layout)
            self.types[node.id] = layout
            if key is not None:
                shared[key] = layout
        for layout in descriptors:
            self._fill_members(layout)
            if layout.node.kind == Kind.OPEN and layout.node.open_type is not None:
                self._open_info(layout, layout.node.open_type, layout.node.id)
            elif self._containing(layout.node):
                self._open_info(layout, self.graph[layout.node.contained].open_type,
                                layout.node.id)
                if layout.open_entries:
                    layout.flags.append("ASN1H_T_CONTAINING")
        writer = ValueWriter(self.graph, self.ctype, lambda i: i, lambda i: self.types[i])
        for layout in descriptors:
            if layout.node.alias_of is not None:
                continue            # shares its owner's member table and so its defaults
            for m in layout.members:
                comp = self._component(layout.node, m.name)
                if comp is not None and comp.has_default and not m.pointer:
                    symbol = f"{layout.cname}_{m.field or 'item'}_default"
                    try:
                        init = writer.initializer(m.node_id, comp.default, symbol)
                    except (ValueError, KeyError, TypeError) as exc:
                        raise CompileError([Diagnostic(
                            "error", f"DEFAULT value of {layout.node.id}.{m.name}: {exc}",
                            comp.location)]) from None
                    self.defaults.append((m.ctype, symbol, init))
                    m.default = symbol
                    m.default_der = writer.der_contents(m.node_id, comp.default)
                    m.default_zero = writer.is_zero(m.node_id, comp.default)
        values, constants = [], []
        value_names = self.names.values(self.graph)
        for value in self.graph.values.values():
            symbol = value_names[value.id]
            number = self._int_constant(value)
            if number is not None:
                constants.append((symbol, number))
                continue
            try:
                init = writer.initializer(value.type, value.value, symbol)
            except (ValueError, KeyError, TypeError) as exc:
                raise CompileError([Diagnostic(
                    "error", f"value {value.id}: {exc}", value.location)]) from None
            values.append((self.ctype(value.type), symbol, init))
        return Layout(self.graph, self.names, self.types, descriptors, self.struct_order(),
                      writer.definitions, self.defaults, values, constants, self.per,
                      self.ber, self.ber_forms)

    def _int_constant(self, value) -> Optional[int]:
        """An INTEGER value that C's `int` holds: the header makes it an enumeration
        constant (an integer constant expression, no object), as asn1c makes it a macro."""
        node = self.graph.target(value.type)
        number = value.value
        if node.kind != Kind.INTEGER:
            return None
        if isinstance(number, str):
            number = node.named_numbers.get(number)
        if isinstance(number, bool) or not isinstance(number, int):
            return None
        return number if -2**31 <= number < 2**31 else None

    def _component(self, node: Node, name: str) -> Optional[Component]:
        for comp in self.graph.target(node.id).members():
            if comp.name == name:
                return comp
        return None

    def _type_layout(self, node: Node) -> TypeLayout:
        target = self.graph.target(node.id)
        if len(node.tags) > MAX_TAGS:
            raise CompileError([Diagnostic("error", f"{node.id} has more than {MAX_TAGS} tags",
                                           node.location)])
        exported = not node.is_anonymous
        cname = self.ctype(node.id)
        layout = TypeLayout(node=node, cname=cname, desc=self.names.descriptor(node.id),
                            exported=exported, owns_struct=self.owns_struct(node),
                            kind=_KIND_CONST[target.kind], tags=[tag_expr(t) for t in node.tags])
        flags = []
        if target.extensible and target.kind in (Kind.SEQUENCE, Kind.SET, Kind.CHOICE,
                                                 Kind.ENUMERATED):
            flags.append("ASN1H_T_EXTENSIBLE")
        if target.kind == Kind.BIT_STRING:
            if target.named_bits:
                flags.append("ASN1H_T_NAMED_BITS")
            if self._fixed_size(node) or self._fixed_size(target):
                flags.append("ASN1H_T_FIXED_SIZE")
        if target.kind in (Kind.SEQUENCE, Kind.SET) and any(
                self._holds_open_type(self.graph.target(c.type)) for c in target.components):
            flags.append("ASN1H_T_OPEN_MEMBERS")
        layout.flags = flags
        if target.kind in (Kind.INTEGER, Kind.ENUMERATED):
            layout.storage = integer_storage(target)[0]
        if target.kind == Kind.ENUMERATED and node.alias_of is None:
            items = list(target.named_numbers.items())     # an alias uses its target's
            root = len(items) - len(target.enum_extension or [])
            # the root by value: PER numbers its items so (X.691 14.1)
            layout.enum_items = sorted(items[:root], key=lambda item: item[1]) + items[root:]
            layout.enum_root = root
        if target.kind == Kind.BYTES:
            layout.universal = UNIVERSAL_TAGS.get(target.builtin, 4)
        layout.check = self._check(node)
        layout.per = self._per(node)
        layout.keep_encoding = target.id in self.keep_encoding
        owner = target
        if self.owns_struct(owner):
            # an alias constrained otherwise than its owner cannot use the owner's routines,
            # which check the owner's constraint: the interpreter checks its own
            layout.compiled = owner.id in self.compiled and layout.check == self._check(owner)
            layout.decoder = self.names.decoder(owner.id)
            layout.encoder = self.names.encoder(owner.id)
        return layout

    def _check(self, node: Node) -> Optional[RuntimeCheck]:
        if self._containing(node):
            return None                 # its `extra` names the key member
        target = self.graph.target(node.id)
        check = runtime_check(node, target)
        if check and check.values and target.kind == Kind.INTEGER:
            storage = integer_storage(target)[0]
            if any(check.values == ((low, high),) for name, _, low, high
                   in _UNSIGNED + _SIGNED if name == storage):
                check = replace(check, values=())   # INTEGER (0..255): its C type says it
        return check or None

    def _per(self, node: Node) -> Optional[PerVisible]:
        if not self.per or self._containing(node):
            return None
        return per_visible(node, self.graph.target(node.id))

    def _open_info(self, layout: TypeLayout, rule, node_id: str) -> None:
        """The table of an open type (or of the OCTET STRING containing one) whose key is a
        sibling component (AlgorithmIdentifier, Attribute, Extension...).  Other relations
        leave the value raw (asn1h_open.buf)."""
        parent_id = node_id.rsplit(".", 1)[0]
        if parent_id not in self.graph.nodes or not rule.key_path:
            return
        if self._element_of_member(node_id):     # an attribute's values: the key is beside
            parent_id = parent_id.rsplit(".", 1)[0]  # the list, in the SEQUENCE holding it
        if self._key_holder(rule, parent_id) != self.graph.target(parent_id).id:
            return
        siblings = [c.name for c in self.graph.target(parent_id).components]
        if rule.key_path[-1] not in siblings:
            return
        entries = []
        for key, type_id in rule.table.items():
            if isinstance(key, bool):
                continue
            if isinstance(key, int):
                data = integer(key)
            elif isinstance(key, str) and key[:1].isdigit():
                data = object_identifier(key)
            else:
                continue
            entries.append((data, type_id))
        if entries:
            layout.open_entries = entries
            layout.open_key_member = siblings.index(rule.key_path[-1])

    def _element_of_member(self, node_id: str) -> bool:
        """Whether node_id is the element of an anonymous SEQUENCE OF / SET OF that is a
        component of a SEQUENCE or SET (`attrValues SET OF ATTRIBUTE.&Type(...)`)."""
        list_id, star = node_id.rsplit(".", 1)
        if star != "*" or list_id not in self.graph.nodes:
            return False
        holder_id, name = list_id.rsplit(".", 1)
        holder = self.graph.nodes.get(holder_id)
        if holder is None or holder.kind not in (Kind.SEQUENCE, Kind.SET) or \
                self.graph[list_id].kind not in (Kind.SEQUENCE_OF, Kind.SET_OF):
            return False
        comp = self._component(holder, name)
        return comp is not None and comp.type == list_id

    def _key_holder(self, rule, parent_id: str) -> Optional[str]:
        """The type whose component is the key: climb `key_levels_up` enclosing types from
        the open type's parent, then follow the key path but its last name.  A key written
        from further out (`@algorithmIdentifier.algorithm` in an instance of a
        parameterized SIGNED{}) often leads back to the parent itself."""
        holder = parent_id
        for _ in range(rule.key_levels_up):
            holder = holder.rsplit(".", 1)[0]
            if holder not in self.graph.nodes:
                return None
        for name in rule.key_path[:-1]:
            comp = self._component(self.graph[holder], name)
            if comp is None:
                return None
            holder = comp.type
        return self.graph.target(holder).id

    def _fill_members(self, layout: TypeLayout) -> None:
        node = layout.node
        owner = self.graph.target(node.id)
        if not self.owns_struct(owner):
            return
        if owner.id != node.id:                  # an alias: share the owner's tables
            owner_layout = self.types[owner.id]
            if not owner_layout.members and owner_layout is not layout:
                self._fill_members(owner_layout)
            layout.members = owner_layout.members
            layout.present_bytes = owner_layout.present_bytes
            layout.der_order = owner_layout.der_order
            layout.unknown_at = owner_layout.unknown_at
            return
        if layout.members:
            return
        cname = layout.cname
        kind = owner.kind
        bit = 0
        for index, comp in enumerate(owner.members()):
            target = self.graph.target(comp.type)
            pointer = (owner.id, target.id) in self.pointer_edges
            is_element = kind in (Kind.SEQUENCE_OF, Kind.SET_OF)
            fieldname = "" if is_element else c_identifier(comp.name)
            m = MemberLayout(name=comp.name or "item", field=fieldname, node_id=comp.type,
                             target=target, ctype=self.ctype(comp.type), pointer=pointer,
                             tags=comp.tags, desc=self.types[comp.type].desc, index=index)
            if len(comp.tags) > MAX_TAGS:
                raise CompileError([Diagnostic(
                    "error", f"{owner.id}.{comp.name} has more than {MAX_TAGS} tags",
                    comp.location)])
            self._member_tagging(m, comp)
            m.group = comp.group
            m.addition = comp.extension or 0
            if comp.optional:
                m.flags.append("ASN1H_M_OPTIONAL")
            if comp.has_default:
                m.flags.append("ASN1H_M_DEFAULT")
            if comp.extension is not None:
                m.flags.append("ASN1H_M_EXTENSION")
            if pointer:
                m.flags.append("ASN1H_M_POINTER")
            if kind in (Kind.SEQUENCE, Kind.SET) and not comp.present_always:
                if bit >= MAX_PRESENCE_BITS:
                    raise CompileError([Diagnostic(
                        "error", f"{owner.id} has more than {MAX_PRESENCE_BITS} OPTIONAL, "
                        "DEFAULT and extension members: the tables' presence bits are 8-bit",
                        comp.location)])
                m.bit = bit
                bit += 1
            if kind == Kind.CHOICE:
                m.access = f"v->u.{fieldname}"
                m.offset = f"offsetof({cname}, u.{fieldname})"
            elif is_element:
                m.access = "item"
                m.offset = "0"
            else:
                m.access = f"v->{fieldname}"
                m.offset = f"offsetof({cname}, {fieldname})"
            self._strategy(m)
            layout.members.append(m)
        layout.present_bytes = (bit + 7) // 8
        if kind in (Kind.SET, Kind.CHOICE):
            # Tags that clash (accepted by --lenient): the first member takes the tag, as in
            # the interpreter, and the others are left to it.
            taken: set[int] = set()
            for m in layout.members:
                if m.first_octet is not None and m.match_octet in taken:
                    m.first_octet = None
                    m.strategy = "generic"
                elif m.first_octet is not None:
                    taken.add(m.match_octet)
        if kind == Kind.SET:
            layout.der_order = _der_order(self.graph, owner)
        if kind in (Kind.SEQUENCE, Kind.SET) and owner.extensible:
            point = owner.extension_point
            layout.unknown_at = len(layout.members) if point is None or kind == Kind.SET \
                else point

    def _member_tagging(self, m: MemberLayout, comp: Component) -> None:
        """Express the member's effective tags as the runtime does: its type's own tags,
        possibly with the first replaced (IMPLICIT) or wrapped (EXPLICIT)."""
        own = self.graph[comp.type].tags
        eff = comp.tags
        if eff == own:
            return
        if len(eff) == len(own) + 1 and eff[1:] == own:
            m.flags.append("ASN1H_M_EXPLICIT")
        elif len(eff) == len(own) and len(own) >= 1 and eff[1:] == own[1:]:
            m.flags.append("ASN1H_M_IMPLICIT")
        else:
            raise CompileError([Diagnostic(
                "error", f"tags of component {comp.name} ({' '.join(map(str, eff))}) cannot "
                f"be derived from those of its type ({' '.join(map(str, own))})",
                comp.location)])
        m.tag = tag_expr(eff[0])

    def _strategy(self, m: MemberLayout) -> None:
        """Which fast path compiled routines use for this member; 'generic' calls the
        interpreter's member routine, which handles every case."""
        t = m.target
        m.takes_unknown = not m.tags and t.kind == Kind.CHOICE and t.extensible
        m.child_decoder = self.names.decoder(t.id) if t.id in self.compiled and \
            self.owns_struct(t) else None
        check = self.types[m.node_id].check
        if check != self._check(t):     # an alias with a constraint of its own
            m.child_decoder = None
        m.child_encoder = self.names.encoder(t.id) if m.child_decoder else None
        if m.pointer:
            return
        if not t.kind.has_own_tlv:
            if not m.tags and t.kind == Kind.CHOICE:
                m.strategy = "choice"
            elif len(m.tags) == 1 and t.kind == Kind.CHOICE:
                # encoding only: decoding keeps the general path, which counts the
                # wrapper's nesting level as the interpreter does
                m.wrapper_octet = identifier_octet(m.tags[0], True)
            elif not m.tags and t.kind == Kind.OPEN and t.open_type is None:
                m.strategy = "open"                 # ANY, kept raw (tables: interpreter)
            return
        if len(m.tags) != 1:
            return
        octet = identifier_octet(m.tags[0], t.kind in _CONSTRUCTED_FORM)
        if octet is None:
            return
        m.first_octet = octet
        if self._containing(t):
            return                  # generic: its encoder writes the contained value
        if t.kind == Kind.BYTES:
            m.strategy = {"OBJECT IDENTIFIER": "oid", "RELATIVE-OID": "oid", "UTCTime": "time",
                          "GeneralizedTime": "time"}.get(t.builtin, "bytes")
        elif t.kind == Kind.INTEGER:
            m.storage = integer_storage(t)[0]
            if m.storage == "ASN1H_INT_BIG":
                m.strategy = "int_big"
            else:
                m.strategy = "int_native"
                for storage, _, low, high in _UNSIGNED + _SIGNED:
                    if storage == m.storage:
                        m.int_range = (low, high)
        elif t.kind == Kind.BOOLEAN:
            m.strategy = "bool"
        elif t.kind == Kind.NULL:
            m.strategy = "null"
        elif t.kind == Kind.BIT_STRING and not t.named_bits:
            m.strategy = "bits"
        elif t.kind in _CONSTRUCTED_FORM:
            m.strategy = "struct"
        if check:
            self._fast_checks(m, check)

    def _fast_checks(self, m: MemberLayout, check: RuntimeCheck) -> None:
        """The inline conditions under which a constrained member's fast path may run: a
        constraint of one interval, counted without the runtime.  Anything else takes the
        interpreter's member routine."""
        t = m.target
        if m.strategy == "bytes":
            size = size_expression(t.builtin, "c", "ce")
            if check.chars or check.single_size is None or size is None:
                m.strategy = "generic"
                return
            low, high = check.single_size
            m.decode_test = size_test(size, low, high)
            m.encode_test = size_test(
                size_expression(t.builtin, "{acc}.buf", "{acc}.buf + {acc}.len"), low, high)
        elif m.strategy in ("int_native", "int_big"):
            if check.single_value is None:
                m.strategy = "generic"
                return
            low, high = check.single_value
            if m.strategy == "int_native":
                floor, ceiling = m.int_range           # the C type's own range
                m.int_range = (max(low, floor), min(high, ceiling))
                literal = "UINT64_C({})" if m.storage.startswith("ASN1H_INT_U") \
                    else "INT64_C({})"
                parts = []
                if m.int_range[0] > floor:
                    parts.append("{acc} >= " + literal.format(m.int_range[0]))
                if m.int_range[1] < ceiling:
                    parts.append("{acc} <= " + literal.format(m.int_range[1]))
                m.encode_test = " && ".join(parts)
            else:
                m.decode_test = interval_test("x", check.single_value)
                m.encode_test = "!{acc}.big && " + interval_test("{acc}.v", check.single_value)
        elif m.strategy == "bits" and check.sizes:
            m.decode_test = intervals_test("(uint64_t)(ce - c - 1) * 8u", check.sizes,
                                           unsigned=True)


def _der_order(graph: TypeGraph, node: Node) -> list[int]:
    """Member indexes of a SET in DER order: by the canonical order of their outermost
    tags (X.680 8.6); an untagged CHOICE counts with its smallest tag."""
    def smallest(comp: Component) -> Tag:
        if comp.tags:
            return comp.tags[0]
        target = graph.target(comp.type)
        tags = [smallest(c) for c in target.components] or [Tag(TagClass.PRIVATE, 2**31)]
        return min(tags)
    indexed = [(smallest(c), i) for i, c in enumerate(node.components)]
    return [i for _, i in sorted(indexed)]


def build_layout(graph: TypeGraph, compiled: set[str], prefix: str = "",
                 per: bool = True, keep_encoding: frozenset[str] = frozenset(),
                 ber: bool = True, ber_forms: bool = True) -> Layout:
    """`per`: with what PER needs (its visible constraints, extension groups);
    `keep_encoding`: the SEQUENCE and SET types whose values keep their TLV; `ber`: the
    compiled types get BER routines (without, only PER ones); `ber_forms`: the program
    reads BER's forms of strings and times beside DER's (constructed strings, times in any
    form), else DER's alone (--encoding der)."""
    return _Builder(graph, compiled, prefix, per, keep_encoding, ber, ber_forms).build()
