"""Running the harness's replay program over many messages at once, for tests: one line of
outcome per message (see replay.c), parsed into Result."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

import ber
import targets

ENV = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1", "UBSAN_OPTIONS": "print_stacktrace=1"}
# Tests build without optimisation: the sanitizers check the same, and the builds are
# several times faster.
FLAGS = ("-O0", "-g")
TRUNCATED, TAG, LENGTH, MISSING, DUPLICATE, FORM, VALUE, CONSTRAINT, NOT_DER, TRAILING, \
    DEPTH, MEMORY = range(1, 13)


@dataclass
class Result:
    ok: bool
    code: int = 0
    offset: int = 0
    consumed: int = 0
    der_len: int = 0
    der_hash: int = 0
    message: str = ""

    def der_is(self, data: bytes) -> bool:
        return self.ok and (self.der_len, self.der_hash) == (len(data), ber.fnv64(data))


_root: Optional[Path] = None


def prepare(root: Path, names: Sequence[str]) -> None:
    """Builds the replay programs of these targets in every mode, two compilers at a time."""
    global _root
    _root = root
    targets.build_all([(n, m) for n in names for m in targets.MODES], root, flags=FLAGS)


def program(target: str, mode: str) -> Path:
    assert _root is not None, "prepare() first"
    return targets.build_cached(targets.TARGETS[target], mode, _root, flags=FLAGS)


def replay(target: str, mode: str, messages: Sequence[bytes], strict: bool = False) -> List[Result]:
    """Runs the harness over `messages`; fails on any sanitizer report or broken property."""
    exe = program(target, mode)
    frames = exe.parent / f"input-{os.getpid()}.bin"
    targets.write_framed(frames, messages)
    result = subprocess.run([str(exe), *(["--strict-der"] if strict else []), "--framed",
                             str(frames)], capture_output=True, env=ENV, timeout=600)
    stderr = result.stderr.decode(errors="replace")
    assert result.returncode == 0, f"{target} {mode}: replay failed:\n{stderr[-5000:]}"
    results = []
    for line in result.stdout.decode().splitlines():
        fields = line.split(" ", 5)
        if fields[1] == "ok":
            results.append(Result(True, consumed=int(fields[2]), der_len=int(fields[3]),
                                  der_hash=int(fields[4], 16)))
        else:
            results.append(Result(False, code=int(fields[2]), offset=int(fields[3]),
                                  message=" ".join(fields[4:])))
    assert len(results) == len(messages)
    return results


def canonical(data: bytes) -> bytes:
    """The DER framing of a valid message (its lengths made definite and minimal)."""
    return ber.rewrite(data, ber.parse(data), lambda node, identifier, contents: None)
