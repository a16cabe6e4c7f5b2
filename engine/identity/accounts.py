"""Users, roles and API tokens as the engine reads them: hashed passwords, a bearer token's user.

The changes (creating users, roles, tokens; logging in and out) are commands, in
engine/commands/accounts.py, each checking its own access."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata
from datetime import datetime, timedelta, timezone

from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from engine.identity import absences
from engine.identity.actor import BUILTIN_ROLES, Actor
from engine.errors import NotFound, Unauthorized
from engine.config.paths import processes_dir
from engine.persistence import compiled
from engine.persistence.models import AgencyToken, ApiToken, Role, User, UserRole

TOKEN_LIFETIME = timedelta(hours=12)
# Agency tokens (engine.commands.agency_tokens) start so: the bearer check knows which table to read.
AGENCY_TOKEN_PREFIX = "tra_"
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


def normalize_username(username: str) -> str:
    """The one spelling of a username: what the throttle counts and the lookup compares. Spaces
    around it and letter case do not make another user (nor another throttle count)."""
    return unicodedata.normalize("NFKC", username).strip().lower()


def find_login_user(session: Session, username: str) -> User | None:
    """The user a login names (`username` already normalized); compared in lower case so an
    account created with capitals before usernames were normalized still signs in."""
    return session.scalars(select(User).where(func.lower(User.username) == username)).first()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def actor_of(user: User) -> Actor:
    return Actor(user.username, frozenset(user.role_ids), user.office)


def seed_roles(session: Session) -> int:
    """Add the roles of processes/roles.json that are missing (run by engine.commands.setup)."""
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


_TOKEN, _USER, _USER_ROLE = ApiToken.__table__, User.__table__, UserRole.__table__
# Every API request runs these two: built once, they cost a fraction of building them each time.
_ROLES_OF = (select(func.aggregate_strings(_USER_ROLE.c.role_id, " "))
             .where(_USER_ROLE.c.user_id == _USER.c.id).scalar_subquery())
# Whether anyone's absence names the bearer as substitute (an index probe): a task list read on the
# same connection then need not ask (absences.stood_in_for), one statement fewer per list (issue 21).
_STANDS_IN = exists().where(absences.ABSENCE.c.substitute == _USER.c.username)
_BEARER = (select(_USER.c.id, _USER.c.username, _USER.c.full_name, _USER.c.office, _USER.c.active,
                  _TOKEN.c.expires_at, _TOKEN.c.revoked_at, _ROLES_OF.label("roles"),
                  _STANDS_IN.label("stands_in"))
           .select_from(_TOKEN.join(_USER, _USER.c.id == _TOKEN.c.user_id))
           .where(_TOKEN.c.token_hash == bindparam("token_hash")))


def bearer_row(conn: Connection, params: dict) -> dict | None:
    """The API's per-request check's row, its statement compiled once (issue 21)."""
    return _as_dict(compiled.run(conn, _BEARER, params).first())


def _as_dict(row) -> dict | None:
    return row._mapping if row is not None else None


_AGENCY = AgencyToken.__table__
_AGENCY_BEARER = (select(_AGENCY.c.name, _AGENCY.c.roles, _AGENCY.c.office, _AGENCY.c.expires_at,
                         _AGENCY.c.revoked_at).where(_AGENCY.c.token_hash == bindparam("token_hash")))


def agency_actor_name(name: str) -> str:
    """Who an agency token acts as: never a username (usernames hold no ':')."""
    return f"token:{name}"


def _agency_bearer(session: Session, token: str) -> dict:
    row = session.execute(_AGENCY_BEARER, {"token_hash": token_hash(token)}).first()
    if row is None or row.revoked_at is not None or row.expires_at <= datetime.now(timezone.utc):
        raise Unauthorized("the token is missing, expired or revoked")
    return {"id": None, "username": agency_actor_name(row.name), "full_name": row.name, "office": row.office,
            "active": True, "roles": sorted(row.roles)}


def authenticate(session: Session, token: str, *, note_absences: bool = False) -> dict:
    """The bearer's user as a plain dict (with `roles`), or 401 (an agency token's too). With
    `note_absences`, that no absence names the user as substitute is noted for the reads that follow
    on this connection (absences.note_none_on; the caller clears it when its request ends)."""
    if token.startswith(AGENCY_TOKEN_PREFIX):
        return _agency_bearer(session, token)
    params = {"token_hash": token_hash(token)}
    if isinstance(session, Connection):
        row = bearer_row(session, params)
    else:
        found = session.execute(_BEARER, params).first()
        row = found._asdict() if found is not None else None
    user = _bearer_user(row)
    if note_absences and not row["stands_in"]:
        absences.note_none_on(session, user["username"])
    return user


def authenticate_once(engine: Engine, token: str) -> dict:
    """`authenticate` for a request that reads nothing else in the same transaction (a write: its
    command opens its own): the one statement runs on a pooled driver connection held just for it,
    with no `Connection`, transaction or rollback object around it. On SQLite that is also one
    statement instead of BEGIN, SELECT and ROLLBACK (issue 21)."""
    if token.startswith(AGENCY_TOKEN_PREFIX):
        with engine.connect() as conn:
            return _agency_bearer(conn, token)
    return _bearer_user(_as_dict(compiled.first_on(engine, _BEARER, {"token_hash": token_hash(token)})))


def _bearer_user(row: dict | None) -> dict:
    if row is None or row["revoked_at"] is not None or row["expires_at"] <= datetime.now(timezone.utc):
        raise Unauthorized("the token is missing, expired or revoked")
    if not row["active"]:
        raise Unauthorized("the user is no longer active")
    roles = sorted((row["roles"] or "").split())
    return {"id": row["id"], "username": row["username"], "full_name": row["full_name"], "office": row["office"],
            "active": row["active"], "roles": roles}


def get_user(session: Session, username: str) -> User:
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        raise NotFound(f"there is no user {username!r}")
    return user
