"""How many failed logins the throttle tolerates (settings build it from the environment)."""
from __future__ import annotations

from dataclasses import dataclass
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
