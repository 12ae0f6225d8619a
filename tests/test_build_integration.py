"""examples/cmake's program built by real build systems: CMake with the Ninja and the Unix
Makefiles generators, and a plain Makefile (examples/make).  Each build is run, then
rebuilt after nothing, after a change to the spec, and after an "upgrade" of the compiler,
to show that generation reruns exactly when an input changed and that C is recompiled
only when the generated C changed.

The compiler is laid out as the wheel installs it (setuptools' build_py of this checkout,
with templates/, runtime_c/ and cmake/ inside the package) and run through a console
script of its own, so the CMake module is found through `asn1c-hybrid --cmake-dir` as a
user finds it, and a test can change the compiler without touching the checkout.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench import corpora  # noqa: E402
from asn1c_hybrid.measure import RUNTIME_CFLAGS, runtime_cflags  # noqa: E402

GENERATING = "Generating C from ASN.1 for personnel_asn"
EXPECTED_LINES = [
    "name: Jean E Smith",
    "title: The Big Cheese",
    "number: 99999",
    "date of hire: 19820104",
    "spouse: John L Smith",
    "children: present",
    "child: James R Smith",
    "child: Lisa M Smith",
    "same as smithperson: yes",
    "re-encoding: 133 bytes, identical",
]
STRICT_CFLAGS = "-Wall -Wextra -Wpedantic -Werror"


def run(argv, **kwargs) -> str:
    """Runs a command; returns its output (stdout and stderr) or fails with it."""
    result = subprocess.run(list(map(str, argv)), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, argv))}:\n{result.stdout}"
    return result.stdout


@dataclass
class Compiler:
    """An installed copy of asn1c-hybrid: `lib` holds the package, `exe` runs it."""
    lib: Path
    exe: Path

    @property
    def templates(self) -> Path:
        return self.lib / "asn1c_hybrid" / "templates"


def _wrapper(lib: Path, exe: Path) -> Compiler:
    """A console script for the package in `lib` (which comes first on sys.path, before
    the checkout that the working directory may be)."""
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(lib)!r})\n"
                   "from asn1c_hybrid.cli import main\nsys.exit(main())\n")
    exe.chmod(0o755)
    return Compiler(lib, exe)


BUILD_PY = """
from setuptools.dist import Distribution
from setuptools.config.pyprojecttoml import apply_configuration
dist = Distribution({"script_name": "setup.py"})
apply_configuration(dist, "pyproject.toml")
build_py = dist.get_command_obj("build_py")
build_py.build_lib = LIB
build_py.ensure_finalized()
build_py.run()
"""


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Compiler:
    """This checkout, laid out by setuptools the way the wheel installs it."""
    root = tmp_path_factory.mktemp("installed")
    source = root / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for name in ("asn1c_hybrid", "templates", "runtime_c", "cmake"):
        shutil.copytree(REPO / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    lib = root / "lib"
    run([sys.executable, "-c", f"LIB = {str(lib)!r}\n{BUILD_PY}"], cwd=source)
    return _wrapper(lib, root / "bin" / "asn1c-hybrid")


@pytest.fixture
def compiler(installed, tmp_path) -> Compiler:
    """A private copy of the installed compiler, which a test may change."""
    lib = tmp_path / "compiler" / "lib"
    shutil.copytree(installed.lib, lib)
    return _wrapper(lib, tmp_path / "compiler" / "bin" / "asn1c-hybrid")


@pytest.fixture
def examples(tmp_path) -> Path:
    """The examples the builds use, copied so that a test may edit the spec."""
    root = tmp_path / "examples"
    for name in ("cmake", "make", "personnel"):
        shutil.copytree(REPO / "examples" / name, root / name,
                        ignore=shutil.ignore_patterns("build"))
    return root


def make_newer(path: Path) -> None:
    """Gives `path` a modification time later than that of every file written so far, as
    an edit made after the build would have.  File times come from a coarse clock: files
    written within the same few milliseconds share one, and a build tool may have
    recorded the time of its last step, later than the stamp's."""
    marker = path.with_name(".newer-than-this")
    marker.write_text("")
    reference = marker.stat().st_mtime_ns
    marker.unlink()
    while True:
        os.utime(path)
        if path.stat().st_mtime_ns > reference:
            return
        time.sleep(0.002)


