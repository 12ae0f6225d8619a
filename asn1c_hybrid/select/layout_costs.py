"""Layouts as knapsack items: what each layout's fast path costs and saves, measured
(docs/layouts.md, "Chosen by the knapsack").  The layouts of one form are measured at a
time: exact ones (decoding and encoding paths), or slot ones (the slot tree, decoding).

For every layout of the PDU in the profile, a message of that layout is made
(`emit.fastpaths.example`; for a slot layout, a message of the most frequent exact layout
it takes, or where the profile has none, of its open lengths made the least that its
leaves' types take, `emit.fastpaths.slot_instance`), decoded and DER-encoded (the
calibrated savings count both) by four builds of the spec linked into one program, each
under its own prefix:

  i_  all interpreted, no fast path;
  g_  all compiled, no fast path;
  f_  all compiled, with the fast paths (decoding and encoding) of every candidate;
  o_  all compiled, with the fast paths of the more frequent half of the candidates only,
      so that the messages of the other half miss: what they take more than by g_ is the
      miss cost, what every message of no chosen layout pays for trying them.

callgrind counts each decode and each encode apart (`--dump-after`), after a warm-up
pass.  The f_ decode must be a fast-path hit (counted through ASN1H_FAST_PATH_HIT) and
all three must succeed, else the layout is not an item and `unusable` says why.  A layout
whose value has no encoding path (docs/layouts.md) is encoded by the compiled encoder,
and measured so.  The instructions of a fast path are measured with every candidate
compiled in: a selection's dispatch is no longer.

Bytes are counted as the measured model counts routines (`SIZE_FLAGS`, `nm -S`).  An
exact layout costs its decoding and encoding paths (functions and template) plus an equal
share of the dispatch that the entries (the decoder and the encoder that try the paths)
grow by with each layout.  The entries themselves, as they are with one layout, are paid
once when any layout is chosen.  The slot layouts share one function, the slot tree: a
slot layout costs what the tree grows by when it is added to the more frequent ones (the
tree is compiled with the first 1, 2, ... of them), and the entry is the door alone.

The values of each type in the message come from a replay of it (estimate/replay.py), for
the part of the types' savings that a fast path makes moot (select/selection.py).  Both
the measurements and the replay's counts are kept in the cache (select/measured.py).
"""
from __future__ import annotations

import re
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from ..emit import EmitOptions, generate
from ..emit.fastpaths import Refused, example, slot_instance
from ..emit.layout import build_layout
from ..emit.naming import CNames
from ..errors import MeasurementError, ReplayError
from ..estimate.replay import replay_each
from ..layouts import Layout as MessageLayout, from_text
from ..measure import c_compiler
from ..measure.counts import VALGRIND, parse_callgrind_total
from ..measure.sizes import symbol_sizes
from ..resources import data_dir, runtime_sources
from ..typegraph import TypeGraph
from .costs import knapsack_items
from .measured import SIZE_FLAGS, cached, run_tool

BUILDS = ("i", "g", "f", "o")       # interpreted, compiled, with every fast path, with half
_HIT = ("ASN1H_FAST_PATH_HIT()=do { extern unsigned long fast_path_hits; fast_path_hits++; } "
        "while (0)")


@dataclass(frozen=True)
class LayoutItem:
    """One candidate layout, measured on a message of it."""
    layout: MessageLayout
    frequency: float                     # its messages per message of the profile
    bytes: int = 0                       # its fast path's code
    interpreted: int = 0                 # instructions to decode and encode a message of it,
    compiled: int = 0                    # all interpreted, all compiled,
    fast: int = 0                        # and by its fast paths
    miss: Optional[int] = None           # instructions more than `compiled` when it misses
    values: dict[str, float] = field(default_factory=dict)   # per knapsack item, in one message
    unusable: str = ""                   # why it cannot be chosen

    @property
    def id(self) -> str:
        return self.layout.id


