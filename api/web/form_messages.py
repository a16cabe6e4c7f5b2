"""Validation messages that say what is expected (issue 16, item 10): "cuarenta mil" in an amount
asks for the amount in figures, −500 says the least allowed, a number field says it wants a number.

The engine answers with jsonschema's English message (part of the API); the value and the bound
are read back from it. Wording this module does not know goes on to `labels.friendly`.
"""
from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from api.web import labels

# A database restart or failover (engine.errors.DatabaseUnavailable, 503): the page and the form as
# typed stay, with what to do.
DATABASE_UNAVAILABLE = _l("La base de datos no responde en este momento. Vuelva a intentarlo en unos segundos; "
                          "si acababa de guardar algo, recargue la página y compruébelo antes de repetirlo.")

_PATTERN = re.compile(r"^(?P<value>.+?) does not match (?P<pattern>'.*')$", re.S)
_BOUND = re.compile(r"^(?P<value>\S+) is (?P<kind>less|greater) than (?P<inclusive>or equal to )?the "
                    r"(minimum|maximum) of (?P<bound>\S+)$")
_NOT_NUMBER = re.compile(r"^(?P<value>.+?) is not of type '(number|integer)'")


def _money_pattern(pattern: str) -> bool:
    return r"\d" in pattern and r"\.\d{1,2}" in pattern


def _date_pattern(pattern: str) -> bool:
    return r"\d{4}-\d{2}-\d{2}" in pattern


def _shown(value: str) -> str:
    value = value.strip()
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value


def explain(message: str) -> str:
    """The message in words a person can act on."""
    found = _PATTERN.match(message)
    if found:
        # The message quotes the pattern as Python's repr does: backslashes doubled.
        value, pattern = _shown(found["value"]), found["pattern"].replace("\\\\", "\\")
        if _money_pattern(pattern):
            if value.lstrip().startswith(("-", "−")):
                return _("La cantidad no puede ser negativa: escriba 0 o más, en números (por ejemplo 500.00).")
            return _("Escriba la cantidad en números, con hasta dos decimales (por ejemplo 40000.00); "
                     "«%(value)s» no es una cantidad.", value=value)
        if _date_pattern(pattern):
            return _("Escriba la fecha como AAAA-MM-DD (por ejemplo 2026-03-15); «%(value)s» no lo es.", value=value)
        return _("«%(value)s» no tiene el formato que pide este campo.", value=value)
    found = _BOUND.match(message)
    if found:
        bound = found["bound"]
        if found["kind"] == "less":
            if found["inclusive"]:
                return _("Debe ser mayor que %(bound)s; escribió %(value)s.", bound=bound, value=found["value"])
            return _("Debe ser %(bound)s o más; escribió %(value)s.", bound=bound, value=found["value"])
        if found["inclusive"]:
            return _("Debe ser menor que %(bound)s; escribió %(value)s.", bound=bound, value=found["value"])
        return _("Debe ser %(bound)s o menos; escribió %(value)s.", bound=bound, value=found["value"])
    found = _NOT_NUMBER.match(message)
    if found:
        return _("Escriba un número en cifras (por ejemplo 1500); «%(value)s» no lo es.", value=_shown(found["value"]))
    return labels.friendly(message)


def friendly_errors(errors: dict) -> dict[str, list[str]]:
    """`labels.friendly_errors` with the messages this module explains better put first in words."""
    return labels.friendly_errors({path: [explain(str(m)) for m in (ms if isinstance(ms, list) else [ms])]
                                   for path, ms in (errors or {}).items()})
