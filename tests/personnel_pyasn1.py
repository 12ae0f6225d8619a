"""The personnel record written for pyasn1: an independent DER encoder (pyasn1 orders SET
components by tag, as X.690 10.3 requires)."""
from __future__ import annotations

from pyasn1.codec.der import encoder
from pyasn1.type import char, namedtype, tag, univ


def _implicit(number: int, cls=tag.tagClassContext, constructed: bool = False) -> tag.Tag:
    return tag.Tag(cls, tag.tagFormatConstructed if constructed else tag.tagFormatSimple, number)


class Name(univ.Sequence):
    tagSet = univ.Sequence.tagSet.tagImplicitly(_implicit(1, tag.tagClassApplication, True))
    componentType = namedtype.NamedTypes(
        namedtype.NamedType("givenName", char.IA5String()),
        namedtype.NamedType("initial", char.IA5String()),
        namedtype.NamedType("familyName", char.IA5String()))


class SpouseName(Name):
    tagSet = Name.tagSet.tagImplicitly(_implicit(2, constructed=True))


class Date(char.IA5String):
    tagSet = char.IA5String.tagSet.tagImplicitly(_implicit(3, tag.tagClassApplication))


class ChildInformation(univ.Set):
    componentType = namedtype.NamedTypes(
        namedtype.NamedType("name", Name()),
        namedtype.NamedType("dateOfBirth", Date().subtype(implicitTag=_implicit(0))))


class Children(univ.SequenceOf):
    tagSet = univ.SequenceOf.tagSet.tagImplicitly(_implicit(3, constructed=True))
    componentType = ChildInformation()


class PersonnelRecord(univ.Set):
    tagSet = univ.Set.tagSet.tagImplicitly(_implicit(0, tag.tagClassApplication, True))
    componentType = namedtype.NamedTypes(
        namedtype.NamedType("name", Name()),
        namedtype.NamedType("title", char.IA5String().subtype(implicitTag=_implicit(0))),
        namedtype.NamedType("number", univ.Integer().subtype(
            implicitTag=_implicit(2, tag.tagClassApplication))),
        namedtype.NamedType("dateOfHire", Date().subtype(implicitTag=_implicit(1))),
        namedtype.NamedType("nameOfSpouse", SpouseName()),
        namedtype.DefaultedNamedType("children", Children().clear()))


def _name(value: dict, cls=Name) -> Name:
    n = cls()
    for key in ("givenName", "initial", "familyName"):
        n[key] = value[key]
    return n


def der(value: dict) -> bytes:
    """DER of a PersonnelRecord given as a dict (the asn1tools convention)."""
    record = PersonnelRecord()
    record["name"] = _name(value["name"])
    record["title"] = value["title"]
    record["number"] = value["number"]
    record["dateOfHire"] = value["dateOfHire"]
    record["nameOfSpouse"] = _name(value["nameOfSpouse"], SpouseName)
    kids = Children().clear()      # an empty list equals the DEFAULT: DER leaves it out
    for child in value.get("children", []):
        c = ChildInformation()
        c["name"] = _name(child["name"])
        c["dateOfBirth"] = child["dateOfBirth"]
        kids.append(c)
    record["children"] = kids
    return encoder.encode(record)
