"""Typed legal parameters: validate JSON values against the catalogue's types and back again.

The catalogue (`processes/parameters.json`) gives each parameter one of six types. Values arrive
as JSON (a `PUT`, the seed file) and are used by rule functions as Python values: `Decimal` for
numbers (never float: percentages are compared exactly, TC-5), `date` for dates. `None` is always
accepted because many parameters have no value in the regulation (e.g. `materials.maxAidAmount`).
"""
from __future__ import annotations

import json
import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

TYPES = {"number", "string", "bool", "date", "list", "object"}

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# Plain decimal text only: to_json writes non-integral numbers this way and must read them back.
_DECIMAL_TEXT = re.compile(r"-?\d+(\.\d+)?")

_REQUIRED_KEYS = (
    "name", "type", "default", "amb", "rules",
    "label_es", "label_en", "explanation_es", "explanation_en",
)


def _kind(value: Any) -> str:
    """JSON-ish name of a value's type, in Spanish: an admin reads these beside the field."""
    if value is None:
        return "un valor vacío"
    if isinstance(value, bool):
        return "sí o no (true/false)"
    if isinstance(value, (int, float, Decimal)):
        return "un número"
    if isinstance(value, str):
        return "un texto"
    if isinstance(value, list):
        return "una lista"
    if isinstance(value, dict):
        return "un objeto"
    return type(value).__name__


def _check_choice(value: Any, choices, what: str = "El valor") -> None:
    if choices is not None and value not in choices:
        allowed = ", ".join(str(c) for c in choices)
        raise ValueError(f"{what} «{value}» no está permitido; escoja uno de: {allowed}")


def _coerce_number(value: Any) -> Decimal:
    # bool is an int subclass: `true` must never pass as 1.
    if isinstance(value, bool):
        raise ValueError("Se espera un número, como 20 o 12.5; recibió sí o no (true/false).")
    if isinstance(value, str):
        if not _DECIMAL_TEXT.fullmatch(value):
            raise ValueError(f"Se espera un número, como 20 o 12.5; escribió «{value}».")
        number = Decimal(value)
    elif isinstance(value, (int, float, Decimal)):
        try:
            number = Decimal(str(value))
        except InvalidOperation as exc:
            raise ValueError(f"Se espera un número, como 20 o 12.5; recibió «{value}».") from exc
    else:
        raise ValueError(f"Se espera un número, como 20 o 12.5; recibió {_kind(value)}.")
    if not number.is_finite():
        raise ValueError(f"Se espera un número finito; recibió «{value}».")
    return number


def _coerce_date(value: Any) -> date:
    if isinstance(value, datetime):
        raise ValueError("Se espera una fecha (AAAA-MM-DD) sin hora.")
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value):
        raise ValueError(f"Se espera una fecha como AAAA-MM-DD, p. ej. 2024-07-04; escribió «{value}».")
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"La fecha «{value}» no existe; escriba una fecha real como AAAA-MM-DD.") from exc


# The shape a catalogue entry may give its value beyond its type (JSON Schema's words).
SHAPE_KEYS = ("minimum", "maximum", "integer", "pattern", "pattern_es", "pattern_en")


def _plain(number: Decimal) -> str:
    return str(int(number)) if number == number.to_integral_value() else str(number)


def check_shape(entry: dict, typed: Any) -> None:
    """Refuse a typed value outside its entry's range or shape, in Spanish (an admin reads it
    beside the field): `integer`, `minimum`, `maximum` for numbers, `pattern` (described by
    `pattern_es`) for strings. `None` always passes: it means "no value in the regulation"."""
    if typed is None:
        return
    if entry["type"] == "number":
        if entry.get("integer") and typed != typed.to_integral_value():
            raise ValueError(f"Debe ser un número entero; {_plain(typed)} tiene decimales.")
        if "minimum" in entry and typed < Decimal(str(entry["minimum"])):
            raise ValueError(f"Debe ser al menos {entry['minimum']}; escribió {_plain(typed)}.")
        if "maximum" in entry and typed > Decimal(str(entry["maximum"])):
            raise ValueError(f"Debe ser como máximo {entry['maximum']}; escribió {_plain(typed)}.")
    if entry["type"] == "string" and entry.get("pattern") and not re.fullmatch(entry["pattern"], typed):
        raise ValueError(f"Debe tener la forma {entry.get('pattern_es') or entry['pattern']}; escribió «{typed}».")


