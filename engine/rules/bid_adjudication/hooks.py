"""What the engine refuses before a bid case moves: its start, task completions, the cancellation.

The fiscal-year lock (BID-36) needs the bidder registry: the procedure's start lookup
(`engine.procedures.bid_adjudication.bindings.start_lookup`) reads it, and `bid_filed` decides on
what it read (`facts.reference`).
"""
from __future__ import annotations

from engine.rules.bid_adjudication.follow_up import similar_purchase_allowed
from engine.rules.facts import Facts
from engine.rules.decision import RuleViolation
from engine.rules.bid_adjudication.award import check_awards
from engine.rules.bid_adjudication.complaints import check_complaint, check_complaint_resolution
from engine.rules.bid_adjudication.follow_up import (
    check_cancellation, check_follow_up, check_mayor_notice, check_notice_before_cancelling,
)
from engine.rules.bid_adjudication.ranking import effective_tie_method, witnessed_winner
from engine.rules.bid_adjudication.sanctions import check_sanctions
from engine.rules.bid_adjudication.screening import equipment_criteria_missing

BID = "bid_adjudication"


def bid_filed(variables: dict, facts: Facts) -> None:
    """BID-19 (honour clause), BID-18 (a single source is documented or it is not one) and BID-36
    (no similar purchase this fiscal year after a cancellation, unless an emergency is documented).

    `facts.reference` holds what the lookup read from the bidder registry: the purchase `locks` of
    this matter and the `similar_purchase_scope` parameter.
    """
    bid = variables["bid"]
    if (bid.get("general") or bid.get("price_variable")) and not bid.get("has_price_honour_clause"):
        raise RuleViolation("MARKET_CLAUSE_MISSING",
                            "a general or price-variable bid needs the clause that binds bidders to honour their "
                            "prices for the year", ("BID-19",))
    source = bid.get("single_source")
    if source and not (source.get("exclusive_certificate") and source.get("investigation_report_date")):
        raise RuleViolation("SINGLE_SOURCE_NOT_DOCUMENTED",
                            "a single source needs the exclusive distributor certificate and a documented "
                            "investigation", ("BID-18",))
    if "locks" not in facts.reference:
        return
    decision = similar_purchase_allowed(bid["matter"], facts.today, facts.reference["locks"],
                                        bid.get("emergency_justification"),
                                        facts.reference.get("similar_purchase_scope"))
    if not decision.outcome:
        until = max(lock["locked_until"] for lock in decision.inputs["locks"])
        raise RuleViolation("SIMILAR_PURCHASE_BLOCKED_FY",
                            f"a bid for «{bid['matter']}» was cancelled this fiscal year: no similar purchase "
                            f"until {until} without a documented emergency", ("BID-36", "AMB-46"))


def _known(offer_ids, case) -> None:
    known = {str(o["offer_id"]) for o in case.get("offers") or []}
    unknown = sorted(str(o) for o in offer_ids if str(o) not in known)
    if unknown:
        raise RuleViolation("UNKNOWN_OFFER", f"no offer {', '.join(unknown)} in the Acta de Apertura", ("BID-01",))


def opening_recorded(data: dict, facts: Facts) -> None:
    _case = facts.case
    ids = [str(o["offer_id"]) for o in data.get("offers") or []]
    if len(ids) != len(set(ids)):
        raise RuleViolation("OFFER_ID_DUPLICATE", "each offer needs its own id", ("BID-01",))
    lines = {int(l["line"]) for l in _case["bid"].get("lines") or []}
    stray = sorted({int(o["line"]) for o in data.get("offers") or []} - lines)
    if lines and stray:
        raise RuleViolation("UNKNOWN_LINE", f"the bid has no renglón {stray}", ("BID-01",))


def offers_evaluated(data: dict, facts: Facts) -> None:
    case = facts.case
    evaluations = data.get("evaluations") or []
    _known([e["offer_id"] for e in evaluations], case)
    missing = equipment_criteria_missing(case["bid"]["kind"], case.get("offers_status") or {}, evaluations)
    if missing:
        raise RuleViolation("EQUIPMENT_CRITERIA_INCOMPLETE",
                            f"criteria a–f must be recorded for offers {', '.join(missing)}", ("BID-11",))
    if data.get("collusion") == "conspiracy" and not data.get("conspirators"):
        raise RuleViolation("CONSPIRATORS_REQUIRED", "a conspiracy names the bidders found in it", ("BID-25",))
    check_complaint(data.get("complaint"), [o["bidder_id"] for o in case.get("offers") or []])


def sanctions_set(data: dict, facts: Facts) -> None:
    case = facts.case
    limits = case.get("bid_limits") or {}
    check_sanctions(data.get("sanctions") or [], case.get("sanction_candidates") or [],
                    limits.get("ban_range", (12, 36)), limits.get("collusion_range"))
    check_complaint_resolution(data, case.get("complaint_finding"))


def tie_broken(data: dict, facts: Facts) -> None:
    case = facts.case
    tie = [str(t) for t in case.get("tie") or []]
    method = effective_tie_method(data["method"], data.get("chosen_offer_id"),
                                  (case.get("bid_limits") or {}).get("tie_fallback"))
    if method == "qualitative" and str(data.get("chosen_offer_id")) not in tie:
        raise RuleViolation("TIE_CHOICE_INVALID", "the Junta's choice must be one of the tied offers", ("BID-23",))
    if method == "qualitative" and not data.get("basis"):
        raise RuleViolation("TIE_BASIS_REQUIRED", "a qualitative choice records its basis", ("BID-23",))
    if method == "lottery" and data.get("witnessed_result") not in (None, "") and \
            witnessed_winner(tie, case.get("offers") or [], data["witnessed_result"]) is None:
        raise RuleViolation("LOTTERY_RESULT_INVALID", "the witnessed winner must be a tied offer or its bidder",
                            ("BID-24",))


def award_decided(data: dict, facts: Facts) -> None:
    case = facts.case
    if data["decision"] == "reject_all":
        if not data.get("rejection_reasons"):
            raise RuleViolation("REJECTION_REASONS_REQUIRED", "a global rejection states its BID-30 reasons",
                                ("BID-30",))
        return
    limits = case.get("bid_limits") or {}
    check_awards(data.get("awards") or [], case.get("ranking") or {}, case["bid"]["kind"],
                 limits.get("sale_needs_justification", True))


def follow_up_chosen(data: dict, facts: Facts) -> None:
    case = facts.case
    check_follow_up(data, case["bid"]["kind"], bool(case.get("collusion_of_all")))


def mayor_informed(data: dict, facts: Facts) -> None:
    check_mayor_notice(data.get("notice_text"))


def cancellation_requested(payload: dict, facts: Facts) -> None:
    """BID-33 / BID-34: only a cancellation that can still happen is judged; after the award the
    case no longer waits for it (409). BID-20's notice to the Alcalde comes first."""
    case, expected = facts.case, facts.waiting
    if expected:
        check_notice_before_cancelling(case)
        check_cancellation(payload)


COMPLETION_RULES = {
    (BID, "start"): bid_filed,
    (BID, "record_opening"): opening_recorded,
    (BID, "evaluate_offers"): offers_evaluated,
    (BID, "set_sanctions"): sanctions_set,
    (BID, "break_tie"): tie_broken,
    (BID, "award"): award_decided,
    (BID, "follow_up_action"): follow_up_chosen,
    (BID, "inform_mayor"): mayor_informed,
}

MESSAGE_RULES = {(BID, "cancel"): cancellation_requested}