@dataclass(frozen=True)
class LayoutCosts:
    pdu: str
    entry: int                           # bytes of the entries that try the paths
    items: list[LayoutItem]
    form: str = "exact"                  # of the layouts

    @property
    def miss(self) -> float:
        """The miss cost: instructions per message of no chosen layout, the mean over the
        messages measured missing, weighted by their frequency (0 when none could be: a
        single candidate)."""
        missed = [(i.frequency, i.miss) for i in self.items if i.miss is not None]
        weight = sum(f for f, _ in missed)
        return sum(f * max(0, m) for f, m in missed) / weight if weight else 0.0


_DRIVER = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "i.h"
#include "g.h"
#include "f.h"
#include "o.h"

unsigned long fast_path_hits;
static union { uint64_t align; uint8_t bytes[1 << 20]; } arena_buffer, value;
static uint8_t encoding[1 << 20];
static asn1h_arena arena;

__attribute__((noinline)) int measure_decode(const asn1h_type *type, const uint8_t *pdu,
                                             size_t len)
{
    return (int)asn1h_decode(type, value.bytes, pdu, len, &arena, NULL, NULL, NULL);
}

__attribute__((noinline)) int measure_encode(const asn1h_type *type)
{
    size_t len;
    return (int)asn1h_encode(type, value.bytes, encoding, sizeof encoding, &len, NULL);
}

