"""After a bid fails or is cancelled: follow-up actions (BID-13, 28, 31, 32), cancellation and the
fiscal-year lock on similar purchases (BID-33…36, AMB-46), the recurring single bidder (BID-20)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from engine.rules.calendar import as_local_date
from engine.rules.decision import Decision, Refusal, RuleViolation
from engine.rules.bid_adjudication.ranking import cents, exact

# BID-31 covers «obras de construcción o servicios»; BID-32 «los demás casos».
WORKS_KINDS = ("construction", "services")
WORKS_ACTIONS = ("NEW_BID", "BY_ADMINISTRATION", "PRIVATE_CONTRACT_AFTER_QUOTES")
OTHER_ACTIONS = ("NEW_BID", "NEGOTIATE_WITH_REJECTED_BIDDERS", "QUOTES")
NEEDS_FUNDS = ("BY_ADMINISTRATION", "PRIVATE_CONTRACT_AFTER_QUOTES")
CAUSES = {"funds_insufficient": "BID-35a", "funds_unavailable": "BID-35b", "desisted": "BID-35c"}


def allowed_actions(kind, collusion_of_all=False) -> tuple[str, ...]:
    """BID-31 / BID-32; after collusion of all (BID-28) nobody negotiates with the colluders."""
    actions = WORKS_ACTIONS if kind in WORKS_KINDS else OTHER_ACTIONS
    if collusion_of_all:
        actions = tuple(a for a in actions if a != "NEGOTIATE_WITH_REJECTED_BIDDERS") + (
            ("QUOTES",) if "QUOTES" not in actions else ())
    return actions


def check_follow_up(data, kind, collusion_of_all=False) -> None:
    action = data["action"]
    if action not in allowed_actions(kind, collusion_of_all):
        raise RuleViolation("ACTION_NOT_ALLOWED_FOR_TYPE", f"{action} is not open to a {kind} bid",
                            ("BID-31", "BID-32", "BID-28"))
    if action == "PRIVATE_CONTRACT_AFTER_QUOTES" and len({str(q["supplier"]).strip().casefold()
                                                         for q in data.get("quotes") or []}) < 3:
        raise RuleViolation("MIN_THREE_QUOTES_REQUIRED", "a private contract needs at least three quotes", ("BID-31",))
    if action in NEEDS_FUNDS:
        if not data.get("funds_certification"):
            raise RuleViolation("FUNDS_CERTIFICATION_REQUIRED",
                                "the availability of funds must be certified", ("BID-31",))
        if not data.get("public_interest_finding"):
            raise RuleViolation("PUBLIC_INTEREST_FINDING_REQUIRED",
                                "the course must benefit the public interest, as a recorded finding", ("BID-31",))


def follow_up_result(action, quotes, kind, collusion_of_all=False) -> Decision:
    """The course chosen after a global rejection; after quotes, the lowest quote contracts."""
    contractor, total = None, None
    if action == "PRIVATE_CONTRACT_AFTER_QUOTES" and quotes:
        best = min(quotes, key=lambda q: exact(q["total"]))
        contractor, total = str(best["supplier"]), cents(best["total"])
    rules = ("BID-31",) if kind in WORKS_KINDS else ("BID-32",)
    return Decision(outcome=action, rule_ids=rules + (("BID-28",) if collusion_of_all else ()),
                    inputs={"action": action, "kind": kind, "quotes": [
                        {"supplier": q["supplier"], "total": cents(q["total"])} for q in quotes or []]},
                    details={"follow_up": action, "contractor": contractor, "contractor_total": total})


def fiscal_year_end(day, fiscal_year_start="07-01") -> date:
    """AMB-46: the last day of the fiscal year that holds `day` (1 July – 30 June by default)."""
    day = as_local_date(day)
    month, first = (int(p) for p in str(fiscal_year_start).split("-"))
    start = date(day.year, month, first)
    next_start = date(day.year + 1, month, first) if day >= start else start
    return date.fromordinal(next_start.toordinal() - 1)


def check_cancellation(payload) -> None:
    if not payload.get("all_bidders_notified"):
        raise RuleViolation("CANCELLATION_NOTICE_REQUIRED",
                            "every bidder and interested person must be notified in writing", ("BID-33",))
    if not payload.get("bonds_returned"):
        raise RuleViolation("BONDS_NOT_RETURNED", "the bonds must be returned on cancellation", ("BID-34",))


def cancellation_result(cause, offers, today, fiscal_year_start="07-01", scope="ALL_CANCELLATION_CAUSES") -> Decision:
    """BID-33…36: bonds returned, and no similar purchase this fiscal year (AMB-46: every cause
    by default; only a desisted purchase under `DESIST_ONLY`)."""
    bonds = sum((exact(o.get("bond_amount") or 0) for o in offers or []), Decimal(0))
    locks = scope == "ALL_CANCELLATION_CAUSES" or cause == "desisted"
    until = fiscal_year_end(today, fiscal_year_start) if locks else None
    return Decision(outcome="CANCELLED", rule_ids=("BID-33", "BID-34", CAUSES.get(cause, "BID-35"), "BID-36", "AMB-46"),
                    inputs={"cause": cause, "today": today, "scope": scope, "fiscal_year_start": fiscal_year_start},
                    details={"bonds_returned": cents(bonds), "similar_purchase_lock_until": until})


def similar_purchase_allowed(matter, today, locks, emergency_justification=None,
                             scope="ALL_CANCELLATION_CAUSES") -> Decision:
    """BID-36: a similar purchase is barred until the lock's fiscal year ends, unless an unforeseen
    need or an emergency is documented."""
    day = as_local_date(today)
    # A lock runs to the end of a fiscal year: a registry day, never an instant.
    live = [l for l in locks if as_local_date(l["locked_until"], instants=False) >= day
            and (scope == "ALL_CANCELLATION_CAUSES" or l["cause"] == "desisted")]
    emergency = bool(str(emergency_justification or "").strip())
    return Decision(outcome=not live or emergency, rule_ids=("BID-36", "AMB-46"),
                    inputs={"matter": matter, "today": day, "locks": live, "emergency": emergency, "scope": scope})


def single_bidder_alert(count, threshold) -> Decision:
    """BID-20 / AMB-42: the Junta must tell the Alcalde once a matter keeps drawing one bidder."""
    reached = threshold is not None and int(count) >= int(threshold)
    return Decision(outcome=reached, rule_ids=("BID-20", "AMB-42"),
                    inputs={"consecutive_single_bidder_bids": int(count), "threshold": threshold})


def mayor_notice_pending(case) -> bool:
    """BID-20: the opening reached the threshold and the Junta has not informed the Alcalde yet."""
    return bool(case.get("mayor_alert")) and not str(case.get("notice_text") or "").strip()


def check_mayor_notice(notice_text) -> None:
    """BID-20 «viene obligada a informarlo al Alcalde»: an empty notice informs nobody."""
    if not str(notice_text or "").strip():
        raise RuleViolation("ALCALDE_NOTICE_REQUIRED",
                            "the Junta must tell the Alcalde which matter keeps drawing a single bidder",
                            ("BID-20", "AMB-42"))


def check_notice_before_cancelling(case) -> None:
    """A cancellation would end the case with the BID-20 notice still owed, so it waits for it (409)."""
    if mayor_notice_pending(case):
        raise Refusal("ALCALDE_NOTICE_REQUIRED",
                      "this matter reached the single-bidder threshold: inform the Alcalde (inform_mayor) "
                      "before cancelling the bid", ("BID-20", "AMB-42", "BID-33"))


def single_source_contract(single_source) -> Decision:
    """BID-18: a documented single source is contracted directly, without a bid or quotes."""
    return Decision(outcome="DIRECT_CONTRACT_SINGLE_SOURCE", rule_ids=("BID-18",),
                    inputs={"single_source": dict(single_source or {})})


def legislature_outcome(matter, approved, economic_and_advantageous=None) -> Decision:
    """BID-13 (quotes after a deserted bid) and BID-15/16 (works by administration, which the
    Legislatura must find economical and advantageous; otherwise the quotes are requested)."""
    if matter == "by_administration":
        authorized = bool(approved) and economic_and_advantageous is not False
        outcome = "BY_ADMINISTRATION_AUTHORIZED" if authorized else "LEGISLATURE_QUOTES_REQUESTED"
        rules = ("BID-15", "BID-16")
    else:
        outcome = "LEGISLATURE_QUOTES_AUTHORIZED" if approved else "LEGISLATURE_QUOTES_DENIED"
        rules = ("BID-13",)
    return Decision(outcome=outcome, rule_ids=rules,
                    inputs={"matter": matter, "approved": bool(approved),
                            "economic_and_advantageous": economic_and_advantageous})
