"""The benchmark harness: its messages are what they claim, and its counters count right."""
from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import callgrind  # noqa: E402
import corpora  # noqa: E402

needs_toolchain = pytest.mark.skipif(
    not (shutil.which("gcc") and shutil.which("objdump")), reason="gcc/binutils not installed")
needs_valgrind = pytest.mark.skipif(shutil.which("valgrind") is None,
                                    reason="valgrind not installed")


# ---- Messages ------------------------------------------------------------------------------

def test_blackwell_message_is_381_bytes_of_an_even_mix():
    message = corpora.make_blackwell_message()
    assert message == corpora.blackwell_message(), "bench/messages/blackwell.ber is stale"
    assert len(message) == 381
    value = corpora.blackwell_value()
    integers = [value[f"integer{i}"] for i in range(1, 51)]
    booleans = [value[f"boolean{i}"] for i in range(1, 51)]
    # 1-, 2- and 3-octet values, evenly mixed
    assert Counter((n.bit_length() + 7) // 8 for n in integers) == {1: 17, 2: 17, 3: 16}
    assert 10 < sum(booleans) < 40
    # decodes, with asn1tools, to that value
    assert corpora.blackwell_spec("ber").decode("BlackwellMessage", message) == value
    # and its components alternate INTEGER, BOOLEAN
    _, _, length, start = corpora._read_header(message, 0)
    tags = [pdu[0] for pdu in corpora.split_pdus(message[start:start + length])]
    assert tags == [0x02, 0x01] * 50


def test_blackwell_generator_depends_on_its_seed_only():
    assert corpora.make_blackwell_message(7) == corpora.make_blackwell_message(7)
    assert corpora.make_blackwell_message(7) != corpora.make_blackwell_message(8)
    assert len(corpora.make_blackwell_message(8)) == 381


def test_personnel_messages_hold_smithperson():
    der = corpora.personnel_der()
    assert der == corpora.make_personnel_der(), "bench/messages/personnel.der is stale"
    indefinite = corpora.personnel_indefinite()
    spec = corpora.personnel_spec("ber")
    assert spec.decode("PersonnelRecord", der) == corpora.SMITHPERSON
    assert spec.decode("PersonnelRecord", indefinite) == corpora.SMITHPERSON
    # DER orders a SET's components by tag: [APPLICATION 1] name, [APPLICATION 2] number,
    # then the context tags
    _, _, length, start = corpora._read_header(der, 0)
    assert [pdu[0] for pdu in corpora.split_pdus(der[start:start + length])] == \
        [0x61, 0x42, 0x80, 0x81, 0xA2, 0xA3]
    # every one of the 8 constructed values has an indefinite length (its 0x80 and
    # end-of-contents octets cost 15 bytes more than the DER), every primitive a definite one
    assert _length_forms(indefinite) == {"constructed-indefinite": 8, "primitive": 17}
    assert len(indefinite) == len(der) + 15


def _length_forms(data: bytes, forms: Counter = None) -> Counter:
    forms = Counter() if forms is None else forms
    pos = 0
    while pos < len(data):
        _, constructed, length, start = corpora._read_header(data, pos)
        end = corpora.tlv_end(data, pos)
        if constructed:
            forms["constructed-" + ("indefinite" if length is None else "definite")] += 1
            _length_forms(data[start:end - 2 if length is None else end], forms)
        else:
            forms["primitive"] += 1
        pos = end
    return forms


def test_indefinite_form_splits_back_into_the_same_pdus():
    der = corpora.personnel_der()
    stream = corpora.to_indefinite(der) + der + corpora.to_indefinite(der)
    pdus = corpora.split_pdus(stream)
    assert [len(p) for p in pdus] == [len(der) + 15, len(der), len(der) + 15]
    with pytest.raises(ValueError):
        corpora.tlv_end(der[:-1])


def test_framed_corpus_round_trips(tmp_path):
    messages = [b"", b"\x30\x00", bytes(range(256)) * 3]
    corpora.write_framed(tmp_path / "c", messages)
    assert list(corpora.read_framed(tmp_path / "c")) == messages


# ---- Counting ------------------------------------------------------------------------------

LOOP_C = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long bench_loop(unsigned long n)
{
    unsigned long sum = 0;
    for (unsigned long i = 0; i < n; i++) {
        sum += i ^ (sum >> 3);
        __asm__ volatile("" : "+r"(sum));   /* keeps the loop a loop */
    }
    return sum;
}
int main(int argc, char **argv)
{
    unsigned long n = strtoul(argv[1], 0, 10), calls = strtoul(argv[2], 0, 10), acc = 0;
    for (unsigned long c = 0; c < calls; c++)
        acc += bench_loop(n);
    printf("calls %lu\n", calls);
    return (int)(acc & 0);
}
"""


def _instructions(objdump: str, function: str):
    """(address, mnemonic, jump target or None) of each instruction of `function`."""
    body = objdump.split(f"<{function}>:\n", 1)[1].split("\n\n", 1)[0]
    result = []
    for line in body.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s+(\S+)(?:\s+([0-9a-f]+) <)?", line)
        if match:
            target = int(match.group(3), 16) if match.group(3) else None
            result.append((int(match.group(1), 16), match.group(2), target))
    return result


def _expected_count(instructions, n: int) -> int:
    """Instructions executed for n >= 1 iterations, read off the disassembly: everything
    before the loop runs once (gcc's loop entry falls through into it), the loop body from
    the target of its one backward jump to that jump runs n times, then the code after the
    jump up to the first ret runs once."""
    backward = [(a, t) for a, m, t in instructions if m.startswith("j") and t is not None
                and t < a]
    assert len(backward) == 1, f"expected one loop, got {instructions}"
    jump, top = backward[0]
    before = sum(1 for a, _, _ in instructions if a < top)
    body = sum(1 for a, _, _ in instructions if top <= a <= jump)
    after = 0
    for a, mnemonic, _ in instructions:
        if a > jump:
            after += 1
            if mnemonic.startswith("ret"):
                break
    return before + n * body + after


@needs_toolchain
@needs_valgrind
def test_callgrind_counts_a_known_loop_exactly(tmp_path):
    source = tmp_path / "loop.c"
    source.write_text(LOOP_C)
    program = tmp_path / "loop"
    subprocess.run(["gcc", "-O2", "-o", program, source], check=True)
    disassembly = subprocess.run(["objdump", "-d", "--no-show-raw-insn", program],
                                 capture_output=True, text=True, check=True).stdout
    instructions = _instructions(disassembly, "bench_loop")
    # Callgrind counts executed instructions exactly and the function is a leaf, so there
    # is no tolerance to allow: any difference means the toggling or the division is wrong.
    for n, calls in [(10, 1), (1000, 3)]:
        count = callgrind.count_instructions([str(program), str(n), str(calls)], "bench_loop")
        assert count.calls == calls          # read from the program's "calls N" line
        assert count.per_call == _expected_count(instructions, n)
        assert count.instructions == calls * _expected_count(instructions, n)


@needs_valgrind
def test_callgrind_refuses_a_program_that_fails(tmp_path):
    with pytest.raises(callgrind.MeasurementError):
        callgrind.count_instructions(["false"], "main", calls=1)


@needs_toolchain
def test_code_bytes_counts_kept_sections_of_chosen_objects(tmp_path):
    (tmp_path / "impl.c").write_text(
        "const unsigned char table[1000] = {1, 2, 3};\n"
        "int lookup(int i) { return table[i]; }\n"
        "int unused(int i) { return i * 7; }\n")
    (tmp_path / "main.c").write_text(
        "int lookup(int);\nint main(int c, char **v) { (void)v; return lookup(c); }\n")
    for name in ("impl", "main"):
        subprocess.run(["gcc", "-O2", "-ffunction-sections", "-fdata-sections", "-c",
                        tmp_path / f"{name}.c", "-o", tmp_path / f"{name}.o"], check=True)
    map_file = tmp_path / "program.map"
    subprocess.run(["gcc", "-Wl,--gc-sections", f"-Wl,-Map={map_file}", "-o",
                    tmp_path / "program", tmp_path / "main.o", tmp_path / "impl.o"],
                   check=True)
    impl = str(tmp_path / "impl.o")
    counted = callgrind.code_bytes(map_file, lambda obj: obj == impl)
    # the table and lookup() are kept, unused() is collected away
    sizes = subprocess.run(["size", "-A", tmp_path / "impl.o"], capture_output=True,
                           text=True, check=True).stdout
    section = {m.group(1): int(m.group(2))
               for m in re.finditer(r"^(\.\S+)\s+(\d+)", sizes, re.M)}
    assert counted == section[".rodata.table"] + section[".text.lookup"]
    assert counted >= 1000


CALLGRIND_WITH_INSTRUCTIONS = """\
# callgrind format
version: 1
positions: instr line
events: Ir

ob=(1) /lib/libc.so.6
fl=(1) memset.S
fn=(1) memset
0x500 10 4
+3 * 2

ob=(2) /build/driver
fl=(2) main.c
fn=(2) main
0x1000 4 1
+4 5 1
cob=(1)
cfi=(1)
cfn=(1)
calls=1 0x500 10
* 5 6
+2 6 1
fn=(3) bench_decode_once
0x2000 9 3
-16 9 1
*
"""


def test_the_executed_instructions_are_read_from_callgrind_s_compressed_lines():
    executed = callgrind.parse_executed_addresses(CALLGRIND_WITH_INSTRUCTIONS, "driver")
    # libc's 0x500 and 0x503 are another object's; the call line's cost is the call's
    # own instruction at 0x1004
    assert executed == {0x1000, 0x1004, 0x1006, 0x2000, 0x1ff0}
    assert callgrind.parse_executed_addresses(CALLGRIND_WITH_INSTRUCTIONS, "libc.so.6") \
        == {0x500, 0x503}


@needs_toolchain
@needs_valgrind
def test_executed_code_bytes_counts_the_instructions_that_ran(tmp_path):
    (tmp_path / "impl.c").write_text(
        "int called(int x) { return x * 3 + 1; }\n"
        "int never(int x) { return x * x * 7 - 2; }\n")
    (tmp_path / "main.c").write_text(
        "int called(int); int never(int);\n"
        "int main(int c, char **v) { (void)v; return (c > 5 ? never(c) : called(c)) != 4; }\n")
    for name in ("impl", "main"):
        subprocess.run(["gcc", "-O2", "-ffunction-sections", "-fdata-sections", "-c",
                        tmp_path / f"{name}.c", "-o", tmp_path / f"{name}.o"], check=True)
    map_file, program = tmp_path / "program.map", tmp_path / "program"
    subprocess.run(["gcc", "-Wl,--gc-sections", f"-Wl,-Map={map_file}", "-o", program,
                    tmp_path / "main.o", tmp_path / "impl.o"], check=True)
    impl = str(tmp_path / "impl.o")
    executed = callgrind.executed_addresses([str(program)], "main")
    lengths = callgrind.instruction_lengths(program)
    map_text = map_file.read_text()
    sizes = subprocess.run(["size", "-A", tmp_path / "impl.o"], capture_output=True,
                           text=True, check=True).stdout
    section = {m.group(1): int(m.group(2))
               for m in re.finditer(r"^(\.\S+)\s+(\d+)", sizes, re.M)}
    # every instruction of called() ran, none of never()
    assert callgrind.executed_code_bytes(map_text, lengths, executed,
                                         lambda obj: obj == impl) == section[".text.called"]
    # all of the object's code, counted by its instructions, is both functions
    assert callgrind.executed_code_bytes(map_text, lengths, lengths, lambda obj: obj == impl) \
        == section[".text.called"] + section[".text.never"]


def _bench_run():
    """bench/run.py, loaded by path: fuzz/run.py, which the fuzzing tests import, is also a
    module called `run`."""
    loading = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    run = sys.modules["bench_run"] = importlib.util.module_from_spec(loading)
    loading.loader.exec_module(run)
    return run


def test_ber_against_per_table_shows_every_row(tmp_path):
    run = _bench_run()
    data = tmp_path / "ber_vs_per.csv"
    data.write_text("corpus,pdus,rules,build,bytes_per_pdu,decode_per_pdu,encode_per_pdu\n"
                    "cam,200,ber,interpreted,129.0,11762,6964\n"
                    "cam,200,uper,interpreted,41.0,17331,15084\n")
    lines = run.ber_vs_per_table(data)
    assert lines[0] == "## BER against PER"
    assert "| cam | 200 | ber | interpreted | 129.0 | 11,762 | 6,964 |" in lines
    assert "| cam | 200 | uper | interpreted | 41.0 | 17,331 | 15,084 |" in lines
    assert run.ber_vs_per_table(tmp_path / "none.csv") == []


def test_executed_code_table_shows_every_row(tmp_path):
    run = _bench_run()
    data = tmp_path / "executed.csv"
    data.write_text("spec,build,level,runtime_bytes,runtime_executed_bytes,generated_bytes,"
                    "generated_executed_bytes\n"
                    "certificates,interpreted,-O2,25439,9165,0,0\n"
                    "certificates,compiled,-Os,20459,4534,9756,5630\n")
    lines = run.executed_table(data)
    assert lines[0] == "### Code the certificate benchmark runs"
    assert "| interpreted | -O2 | 25,439 | 9,165 | 0 | 0 |" in lines
    assert "| compiled | -Os | 20,459 | 4,534 | 9,756 | 5,630 |" in lines
    assert run.executed_table(tmp_path / "none.csv") == []
