"""Reading users and roles: the admin's lists, the signed-in user of a web session, role labels."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.identity import accounts
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import Role, User
from engine.queries import shapes

MANAGING = "manage users and roles"


def list_users(session: Session, actor: Actor) -> list[dict]:
    access.require_admin(actor, MANAGING)
    return [shapes.user(u) for u in session.scalars(select(User).order_by(User.username))]


def get_user(session: Session, actor: Actor, username: str) -> dict:
    access.require_admin(actor, MANAGING)
    return shapes.user(accounts.get_user(session, username))


def list_roles(session: Session, *, builtin_first: bool = False) -> list[dict]:
    """Every role (GET /roles: anyone signed in): `{"id", "label_es", "label_en", "builtin"}`."""
    order = (Role.builtin.desc(), Role.id) if builtin_first else (Role.id,)
    return [{"id": r.id, "label_es": r.label_es, "label_en": r.label_en, "builtin": r.builtin}
            for r in session.scalars(select(Role).order_by(*order))]


def role_labels(session: Session, english: bool = False) -> dict[str, str]:
    """{role id: its label in Spanish, or English}."""
    return {r.id: (r.label_en if english else r.label_es) for r in session.scalars(select(Role))}


def signed_in_user(session: Session, user_id: int, generation: int | None = None) -> dict | None:
    """The user a web session names (`shapes.signed_in`), or None once deactivated, gone, or their
    sessions ended since this one began (`generation` is the one it was issued in): a role taken
    away, an account closed, a log-out or a new password takes effect at the next request."""
    user = session.get(User, user_id)
    if user is None or not user.active or generation != (user.session_generation or 0):
        return None
    return shapes.signed_in(user)


def session_user(user: User) -> dict:
    """What a web login keeps: the user and the session generation the new session belongs to."""
    return {**shapes.signed_in(user), "session_generation": user.session_generation or 0}


def password_is(session: Session, actor: Actor, username: str, password: str) -> bool:
    """Whether `username`'s password is `password` (the demo reports which demo users still have
    the demo password); admin only, and as slow as a login."""
    access.require_admin(actor, MANAGING)
    user = session.scalars(select(User).where(User.username == username)).first()
    return user is not None and accounts.check_password(password, user.password_hash)
