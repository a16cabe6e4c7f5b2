"""Access codes and applicant tokens: random, readable, kept only as hashes.

A code is 20 characters of an alphabet without look-alikes (no 0/O, 1/I/L), in groups of four
("K7QH-3MXP-…"): about 98 bits from `secrets`. It is stored with the password hashing (scrypt,
salted), so a stolen table does not give the codes back; the comparison ignores case, spaces and
dashes, as a person types it from paper."""
from __future__ import annotations

import hashlib
import secrets

from engine.identity.accounts import check_password, hash_password

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
GROUPS, GROUP = 5, 4
TOKEN_PREFIX = "apl_"  # an applicant token: never looked up as a staff token, nor a staff one here
# What an unknown case number's attempt is checked against, so it costs one scrypt like a known one.
_DECOY = hash_password("decoy-code-nobody-holds")


def new_code() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(GROUP)) for _ in range(GROUPS))


def normalize(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


def hash_code(code: str) -> str:
    return hash_password(normalize(code))


def code_matches(code: str, stored: str | None) -> bool:
    """True for the right code; a case with no code (None) costs the same scrypt."""
    if stored is None:
        check_password(normalize(code), _DECOY)
        return False
    return check_password(normalize(code), stored)


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
