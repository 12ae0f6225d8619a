"""The real specifications of ../shared/specs pass `check`, directory by directory; the
Wireshark X.411 set reports its missing modules and nothing else."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from asn1c_hybrid.cli import main
from asn1c_hybrid.diagnostics import CompileError, Diagnostics
from asn1c_hybrid.frontend import load
from asn1c_hybrid.typegraph import Kind

COMPLETE_SETS = ["IETF_Kerberos_RFC4120", "IETF_LDAP_RFC4511", "IETF_PKI_RFC5280",
                 "IETF_PKI_RFC5652", "IETF_PKI_RFC5912", "IETF_SNMP",
                 "3GPP_LTE_RRC_36331_r14", "3GPP_S1AP_36413_r14", "3GPP_NGAP_38413_r17",
                 "ETSI_ITS_CAM"]
X411 = "ITUT_X411_P1_wireshark"


@pytest.mark.parametrize("name", COMPLETE_SETS)
def test_directory_passes_check(shared_dir, name, capfd):
    assert main(["check", str(shared_dir / "specs" / name)]) == 0
    assert "error:" not in capfd.readouterr().err


def test_every_spec_directory_is_covered(shared_dir):
    present = {p.name for p in (shared_dir / "specs").iterdir() if p.is_dir()}
    assert present == set(COMPLETE_SETS) | {X411}


def _imports_of_absent_modules(directory: Path) -> set[tuple[str, str, int]]:
    """(module, file, line) of every `FROM Module` naming a module the folder does not
    define, found by reading the text (not by the front end)."""
    defined = set()
    for path in directory.glob("*.asn"):
        defined |= set(re.findall(r"^([A-Z][\w-]*)\s*(?:\{[^}]*\})?\s*DEFINITIONS",
                                  path.read_text(), re.M))
    found = set()
    for path in sorted(directory.glob("*.asn")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("--", 1)[0]
            match = re.search(r"\bFROM\s+([A-Z][\w-]*)", code)
            if match and match.group(1) not in defined:
                found.add((match.group(1), str(path), number))
    return found


def test_x411_reports_each_missing_module_and_nothing_else(shared_dir):
    directory = shared_dir / "specs" / X411
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        load([str(directory)], diagnostics)
    expected = _imports_of_absent_modules(directory)
    reported = set()
    for item in diagnostics.items:
        match = re.fullmatch(r"module '([\w-]+)' is imported but not found among the inputs.*",
                             item.message)
        assert match, f"not about a missing module: {item.format()}"
        reported.add((match.group(1), item.location.file, item.location.line))
    assert reported == expected
    # The README of the specifications names the missing modules.
    names = {name for name, _, _ in reported}
    assert {"AuthenticationFramework", "CertificateExtensions", "InformationFramework",
            "SelectedAttributeTypes", "Reliable-Transfer-APDU", "MSAbstractService",
            "IPMSInformationObjects", "MTSObjectIdentifiers", "MTSAbstractService88",
            "Remote-Operations-Information-Objects"} <= names
    assert all(name.startswith("Remote-Operations") or name in {
        "AuthenticationFramework", "CertificateExtensions", "InformationFramework",
        "SelectedAttributeTypes", "Reliable-Transfer-APDU", "MSAbstractService",
        "IPMSInformationObjects", "MTSObjectIdentifiers", "MTSAbstractService88"}
        for name in names)
    assert diagnostics.errors, "missing modules whose names are used are errors"


def test_x411_missing_modules_are_errors_when_used(shared_dir, capfd):
    assert main(["check", str(shared_dir / "specs" / X411)]) == 1
    err = capfd.readouterr().err
    assert "MTSAbstractService.asn:60:10: error: module 'InformationFramework'" in err


@pytest.fixture(scope="module")
def rfc5912(shared_dir):
    return load([str(shared_dir / "specs" / "IETF_PKI_RFC5912")])


def test_rfc5912_extension_open_type_is_resolved_through_its_object_set(rfc5912):
    """PKIX-CommonTypes-2009: Extension{EXTENSION:ExtensionSet}, instantiated with
    {CertExtensions} inside TBSCertificate (RFC 5912 section 14)."""
    element = "PKIX1Explicit-2009.TBSCertificate.extensions.*"
    assert rfc5912[element].parameterized_from == \
        "PKIX-CommonTypes-2009.Extension{{ExtensionSet}}"
    value = rfc5912[f"{element}.extnValue"]
    assert value.builtin == "OCTET STRING" and value.contained == f"{element}.extnValue.contained"
    rule = rfc5912[value.contained].open_type
    assert rfc5912[value.contained].kind == Kind.OPEN
    assert (rule.key_path, rule.key_levels_up) == (("extnID",), 0)
    assert rule.object_set == "CertExtensions" and rule.extensible
    # id-ce-keyUsage is { id-ce 15 }, id-ce is { joint-iso-ccitt ds(5) 29 } (RFC 5280)
    assert rule.table["2.5.29.15"] == "PKIX1Implicit-2009.KeyUsage"
    assert rule.table["2.5.29.19"] == "PKIX1Implicit-2009.BasicConstraints"


def test_rfc5912_signed_algorithm_parameters_climb_one_level(rfc5912):
    parameters = rfc5912["PKIX1Explicit-2009.Certificate.algorithmIdentifier.parameters"]
    rule = parameters.open_type
    assert (rule.key_path, rule.key_levels_up) == (("algorithmIdentifier", "algorithm"), 1)
    # sha1WithRSAEncryption (RFC 3279): parameters NULL, written inline in the object
    params = rule.table["1.2.840.113549.1.1.5"]
    assert params == "PKIXAlgs-2009.sa-rsaWithSHA1.Params"
    assert rfc5912[params].kind == Kind.NULL
    assert rule.table["1.2.840.113549.1.1.10"] == \
        "PKIX1-PSS-OAEP-Algorithms-2009.RSASSA-PSS-params"


def test_rfc5912_extension_groups_are_numbered(rfc5912):
    tbs = {c.name: c for c in rfc5912["PKIX1Explicit-2009.TBSCertificate"].components}
    assert (tbs["serialNumber"].extension, tbs["serialNumber"].group) == (None, None)
    assert (tbs["issuerUniqueID"].extension, tbs["issuerUniqueID"].group) == (0, 0)
    assert (tbs["subjectUniqueID"].extension, tbs["subjectUniqueID"].group) == (0, 0)
    assert (tbs["extensions"].extension, tbs["extensions"].group) == (1, 1)
    assert rfc5912["PKIX1Explicit-2009.TBSCertificate"].extensible


def test_snmp_macro_instances_are_oid_values(shared_dir):
    graph = load([str(shared_dir / "specs" / "IETF_SNMP")])
    # RFC 1155: internet OBJECT IDENTIFIER ::= { iso org(3) dod(6) 1 }, mgmt { internet 2 }
    assert graph.values["RFC1155-SMI.internet"].value == "1.3.6.1"
    assert graph.values["RFC1156-MIB.mib"].value == "1.3.6.1.2.1"
    assert graph.values["RFC1156-MIB.system"].value == "1.3.6.1.2.1.1"


def graph_references(graph):
    for node in graph:
        if node.alias_of:
            yield node.id, node.alias_of
        for component in node.members():
            yield node.id, component.type
        if node.contained:
            yield node.id, node.contained
        if node.open_type:
            for type_id in node.open_type.table.values():
                yield node.id, type_id
    for value in graph.values.values():
        yield value.id, value.type


@pytest.mark.parametrize("name", COMPLETE_SETS)
def test_every_reference_in_the_graph_is_a_node_of_it(shared_dir, name):
    graph = load([str(shared_dir / "specs" / name)])
    dangling = [(owner, target) for owner, target in graph_references(graph)
                if target not in graph.nodes]
    assert not dangling
    for node in graph:
        assert node.id.startswith(f"{node.module}.") and "#" not in node.id
        assert node.module in {m.name for m in graph.modules}
        assert node.location is not None and node.location.file in graph.sources
