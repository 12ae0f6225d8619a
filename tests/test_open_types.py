"""Open types decoded through table constraints: RFC 5912's `&Type({Set}{@id})` on real
certificates and CRLs, and on a CMS SignedData that OpenSSL signs (its signed attributes:
values in a SET OF keyed by the type beside it).

The Mozilla CA certificates and the PKITS certificates and CRLs decode with RFC 5912's
Certificate and CertificateList in an interpreted build, a build with every type the
certificates use compiled, and the knapsack's 20% build; each re-encodes to the identical
bytes.  Their JER shows the open types that the tables resolve (the name attributes, the
algorithm parameters, including the signature algorithm of SIGNED{}, whose key is written
from the enclosing type, and the extensions, whose extnValue is an OCTET STRING CONTAINING
the open type, with the open types nested in them) as decoded values, which are checked
against asn1tools' decoding of the same octets with the RFC 5280 type that RFC 5280 and
RFC 3279 give each identifier (tables written here from those RFCs).  Values of
identifiers outside the tables stay raw: the hex of their encoding.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import cbuild
import specbuilds
from reference import reference_for

sys.path.insert(0, str(specbuilds.REPO))
from asn1c_hybrid import api  # noqa: E402
from bench import corpora  # noqa: E402

FILES = tuple(sorted((specbuilds.SPECS / "IETF_PKI_RFC5912").glob("*.asn")))
MODULE = "PKIX1Explicit-2009"
PDUS = (f"{MODULE}.Certificate", f"{MODULE}.CertificateList")
CMS_PDU = "CryptographicMessageSyntax-2009.ContentInfo"

# Attribute types of names (RFC 5280 appendix A.1) and the RFC 5280 type of their values.
NAME_ATTRIBUTES = {
    "2.5.4.3": "X520CommonName", "2.5.4.4": "X520name", "2.5.4.42": "X520name",
    "2.5.4.43": "X520name", "2.5.4.44": "X520name", "2.5.4.7": "X520LocalityName",
    "2.5.4.8": "X520StateOrProvinceName", "2.5.4.10": "X520OrganizationName",
    "2.5.4.11": "X520OrganizationalUnitName", "2.5.4.12": "X520Title",
    "2.5.4.46": "X520dnQualifier", "2.5.4.6": "X520countryName",
    "2.5.4.5": "X520SerialNumber", "2.5.4.65": "X520Pseudonym",
    "0.9.2342.19200300.100.1.25": "DomainComponent",
    "1.2.840.113549.1.9.1": "EmailAddress",
}
# RFC 5912's DirectoryString spells one alternative differently from RFC 5280's.
ALTERNATIVE_NAMES = {"utf8String": "uTF8String"}
# The extensions of RFC 5912's CertExtensions, CrlExtensions and CrlEntryExtensions sets
# (extnValue is an OCTET STRING CONTAINING the extension's type), with the type RFC 5280
# gives each.  Others stay raw.
EXTENSIONS = {
    "2.5.29.35": "AuthorityKeyIdentifier", "2.5.29.14": "SubjectKeyIdentifier",
    "2.5.29.15": "KeyUsage", "2.5.29.16": "PrivateKeyUsagePeriod",
    "2.5.29.32": "CertificatePolicies", "2.5.29.33": "PolicyMappings",
    "2.5.29.17": "SubjectAltName", "2.5.29.18": "IssuerAltName",
    "2.5.29.9": "SubjectDirectoryAttributes", "2.5.29.19": "BasicConstraints",
    "2.5.29.30": "NameConstraints", "2.5.29.36": "PolicyConstraints",
    "2.5.29.37": "ExtKeyUsageSyntax", "2.5.29.31": "CRLDistributionPoints",
    "2.5.29.54": "InhibitAnyPolicy", "2.5.29.46": "FreshestCRL",
    "1.3.6.1.5.5.7.1.1": "AuthorityInfoAccessSyntax",
    "1.3.6.1.5.5.7.1.11": "SubjectInfoAccessSyntax",
    "2.5.29.20": "CRLNumber", "2.5.29.27": "BaseCRLNumber",
    "2.5.29.28": "IssuingDistributionPoint", "2.5.29.21": "CRLReason",
    "2.5.29.24": "InvalidityDate", "2.5.29.29": "CertificateIssuer",
    "2.5.29.23": "HoldInstructionCode",
}


# Open types again inside extensions, which RFC 5912's tables resolve and RFC 5280's
# ANY DEFINED BY leaves raw: policy qualifiers, and the attributes of directory names.
QUALIFIERS = {"1.3.6.1.5.5.7.2.1": "CPSuri", "1.3.6.1.5.5.7.2.2": "UserNotice"}


def resolve_nested(reference, value):
    """asn1tools' JER with the raw open types decoded as RFC 5912's tables say."""
    if isinstance(value, list):
        return [resolve_nested(reference, v) for v in value]
    if not isinstance(value, dict):
        return value
    value = {k: resolve_nested(reference, v) for k, v in value.items()}
    if QUALIFIERS.get(value.get("policyQualifierId")):
        type_id = "PKIX1Implicit88." + QUALIFIERS[value["policyQualifierId"]]
        value["qualifier"] = reference.to_jer(
            type_id, reference.decode(type_id, bytes.fromhex(value["qualifier"])))
    if value.keys() == {"value", "length"} and isinstance(value["value"], str):
        # the BIT STRINGs of extensions all have named bits (KeyUsage, ReasonFlags):
        # trailing 0 bits are not part of their value (X.680 22.7), some CAs write them
        bits = value["length"]
        data = bytes.fromhex(value["value"])
        while bits and not data[(bits - 1) // 8] & (0x80 >> ((bits - 1) % 8)):
            bits -= 1
        value = {"value": data[:(bits + 7) // 8].hex().upper(), "length": bits}
    if value.keys() == {"type", "value"} and value["type"] in NAME_ATTRIBUTES:
        type_id = "PKIX1Explicit88." + NAME_ATTRIBUTES[value["type"]]
        value["value"] = reference.to_jer(
            type_id, reference.decode(type_id, bytes.fromhex(value["value"])))
    return value


def renamed(value):
    """asn1tools' JER of an RFC 5280 value with RFC 5912's alternative names."""
    if isinstance(value, dict):
        return {ALTERNATIVE_NAMES.get(k, k): renamed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v) for v in value]
    return value
# The objects of RFC 5912's SignatureAlgorithms and PublicKeyAlgorithms sets as
# PKIX1Explicit-2009 defines them (both extensible: others stay raw), with their parameters:
# RSA's NULL (RFC 3279 2.2.1, 2.3.1), ECDSA's absent (RFC 3279 2.2.3), and id-ecPublicKey's
# ECParameters, a CHOICE whose namedCurve is an OBJECT IDENTIFIER (RFC 5480).
SIGNATURE_TABLE = {"1.2.840.113549.1.1.2": "null", "1.2.840.113549.1.1.4": "null",
                   "1.2.840.113549.1.1.5": "null", "1.2.840.10040.4.3": "absent",
                   "1.2.840.10045.4.1": "absent"}
PUBLIC_KEY_TABLE = {"1.2.840.113549.1.1.1": "null", "1.2.840.10045.2.1": "curve",
                    "1.2.840.10040.4.1": "dsa", "1.2.840.10046.2.1": "dh"}


@pytest.fixture(scope="module")
def rfc5912():
    graph = api.load([str(f) for f in FILES])
    reachable = _constructed_reachable(graph, PDUS)
    options = {
        "interpreted": ("--mode", "interpreted"),
        "certificates-compiled": ("--mode", "interpreted",
                                  *[a for t in reachable for a in ("--compile", t)]),
        # --pdu limits a build to what its PDUs can hold: CMS's ContentInfo is one too
        "hybrid": ("--mode", "hybrid", "--budget", "20%", "--cost-model", "units",
                   *[a for p in PDUS + (CMS_PDU,) for a in ("--pdu", p)]),
    }
    builds = {}
    for mode, argv in options.items():
        out = Path(tempfile.mkdtemp(prefix=f"rfc5912-{mode}-", dir=cbuild.session_dir()))
        cbuild.generate(FILES, out, "--name", "spec", "--converter", *argv)
        builds[mode] = cbuild.build_program(out, "spec", flags=specbuilds.FLAGS)
    return graph, builds


def _constructed_reachable(graph, roots) -> list[str]:
    seen, stack = set(), list(roots)
    while stack:
        node_id = stack.pop()
        if node_id in seen:
            continue
        seen.add(node_id)
        stack.extend(graph.successors(node_id))
        open_rule = graph[node_id].open_type
        if open_rule is not None:
            stack.extend(open_rule.table.values())
    return sorted(n for n in seen if graph[n].alias_of is None and graph[n].kind.constructed)


@pytest.fixture(scope="module")
def rfc5280_reference():
    return reference_for(specbuilds.SPEC_SETS["rfc5280"].reference_texts())


def corpus(name: str) -> list[tuple[str, bytes]]:
    if name == "mozilla":
        return [(c.name, c.data) for c in corpora.mozilla_certificates()]
    certificates, crls = corpora.pkits()
    return [(p.name, p.read_bytes()) for p in (certificates if name == "pkits" else crls)]


CASES = {"mozilla": PDUS[0], "pkits": PDUS[0], "pkits-crls": PDUS[1]}


def run(build, type_id, messages, output, *options):
    result = build.run("-p", type_id, "-o", output, *options, "-",
                       input=b"".join(d for _, d in messages), check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


@pytest.mark.parametrize("name", list(CASES))
def test_reencoding_through_the_tables_is_identical(rfc5912, name):
    _, builds = rfc5912
    messages = corpus(name)
    for mode, build in builds.items():
        pieces = corpora.split_pdus(run(build, CASES[name], messages, "der"))
        differing = [n for (n, d), p in zip(messages, pieces) if d != p]
        assert len(pieces) == len(messages) and not differing, (mode, differing[:10])


def names_of(jer: dict):
    """Every RelativeDistinguishedName entry of the certificate or CRL's names."""
    body = jer["toBeSigned"]
    for field in ("issuer", "subject"):
        if field in body:
            for rdn in body[field]["rdnSequence"]:
                yield from rdn


