"""Captures real LDAPv3 traffic between OpenLDAP's server and its command-line tools.

    python examples/ldap/capture.py [OUTPUT]          (default: examples/ldap/trace.ber)

A `slapd` (Debian's `slapd` package) is started on a free loopback port with a directory
of its own (an in-memory-sized MDB database under a temporary directory), and a small
recording relay sits between it and the `ldap-utils` tools: binds, adds, searches of
several scopes and filters, compares, modifies, renames, deletes, a password change and
a "who am I" extended operation.  The relay cuts each direction's octets into BER
messages as they pass; the trace is those LDAPMessages, in the order they passed,
concatenated.

The session runs twice, on two sets of entries (other names, numbers and mail
addresses).  The first round is the training half of the trace and the second the
held-out half; `second_round_from` in trace.json says where the second round starts.
"""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = "dc=example,dc=org"
ADMIN = f"cn=admin,{BASE}"
SECRET = "secret"
PEOPLE = 40

CONFIG = """include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
pidfile {tmp}/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
maxsize 16777216
suffix "{base}"
rootdn "{admin}"
rootpw {secret}
directory {tmp}/db
"""

FIRST = ["Ada", "Alan", "Barbara", "Donald", "Edsger", "Frances", "Grace", "John", "Ken",
         "Leslie", "Margaret", "Niklaus", "Radia", "Robin", "Tony", "Vint"]
LAST = ["Lovelace", "Turing", "Liskov", "Knuth", "Dijkstra", "Allen", "Hopper", "Backus",
        "Thompson", "Lamport", "Hamilton", "Wirth", "Perlman", "Milner", "Hoare", "Cerf"]


def people_ldif(round_no: int) -> str:
    unit = f"ou=round{round_no},{BASE}"
    blocks = [f"dn: {unit}\nobjectClass: organizationalUnit\nou: round{round_no}\n"]
    for k in range(PEOPLE):
        given, family = FIRST[(k * 7 + round_no) % len(FIRST)], LAST[(k * 5 + round_no * 3) % len(LAST)]
        uid = f"{given[0].lower()}{family.lower()}{k + 100 * round_no}"
        blocks.append(
            f"dn: uid={uid},{unit}\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\n"
            f"uid: {uid}\ncn: {given} {family}\nsn: {family}\ngivenName: {given}\n"
            f"mail: {uid}@example.org\ntelephoneNumber: +1 555 {1000 + 37 * k + round_no:04d}\n"
            f"uidNumber: {10000 + 100 * round_no + k}\ngidNumber: {500 + k % 3}\n"
            f"homeDirectory: /home/{uid}\nloginShell: /bin/sh\n")
    return "\n".join(blocks)


def session(round_no: int, url: str, tmp: Path) -> list[list[str]]:
    unit = f"ou=round{round_no},{BASE}"
    ldif = tmp / f"people{round_no}.ldif"
    ldif.write_text(people_ldif(round_no))
    first_uid = f"{FIRST[round_no % len(FIRST)][0].lower()}{LAST[(round_no * 3) % len(LAST)].lower()}{100 * round_no}"
    modify = tmp / f"modify{round_no}.ldif"
    modify.write_text(f"dn: uid={first_uid},{unit}\nchangetype: modify\nreplace: telephoneNumber\n"
                      f"telephoneNumber: +1 555 0000\n-\nadd: description\ndescription: on call\n")
    bind = ["-x", "-H", url, "-D", ADMIN, "-w", SECRET]
    anonymous = ["-x", "-H", url]
    return [
        ["ldapadd", *bind, "-f", str(ldif)],
        ["ldapsearch", *anonymous, "-b", unit, "(objectClass=inetOrgPerson)"],
        ["ldapsearch", *anonymous, "-b", unit, "(uid=*1*)", "cn", "mail"],
        ["ldapsearch", *anonymous, "-b", unit, "(&(objectClass=posixAccount)(gidNumber=501))",
         "uid", "uidNumber"],
        ["ldapsearch", *anonymous, "-b", unit, "-s", "one", "(|(sn=Turing)(sn=Hopper))"],
        ["ldapsearch", *anonymous, "-b", BASE, "-s", "base", "(objectClass=*)"],
        ["ldapsearch", *anonymous, "-b", unit, "-z", "5", "(cn=*)", "dn"],
        ["ldapcompare", *bind, f"uid={first_uid},{unit}", f"uid:{first_uid}"],
        ["ldapmodify", *bind, "-f", str(modify)],
        ["ldapmodrdn", *bind, f"uid={first_uid},{unit}", f"uid={first_uid}x"],
        ["ldappasswd", *bind, "-s", "changed", f"uid={first_uid}x,{unit}"],
        ["ldapwhoami", *bind],
        ["ldapsearch", *bind, "-b", unit, "(description=on call)", "telephoneNumber"],
        ["ldapdelete", *bind, f"uid={first_uid}x,{unit}"],
    ]


