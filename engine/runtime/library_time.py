"""Makes SpiffWorkflow's timer code read the engine clock instead of the machine's time.

The library calls `datetime.now(timezone.utc)` inside its timer module and offers no hook
(SPIFFWORKFLOW.md §Timers). We replace that module's `datetime` name once with a subclass whose
`now()` reads a context variable that the engine sets around every command, so each thread and
each fired timer sees its own instant.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta, timezone

from SpiffWorkflow.bpmn.specs.event_definitions import timer as _timer_module

_engine_now: ContextVar[datetime | None] = ContextVar("tramite_engine_now", default=None)

# The library fires a timer only when its due instant is strictly before "now"; a deadline
# that falls due exactly at the engine's current instant must fire, so the library sees a
# microsecond more.
_STRICT_COMPARISON_NUDGE = timedelta(microseconds=1)


class _EngineDatetime(datetime):
    @classmethod
    def now(cls, tz=None):
        current = _engine_now.get()
        if current is None:
            return datetime.now(tz)
        current = current + _STRICT_COMPARISON_NUDGE
        return current.astimezone(tz) if tz is not None else current.astimezone(timezone.utc).replace(tzinfo=None)


_timer_module.datetime = _EngineDatetime


@contextmanager
def library_sees(instant: datetime):
    token = _engine_now.set(instant)
    try:
        yield
    finally:
        _engine_now.reset(token)
