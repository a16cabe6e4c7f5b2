"""What both players report about one scenario, in the same shape, so they can be compared.

Neither player's code is shared with the other: this module holds only the shape and the JSON
normalization (Tramite answers in JSON; the library's data is Python).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from decimal import Decimal


class Diverged(AssertionError):
    """The two players ended differently (state, path or data)."""


class Refused(AssertionError):
    """Tramite refused at deploy a diagram the scenario expects to run (or the other way round)."""


class ServerError(AssertionError):
    """Tramite answered 5xx."""


class Unexpected(AssertionError):
    """Tramite answered a status the step does not expect (a missing endpoint, a refusal)."""


class Stuck(AssertionError):
    """A case sits `active` with nothing open, nothing waiting and no error."""


@dataclass
class Outcome:
    state: str                                  # completed | waiting | error | stuck
    steps: list[list[str]] = field(default_factory=list)   # element ids completed per step, sorted
    open_tasks: list[str] = field(default_factory=list)     # user tasks open at the end, sorted
    data: dict = field(default_factory=dict)
    error_element: str | None = None
    human_path: list[str] = field(default_factory=list)     # user/manual tasks completed, in order

    def path(self) -> list[str]:
        return [e for step in self.steps for e in step]


def _plain(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    return value


def normalized(data: dict) -> dict:
    """Data as JSON would carry it (Decimal as number or text, dates as ISO text)."""
    return json.loads(json.dumps(_plain(data), default=str, sort_keys=True))


def parse_duration(text: str) -> timedelta:
    """PT2H, P1D, PT30M, P2DT3H — the clock moves the scenarios make."""
    import re
    m = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?", text)
    if not m:
        raise ValueError(text)
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return timedelta(days=d, hours=h, minutes=mi, seconds=s)


def iso(instant: datetime) -> str:
    return instant.astimezone(timezone.utc).isoformat()


def evaluated(data: dict, scope: dict) -> dict:
    """Step data whose text values start with '=' are computed from what the task shows (its item):
    both players hand the same expression the data their side shows for that task."""
    try:
        return {k: (eval(v[1:], {}, dict(scope)) if isinstance(v, str) and v.startswith("=") else v)
                for k, v in data.items()}
    except NameError as exc:
        raise Diverged(f"the task does not show what its step reads: {exc}") from None
