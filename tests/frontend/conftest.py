"""Fixtures of the front-end tests: a private cache of parsed modules, and helpers that
analyse ASN.1 text written by a test."""
from __future__ import annotations

import os
import textwrap

import pytest

from asn1c_hybrid.diagnostics import CompileError, Diagnostics
from asn1c_hybrid.frontend import load


@pytest.fixture(scope="session", autouse=True)
def private_parse_cache(tmp_path_factory):
    """Tests never write into the user's cache directory."""
    previous = os.environ.get("ASN1H_CACHE_DIR")
    os.environ["ASN1H_CACHE_DIR"] = str(tmp_path_factory.mktemp("parse-cache"))
    yield
    if previous is None:
        os.environ.pop("ASN1H_CACHE_DIR", None)
    else:
        os.environ["ASN1H_CACHE_DIR"] = previous


class Spec:
    """Write ASN.1 text into a file of the test's own directory and analyse it."""

    def __init__(self, directory):
        self.directory = directory
        self.counter = 0

    def write(self, text: str, name: str | None = None) -> str:
        self.counter += 1
        path = self.directory / (name or f"spec{self.counter}.asn")
        path.write_text(textwrap.dedent(text))
        return str(path)

    def load(self, *texts: str):
        """The type graph of the modules; fails the test on any error."""
        diagnostics = Diagnostics()
        paths = [self.write(text) for text in texts]
        try:
            graph = load(paths, diagnostics)
        except CompileError as error:
            pytest.fail("unexpected errors:\n" + "\n".join(d.format() for d in error.diagnostics))
        graph.diagnostics = diagnostics
        return graph

    def errors(self, *texts: str) -> list[str]:
        """The messages of the errors (the test expects some)."""
        diagnostics = Diagnostics()
        paths = [self.write(text) for text in texts]
        with pytest.raises(CompileError):
            load(paths, diagnostics)
        return [d.message for d in diagnostics.errors]

    def error_places(self, *texts: str) -> list[tuple[int, int, str]]:
        """(line, column, message) of each error."""
        return [(d.location.line, d.location.column, d.message)
                for d in self.diagnostics(*texts).errors]

    def diagnostics(self, *texts: str) -> Diagnostics:
        diagnostics = Diagnostics()
        paths = [self.write(text) for text in texts]
        try:
            load(paths, diagnostics)
        except CompileError:
            pass
        return diagnostics


@pytest.fixture
def spec(tmp_path) -> Spec:
    return Spec(tmp_path)
