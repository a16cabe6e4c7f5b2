"""A user's e-mail address: where their reminders and digest go. Checked here, once, for the API,
the admin pages, the command line and the demo seed alike; the SMTP server is the real judge, this
only refuses what could never be delivered (no @, spaces, no dot in the domain)."""
from __future__ import annotations

import re

from engine.errors import ValidationFailed

MAX_LENGTH = 254  # RFC 5321's longest path
_SHAPE = re.compile(r"^[^@\s<>(),;:\"\[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")
NOT_AN_ADDRESS = "No es una dirección de correo electrónico válida (por ejemplo, nombre@agencia.pr.gov)."
TOO_LONG = f"La dirección de correo electrónico no puede tener más de {MAX_LENGTH} caracteres."


def normalize(value) -> str | None:
    """The address to store: trimmed, its domain in lower case; empty is none; anything else that is
    not an address is refused (422 `errors.email`)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationFailed("email is not text", {"email": [NOT_AN_ADDRESS]})
    address = value.strip()
    if not address:
        return None
    if len(address) > MAX_LENGTH:
        raise ValidationFailed("email too long", {"email": [TOO_LONG]})
    if not _SHAPE.match(address) or ".." in address:
        raise ValidationFailed("email is not an address", {"email": [NOT_AN_ADDRESS]})
    local, _, domain = address.rpartition("@")
    return f"{local}@{domain.lower()}"
