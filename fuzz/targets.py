"""The fuzz targets: one per example and shared-spec PDU, with their seed messages, and how
to build for each the round-trip harness (harness.c) and the differential one
(differential.c: compiled, interpreted and mixed builds linked together), as libFuzzer
targets or as replay programs.

Used by fuzz/run.py (`make fuzz`) and by the tests (tests/test_fuzz.py,
tests/test_malformed.py, tests/test_strict_der.py, tests/test_differential_fuzz.py).
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Sequence

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
RUNTIME = REPO / "runtime_c"
sys.path.insert(0, str(REPO))
from bench import corpora  # noqa: E402

STRICT = ("-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror")
SANITIZE = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer")
MODES = {
    "compiled": ("--mode", "compiled"),
    "interpreted": ("--mode", "interpreted"),
    "mixed": ("--mode", "hybrid", "--budget", "50%"),
}


def _x400_seeds() -> List[bytes]:
    return [pdu for _, pdus in corpora.x400_traces()[:1] for pdu in pdus]


def _certificate_seeds() -> List[bytes]:
    try:
        certificates = corpora.mozilla_certificates()
    except (FileNotFoundError, subprocess.CalledProcessError):
        return []
    # a spread of sizes and issuers is enough to seed mutation
    return [c.data for c in certificates[::12]]


SPECS = corpora.shared_dir() / "specs"
REGRESSIONS = FUZZ / "regressions"         # inputs on which the builds once disagreed

# Messages of the shared specifications' protocols, written by other encoders: LDAP's by
# asn1tools (a simple bind; a search whose filter is an AND of an equality and a
# substring match) and the two of the fidelity issue (an unknown protocolOp alternative; a
# control with an unknown trailing addition); SNMPv1 get and response built by hand from
# RFC 1157; a Kerberos AS-REQ by asn1tools.
LDAP_SEEDS = (
    "302c0201016027020103041a636e3d61646d696e2c64633d6578616d706c652c64633d6f72678006736563"
    "726574",
    "30580201026353041164633d6578616d706c652c64633d6f72670a01020a0100020100020100010100a023"
    "a315040b6f626a656374436c6173730406706572736f6ea40a0402636e300480024a6f300a0402636e0404"
    "6d61696c",
    "303102016506070a010004000400a02330210416cfd1cdd1c7cbcfcd3131333535362e312e342e33313904"
    "0730050201000400",
    "303102010665070a010004000400a02330210416312e322e3834302e3131333535362e312e342e3331393a"
    "0730050201000400",
)
SNMP_SEEDS = (
    "302702010004067075626c6963a01a02021234020100020100300e300c06082b060102010101000500",
    "303502010004067075626c6963a22802021234020100020100301c301a06082b06010201010100040e4c69"
    "6e757820686f737420362e31",
)
KERBEROS_SEEDS = (
    "6a8193308190a103020105a20302010aa30f300d300ba103020102a20404023000a4733071a00703050040"
    "810010a1123010a003020101a10930071b05616c696365a20d1b0b4558414d504c452e4f5247a320301ea0"
    "03020102a11730151b066b72627467741b0b4558414d504c452e4f5247a511180f32303337303931333032"
    "343830355aa70402023039a8083006020112020111",
)


def _hex(messages) -> Callable[[], List[bytes]]:
    return lambda: [bytes.fromhex(m) for m in messages]


def _cms_seeds() -> List[bytes]:
    """cryptography-vectors' PKCS #7 / CMS files: SignedData with certificates, and
    EnvelopedData (DER, and PEM decoded)."""
    import base64
    try:
        folder = corpora.cryptography_vectors_root() / "pkcs7"
    except (OSError, subprocess.CalledProcessError):
        return []
    out = []
    for path in sorted(folder.glob("*")):
        data = path.read_bytes()
        if path.suffix == ".pem":
            body = b"".join(line for line in data.splitlines() if not line.startswith(b"-----"))
            data = base64.b64decode(body)
        if data[:1] == b"\x30":
            out.append(data)
    return out


def _trace(example: str) -> Callable[[], List[bytes]]:
    """The captured trace of examples/EXAMPLE (real traffic)."""
    return lambda: corpora.split_pdus((REPO / "examples" / example / "trace.ber").read_bytes())


def _snmp_traffic_specs() -> List[Path]:
    return [*sorted((REPO / "examples" / "snmp" / "spec").glob("*.asn")),
            SPECS / "IETF_SNMP" / "RFC1155-SMI.asn", SPECS / "IETF_SNMP" / "RFC1157-SNMP.asn"]


def _rfc5912_specs() -> List[Path]:
    return sorted((SPECS / "IETF_PKI_RFC5912").glob("*.asn"))


@dataclass(frozen=True)
class Target:
    name: str
    specs: Callable[[], List[Path]]
    pdu: str                                    # Module.Type
    seeds: Callable[[], List[bytes]]
    # --encoding: ber, der (BER input, DER's forms of strings and times alone:
    # docs/runtime.md), uper or aper
    rules: str = "ber"
    # the differential target's mixed build gets layout fast paths (docs/layouts.md) for
    # the 10 most frequent layouts of these messages, in this form
    layouts: Optional[Callable[[], List[bytes]]] = None
    layout_form: str = "exact"


def _folder(name: str) -> Callable[[], List[Path]]:
    return lambda: sorted((SPECS / name).glob("*.asn"))


# PER seeds: messages pycrate and asn1tools agree on (tests/test_per.py)
CAM_SEEDS = [
    "00000000000000000006b49d200d693a40000000000030d4000000000000004000028003a9804fffc0",
    "0107000002dc007f03b6b49db16d691a403ffe0fe10230cc5880",
    "c8810000000104876cc508e9380d691a4021e02cc5dcf7dc50814b007f",
]
RRC_SEEDS = ["00", "ac", "42"]
S1AP_SEEDS = ["0011002e000004003b00090045f6424012345670003c400a0380656e622d3030303100400007"
              "000006c045f6420089400140"]
NGAP_SEEDS = ["00150031000004001b00090000f1105000000001005240070200676e622d310066000d000000"
              "00010000f110000000080015400140"]


TARGETS = {
    t.name: t for t in (
        Target("personnel", lambda: [corpora.PERSONNEL_SPEC],
               "PersonnelRecordModule.PersonnelRecord",
               lambda: [corpora.personnel_der(), corpora.personnel_indefinite()]),
        Target("blackwell", lambda: [corpora.BLACKWELL_SPEC],
               "BlackwellModule.BlackwellMessage", lambda: [corpora.blackwell_message()],
               layouts=lambda: [corpora.blackwell_message()] * 2),
        Target("x400", lambda: [REPO / "examples" / "x400" / "spec"],
               "MTAAbstractService.MTS-APDU", _x400_seeds),
        Target("x509", corpora.rfc5280_specs, "PKIX1Explicit88.Certificate",
               _certificate_seeds),
        Target("x509-crl", corpora.rfc5280_specs, "PKIX1Explicit88.CertificateList",
               lambda: []),
        # the certificate program built with --encoding der: the builds refuse BER's other
        # forms of strings and times, and values kept with BER's framing, alike
        Target("x509-der", corpora.rfc5280_specs, "PKIX1Explicit88.Certificate",
               _certificate_seeds, "der"),
        Target("ldap", lambda: [SPECS / "IETF_LDAP_RFC4511"],
               "Lightweight-Directory-Access-Protocol-V3.LDAPMessage",
               lambda: _hex(LDAP_SEEDS)() + _trace("ldap")()[::8], layouts=_trace("ldap")),
        # examples/snmp: net-snmp's SNMPv1 and v2c traffic, with slot layout fast paths
        Target("snmp-traffic", _snmp_traffic_specs, "SNMP-Traffic.Message",
               lambda: _trace("snmp")()[::40], layouts=_trace("snmp"), layout_form="slot"),
        Target("snmp", lambda: [SPECS / "IETF_SNMP"], "RFC1157-SNMP.Message",
               _hex(SNMP_SEEDS)),
        Target("kerberos", lambda: [SPECS / "IETF_Kerberos_RFC4120"], "KerberosV5Spec2.AS-REQ",
               _hex(KERBEROS_SEEDS)),
        # RFC 5912's modules: extensible types and information object sets throughout
        Target("pkix2009", _rfc5912_specs, "PKIX1Explicit-2009.Certificate",
               _certificate_seeds),
        Target("cms", _rfc5912_specs, "CryptographicMessageSyntax-2009.ContentInfo",
               _cms_seeds),
        # RFC 5912's Certificate built with --encoding der: extensible types, so values
        # kept with BER's framing include unknown additions
        Target("pkix2009-der", _rfc5912_specs, "PKIX1Explicit-2009.Certificate",
               _certificate_seeds, "der"),
        # PER: unaligned for ITS and RRC, aligned for the 3GPP application protocols
        Target("cam", _folder("ETSI_ITS_CAM"), "CAM-PDU-Descriptions.CAM", _hex(CAM_SEEDS),
               "uper"),
        Target("rrc", _folder("3GPP_LTE_RRC_36331_r14"), "EUTRA-RRC-Definitions.UL-DCCH-Message",
               _hex(RRC_SEEDS), "uper"),
        Target("s1ap", _folder("3GPP_S1AP_36413_r14"), "S1AP-PDU-Descriptions.S1AP-PDU",
               _hex(S1AP_SEEDS), "aper"),
        Target("ngap", _folder("3GPP_NGAP_38413_r17"), "NGAP-PDU-Descriptions.NGAP-PDU",
               _hex(NGAP_SEEDS), "aper"),
    )
}
# The round-trip fuzz targets: one per example PDU, and one per PER example.
FUZZ_TARGETS = ("personnel", "blackwell", "x400", "x509")
PER_TARGETS = ("cam", "rrc", "s1ap", "ngap")
# The differential targets: the examples and the shared specifications' protocols, in BER
# and in PER.
DIFFERENTIAL_TARGETS = ("personnel", "blackwell", "x400", "x509", "x509-der", "ldap", "snmp",
                        "kerberos", "pkix2009", "pkix2009-der", "cms", "snmp-traffic",
                        *PER_TARGETS)


def seeds(target: Target) -> List[bytes]:
    """The target's seed messages, and every input the regression folder keeps for it."""
    kept = sorted((REGRESSIONS / target.name).glob("*")) if (REGRESSIONS / target.name).is_dir() \
        else []
    return list(target.seeds()) + [path.read_bytes() for path in kept]


