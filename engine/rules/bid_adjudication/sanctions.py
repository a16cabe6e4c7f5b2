"""Bans and withdrawals from the Registro de Licitadores (BID-21, 25, 27, 29; AMB-43, 47).

A ban runs from the Junta's resolution for whole months: `through` is the day before the
anniversary and the bidder may bid again on it (`eligible_again`). Periods never roll (TC-3).
"""
from __future__ import annotations

from datetime import timedelta

from engine.rules.calendar import add_months, as_local_date
from engine.rules.decision import Decision, RuleViolation
from engine.rules.bid_adjudication.wording import ban_sentence

SANCTION_RULES = {"MULTIPLE_ENVELOPES": ("BID-21",), "CONSPIRACY": ("BID-25",), "COLLUSION": ("BID-29", "AMB-43"),
                  "UNJUSTIFIED_COMPLAINT": ("BID-27", "AMB-49"), None: ("BID-27",)}


def month_range(reason, ban_range, collusion_range) -> tuple[int, int]:
    if reason == "COLLUSION" and collusion_range:
        return int(collusion_range["min_months"]), int(collusion_range["max_months"])
    return int(ban_range[0]), int(ban_range[1])


def check_sanctions(sanctions, candidates, ban_range, collusion_range) -> None:
    """BAN_OUT_OF_RANGE: a ban (or a timed withdrawal) of whole months between the limits (AMB-47)."""
    reasons = {c["bidder_id"]: c["reason"] for c in candidates or []}
    for sanction in sanctions:
        months = sanction.get("months")
        if sanction["kind"] == "registry_withdrawal" and months is None:
            continue
        low, high = month_range(reasons.get(str(sanction["bidder_id"])), ban_range, collusion_range)
        if months is None or not low <= int(months) <= high:
            raise RuleViolation("BAN_OUT_OF_RANGE",
                                f"a ban of {months} months for {sanction['bidder_id']} is outside {low}–{high} months",
                                ("BID-21", "BID-25", "BID-27", "BID-29", "AMB-43", "AMB-47"))


def ban_periods(sanctions, resolution_date, candidates=()) -> Decision:
    """AMB-47: from the resolution date; through = from + months − 1 day; eligible again on the anniversary."""
    start = as_local_date(resolution_date)
    reasons = {c["bidder_id"]: c["reason"] for c in candidates or []}
    bans, rule_ids = [], ["AMB-47", "TC-3"]
    for sanction in sanctions:
        months = sanction.get("months")
        eligible = add_months(start, int(months)) if months is not None else None
        bans.append({"bidder_id": str(sanction["bidder_id"]), "kind": sanction["kind"],
                     "months": int(months) if months is not None else None, "from": start.isoformat(),
                     "through": (eligible - timedelta(days=1)).isoformat() if eligible else None,
                     "eligible_again": eligible.isoformat() if eligible else None,
                     "reason": sanction.get("reason") or reasons.get(str(sanction["bidder_id"]))})
        rule_ids.extend(r for r in SANCTION_RULES.get(reasons.get(str(sanction["bidder_id"])), ("BID-27",))
                        if r not in rule_ids)
    # The contract's `bans` carry the dates only; the registry keeps the kind, term and reason too.
    dates = [{k: b[k] for k in ("bidder_id", "from", "through", "eligible_again")} for b in bans]
    return Decision(outcome=dates, rule_ids=tuple(rule_ids),
                    inputs={"resolution_date": start, "sanctions": [dict(s) for s in sanctions]},
                    details={"bans": dates, "sanctions": bans, "banned": [b["bidder_id"] for b in bans],
                             "explanation": ban_sentence(bans)})
