"""Which values a case can save: JSON, plus Decimal, dates, times and UUIDs (the serializer's registry).

A script or a decision table can leave anything in a case's variables: `t = now().tzinfo`, a range,
bytes, a complex, NaN (PostgreSQL's jsonb refuses it even where Python's json writes it). Saving
then failed with a TypeError, a 500 after the step had run. The script engine checks each script's
variables with `first_unsaveable` and the case checks every step of the command before it saves.
"""
from __future__ import annotations

import math
from datetime import date, datetime, timedelta, tzinfo
from decimal import Decimal
from uuid import UUID


_SCALARS = (str, bool, int, type(None), Decimal, date, datetime, timedelta, UUID)
_KEYS = (str, int, float, bool, type(None))
_CONTAINERS = (list, tuple, set)


def _problem(value, path: str, on_path: set) -> str | None:
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} holds {value!r}, which JSON cannot store"
    if isinstance(value, Decimal):
        return None if value.is_finite() else f"{path} holds Decimal({str(value)!r}), which is not a number"
    if isinstance(value, _SCALARS):
        return None
    if isinstance(value, (dict, *_CONTAINERS)):
        if id(value) in on_path:
            return f"{path} holds a {type(value).__name__} that contains itself"
        on_path.add(id(value))
        try:
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, _KEYS):
                        return f"{path} has a key of type {type(key).__name__} ({key!r}); keys must be text or numbers"
                    found = _problem(item, f"{path}[{key!r}]", on_path)
                    if found:
                        return found
            else:
                for index, item in enumerate(value):
                    found = _problem(item, f"{path}[{index}]", on_path)
                    if found:
                        return found
        finally:
            on_path.discard(id(value))
        return None
    kind = "tzinfo" if isinstance(value, tzinfo) else type(value).__name__
    return f"{path} holds a {kind} ({_short(value)}), which a case cannot keep"


def _short(value) -> str:
    try:
        text = repr(value)
    except Exception:  # an object whose repr fails still gets a message
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def first_unsaveable(data: dict) -> tuple[str, str] | None:
    """(variable name, NON_JSON_VALUE message) for the first variable of `data` a case cannot save."""
    for name in list(data):
        found = _problem(data[name], f"variable {name}", set())
        if found:
            return name, f"NON_JSON_VALUE: {found}; keep text, numbers, Decimal, dates, lists or dicts"
    return None
