"""The `date` and `datetime` a script sees: `now()`, `today()` and `utcnow()` read the engine clock.

Timers and the helpers `now()` / `today()` read the command's instant (the manual clock in demos
and tests); a script calling `datetime.now()` read the machine's, so under the manual clock one
case saw two times. These classes answer with the instant of the command whose script runs
(Python's own meaning otherwise: a naive `now()` is the host's local time of that instant), and
the machine's time only outside a command.

Everything else is the standard class: `datetime(2024, 4, 1)`, `datetime.fromisoformat(...)`,
`date.fromordinal(...)` all make plain `datetime`/`date` objects (the metaclass builds the base
class), because the workflow serializer registers those classes and not subclasses.
"""
from __future__ import annotations

from datetime import date, datetime, timezone

from engine.scripting import current


def _engine_instant() -> datetime | None:
    binding = current.binding.get()
    return binding.ctx.now if binding is not None else None


class _PlainInstances(type):
    def __call__(cls, *args, **kwargs):
        return cls.plain(*args, **kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls.plain)

    def __subclasscheck__(cls, other):
        return issubclass(other, cls.plain)


class EngineDatetime(datetime, metaclass=_PlainInstances):
    plain = datetime

    @classmethod
    def now(cls, tz=None):
        instant = _engine_instant()
        if instant is None:
            return datetime.now(tz)
        return instant.astimezone(tz) if tz is not None else instant.astimezone().replace(tzinfo=None)

    @classmethod
    def utcnow(cls):
        instant = _engine_instant()
        if instant is None:
            return datetime.now(timezone.utc).replace(tzinfo=None)
        return instant.astimezone(timezone.utc).replace(tzinfo=None)

    @classmethod
    def today(cls):
        return cls.now()


class EngineDate(date, metaclass=_PlainInstances):
    plain = date

    @classmethod
    def today(cls):
        return EngineDatetime.now().date()
