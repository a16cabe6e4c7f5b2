"""What the signed-in user's own pages read about people: their account as they see it, and the
absences page (their own absence; a supervisor's or admin's view of everyone's), with the users a
substitute may be chosen from."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.identity import accounts
from engine.identity.actor import Actor
from engine.persistence.models import User, UserAbsence
from engine.queries import shapes


def own_account(session: Session, actor: Actor) -> dict:
    """The caller's account (e-mail and digest preference included): theirs to read, nobody else's."""
    return shapes.user(accounts.get_user(session, actor.username))


def manages_absences(actor: Actor) -> bool:
    """Who sets other people's absences (the engine's rule in engine.commands.absences)."""
    return actor.is_admin or actor.is_supervisor


def absences_page(session: Session, actor: Actor, now) -> dict:
    """The absences the caller may see (all for a supervisor or admin; their own otherwise), each
    marked `lasting` or not yet begun, and the active users (substitute and, for a manager, whose)."""
    query = select(UserAbsence).order_by(UserAbsence.starts_at, UserAbsence.username)
    if not manages_absences(actor):
        query = query.where(UserAbsence.username == actor.username)
    rows = [{"username": a.username, "substitute": a.substitute, "from": a.starts_at, "until": a.ends_at,
             "set_by": a.set_by, "lasting": a.starts_at <= now < a.ends_at, "over": a.ends_at <= now}
            for a in session.scalars(query)]
    people = [{"username": u.username, "full_name": u.full_name or u.username}
              for u in session.scalars(select(User).where(User.active.is_(True)).order_by(User.username))]
    return {"absences": rows, "people": people, "manages": manages_absences(actor),
            "mine": next((a for a in rows if a["username"] == actor.username), None)}
