"""`pip install .` (not editable) gives a working compiler: the templates, the runtime
sources and the generated parser travel inside the wheel."""
from __future__ import annotations

import os
import subprocess
import sys

import cbuild


def test_wheel_installs_a_working_compiler(tmp_path, repo_root):
    wheels, site, out = tmp_path / "wheels", tmp_path / "site", tmp_path / "out"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "-v", "-w", str(wheels), str(repo_root)],
                           check=True, capture_output=True, text=True)
    # the package metadata is current: no deprecation warning from the build backend
    assert "deprecated" not in (built.stdout + built.stderr).lower()
    [wheel] = wheels.glob("*.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(site)}
    # run from outside the source tree, so that nothing can come from the checkout
    where = subprocess.run([sys.executable, "-c", "import asn1c_hybrid; print(asn1c_hybrid.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(site))
    spec = repo_root / "examples" / "personnel" / "personnel.asn"
    subprocess.run([sys.executable, "-m", "asn1c_hybrid", "compile", str(spec), "-o", str(out),
                    "--name", "spec", "--mode", "compiled", "--emit-runtime", "--converter"],
                   cwd=tmp_path, env=env, check=True, capture_output=True)
    sources = sorted(out.glob("*.c")) + [out / "converter" / "spec_converter.c"]
    assert {"spec.c", "spec_converter.c", "asn1h_decode.c", "asn1h_encode.c"} <= \
        {s.name for s in sources}
    program = tmp_path / "spec_converter"
    cbuild.run(["gcc", *cbuild.STRICT, "-O1", "-I", out, *sources, "-lm", "-o", program])
    der = (repo_root / "bench" / "messages" / "personnel.der").read_bytes()
    result = subprocess.run([str(program), "-p", "PersonnelRecord", "-o", "der", "-"],
                            input=der, capture_output=True, check=True)
    assert result.stdout == der
