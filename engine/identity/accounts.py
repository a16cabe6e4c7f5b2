"""Users, roles and API tokens: hashed passwords, expiring and revocable tokens."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from datetime import datetime, timedelta, timezone

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from engine.identity import login_throttle
from engine.identity.actor import BUILTIN_ROLES, Actor
from engine.errors import Conflict, NotFound, Unauthorized, ValidationFailed
from engine.config.paths import processes_dir
from engine.persistence.models import ApiToken, Role, User, UserRole

TOKEN_LIFETIME = timedelta(hours=12)
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **_SCRYPT, dklen=32)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        _, salt, digest = stored.split("$")
    except ValueError:
        return False
    candidate = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), **_SCRYPT, dklen=32)
    return hmac.compare_digest(candidate.hex(), digest)


# What an unknown or inactive username is checked against: a hash of a random password nobody
# kept. A constant, so the first unknown username of a process costs one scrypt like every other
# (made lazily, it cost two and answered slower than a wrong password once per process).
_DECOY_HASH = ("scrypt$311b025099774ae281acaf8570fec341$"
               "73379e6cbe94f4e1b4b5fdcec1a5628bfffb904d8d85105266c5763a22d8c12a")


def password_matches(user: User | None, password: str) -> bool:
    """True for an active user's right password. An unknown or inactive user costs the same scrypt
    as a known one, so the answer's time does not tell which usernames exist."""
    if user is None or not user.active:
        check_password(password, _DECOY_HASH)
        return False
    return check_password(password, user.password_hash)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def actor_of(user: User) -> Actor:
    return Actor(user.username, frozenset(user.role_ids), user.office)


def seed_roles(session: Session) -> int:
    have = set(session.scalars(select(Role.id)))
    entries = json.loads((processes_dir() / "roles.json").read_text(encoding="utf-8"))
    added = 0
    for entry in entries:
        if entry["id"] not in have:
            session.add(Role(id=entry["id"], label_es=entry["label_es"], label_en=entry["label_en"],
                             builtin=entry["id"] in BUILTIN_ROLES))
            added += 1
    session.flush()
    return added


def role_ids(session: Session) -> set[str]:
    return set(session.scalars(select(Role.id)))


def add_role(ctx, role_id: str, label_es: str, label_en: str) -> Role:
    if ctx.session.get(Role, role_id) is not None:
        raise Conflict(f"role {role_id!r} exists already", code="ROLE_EXISTS")
    role = Role(id=role_id, label_es=label_es, label_en=label_en, builtin=False)
    ctx.session.add(role)
    ctx.audit("role_created", data={"role": role_id})
    return role


def create_user(ctx, username: str, password: str, roles: list[str], full_name: str = "",
                office: str | None = None) -> User:
    session = ctx.session
    if session.scalars(select(User).where(User.username == username)).first() is not None:
        raise Conflict(f"user {username!r} exists already", code="USER_EXISTS")
    unknown = sorted(set(roles) - role_ids(session))
    if unknown:
        raise ValidationFailed("unknown roles", {"roles": [f"unknown role {r!r}" for r in unknown]})
    if len(password) < 8:
        raise ValidationFailed("password too short", {"password": ["at least 8 characters"]})
    user = User(username=username, password_hash=hash_password(password), full_name=full_name,
                office=office, created_at=ctx.now)
    user.roles = [session.get(Role, r) for r in sorted(set(roles))]
    session.add(user)
    session.flush()
    ctx.audit("user_created", data={"username": username, "roles": sorted(set(roles)), "office": office})
    return user


def issue_token(ctx, username: str, password: str) -> tuple[str, ApiToken, User]:
    user = ctx.session.scalars(select(User).where(User.username == username)).first()
    if not password_matches(user, password):
        raise Unauthorized("wrong username or password")
    return _new_token(ctx, user)


def _new_token(ctx, user: User) -> tuple[str, ApiToken, User]:
    token = secrets.token_urlsafe(32)
    # Tokens live on the machine's time, not the engine clock: moving a training clock two
    # years ahead must not log everybody out.
    issued = datetime.now(timezone.utc)
    row = ApiToken(token_hash=_token_hash(token), user_id=user.id, created_at=issued,
                   expires_at=issued + TOKEN_LIFETIME)
    ctx.session.add(row)
    return token, row, user


def log_in(engine, username: str, password: str, address: str,
           policy: login_throttle.LoginPolicy | None = None) -> tuple[str, ApiToken, User]:
    """A token for good credentials; 401 for bad ones, 429 while too many have failed.

    The failure is written in the same transaction that checked the count, and that transaction
    commits: raising inside it would roll the failure back and nothing would ever be counted.
    """
    issued = engine.execute(_try_credentials, Actor(username), username, password, address,
                            policy or login_throttle.LoginPolicy())
    if issued is None:
        raise Unauthorized("wrong username or password")
    return issued


