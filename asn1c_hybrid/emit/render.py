"""Rendering of the C templates from a Layout."""
from __future__ import annotations

from typing import Optional, Sequence

import jinja2

from .. import __version__
from ..layouts import Layout as MessageLayout
from ..resources import data_dir
from ..typegraph import Kind
from .fastpaths import build_fast_paths, name_fast_paths
from .layout import Layout, integer_storage
from .naming import c_identifier, check_spec_symbol
from .per_routines import per_routines
from .rules import per_rules
from .tables import build_tables
from .values import c_bytes, c_int


def _hex(value: int) -> str:
    return f"0x{value:02X}"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined, autoescape=False)
    env.filters["hex"] = _hex
    env.filters["c_int"] = c_int
    return env


def _constants(layout: Layout) -> list[dict]:
    """Named numbers of ENUMERATED and INTEGER types, as C constants."""
    out = []
    for t in layout.descriptors:
        node = t.node
        if node.alias_of is not None or node.kind not in (Kind.ENUMERATED, Kind.INTEGER):
            continue
        if not node.named_numbers:
            continue
        items = [(c_identifier(k), v) for k, v in node.named_numbers.items()]
        out.append({"id": node.id, "cname": layout.names[node.id], "constants": items,
                    "fits_int": all(-(2**31) <= v < 2**31 for _, v in items)})
    return out


def _number_lines(data: bytes, width: int = 88) -> list[str]:
    """Octets as decimal numbers, in lines of about `width` characters."""
    lines, line = [], ""
    for octet in data:
        if len(line) > width:
            lines.append(line)
            line = ""
        line += f"{octet},"
    return lines + [line] if line else lines


def _pool_rows(rows: list[bytes]) -> list[tuple[int, str]]:
    """A string pool's rows as (size, C string literal), one a row (each at most 4095
    characters, as C99 allows), split over lines of about 88 characters.  Rows are full
    but the last, which is only as long as its contents."""
    out = []
    for index, row in enumerate(rows):
        text = row.rstrip(b"\0")
        size = len(row)
        pieces, line = [], ""
        for k in range(0, len(text) or 1):
            piece = c_bytes(text[k:k + 1])[1:-1] if text else ""
            line += piece
            if len(line) > 88:
                pieces.append(f'"{line}"')
                line = ""
        if line or not pieces:
            pieces.append(f'"{line}"')
        out.append((size, "\n     ".join(pieces)))
    return out


def render(layout: Layout, name: str, prefix: str, converter: bool,
           encodings: tuple[str, ...],
           fast_layouts: Optional[tuple[str, Sequence[MessageLayout]]] = None
           ) -> dict[str, str]:
    """The generated files; the converter (`converter`) speaks the `encodings` only;
    `fast_layouts`: a PDU type and the layouts that get fast paths."""
    graph = layout.graph
    env = environment()
    descriptors = layout.descriptors
    by_id = layout.types
    primitive_typedefs, alias_typedefs = [], []
    for node in graph:
        if node.is_anonymous or by_id[node.id].owns_struct:
            continue
        if node.alias_of is None:
            base = integer_storage(node)[1] if node.kind in (Kind.INTEGER, Kind.ENUMERATED) \
                else by_id[node.id].cname
            ctype = {Kind.BOOLEAN: "bool", Kind.REAL: "double", Kind.BIT_STRING: "asn1h_bits",
                     Kind.BYTES: "asn1h_bytes", Kind.NULL: "asn1h_null",
                     Kind.OPEN: "asn1h_open"}.get(node.kind, base)
            primitive_typedefs.append({"cname": layout.names[node.id], "ctype": ctype})
        else:
            target = graph.target(node.id)
            alias_typedefs.append({"cname": layout.names[node.id],
                                   "ctype": layout.names[target.id] if not target.is_anonymous
                                   or by_id[target.id].owns_struct else by_id[target.id].cname})
    owners = [by_id[n.id] for n in graph if by_id[n.id].owns_struct and n.alias_of is None]
    symbol = prefix + c_identifier(name)
    check_spec_symbol(symbol, [layout.names[node.id] for node in graph])
    fast_pdu = layout.types[fast_layouts[0]] if fast_layouts and fast_layouts[1] else None
    if fast_pdu is not None:
        name_fast_paths(fast_pdu, fast_layouts[1])
    tables = build_tables(layout, f"{symbol}_spec", f"{symbol}_members")
    fast = build_fast_paths(layout, fast_layouts[0], fast_layouts[1]) if fast_pdu else None
    # DEFAULT constants that a shared member table made redundant are not emitted
    used_defaults = {m.default for t in layout.types.values() for m in t.members if m.default}
    routines, shapes = per_routines(layout, [t for t in descriptors
                                             if t.compiled and t.node.alias_of is None], symbol)
    context = {
        "name": name,
        "version": __version__,
        "modules": [m.name for m in graph.modules],
        "guard": f"ASN1H_GENERATED_{c_identifier(symbol).upper()}_H",
        "structs_by_id": owners,
        "primitive_typedefs": primitive_typedefs,
        "alias_typedefs": alias_typedefs,
        "enum_constants": _constants(layout),
        "structs": [by_id[i] for i in layout.struct_order],
        "exported": [t for t in descriptors if t.exported],
        "symbol": symbol,
        "ntypes": len(tables.types),
        "tables": tables,
        # the words of names; none when every word is written in characters
        "strings": _pool_rows(tables.string_rows) if tables.string_rows != [b"\0"] else [],
        "names": _number_lines(tables.names),
        "profile_strings": _pool_rows(tables.profile_rows),
        "enum_values": [c_int(v) for v in tables.enum_values],
        "descriptors": descriptors,
        # the BER routines (a build without BER has the PER ones alone)
        "compiled": [t for t in descriptors if t.compiled and t.node.alias_of is None
                     and layout.ber],
        "per_routines": routines,
        "per_shapes": shapes,
        "compiled_names": [t.node.id for t in descriptors
                           if t.compiled and t.node.alias_of is None],
        "definitions": layout.definitions,
        "defaults": [d for d in layout.defaults if d[1] in used_defaults],
        "values": layout.values,
        "constants": layout.constants,
        "spec_hash": graph.spec_hash(),
        "encodings": encodings,
        "per_rules": per_rules(encodings),                  # uper, aper
        "ber": layout.ber,
        "fast": fast,
    }
    files = {
        f"{name}.h": env.get_template("header.h.j2").render(context),
        f"{name}.c": env.get_template("source.c.j2").render(context),
    }
    if converter:
        # in a folder of its own: a build that compiles every .c of the output directory
        # into a library must not get the converter's main()
        files[f"converter/{name}_converter.c"] = env.get_template("converter.c.j2").render(context)
    return files
