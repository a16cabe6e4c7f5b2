"""What the registry pages share: reading a posted form through the API's own marshmallow schemas
(so a page accepts exactly what POST/PATCH /api/v1/registries/... accept), and their errors in
the user's language."""
from __future__ import annotations

import re

from flask import request
from flask_babel import gettext as _
from marshmallow import ValidationError

from api.web.views.common import Refusal

def _friendly(message: str) -> str:
    """marshmallow's English messages, recognised by their wording, in the user's language."""
    if message.startswith("Missing data for required field"):
        return _("Este campo es obligatorio.")
    if message.startswith("Not a valid date"):
        return _("Escriba una fecha válida (aaaa-mm-dd).")
    if message.startswith("Not a valid integer"):
        return _("Escriba un número entero.")
    if message.startswith(("Must be greater", "Must be less")):
        return _("El valor está fuera del intervalo permitido.")
    if message.startswith("Must be one of"):
        return _("Escoja una de las opciones.")
    bounds = re.match(r"Length must be between (\d+) and (\d+)", message)
    if bounds:
        return _("Escriba entre %(min)s y %(max)s caracteres.", min=bounds.group(1), max=bounds.group(2))
    return message


def _flatten(messages, prefix="") -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, value in (messages or {}).items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, path + "."))
        else:
            out[path] = [_friendly(str(m)) for m in (value if isinstance(value, list) else [value])]
    return out


def posted(*names: str, checkboxes: tuple[str, ...] = ()) -> dict:
    """The named text fields as typed (stripped) plus the checkboxes as booleans."""
    form = {name: request.form.get(name, "").strip() for name in names}
    form.update({name: request.form.get(name) == "true" for name in checkboxes})
    return form


def load(schema, data: dict, keep: tuple[str, ...] = ()):
    """(arguments, None) or (None, Refusal with per-field errors); empty text means "not given",
    except for the fields in `keep`, whose emptiness the schema must judge (a name erased)."""
    given = {k: v for k, v in data.items() if v != "" or k in keep}
    try:
        return schema.load(given), None
    except ValidationError as exc:
        return None, Refusal(422, _("Revise los campos marcados."), _flatten(exc.messages))
