"""Decision rules of the bona fide farmer registry (FAR-nn, AMB-nn in RULES.md)."""
from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

from .decision import Decision


def _exact(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def income_share_qualifies(gross_annual_income, activity_income, min_share_pct) -> Decision:
    """FAR-04 / AMB-01 / AMB-21: the activity's share of gross income, compared exactly with `>=`."""
    gross, activity, threshold = _exact(gross_annual_income), _exact(activity_income), _exact(min_share_pct)
    # Cross-multiplied so no division ever rounds: 49.99 % stays below 50 %.
    qualifies = gross > 0 and activity * 100 >= threshold * gross
    share = (activity * 100 / gross) if gross > 0 else Decimal(0)
    return Decision(
        outcome=bool(qualifies), rule_ids=("FAR-04", "AMB-01", "AMB-21"),
        inputs={"gross_annual_income": gross, "activity_income": activity, "min_share_pct": threshold},
        details={"income_share_pct": share.quantize(Decimal("0.01"), rounding=ROUND_DOWN)})


SCRIPT_FUNCTIONS = {
    "income_share_qualifies": income_share_qualifies,
}

COMPLETION_RULES: dict = {}
