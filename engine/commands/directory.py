"""Signing in with the agency's directory (OpenID Connect): the account follows the directory.

The web layer checks the provider's answer (state, PKCE, the id_token's signature, issuer,
audience, expiry and nonce, api/web/directory.py); this command then makes or updates the user the
claims name. Their roles are exactly those their groups map to at this login, so a person taken out
of a group loses its role the next time they sign in; no mapped role, no entry. A directory user
has no usable local password.
"""
from __future__ import annotations

import logging

from engine.identity import accounts
from engine.registries import offices
from engine.queries.accounts import session_user as signed_in
from engine.persistence.models import Role, User

log = logging.getLogger("tramite.directory")
NO_PASSWORD = "!directory"  # not a scrypt hash: no password ever matches it


def sign_in(ctx, username: str, full_name: str, office: str | None, roles: list[str]) -> dict | None:
    """The signed-in user (`accounts.signed_in`), or None when no known role is theirs or the account
    was deactivated here."""
    username = accounts.normalize_username(username)
    known = accounts.role_ids(ctx.session)
    unknown = sorted(set(roles) - known)
    if unknown:
        log.warning("TRAMITE_OIDC_GROUP_ROLES maps to roles that do not exist: %s", ", ".join(unknown))
    roles = sorted(set(roles) & known)
    if office is not None and str(office).strip():
        # The directory's spelling of an office on the list, never a new office; an office the list
        # lacks signs nobody in (staff with no office would see every office's cases).
        found = offices.find(ctx.session, office)
        if found is None or not found.active:
            log.warning("the directory names an office that is not on the list (or is deactivated): %r", office)
            return None
        office = found.id
    else:
        office = None
    user = accounts.find_login_user(ctx.session, username)
    if user is None:
        if not roles:
            return None
        user = User(username=username, password_hash=NO_PASSWORD, full_name=full_name, office=office,
                    created_at=ctx.now)
        ctx.session.add(user)
        user.roles = [ctx.session.get(Role, r) for r in roles]
        ctx.session.flush()
        ctx.audit("user_created", data={"username": username, "roles": roles, "office": office,
                                        "source": "directory"})
        return signed_in(user)
    if not user.active:
        return None
    before = {"roles": user.role_ids, "office": user.office, "full_name": user.full_name}
    user.roles = [ctx.session.get(Role, r) for r in roles]
    user.office, user.full_name = office, full_name or user.full_name
    after = {"roles": sorted(roles), "office": user.office, "full_name": user.full_name}
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    ctx.session.flush()
    if changed:
        ctx.audit("user_changed", data={"username": username, "changes": changed, "source": "directory"})
    return signed_in(user) if roles else None