def edit(path: Path, text: str) -> None:
    """Appends `text` to `path`, which becomes newer than every file written so far."""
    with open(path, "a") as stream:
        stream.write(text)
    make_newer(path)


def check_program(program: Path, der: Path) -> None:
    out = run([program, der])
    assert out.splitlines() == EXPECTED_LINES


def test_the_installed_package_ships_the_cmake_module_and_the_runtime(installed):
    cmake_dir = Path(run([installed.exe, "--cmake-dir"]).strip())
    assert cmake_dir == installed.lib / "asn1c_hybrid" / "cmake"
    assert (cmake_dir / "Asn1cHybrid.cmake").is_file()
    assert sorted(p.name for p in (cmake_dir.parent / "runtime_c").iterdir()) == \
        sorted(p.name for p in (REPO / "runtime_c").iterdir() if p.suffix in (".c", ".h"))
    assert sorted(p.name for p in installed.templates.iterdir()) == \
        sorted(p.name for p in (REPO / "templates").glob("*.j2"))


# ---- CMake ------------------------------------------------------------------------------

def cmake_configure(examples: Path, build: Path, compiler: Compiler, generator: str,
                    cc: str, *definitions: str) -> None:
    run(["cmake", "-S", examples / "cmake", "-B", build, "-G", generator,
         f"-DASN1C_HYBRID_EXECUTABLE={compiler.exe}", f"-DCMAKE_C_COMPILER={cc}",
         "-DCMAKE_C_STANDARD=99", "-DCMAKE_C_EXTENSIONS=OFF",
         f"-DCMAKE_C_FLAGS={STRICT_CFLAGS}", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
         *definitions])


def cmake_build(build: Path) -> str:
    return run(["cmake", "--build", build, "--parallel", "4"])


RUNTIME_FLAG_PREFIXES = ("-falign-", "-freorder-blocks", "-fno-reorder-blocks")


def runtime_flags(build: Path) -> dict[str, list[str]]:
    """The -falign-*, -freorder-blocks* and -fno-reorder-blocks* flags of each C file a
    configured CMake build compiles, by file name."""
    commands = json.loads((build / "compile_commands.json").read_text())
    return {Path(c["file"]).name: [f for f in c["command"].split()
                                   if f.startswith(RUNTIME_FLAG_PREFIXES)]
            for c in commands}


def check_runtime_flags(flags: dict[str, list[str]], expected) -> None:
    """The runtime's files, and they alone, take `expected(file name)` (the measurements'
    flags: bench/ measures what a user builds)."""
    runtime = [name for name in flags if name.startswith("asn1h_")]
    assert len(runtime) > 10 and "personnel.c" in flags and "asn1h_per.c" in flags
    assert all(flags[name] == list(expected(name)) for name in runtime), flags
    assert all(not flags[name] for name in flags if name not in runtime), flags


