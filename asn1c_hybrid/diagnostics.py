"""Compiler diagnostics: ``file:line:col: error: message`` followed by the source line.

Every stage reports problems through a `Diagnostics` collector; the CLI prints them and
turns errors into a non-zero exit.  Nothing in the compiler is meant to surface a traceback.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Optional, TextIO

from .typegraph import Location


@dataclass(frozen=True)
class Diagnostic:
    severity: str                  # "error", "warning" or "note"
    message: str
    location: Optional[Location] = None
    source_line: Optional[str] = None
    # what follows the message: the rule broken and the way out ("(X.680 20); rename ...")
    hint: str = ""

    def format(self) -> str:
        where = f"{self.location}: " if self.location else ""
        text = f"{where}{self.severity}: {self.message}{self.hint}"
        if self.source_line is not None and self.location is not None:
            line = self.source_line.rstrip("\n").expandtabs(1)
            caret = " " * max(self.location.column - 1, 0) + "^"
            text += f"\n    {line}\n    {caret}"
        return text


def lenient_hint(rule: str, fix: str) -> str:
    """The end of a strict error about a defect that --lenient accepts."""
    rule = f" ({rule})" if rule else ""
    return f"{rule}; {fix}, or accept it with --lenient"


class CompileError(Exception):
    """Raised to stop a stage after errors were recorded; carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass
class Diagnostics:
    sources: dict[str, str] = field(default_factory=dict)   # file -> text, for source lines
    items: list[Diagnostic] = field(default_factory=list)
    # --lenient: the common defects of real specifications are warnings (see `defect`).
    lenient: bool = False

    def _line(self, location: Optional[Location]) -> Optional[str]:
        if location is None or location.file not in self.sources:
            return None
        lines = self.sources[location.file].splitlines()
        if 1 <= location.line <= len(lines):
            return lines[location.line - 1]
        return None

    def report(self, severity: str, message: str, location: Optional[Location] = None,
               hint: str = "") -> None:
        self.items.append(Diagnostic(severity, message, location, self._line(location), hint))

    def error(self, message: str, location: Optional[Location] = None, hint: str = "") -> None:
        self.report("error", message, location, hint)

    def warning(self, message: str, location: Optional[Location] = None,
                hint: str = "") -> None:
        self.report("warning", message, location, hint)

    def defect(self, message: str, location: Optional[Location], *, rule: str, fix: str,
               instead: str) -> bool:
        """A defect of the specification that other tools tolerate (docs/frontend.md,
        "Lenient mode").  Strict: an error naming the `rule` broken and the `fix`, which
        says the file is accepted with --lenient.  Lenient: a warning saying what is done
        `instead`.  Returns whether to go on as `instead` says."""
        if self.lenient:
            self.warning(message, location, f" ({rule}); {instead}")
            return True
        self.error(message, location, lenient_hint(rule, fix))
        return False

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise CompileError(list(self.items))

    def print(self, stream: Optional[TextIO] = None) -> None:
        for item in self.items:
            print(item.format(), file=stream or sys.stderr)
