"""The specification sets of the differential and real-data tests, and their builds.

Each set is generated in every mode (compiled, interpreted, and a mixed build that the
knapsack chooses at a 20% budget) and built once per test session with the converter
program, under AddressSanitizer and UndefinedBehaviorSanitizer (with clang where it is
installed: see CC); the three C compilations of a set run side by side.  What the
reference (asn1tools) reads is the same text, trimmed only where it cannot read it, as
each set says.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

import cbuild
import reference

REPO = cbuild.REPO
# Reference specifications beside the checkout, or where ASN1H_SHARED says (as conftest.py)
SHARED = Path(os.environ.get("ASN1H_SHARED", REPO.parent / "shared"))

sys.path.insert(0, str(REPO))
from asn1c_hybrid import api  # noqa: E402
from bench import corpora  # noqa: E402

SPECS = SHARED / "specs"
TESTS = Path(__file__).resolve().parent
MODES = {
    "compiled": ("--mode", "compiled"),
    "interpreted": ("--mode", "interpreted"),
    # the unit model: the same mix of compiled and interpreted types on every machine
    "hybrid": ("--mode", "hybrid", "--budget", "20%", "--cost-model", "units"),
}
# -O0 keeps the compilation of the large all-compiled builds short; the sanitizers stay.
FLAGS = ("-O0", "-g", *cbuild.SANITIZE)
# The sets build with clang where it is installed: its UBSan checks more than gcc's (an
# offset added to a NULL pointer, for one), and the tests that build one spec use gcc, so
# both compilers see every warning flag on generated code.
CC = "clang" if shutil.which("clang") else "gcc"


@dataclass(frozen=True)
class SpecSet:
    name: str
    files: tuple[Path, ...]
    reference_files: tuple[Path, ...] = ()          # default: the same files
    edit: Optional[Callable[[Path, str], str]] = None   # what the reference reads instead
    note: str = ""
    avoid: tuple[tuple[str, str], ...] = ()        # (CHOICE, alternative) not generated

    def avoided(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for choice, alternative in self.avoid:
            out.setdefault(choice, set()).add(alternative)
        return out

    def reference_texts(self) -> tuple[str, ...]:
        return reference.read_texts(self.reference_files or self.files, self.edit)


def _folder(name: str) -> tuple[Path, ...]:
    return tuple(sorted((SPECS / name).glob("*.asn")))


def _without_values(path: Path, text: str) -> str:
    return corpora.strip_value_assignments(text)


def _any_for_any_defined_by(path: Path, text: str) -> str:
    """asn1tools cannot encode a tagged `ANY DEFINED BY` (its explicit tag calls the inner
    encoder without the sibling values); with no table behind it, as in these 1988-syntax
    modules, it means what ANY means.  And it takes `[1] ANY` in an IMPLICIT TAGS module
    as implicit, dropping the tag, where X.680 31.2.7 c) makes a tagged open type explicit:
    the tag is written EXPLICIT for it."""
    text = re.sub(r"\bANY\s+DEFINED\s+BY\s+[\w-]+", "ANY", text)
    return re.sub(r"(\[[^\]]*\])\s+ANY\b", r"\1 EXPLICIT ANY", text)


PKIX_NOTE = "asn1tools reads ANY DEFINED BY as ANY (see _any_for_any_defined_by)"


SPEC_SETS = {s.name: s for s in [
    SpecSet("personnel", (REPO / "examples" / "personnel" / "personnel.asn",),
            edit=_without_values, note="the reference does not read value assignments"),
    SpecSet("blackwell", (REPO / "bench" / "blackwell" / "blackwell.asn",)),
    SpecSet("allkinds", (TESTS / "specs" / "AllKinds.asn",)),
    # built from the first version; the reference encodes values of the later one
    SpecSet("versions", (TESTS / "specs" / "versions" / "Old.asn",),
            reference_files=(TESTS / "specs" / "versions" / "New.asn",)),
    SpecSet("x400", tuple(sorted((REPO / "examples" / "x400" / "spec").glob("*.asn"))),
            # `[0] AdministrationDomainName` in an IMPLICIT TAGS module tags an
            # [APPLICATION 2] CHOICE: X.680 31.2.7 makes [0] implicit (only an *untagged*
            # CHOICE forces explicit tagging), asn1tools keeps both tags.  The generator
            # leaves this alternative out; test_jer.py checks its encoding by hand.
            avoid=(("MTAAbstractService.PerDomainBilateralInformation.domain",
                    "private-domain"),)),
    SpecSet("rfc5280", _folder("IETF_PKI_RFC5280"), edit=_any_for_any_defined_by,
            note=PKIX_NOTE),
    SpecSet("rfc5652", _folder("IETF_PKI_RFC5652"), edit=_any_for_any_defined_by,
            note=PKIX_NOTE),
    SpecSet("ldap", _folder("IETF_LDAP_RFC4511")),
    SpecSet("kerberos", _folder("IETF_Kerberos_RFC4120")),
    SpecSet("snmp", _folder("IETF_SNMP"),
            reference_files=(SPECS / "IETF_SNMP" / "RFC1155-SMI.asn",
                             SPECS / "IETF_SNMP" / "RFC1157-SNMP.asn"),
            note="RFC1156-MIB is OBJECT-TYPE macro values, which asn1tools cannot read: "
                 "its types are compiled here but left out of the comparison"),
    # examples/snmp: RFC 3416's PDUs in a message that also carries SNMPv1's trap
    SpecSet("snmp-traffic", (*sorted((REPO / "examples" / "snmp" / "spec").glob("*.asn")),
                             SPECS / "IETF_SNMP" / "RFC1155-SMI.asn",
                             SPECS / "IETF_SNMP" / "RFC1157-SNMP.asn")),
]}


@dataclass
class SpecBuilds:
    spec: SpecSet
    graph: object
    builds: dict[str, cbuild.Build] = field(default_factory=dict)


_cache: dict[str, SpecBuilds] = {}


def builds(name: str, modes: Sequence[str] = tuple(MODES)) -> SpecBuilds:
    """The set's type graph and its converter in each mode (built once per session)."""
    spec = SPEC_SETS[name]
    entry = _cache.setdefault(name, SpecBuilds(spec, api.load([str(f) for f in spec.files])))
    missing = [m for m in modes if m not in entry.builds]
    if missing:
        cbuild.runtime_library(CC, FLAGS)        # once, before compiling in parallel
        outdirs = {}
        for mode in missing:
            out = Path(tempfile.mkdtemp(prefix=f"{name}-{mode}-", dir=cbuild.session_dir()))
            cbuild.generate(spec.files, out, "--name", "spec", "--converter", *MODES[mode])
            outdirs[mode] = out
        with ThreadPoolExecutor(max_workers=2) as pool:
            done = {mode: pool.submit(cbuild.build_program, out, "spec", cc=CC, flags=FLAGS)
                    for mode, out in outdirs.items()}
            for mode, future in done.items():
                entry.builds[mode] = future.result()
    return entry


def run_many(jobs: Sequence[tuple[cbuild.Build, Sequence[str], bytes]]) -> list:
    """Runs converter invocations side by side; each result is a CompletedProcess."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda job: job[0].run(*job[1], input=job[2], check=False),
                             jobs))

