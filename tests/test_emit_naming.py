"""C names: valid C and C++ identifiers for every ASN.1 name."""
from __future__ import annotations

import subprocess

import cbuild
from asn1c_hybrid.emit.naming import c_identifier


def test_hyphens_and_reserved_words():
    assert c_identifier("given-name") == "given_name"
    assert c_identifier("int") == "int_"
    assert c_identifier("class") == "class_"            # C++ keyword
    assert [c_identifier(w) for w in ("and", "or", "not", "xor")] == \
        ["and_", "or_", "not_", "xor_"]                   # C++ alternative tokens


def test_ldap_header_compiles_as_cplusplus(shared_dir, tmp_path):
    # LDAP's Filter has alternatives named and, or, not
    out = cbuild.generate([shared_dir / "specs" / "IETF_LDAP_RFC4511"], tmp_path / "gen", "--name", "gen")
    source = tmp_path / "use.cpp"
    source.write_text('#include "gen.h"\nint main() { Filter f; f.u.and_.count = 0;'
                      ' return (int)f.u.and_.count; }\n')
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                    "-I", str(out), "-I", str(cbuild.RUNTIME), "-c", str(source), "-o",
                    str(tmp_path / "use.o")], check=True, capture_output=True)