def _try_credentials(ctx, username, password, address, policy):
    now = datetime.now(timezone.utc)
    login_throttle.check(ctx.conn, policy, username, address, now)  # before the password is even looked at
    try:
        issued = issue_token(ctx, username, password)
    except Unauthorized:
        login_throttle.record_failure(ctx.conn, policy, username, address, now)
        return None
    login_throttle.forget(ctx.conn, username)
    return issued


def verify_login(engine, username: str, password: str, address: str,
                 policy: login_throttle.LoginPolicy | None = None) -> int | None:
    """The web page's login: the user's id for good credentials of an active user, else None; the
    same throttle as the API's token route (429 while too many have failed)."""
    return engine.execute(_check_credentials, Actor(username), username, password, address,
                          policy or login_throttle.LoginPolicy())


def _check_credentials(ctx, username, password, address, policy):
    now = datetime.now(timezone.utc)
    login_throttle.check(ctx.conn, policy, username, address, now)
    user = ctx.session.scalars(select(User).where(User.username == username.strip())).first()
    if not password_matches(user, password):
        login_throttle.record_failure(ctx.conn, policy, username, address, now)
        return None
    login_throttle.forget(ctx.conn, username)
    return user.id


_TOKEN, _USER, _USER_ROLE = ApiToken.__table__, User.__table__, UserRole.__table__
# Every API request runs these two: built once, they cost a fraction of building them each time.
_ROLES_OF = (select(func.aggregate_strings(_USER_ROLE.c.role_id, " "))
             .where(_USER_ROLE.c.user_id == _USER.c.id).scalar_subquery())
_BEARER = (select(_USER.c.id, _USER.c.username, _USER.c.full_name, _USER.c.office, _USER.c.active,
                  _TOKEN.c.expires_at, _TOKEN.c.revoked_at, _ROLES_OF.label("roles"))
           .select_from(_TOKEN.join(_USER, _USER.c.id == _TOKEN.c.user_id))
           .where(_TOKEN.c.token_hash == bindparam("token_hash")))


def authenticate(session: Session, token: str) -> dict:
    """The bearer's user as a plain dict (with `roles`), or 401."""
    row = session.execute(_BEARER, {"token_hash": _token_hash(token)}).first()
    if row is None or row.revoked_at is not None or row.expires_at <= datetime.now(timezone.utc):
        raise Unauthorized("the token is missing, expired or revoked")
    if not row.active:
        raise Unauthorized("the user is no longer active")
    roles = sorted((row.roles or "").split())
    return {"id": row.id, "username": row.username, "full_name": row.full_name, "office": row.office,
            "active": row.active, "roles": roles}


def revoke_token(ctx, token: str) -> None:
    row = ctx.session.scalars(select(ApiToken).where(ApiToken.token_hash == _token_hash(token))).first()
    if row is not None and row.revoked_at is None:
        row.revoked_at = datetime.now(timezone.utc)


def get_user(session: Session, username: str) -> User:
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        raise NotFound(f"there is no user {username!r}")
    return user


# -- correcting and deactivating users (admin) -------------------------------------------------

def update_user(ctx, username: str, *, full_name: str | None = None, office: str | None = None,
                roles: list[str] | None = None) -> User:
    """Change a user's name, office and roles; only what is given changes (office "" clears it)."""
    user = get_user(ctx.session, username)
    before = {"full_name": user.full_name, "office": user.office, "roles": user.role_ids}
    if roles is not None:
        unknown = sorted(set(roles) - role_ids(ctx.session))
        if unknown:
            raise ValidationFailed("unknown roles", {"roles": [f"unknown role {r!r}" for r in unknown]})
        if not roles:
            raise ValidationFailed("a user needs a role", {"roles": ["at least one role"]})
        # An admin who takes their own admin role away can no longer undo it from these pages.
        if username == ctx.actor.username and "admin" in before["roles"] and "admin" not in roles:
            raise ValidationFailed("you cannot remove your own admin role", {"roles": ["keep your own admin role"]})
        user.roles = [ctx.session.get(Role, r) for r in sorted(set(roles))]
    if full_name is not None:
        user.full_name = full_name.strip()
    if office is not None:
        user.office = office.strip() or None
    after = {"full_name": user.full_name, "office": user.office, "roles": sorted(r.id for r in user.roles)}
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    if changed:
        ctx.session.flush()
        ctx.audit("user_changed", data={"username": username, "changes": changed})
    return user


def set_active(ctx, username: str, active: bool) -> User:
    """Deactivate (or reactivate) a user. A deactivated user cannot log in, and their tokens are
    revoked so that reactivating them later does not bring old tokens back to life."""
    user = get_user(ctx.session, username)
    if not active and username == ctx.actor.username:
        raise Conflict("you cannot deactivate yourself", code="CANNOT_DEACTIVATE_SELF")
    if user.active == active:
        return user
    user.active = active
    if not active:
        now = datetime.now(timezone.utc)
        for row in ctx.session.scalars(select(ApiToken).where(ApiToken.user_id == user.id,
                                                              ApiToken.revoked_at.is_(None))):
            row.revoked_at = now
    ctx.session.flush()
    ctx.audit("user_reactivated" if active else "user_deactivated", data={"username": username})
    return user
