"""Bid adjudication's registry functions a script may call, bound to the command that runs it.

Also the lookup the start rule needs (the fiscal-year lock, BID-36): the pure check is
`rules.bid_adjudication.bid_filed`; `start_lookup` reads the registry for it. Changes land
in the command's transaction and in the case's history, as the engine.
"""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import date

from sqlalchemy import select

from engine.rules.calendar import as_local_date
from engine.config.parameters import snapshot, typed_value
from engine.persistence.models import ProcessInstance
from engine.rules.bid_adjudication import BID
from engine.registries import bidders
from engine.commands.cases import start_case
from engine.commands.memberships import ENGINE_ACTOR, as_engine

NAMES = frozenset({"banned_bidders", "record_bans", "count_single_bidder", "lock_similar_purchases",
                   "draw_lottery", "start_sale_bid"})
# SUR-15: surplus disposition sells an item by «subasta formal», a bid case it opens.
SHARED_WITH_SURPLUS = frozenset({"start_sale_bid"})


def _day(value) -> date:
    return as_local_date(value)


def draw(participants: list, seed: str | None = None) -> dict:
    """A lottery nobody can steer: a fresh cryptographic seed (or the configured one, for
    reproducible tests, TC-7) hashed with the participants in order picks the winner."""
    seed = str(seed) if seed not in (None, "") else secrets.token_hex(16)
    ids = [str(p["offer_id"] if isinstance(p, dict) else p) for p in participants]
    digest = hashlib.sha256((seed + "|" + "|".join(ids)).encode("utf-8")).hexdigest()
    return {"winner": ids[int(digest, 16) % len(ids)], "seed": seed, "participants": list(participants),
            "method": "sha256(seed|participants) mod n"}


def start_sale_bid_case(ctx, item: dict, *, appraisal=None, offers_due_at=None, number=None,
                        parent_instance_id: int | None = None) -> dict:
    """A `sale` bid for a surplus item (SUR-15: «subasta formal»), started by the engine in the same
    transaction; once per calling case, so a retried script never opens two."""
    table = ProcessInstance.__table__
    if parent_instance_id is not None:
        row = ctx.conn.execute(select(table.c.id, table.c.case_number).where(
            table.c.parent_instance_id == parent_instance_id, table.c.process_key == BID)).first()
        if row is not None:
            return {"id": row.id, "case_number": row.case_number}
    description = str(item.get("description") or item.get("name") or item.get("id"))
    value = appraisal if appraisal is not None else item.get("estimated_value")
    variables = {"bid": {
        "number": str(number or f"VENTA-{item.get('id', '')}"), "matter": description, "kind": "sale",
        "lines": [{"line": 1, "description": description}], "estimate": None,
        "appraisal": str(value) if value is not None else None, "funds_certified": None,
        "alternates_requested": False, "general": False, "price_variable": False,
        "has_price_honour_clause": False, "round": 1, "previous_case_id": None,
        "offers_due_at": offers_due_at, "emergency_justification": None, "single_source": None},
        "surplus_item": {k: (str(v) if not isinstance(v, (str, int, bool, type(None))) else v)
                         for k, v in item.items()}}
    case = start_case(as_engine(ctx), BID, variables, parent_instance_id=parent_instance_id)
    return {"id": case["id"], "case_number": case["case_number"]}


def bind(ctx, instance_id: int | None) -> dict[str, Callable]:
    engine_ctx = as_engine(ctx)

    def banned_bidders(opening_day) -> dict:
        """BID-21/25/27/29: who may not bid in a bid opened on `opening_day`."""
        return bidders.banned_on(ctx.session, _day(opening_day))

    def record_bans(bans, offers=()) -> list:
        names = {str(o["bidder_id"]): o.get("bidder_name") for o in offers or []}
        for ban in bans:
            bidders.add_sanction(engine_ctx, str(ban["bidder_id"]), kind=ban["kind"], from_date=_day(ban["from"]),
                                 eligible_again=_day(ban["eligible_again"]) if ban.get("eligible_again") else None,
                                 months=ban.get("months"), reason=ban.get("reason"),
                                 name=names.get(str(ban["bidder_id"])), instance_id=instance_id,
                                 actor=ENGINE_ACTOR, rule_ids=("BID-21", "BID-25", "BID-27", "BID-29", "AMB-47"))
        return [b["bidder_id"] for b in bans]

    def count_single_bidder(matter, single) -> int:
        return bidders.count_single_bidder(engine_ctx, str(matter), bool(single), instance_id, actor=ENGINE_ACTOR)

    def lock_similar_purchases(matter, cause, locked_until) -> str:
        bidders.add_purchase_lock(engine_ctx, str(matter), str(cause), _day(locked_until), instance_id,
                                  actor=ENGINE_ACTOR)
        return _day(locked_until).isoformat()

    def draw_lottery(participants, seed=None) -> dict:
        result = draw(list(participants), seed)
        ctx.audit("lottery", instance_id=instance_id, actor=ENGINE_ACTOR, rule_ids=("BID-24", "AMB-45", "TC-7"),
                  message=f"sorteo: gana {result['winner']}", data=result)
        return result

    def start_sale_bid(item, appraisal=None, offers_due_at=None, number=None) -> dict:
        return start_sale_bid_case(ctx, dict(item), appraisal=appraisal, offers_due_at=offers_due_at,
                                   number=number, parent_instance_id=instance_id)

    return {"banned_bidders": banned_bidders, "record_bans": record_bans, "count_single_bidder": count_single_bidder,
            "lock_similar_purchases": lock_similar_purchases, "draw_lottery": draw_lottery,
            "start_sale_bid": start_sale_bid}


def start_lookup(ctx, variables: dict, facts) -> dict:
    """BID-36: what the start rule needs from the bidder registry (this matter's purchase locks)."""
    matter = variables["bid"]["matter"]
    return {"locks": bidders.purchase_locks(ctx.session, matter),
            "similar_purchase_scope": typed_value("bid.noSimilarPurchaseScope", snapshot(ctx.conn), ctx.conn)}
