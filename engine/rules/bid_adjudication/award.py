"""The award itself (BID-06…10, 14…17): single offers, justification and signatures, the result.

A signature check is only worth something against the votes: every member recorded as voting
for an offer that is not first in its renglón must sign the written justification (BID-09).
"""
from __future__ import annotations

from decimal import Decimal

from engine.rules.decision import Decision, RuleViolation
from engine.rules.money import money
from engine.rules.bid_adjudication.ranking import DESCENDING_KINDS, cents, evaluated_price
from engine.rules.bid_adjudication.wording import award_sentence, compared_sentence, route_sentence


def offers_route(received_bidders, considered_bidders, collusion_of_all=False) -> Decision:
    """Where a bid goes after its evaluation: BID-14 and BID-17 speak of offers *received*
    («Cuando se reciba una sola oferta»), so only a bid that received one offer in time is a
    single-offer bid; several received and one left after exclusions is the lowest eligible offer
    and goes to the award like any other (AMB-44).

    `received_bidders`: who made a timely offer that entered the Acta; `considered_bidders`: who is
    still considered after screening and evaluation. Outcome `reject`, `assess_single_offer` or `rank`.
    """
    received, left = sorted({str(b) for b in received_bidders}), sorted({str(b) for b in considered_bidders})
    if collusion_of_all or not left:
        route, rules = "reject", ("BID-28", "BID-30", "BID-31", "BID-32")
    elif len(received) == 1:
        route, rules = "assess_single_offer", ("BID-14", "BID-17")
    elif len(left) == 1:
        route, rules = "rank", ("BID-07", "BID-14", "BID-17", "AMB-44")
    else:
        route, rules = "rank", ("BID-03", "BID-07")
    return Decision(outcome=route, rule_ids=rules,
                    inputs={"received_bidders": received, "considered_bidders": left,
                            "collusion_of_all": bool(collusion_of_all)},
                    details={"single_offer_received": len(received) == 1,
                             "explanation": route_sentence(route, received, left)})


def single_offer_route(price_reasonable, bid_round, kind, recommend_by_administration=True) -> Decision:
    """BID-14…17: award a reasonable single offer; otherwise a second bid, then the Legislatura."""
    if price_reasonable:
        route, rules = "award", ("BID-17", "AMB-41")
    elif int(bid_round or 1) < 2:
        route, rules = "SECOND_BID_REQUIRED", ("BID-14",)
    elif kind == "construction" and recommend_by_administration:
        route, rules = "recommend_by_administration", ("BID-15", "BID-16")
    else:
        route, rules = "LEGISLATURE_QUOTES_REQUESTED", ("BID-15",)
    return Decision(outcome=route, rule_ids=rules,
                    inputs={"price_reasonable": bool(price_reasonable), "round": int(bid_round or 1), "kind": kind,
                            "recommend_by_administration": bool(recommend_by_administration)})


def justification_needed(kind, sale_needs_justification=True) -> bool:
    """BID-09 for purchases; AMB-40 extends it to a sale or lease not awarded to the highest."""
    return kind not in DESCENDING_KINDS or bool(sale_needs_justification)


