"""The TOTP second factor on local login: enrolment, codes, recovery codes, throttled.

A login whose password was right but that still owes a code is not yet anybody's session: the web
keeps it pending (api/web/session.py) and these commands finish it. Every wrong code counts in the
login throttle under `2fa:<username>` (and the address), so six digits cannot be guessed at leisure.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import delete, select

from engine.errors import Conflict, Unauthorized
from engine.identity import accounts, login_throttle, second_factor
from engine.config.login_policy import LoginPolicy
from engine.kernel import access
from engine.queries.accounts import session_user as signed_in
from engine.persistence.models import RecoveryCode, User


def _key(username: str) -> str:
    return f"2fa:{username}"[:100]


def _accept(ctx, user: User, code: str, now: datetime, confirmed_only: bool) -> bool:
    if user.totp_secret and (user.totp_confirmed_at is not None or not confirmed_only):
        step = second_factor.matching_step(user.totp_secret, code, now, user.totp_last_step)
        if step is not None:
            user.totp_last_step = step
            return True
    if user.totp_confirmed_at is None:
        return False
    row = ctx.session.scalars(select(RecoveryCode).where(
        RecoveryCode.user_id == user.id, RecoveryCode.code_hash == second_factor.code_hash(code),
        RecoveryCode.used_at.is_(None))).first()
    if row is None:
        return False
    row.used_at = now
    ctx.audit("recovery_code_used", data={"username": user.username})
    return True


def check_code(ctx, user: User, code: str, address: str, policy, confirmed_only: bool = True) -> bool:
    """Whether `code` (TOTP, or an unused recovery code) is the user's; 429 while used up."""
    policy = policy or LoginPolicy()
    now = datetime.now(timezone.utc)
    login_throttle.check(ctx.conn, policy, _key(user.username), address, now)
    if _accept(ctx, user, code or "", now, confirmed_only):
        login_throttle.forget(ctx.conn, _key(user.username))
        return True
    login_throttle.record_failure(ctx.conn, policy, _key(user.username), address, now)
    return False


def _pending_user(ctx, user_id: int, generation: int) -> User:
    user = ctx.session.get(User, user_id)
    if user is None or not user.active or (user.session_generation or 0) != generation:
        raise Unauthorized("the login is over; sign in again")
    return user


def finish_login(ctx, user_id: int, generation: int, code: str, address: str, policy) -> dict | None:
    """The signed-in user once the pending login's code is right, else None (counted)."""
    user = _pending_user(ctx, user_id, generation)
    return signed_in(user) if check_code(ctx, user, code, address, policy) else None


def begin_enrolment(ctx, user_id: int, generation: int) -> dict:
    """`{"secret", "uri"}` to show as a QR code; the secret counts only once a code confirms it."""
    user = _pending_user(ctx, user_id, generation)
    if user.totp_confirmed_at is not None:
        raise Conflict("the second factor is set up already", code="SECOND_FACTOR_ENROLLED")
    if not user.totp_secret:
        user.totp_secret = second_factor.new_secret()
    return {"secret": user.totp_secret, "uri": second_factor.provisioning_uri(user.totp_secret, user.username)}


def confirm_enrolment(ctx, user_id: int, generation: int, code: str, address: str, policy) -> dict | None:
    """`{"user", "recovery_codes"}` (the codes shown this once) when `code` matches the new
    secret, else None (counted like any wrong code)."""
    user = _pending_user(ctx, user_id, generation)
    if user.totp_confirmed_at is not None or not user.totp_secret:
        raise Conflict("there is no second factor being set up", code="SECOND_FACTOR_NOT_PENDING")
    if not check_code(ctx, user, code, address, policy, confirmed_only=False):
        return None
    now = datetime.now(timezone.utc)
    user.totp_confirmed_at = now
    codes = second_factor.new_recovery_codes()
    ctx.session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    ctx.session.add_all(RecoveryCode(user_id=user.id, code_hash=second_factor.code_hash(c), created_at=now)
                        for c in codes)
    ctx.audit("second_factor_enrolled", data={"username": user.username})
    return {"user": signed_in(user), "recovery_codes": codes}


def reset(ctx, username: str) -> None:
    """An admin clears a user's second factor (a lost phone and no recovery code left): they set
    it up again at their next login. Their sessions end."""
    access.require_admin(ctx.actor, "reset a second factor")
    user = accounts.get_user(ctx.session, username)
    user.totp_secret = user.totp_confirmed_at = user.totp_last_step = None
    user.session_generation = (user.session_generation or 0) + 1
    ctx.session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    ctx.audit("second_factor_reset", data={"username": username})