@pytest.mark.parametrize("generator, cc", [("Ninja", "gcc"), ("Unix Makefiles", "clang")])
def test_cmake_builds_and_regenerates_exactly_when_an_input_changes(
        tmp_path, examples, compiler, generator, cc):
    build = tmp_path / "build"
    der = examples / "cmake" / "smithperson.der"
    spec = examples / "personnel" / "personnel.asn"
    generated_c = build / "personnel_asn" / "personnel.c"
    cmake_configure(examples, build, compiler, generator, cc)

    out = cmake_build(build)                           # from scratch, in parallel
    assert GENERATING in out
    assert "asn1c_hybrid_runtime" in out               # the runtime as a library target
    check_program(build / "personnel_roundtrip", der)
    # the runtime's own flags, those the compiler takes (clang has no -falign-jumps, nor
    # -fno-reorder-blocks-and-partition, nor -freorder-blocks-algorithm), the block order on
    # all but PER's source
    check_runtime_flags(runtime_flags(build),
                        runtime_cflags if cc == "gcc" else lambda _: ["-falign-loops=1"])
    # COST_MODEL units reaches the compiler: no calibration among the inputs
    depfile = (build / "personnel_asn" / "personnel.d").read_text()
    assert "personnel.asn" in depfile and "calibration.json" not in depfile

    out = cmake_build(build)                           # nothing changed: nothing runs
    assert GENERATING not in out and "Building C object" not in out

    make_newer(spec)                                   # same spec text: regenerated,
    out = cmake_build(build)                           # but the C is unchanged
    assert GENERATING in out and "personnel.c.o" not in out

    before = generated_c.read_bytes()
    edit(spec, "-- edited\n")                          # new text: new spec hash in the C
    out = cmake_build(build)
    assert GENERATING in out and "personnel.c.o" in out
    assert generated_c.read_bytes() != before
    assert GENERATING not in cmake_build(build)

    # the compiler is upgraded: a template changes without changing the output ...
    edit(compiler.templates / "header.h.j2", "{# a comment of the template #}\n")
    out = cmake_build(build)
    assert GENERATING in out and "Building C object" not in out
    # ... and then in a way that changes the generated C
    edit(compiler.templates / "source.c.j2", "/* generated by a newer compiler */\n")
    out = cmake_build(build)
    assert GENERATING in out and "personnel.c.o" in out
    assert generated_c.read_text().endswith("/* generated by a newer compiler */\n")
    check_program(build / "personnel_roundtrip", der)


def test_cmake_with_the_runtime_written_next_to_the_generated_code(tmp_path, examples,
                                                                    installed):
    build = tmp_path / "build"
    cmake_configure(examples, build, installed, "Ninja", "gcc", "-DPERSONNEL_RUNTIME=SOURCES")
    out = cmake_build(build)
    assert GENERATING in out
    assert "asn1c_hybrid_runtime" not in out
    assert (build / "personnel_asn" / "asn1h_decode.c").is_file()
    assert "personnel_asn/asn1h_decode.c.o" in out     # compiled into the spec's library
    check_runtime_flags(runtime_flags(build), runtime_cflags)   # with its flags
    check_program(build / "personnel_roundtrip", examples / "cmake" / "smithperson.der")
    assert "tests passed" in run(["ctest", "--test-dir", build])

    # built for size: no block order on any runtime source (gcc's own is the smaller there)
    for definition in ("-DCMAKE_BUILD_TYPE=MinSizeRel", f"-DCMAKE_C_FLAGS={STRICT_CFLAGS} -Os"):
        sized = tmp_path / "sized"
        shutil.rmtree(sized, ignore_errors=True)
        cmake_configure(examples, sized, installed, "Ninja", "gcc",
                        "-DPERSONNEL_RUNTIME=SOURCES", definition)
        check_runtime_flags(runtime_flags(sized), lambda _: RUNTIME_CFLAGS)


