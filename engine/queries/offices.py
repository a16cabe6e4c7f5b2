"""Reading the office list: what a user form offers, and the admin's table with who and what each holds."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.errors import NotFound
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import User
from engine.persistence.tables import INSTANCE
from engine.registries import offices

RUNNING = ("active", "error")


def choices(session: Session) -> list[dict]:
    """The active offices, by name: what a user form's select offers."""
    return offices.listing(session, include_inactive=False)


def admin_listing(session: Session, actor: Actor) -> list[dict]:
    """Every office, active or not, with its active users and running cases (admin)."""
    access.require_admin(actor, "manage the offices")
    users = dict(session.execute(select(User.office, func.count()).where(User.office.is_not(None),
                                                                          User.active.is_(True))
                                 .group_by(User.office)).all())
    cases = dict(session.execute(select(INSTANCE.c.office, func.count())
                                 .where(INSTANCE.c.office.is_not(None), INSTANCE.c.status.in_(RUNNING))
                                 .group_by(INSTANCE.c.office)).all())
    return [{**o, "users": users.get(o["id"], 0), "running_cases": cases.get(o["id"], 0)}
            for o in offices.listing(session)]


def get(session: Session, actor: Actor, office_id: str) -> dict:
    access.require_admin(actor, "manage the offices")
    found = [o for o in admin_listing(session, actor) if o["id"] == office_id]
    if not found:
        raise NotFound(f"there is no office {office_id!r}")
    return found[0]
