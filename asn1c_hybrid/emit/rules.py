"""The encoding rules a build can carry (`compile --encoding`)."""
from __future__ import annotations

ENCODINGS = ("ber", "uper", "aper")    # the encoding rules a build carries by default
RULES = ("ber", "der", "uper", "aper")  # all it can carry: der is BER with DER's forms of
                                       # strings and times alone
BER = ("ber", "der")
PER = ("uper", "aper")


def carries_ber(encodings: tuple[str, ...]) -> bool:
    """Whether a build of these rules reads and writes BER (ber, or der: DER's strings
    and times)."""
    return any(rules in BER for rules in encodings)


def per_rules(encodings: tuple[str, ...]) -> list[str]:
    """The PER rules among a build's (uper, aper, in its order): none, no PER code."""
    return [rules for rules in encodings if rules in PER]
