"""Memory: decoding with a caller's buffer makes no heap allocation at all, per message or
otherwise; one reset frees a whole message; limits hold; nothing leaks.

A driver decodes whole traces (every Mozilla CA certificate, the 2,000 X.400 PDUs, ...)
message after message with one arena, re-encodes each and checks the octets, and counts
every call of malloc, calloc and realloc made while it does (the program is linked with
--wrap).  It runs under ASan, whose leak check at exit covers the arena's heap blocks.
"""
from __future__ import annotations

import os
import re
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

FLAGS = ("-O0", "-g", *cbuild.SANITIZE)
WRAP = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc"
ENV = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1"}

DRIVER = r"""
/* Decodes framed messages with one arena, re-encodes and compares each; counts heap calls
 * while doing so.  argv: FRAMES BUFFER-SIZE HEAP-LIMIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spec.h"

static unsigned long heap_calls;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { heap_calls++; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { heap_calls++; return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { heap_calls++; return __real_realloc(p, n); }

int main(int argc, char **argv)
{
    FILE *f;
    unsigned char *data, *buffer, *out, *value;
    size_t size, pos = 0, buffer_size, heap_limit, peak = 0, out_cap = 1 << 20;
    unsigned long messages = 0, failures = 0, mismatches = 0, calls;
    asn1h_arena arena;
    if (argc != 4 || !(f = fopen(argv[1], "rb")))
        return 2;
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    data = (unsigned char *)malloc(size);
    if (fread(data, 1, size, f) != size)
        return 2;
    fclose(f);
    buffer_size = (size_t)strtoull(argv[2], NULL, 10);
    heap_limit = (size_t)strtoull(argv[3], NULL, 10);
    buffer = (unsigned char *)malloc(buffer_size ? buffer_size : 1);
    out = (unsigned char *)malloc(out_cap);
    value = (unsigned char *)malloc(FUZZ_TYPE.size);
    asn1h_arena_init(&arena, buffer_size ? buffer : NULL, buffer_size, heap_limit);

    calls = heap_calls;                     /* from here on, every heap call counts */
    while (size - pos >= 4) {
        size_t n = (size_t)data[pos] | (size_t)data[pos + 1] << 8 | (size_t)data[pos + 2] << 16
                   | (size_t)data[pos + 3] << 24, used, len;
        asn1h_error err;
        pos += 4;
        asn1h_arena_reset(&arena);          /* frees the previous message, in one call */
        if (asn1h_decode(&FUZZ_TYPE, value, data + pos, n, &arena, NULL, &used, &err) != ASN1H_OK) {
            char text[256];
            asn1h_error_format(&err, text, sizeof text);
            printf("error %lu %s\n", messages, text);
            failures++;
        } else {
            if (arena.buf && arena.cur >= arena.buf && arena.cur <= arena.buf + arena.buf_size
                && (size_t)(arena.cur - arena.buf) > peak)
                peak = (size_t)(arena.cur - arena.buf);
            if (asn1h_encode(&FUZZ_TYPE, value, out, out_cap, &len, &err) != ASN1H_OK
                || len != n || memcmp(out, data + pos, n) != 0)
                mismatches++;
        }
        pos += n;
        messages++;
    }
    calls = heap_calls - calls;
    asn1h_arena_free(&arena);
    printf("messages %lu failures %lu mismatches %lu heap_calls %lu peak %lu\n", messages,
           failures, mismatches, calls, (unsigned long)peak);
    free(data);
    free(buffer);
    free(out);
    free(value);
    return 0;
}
"""


def traces() -> dict:
    return {
        "personnel": [corpora.personnel_der()] * 100,
        "blackwell": [corpora.blackwell_message()] * 100,
        "x400": [pdu for name, pdus in corpora.x400_traces() if name == "trace-2000"
                 for pdu in pdus],
        "x509": [c.data for c in corpora.mozilla_certificates()],
    }


_drivers: dict = {}


def driver(target: str, mode: str) -> Path:
    if (target, mode) not in _drivers:
        root = Path(tempfile.mkdtemp(prefix="memory-", dir=cbuild.session_dir()))
        spec, objects, symbol = targets.compiled_objects(targets.TARGETS[target], mode, root,
                                                         compile_flags=FLAGS)
        source = root / "driver.c"
        source.write_text(DRIVER)
        exe = root / "driver"
        cbuild.run(["gcc", *cbuild.STRICT, *FLAGS, f"-DFUZZ_TYPE={symbol}", "-I", spec.parent,
                    "-I", cbuild.RUNTIME, source, *objects, "-lm", WRAP, "-o", exe])
        frames = root / "frames.bin"
        corpora.write_framed(frames, traces()[target])
        _drivers[(target, mode)] = exe
    return _drivers[(target, mode)]


def run(target: str, mode: str, buffer_size: int, heap_limit: int) -> dict:
    exe = driver(target, mode)
    result = subprocess.run([str(exe), str(exe.parent / "frames.bin"), str(buffer_size),
                             str(heap_limit)], capture_output=True, env=ENV, timeout=300)
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-3000:]
    last = result.stdout.decode().splitlines()[-1]
    fields = dict(zip(last.split()[::2], map(int, last.split()[1::2])))
    fields["errors"] = [line for line in result.stdout.decode().splitlines()
                        if line.startswith("error")]
    return fields


@pytest.fixture(params=["compiled", "interpreted"])
def mode(request):
    return request.param


@pytest.fixture(params=["personnel", "blackwell", "x400", "x509"])
def target(request):
    return request.param


def test_caller_buffer_means_no_heap_at_all(target, mode):
    """The issue's target: no heap allocation per message with a caller's buffer (and, with
    heap_limit 0, none at all: the arena may not even try)."""
    r = run(target, mode, 1 << 20, 0)
    assert r["messages"] == len(traces()[target])
    assert r["failures"] == 0 and r["mismatches"] == 0, r["errors"][:3]
    assert r["heap_calls"] == 0
    assert r["peak"] < 1 << 20


def test_a_buffer_of_the_peak_size_is_enough_and_one_less_is_refused(target, mode):
    peak = run(target, mode, 1 << 20, 0)["peak"]
    if peak == 0:
        # Blackwell's message is all inline in its struct: no arena memory at all
        none = run(target, mode, 0, 0)
        assert none["failures"] == 0 and none["heap_calls"] == 0
        return
    exact = run(target, mode, peak, 0)
    assert exact["failures"] == 0 and exact["heap_calls"] == 0
    short = run(target, mode, peak - 8, 0)
    assert short["failures"] >= 1 and short["heap_calls"] == 0
    assert all(re.search(r": memory limit reached$", e) for e in short["errors"])


def test_heap_arena_reuses_its_block(target, mode):
    """Without a buffer the arena takes heap blocks, and keeps one across resets: a few
    calls for the whole trace, whatever its length; ASan's leak check sees them freed."""
    r = run(target, mode, 0, 64 << 20)
    assert r["failures"] == 0 and r["mismatches"] == 0
    assert r["heap_calls"] <= 4, r


def test_buffer_with_heap_overflow(target, mode):
    """A buffer too small for the largest messages, with heap allowed beyond it: those
    messages use the heap, the others none."""
    peak = run(target, mode, 1 << 20, 0)["peak"]
    r = run(target, mode, peak // 2 + 1, 64 << 20)
    assert r["failures"] == 0 and r["mismatches"] == 0
    assert r["heap_calls"] <= r["messages"]