def run(argv: Sequence, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in argv], capture_output=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} failed ({result.returncode}):\n"
                           + result.stderr.decode(errors="replace"))
    return result


_generate_lock = threading.Lock()


def generate(target: Target, mode: str, out: Path, *extra: str, name: str = "spec") -> Path:
    """Runs `asn1c-hybrid compile` for the target; returns the generated .c file."""
    from asn1c_hybrid.cli import main as cli_main
    out.mkdir(parents=True, exist_ok=True)
    # every PDU of the same specification: they share the compiled object (_spec_object)
    pdus = list(dict.fromkeys(t.pdu for t in TARGETS.values() if t.specs() == target.specs()))
    # the rules of the target's input alone: the harnesses use no other, and a compiled
    # type's routines of the other rules would only lengthen the build
    argv = ["compile", *map(str, target.specs()), "-o", str(out), "--name", name,
            *[arg for pdu in pdus for arg in ("--pdu", pdu)], "--encoding", target.rules,
            *MODES[mode], *extra]
    with _generate_lock:                    # the compiler runs in this process, one at a time
        status = cli_main(argv)
    if status != 0:
        raise RuntimeError(f"asn1c-hybrid {' '.join(argv)} failed")
    return out / f"{name}.c"


def descriptor_symbol(source: Path, type_name: str) -> str:
    """The C expression of the descriptor of `type_name` ("Module.Type"): its entry in the
    spec's type array, which the generated source comments with the type's name."""
    text = source.read_text()
    spec = re.search(r"^const (\w+)_tables (\w+) = \{", text, re.M)
    entry = re.search(r"^\s*\{ ASN1H_\w+, [^,]+, (\d+), .*\}?,? /\* " + re.escape(type_name)
                      + r" \*/$", text, re.M)
    if not spec or not entry:
        raise LookupError(f"no descriptor named {type_name} in {source}")
    return f"{spec.group(2)}.types[{entry.group(1)}]"


