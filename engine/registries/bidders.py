"""The bidder registry of the Junta de Subastas: bans and withdrawals (BID-21, 25, 27, 29), the
consecutive single-bidder count per matter (BID-20) and the fiscal-year locks on similar
purchases after a cancellation (BID-36).

Later cases read it: an offer from a bidder banned on the opening day is `BIDDER_BANNED`, and a
locked matter refuses a new bid (`SIMILAR_PURCHASE_BLOCKED_FY`). Every change is audited.
"""
from __future__ import annotations

import re
from datetime import date

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from engine.errors import Conflict, NotFound, ValidationFailed
from engine.persistence.models import Bidder, BidderSanction, BidMatter, PurchaseLock

SANCTION_KINDS = ("ban", "registry_withdrawal")
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")


def matter_key(matter: str) -> str:
    """«compra similar»: the same matter, whatever its case and spacing."""
    return " ".join(str(matter or "").casefold().split())[:200]


def _active(on: date):
    return (BidderSanction.from_date <= on,
            or_(BidderSanction.eligible_again.is_(None), BidderSanction.eligible_again > on),
            or_(BidderSanction.lifted_on.is_(None), BidderSanction.lifted_on > on))


def sanction_view(s: BidderSanction) -> dict:
    through = date.fromordinal(s.eligible_again.toordinal() - 1) if s.eligible_again else None
    return {"id": s.id, "bidder_id": s.bidder_id, "kind": s.kind, "months": s.months, "from": s.from_date.isoformat(),
            "through": through.isoformat() if through else None,
            "eligible_again": s.eligible_again.isoformat() if s.eligible_again else None,
            "lifted_on": s.lifted_on.isoformat() if s.lifted_on else None, "reason": s.reason, "case_id": s.case_id}


def banned_on(session: Session, on: date) -> dict[str, dict]:
    """{bidder id: the ban in force} for every bidder who may not bid on day `on`."""
    rows = session.scalars(select(BidderSanction).where(*_active(on)).order_by(BidderSanction.id)).all()
    return {r.bidder_id: sanction_view(r) for r in rows}


def view(session: Session, bidder: Bidder, on: date) -> dict:
    sanctions = session.scalars(select(BidderSanction).where(BidderSanction.bidder_id == bidder.id)
                                .order_by(BidderSanction.id)).all()
    active = session.scalars(select(BidderSanction).where(BidderSanction.bidder_id == bidder.id, *_active(on))
                             .order_by(BidderSanction.eligible_again.desc())).all()
    current = next((s for s in active if s.eligible_again is None), active[0] if active else None)
    shown = sanction_view(current) if current else None
    return {"id": bidder.id, "name": bidder.name, "banned": current is not None,
            "banned_until": shown["through"] if shown else None,
            "eligible_again": shown["eligible_again"] if shown else None,
            "reason": shown["reason"] if shown else None, "case_id": shown["case_id"] if shown else None,
            "sanctions": [sanction_view(s) for s in sanctions], "updated_at": bidder.updated_at.isoformat()}


def get(session: Session, bidder_id: str) -> Bidder:
    bidder = session.get(Bidder, bidder_id)
    if bidder is None:
        raise NotFound(f"there is no bidder {bidder_id}")
    return bidder


def ensure_bidder(ctx, bidder_id: str, name: str | None, *, instance_id=None, actor=None) -> Bidder:
    bidder = ctx.session.get(Bidder, bidder_id)
    if bidder is None:
        if not ID_PATTERN.match(bidder_id):
            raise ValidationFailed(f"bidder id {bidder_id!r} is not valid", {"id": ["letters, digits, . _ -"]})
        bidder = Bidder(id=bidder_id, name=(name or bidder_id).strip() or bidder_id, updated_at=ctx.now)
        ctx.session.add(bidder)
        ctx.session.flush()
        ctx.audit("registry_entry_created", instance_id=instance_id, actor=actor, message=f"bidder registry: {bidder_id}",
                  data={"registry": "bidders", "id": bidder_id, "entry": {"name": bidder.name}})
    return bidder


def create(ctx, *, id: str, name: str, instance_id=None, actor=None) -> Bidder:
    if ctx.session.get(Bidder, id) is not None:
        raise Conflict(f"the registry already has a bidder {id}", code="REGISTRY_ID_TAKEN")
    return ensure_bidder(ctx, id, name, instance_id=instance_id, actor=actor)


def rename(ctx, bidder_id: str, name: str) -> Bidder:
    bidder = get(ctx.session, bidder_id)
    if name.strip() and name.strip() != bidder.name:
        ctx.audit("registry_entry_changed", message=f"bidder registry: {bidder_id} name {bidder.name} → {name}",
                  data={"registry": "bidders", "id": bidder_id, "changes": {"name": {"from": bidder.name, "to": name}}})
        bidder.name, bidder.updated_at = name.strip(), ctx.now
    return bidder


