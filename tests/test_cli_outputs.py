"""`compile` as a build step: --list-outputs, --depfile, --stamp, --cmake-dir, byte-identical
output whatever the directories, and failures that leave nothing behind.

The compiler runs as a separate process (the way build tools run it), each with its own
PYTHONHASHSEED, so that output depending on set or dict-of-hash ordering shows up.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import asn1c_hybrid
from asn1c_hybrid.resources import data_dir
from asn1c_hybrid.select.calibration import default_path

REPO = Path(__file__).resolve().parent.parent
PERSONNEL = REPO / "examples" / "personnel" / "personnel.asn"
PDU = "PersonnelRecordModule.PersonnelRecord"

# Two modules in two files, one importing from the other: what the depfile must name.
MAIN_MODULE = """\
Shop DEFINITIONS AUTOMATIC TAGS ::= BEGIN
IMPORTS Money, Item FROM Common;
Order ::= SEQUENCE { items SEQUENCE OF Item, total Money, note UTF8String OPTIONAL }
END
"""
COMMON_MODULE = """\
Common DEFINITIONS AUTOMATIC TAGS ::= BEGIN
EXPORTS Money, Item;
Money ::= INTEGER (0..4294967295)
Item ::= SEQUENCE { name UTF8String, price Money, count INTEGER DEFAULT 1 }
END
"""


def run_compiler(*args, cwd=None, seed: str = "0") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    return subprocess.run([sys.executable, "-m", "asn1c_hybrid", *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, text=True)


def succeed(*args, **kwargs) -> subprocess.CompletedProcess:
    result = run_compiler(*args, **kwargs)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def tree(directory: Path) -> dict[str, bytes]:
    """Every file under `directory`, by relative path."""
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def parse_depfile(text: str) -> tuple[list[str], list[str]]:
    """(targets, inputs) of the first rule of a Make depfile."""
    rule = text.split("\n\n")[0].replace("\\\n", " ")
    targets, inputs = re.split(r"(?<!\\):", rule, maxsplit=1)

    def words(part: str) -> list[str]:
        return [w.replace("\\ ", " ").replace("\\#", "#").replace("$$", "$")
                for w in re.split(r"(?<!\\)\s+", part.strip()) if w]
    return words(targets), words(inputs)


@pytest.fixture
def shop_spec(tmp_path: Path) -> Path:
    spec = tmp_path / "shop spec"          # a space, to exercise the depfile's escaping
    spec.mkdir()
    (spec / "shop.asn").write_text(MAIN_MODULE)
    (spec / "common.asn").write_text(COMMON_MODULE)
    return spec


# ---- --cmake-dir ----------------------------------------------------------------------

def test_cmake_dir_names_the_module_beside_the_runtime():
    result = succeed("--cmake-dir")
    directory = Path(result.stdout.strip())
    assert (directory / "Asn1cHybrid.cmake").is_file()
    # the module finds the runtime relative to itself, in the source tree and the wheel
    assert (directory.parent / "runtime_c" / "asn1h.h").is_file()
    assert directory == data_dir("cmake")


# ---- --list-outputs ---------------------------------------------------------------------

@pytest.mark.parametrize("options", [[], ["--converter"], ["--emit-runtime"],
                                     ["--converter", "--emit-runtime", "--name", "pr"]],
                         ids=["plain", "converter", "runtime", "named"])
def test_list_outputs_names_exactly_the_files_compile_writes(tmp_path, options):
    out = tmp_path / "out"
    listed = succeed("compile", PERSONNEL, "-o", out, *options, "--list-outputs")
    assert not out.exists(), "--list-outputs wrote something"
    paths = listed.stdout.splitlines()
    assert len(paths) == len(set(paths))
    succeed("compile", PERSONNEL, "-o", out, *options)
    assert sorted(paths) == sorted(str(out / name) for name in tree(out))
    # stable: the same list, in the same order, from another process
    assert succeed("compile", PERSONNEL, "-o", out, *options, "--list-outputs",
                   seed="7").stdout.splitlines() == paths


def test_list_outputs_with_a_name_reads_no_spec(tmp_path):
    missing = tmp_path / "not-there.asn"
    listed = succeed("compile", missing, "-o", "gen", "--name", "msgs", "--list-outputs")
    assert listed.stdout.splitlines() == [os.path.join("gen", "msgs.h"),
                                          os.path.join("gen", "msgs.c")]
    # without --name the base name comes from the first module: the spec must be read
    result = run_compiler("compile", missing, "-o", "gen", "--list-outputs")
    assert result.returncode != 0
    assert "not-there.asn" in result.stderr and "Traceback" not in result.stderr


def test_a_name_that_is_not_a_file_name_is_refused(tmp_path):
    result = run_compiler("compile", PERSONNEL, "-o", tmp_path, "--name", "../escape")
    assert result.returncode == 2
    assert result.stderr.startswith("asn1c-hybrid: error: --name")
    assert list(tmp_path.iterdir()) == []


# ---- --depfile and --stamp --------------------------------------------------------------

def test_depfile_names_the_outputs_and_every_input_read(tmp_path, shop_spec):
    out, depfile = tmp_path / "gen", tmp_path / "deps" / "shop.d"
    succeed("compile", shop_spec, "-o", out, "--name", "shop", "--emit-runtime",
            "--depfile", depfile)
    targets, inputs = parse_depfile(depfile.read_text())
    listed = succeed("compile", shop_spec, "-o", out, "--name", "shop", "--emit-runtime",
                     "--list-outputs").stdout.splitlines()
    assert targets == listed                       # in the same order: first output first
    # the directory named (a file added to it is noticed) and both modules read from it
    assert str(shop_spec) in inputs
    assert str(shop_spec / "shop.asn") in inputs and str(shop_spec / "common.asn") in inputs
    # the compiler itself: its templates, its Python sources, the runtime it copied
    for template in data_dir("templates").glob("*.j2"):
        assert str(template) in inputs
    package = Path(asn1c_hybrid.__file__).resolve().parent
    for source in ("api.py", "emit/render.py", "frontend/loader.py"):
        assert str(package / source) in inputs
    for runtime in data_dir("runtime_c").glob("*.c"):
        assert str(runtime) in inputs
    assert all(Path(p).exists() for p in inputs)
    # every input also has an empty rule, so that Make survives a deleted input
    assert f"{str(shop_spec / 'common.asn').replace(' ', chr(92) + ' ')}:\n" in depfile.read_text()


def test_depfile_names_the_profiles(tmp_path, repo_root):
    profile = tmp_path / "smith.json"
    succeed("profile", PERSONNEL, "--pdu", PDU, "--trace",
            repo_root / "examples" / "cmake" / "smithperson.der", "-o", profile,
            "--no-progress")
    depfile = tmp_path / "p.d"
    succeed("compile", PERSONNEL, "-o", tmp_path / "gen", "--profile", profile,
            "--depfile", depfile)
    assert str(profile) in parse_depfile(depfile.read_text())[1]


def test_depfile_names_the_calibration_only_when_the_model_measures(tmp_path):
    """The measured model's choice depends on the calibration and the runtime it measured,
    so a new calibration regenerates; the units model reads neither (the build examples
    use it, so this is where the measured model's inputs are checked)."""
    runtime = [str(p) for p in data_dir("runtime_c").glob("*.c")]
    inputs = {}
    for model in ("measured", "units"):
        depfile = tmp_path / f"{model}.d"
        succeed("compile", PERSONNEL, "-o", tmp_path / model, "--cost-model", model,
                "--depfile", depfile)
        inputs[model] = parse_depfile(depfile.read_text())[1]
    assert str(default_path()) in inputs["measured"]
    assert set(runtime) <= set(inputs["measured"])
    assert str(default_path()) not in inputs["units"]
    assert not set(runtime) & set(inputs["units"])


def test_stamp_is_the_depfile_target_and_is_touched_on_every_run(tmp_path):
    out, depfile, stamp = tmp_path / "gen", tmp_path / "p.d", tmp_path / "stamps" / "p.stamp"
    succeed("compile", PERSONNEL, "-o", out, "--depfile", depfile, "--stamp", stamp)
    assert parse_depfile(depfile.read_text())[0] == [str(stamp)]
    old = 1_000_000_000
    for path in [stamp, *out.iterdir()]:
        os.utime(path, (old, old))
    succeed("compile", PERSONNEL, "-o", out, "--depfile", depfile, "--stamp", stamp)
    assert stamp.stat().st_mtime > old
    # unchanged outputs are left as they were, so that nothing depending on them rebuilds
    assert all(p.stat().st_mtime == old for p in out.iterdir())


# ---- determinism --------------------------------------------------------------------------

ABSOLUTE_PATH = re.compile(r"(?<![\w.])/(?:tmp|home|root|work|usr|var|opt|private|Users)/")


@pytest.mark.parametrize("options", [
    ["--mode", "hybrid", "--budget", "20%", "--converter", "--emit-runtime"],
    ["--mode", "hybrid", "--budget", "50%", "--pdu", PDU],
    ["--mode", "compiled", "--prefix", "pr_"],
    ["--mode", "interpreted"],
], ids=["hybrid-20", "hybrid-50", "compiled", "interpreted"])
def test_same_inputs_give_byte_identical_outputs(tmp_path, options):
    # once from the repository with a relative spec path, once from elsewhere with an
    # absolute one and a relative output directory, with different hash seeds
    first = tmp_path / "first" / "out"
    succeed("compile", os.path.relpath(PERSONNEL, REPO), "-o", first, *options,
            cwd=REPO, seed="1")
    elsewhere = tmp_path / "second"
    elsewhere.mkdir()
    succeed("compile", PERSONNEL, "-o", "gen", *options, cwd=elsewhere, seed="2")
    one, two = tree(first), tree(elsewhere / "gen")
    assert one and one == two
    for name, data in one.items():
        text = data.decode()
        assert str(tmp_path) not in text and str(REPO) not in text, name
        assert not ABSOLUTE_PATH.search(text), f"{name}: {ABSOLUTE_PATH.search(text)[0]}"


def test_a_directory_and_its_files_named_one_by_one_give_the_same_output(tmp_path, shop_spec):
    # a directory stands for its files in name order; definition order is kept from there
    first, second = tmp_path / "a", tmp_path / "b"
    succeed("compile", shop_spec, "-o", first, "--name", "shop", seed="3")
    succeed("compile", "shop spec/common.asn", "shop spec/shop.asn", "-o", second,
            "--name", "shop", cwd=tmp_path, seed="4")
    assert tree(first) == tree(second)


# ---- failure ------------------------------------------------------------------------------

BROKEN = {
    "syntax": ("Broken DEFINITIONS ::= BEGIN\n"
               "T ::= SEQUENCE { a INTEGER,, b BOOLEAN }\n"
               "END\n", 2),
    "semantic": ("Broken DEFINITIONS ::= BEGIN\n"
                 "T ::= SEQUENCE { a INTEGER,\n"
                 "                 b Undefined }\n"
                 "END\n", 3),
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_spec_error_is_reported_and_nothing_is_written(tmp_path, kind):
    text, line = BROKEN[kind]
    (tmp_path / "broken.asn").write_text(text)
    out = tmp_path / "gen"
    result = run_compiler("compile", "broken.asn", "-o", out, "--depfile", "gen.d",
                          "--stamp", "gen.stamp", cwd=tmp_path)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert re.match(rf"broken\.asn:{line}:\d+: error: ", result.stderr), result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.asn"]


def test_a_spec_error_leaves_earlier_outputs_as_they_were(tmp_path):
    out = tmp_path / "gen"
    succeed("compile", PERSONNEL, "-o", out, "--name", "spec")
    before = tree(out)
    (tmp_path / "spec.asn").write_text(BROKEN["semantic"][0])
    result = run_compiler("compile", tmp_path / "spec.asn", "-o", out, "--name", "spec")
    assert result.returncode != 0
    assert tree(out) == before


def test_an_output_directory_that_cannot_be_made_is_an_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run_compiler("compile", PERSONNEL, "-o", blocker / "gen")
    assert result.returncode != 0
    assert result.stderr.startswith("asn1c-hybrid: error: ") and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_depfile_that_cannot_be_written_leaves_no_output_and_no_new_directory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run_compiler("compile", PERSONNEL, "-o", tmp_path / "new" / "gen",
                          "--depfile", blocker / "gen.d")
    assert result.returncode != 0
    assert result.stderr.startswith("asn1c-hybrid: error: ") and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_failed_write_leaves_no_output_and_no_temporary_file(tmp_path):
    out = tmp_path / "gen"
    (out / "spec.c").mkdir(parents=True)       # spec.h could be written, spec.c cannot
    result = run_compiler("compile", PERSONNEL, "-o", out, "--name", "spec",
                          "--depfile", out / "spec.d")
    assert result.returncode != 0
    assert result.stderr.startswith("asn1c-hybrid: error: ") and "Traceback" not in result.stderr
    assert [p.name for p in out.iterdir()] == ["spec.c"]
    assert list((out / "spec.c").iterdir()) == []


def test_an_unwritable_output_directory_is_an_error():
    # permissions do not bind the superuser: then the compiler runs as "nobody"
    drop = []
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root, and no setpriv to run as another user")
        drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    root = Path(tempfile.mkdtemp(prefix="asn1h-unwritable-"))
    try:
        root.chmod(0o755)
        out = root / "gen"
        out.mkdir(mode=0o555)
        out.chmod(0o555)
        result = subprocess.run([*drop, sys.executable, "-m", "asn1c_hybrid", "compile",
                                 str(PERSONNEL), "-o", str(out)],
                                capture_output=True, text=True)
        assert result.returncode != 0
        assert result.stderr.startswith("asn1c-hybrid: error: "), result.stderr
        assert "Permission denied" in result.stderr and "Traceback" not in result.stderr
        assert list(out.iterdir()) == []
    finally:
        shutil.rmtree(root)