class Relay:
    """A TCP relay that records the BER messages passing each way, in passing order."""

    def __init__(self, target_port: int):
        self.target = target_port
        self.messages: list[bytes] = []
        self.lock = threading.Lock()
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        pending = b""
        while True:
            try:
                chunk = source.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                try:
                    sink.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            pending += chunk
            while (end := _complete(pending)) is not None:
                with self.lock:
                    self.messages.append(pending[:end])
                pending = pending[end:]
            sink.sendall(chunk)


def _complete(data: bytes):
    """The length of the first BER TLV of `data` if it is all there (definite lengths)."""
    if len(data) < 2:
        return None
    first = data[1]
    if first < 0x80:
        end = 2 + first
    else:
        count = first & 0x7F
        if len(data) < 2 + count:
            return None
        end = 2 + count + int.from_bytes(data[2:2 + count], "big")
    return end if len(data) >= end else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def capture() -> tuple[list[bytes], int]:
    tools = {"slapd", "ldapadd", "ldapsearch", "ldapcompare", "ldapmodify", "ldapmodrdn",
             "ldappasswd", "ldapwhoami", "ldapdelete"}
    missing = sorted(t for t in tools if not shutil.which(t, path="/usr/sbin:/usr/bin"))
    if missing:
        sys.exit(f"capture: {', '.join(missing)} not found: install Debian's slapd and "
                 f"ldap-utils packages")
    port = free_port()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        (tmp / "db").mkdir()
        conf = tmp / "slapd.conf"
        conf.write_text(CONFIG.format(tmp=tmp, base=BASE, admin=ADMIN, secret=SECRET))
        server = subprocess.Popen(["/usr/sbin/slapd", "-d", "0", "-f", str(conf), "-h",
                                   f"ldap://127.0.0.1:{port}/"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(50):
                try:
                    socket.create_connection(("127.0.0.1", port)).close()
                    break
                except OSError:
                    time.sleep(0.1)
            base = tmp / "base.ldif"
            base.write_text(f"dn: {BASE}\nobjectClass: dcObject\nobjectClass: organization\n"
                            f"o: Example\ndc: example\n")
            subprocess.run(["ldapadd", "-x", "-H", f"ldap://127.0.0.1:{port}", "-D", ADMIN,
                            "-w", SECRET, "-f", str(base)], check=True, capture_output=True)
            relay = Relay(port)
            url = f"ldap://127.0.0.1:{relay.port}"
            rounds = []
            for round_no in (1, 2):
                for command in session(round_no, url, tmp):
                    subprocess.run(command, capture_output=True, timeout=120)
                    time.sleep(0.05)
                time.sleep(0.2)
                with relay.lock:
                    rounds.append(len(relay.messages))
            relay.server.close()
        finally:
            server.terminate()
            server.wait(30)
    return relay.messages, rounds[0]


def main() -> None:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "trace.ber"
    messages, split = capture()
    output.write_bytes(b"".join(messages))
    summary = {"messages": len(messages), "second_round_from": split,
               "octets": sum(map(len, messages))}
    output.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{output.name}: {len(messages)} messages, the second round from message {split}")


if __name__ == "__main__":
    main()
