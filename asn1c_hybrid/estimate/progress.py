"""A progress bar on standard error for long traces (only on a terminal)."""
from __future__ import annotations

import sys
from typing import Optional, TextIO

_WIDTH = 30


class Progress:
    def __init__(self, total: int, label: str, stream: Optional[TextIO] = None,
                 enabled: Optional[bool] = None):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = (self.stream.isatty() if enabled is None else enabled) and total > 0
        self.shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        percent = min(100, done * 100 // self.total)
        if percent == self.shown:
            return
        self.shown = percent
        filled = _WIDTH * percent // 100
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (_WIDTH - filled)}] "
                          f"{percent:3d}% {done}/{self.total}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()
