"""How many failed logins the throttle tolerates (settings build it from the environment)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta


@dataclass(frozen=True)
class LoginPolicy:
    """At most `per_username` failures for one username and `per_address` from one client address
    within `window`. The address limit is higher: an office behind one address shares it."""

    window: timedelta = timedelta(minutes=15)
    per_username: int = 5
    per_address: int = 30
    # TRAMITE_SECOND_FACTOR=required: admins and process owners sign in with a TOTP code too
    # (anyone who enrolled is always asked for one).
    second_factor_required: bool = False
    local_passwords: bool = True


@dataclass(frozen=True)
class DirectoryLogin:
    """Signing staff in with the agency's directory over OpenID Connect (Authorization Code +
    PKCE): TRAMITE_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET; the claims that carry the username,
    the groups and the office (TRAMITE_OIDC_USERNAME_CLAIM, _GROUPS_CLAIM, _OFFICE_CLAIM); and
    TRAMITE_OIDC_GROUP_ROLES, a JSON object {directory group: Trámite role or [roles]}. The roles
    of a directory user are exactly those their groups map to, at each login."""

    issuer: str
    client_id: str
    client_secret: str
    group_roles: dict = field(default_factory=dict)
    username_claim: str = "preferred_username"
    groups_claim: str = "groups"
    office_claim: str = "office"
    scopes: str = "openid profile groups office"

    def roles_for(self, groups) -> list[str]:
        if isinstance(groups, str):
            groups = [groups]
        roles: set[str] = set()
        for group in groups if isinstance(groups, list) else []:
            mapped = self.group_roles.get(group) if isinstance(group, str) else None
            roles.update([mapped] if isinstance(mapped, str) else (mapped or []))
        return sorted(roles)

    @classmethod
    def from_env(cls, env) -> "DirectoryLogin | None":
        issuer = (env.get("TRAMITE_OIDC_ISSUER") or "").strip()
        if not issuer:
            return None
        mapping = json.loads(env.get("TRAMITE_OIDC_GROUP_ROLES") or "{}")
        if not isinstance(mapping, dict):
            raise ValueError("TRAMITE_OIDC_GROUP_ROLES must be a JSON object {group: role or [roles]}")
        extra = {k: env[f"TRAMITE_OIDC_{k.upper()}"] for k in ("username_claim", "groups_claim", "office_claim", "scopes")
                 if env.get(f"TRAMITE_OIDC_{k.upper()}")}
        return cls(issuer, env.get("TRAMITE_OIDC_CLIENT_ID", ""), env.get("TRAMITE_OIDC_CLIENT_SECRET", ""),
                   mapping, **extra)


def local_passwords_allowed(env) -> bool:
    """TRAMITE_LOCAL_PASSWORDS=off: only the directory signs people in (agency API tokens stay)."""
    return (env.get("TRAMITE_LOCAL_PASSWORDS") or "on").strip().lower() not in ("off", "0", "false", "no")