_runtime_cache: dict = {}


def _runtime_objects(cc: str, flags: Sequence[str], out: Path) -> List[Path]:
    """The runtime compiled once per compiler and flags (kept beside the first user)."""
    key = (cc, tuple(flags))
    if key not in _runtime_cache:
        folder = out.parent / f"runtime-{cc}-{len(_runtime_cache)}"
        folder.mkdir(parents=True, exist_ok=True)
        objects = []
        for c_file in sorted(RUNTIME.glob("*.c")):
            obj = folder / (c_file.stem + ".o")
            run([cc, *STRICT, *flags, "-I", RUNTIME, "-c", c_file, "-o", obj])
            objects.append(obj)
        _runtime_cache[key] = objects
    return _runtime_cache[key]


_spec_cache: dict = {}


def _spec_object(target: Target, mode: str, out: Path, cc: str, compile_flags: Sequence[str],
                 generate_options: Sequence[str]) -> Path:
    """The target's specification generated in `mode` and compiled (once per process for
    the same specification, mode, compiler and flags: PDUs of one spec share it)."""
    key = (tuple(map(str, target.specs())), target.rules, mode, cc, tuple(compile_flags),
           tuple(generate_options))
    if key not in _spec_cache:
        source = generate(target, mode, out, *generate_options)
        obj = out / "spec.o"
        run([cc, *STRICT, *compile_flags, "-I", out, "-I", RUNTIME, "-c", source, "-o", obj])
        _spec_cache[key] = obj
    return _spec_cache[key]


