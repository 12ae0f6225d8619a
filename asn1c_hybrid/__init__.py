"""asn1c-hybrid: an ASN.1 compiler for C that marshals each type either by a compiled
routine or by an interpreter table, chosen by frequency under a code-size budget."""

__version__ = "0.1.0"
