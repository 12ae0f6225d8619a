"""The runtime's own C unit tests (runtime_c/tests/), under AddressSanitizer and
UndefinedBehaviorSanitizer, built with gcc and with clang.

The C tests use hand-written descriptors, so they need no front end: identifiers and
lengths in every form (and every malformed one), INTEGER at the boundaries of each C storage
and beyond 64 bits, REAL's DER form, BIT STRING unused and named bits, SET and SET OF
ordering, strict DER, the arena (a fixed buffer never calls malloc: the program is linked
with --wrap so that every heap call is counted), nesting limits and error reporting.
Expected values come from X.690, worked out by hand in the C comments.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import cbuild

TESTS_DIR = cbuild.RUNTIME / "tests"
COMPILERS = ("gcc", "clang")
FLAGS = ("-O1", "-g", *cbuild.SANITIZE)
WRAP = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc"
# The arena is asked for impossible sizes on purpose: malloc must say no, not abort.
ENV = {**os.environ, "ASAN_OPTIONS": "allocator_may_return_null=1:detect_leaks=1",
       "UBSAN_OPTIONS": "print_stacktrace=1"}


def listed_tests() -> list[str]:
    return re.findall(r"^\s*X\((\w+)\)", (TESTS_DIR / "tests.h").read_text(), re.M)


def defined_tests() -> set[str]:
    names = set()
    for source in TESTS_DIR.glob("*.c"):
        names.update(re.findall(r"^void test_(\w+)\(void\)", source.read_text(), re.M))
    return names


_programs: dict[str, Path] = {}


def program(cc: str) -> Path:
    if cc not in _programs:
        out = cbuild.session_dir() / f"runtime-tests-{cc}"
        lib = cbuild.runtime_library(cc, FLAGS)
        cbuild.run([cc, *cbuild.STRICT, *FLAGS, "-I", cbuild.RUNTIME, "-I", TESTS_DIR,
                    *sorted(TESTS_DIR.glob("*.c")), lib, "-lm", WRAP, "-o", out])
        _programs[cc] = out
    return _programs[cc]


def test_every_test_function_is_listed():
    assert defined_tests() == set(listed_tests())


@pytest.mark.parametrize("name", listed_tests())
@pytest.mark.parametrize("cc", COMPILERS)
def test_runtime_unit(cc: str, name: str):
    result = subprocess.run([str(program(cc)), name], capture_output=True, env=ENV,
                            timeout=120)
    output = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    assert result.returncode == 0 and f"PASS {name}" in output, output
