"""C names: valid C and C++ identifiers for every ASN.1 name."""
from __future__ import annotations

import re
import subprocess

import cbuild
from asn1c_hybrid.cli import main as cli_main
from asn1c_hybrid.emit.naming import SPEC_SYMBOL_SUFFIXES, c_identifier


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


VALUES_SPEC = """Values DEFINITIONS ::= BEGIN
Small ::= INTEGER (1..64)
Flags ::= INTEGER { low(-7), high(2147483647) }
ub-count INTEGER ::= 4
lowest-small Small ::= 1
named Flags ::= high
negative INTEGER ::= -2147483648
wide INTEGER ::= 2147483648
huge INTEGER ::= 123456789012345678901234567890
yes BOOLEAN ::= TRUE
END
"""

VALUES_USE = r"""#include <string.h>
#include "gen.h"
/* integer constant expressions: array sizes, case labels */
typedef char count_is_4[ub_count == 4 ? 1 : -1];
typedef char small_is_1[lowest_small == 1 ? 1 : -1];
typedef char named_is_max[named == 2147483647 ? 1 : -1];
typedef char negative_is_min[negative == -2147483647 - 1 ? 1 : -1];
int main(void)
{
    static const uint8_t huge_octets[] = {0x01, 0x8E, 0xE9, 0x0F, 0xF6, 0xC3, 0x73, 0xE0,
                                          0xEE, 0x4E, 0x3F, 0x0A, 0xD2};
    char items[ub_count];
    switch ((int)sizeof items) {
    case ub_count:
        break;
    default:
        return 1;
    }
    if (wide.big != NULL || wide.v != INT64_C(2147483648))
        return 2;                     /* beyond an int: still an object */
    if (huge.big_len != sizeof huge_octets || memcmp(huge.big, huge_octets, sizeof huge_octets))
        return 3;
    return yes ? 0 : 4;
}
"""


def test_integer_values_are_constant_expressions(tmp_path):
    """An INTEGER value assignment that an int holds is an enumeration constant (usable as
    an array size or a case label, and no object in the tables); a wider one, or a value
    of another type, stays an object of its C type."""
    spec = tmp_path / "values.asn"
    spec.write_text(VALUES_SPEC)
    out = cbuild.generate([spec], tmp_path / "gen", "--name", "gen")
    header = (out / "gen.h").read_text()
    assert "enum { ub_count = 4 };" in header
    assert "extern const asn1h_int wide;" in header and "extern const bool yes;" in header
    source = tmp_path / "use.c"
    source.write_text(VALUES_USE)
    program = cbuild.build_program(out, "gen", source)
    assert program.run().returncode == 0


def test_the_spec_symbol_suffixes_are_every_one_the_templates_write():
    """check_spec_symbol knows the generated files' own symbols from this list."""
    written = set()
    for template in (cbuild.REPO / "templates").glob("*.j2"):
        written |= set(re.findall(r"\{\{ *symbol *\}\}_(\w+)", template.read_text()))
    assert written == set(SPEC_SYMBOL_SUFFIXES)


def test_a_name_whose_symbols_a_type_has_is_refused(tmp_path, capfd):
    """Module T with a type T: `T_members` and `T_decode_per` were defined twice, in C that
    did not compile (found by fuzz/mutate_specs.py)."""
    spec = tmp_path / "t.asn"
    spec.write_text("T DEFINITIONS ::= BEGIN\nT ::= SEQUENCE { b BOOLEAN }\n"
                    "U ::= SEQUENCE { t T }\nEND\n")
    for options in ([], ["--name", "U"], ["--prefix", "p_", "--name", "T_decode"]):
        assert cli_main(["compile", str(spec), "-o", str(tmp_path / "no"), *options]) == 2
    err = capfd.readouterr().err.splitlines()
    assert err == ["asn1c-hybrid: error: the C names of type T and of the generated files' "
                   "own symbols (T_...) would clash: give another --name",
                   "asn1c-hybrid: error: the C names of type U and of the generated files' "
                   "own symbols (U_...) would clash: give another --name",
                   "asn1c-hybrid: error: the C names of type p_T and of the generated files' "
                   "own symbols (p_T_decode_...) would clash: give another --name"]
    assert not (tmp_path / "no").exists()
    der = bytes.fromhex("30053003010" "1ff")          # U { t { b TRUE } }
    program = cbuild.converter([spec], "--mode", "compiled", name="t_spec")
    assert program.run("-p", "T.U", "-o", "der", "-", input=der).stdout == der
