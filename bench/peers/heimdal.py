"""Heimdal's asn1_compile (Debian's Heimdal 7.8) as a peer: generated code and --template.

    asn1_compile [--template] [OPTIONS] SPEC NAME

The generated C is compiled with our flags and linked with Debian's prebuilt
libasn1.a (heimdal-multidev), whose der_*.o members are the runtime of the generated code
and whose template.o is the template interpreter.

Two pieces are not in Debian's binary packages and come from Heimdal's own source, the
orig tarball of Debian's source package for the installed version (fetched once with
`apt-get source --download-only` into the cache directory, outside the repository):
  * lib/asn1/asn1-template.h, which every file asn1_compile 7.8 writes includes;
  * lib/asn1/rfc2459.asn1 and rfc2459.opt, Heimdal's own X.509 module: asn1_compile
    cannot read RFC 5280's PKIX1Explicit88 (it rejects size constraints on string types),
    so for certificates Heimdal runs on the module it ships and builds its libasn1 from.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import List, Optional, Sequence

from .common import Build, NotApplicable, fingerprint, fresh_dir, link_driver, run

ASN1_COMPILE = "asn1_compile"
HEIMDAL_INCLUDE = Path("/usr/include/heimdal")
LIBASN1 = Path("/usr/lib/x86_64-linux-gnu/heimdal/libasn1.a")
LIBROKEN = Path("/usr/lib/x86_64-linux-gnu/heimdal/libroken.a")
BINARY_PACKAGE = "libasn1-8-heimdal"
VARIANTS = Path(__file__).resolve().parent / "heimdal"


def installed_version() -> str:
    """The source version of the installed Heimdal ASN.1 library."""
    result = subprocess.run(["dpkg-query", "-W", "-f=${source:Version}", BINARY_PACKAGE],
                            capture_output=True, text=True)
    if result.returncode != 0 or not result.stdout:
        raise NotApplicable(f"{BINARY_PACKAGE} is not installed")
    return result.stdout.strip()


def _cache_root() -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import corpora
    return corpora.cache_dir()


def source_asn1_dir() -> Path:
    """lib/asn1 of the Heimdal source matching the installed package."""
    version = installed_version()
    upstream = version.split(":")[-1].rsplit("-", 1)[0]
    root = _cache_root() / f"heimdal-{upstream}"
    asn1_dir = root / "lib" / "asn1"
    if (asn1_dir / "asn1-template.h").exists():
        return asn1_dir
    downloads = root.parent / f"heimdal-{upstream}-download"
    downloads.mkdir(parents=True, exist_ok=True)
    tarball = next(downloads.glob("heimdal_*.orig.tar.*"), None)
    if tarball is None:
        _download_orig(version, downloads)
        tarball = next(downloads.glob("heimdal_*.orig.tar.*"), None)
        if tarball is None:
            raise NotApplicable("could not fetch Heimdal's source (apt-get source heimdal)")
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers()
                   if re.match(r"[^/]+/lib/asn1/[^/]+$", m.name) and m.isfile()]
        for member in members:
            member.name = member.name.split("/", 1)[1]
        archive.extractall(root, members)
    return asn1_dir


def _download_orig(version: str, downloads: Path) -> None:
    """apt-get source --download-only with a private deb-src list (the system's apt
    configuration is left alone)."""
    state = downloads / "apt"
    (state / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (state / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    sources = state / "sources"
    sources.mkdir(exist_ok=True)
    suite = _debian_suite()
    (sources / "debian-src.sources").write_text(
        "Types: deb-src\nURIs: http://deb.debian.org/debian\n"
        f"Suites: {suite}\nComponents: main\n"
        "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    options = ["-o", "Dir::Etc::SourceList=/dev/null", "-o", f"Dir::Etc::SourceParts={sources}",
               "-o", f"Dir::State::Lists={state / 'lists'}",
               "-o", f"Dir::Cache={state / 'cache'}", "-o", "APT::Sandbox::User=root"]
    subprocess.run(["apt-get", *options, "update"], capture_output=True)
    # The Debian part of an old revision may be gone from the mirror; only the upstream
    # (orig) tarball is needed and it is shared by every revision.
    subprocess.run(["apt-get", *options, "source", "--download-only", f"heimdal={version}"],
                   cwd=downloads, capture_output=True)


def _debian_suite() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return "stable"


def error_name(code: int) -> str:
    """The asn1_err.h name of a Heimdal error code (ASN1_OVERRUN, ...), or the number."""
    try:
        text = (HEIMDAL_INCLUDE / "asn1_err.h").read_text()
    except OSError:
        return str(code)
    match = re.search(r"#define\s+(\w+)\s+\(" + str(code) + r"L\)", text)
    return match.group(1) if match else str(code)


def rfc2459() -> tuple:
    """Heimdal's X.509 module and the asn1_compile options its build uses for it."""
    asn1_dir = source_asn1_dir()
    options = [line.strip() for line in (asn1_dir / "rfc2459.opt").read_text().splitlines()
               if line.strip()]
    return asn1_dir / "rfc2459.asn1", ["--one-code-file", *options]


def build(spec: Path, name: str, pdu: str, build_dir: Path, template: bool,
          options: Sequence[str] = (), notes: Sequence[str] = ()) -> Build:
    """Compiles SPEC as module NAME (the header is NAME.h) for the PDU type `pdu`."""
    implementation = "heimdal-template" if template else "heimdal"
    asn1_dir = source_asn1_dir()
    flags = (["--template"] if template else []) + list(options)
    generated = build_dir / "generated"
    include = build_dir / "include"
    stamp = build_dir / "stamp"
    key = fingerprint(installed_version(), flags, spec, name, pdu,
                      *sorted(Path(__file__).parent.glob("*.py")))
    if not (stamp.exists() and stamp.read_text() == key):
        fresh_dir(build_dir)
        generated.mkdir()
        include.mkdir()
        shutil.copy(asn1_dir / "asn1-template.h", include)
        run([ASN1_COMPILE, *flags, spec.resolve(), name], cwd=generated)
        for x in generated.glob("*.x"):
            x.rename(x.with_suffix(".c"))
        for hx in generated.glob("*.hx"):
            hx.rename(hx.with_suffix(".h"))
    sources = sorted(generated.glob("*.c"))
    if not sources:
        raise NotApplicable("asn1_compile wrote no code")
    result = link_driver(build_dir, implementation, "adapter_heimdal.c", sources,
                         [generated, include, HEIMDAL_INCLUDE],
                         defines=[f"BENCH_PDU={pdu}", f"BENCH_HEADER={name}.h"],
                         archives=[LIBASN1, LIBROKEN], notes=notes)
    stamp.write_text(key)
    result.error_name = error_name
    return result