def add_sanction(ctx, bidder_id: str, *, kind: str, from_date: date, eligible_again: date | None, months=None,
                 reason=None, name=None, instance_id=None, actor=None, rule_ids=()) -> BidderSanction:
    if kind not in SANCTION_KINDS:
        raise ValidationFailed(f"unknown sanction {kind!r}", {"kind": [f"one of {', '.join(SANCTION_KINDS)}"]})
    ensure_bidder(ctx, bidder_id, name, instance_id=instance_id, actor=actor)
    if instance_id is not None:
        same = ctx.session.scalars(select(BidderSanction).where(
            BidderSanction.bidder_id == bidder_id, BidderSanction.case_id == instance_id)).first()
        if same is not None:
            return same
    sanction = BidderSanction(bidder_id=bidder_id, kind=kind, months=months, from_date=from_date,
                              eligible_again=eligible_again, reason=reason, case_id=instance_id, created_at=ctx.now)
    ctx.session.add(sanction)
    ctx.session.flush()
    ctx.audit("registry_entry_changed", instance_id=instance_id, actor=actor, rule_ids=rule_ids,
              message=f"bidder registry: {bidder_id} {kind} from {from_date}"
                      + (f" until {eligible_again} (eligible again)" if eligible_again else ""),
              data={"registry": "bidders", "id": bidder_id, "sanction": sanction_view(sanction)})
    return sanction


def lift_sanctions(ctx, bidder_id: str, on: date) -> int:
    rows = ctx.session.scalars(select(BidderSanction).where(BidderSanction.bidder_id == bidder_id, *_active(on))).all()
    for row in rows:
        row.lifted_on = on
    if rows:
        ctx.audit("registry_entry_changed", message=f"bidder registry: {bidder_id} sanctions lifted on {on}",
                  data={"registry": "bidders", "id": bidder_id, "lifted": [r.id for r in rows]})
    return len(rows)


def list_entries(session: Session, on: date, *, banned: bool | None = None, page=1, per_page=50):
    query = select(Bidder)
    if banned is not None:
        active = select(BidderSanction.bidder_id).where(*_active(on))
        query = query.where(Bidder.id.in_(active) if banned else Bidder.id.not_in(active))
    total = session.scalar(select(func.count()).select_from(query.subquery()))
    rows = session.scalars(query.order_by(Bidder.id).limit(per_page).offset((page - 1) * per_page)).all()
    return [view(session, b, on) for b in rows], total


def count_single_bidder(ctx, matter: str, single: bool, instance_id: int | None, *, actor=None) -> int:
    """BID-20: consecutive bids on one matter with a single bidder; a bid with competition resets it."""
    key = matter_key(matter)
    row = ctx.session.get(BidMatter, key, with_for_update=True)
    if row is None:
        row = BidMatter(matter_key=key, matter=str(matter)[:300], consecutive_single_bidder=0,
                        counted_case_ids=[], updated_at=ctx.now)
        ctx.session.add(row)
    if instance_id is not None and instance_id in (row.counted_case_ids or []):
        return row.consecutive_single_bidder
    row.consecutive_single_bidder = row.consecutive_single_bidder + 1 if single else 0
    row.counted_case_ids = [*(row.counted_case_ids or []), instance_id][-50:]
    row.updated_at = ctx.now
    ctx.session.flush()
    ctx.audit("registry_entry_changed", instance_id=instance_id, actor=actor, rule_ids=("BID-20", "AMB-42"),
              message=f"bidder registry: «{matter}» consecutive single-bidder bids {row.consecutive_single_bidder}",
              data={"registry": "bid_matters", "matter": key, "consecutive_single_bidder": row.consecutive_single_bidder})
    return row.consecutive_single_bidder


def add_purchase_lock(ctx, matter: str, cause: str, locked_until: date, instance_id: int | None, *, actor=None):
    if instance_id is not None and ctx.session.scalars(
            select(PurchaseLock).where(PurchaseLock.case_id == instance_id)).first() is not None:
        return
    ctx.session.add(PurchaseLock(matter_key=matter_key(matter), matter=str(matter)[:300], cause=cause,
                                 locked_until=locked_until, case_id=instance_id, created_at=ctx.now))
    ctx.session.flush()
    ctx.audit("registry_entry_changed", instance_id=instance_id, actor=actor, rule_ids=("BID-36", "AMB-46"),
              message=f"bidder registry: no similar purchase of «{matter}» through {locked_until}",
              data={"registry": "purchase_locks", "matter": matter_key(matter), "cause": cause,
                    "locked_until": locked_until.isoformat()})


def purchase_locks(session: Session, matter: str) -> list[dict]:
    rows = session.scalars(select(PurchaseLock).where(PurchaseLock.matter_key == matter_key(matter))
                           .order_by(PurchaseLock.id)).all()
    return [{"matter": r.matter, "cause": r.cause, "locked_until": r.locked_until.isoformat(), "case_id": r.case_id}
            for r in rows]
