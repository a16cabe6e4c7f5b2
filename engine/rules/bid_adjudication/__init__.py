"""Decision rules of municipal bid adjudication by the Junta de Subastas (BID-nn, AMB-38…51).

Families, one module each: which offers may be considered (`screening`), evaluated prices,
ranking and ties (`ranking`), single offers and the award (`award`), bans (`sanctions`), sworn
complaints found unjustified (`complaints`), what follows a failed or cancelled bid
(`follow_up`); `hooks` holds what the engine refuses.
Names are unique across procedures: every procedure's functions share one script whitelist.
"""
from engine.rules.bid_adjudication.award import award_result, offers_route, reasonableness_hint, single_offer_route
from engine.rules.bid_adjudication.complaints import complaint_referral, complaint_unjustified
from engine.rules.bid_adjudication.follow_up import (
    cancellation_result, fiscal_year_end, follow_up_result, legislature_outcome, similar_purchase_allowed,
    single_bidder_alert, single_source_contract,
)
from engine.rules.bid_adjudication.hooks import BID, COMPLETION_RULES, MESSAGE_RULES, bid_filed
from engine.rules.bid_adjudication.ranking import (
    effective_tie_method, lottery_participants, next_tie, rank_offers, tie_resolution, winner_first,
    witnessed_winner,
)
from engine.rules.bid_adjudication.sanctions import ban_periods
from engine.rules.bid_adjudication.screening import apply_evaluation, opening_day, screen_offers

SCRIPT_FUNCTIONS = {
    "screen_offers": screen_offers,
    "apply_evaluation": apply_evaluation,
    "rank_offers": rank_offers,
    "next_tie": next_tie,
    "tie_resolution": tie_resolution,
    "effective_tie_method": effective_tie_method,
    "winner_first": winner_first,
    "witnessed_winner": witnessed_winner,
    "lottery_participants": lottery_participants,
    "single_offer_route": single_offer_route,
    "offers_route": offers_route,
    "award_result": award_result,
    "ban_periods": ban_periods,
    "complaint_unjustified": complaint_unjustified,
    "complaint_referral": complaint_referral,
    "follow_up_outcome": follow_up_result,
    "cancellation_result": cancellation_result,
    "fiscal_year_end": fiscal_year_end,
    "single_bidder_alert": single_bidder_alert,
    "single_source_contract": single_source_contract,
    "legislature_outcome": legislature_outcome,
    "opening_day": opening_day,
    "reasonableness_hint": reasonableness_hint,
}

__all__ = ["BID", "COMPLETION_RULES", "MESSAGE_RULES", "SCRIPT_FUNCTIONS", "bid_filed", "similar_purchase_allowed"]
