"""The one money helper: amounts are exact `Decimal`s, read from form data through their text.

A JSON number such as 0.1 arrives as a float; going through `str` keeps the amount the person
typed (0.1), where `Decimal(0.1)` would carry the float's binary error.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")


def money(value) -> Decimal:
    """An exact amount from a Decimal, int, float or text; ValueError for anything else."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{value!r} is not an amount")
    try:
        return Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError(f"{value!r} is not an amount") from None


def cents(value, rounding: str | None = None) -> Decimal:
    """The amount rounded to the cent: half-even (the Decimal default) unless `rounding` says
    otherwise. Rules that round half-up by law (TC-5, `money.roundingMode`) pass ROUND_HALF_UP;
    the helper never picks a rule's rounding for it."""
    return money(value).quantize(CENT, rounding=rounding)