def coerce(type_name: str, value: Any, *, choices=None, item_choices=None) -> Any:
    """Validate a JSON `value` as `type_name` and return it as the Python value rules use.

    number → `Decimal` (int, float, Decimal or plain decimal text; never a boolean);
    string → `str`; bool → `bool` (only true/false, not 0/1); date → `date` from ``YYYY-MM-DD``;
    list → `list` (each item checked against `item_choices` when given); object → `dict`.
    `None` passes for every type. Raises `ValueError` naming, in Spanish, the expected type or the choices.
    """
    if type_name not in TYPES:
        raise ValueError(f"unknown parameter type {type_name!r}; expected one of: "
                         + ", ".join(sorted(TYPES)))
    if value is None:
        return None
    if type_name == "number":
        result: Any = _coerce_number(value)
    elif type_name == "string":
        if not isinstance(value, str):
            raise ValueError(f"Se espera un texto; recibió {_kind(value)}.")
        result = value
    elif type_name == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"Se espera sí o no (true o false); recibió {_kind(value)}.")
        result = value
    elif type_name == "date":
        result = _coerce_date(value)
    elif type_name == "list":
        if not isinstance(value, list):
            raise ValueError(f'Se espera una lista, p. ej. ["a", "b"]; recibió {_kind(value)}.')
        if item_choices is not None:
            for item in value:
                _check_choice(item, item_choices, "El elemento")
        result = list(value)
    else:
        if not isinstance(value, dict):
            raise ValueError(f"Se espera un objeto JSON {{…}}; recibió {_kind(value)}.")
        if not all(isinstance(key, str) for key in value):
            raise ValueError("Se espera un objeto cuyas claves sean textos.")
        result = dict(value)
    _check_choice(value if type_name != "number" else result, choices)
    return result


def to_json(type_name: str, value: Any) -> Any:
    """Turn a typed value back into JSON.

    A `Decimal` becomes a JSON integer when it is integral (50, 36) and otherwise the string of
    the Decimal ("12.5"): a float would lose exactness, and `coerce` reads such strings back. A
    `date` becomes ``YYYY-MM-DD``. Other values are already JSON.
    """
    if type_name not in TYPES:
        raise ValueError(f"unknown parameter type {type_name!r}")
    if value is None:
        return None
    if type_name == "number":
        number = value if isinstance(value, Decimal) else _coerce_number(value)
        if number == number.to_integral_value():
            return int(number)
        return str(number)
    if type_name == "date":
        return _coerce_date(value).isoformat()
    return value


def _check_entry(entry: Any, seen: set[str]) -> None:
    if not isinstance(entry, dict):
        raise ValueError(f"catalogue entry {entry!r} is not an object")
    missing = [key for key in _REQUIRED_KEYS if key not in entry]
    name = entry.get("name", "<unnamed>")
    if missing:
        raise ValueError(f"parameter {name}: missing {', '.join(missing)}")
    if name in seen:
        raise ValueError(f"parameter {name} appears twice")
    seen.add(name)
    type_name = entry["type"]
    if type_name not in TYPES:
        raise ValueError(f"parameter {name}: unknown type {type_name!r}")
    if "choices" in entry and type_name not in ("string", "number"):
        raise ValueError(f"parameter {name}: choices only apply to string or number values")
    if "item_choices" in entry and type_name != "list":
        raise ValueError(f"parameter {name}: item_choices only apply to lists")
    if not isinstance(entry["rules"], list):
        raise ValueError(f"parameter {name}: rules must be a list of rule ids")
    if any(k in entry for k in ("minimum", "maximum", "integer")) and type_name != "number":
        raise ValueError(f"parameter {name}: minimum, maximum and integer only apply to numbers")
    if "pattern" in entry and type_name != "string":
        raise ValueError(f"parameter {name}: pattern only applies to strings")
    try:
        check_shape(entry, coerce(type_name, entry["default"], choices=entry.get("choices"),
                                  item_choices=entry.get("item_choices")))
    except ValueError as exc:
        raise ValueError(f"parameter {name}: default does not fit its type: {exc}") from exc


def load_catalog(path: str | Path) -> list[dict]:
    """Read the parameter catalogue and check its shape and that every default coerces.

    Returns the entries as written (JSON values); use `coerce` to get typed values.
    """
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    if not isinstance(entries, list):
        raise ValueError("the parameter catalogue must be a JSON array")
    seen: set[str] = set()
    for entry in entries:
        _check_entry(entry, seen)
    return entries
