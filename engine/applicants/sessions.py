"""Opening an applicant's session with the case number and the access code, and reading its token.

Wrong pairs are counted in the database (table `applicant_failure`), per case number and per client
address, like staff logins (engine/identity/login_throttle.py): 5 for a case number or 30 from an
address within 15 minutes lock until the oldest of them leaves the window. Whichever half of the
pair is wrong the answer is the same, and both cost one scrypt. Time is the machine's, as for staff
tokens: a training clock must neither lock anybody out nor let a guesser back in.
"""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

from sqlalchemy import bindparam, delete, insert, select

from engine.applicants import codes
from engine.errors import NotFound, Unauthorized
from engine.identity.login_throttle import TooManyLogins
from engine.persistence.models import ApplicantAccess, ApplicantFailure, ApplicantSession
from engine.persistence.tables import INSTANCE

ACCESS, SESSION, FAILURE = ApplicantAccess.__table__, ApplicantSession.__table__, ApplicantFailure.__table__
LIFETIME = timedelta(hours=2)
WINDOW, PER_CASE, PER_ADDRESS = timedelta(minutes=15), 5, 30
GENERIC = "el número de caso o el código de acceso no es válido"


class NoSuchPair(NotFound):
    """The one answer to a wrong case number, a wrong code, or both."""

    def __init__(self):
        super().__init__(GENERIC)


def _wait(conn, column, key: str, limit: int, now: datetime) -> int:
    recent = conn.execute(select(FAILURE.c.failed_at).where(column == key, FAILURE.c.failed_at > now - WINDOW)
                          .order_by(FAILURE.c.failed_at.desc()).limit(limit)).scalars().all()
    if len(recent) < limit:
        return 0
    return max(1, math.ceil((recent[-1] + WINDOW - now).total_seconds()))


def _case_and_code(conn, case_number: str):
    return conn.execute(select(INSTANCE.c.id, ACCESS.c.code_hash)
                        .select_from(INSTANCE.outerjoin(ACCESS, ACCESS.c.instance_id == INSTANCE.c.id))
                        .where(INSTANCE.c.case_number == case_number)).first()


def open_session(ctx, case_number: str, code: str, address: str) -> dict | None:
    """{"token","expires_at"} for a right pair; None for a wrong one (recorded: the caller answers
    404 after this transaction commits); TooManyLogins (429) while locked."""
    now = datetime.now(timezone.utc)
    case_number = (case_number or "").strip().upper()[:64]
    address = (address or "unknown")[:64]
    wait = max(_wait(ctx.conn, FAILURE.c.case_number, case_number, PER_CASE, now),
               _wait(ctx.conn, FAILURE.c.address, address, PER_ADDRESS, now))
    if wait:
        raise TooManyLogins(wait)
    row = _case_and_code(ctx.conn, case_number)
    if not codes.code_matches(code, row.code_hash if row else None):
        ctx.conn.execute(delete(FAILURE).where(FAILURE.c.failed_at <= now - WINDOW))
        ctx.conn.execute(insert(FAILURE).values(case_number=case_number, address=address, failed_at=now))
        return None
    ctx.conn.execute(delete(FAILURE).where(FAILURE.c.case_number == case_number))
    ctx.conn.execute(delete(SESSION).where(SESSION.c.expires_at <= now))
    token = codes.new_token()
    expires = now + LIFETIME
    ctx.conn.execute(insert(SESSION).values(token_hash=codes.token_hash(token), instance_id=row.id,
                                            code_hash=row.code_hash, created_at=now, expires_at=expires))
    ctx.audit("applicant_session_opened", instance_id=row.id, actor="applicant", data={"address": address})
    return {"token": token, "expires_at": expires.isoformat()}


_BEARER = (select(SESSION.c.instance_id, SESSION.c.expires_at)
           .select_from(SESSION.join(ACCESS, (ACCESS.c.instance_id == SESSION.c.instance_id)
                                     & (ACCESS.c.code_hash == SESSION.c.code_hash)))
           .where(SESSION.c.token_hash == bindparam("token_hash")))


def case_of_token(conn, token: str) -> int:
    """The case an applicant token opens, or 401 (unknown, expired, or its code since reissued)."""
    row = conn.execute(_BEARER, {"token_hash": codes.token_hash(token)}).first()
    if row is None or row.expires_at <= datetime.now(timezone.utc):
        raise Unauthorized("the applicant session is missing, expired or ended")
    return row.instance_id


def store_code(ctx, instance_id: int, code_hash: str) -> None:
    """The case's one code: a reissue replaces the hash, so the old code and its sessions end."""
    ctx.conn.execute(delete(ACCESS).where(ACCESS.c.instance_id == instance_id))
    ctx.conn.execute(insert(ACCESS).values(instance_id=instance_id, code_hash=code_hash,
                                           issued_by=ctx.actor.username, issued_at=ctx.now))
    ctx.conn.execute(delete(SESSION).where(SESSION.c.instance_id == instance_id))
