"""asn1c (Debian's asn1c 0.9.28, Lev Walkin's compiler) as a peer.

    asn1c -fwide-types -fcompound-names SPEC...

in a fresh directory, which also receives asn1c's skeletons (the runtime, from
/usr/share/asn1c).  Every generated and skeleton .c is compiled except the sample
converter's main (converter-sample.c); the link keeps what the PDU's descriptors reach.
Debian's 0.9.28 generates no PER code unless asked, so -no-gen-PER is not needed (nor
accepted).  -fwide-types maps INTEGER to INTEGER_t (exact at any length) as ours does.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Sequence

from .common import Build, NotApplicable, fingerprint, fresh_dir, link_driver, run

ASN1C = "asn1c"
OPTIONS = ["-fwide-types", "-fcompound-names"]
SKIPPED_SOURCES = {"converter-sample.c", "converter-example.c"}


def version() -> str:
    result = subprocess.run([ASN1C, "-v"], capture_output=True, text=True)
    return (result.stdout + result.stderr).splitlines()[0].strip()


def c_name(asn1_name: str) -> str:
    """asn1c's C identifier for an ASN.1 type name (MTS-APDU -> MTS_APDU)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", asn1_name)


def build(specs: Sequence[Path], pdu: str, build_dir: Path) -> Build:
    stamp = build_dir / "stamp"
    key = fingerprint(version(), OPTIONS, *specs, pdu, *sorted(Path(__file__).parent.glob("*.py")))
    generated = build_dir / "generated"
    if not (stamp.exists() and stamp.read_text() == key):
        fresh_dir(build_dir)
        generated.mkdir()
        run([ASN1C, *OPTIONS, *[s.resolve() for s in specs]], cwd=generated)
    header = generated / f"{pdu}.h"
    if not header.exists():
        raise NotApplicable(f"asn1c generated no {header.name}")
    sources = sorted(p for p in generated.glob("*.c") if p.name not in SKIPPED_SOURCES)
    result = link_driver(build_dir, "asn1c", "adapter_asn1c.c", sources, [generated],
                         defines=[f"BENCH_PDU={c_name(pdu)}", f"BENCH_HEADER={pdu}.h"])
    stamp.write_text(key)
    return result
