"""The code-size budget: `N` in the cost model's unit, or `P%` of the all-compiled cost."""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from ..errors import BudgetError

_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"


@dataclass(frozen=True)
class Budget:
    amount: Fraction
    percent: bool                # amount is a share of the all-compiled cost

    def capacity(self, cost_all: Union[int, float, Fraction]) -> Fraction:
        """The budget in the cost model's unit, exactly (no rounding of percentages)."""
        if self.percent:
            return self.amount * Fraction(cost_all) / 100
        return self.amount

    def __str__(self) -> str:
        text = str(float(self.amount)).removesuffix(".0")
        return text + "%" if self.percent else text


def parse_budget(text: Union[str, int, float, Budget]) -> Budget:
    """"20%" -> 20 percent; "1500" -> 1500 units or bytes.  Percentages above 100 are
    refused (they would only mean "everything")."""
    if isinstance(text, Budget):
        return text
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        if text < 0:
            raise BudgetError(f"budget {text} is negative")
        return Budget(Fraction(text), False)
    match = re.fullmatch(_NUMBER + r"\s*(%?)", str(text).strip())
    if not match and str(text).strip().startswith("-"):
        raise BudgetError(f"budget {text!r} is negative: give a size N or a share P% "
                          "from 0% to 100%")
    if not match:
        raise BudgetError(f"budget {text!r} is neither a size (N) nor a percentage (P%)")
    amount = Fraction(match.group(1))
    percent = match.group(2) == "%"
    if percent and amount > 100:
        raise BudgetError(f"budget {text!r} is above 100%")
    return Budget(amount, percent)
