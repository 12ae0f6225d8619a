"""tagging.py: X.680 31.2 -- what a tag does to the inner type's tags."""
from __future__ import annotations

import pytest

from asn1c_hybrid.frontend.tagging import apply_tag, tagging_is_explicit
from asn1c_hybrid.typegraph import Kind, Tag, TagClass, universal

T5 = Tag(TagClass.CONTEXT, 5)
A1 = Tag(TagClass.APPLICATION, 1)


def test_explicit_wraps_implicit_replaces():
    assert apply_tag(T5, True, (universal(2),)) == (T5, universal(2))
    assert apply_tag(T5, False, (universal(2),)) == (T5,)
    assert apply_tag(T5, False, (A1, universal(2))) == (T5, universal(2))
    assert apply_tag(T5, False, ()) == (T5,)


@pytest.mark.parametrize("mode, default, kind, tags, dummy, explicit", [
    ("EXPLICIT", "IMPLICIT", Kind.INTEGER, (universal(2),), False, True),
    ("IMPLICIT", "EXPLICIT", Kind.INTEGER, (universal(2),), False, False),
    (None, "EXPLICIT", Kind.INTEGER, (universal(2),), False, True),
    (None, "IMPLICIT", Kind.INTEGER, (universal(2),), False, False),
    (None, "AUTOMATIC", Kind.INTEGER, (universal(2),), False, False),
    (None, "IMPLICIT", Kind.CHOICE, (), False, True),          # untagged CHOICE
    (None, "IMPLICIT", Kind.CHOICE, (T5,), False, False),      # tagged CHOICE
    (None, "AUTOMATIC", Kind.OPEN, (), False, True),           # untagged open type
    (None, "IMPLICIT", Kind.INTEGER, (universal(2),), True, True),   # dummy reference
])
def test_when_a_tag_is_explicit(mode, default, kind, tags, dummy, explicit):
    assert tagging_is_explicit(mode, default, kind, tags, dummy) is explicit
