"""Who may log in and with which roles: users, roles and API tokens (API.md §Users).

Every change to an account is an admin's and audited; logging in and out are open to whoever
holds the credentials or the token. The password and token arithmetic is engine.identity.accounts'.
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone

from sqlalchemy import select

from engine.errors import Conflict, Forbidden, Unauthorized, ValidationFailed
from engine.commands import second_factor as second_factor_commands
from engine.identity import accounts, emails, login_throttle, second_factor
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import ApiToken, Role, User
from engine.queries import shapes
from engine.registries import offices
from engine.queries.accounts import session_user as signed_in

MANAGING = "manage users and roles"


def add_role(ctx, role_id: str, label_es: str, label_en: str) -> dict:
    access.require_admin(ctx.actor, MANAGING)
    if ctx.session.get(Role, role_id) is not None:
        raise Conflict(f"role {role_id!r} exists already", code="ROLE_EXISTS")
    ctx.session.add(Role(id=role_id, label_es=label_es, label_en=label_en, builtin=False))
    ctx.audit("role_created", data={"role": role_id})
    return {"id": role_id, "label_es": label_es, "label_en": label_en}


NO_ROLE = "Elija al menos un rol: un usuario sin rol no puede hacer nada."
SHORT_PASSWORD = "La contraseña debe tener al menos 8 caracteres."


def _known_roles(session, roles: list[str]) -> None:
    if not roles:
        raise ValidationFailed("a user needs a role", {"roles": [NO_ROLE]})
    unknown = sorted(set(roles) - accounts.role_ids(session))
    if unknown:
        raise ValidationFailed("unknown roles", {"roles": [f"unknown role {r!r}" for r in unknown]})


def check_password_policy(password: str, field: str = "password") -> None:
    """The one password policy: 8 characters or more (the API's schema says the same)."""
    if len(password or "") < 8:
        raise ValidationFailed("password too short", {field: [SHORT_PASSWORD]})


def create_user(ctx, username: str, password: str, roles: list[str], full_name: str = "",
                office: str | None = None, email: str | None = None) -> dict:
    access.require_admin(ctx.actor, MANAGING)
    session = ctx.session
    username = accounts.normalize_username(username)
    if accounts.find_login_user(session, username) is not None:
        raise Conflict(f"user {username!r} exists already", code="USER_EXISTS")
    _known_roles(session, roles)
    office = offices.resolve(session, office)  # "caguas " is Caguas; an office not on the list is refused
    check_password_policy(password)
    email = emails.normalize(email)
    # Looked up on the module when called: the test suite swaps in a precomputed hash.
    user = User(username=username, password_hash=accounts.hash_password(password), full_name=full_name,
                office=office, email=email, created_at=ctx.now)
    user.roles = [session.get(Role, r) for r in sorted(set(roles))]
    session.add(user)
    session.flush()
    ctx.audit("user_created", data={"username": username, "roles": sorted(set(roles)), "office": office})
    return shapes.user(user)


def update_user(ctx, username: str, *, full_name: str | None = None, office: str | None = None,
                roles: list[str] | None = None, email: str | None = None) -> dict:
    """Change a user's name, office, roles and e-mail; only what is given changes (office or email
    "" clears it)."""
    access.require_admin(ctx.actor, MANAGING)
    user = accounts.get_user(ctx.session, username)
    before = {"full_name": user.full_name, "office": user.office, "roles": user.role_ids, "email": user.email}
    if email is not None:
        user.email = emails.normalize(email)
    if roles is not None:
        _known_roles(ctx.session, roles)
        # An admin who takes their own admin role away can no longer undo it from these pages.
        if username == ctx.actor.username and "admin" in before["roles"] and "admin" not in roles:
            raise ValidationFailed("you cannot remove your own admin role", {"roles": ["keep your own admin role"]})
        user.roles = [ctx.session.get(Role, r) for r in sorted(set(roles))]
    if full_name is not None:
        user.full_name = full_name.strip()
    if office is not None:
        kept = offices.find(ctx.session, office)  # their own office stays theirs even once deactivated
        user.office = user.office if kept is not None and kept.id == user.office else offices.resolve(ctx.session, office)
    after = {"full_name": user.full_name, "office": user.office, "roles": sorted(r.id for r in user.roles),
             "email": user.email}
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    if changed:
        ctx.session.flush()
        ctx.audit("user_changed", data={"username": username, "changes": changed})
    return shapes.user(user)


NOT_A_SUPERVISOR = "El resumen diario es para supervisores: usted no tiene ese rol."


def set_daily_digest(ctx, wanted: bool) -> dict:
    """The signed-in supervisor's own choice: one e-mail a day with the overdue and due-soon tasks
    they supervise (engine.commands.digest), instead of waiting for each escalation."""
    user = accounts.get_user(ctx.session, ctx.actor.username)
    if wanted and "supervisor" not in user.role_ids:
        raise ValidationFailed("only supervisors get the daily digest", {"daily_digest": [NOT_A_SUPERVISOR]})
    if bool(user.daily_digest) != bool(wanted):
        user.daily_digest = bool(wanted)
        ctx.session.flush()
        ctx.audit("user_changed", data={"username": user.username,
                                        "changes": {"daily_digest": {"from": not wanted, "to": bool(wanted)}}})
    return shapes.user(user)


def set_active(ctx, username: str, active: bool) -> dict:
    """Deactivate (or reactivate) a user. A deactivated user cannot log in, and their tokens are
    revoked so that reactivating them later does not bring old tokens back to life."""
    access.require_admin(ctx.actor, MANAGING)
    user = accounts.get_user(ctx.session, username)
    if not active and username == ctx.actor.username:
        raise Conflict("you cannot deactivate yourself", code="CANNOT_DEACTIVATE_SELF")
    if user.active == active:
        return shapes.user(user)
    user.active = active
    if not active:
        _end_everything(ctx, user)
    ctx.session.flush()
    ctx.audit("user_reactivated" if active else "user_deactivated", data={"username": username})
    return shapes.user(user)


def _end_everything(ctx, user: User) -> None:
    """Every web session and API token of `user` stops working (deactivation, a new password)."""
    user.session_generation = (user.session_generation or 0) + 1
    now = datetime.now(timezone.utc)
    for row in ctx.session.scalars(select(ApiToken).where(ApiToken.user_id == user.id,
                                                          ApiToken.revoked_at.is_(None))):
        row.revoked_at = now


def set_password(ctx, username: str, password: str, current_password: str | None = None) -> dict:
    """A new password, set by an admin or by the user (who must give the current one). Every web
    session and API token of the user ends: whoever had learnt the old password is out too. One an
    admin sets for someone else is a reset: that user chooses their own at the next web sign-in."""
    user = accounts.get_user(ctx.session, username)
    own = ctx.actor.username == username
    if own and not ctx.actor.is_admin:
        if not accounts.password_matches(user, current_password or ""):
            raise ValidationFailed("the current password is wrong",
                                   {"current_password": ["La contraseña actual no es correcta."]})
    else:
        access.require_admin(ctx.actor, MANAGING)
    check_password_policy(password)
    user.password_hash = accounts.hash_password(password)
    user.must_change_password = not own
    _end_everything(ctx, user)
    ctx.session.flush()
    ctx.audit("password_reset" if not own else "password_changed", data={"username": username})
    return shapes.user(user)


TEMPORARY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread when it is read out


def reset_password(ctx, username: str, temporary: str | None = None) -> dict:
    """An admin's reset: `temporary` (or one made here, returned once and never stored in clear)
    replaces the password, every session and token of the user ends, and their next web sign-in
    must choose a new password before anything else. `{"user", "temporary_password"}`."""
    access.require_admin(ctx.actor, MANAGING)
    if username == ctx.actor.username:
        raise Conflict("change your own password on your password page", code="RESET_OWN_PASSWORD")
    if not temporary:
        temporary = "-".join("".join(secrets.choice(TEMPORARY_ALPHABET) for _ in range(4)) for _ in range(3))
    user = set_password(ctx, username, temporary)
    return {"user": user, "temporary_password": temporary}


def change_own_password(ctx, current_password: str, password: str, confirmation: str | None = None,
                        address: str = "unknown", policy: login_throttle.LoginPolicy | None = None) -> dict:
    """A signed-in user's own change (the forced one after a reset too): the current password, then
    a new one under the policy that differs from it. Their other sessions and tokens end; the
    returned `session_user` lets the page that asked carry on in a session of the new generation.
    A wrong current password counts as a failed login (a stolen session must not become a way to
    guess it): that answer is `{"refused": errors}`, so that the count commits."""
    user = accounts.find_login_user(ctx.session, accounts.normalize_username(ctx.actor.username))
    if user is None:
        raise Forbidden("only a signed-in user changes their own password")
    policy, now = policy or login_throttle.LoginPolicy(), datetime.now(timezone.utc)
    login_throttle.check(ctx.conn, policy, user.username, address, now)
    errors = {}
    if not accounts.password_matches(user, current_password or ""):
        login_throttle.record_failure(ctx.conn, policy, user.username, address, now)
        errors["current_password"] = ["La contraseña actual no es correcta."]
    if confirmation is not None and confirmation != password:
        errors["confirmation"] = ["La confirmación no coincide con la contraseña nueva."]
    if not errors and password == current_password:
        errors["password"] = ["La contraseña nueva debe ser distinta de la actual."]
    if "current_password" in errors:
        return {"refused": errors}
    if errors:
        raise ValidationFailed("the password was not changed", errors)
    check_password_policy(password)
    user.password_hash = accounts.hash_password(password)
    user.must_change_password = False
    _end_everything(ctx, user)
    ctx.session.flush()
    ctx.audit("password_changed", data={"username": user.username})
    return signed_in(user)


def end_sessions(ctx) -> None:
    """Web log out: every web session of the caller ends, on every browser (their generation moves)."""
    user = ctx.session.scalars(select(User).where(User.username == ctx.actor.username)).first()
    if user is not None:
        user.session_generation = (user.session_generation or 0) + 1


# -- logging in and out -------------------------------------------------------------------------

def _user_with(ctx, username: str, password: str, address: str, policy) -> User | None:
    """The active user these credentials name, or None with the failure counted; 429 while the
    username or the address has used up its failures (checked before the password is looked at).
    The username is normalized first, once, so " Name" is counted and found as "name"."""
    policy = policy or login_throttle.LoginPolicy()
    if not policy.local_passwords:
        raise Forbidden("local passwords are switched off here: sign in with the agency's directory")
    username = accounts.normalize_username(username)
    now = datetime.now(timezone.utc)
    login_throttle.check(ctx.conn, policy, username, address, now)
    user = accounts.find_login_user(ctx.session, username)
    if not accounts.password_matches(user, password):
        login_throttle.record_failure(ctx.conn, policy, username, address, now)
        return None
    login_throttle.forget(ctx.conn, username)
    return user


def issue_token(ctx, username: str, password: str, address: str = "unknown",
                policy: login_throttle.LoginPolicy | None = None, otp: str | None = None) -> dict | None:
    """`{"token", "expires_at", "user"}` for good credentials, None for bad ones, `{"refused":
    code}` when the second factor is owed (`otp`: a TOTP or recovery code). A failure is counted
    in this transaction, which must commit for the count to hold: so it is an answer here, and
    `log_in` turns it into the 401 once the transaction is over."""
    user = _user_with(ctx, username, password, address, policy)
    if user is None:
        return None
    owed = second_factor.state_of(user, bool(policy and policy.second_factor_required))
    if owed == "enrol":
        return {"refused": "SECOND_FACTOR_ENROLMENT_REQUIRED"}
    if owed == "verify" and not otp:
        return {"refused": "SECOND_FACTOR_REQUIRED"}
    if owed == "verify" and not second_factor_commands.check_code(ctx, user, otp, address, policy):
        return {"refused": "SECOND_FACTOR_WRONG"}
    token = secrets.token_urlsafe(32)
    while token.startswith(accounts.AGENCY_TOKEN_PREFIX):  # that prefix is an agency token's
        token = secrets.token_urlsafe(32)
    # Tokens live on the machine's time, not the engine clock: moving a training clock two
    # years ahead must not log everybody out.
    issued = datetime.now(timezone.utc)
    row = ApiToken(token_hash=accounts.token_hash(token), user_id=user.id, created_at=issued,
                   expires_at=issued + accounts.TOKEN_LIFETIME)
    ctx.session.add(row)
    return {"token": token, "expires_at": row.expires_at.isoformat(), "user": shapes.user(user)}


def log_in(engine, username: str, password: str, address: str,
           policy: login_throttle.LoginPolicy | None = None, otp: str | None = None) -> dict:
    """POST /auth/token: `issue_token` in its own transaction, its refusal raised once committed."""
    issued = engine.execute(issue_token, Actor(accounts.normalize_username(username)), username, password, address,
                            policy, otp)
    if issued is None:
        raise Unauthorized("wrong username or password")
    if "refused" in issued:
        raise Unauthorized({"SECOND_FACTOR_ENROLMENT_REQUIRED": "set up the second factor on the web login first",
                            "SECOND_FACTOR_REQUIRED": "send the TOTP code as `otp`",
                            "SECOND_FACTOR_WRONG": "wrong second-factor code"}[issued["refused"]],
                           {"otp": [issued["refused"]]})
    return issued


def verify_login(ctx, username: str, password: str, address: str = "unknown",
                 policy: login_throttle.LoginPolicy | None = None) -> dict | None:
    """The web page's login: the signed-in user (`signed_in`) for good credentials of an active
    user, else None; the same throttle and the same normalized username as the API's token route."""
    user = _user_with(ctx, username, password, address, policy)
    if user is None:
        return None
    return {**signed_in(user),
            "second_factor": second_factor.state_of(user, bool(policy and policy.second_factor_required))}



def revoke_token(ctx, token: str) -> None:
    """Log out: the token stops working (its holder's, or any token for an admin)."""
    row = ctx.session.scalars(select(ApiToken).where(ApiToken.token_hash == accounts.token_hash(token))).first()
    if row is None:
        return
    access.check_revoke_token(ctx.actor, ctx.session.get(User, row.user_id).username)
    if row.revoked_at is None:
        row.revoked_at = datetime.now(timezone.utc)
