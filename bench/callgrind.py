"""How the benchmark suite measures: instructions with callgrind, code size with the linker.

The method lives in the package (`asn1c_hybrid.measure`), which the X.400 trace study and
the calibration of the time-saving model share; see its docstring for the definitions.
This module keeps the names the suite's scripts and tests use.
"""
from __future__ import annotations

from asn1c_hybrid.measure import MeasurementError
from asn1c_hybrid.measure.counts import (VALGRIND, Count, count_each, count_instructions,
                                         executed_addresses, inclusive_instructions,
                                         parse_callgrind_total, parse_executed_addresses)
from asn1c_hybrid.measure.sizes import (COUNTED_SECTION_PREFIXES, code_bytes,
                                        code_bytes_by_object, executed_code_bytes,
                                        instruction_lengths, kept_sections)

__all__ = ["COUNTED_SECTION_PREFIXES", "VALGRIND", "Count", "MeasurementError", "code_bytes",
           "code_bytes_by_object", "count_each", "count_instructions", "executed_addresses",
           "executed_code_bytes", "inclusive_instructions", "instruction_lengths",
           "kept_sections", "parse_callgrind_total", "parse_executed_addresses"]