def compiled_objects(target: Target, mode: str, out: Path, *, cc: str = "gcc",
                     compile_flags: Sequence[str] = ("-O0", "-g", *SANITIZE),
                     generate_options: Sequence[str] = ()) -> tuple:
    """(the specification's object, it and the runtime's objects, the PDU's descriptor
    symbol), compiled once per process for the same inputs."""
    out.mkdir(parents=True, exist_ok=True)
    spec_object = _spec_object(target, mode, out, cc, compile_flags, generate_options)
    symbol = descriptor_symbol(spec_object.with_suffix(".c"), target.pdu)
    return spec_object, [spec_object, *_runtime_objects(cc, compile_flags, out)], symbol


def build(target: Target, mode: str, out: Path, *, libfuzzer: bool = False,
          cc: Optional[str] = None, flags: Sequence[str] = ("-O1", "-g"),
          generate_options: Sequence[str] = ()) -> Path:
    """Generates the target's code in `mode` and builds the harness: a libFuzzer target
    (clang, -fsanitize=fuzzer) or the replay program, both with ASan and UBSan."""
    cc = cc or ("clang" if libfuzzer else "gcc")
    compile_flags = [*flags, *SANITIZE] + (["-fsanitize=fuzzer-no-link"] if libfuzzer else [])
    link_sanitize = ["-fsanitize=fuzzer,address,undefined" if libfuzzer else SANITIZE[0],
                     *SANITIZE[1:]]
    spec_object, objects, symbol = compiled_objects(target, mode, out, cc=cc,
                                                    compile_flags=compile_flags,
                                                    generate_options=generate_options)
    defines = [f"-DFUZZ_TYPE={symbol}", '-DFUZZ_HEADER="spec.h"']
    if target.rules not in ("ber", "der"):
        defines += [f"-DFUZZ_PER=ASN1H_{target.rules.upper()}", "-DFUZZ_SPEC=spec"]
    if libfuzzer:
        defines.append("-DFUZZ_LIBFUZZER")
    mains = [FUZZ / "harness.c"] + ([] if libfuzzer else [FUZZ / "replay.c"])
    for c_file in mains:
        obj = out / (c_file.stem + ".o")
        run([cc, *STRICT, *compile_flags, *defines, "-I", spec_object.parent, "-I", RUNTIME,
             "-I", FUZZ, "-c", c_file, "-o", obj])
        objects.append(obj)
    program = out / ("fuzz-" + target.name if libfuzzer else "replay")
    run([cc, *flags, *link_sanitize, *objects, "-lm", "-o", program])
    return program


DIFFERENTIAL_UNITS = (("c_", "compiled"), ("i_", "interpreted"), ("m_", "mixed"))