def algorithms_of(ours: dict, theirs: dict):
    """(our AlgorithmIdentifier, asn1tools' one, the table that applies)."""
    body, their_body = ours["toBeSigned"], _tbs(theirs)
    yield ours["algorithmIdentifier"], theirs["signatureAlgorithm"], SIGNATURE_TABLE
    yield body["signature"], their_body["signature"], SIGNATURE_TABLE
    if "subjectPublicKeyInfo" in body:
        yield (body["subjectPublicKeyInfo"]["algorithm"],
               their_body["subjectPublicKeyInfo"]["algorithm"], PUBLIC_KEY_TABLE)


@pytest.mark.parametrize("name", list(CASES))
def test_open_types_show_their_decoded_values(rfc5912, rfc5280_reference, name):
    graph, builds = rfc5912
    messages = corpus(name)
    pdu = CASES[name]
    reference_pdu = "PKIX1Explicit88." + pdu.split(".")[1]
    # PKITS breaks constraints on purpose (test 19: an explicitText of more than the 200
    # characters DisplayText allows, which RFC 5280 asks relying parties to take): here the
    # open types are the point, so constraints are not checked
    lines = {mode: run(b, pdu, messages, "jer", "--skip-constraints").decode().split("\n")
             for mode, b in builds.items()}
    assert lines["interpreted"] == lines["certificates-compiled"] == lines["hybrid"]
    resolved = {"names": 0, "parameters": 0, "extensions": 0}
    for (file_name, data), line in zip(messages, lines["interpreted"]):
        ours = json.loads(line)
        theirs = rfc5280_reference.decode(reference_pdu, data)
        their_names = [atv for field in ("issuer", "subject")
                       if field in _tbs(theirs) for rdn in _tbs(theirs)[field][1] for atv in rdn]
        for atv, their_atv in zip(names_of(ours), their_names):
            assert atv["type"] == their_atv["type"]
            value = bytes(their_atv["value"])
            if atv["type"] in NAME_ATTRIBUTES:
                type_id = "PKIX1Explicit88." + NAME_ATTRIBUTES[atv["type"]]
                expected = rfc5280_reference.to_jer(type_id,
                                                   rfc5280_reference.decode(type_id, value))
                if isinstance(expected, dict):
                    expected = {ALTERNATIVE_NAMES.get(k, k): v for k, v in expected.items()}
                assert expected == atv["value"], (file_name, atv)
                resolved["names"] += 1
        for algorithm, their_algorithm, table in algorithms_of(ours, theirs):
            oid = algorithm["algorithm"]
            assert oid == their_algorithm["algorithm"]
            if "parameters" not in their_algorithm:
                assert "parameters" not in algorithm
                continue
            raw = bytes(their_algorithm["parameters"])
            kind = table.get(oid)
            if kind == "null":
                assert raw == b"\x05\x00" and algorithm["parameters"] is None, file_name
                resolved["parameters"] += 1
            elif kind == "curve":
                assert raw[0] == 0x06, file_name        # namedCurve
                assert algorithm["parameters"] == {"namedCurve": rfc5280_reference.decode(
                    "PKIX1Explicit88.AttributeType", raw)}, file_name
                resolved["parameters"] += 1
            elif kind is None:                          # not in the table: kept raw
                assert algorithm["parameters"] == raw.hex().upper(), (file_name, oid)
        for extension, their_extension in extensions_of(ours, theirs):
            assert extension["extnID"] == their_extension["extnID"]
            raw = bytes(their_extension["extnValue"])
            if extension["extnID"] in EXTENSIONS:
                type_id = "PKIX1Implicit88." + EXTENSIONS[extension["extnID"]]
                expected = renamed(resolve_nested(rfc5280_reference, rfc5280_reference.to_jer(
                    type_id, rfc5280_reference.decode(type_id, raw))))
                resolved["extensions"] += 1
            else:
                expected = raw.hex().upper()
            assert extension["extnValue"] == expected, (file_name, extension["extnID"])
    assert resolved["names"] > len(messages)
    assert resolved["extensions"] > len(messages)
    if pdu == PDUS[0]:          # (PKITS signs its CRLs with algorithms outside the table)
        assert resolved["parameters"] > len(messages) // 2