def check_awards(awards, ranking, kind, sale_needs_justification=True) -> None:
    """Refuse an award the regulation does not allow (422 with the contract's codes)."""
    if not awards:
        raise RuleViolation("AWARDS_REQUIRED", "an award names the offer chosen for each renglón", ("BID-06",))
    seen = set()
    for award in awards:
        line, offer = str(award["line"]), str(award["offer_id"])
        if line in seen:
            raise RuleViolation("AWARD_LINE_DUPLICATE", f"renglón {line} is awarded twice", ("BID-06",))
        seen.add(line)
        if offer not in (ranking.get(line) or []):
            raise RuleViolation("AWARD_OFFER_NOT_ELIGIBLE",
                                f"offer {offer} is not a considered offer of renglón {line}", ("BID-01", "BID-07"))
        votes = [v for v in award.get("votes") or [] if str(v.get("offer_id", offer)) == offer]
        cast = award.get("votes") or []
        if cast and len(votes) * 2 <= len(cast):
            raise RuleViolation("AWARD_NOT_MAJORITY",
                                f"offer {offer} has {len(votes)} of {len(cast)} votes", ("BID-06",))
        if ranking[line][0] == offer or not justification_needed(kind, sale_needs_justification):
            continue
        justification = award.get("justification") or {}
        if not str(justification.get("text") or "").strip():
            raise RuleViolation("JUSTIFICATION_REQUIRED",
                                f"offer {offer} is not first in renglón {line}: the Junta must state its reasons "
                                "in writing", ("BID-08", "BID-09", "AMB-40"))
        favoured = {str(v["member"]) for v in votes}
        unsigned = sorted(favoured - {str(m) for m in justification.get("signed_by") or []})
        if not favoured or unsigned:
            raise RuleViolation("JUSTIFICATION_SIGNATURES_INCOMPLETE",
                                "the justification must be signed by every member who voted for the offer; "
                                f"missing: {', '.join(unsigned) or 'no recorded vote for it'}", ("BID-09",))


def award_result(awards, ranking, offers, kind, sale_needs_justification=True) -> Decision:
    """BID-06…10: who gets each renglón and at which price (the offered price, never the evaluated one)."""
    by_id = {str(o["offer_id"]): o for o in offers}
    result, justifications, compared = [], [], {}
    for award in sorted(awards, key=lambda a: int(a["line"])):
        offer = by_id[str(award["offer_id"])]
        line = str(award["line"])
        needed = ranking[line][0] != str(offer["offer_id"]) and justification_needed(kind, sale_needs_justification)
        entry = {"line": int(award["line"]), "offer_id": str(offer["offer_id"]), "bidder_id": str(offer["bidder_id"]),
                 "contract_price": cents(offer["price"])}
        if needed:
            justifications.append({"line": entry["line"], "offer_id": entry["offer_id"], **award["justification"]})
        result.append(entry)
        ids = [oid for oid in ranking[line] if oid in by_id]
        compared[line] = compared_sentence(entry["offer_id"], ids, {oid: evaluated_price(
            by_id[oid]["price"], by_id[oid].get("preference_pct"), kind) for oid in ids}, offers)
    return Decision(outcome="AWARDED", rule_ids=("BID-06", "BID-07", "BID-08", "BID-10")
                    + (("BID-09",) if justifications else ()),
                    inputs={"awards": [{"line": a["line"], "offer_id": a["offer_id"]} for a in awards],
                            "ranking": ranking, "kind": kind},
                    details={"awards": result, "awardee": result[0]["bidder_id"],
                             "contract_price": result[0]["contract_price"],
                             "justification_required": bool(justifications),
                             "explanation": award_sentence(result, justifications, compared),
                             "justification": justifications[0] if len(justifications) == 1 else (justifications or None)})


def reasonableness_hint(offers, offers_status, bid, max_pct_of_estimate=110, sale_min_pct_of_appraisal=100) -> Decision:
    """AMB-41: a hint for the Junta, never its decision: the single offer's price against the
    estimate (purchases) or the appraisal (sales and leases)."""
    descending = bid["kind"] in DESCENDING_KINDS
    reference = bid.get("appraisal") if descending else bid.get("estimate")
    considered = [o for o in offers if offers_status.get(str(o["offer_id"])) == "CONSIDERED"]
    hints = {}
    for offer in considered:
        if reference in (None, ""):
            hints[str(offer["offer_id"])] = None
            continue
        pct = (money(offer["price"]) * 100 / money(reference)).quantize(Decimal("0.01"))
        within = pct >= money(sale_min_pct_of_appraisal) if descending else pct <= money(max_pct_of_estimate)
        hints[str(offer["offer_id"])] = {"pct_of_reference": str(pct), "within_hint": within}
    return Decision(outcome=hints, rule_ids=("AMB-41", "BID-10" if descending else "BID-17"),
                    inputs={"reference": reference, "kind": bid["kind"], "max_pct_of_estimate": str(max_pct_of_estimate),
                            "sale_min_pct_of_appraisal": str(sale_min_pct_of_appraisal)})
