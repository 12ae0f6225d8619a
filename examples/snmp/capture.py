"""Captures real SNMPv1 and SNMPv2c traffic between net-snmp's agent and its tools.

    python examples/snmp/capture.py [OUTPUT]          (default: examples/snmp/trace.ber)

An `snmpd` (Debian's `snmpd` package) is started on a free loopback port with a
configuration of its own, and the `snmp` package's tools talk to it: walks, bulk walks,
gets, get-nexts, a set, and v1 and v2c traps.  Each tool runs with `-d`, which dumps every
datagram it sends and receives; those dumps are the trace: the BER messages, requests and
responses in the order they went, concatenated.

The session runs twice.  The first round is the training half of the trace and the second
the held-out half (the same kinds of exchange a little later: other request ids, uptimes
and counters), so a profile learned from one half can be measured on the other without
sharing a message.  `second_round_from` in trace.json says where the second round starts.

The MIB subtrees walked are chosen to hold no file system paths or process lists (the
host resources MIB is left out); the agent's system group is set in its configuration.
"""
from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (tool, its arguments after the agent's address).  `{agent}` is the agent's address.
SESSION = [
    ("snmpget", ["-v1", "-c", "public", "{agent}", "1.3.6.1.2.1.1.1.0", "1.3.6.1.2.1.1.3.0",
                 "1.3.6.1.2.1.1.5.0"]),
    ("snmpwalk", ["-v1", "-c", "public", "{agent}", "1.3.6.1.2.1.1"]),
    ("snmpwalk", ["-v1", "-c", "public", "{agent}", "1.3.6.1.2.1.2"]),
    ("snmpgetnext", ["-v1", "-c", "public", "{agent}", "1.3.6.1.2.1.1.9"]),
    ("snmpget", ["-v1", "-c", "public", "{agent}", "1.3.6.1.2.1.1.99.0"]),
    ("snmpwalk", ["-v2c", "-c", "public", "{agent}", "1.3.6.1.2.1.4"]),
    ("snmpwalk", ["-v2c", "-c", "public", "{agent}", "1.3.6.1.2.1.11"]),
    ("snmpbulkwalk", ["-v2c", "-c", "public", "-Cr10", "{agent}", "1.3.6.1.2.1.2"]),
    ("snmpbulkwalk", ["-v2c", "-c", "public", "-Cr25", "{agent}", "1.3.6.1.2.1.6"]),
    ("snmpbulkget", ["-v2c", "-c", "public", "-Cn1", "-Cr5", "{agent}", "1.3.6.1.2.1.1.3",
                     "1.3.6.1.2.1.2.2.1.10"]),
    ("snmpget", ["-v2c", "-c", "public", "{agent}", "1.3.6.1.2.1.1.3.0", "1.3.6.1.2.1.1.7.0",
                 "1.3.6.1.2.1.1.99.0"]),
    ("snmpset", ["-v2c", "-c", "private", "{agent}", "1.3.6.1.2.1.1.4.0", "s",
                 "operator@example.org"]),
    ("snmptrap", ["-v1", "-c", "public", "{agent}", "1.3.6.1.4.1.8072.2.3.1", "127.0.0.1",
                  "6", "17", "", "1.3.6.1.2.1.1.5.0", "s", "agent"]),
    ("snmptrap", ["-v2c", "-c", "public", "{agent}", "", "1.3.6.1.6.3.1.1.5.3",
                  "1.3.6.1.2.1.2.2.1.1.1", "i", "1"]),
]

CONFIG = """agentaddress udp:127.0.0.1:{port}
rocommunity public 127.0.0.1
rwcommunity private 127.0.0.1 .1.3.6.1.2.1.1
sysDescr asn1c-hybrid example agent
sysLocation loopback
sysName agent
"""


def dumped_datagrams(text: str) -> list[bytes]:
    """The datagrams of net-snmp's `-d` dumps ("Sending 41 bytes to ...", hex lines)."""
    packets, current = [], None
    for line in text.splitlines():
        if re.match(r"(Sending|Received) \d+ byte", line):
            current = bytearray()
            packets.append(current)
        elif current is not None and re.match(r"[0-9]{4}: ", line):
            current += bytes.fromhex(line[6:56].replace(" ", ""))
        else:
            current = None
    return [bytes(p) for p in packets]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_session(agent: str) -> list[bytes]:
    messages: list[bytes] = []
    for tool, arguments in SESSION:
        command = [tool, "-d", "-On", "-t", "5", "-r", "1",
                   *[a.format(agent=agent) for a in arguments]]
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        messages += dumped_datagrams(result.stdout + result.stderr)
    return messages


def capture() -> tuple[list[bytes], int]:
    missing = [t for t in ("snmpd", *{tool for tool, _ in SESSION}) if not shutil.which(t)]
    if missing:
        sys.exit(f"capture: {', '.join(missing)} not found: install Debian's snmpd and snmp "
                 f"packages")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        conf = Path(tmp) / "snmpd.conf"
        conf.write_text(CONFIG.format(port=port))
        agent = subprocess.Popen(["snmpd", "-f", "-Ln", "-C", "-c", str(conf),
                                  "-p", str(Path(tmp) / "pid")],
                                 env={"SNMP_PERSISTENT_DIR": tmp, "PATH": "/usr/sbin:/usr/bin"})
        try:
            time.sleep(1)
            first = run_session(f"127.0.0.1:{port}")
            time.sleep(2)
            second = run_session(f"127.0.0.1:{port}")
        finally:
            agent.terminate()
            agent.wait(30)
    return first + second, len(first)


def main() -> None:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "trace.ber"
    messages, split = capture()
    output.write_bytes(b"".join(messages))
    summary = {"messages": len(messages), "second_round_from": split,
               "octets": sum(map(len, messages))}
    output.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{output}: {len(messages)} messages, the second round from message {split}")


if __name__ == "__main__":
    main()