int main(int argc, char **argv)
{
    static uint8_t trace[1 << 22];
    const asn1h_type *types[4] = { &TYPE_I, &TYPE_G, &TYPE_F, &TYPE_O };
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    size_t size = f ? fread(trace, 1, sizeof trace, f) : 0;
    int pass, b;
    asn1h_arena_init(&arena, arena_buffer.bytes, sizeof arena_buffer.bytes, (size_t)-1);
    for (pass = 0; pass < 2; pass++) {          /* the first pass warms up */
        size_t at = 0;
        while (at + 4 <= size) {
            size_t len = (size_t)trace[at] << 24 | (size_t)trace[at + 1] << 16 |
                         (size_t)trace[at + 2] << 8 | trace[at + 3];
            at += 4;
            if (pass)
                printf("pdu");
            for (b = 0; b < 4; b++) {
                unsigned long hits = fast_path_hits;
                int code = measure_decode(types[b], trace + at, len);
                int encoded = code ? -1 : measure_encode(types[b]);
                asn1h_arena_reset(&arena);
                if (pass)
                    printf(" %d %d %d", code, encoded, fast_path_hits > hits);
            }
            if (pass)
                printf("\n");
            at += len;
        }
    }
    return 0;
}
"""


def measure_layouts(graph: TypeGraph, pdu: str, candidates: Sequence[MessageLayout],
                    messages: int, form: str = "exact") -> LayoutCosts:
    """Measures every layout of `form` in `candidates` (the profile's, with their counts
    over `messages` messages) as a knapsack item."""
    measured_form = [c for c in candidates if c.form == form]
    exact = [c for c in candidates if c.form == "exact"]
    layout = build_layout(graph, set(), "", False, frozenset())
    made: dict[str, bytes] = {}
    unusable: dict[str, str] = {}
    for c in measured_form:
        # a slot layout's lengths are the ones of its most frequent exact layout, else
        # (its messages' layouts each seen once) the least its leaves' types take
        model = c if form == "exact" else \
            next((e for e in exact if c.matches(from_text(e.text))), None)
        try:
            made[c.id] = example(layout, pdu, model or slot_instance(layout, pdu, c))
        except Refused as exc:
            unusable[c.id] = f"no fast path: {exc}"
    chosen = tuple(c for c in measured_form if c.id in made)
    half = chosen[:(len(chosen) + 1) // 2]
    everything = {n.id for n in knapsack_items(graph)}

    def with_paths(name: str, paths: Sequence[MessageLayout]) -> dict[str, str]:
        return generate(graph, everything, EmitOptions(name, f"{name}_", encodings=("ber",),
                                                       fast_layouts=(pdu, tuple(paths))))
    files = {
        "i": generate(graph, set(), EmitOptions("i", "i_", encodings=("ber",))),
        "g": generate(graph, everything, EmitOptions("g", "g_", encodings=("ber",))),
        "f": with_paths("f", chosen),
        "o": with_paths("o", half),
    }
    descriptors = {b: CNames(graph, f"{b}_").descriptor(pdu) for b in BUILDS}
    decoder = CNames(graph, "f_").decoder(pdu) + "_layouts"
    runtime = [(p.name, p.read_bytes()) for p in runtime_sources()]
    ordered = [made[c.id] for c in chosen]

    def compute() -> dict:
        with tempfile.TemporaryDirectory(prefix="asn1h-layouts-") as tmp:
            directory = Path(tmp)
            # the bytes are read from the build with one layout (the entries), and for
            # slot layouts from the builds with the first 1, 2, ... (the tree as it grows)
            sizes = [_sizes(directory / f"sized{k}", with_paths("f", chosen[:k]))
                     for k in (range(1, len(chosen) + 1) if form == "slot" else (1,))]
            if form == "slot":
                grown = [s.get(decoder + "_slots", 0) for s in sizes]
                costs = {c.id: max(0, now - before) for c, now, before
                         in zip(chosen, grown, [0, *grown])}
                entry = sizes[0].get(decoder, 0) if sizes else 0
            else:
                every = _sizes(directory / "sizedf", files["f"])
                costs, entry = _exact_costs(every, sizes[0], decoder,
                                            [c.id for c in chosen])
            return _measure(directory, files, descriptors, [c.id for c in chosen], ordered,
                            len(half), costs, entry)
    key = [sorted((b, sorted(f.items())) for b, f in files.items()), runtime, c_compiler(),
           SIZE_FLAGS, [m.hex() for m in ordered]]
    measured = cached("layout-costs", key, compute)

    def count_values() -> dict[str, dict[str, float]]:
        try:
            counted = replay_each(graph, pdu, ordered) if ordered else []
        except ReplayError as exc:
            raise MeasurementError(f"counting the types of the layouts' messages: {exc}") \
                from None
        found: dict[str, dict[str, float]] = {}
        for c, profile in zip(chosen, counted):
            per_item: dict[str, float] = {}
            for node_id, n in profile.estimate(graph).frequencies.items():
                if node_id in graph.nodes and n:
                    owner = graph.target(node_id).id
                    if owner in everything:
                        per_item[owner] = per_item.get(owner, 0.0) + n
            found[c.id] = per_item
        return found
    # a replay builds and runs a counting program: kept, as the measurements are (the
    # interpreted build's source stands for the type graph)
    values = cached("layout-values", [key[0], key[1], pdu, key[-1]], count_values)
    items = []
    for c in measured_form:
        frequency = c.count / messages if messages else 0.0
        m = measured["layouts"].get(c.id)
        why = unusable.get(c.id) or (m or {}).get("unusable", "")
        if why:
            items.append(LayoutItem(c, frequency, unusable=why))
            continue
        items.append(LayoutItem(c, frequency, m["bytes"], m["i"], m["g"], m["f"],
                                measured["misses"].get(c.id), values[c.id]))
    return LayoutCosts(pdu, measured["entry"], items, form)


def _exact_costs(every: dict[str, int], one: dict[str, int], decoder: str,
                 ids: list[str]) -> tuple[dict[str, int], int]:
    """The bytes of each exact layout's paths and its share of the dispatch, and of the
    entries with one layout, from the sizes of the build with every candidate and of the
    one with the first."""
    encoder = decoder + "_encode"
    entry = one.get(decoder, 0) + one.get(encoder, 0)
    dispatch = (every.get(decoder, 0) + every.get(encoder, 0) - entry) / \
        max(1, len(ids) - 1)
    return {i: sum(every.get(f, 0) for f in (f"{decoder}_{i}", f"{encoder}_{i}",
                                                  f"{encoder}_{i}_template")) +
            round(dispatch) for i in ids}, entry


def _sizes(directory: Path, files: dict[str, str]) -> dict[str, int]:
    """The bytes of the functions and constant data of one generated build (its f.c),
    compiled as the measured model compiles routines (`SIZE_FLAGS`), gcc's clones
    (.constprop.0, .part.0) counted with their function."""
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text)
    source = directory / "f.c"
    obj = source.with_suffix(".o")
    run_tool([*c_compiler(), *SIZE_FLAGS, "-I", str(source.parent), "-I",
              str(data_dir("runtime_c")), "-c", str(source), "-o", str(obj)],
             "compiling the fast paths to size them")
    sizes: dict[str, int] = {}
    for name, n in symbol_sizes(obj, kinds="TtRr").items():
        sizes[name.split(".")[0]] = sizes.get(name.split(".")[0], 0) + n
    return sizes


def _measure(directory: Path, files: dict, descriptors: dict, ids: list[str],
             messages: list[bytes], in_o: int, costs: dict[str, int], entry: int) -> dict:
    """`in_o`: how many of `ids`, the first ones, have fast paths in the o_ build;
    `costs` the bytes of each and `entry` those of the entries."""
    runtime_dir = data_dir("runtime_c")
    for build in BUILDS:
        for name, text in files[build].items():
            (directory / name).write_text(text)
    (directory / "driver.c").write_text(_DRIVER)
    if not messages:
        return {"entry": entry, "layouts": {}, "misses": {}}
    # instructions: the four builds in one program, as the study builds them (-O2)
    program = directory / "layouts"
    defines = [f"-DTYPE_{b.upper()}={descriptors[b]}" for b in BUILDS]
    run_tool([*c_compiler(), "-std=c99", "-O2", "-w", f"-D{_HIT}", *defines, "-I", str(directory),
          "-I", str(runtime_dir), *(str(directory / f"{b}.c") for b in BUILDS),
          str(directory / "driver.c"),
          *(str(p) for p in runtime_sources() if p.suffix == ".c"), "-lm", "-o", str(program)],
         "building the layouts' measurement program")
    trace = directory / "messages.framed"
    trace.write_bytes(b"".join(struct.pack(">I", len(m)) + m for m in messages))
    out = directory / "callgrind.out"
    stdout = run_tool([VALGRIND, "--tool=callgrind", "--collect-atstart=no",
                       *(f"--{o}={f}" for f in ("measure_decode", "measure_encode")
                         for o in ("toggle-collect", "dump-after")),
                       f"--callgrind-out-file={out}", str(program), str(trace)],
                      "counting the layouts' instructions under callgrind")
    # per message and build: the decoding's code, the encoding's (-1: not encoded), a hit
    rows = [line.split()[1:] for line in stdout.splitlines() if line.startswith("pdu ")]
    # one dump per call, in call order; the second pass's are the counts
    dumps = []
    for path in sorted(directory.glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:])):
        text = path.read_text()
        trigger = re.search(r"^desc: Trigger: --dump-after=(\w+)", text, re.M)
        dumps.append((trigger.group(1) if trigger else "", parse_callgrind_total(text)))
    calls = sum(2 * len(BUILDS) - row[1::3].count("-1") for row in rows)
    if len(rows) != len(messages) or len(dumps) != 2 * calls:
        raise MeasurementError(f"the layouts' measurement gave {len(rows)} results and "
                               f"{len(dumps)} counts for {len(messages)} messages")
    counts = iter(dumps[calls:])
    layouts, misses = {}, {}
    for k, (layout_id, row) in enumerate(zip(ids, rows)):
        codes = [c for n, c in enumerate(row) if n % 3 != 2]
        hits = dict(zip(BUILDS, (h == "1" for h in row[2::3])))
        totals = []
        for build in range(len(BUILDS)):
            decode, encode = codes[2 * build:2 * build + 2]
            totals.append(next(counts)[1])
            if encode != "-1":
                totals[-1] += next(counts)[1]
        if all(code == "0" for code in codes) and k >= in_o and not hits["o"]:
            misses[layout_id] = totals[3] - totals[1]
        if any(code != "0" for code in codes) or not hits["f"]:
            layouts[layout_id] = {"unusable": "the message made for it does not decode and "
                                              "encode by its fast path (a constraint on "
                                              "its contents)"}
            continue
        layouts[layout_id] = {"bytes": costs[layout_id], "i": totals[0], "g": totals[1],
                              "f": totals[2]}
    return {"entry": entry, "layouts": layouts, "misses": misses}
