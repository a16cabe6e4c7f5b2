"""Evaluated prices, the ranking per renglón and ties (BID-03…05, 10, 23, 24; AMB-38, 39, 45).

Money is `Decimal` from end to end: the preference is applied exactly and rounded half-up to
cents (TC-5) before anything is compared; a prompt-payment discount never enters (BID-05).
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from engine.rules.decision import Decision
from engine.rules.money import cents as money_cents, money
from engine.rules.bid_adjudication.screening import CONSIDERED
from engine.rules.bid_adjudication.wording import ranking_sentence

# BID-10 / AMB-39: sales and leases go to the highest reasonable offer.
DESCENDING_KINDS = ("sale", "lease")


def exact(value) -> Decimal:
    # Stricter than the shared helper: a bid's amounts arrive as text or Decimal, never floats.
    if isinstance(value, float):
        raise TypeError("money never travels as a float")
    return money(value)


def cents(value) -> str:
    """The amount as contract text, half-up to the cent (TC-5)."""
    return str(money_cents(exact(value), rounding=ROUND_HALF_UP))


def evaluated_price(price, preference_pct, kind="acquisition") -> Decimal:
    """AMB-38: price × (1 − pct/100), half-up to cents; Ley 14-2004 preferences are for purchases,
    so a sale or lease ranks on the offered amount."""
    pct = exact(preference_pct or 0) if kind not in DESCENDING_KINDS else Decimal(0)
    return money_cents(exact(price) * (Decimal(100) - pct) / Decimal(100), rounding=ROUND_HALF_UP)


def rank_offers(offers, offers_status, kind) -> Decision:
    """BID-03 / BID-04 / BID-10: each renglón's considered offers, best first; ties for first place."""
    descending = kind in DESCENDING_KINDS
    prices, lines = {}, {}
    for offer in offers:
        oid = str(offer["offer_id"])
        if offers_status.get(oid) != CONSIDERED:
            continue
        prices[oid] = evaluated_price(offer["price"], offer.get("preference_pct"), kind)
        lines.setdefault(str(offer["line"]), []).append(oid)
    ranking, ties = {}, {}
    for line in sorted(lines, key=lambda l: (len(l), l)):
        ordered = sorted(lines[line], key=lambda oid: prices[oid], reverse=descending)
        ranking[line] = ordered
        tied = [oid for oid in ordered if prices[oid] == prices[ordered[0]]]
        if len(tied) > 1:
            ties[line] = tied
    first_tie = next(iter(ties.values()), [])
    return Decision(outcome=ranking, rule_ids=("BID-03", "BID-04", "BID-05", "BID-10", "AMB-38", "AMB-39", "TC-5")
                    + (("BID-23", "AMB-45") if ties else ()),
                    inputs={"kind": kind, "offers": {str(o["offer_id"]): {
                        "price": cents(o["price"]), "preference_pct": str(o.get("preference_pct") or 0),
                        "prompt_payment_discount_pct": str(o.get("prompt_payment_discount_pct") or 0)}
                        for o in offers if str(o["offer_id"]) in prices}},
                    details={"ranking": ranking, "evaluated_prices": {k: str(v) for k, v in prices.items()},
                             "explanation": ranking_sentence(ranking, prices, list(offers), descending),
                             "ties": ties, "tie": first_tie,
                             "tie_line": next(iter(ties), None)})


# AMB-45 `bid.tieBreakAfterQualitative`: what the Junta falls back on when experience, quality,
# warranties and delivery leave the offers identical (BID-24 offers both, «También podrá»).
TIE_FALLBACKS = {"LOTTERY": "lottery", "NEW_BID_AMONG_TIED": "new_bid_among_tied"}


def effective_tie_method(method, chosen_offer_id, fallback) -> str:
    """The contract's three methods stay open to the Junta; a qualitative comparison that chooses no
    offer (they stayed identical) goes on by the configured fallback."""
    if method == "qualitative" and chosen_offer_id in (None, ""):
        return TIE_FALLBACKS.get(str(fallback), "lottery")
    return method


def tie_resolution(tie, method, chosen_offer_id=None, basis=None, lottery=None, offers=(), fallback=None) -> Decision:
    """BID-23 / BID-24 / AMB-45: the Junta's qualitative choice, or the configured fallback: a
    lottery in the bidders' presence or a new bid among the tied bidders."""
    winner = None
    if method == "qualitative":
        winner = str(chosen_offer_id)
    elif method == "lottery":
        winner = str(lottery["winner"])
    return Decision(outcome=winner or "NEW_BID_AMONG_TIED",
                    rule_ids=("BID-23", "AMB-45") if method == "qualitative" else ("BID-24", "AMB-45", "TC-7"),
                    inputs={"tie": list(tie), "method": method, "basis": basis,
                            "tie_break_after_qualitative": fallback},
                    details={"winner": winner, "method": method})


def winner_first(ranking, line, winner) -> dict:
    """The tie's winner counts as first in its renglón (no BID-09 justification to award it)."""
    ordered = [winner] + [oid for oid in ranking[str(line)] if oid != winner]
    return {**ranking, str(line): ordered}


def next_tie(ranking, ties, resolved) -> dict:
    """The first renglón whose tie the Junta has not broken yet (empty when none is left)."""
    for line, tied in ties.items():
        if line not in resolved:
            return {"line": line, "tie": tied}
    return {"line": None, "tie": []}


def lottery_participants(tie, offers) -> list[dict]:
    by_id = {str(o["offer_id"]): o for o in offers}
    return [{"offer_id": oid, "bidder_id": str(by_id[oid]["bidder_id"])} for oid in tie]


def witnessed_winner(tie, offers, witnessed) -> str | None:
    """A witnessed result names the winning offer, or its bidder when that bidder has one tied offer."""
    if witnessed in (None, ""):
        return None
    if str(witnessed) in tie:
        return str(witnessed)
    matches = [p["offer_id"] for p in lottery_participants(tie, offers) if p["bidder_id"] == str(witnessed)]
    return matches[0] if len(matches) == 1 else None
