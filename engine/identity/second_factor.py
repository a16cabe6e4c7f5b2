"""The TOTP second factor's arithmetic (RFC 6238 with pyotp): secrets, codes, recovery codes.

Codes are checked against the machine's time, as tokens are: the phone that shows them knows
nothing of a training clock. A code is good once: the time step it matched is kept, and a code of
that step or an earlier one is refused (a code seen over a shoulder cannot be replayed).
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

import pyotp

ISSUER = "Trámite"
RECOVERY_CODES = 10
# One step either side: a phone whose clock is 30 seconds off still signs in.
WINDOW = 1
POWERFUL_ROLES = frozenset({"admin", "process_owner"})


def new_secret() -> str:
    return pyotp.random_base32()


def provisioning_uri(secret: str, username: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=username, issuer_name=ISSUER)


def matching_step(secret: str, code: str, at: datetime, last_step: int | None) -> int | None:
    """The time step `code` belongs to (within WINDOW of `at`), if it is later than `last_step`."""
    code = "".join(code.split())
    if not (code.isdigit() and len(code) == 6):
        return None
    totp = pyotp.TOTP(secret)
    now_step = totp.timecode(at)
    for step in range(now_step - WINDOW, now_step + WINDOW + 1):
        if (last_step is None or step > last_step) and secrets.compare_digest(totp.generate_otp(step), code):
            return step
    return None


def new_recovery_codes() -> list[str]:
    """Ten codes like `k7qd-m2xa-9fpe` (60 bits each): hashed with sha256 is enough for that."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return ["-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3))
            for _ in range(RECOVERY_CODES)]


def code_hash(code: str) -> str:
    return hashlib.sha256("".join(code.lower().split()).encode()).hexdigest()


def required_for(roles, required_by_setting: bool, enrolled: bool) -> bool:
    """Whoever enrolled is always asked; admins and process owners too when the setting says so."""
    return enrolled or (required_by_setting and bool(POWERFUL_ROLES & set(roles)))


def state_of(user, required_by_setting: bool) -> str | None:
    """What a login with the right password still needs: "verify" (a code), "enrol" (set one up
    first: required but not enrolled) or None."""
    enrolled = user.totp_confirmed_at is not None
    if not required_for(user.role_ids, required_by_setting, enrolled):
        return None
    return "verify" if enrolled else "enrol"