def test_cmake_reports_a_spec_error_and_leaves_no_outputs(tmp_path, examples, installed):
    spec = examples / "personnel" / "personnel.asn"
    spec.write_text(spec.read_text().replace("Name,", "Nmae,", 1))
    build = tmp_path / "build"
    cmake_configure(examples, build, installed, "Ninja", "gcc")
    result = subprocess.run(["cmake", "--build", str(build)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert result.returncode != 0
    assert f"{spec}:7:" in result.stdout and ": error: " in result.stdout
    assert "Traceback" not in result.stdout
    assert not (build / "personnel_asn").exists() or \
        list((build / "personnel_asn").iterdir()) == []


def cmake_project(name: str, body: str) -> str:
    """A test's CMakeLists.txt: the project, Asn1cHybrid found as a user finds it, then
    `body`."""
    return f"""cmake_minimum_required(VERSION 3.20)
project({name} C)
execute_process(COMMAND "${{ASN1C_HYBRID_EXECUTABLE}}" --cmake-dir
                OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
list(APPEND CMAKE_MODULE_PATH "${{dir}}")
include(Asn1cHybrid)
{body.lstrip()}"""


TWO_SPECS_CMAKE = cmake_project("two_specs", """
asn1c_hybrid_generate(TARGET compiled_asn SPECS ${SPEC} PREFIX a_ MODE compiled)
asn1c_hybrid_generate(TARGET interpreted_asn SPECS ${SPEC} PREFIX b_ MODE interpreted)
add_executable(both both.c)
target_link_libraries(both PRIVATE compiled_asn interpreted_asn)
""")

TWO_SPECS_MAIN = """
#include <stdio.h>
#include <string.h>
#include "compiled_asn.h"
#include "interpreted_asn.h"
int main(void)
{
    uint8_t a[512], b[512];
    size_t a_len, b_len;
    if (asn1h_encode(&a_PersonnelRecord_type, &a_smithperson, a, sizeof a, &a_len, NULL) ||
        asn1h_encode(&b_PersonnelRecord_type, &b_smithperson, b, sizeof b, &b_len, NULL))
        return 1;
    puts(a_len == b_len && memcmp(a, b, a_len) == 0 ? "same" : "different");
    return 0;
}
"""


def configure_project(project: Path, build: Path, spec: Path, compiler: Compiler,
                      *definitions: str) -> None:
    """Configures a test's own CMake project, given its SPEC, with the strict flags."""
    run(["cmake", "-S", project, "-B", build, "-G", "Unix Makefiles", f"-DSPEC={spec}",
         f"-DASN1C_HYBRID_EXECUTABLE={compiler.exe}", "-DCMAKE_C_STANDARD=99",
         "-DCMAKE_C_EXTENSIONS=OFF", f"-DCMAKE_C_FLAGS={STRICT_CFLAGS}", *definitions])


def test_two_specs_with_prefixes_share_one_runtime_in_a_parallel_build(tmp_path, installed):
    project = tmp_path / "project"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(TWO_SPECS_CMAKE)
    (project / "both.c").write_text(TWO_SPECS_MAIN)
    build = tmp_path / "build"
    configure_project(project, build, REPO / "examples" / "personnel" / "personnel.asn",
                      installed, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                      "-DASN1C_HYBRID_RUNTIME_OPTIONS=-falign-loops=32")   # the project's
    out = cmake_build(build)
    assert "Generating C from ASN.1 for compiled_asn" in out
    assert "Generating C from ASN.1 for interpreted_asn" in out
    assert out.count("Linking C static library libasn1c_hybrid_runtime.a") == 1
    assert run([build / "both"]).strip() == "same"
    flags = runtime_flags(build)
    assert flags["asn1h_decode.c"] == ["-falign-loops=32", "-freorder-blocks-algorithm=simple"]
    assert flags["asn1h_ber.c"] == flags["asn1h_per.c"] == ["-falign-loops=32"]
    assert not flags["both.c"]


LENIENT_CMAKE = cmake_project("lenient", """
asn1c_hybrid_generate(TARGET defective_asn SPECS ${SPEC} MODE compiled ${EXTRA})
add_executable(defective defective.c)
target_link_libraries(defective PRIVATE defective_asn)
""")

# IMPLICIT on an untagged CHOICE (X.680 31.2.9 forbids it; asn1c reads it as EXPLICIT).
DEFECTIVE_SPEC = """Defective DEFINITIONS IMPLICIT TAGS ::= BEGIN
Choice ::= CHOICE { number INTEGER, flag BOOLEAN }
Holder ::= SEQUENCE { choice [1] IMPLICIT Choice }
Digit ::= INTEGER (0..9)
END
"""

DEFECTIVE_MAIN = """
#include <stdio.h>
#include "defective_asn.h"
int main(void)
{
    static const uint8_t der[] = {0x30, 0x05, 0xA1, 0x03, 0x02, 0x01, 0x07};
    union { double align; uint8_t bytes[1024]; } buffer;
    asn1h_arena arena;
    Holder holder;
    asn1h_arena_init(&arena, buffer.bytes, sizeof buffer.bytes, 0);
    if (asn1h_decode(&Holder_type, &holder, der, sizeof der, &arena, NULL, NULL, NULL))
        return 1;
    printf("%lld\\n", (long long)holder.choice.u.number.v);
    return 0;
}
"""


def test_cmake_lenient_and_encoding_options(tmp_path, installed):
    project = tmp_path / "project"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(LENIENT_CMAKE)
    (project / "defective.c").write_text(DEFECTIVE_MAIN)
    spec = project / "defective.asn"
    spec.write_text(DEFECTIVE_SPEC)
    strict = tmp_path / "strict"
    configure_project(project, strict, spec, installed)
    result = subprocess.run(["cmake", "--build", str(strict)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert result.returncode != 0
    assert f"{spec}:3:30: error: IMPLICIT cannot tag an untagged CHOICE" in result.stdout
    assert "accept it with --lenient" in result.stdout
    lenient = tmp_path / "lenient"
    configure_project(project, lenient, spec, installed, "-DEXTRA=LENIENT")
    out = cmake_build(lenient)
    assert "warning: IMPLICIT cannot tag an untagged CHOICE" in out
    assert run([lenient / "defective"]).strip() == "7"
    # ENCODING: a BER-only build's tables leave PER's constraints out
    assert "ASN1H_PER_" in (lenient / "defective_asn" / "defective_asn.c").read_text()
    ber_only = tmp_path / "ber-only"
    configure_project(project, ber_only, spec, installed, "-DEXTRA=LENIENT;ENCODING;ber")
    cmake_build(ber_only)
    assert "ASN1H_PER_" not in (ber_only / "defective_asn" / "defective_asn.c").read_text()
    assert run([ber_only / "defective"]).strip() == "7"


LAYOUTS_CMAKE = cmake_project("layouts", """
asn1c_hybrid_generate(TARGET blackwell_asn SPECS ${SPEC} MODE compiled
                      PDUS BlackwellModule.BlackwellMessage PROFILE ${PROFILE} LAYOUTS 1)
add_executable(roundtrip roundtrip.c)
target_link_libraries(roundtrip PRIVATE blackwell_asn)
""")

# Decodes the message in argv[1] and DER-encodes it again: "identical" when it is.
ROUNDTRIP_MAIN = """
#include <stdio.h>
#include <string.h>
#include "blackwell_asn.h"
int main(int argc, char **argv)
{
    static uint8_t in[4096], out[4096];
    static BlackwellMessage value;
    asn1h_arena arena;
    size_t n, len;
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    asn1h_arena_init(&arena, NULL, 0, 1u << 20);
    if (asn1h_decode(&BlackwellMessage_type, &value, in, n, &arena, NULL, NULL, NULL) != ASN1H_OK
        || asn1h_encode(&BlackwellMessage_type, &value, out, sizeof out, &len, NULL) != ASN1H_OK)
        return 1;
    puts(len == n && memcmp(in, out, n) == 0 ? "identical" : "different");
    asn1h_arena_free(&arena);
    return 0;
}
"""


def test_cmake_layouts_give_the_pdu_fast_paths(tmp_path, installed):
    message = corpora.blackwell_message()
    project = tmp_path / "project"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(LAYOUTS_CMAKE)
    (project / "roundtrip.c").write_text(ROUNDTRIP_MAIN)
    (project / "message.ber").write_bytes(message)
    trace = project / "trace.ber"
    trace.write_bytes(message * 2)
    profile = project / "profile.json"
    run([installed.exe, "profile", corpora.BLACKWELL_SPEC, "--pdu",
         "BlackwellModule.BlackwellMessage", "--trace", trace, "-o", profile])
    build = tmp_path / "build"
    configure_project(project, build, corpora.BLACKWELL_SPEC, installed,
                      f"-DPROFILE={profile}")
    cmake_build(build)
    generated = (build / "blackwell_asn" / "blackwell_asn.c").read_text()
    layout = json.loads(profile.read_text())["layouts"][
        "BlackwellModule.BlackwellMessage"]["exact"][0]["id"]
    assert f"BlackwellMessage_decode_layouts_{layout}(" in generated
    assert f"BlackwellMessage_decode_layouts_encode_{layout}(" in generated
    assert run([build / "roundtrip", project / "message.ber"]).strip() == "identical"


# ---- a plain Makefile ---------------------------------------------------------------------

def test_plain_make_builds_and_regenerates_exactly_when_an_input_changes(
        tmp_path, examples, compiler):
    build = tmp_path / "build"
    make = ["make", "-C", examples / "make", "-j4", f"BUILD={build}",
            f"ASN1C_HYBRID={compiler.exe}", "CC=gcc"]
    spec = examples / "personnel" / "personnel.asn"

    out = run([*make, "all"])                          # from scratch, in parallel
    assert "--depfile" in out and "asn1h_decode.o" in out
    compiles = {line.split()[-1]: line for line in out.splitlines() if " -c " in line}
    assert " ".join(runtime_cflags("asn1h_decode.c")) in compiles[str(build / "asn1h_decode.o")]
    for kept in ("asn1h_ber.o", "asn1h_per.o"):           # the compiler's block order
        assert " ".join(RUNTIME_CFLAGS) in compiles[str(build / kept)]
        assert "-freorder-blocks" not in compiles[str(build / kept)]
    # built for size: gcc's own block order, the smaller there
    dry = run([*make, "-n", "-B", "CFLAGS=-std=c99 -Os", "all"])
    sized = {line.split()[-1]: line for line in dry.splitlines() if " -c " in line}
    assert " ".join(RUNTIME_CFLAGS) in sized[str(build / "asn1h_decode.o")]
    assert "-freorder-blocks" not in sized[str(build / "asn1h_decode.o")]
    assert "-falign" not in compiles[str(build / "personnel.o")]
    check_program(build / "personnel_roundtrip", examples / "cmake" / "smithperson.der")
    assert run([*make, "run"]).count("identical") == 1

    out = run([*make, "all"])
    assert "--depfile" not in out and " -c " not in out

    make_newer(spec)
    out = run([*make, "all"])
    assert "--depfile" in out and "personnel.o" not in out

    edit(spec, "-- edited\n")
    out = run([*make, "all"])
    assert "--depfile" in out and "personnel.o" in out

    edit(compiler.templates / "source.c.j2", "/* generated by a newer compiler */\n")
    out = run([*make, "all"])
    assert "--depfile" in out and "personnel.o" in out
    check_program(build / "personnel_roundtrip", examples / "cmake" / "smithperson.der")


GLOB_ALL_MAKEFILE = """\
# A library of every .c file that `compile --emit-runtime` wrote, the way a build that
# globs its sources does; the converter, in its own folder, is a program on top.
GEN := gen
CFLAGS := -std=c99 -Wall -Wextra -Wpedantic -Werror -O1
OBJECTS := $(patsubst %.c,%.o,$(wildcard $(GEN)/*.c))
converter: $(GEN)/converter/personnel_converter.c libpersonnel.a
\t$(CC) $(CFLAGS) -I$(GEN) $< libpersonnel.a -lm -o $@
libpersonnel.a: $(OBJECTS)
\tar rcs $@ $^
%.o: %.c
\t$(CC) $(CFLAGS) -I$(GEN) -c $< -o $@
"""


def test_a_glob_all_c_build_makes_the_library_and_the_converter_apart(tmp_path, repo_root):
    """Every .c of the output directory compiles into a library with no main(); the
    converter's source is not among them (it sits in converter/) and links on top."""
    spec = repo_root / "examples" / "personnel" / "personnel.asn"
    subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", str(spec), "-o",
                    str(tmp_path / "gen"), "--name", "personnel", "--mode", "interpreted",
                    "--emit-runtime", "--converter"], check=True, capture_output=True)
    assert not list((tmp_path / "gen").glob("*converter*.c"))
    (tmp_path / "Makefile").write_text(GLOB_ALL_MAKEFILE)
    subprocess.run(["make", "-s"], cwd=tmp_path, check=True, capture_output=True)
    symbols = subprocess.run(["nm", "--defined-only", str(tmp_path / "libpersonnel.a")],
                             capture_output=True, text=True, check=True).stdout
    assert " T main\n" not in symbols
    der = (repo_root / "bench" / "messages" / "personnel.der").read_bytes()
    out = subprocess.run([str(tmp_path / "converter"), "-p", "PersonnelRecord", "-"],
                         input=der, capture_output=True, check=True).stdout
    assert out == der