def test_a_value_outside_its_constraint_stays_raw_in_its_open_type(rfc5912):
    """Checked, PKITS test 19's certificate policy (an explicitText of 231 characters where
    DisplayText allows 200) is refused as a value of its type: the extension keeps its
    octets, and the rest of the certificate decodes."""
    _, builds = rfc5912
    messages = [(n, d) for n, d in corpus("pkits") if n == "UserNoticeQualifierTest19EE.crt"]
    assert messages
    for mode, build in builds.items():
        checked = json.loads(run(build, CASES["pkits"], messages, "jer"))
        lax = json.loads(run(build, CASES["pkits"], messages, "jer", "--skip-constraints"))
        policies = [e for e in checked["toBeSigned"]["extensions"]
                    if e["extnID"] == "2.5.29.32"]
        assert isinstance(policies[0]["extnValue"], str), mode           # raw, as hex
        assert [e for e in lax["toBeSigned"]["extensions"]
                if e["extnID"] == "2.5.29.32"][0]["extnValue"][0]["policyQualifiers"], mode


def extensions_of(ours: dict, theirs: dict):
    """(our Extension, asn1tools' one) of the certificate, or of the CRL and its entries."""
    body, their_body = ours["toBeSigned"], _tbs(theirs)
    for field in ("extensions", "crlExtensions"):
        yield from zip(body.get(field, []), their_body.get(field, []))
    for entry, their_entry in zip(body.get("revokedCertificates", []),
                                  their_body.get("revokedCertificates", [])):
        yield from zip(entry.get("crlEntryExtensions", []),
                       their_entry.get("crlEntryExtensions", []))


