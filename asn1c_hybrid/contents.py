"""Contents octets of primitive values (X.690), for values written in a specification:
DEFAULT values and value assignments in the generated C, table-constraint keys, the
encodings of open-type values."""
from __future__ import annotations

_STRING_CODECS = {"UTF8String": "utf-8", "BMPString": "utf-16-be",
                  "UniversalString": "utf-32-be"}


def integer(value: int) -> bytes:
    """Minimal two's complement (X.690 8.3)."""
    length = max(1, (value + (value < 0)).bit_length() // 8 + 1)
    return value.to_bytes(length, "big", signed=True)


def object_identifier(dotted: str, relative: bool = False) -> bytes:
    """OBJECT IDENTIFIER or RELATIVE-OID (X.690 8.19, 8.20) from dotted decimal."""
    arcs = [int(a) for a in dotted.split(".") if a != ""]
    if not relative:
        problem = oid_unencodable(arcs)
        if problem:
            raise ValueError(f"object identifier {dotted!r} {problem}")
        arcs = [arcs[0] * 40 + arcs[1]] + arcs[2:]
    out = bytearray()
    for arc in arcs:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc:
            chunk.append(0x80 | (arc & 0x7F))
            arc >>= 7
        out.extend(reversed(chunk))
    return bytes(out)


def oid_unencodable(arcs: list[int]) -> str:
    """Why X.690 8.19.4 cannot encode an OBJECT IDENTIFIER of these arcs, else ""."""
    if len(arcs) < 2:
        return "has fewer than two arcs"
    if arcs[0] > 2:
        return "has a first arc above 2"
    if arcs[0] < 2 and arcs[1] > 39:
        return f"has a second arc above 39 under arc {arcs[0]}"
    return ""


def character_string(builtin: str, value: str) -> bytes:
    """A character string in its type's encoding: UTF-8, UCS-2, UCS-4, else one octet per
    character."""
    return value.encode(_STRING_CODECS.get(builtin, "latin-1"))