def build_differential(target: Target, out: Path, *, libfuzzer: bool = False,
                       cc: Optional[str] = None, flags: Sequence[str] = ("-O1", "-g")) -> Path:
    """The differential harness (differential.c) around three builds of the target's
    specification, compiled (--prefix c_), interpreted (i_) and mixed (m_; with the
    target's layout fast paths, if it has layouts), with one runtime: a libFuzzer target,
    or a replay program that takes files of one input each."""
    cc = cc or ("clang" if libfuzzer else "gcc")
    compile_flags = [*flags, *SANITIZE] + (["-fsanitize=fuzzer-no-link"] if libfuzzer else [])
    link_sanitize = ["-fsanitize=fuzzer,address,undefined" if libfuzzer else SANITIZE[0],
                     *SANITIZE[1:]]
    out.mkdir(parents=True, exist_ok=True)
    objects = list(_runtime_objects(cc, compile_flags, out))
    defines = []
    for prefix, mode in DIFFERENTIAL_UNITS:
        name = prefix + "spec"
        extra = _layout_options(target, out) if mode == "mixed" else []
        source = generate(target, mode, out, "--prefix", prefix, *extra, name=name)
        obj = out / f"{name}.o"
        run([cc, *STRICT, *compile_flags, "-I", out, "-I", RUNTIME, "-c", source, "-o", obj])
        objects.append(obj)
        letter = prefix[0].upper()
        defines += [f'-DDIFF_{letter}_HEADER="{name}.h"',
                    f"-DDIFF_{letter}_TYPE={descriptor_symbol(source, target.pdu)}",
                    f"-DDIFF_{letter}_SPEC={prefix}{name}"]
    if target.rules not in ("ber", "der"):
        defines.append(f"-DDIFF_PER=ASN1H_{target.rules.upper()}")
    if not libfuzzer:
        defines.append("-DDIFF_REPLAY")
    obj = out / "differential.o"
    run([cc, *STRICT, *compile_flags, *defines, "-I", out, "-I", RUNTIME, "-c",
         FUZZ / "differential.c", "-o", obj])
    program = out / ("diff-" + target.name if libfuzzer else "diff-replay")
    run([cc, *flags, *link_sanitize, *objects, obj, "-lm", "-o", program])
    return program


def _layout_options(target: Target, out: Path) -> List[str]:
    """`compile` options for the target's layout fast paths: a profile of its layout
    messages, made once in `out`."""
    if target.layouts is None:
        return []
    from asn1c_hybrid import api
    profile = out / "layouts-profile.json"
    if not profile.exists():
        trace = out / "layouts-trace.ber"
        trace.write_bytes(b"".join(target.layouts()))
        api.profile(api.load([str(s) for s in target.specs()]), target.pdu,
                    [str(trace)]).save(profile)
    return ["--profile", str(profile), "--layouts", "10", "--layout-form", target.layout_form]


_builds: dict = {}


def build_cached(target: Target, mode: str, root: Path, **options) -> Path:
    """build(), once per target, mode and options in this process, under `root`."""
    key = (target.name, mode, tuple(sorted((k, str(v)) for k, v in options.items())))
    if key not in _builds:
        _builds[key] = build(target, mode, root / f"{target.name}-{mode}-{len(_builds)}",
                             **options)
    return _builds[key]


def build_all(jobs: Sequence[tuple], root: Path, workers: int = 2, **options) -> None:
    """build_cached() for each (target name, mode), `workers` compilers at a time."""
    from concurrent.futures import ThreadPoolExecutor
    first, rest, specs = [], [], set()
    for name, mode in jobs:
        target = TARGETS[name]
        spec = (tuple(map(str, target.specs())), mode)
        (rest if spec in specs else first).append((target, mode))
        specs.add(spec)
    if first:                               # the runtime once, before the threads share it
        build_cached(*first.pop(0), root, **options)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(lambda job: build_cached(job[0], job[1], root, **options), first))
    for target, mode in rest:               # PDUs of specifications compiled above
        build_cached(target, mode, root, **options)


def write_framed(path: Path, messages: Sequence[bytes]) -> None:
    corpora.write_framed(path, messages)
