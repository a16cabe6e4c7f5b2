"""Reading the registries that outlive a case (API.md §Registries): anyone signed in may.

Also the registries' vocabulary (statuses, kinds, id patterns) that request schemas and pages
offer, so that they need not reach into the repositories for it.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from engine.config.parameters import snapshot, typed_value
from engine.registries import beneficiaries, bidders, farmers, notifications, stores
from engine.registries import offices as office_list
from engine.rules.bid_adjudication import similar_purchase_allowed
from engine.rules.calendar import local_date

FARMER_STATUSES, PRODUCER_TYPES = farmers.STATUSES, farmers.PRODUCER_TYPES
SANCTION_KINDS, BIDDER_ID_PATTERN = bidders.SANCTION_KINDS, bidders.ID_PATTERN
NOTICE_CHANNELS, NOTICE_STATUSES = notifications.CHANNELS, notifications.STATUSES


# -- the farmer registry ------------------------------------------------------------------------
def list_farmers(session: Session, **filters) -> tuple[list[dict], int]:
    """Registered bona fide producers, in registry order; `status`, `producer_type`, `page`, `per_page`."""
    return farmers.list_entries(session, **filters)


def get_farmer(session: Session, registry_id: str) -> dict:
    return farmers.view(farmers.get(session, registry_id))


# -- the bidder registry: bans and withdrawals as of the clock's day ---------------------------------
def list_bidders(session: Session, now: datetime, *, banned: bool | None = None, page: int = 1,
                 per_page: int = 50) -> tuple[list[dict], int]:
    return bidders.list_entries(session, local_date(now), banned=banned, page=page, per_page=per_page)


def get_bidder(session: Session, now: datetime, bidder_id: str) -> dict:
    return bidders.view(session, bidders.get(session, bidder_id), local_date(now))


def purchase_lock(session: Session, now: datetime, matter: str, emergency_justification: str | None = None) -> dict:
    """BID-36: may a purchase similar to `matter` be made today, by any means (bid or quotes)?"""
    scope = typed_value("bid.noSimilarPurchaseScope", snapshot(session.connection()), session)
    locks = bidders.purchase_locks(session, matter)
    decision = similar_purchase_allowed(matter, local_date(now), locks, emergency_justification, scope)
    return {"matter": matter, "allowed": bool(decision.outcome), "locks": locks}


# -- materials aid ------------------------------------------------------------------------------------
def list_beneficiaries(session: Session, **filters) -> tuple[list[dict], int]:
    """Beneficiaries and their last use of materials (MAT-30); `q` searches id and name."""
    return beneficiaries.list_entries(session, **filters)


def get_beneficiary(session: Session, applicant_id: str) -> dict:
    return beneficiaries.view(beneficiaries.get(session, applicant_id))


def list_stores(session: Session, **filters) -> tuple[list[dict], int]:
    """Hardware stores and whether they are inscribed in the Registro de Licitadores (MAT-15)."""
    return stores.list_entries(session, **filters)


def get_store(session: Session, store_id: str) -> dict:
    return stores.view(stores.get(session, store_id))


def regional_offices(session: Session) -> list[dict]:
    """The Regional Offices and the municipalities each serves (MAT-08), from the managed office
    list (its active offices that serve towns); staff `office` is the id."""
    return office_list.directory(session)["offices"]


def municipalities(session: Session) -> list[str]:
    """Every town some active office serves, sorted (a page's typing aid)."""
    return sorted({m for office in regional_offices(session) for m in office["municipalities"]},
                  key=office_list.key)
