"""Seeded LTE RRC downlink traffic: DL-DCCH-Message PDUs in UPER, as an eNodeB sends them
to the UEs of a busy cell (36.331 release 14, ../shared/specs/3GPP_LTE_RRC_36331_r14).

    python traffic.py [--messages N] [--seed S] [-o traces/dl-dcch-1000.uper]

Writes the trace framed (each PDU after its length, 4 octets big-endian: the framing
`asn1c-hybrid profile --trace-format framed` reads) and a .json summary beside it.  Each
value is encoded by asn1tools, an implementation independent of this project.

The mix, per connection: NAS transport dominates (DLInformationTransfer), every
connection sees a security mode command and a release, some a capability enquiry, and
reconfigurations carry either a measurement configuration (a subset of two carriers'
objects, three report configurations and their measurement ids) or NAS messages alone.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEC = HERE.parents[1].parent / "shared" / "specs" / "3GPP_LTE_RRC_36331_r14"
PDU = "DL-DCCH-Message"

# message kinds and their shares of the trace
MIX = [("dlInformationTransfer", 0.46), ("rrcConnectionReconfiguration", 0.22),
       ("securityModeCommand", 0.10), ("rrcConnectionRelease", 0.14),
       ("ueCapabilityEnquiry", 0.08)]

MEAS_OBJECTS = [
    {"measObjectId": 1, "measObject": ("measObjectEUTRA", {
        "carrierFreq": 1850, "allowedMeasBandwidth": "mbw50", "presenceAntennaPort1": True,
        "neighCellConfig": (b"\x40", 2),
        "cellsToAddModList": [
            {"cellIndex": 1, "physCellId": 101, "cellIndividualOffset": "dB0"},
            {"cellIndex": 2, "physCellId": 102, "cellIndividualOffset": "dB2"},
            {"cellIndex": 3, "physCellId": 215, "cellIndividualOffset": "dB-2"}]})},
    {"measObjectId": 2, "measObject": ("measObjectEUTRA", {
        "carrierFreq": 3100, "allowedMeasBandwidth": "mbw100", "presenceAntennaPort1": False,
        "neighCellConfig": (b"\x40", 2), "offsetFreq": "dB3"})}]

REPORT_CONFIGS = [
    {"reportConfigId": 1, "reportConfig": ("reportConfigEUTRA", {
        "triggerType": ("event", {"eventId": ("eventA3", {"a3-Offset": 6,
                                                          "reportOnLeave": False}),
                                  "hysteresis": 2, "timeToTrigger": "ms320"}),
        "triggerQuantity": "rsrp", "reportQuantity": "both", "maxReportCells": 4,
        "reportInterval": "ms240", "reportAmount": "r8"})},
    {"reportConfigId": 2, "reportConfig": ("reportConfigEUTRA", {
        "triggerType": ("event", {"eventId": ("eventA2", {"a2-Threshold": ("threshold-RSRP",
                                                                           30)}),
                                  "hysteresis": 1, "timeToTrigger": "ms640"}),
        "triggerQuantity": "rsrp", "reportQuantity": "sameAsTriggerQuantity",
        "maxReportCells": 1, "reportInterval": "ms480", "reportAmount": "r1"})},
    {"reportConfigId": 3, "reportConfig": ("reportConfigEUTRA", {
        "triggerType": ("periodical", {"purpose": "reportStrongestCells"}),
        "triggerQuantity": "rsrq", "reportQuantity": "both", "maxReportCells": 8,
        "reportInterval": "ms1024", "reportAmount": "infinity"})}]


def _nas(rng: random.Random) -> bytes:
    """A NAS message: mostly short (EMM/ESM signalling), some long (PDN setup, TAU)."""
    size = int(rng.lognormvariate(3.6, 0.6))
    return bytes(rng.randrange(256) for _ in range(max(8, min(size, 400))))


def _critical(name: str, ies: dict, transaction: int) -> dict:
    return {"rrc-TransactionIdentifier": transaction,
            "criticalExtensions": ("c1", (f"{name}-r8", ies))}


def _meas_config(rng: random.Random) -> dict:
    objects = [o for o in MEAS_OBJECTS if rng.random() < 0.8] or MEAS_OBJECTS[:1]
    reports = [r for r in REPORT_CONFIGS if rng.random() < 0.7] or REPORT_CONFIGS[:1]
    ids = [{"measId": k + 1, "measObjectId": o["measObjectId"],
            "reportConfigId": r["reportConfigId"]}
           for k, (o, r) in enumerate((o, r) for o in objects for r in reports)]
    config = {"measObjectToAddModList": objects, "reportConfigToAddModList": reports,
              "measIdToAddModList": ids[:32]}
    if rng.random() < 0.6:
        config["quantityConfig"] = {"quantityConfigEUTRA": {"filterCoefficientRSRP": "fc6",
                                                            "filterCoefficientRSRQ": "fc4"}}
    if rng.random() < 0.4:
        config["measGapConfig"] = ("setup", {"gapOffset": ("gp0", rng.randrange(40))})
    if rng.random() < 0.5:
        config["s-Measure"] = rng.randrange(98)
    return config


def message(rng: random.Random, kind: str) -> tuple:
    """One DL-DCCH-MessageType value (asn1tools' form) of `kind`."""
    transaction = rng.randrange(4)
    if kind == "dlInformationTransfer":
        ies = {"dedicatedInfoType": ("dedicatedInfoNAS", _nas(rng))}
    elif kind == "rrcConnectionReconfiguration":
        if rng.random() < 0.6:
            ies = {"measConfig": _meas_config(rng)}
        else:
            ies = {"dedicatedInfoNASList": [_nas(rng) for _ in range(rng.choice([1, 1, 2]))]}
    elif kind == "securityModeCommand":
        ies = {"securityConfigSMC": {"securityAlgorithmConfig": {
            "cipheringAlgorithm": rng.choice(["eea0", "eea1", "eea2", "eea2"]),
            "integrityProtAlgorithm": rng.choice(["eia1", "eia2", "eia2"])}}}
    elif kind == "rrcConnectionRelease":
        ies = {"releaseCause": rng.choice(["other"] * 6 + ["loadBalancingTAUrequired"])}
        if rng.random() < 0.3:
            ies["redirectedCarrierInfo"] = ("eutra", rng.choice([1850, 3100, 6300]))
    else:
        ies = {"ue-CapabilityRequest": rng.choice([["eutra"], ["eutra"], ["eutra", "utra"],
                                                   ["eutra", "utra", "geran-cs"]])}
    return ("c1", (kind, _critical(kind, ies, transaction)))


def generate(messages: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    kinds, weights = zip(*MIX)
    return [{"message": message(rng, rng.choices(kinds, weights)[0])}
            for _ in range(messages)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=36331)
    parser.add_argument("--spec", type=Path, default=SPEC)
    parser.add_argument("-o", "--output", type=Path,
                        default=HERE / "traces" / "dl-dcch-1000.uper")
    args = parser.parse_args(argv)
    import asn1tools
    codec = asn1tools.compile_files([str(p) for p in sorted(args.spec.glob("*.asn"))], "uper")
    values = generate(args.messages, args.seed)
    pdus = [codec.encode(PDU, v) for v in values]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(b"".join(len(p).to_bytes(4, "big") + p for p in pdus))
    kinds = [v["message"][1][0] for v in values]
    summary = {"pdu": f"EUTRA-RRC-Definitions.{PDU}", "encoding": "uper", "framing": "framed",
               "messages": len(pdus), "seed": args.seed, "bytes": sum(map(len, pdus)),
               "kinds": {k: kinds.count(k) for k, _ in MIX}}
    args.output.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{args.output.name}: {len(pdus)} PDUs, {summary['bytes']} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
