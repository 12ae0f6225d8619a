"""pycrate as a second PER reference (X.691, unaligned and aligned).

pycrate compiles a specification into a Python module; values go to it in its own
conventions, which `to_pycrate` derives from asn1tools' (the ones tests/valuegen.py makes):
BIT STRING as (integer, length), OBJECT IDENTIFIER as a tuple of arcs, NULL as 0; a BIT
STRING with named bits in its canonical form.
"""
from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from asn1c_hybrid.typegraph import Kind, TypeGraph


class PycrateSpec:
    def __init__(self, files: Sequence[Path], module_name: str):
        from pycrate_asn1c.asnproc import GLOBAL, PycrateGenerator, compile_text, \
            generate_modules
        GLOBAL.clear()
        compile_text([Path(f).read_text() for f in files], filenames=[str(f) for f in files])
        out = Path(tempfile.mkdtemp(prefix="pycrate-")) / "generated.py"
        generate_modules(PycrateGenerator, str(out))
        spec = importlib.util.spec_from_file_location(f"pycrate_{id(self)}", out)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        self.modules = module
        self.module = getattr(module, module_name.replace("-", "_"))

    def type_of(self, pdu: str):
        """pycrate's object of the module's type `pdu`, or of `Module.Type` in any module
        (names with - as _)."""
        module, _, name = pdu.rpartition(".")
        owner = getattr(self.modules, module.replace("-", "_")) if module else self.module
        return getattr(owner, name.replace("-", "_"))

    def encode(self, pdu: str, value: Any, aligned: bool) -> bytes:
        obj = self.type_of(pdu)
        obj.set_val(value)
        return obj.to_aper() if aligned else obj.to_uper()

    def reads_as(self, pdu: str, data: bytes, aligned: bool, value: Any) -> bool:
        """Whether pycrate's decoder reads `data` as `value`, all of it."""
        obj = self.type_of(pdu)
        try:
            (obj.from_aper if aligned else obj.from_uper)(data)
        except Exception:
            return False
        return without_defaults(obj, obj.get_val(), value) == value


def without_defaults(obj, got: Any, wanted: Any) -> Any:
    """`got` (as pycrate decodes it) without the DEFAULT components it filled in where
    `wanted` leaves them out."""
    kind = getattr(obj, "TYPE", "")
    if kind in ("SEQUENCE", "SET") and isinstance(got, dict) and isinstance(wanted, dict):
        out = {}
        for name, v in got.items():
            inner = obj._cont[name]
            if name not in wanted:
                if getattr(inner, "_def", None) == v:
                    continue
                out[name] = v
            else:
                out[name] = without_defaults(inner, v, wanted[name])
        return out
    if kind == "CHOICE" and isinstance(got, tuple) and isinstance(wanted, tuple) \
            and got[0] == wanted[0]:
        return (got[0], without_defaults(obj._cont[got[0]], got[1], wanted[1]))
    if kind in ("SEQUENCE OF", "SET OF") and isinstance(got, list) and \
            isinstance(wanted, list) and len(got) == len(wanted):
        return [without_defaults(obj._cont, g, w) for g, w in zip(got, wanted)]
    return got


def to_pycrate(graph: TypeGraph, node_id: str, value: Any) -> Any:
    """An asn1tools-style value of node_id as pycrate takes it."""
    target = graph.target(node_id)
    kind = target.kind
    if kind == Kind.BIT_STRING:
        data, nbits = value
        number = int.from_bytes(data, "big") >> (8 * len(data) - nbits) if data else 0
        if target.named_bits:
            # the canonical value (X.680 22.7, X.691 16.3): no trailing 0 bits beyond the
            # lower bound, which pycrate does not drop by itself
            size = graph[node_id].constraints.size or target.constraints.size
            lower = size.lower or 0 if size is not None else 0
            while nbits > lower and not number & 1:
                number >>= 1
                nbits -= 1
        return (number, nbits)
    if kind == Kind.NULL:
        return 0
    if kind == Kind.BYTES and target.builtin in ("OBJECT IDENTIFIER", "RELATIVE-OID"):
        return tuple(int(arc) for arc in value.split("."))
    if kind in (Kind.SEQUENCE, Kind.SET):
        types = {c.name: c.type for c in target.components}
        return {name: to_pycrate(graph, types[name], v) for name, v in value.items()}
    if kind == Kind.CHOICE:
        name, v = value
        types = {c.name: c.type for c in target.components}
        return (name, to_pycrate(graph, types[name], v))
    if kind in (Kind.SEQUENCE_OF, Kind.SET_OF):
        return [to_pycrate(graph, target.element.type, v) for v in value]
    return value
