"""Static estimates on X.400 P1 rank the components of O/R names and addresses near the
top, as Hoschka's study of an X.400 trace found them to be the most used types."""
from __future__ import annotations

import pytest

from asn1c_hybrid import frontend
from asn1c_hybrid.estimate.static import static_estimate
from asn1c_hybrid.select.costs import knapsack_items

MTS, DIR = "MTSAbstractService", "DirectoryStandIns"
# O/R names and addresses, and what they are made of (a directory name is one of the
# two forms of an O/R name; a global domain identifier is country, ADMD and PRMD)
OR_COMPONENTS = {f"{MTS}.{t}" for t in (
    "ORName", "ORAddress", "BuiltInStandardAttributes", "CountryName",
    "AdministrationDomainName", "PrivateDomainName", "OrganizationName", "PersonalName",
    "OrganizationalUnitNames", "BuiltInDomainDefinedAttributes",
    "BuiltInDomainDefinedAttribute", "ExtensionAttributes", "ExtensionAttribute",
    "GlobalDomainIdentifier")} | {f"{DIR}.{t}" for t in (
        "Name", "RDNSequence", "RelativeDistinguishedName", "AttributeTypeAndValue")}


@pytest.fixture(scope="module")
def graph(repo_root):
    return frontend.load([repo_root / "examples/x400/spec"])


def test_or_name_components_rank_near_the_top(graph):
    est = static_estimate(graph, [f"MTAAbstractService.MTS-APDU"])
    f = est.representation_frequencies(graph)
    ranked = sorted((node.id for node in knapsack_items(graph)), key=lambda i: -f[i])
    top = ranked[:10]
    assert len(OR_COMPONENTS & set(top)) >= 6, top
    for essential in ("ORName", "CountryName", "AdministrationDomainName"):
        assert f"{MTS}.{essential}" in top, top