def _tbs(value: dict) -> dict:
    return value.get("tbsCertificate") or value["tbsCertList"]


# CMS signed attributes (RFC 5652 11): in RFC 5912 each value of Attribute.attrValues (a
# SET OF the open type) is keyed by attrType beside the list.
SIGNED_ATTRIBUTES = {"1.2.840.113549.1.9.3": "ContentType",
                     "1.2.840.113549.1.9.5": "SigningTime",
                     "1.2.840.113549.1.9.4": "MessageDigest"}


@pytest.fixture(scope="module")
def signed_message(tmp_path_factory) -> bytes:
    """A CMS SignedData with signed attributes, as OpenSSL writes it."""
    folder = tmp_path_factory.mktemp("cms")
    key, cert, message, out = (folder / n for n in ("key.pem", "cert.pem", "msg", "signed"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert,
                    "-subj", "/CN=differential", "-days", "2"], check=True, capture_output=True)
    message.write_bytes(b"hello\n")
    subprocess.run(["openssl", "cms", "-sign", "-in", message, "-signer", cert, "-inkey", key,
                    "-outform", "DER", "-out", out, "-nodetach", "-binary"], check=True,
                   capture_output=True)
    return out.read_bytes()


def test_attribute_values_keyed_beside_their_list(rfc5912, signed_message):
    _, builds = rfc5912
    reference = reference_for(specbuilds.SPEC_SETS["rfc5652"].reference_texts())
    theirs = reference.decode("CryptographicMessageSyntax2004.SignedData", bytes(
        reference.decode("CryptographicMessageSyntax2004.ContentInfo", signed_message)["content"]))
    their_attributes = theirs["signerInfos"][0]["signedAttrs"]
    pdu = CMS_PDU
    for mode, build in builds.items():
        assert run(build, pdu, [("cms", signed_message)], "der") == signed_message, mode
        ours = json.loads(run(build, pdu, [("cms", signed_message)], "jer"))["content"]
        # id-data's octets are not the DER of an OCTET STRING: eContent stays raw
        assert ours["encapContentInfo"]["eContent"] == b"hello\n".hex().upper()
        attributes = ours["signerInfos"][0]["signedAttrs"]
        assert [a["attrType"] for a in attributes] == [a["attrType"] for a in their_attributes]
        for attribute, their_attribute in zip(attributes, their_attributes):
            type_name = SIGNED_ATTRIBUTES.get(attribute["attrType"])
            for value, raw in zip(attribute["attrValues"], their_attribute["attrValues"]):
                if type_name:
                    type_id = "CryptographicMessageSyntax2004." + type_name
                    expected = reference.to_jer(type_id, reference.decode(type_id, bytes(raw)))
                else:
                    expected = bytes(raw).hex().upper()
                assert value == expected, (mode, attribute["attrType"])
        assert sum(a["attrType"] in SIGNED_ATTRIBUTES for a in attributes) == 3


