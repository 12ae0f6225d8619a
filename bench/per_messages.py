"""The values bench/ber_vs_per.py encodes: one message of each PER protocol, written as
asn1tools (CAM, LTE RRC) and pycrate (S1AP, whose information object sets asn1tools cannot
compile for PER) take them."""

import importlib.util
from pathlib import Path


def _example(name: str, folder: str):
    """A module of examples/ by its path (the examples' scripts share names)."""
    path = Path(__file__).resolve().parent.parent / "examples" / folder / "traffic.py"
    found = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


# the LTE RRC traffic generator, whose carriers and report configurations the one
# RRC message below measures too
_LTE_RRC = _example("lte_rrc_traffic", "lte-rrc")

# ETSI ITS CAM of a passenger car: the basic and high-frequency containers, the message
# every vehicle sends up to ten times a second
CAM = {
    "header": {"protocolVersion": 2, "messageID": 2, "stationID": 3_012_345},
    "cam": {
        "generationDeltaTime": 41_234,
        "camParameters": {
            "basicContainer": {
                "stationType": 5,                       # passengerCar
                "referencePosition": {
                    "latitude": 487_123_456, "longitude": 93_234_567,
                    "positionConfidenceEllipse": {"semiMajorConfidence": 250,
                                                  "semiMinorConfidence": 180,
                                                  "semiMajorOrientation": 900},
                    "altitude": {"altitudeValue": 24_500, "altitudeConfidence": "alt-020-00"}}},
            "highFrequencyContainer": ("basicVehicleContainerHighFrequency", {
                "heading": {"headingValue": 1_234, "headingConfidence": 10},
                "speed": {"speedValue": 1_389, "speedConfidence": 5},
                "driveDirection": "forward",
                "vehicleLength": {"vehicleLengthValue": 46,
                                  "vehicleLengthConfidenceIndication": "noTrailerPresent"},
                "vehicleWidth": 18,
                "longitudinalAcceleration": {"longitudinalAccelerationValue": 3,
                                             "longitudinalAccelerationConfidence": 10},
                "curvature": {"curvatureValue": 12, "curvatureConfidence": "onePerMeter-0-01"},
                "curvatureCalculationMode": "yawRateUsed",
                "yawRate": {"yawRateValue": 25, "yawRateConfidence": "degSec-001-00"}})}}}

# LTE RRC (36.331 r14) DL-DCCH-Message: an RRCConnectionReconfiguration carrying a
# measurement configuration (two E-UTRA carriers with a neighbour list, A3, A2 and
# periodical reports, four measurement ids, filtering, a measurement gap)
RRC = ("c1", ("rrcConnectionReconfiguration", {
    "rrc-TransactionIdentifier": 1,
    "criticalExtensions": ("c1", ("rrcConnectionReconfiguration-r8", {
        "measConfig": {
            "measObjectToAddModList": _LTE_RRC.MEAS_OBJECTS,
            "reportConfigToAddModList": _LTE_RRC.REPORT_CONFIGS,
            "measIdToAddModList": [
                {"measId": 1, "measObjectId": 1, "reportConfigId": 1},
                {"measId": 2, "measObjectId": 1, "reportConfigId": 2},
                {"measId": 3, "measObjectId": 2, "reportConfigId": 1},
                {"measId": 4, "measObjectId": 2, "reportConfigId": 3}],
            "quantityConfig": {"quantityConfigEUTRA": {"filterCoefficientRSRP": "fc6",
                                                       "filterCoefficientRSRQ": "fc4"}},
            "measGapConfig": ("setup", {"gapOffset": ("gp0", 17)}),
            "s-Measure": 60,
            "speedStatePars": ("release", None)}}))}))

# S1AP (36.413 r14) InitialContextSetupRequest: the UE's ids, AMBR, one E-RAB with its
# QoS, tunnel endpoint and NAS PDU, security capabilities and key
S1AP = ("initiatingMessage", {
    "procedureCode": 9, "criticality": "reject",
    "value": ("InitialContextSetupRequest", {"protocolIEs": [
        {"id": 0, "criticality": "reject", "value": ("MME-UE-S1AP-ID", 83_886_081)},
        {"id": 8, "criticality": "reject", "value": ("ENB-UE-S1AP-ID", 4_242)},
        {"id": 66, "criticality": "reject", "value": ("UEAggregateMaximumBitrate", {
            "uEaggregateMaximumBitRateDL": 200_000_000, "uEaggregateMaximumBitRateUL": 50_000_000})},
        {"id": 24, "criticality": "reject", "value": ("E-RABToBeSetupListCtxtSUReq", [
            {"id": 52, "criticality": "reject", "value": ("E-RABToBeSetupItemCtxtSUReq", {
                "e-RAB-ID": 5,
                "e-RABlevelQoSParameters": {
                    "qCI": 9, "allocationRetentionPriority": {
                        "priorityLevel": 15, "pre-emptionCapability": "shall-not-trigger-pre-emption",
                        "pre-emptionVulnerability": "pre-emptable"}},
                "transportLayerAddress": (0xC0A8_0A14, 32),
                "gTP-TEID": b"\x00\x00\x12\x34",
                "nAS-PDU": bytes.fromhex("27a1b2c3d4010742010e06") + bytes(range(32))})}])},
        {"id": 107, "criticality": "reject", "value": ("UESecurityCapabilities", {
            "encryptionAlgorithms": (0xE000, 16), "integrityProtectionAlgorithms": (0xC000, 16)})},
        {"id": 73, "criticality": "reject", "value": ("SecurityKey", (int.from_bytes(bytes(range(100, 132)), "big"), 256))}]})})
