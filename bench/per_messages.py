"""The values bench/ber_vs_per.py encodes: one message of each PER protocol, written as
asn1tools (CAM, LTE RRC) and pycrate (S1AP, whose information object sets asn1tools cannot
compile for PER) take them."""

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
            "measObjectToAddModList": [
                {"measObjectId": 1, "measObject": ("measObjectEUTRA", {
                    "carrierFreq": 1850, "allowedMeasBandwidth": "mbw50",
                    "presenceAntennaPort1": True, "neighCellConfig": (b"\x40", 2),
                    "cellsToAddModList": [
                        {"cellIndex": 1, "physCellId": 101, "cellIndividualOffset": "dB0"},
                        {"cellIndex": 2, "physCellId": 102, "cellIndividualOffset": "dB2"},
                        {"cellIndex": 3, "physCellId": 215, "cellIndividualOffset": "dB-2"}]})},
                {"measObjectId": 2, "measObject": ("measObjectEUTRA", {
                    "carrierFreq": 3100, "allowedMeasBandwidth": "mbw100",
                    "presenceAntennaPort1": False, "neighCellConfig": (b"\x40", 2),
                    "offsetFreq": "dB3"})}],
            "reportConfigToAddModList": [
                {"reportConfigId": 1, "reportConfig": ("reportConfigEUTRA", {
                    "triggerType": ("event", {
                        "eventId": ("eventA3", {"a3-Offset": 6, "reportOnLeave": False}),
                        "hysteresis": 2, "timeToTrigger": "ms320"}),
                    "triggerQuantity": "rsrp", "reportQuantity": "both", "maxReportCells": 4,
                    "reportInterval": "ms240", "reportAmount": "r8"})},
                {"reportConfigId": 2, "reportConfig": ("reportConfigEUTRA", {
                    "triggerType": ("event", {
                        "eventId": ("eventA2", {"a2-Threshold": ("threshold-RSRP", 30)}),
                        "hysteresis": 1, "timeToTrigger": "ms640"}),
                    "triggerQuantity": "rsrp", "reportQuantity": "sameAsTriggerQuantity",
                    "maxReportCells": 1, "reportInterval": "ms480", "reportAmount": "r1"})},
                {"reportConfigId": 3, "reportConfig": ("reportConfigEUTRA", {
                    "triggerType": ("periodical", {"purpose": "reportStrongestCells"}),
                    "triggerQuantity": "rsrq", "reportQuantity": "both", "maxReportCells": 8,
                    "reportInterval": "ms1024", "reportAmount": "infinity"})}],
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
