"""API tokens for other agencies' systems: named, scoped to roles, expiring, revoked by admins.

A token acts as `token:<name>` with the roles (and office) an admin gave it: what that system does
is recorded under that name, never as the admin who made it. The roles are those an admin assigns
to users except `admin` itself: a leaked token must not be able to make users or more tokens. The
token is shown once, in the answer that creates it; only its sha256 is stored. Expiry and
revocation run on the machine's time, as for login tokens (engine.identity.accounts).
"""
from __future__ import annotations

import re
import secrets
from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from engine.errors import Conflict, NotFound, ValidationFailed
from engine.identity import accounts
from engine.kernel import access
from engine.persistence.models import AgencyToken
from engine.registries import offices

MANAGING = "manage API tokens"
PREFIX = accounts.AGENCY_TOKEN_PREFIX
MAX_DAYS = 366
NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{1,63}$")
NOT_FOR_TOKENS = frozenset({"admin"})


def shape(row: AgencyToken, now: datetime | None = None) -> dict:
    now = now or datetime.now(timezone.utc)
    state = "revoked" if row.revoked_at else ("expired" if row.expires_at <= now else "active")
    return {"id": row.id, "name": row.name, "actor": accounts.agency_actor_name(row.name),
            "roles": list(row.roles), "office": row.office, "created_by": row.created_by,
            "created_at": row.created_at.isoformat(), "expires_at": row.expires_at.isoformat(),
            "revoked_at": row.revoked_at.isoformat() if row.revoked_at else None, "state": state}


def _check(ctx, name: str, roles: list[str], days) -> list[str]:
    errors: dict[str, list[str]] = {}
    if not NAME.match(name or ""):
        errors["name"] = ["2-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit"]
    roles = sorted(set(roles or []))
    if not roles:
        errors["roles"] = ["at least one role"]
    unknown = [r for r in roles if r not in accounts.role_ids(ctx.session)]
    refused = [r for r in roles if r in NOT_FOR_TOKENS]
    if unknown or refused:
        errors["roles"] = [f"unknown role {r!r}" for r in unknown] + [f"a token may not hold {r!r}" for r in refused]
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        errors["expires_in_days"] = [f"a whole number of days from 1 to {MAX_DAYS}"]
    if errors:
        raise ValidationFailed("the token cannot be made so", errors)
    return roles


def create(ctx, name: str, roles: list[str], expires_in_days: int, office: str | None = None) -> dict:
    """`{..., "token"}`: the only time the token is seen."""
    access.require_admin(ctx.actor, MANAGING)
    name = (name or "").strip().lower()
    roles = _check(ctx, name, roles, expires_in_days)
    if ctx.session.scalars(select(AgencyToken.id).where(AgencyToken.name == name)).first() is not None:
        raise Conflict(f"a token named {name!r} exists already", code="TOKEN_NAME_TAKEN")
    token = PREFIX + secrets.token_urlsafe(32)
    now = datetime.now(timezone.utc)
    row = AgencyToken(name=name, token_hash=accounts.token_hash(token), roles=roles,
                      office=offices.resolve(ctx.session, office), created_by=ctx.actor.username, created_at=now,
                      expires_at=now + timedelta(days=expires_in_days))
    ctx.session.add(row)
    ctx.session.flush()
    ctx.audit("api_token_created", data={"name": name, "roles": roles, "office": row.office,
                                         "expires_at": row.expires_at.isoformat()})
    return {**shape(row, now), "token": token}


def revoke(ctx, token_id: int) -> dict:
    access.require_admin(ctx.actor, MANAGING)
    row = ctx.session.get(AgencyToken, token_id)
    if row is None:
        raise NotFound(f"there is no API token {token_id}")
    if row.revoked_at is None:
        row.revoked_at, row.revoked_by = datetime.now(timezone.utc), ctx.actor.username
        ctx.audit("api_token_revoked", data={"name": row.name})
    return shape(row)


def listing(session, actor) -> list[dict]:
    """Every agency token, newest first (a query: the admin's list; never the tokens themselves)."""
    access.require_admin(actor, MANAGING)
    now = datetime.now(timezone.utc)
    return [shape(r, now) for r in session.scalars(select(AgencyToken).order_by(AgencyToken.id.desc()))]
