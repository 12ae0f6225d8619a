"""Trace replay: the values of each type in real PDUs, counted by the runtime.

The specification is generated all interpreted and built with ASN1H_PROFILE; a small C
driver decodes every PDU of the trace with `asn1h_decode_opts.profile` set and writes the
counters with `asn1h_profile_write`.  The counters are the ones an application gets when
it is built with the same flag, so a profile from a trace and one from a running program
mean the same thing and merge.
"""
from __future__ import annotations

import math
import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..emit import EmitOptions, generate
from ..errors import ProfileError, ReplayError
from ..resources import data_dir, runtime_sources
from ..typegraph import TypeGraph
from .profile import Profile
from .trace import frame

_CHUNKS = 100                 # progress steps on long traces
_MIN_CHUNK = 500              # PDUs per converter run, at least


def _compiler() -> list[str]:
    return shlex.split(os.environ.get("CC", "cc"))


def build_counter(graph: TypeGraph, directory: Path) -> Path:
    """The spec generated all interpreted with its converter program, built with
    ASN1H_PROFILE: a program that decodes PDUs and writes the runtime's counters."""
    files = generate(graph, set(), EmitOptions("replay", converter=True))
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text)
    runtime = data_dir("runtime_c")
    sources = [directory / n for n in sorted(files) if n.endswith(".c")]
    sources += [p for p in runtime_sources() if p.suffix == ".c"]
    program = directory / "replay"
    command = [*_compiler(), "-std=c99", "-O1", "-DASN1H_PROFILE", "-I", str(directory),
               "-I", str(runtime), *map(str, sources), "-o", str(program)]
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise ReplayError(f"trace replay needs a C compiler: {command[0]} was not found "
                          f"(set CC)") from None
    if result.returncode != 0:
        raise ReplayError("building the replay program failed:\n" + result.stderr.strip())
    return program


def replay(graph: TypeGraph, pdu: str, pdus: Sequence[bytes],
           progress: Optional[Callable[[int], None]] = None,
           names: Optional[Sequence[str]] = None, encoding: str = "ber") -> Profile:
    """Counts the values of each type in `pdus`, each a complete encoding of `pdu` in the
    `encoding` rules (ber, uper or aper).  `names` says where each PDU came from, for
    error messages."""
    with tempfile.TemporaryDirectory(prefix="asn1h-replay-") as tmp:
        directory = Path(tmp)
        program = build_counter(graph, directory)
        size = max(_MIN_CHUNK, math.ceil(len(pdus) / _CHUNKS))
        profiles = [Profile(graph.spec_hash(), 0, {}, "replay")]
        for start in range(0, len(pdus), size):
            chunk = pdus[start:start + size]
            profiles.append(_count(program, directory, pdu, chunk, start, names, encoding))
            if progress:
                progress(start + len(chunk))
    merged = Profile.merge(profiles)
    merged.origin = "replay"
    return merged


def replay_each(graph: TypeGraph, pdu: str, pdus: Sequence[bytes]) -> list[Profile]:
    """The values of each type in each of `pdus` (BER encodings of `pdu`) apart: a
    profile of one message per PDU."""
    with tempfile.TemporaryDirectory(prefix="asn1h-replay-") as tmp:
        directory = Path(tmp)
        program = build_counter(graph, directory)
        return [_count(program, directory, pdu, [one], k, None, "ber")
                for k, one in enumerate(pdus)]


def _count(program: Path, directory: Path, pdu: str, chunk: Sequence[bytes], start: int,
           names: Optional[Sequence[str]], encoding: str) -> Profile:
    """The counters of one run of the replay program over `chunk`."""
    trace, counters = directory / "chunk.framed", directory / "chunk.json"
    trace.write_bytes(frame(chunk))
    result = subprocess.run([str(program), "-p", pdu, "-i", encoding, "-o", "null",
                             "--framed", "--profile", str(counters), str(trace)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise ReplayError(_decode_failure(result.stderr, chunk, start, names))
    try:
        counted = Profile.load(counters)
    except ProfileError as exc:
        raise ReplayError(f"the replay program wrote no usable counters: {exc}") from None
    counted.messages = len(chunk)
    return counted


def _decode_failure(stderr: str, chunk: Sequence[bytes], start: int,
                    names: Optional[Sequence[str]]) -> str:
    """The converter's `file:offset: message` (offsets in the framed chunk) as the PDU of
    the trace it came from."""
    line = stderr.strip().splitlines()[-1] if stderr.strip() else "failed"
    parts = line.split(":", 2)
    if len(parts) == 3 and parts[1].strip().isdigit():
        offset, message = int(parts[1]), parts[2].strip()
        for k, pdu_bytes in enumerate(chunk):
            if offset < 4 + len(pdu_bytes):
                where = names[start + k] if names else f"PDU {start + k + 1}"
                return f"{where}: byte {max(offset - 4, 0)}: {message}"
            offset -= 4 + len(pdu_bytes)
    return f"replay failed: {line}"
