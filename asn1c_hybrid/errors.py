"""The errors a user can act on, raised by every stage and reported by the command line.

Every one prints as `asn1c-hybrid: error: MESSAGE` and exits with its `exit_code` (2, as
argparse's own errors; 1 is for specifications with errors and unreadable files), never
with a traceback.  Errors in the specifications themselves are `CompileError`s
(diagnostics.py): they carry `file:line:col` diagnostics instead of one message.
"""
from __future__ import annotations


class Asn1cHybridError(Exception):
    """The base of the user-facing errors; the message says what to do."""
    exit_code = 2


class UsageError(Asn1cHybridError):
    """An option or argument the compiler cannot honour."""


class UnknownTypeError(UsageError):
    """A type name (`--pdu`, `--compile`, `-p`) that the specification does not define,
    or defines in several modules."""


class BudgetError(UsageError):
    """A budget that is not `N` (a size in the cost model's unit) or `P%`."""


class SelectionError(UsageError):
    """A selection request that cannot be met (a primitive type forced compiled, a type
    both forced compiled and interpreted)."""


class ProfileError(UsageError):
    """A profile file that cannot be used: unreadable, malformed, or of another spec."""


class TraceError(UsageError):
    """A trace that cannot be split into PDUs; the message says where."""


class CalibrationError(UsageError):
    """A calibration file that cannot be used, or none where one is needed."""


class StudyError(UsageError):
    """The trace study cannot run with these options."""


class MeasurementError(Asn1cHybridError):
    """A measurement build or run failed (no C compiler, no valgrind, a compile error)."""


class ReplayError(Asn1cHybridError):
    """Trace replay could not run, or a PDU of the trace does not decode."""
