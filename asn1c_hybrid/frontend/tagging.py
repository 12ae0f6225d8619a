"""Tags: what a tagged type's tags are on the wire (X.680 31, X.690 8.14).

A node's tags are listed outermost first.  For a type with a TLV of its own, the last tag
is the type's identifier; CHOICE and open types have no identifier of their own, so every
tag of theirs is an explicit wrapper (typegraph.Kind.has_own_tlv).
"""
from __future__ import annotations

from ..typegraph import Kind, Tag, TagClass

TAG_CLASSES = {
    "UNIVERSAL": TagClass.UNIVERSAL, "APPLICATION": TagClass.APPLICATION,
    "CONTEXT": TagClass.CONTEXT, "PRIVATE": TagClass.PRIVATE,
}


def apply_tag(tag: Tag, explicit: bool, inner: tuple[Tag, ...]) -> tuple[Tag, ...]:
    """The tags of ``[tag] EXPLICIT|IMPLICIT inner``.

    An implicit tag replaces the outermost tag of the inner type; the caller has already
    turned IMPLICIT into EXPLICIT where X.680 31.2.7 says so (untagged CHOICE, open type or
    dummy reference), so an implicit tag never meets an empty tag list here."""
    if explicit or not inner:
        return (tag,) + inner
    return (tag,) + inner[1:]


def tagging_is_explicit(mode: str | None, module_default: str, inner_kind: Kind,
                        inner_tags: tuple[Tag, ...], inner_is_dummy: bool) -> bool:
    """X.680 31.2.7: whether a tag written with `mode` (None: the module's default) is
    explicit.  IMPLICIT and AUTOMATIC defaults tag implicitly, except an untagged CHOICE,
    an untagged open type and an untagged dummy reference, which are always tagged
    explicitly."""
    if mode == "EXPLICIT":
        return True
    untagged_without_tlv = not inner_tags and not inner_kind.has_own_tlv
    if inner_is_dummy or untagged_without_tlv:
        return True
    if mode == "IMPLICIT":
        return False
    return module_default == "EXPLICIT"