@pytest.fixture(scope="module")
def rfc5912_per(rfc5912):
    """RFC 5912 built with BER and both PER variants: the tables alone, and with the
    certificates' types compiled (their PER routines too)."""
    graph, _ = rfc5912
    reachable = _constructed_reachable(graph, PDUS)
    options = {"interpreted": ("--mode", "interpreted"),
               "certificates-compiled": ("--mode", "interpreted",
                                         *[a for t in reachable for a in ("--compile", t)])}
    builds = {}
    for mode, argv in options.items():
        out = Path(tempfile.mkdtemp(prefix=f"rfc5912-per-{mode}-", dir=cbuild.session_dir()))
        cbuild.generate(FILES, out, "--name", "spec", "--converter",
                        "--encoding", "ber,uper,aper", *argv)
        builds[mode] = cbuild.build_program(out, "spec", flags=specbuilds.FLAGS)
    return builds


def test_open_types_keyed_by_tables_are_resolved_in_per(rfc5912_per, signed_message, tmp_path):
    """X.691 writes a contained value and an open type's value in PER too: the extensions'
    extnValue (an OCTET STRING CONTAINING the table's type) and the signed attributes'
    values (a SET OF open types keyed beside the list) go to PER as PER, and come back as
    the values that DER gives, which the tests above check against asn1tools.  Their JER
    after DER -> PER -> decode is the JER of the DER, and DER comes back whole."""
    cases = [(PDUS[0], [d for _, d in corpus("mozilla")]), (CMS_PDU, [signed_message])]
    for mode, build in rfc5912_per.items():
        for pdu, messages in cases:
            der = tmp_path / "in.der"
            der.write_bytes(b"".join(messages))
            from_der = build.run("-p", pdu, "-o", "jer", str(der)).stdout
            for variant in ("uper", "aper"):
                per = tmp_path / f"in.{variant}"
                per.write_bytes(build.run("-p", pdu, "-o", variant, str(der)).stdout)
                back = build.run("-p", pdu, "-i", variant, "-o", "der", str(per)).stdout
                pieces = corpora.split_pdus(back)
                assert len(pieces) == len(messages), (mode, pdu, variant)
                changed = [p for p, m in zip(pieces, messages) if p != m]
                # a CA's extension in BER that is not DER comes back in DER: PER carries
                # the value; those values are checked equal by their JER below
                assert len(changed) <= 2, (mode, pdu, variant, len(changed))
                if changed:
                    again = tmp_path / "changed.der"
                    again.write_bytes(b"".join(changed))
                    assert build.run("-p", pdu, "-o", "der", "--strict-der",
                                     str(again)).stdout == again.read_bytes()
                from_per = build.run("-p", pdu, "-i", variant, "-o", "jer", str(per)).stdout
                lines = list(zip(from_der.splitlines(), from_per.splitlines()))
                assert len(lines) == len(messages), (mode, pdu, variant)
                differing = [i for i, (a, b) in enumerate(lines) if a != b]
                assert not differing, (mode, pdu, variant, differing[:5])
