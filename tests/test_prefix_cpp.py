"""Several specifications in one program, and the generated headers from C++.

`--prefix` puts a prefix on every symbol a generated file defines, so that two
specifications (or one twice, built in different modes) link into one program; the headers
declare everything inside extern "C" and compile as C++11 without a warning.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import cbuild

sys.path.insert(0, str(cbuild.REPO / "fuzz"))
sys.path.insert(0, str(cbuild.REPO))
import targets  # noqa: E402
from bench import corpora  # noqa: E402

CXX_STRICT = ("-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror")
FLAGS = ("-O0", "-g", *cbuild.SANITIZE)
# (prefix, name, specification, mode, PDU): personnel twice, X.400 and X.509 once each.
UNITS = [
    ("a_", "pa", "personnel", "compiled", "PersonnelRecordModule.PersonnelRecord"),
    ("b_", "pb", "personnel", "interpreted", "PersonnelRecordModule.PersonnelRecord"),
    ("x_", "px", "x400", "mixed", "MTAAbstractService.MTS-APDU"),
    ("c_", "pc", "x509", "compiled", "PKIX1Explicit88.Certificate"),
]

MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
HEADERS

static unsigned char arena_memory[1 << 20];
static unsigned char value[1 << 16];
static unsigned char out[1 << 16];

/* Decodes argv[i] with descriptor i, re-encodes it, prints "ok" when the octets match. */
static int check(const asn1h_type *type, const char *path)
{
    static unsigned char input[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t len, out_len;
    asn1h_arena arena;
    asn1h_error err;
    if (!f)
        return 1;
    len = fread(input, 1, sizeof input, f);
    fclose(f);
    asn1h_arena_init(&arena, arena_memory, sizeof arena_memory, 0);
    if (asn1h_decode(type, value, input, len, &arena, NULL, NULL, &err) != ASN1H_OK
        || asn1h_encode(type, value, out, sizeof out, &out_len, &err) != ASN1H_OK)
        return 1;
    char name[ASN1H_NAME_MAX];
    printf("%s %s\n", asn1h_type_name(type, name, sizeof name), out_len == len && memcmp(out, input, len) == 0 ? "ok" : "differs");
    return 0;
}

int main(int argc, char **argv)
{
    const asn1h_type *types[] = { DESCRIPTORS };
    int i;
    if (argc != (int)(sizeof types / sizeof types[0]) + 1)
        return 2;
    for (i = 1; i < argc; i++)
        if (check(types[i - 1], argv[i]))
            return 1;
    return 0;
}
"""


@pytest.fixture(scope="module")
def units() -> list:
    """Each unit generated and compiled: (prefix, object, header directory, descriptor)."""
    built = []
    root = Path(tempfile.mkdtemp(prefix="prefix-", dir=cbuild.session_dir()))
    for prefix, name, target, mode, pdu in UNITS:
        out = root / name
        cbuild.generate(targets.TARGETS[target].specs(), out, "--name", name, "--prefix", prefix,
                        *targets.MODES[mode])
        obj = out / f"{name}.o"
        cbuild.run(["gcc", *cbuild.STRICT, *FLAGS, "-I", out, "-I", cbuild.RUNTIME, "-c",
                    out / f"{name}.c", "-o", obj])
        built.append((prefix, obj, out, targets.descriptor_symbol(out / f"{name}.c", pdu)))
    return built


def messages(tmp: Path) -> list:
    data = [corpora.personnel_der(), corpora.personnel_der(),
            corpora.x400_traces()[0][1][0],
            corpora.certificate_nearest(1415, corpora.mozilla_certificates()).data]
    paths = []
    for i, d in enumerate(data):
        path = tmp / f"message{i}.der"
        path.write_bytes(d)
        paths.append(str(path))
    return paths


def main_source(units: list) -> str:
    headers = "\n".join(f'#include "{obj.stem}.h"' for _, obj, _, _ in units)
    descriptors = ", ".join(f"&{symbol}" for _, _, _, symbol in units)
    return MAIN.replace("HEADERS", headers).replace("DESCRIPTORS", descriptors)


def test_every_defined_symbol_carries_the_prefix(units):
    for prefix, obj, _, _ in units:
        out = subprocess.run(["nm", "-g", "--defined-only", str(obj)], capture_output=True,
                             text=True, check=True).stdout
        symbols = [line.split()[-1] for line in out.splitlines()
                   if line.strip() and not line.split()[-1].startswith("__")]  # ASan's own
        assert symbols
        assert [s for s in symbols if not s.startswith(prefix)] == []


@pytest.mark.parametrize("language", ["c", "c++"])
def test_four_units_in_one_program(units, tmp_path, language):
    source = tmp_path / ("main.c" if language == "c" else "main.cpp")
    source.write_text(main_source(units))
    includes = [a for _, _, out, _ in units for a in ("-I", out)]
    compiler, std = ("gcc", cbuild.STRICT) if language == "c" else ("g++", CXX_STRICT)
    main_obj = tmp_path / "main.o"
    cbuild.run([compiler, *std, *FLAGS, *includes, "-I", cbuild.RUNTIME, "-c", source,
                "-o", main_obj])
    exe = tmp_path / "program"
    cbuild.run([compiler, *FLAGS, main_obj, *[obj for _, obj, _, _ in units],
                cbuild.runtime_library("gcc", FLAGS), "-lm", "-o", exe])
    result = cbuild.run([exe, *messages(tmp_path)])
    lines = result.stdout.decode().splitlines()
    assert lines == [f"{pdu} ok" for _, _, _, _, pdu in UNITS]


def test_without_prefixes_the_same_spec_twice_does_not_link(tmp_path):
    """The case the prefix exists for."""
    objects = []
    for name, mode in (("one", "compiled"), ("two", "interpreted")):
        out = tmp_path / name
        cbuild.generate([corpora.PERSONNEL_SPEC], out, "--name", name, *targets.MODES[mode])
        obj = out / f"{name}.o"
        cbuild.run(["gcc", *cbuild.STRICT, "-I", out, "-I", cbuild.RUNTIME, "-c", out / f"{name}.c",
                    "-o", obj])
        objects.append(obj)
    main = tmp_path / "main.c"
    main.write_text("int main(void) { return 0; }\n")
    result = subprocess.run(["gcc", main, *objects, str(cbuild.runtime_library("gcc", ())), "-lm",
                             "-o", tmp_path / "program"], capture_output=True)
    assert result.returncode != 0
    assert b"multiple definition" in result.stderr


@pytest.mark.parametrize("compiler", ["g++", "clang++"])
def test_headers_compile_as_cpp(units, tmp_path, compiler):
    """Each generated header on its own, and the runtime's, as C++11 with every warning."""
    for _, obj, out, _ in units:
        source = tmp_path / f"{obj.stem}.cpp"
        source.write_text(f'#include "{obj.stem}.h"\n#include "{obj.stem}.h"\n'
                          "int main() { return 0; }\n")
        cbuild.run([compiler, *CXX_STRICT, "-I", out, "-I", cbuild.RUNTIME, "-c", source,
                    "-o", tmp_path / f"{obj.stem}.o"])
    source = tmp_path / "runtime.cpp"
    source.write_text('#include "asn1h.h"\n#include "asn1h_ber.h"\nint main() { return 0; }\n')
    cbuild.run([compiler, *CXX_STRICT, "-I", cbuild.RUNTIME, "-c", source, "-o",
                tmp_path / "runtime.o"])
