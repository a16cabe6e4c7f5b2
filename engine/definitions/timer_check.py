"""Deploy-time check of timer expressions: what can be known before a case runs, is known.

A timer's timeDate/timeDuration/timeCycle is a Python expression (SPIFFWORKFLOW.md §Timers). One
that names case data is checked by the sandbox's static check only; one that is a constant is
evaluated here with the library's own ISO 8601 parsers, so a malformed or zero period is refused
at deploy instead of failing (or firing in a loop, `R/PT0S`) inside a running case.
"""
from __future__ import annotations

import ast
import re
from datetime import datetime, timezone

from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition as Timer

# `P7D`, `PT0S`, `R6` written without quotes are Python names, never a duration.
_ISO_NAME = re.compile(r"^(P(\d+[YMWD])*(T(\d+[HMS])+)?|PT\d*|R\d*)$", re.IGNORECASE)
# Text that reads as ISO 8601 but is not even a Python expression (`2024-05-01T10:00:00`, `R/P1D`).
_ISO_TEXT = re.compile(r"^(R\d*/|P\d|PT\d|\d{4}-\d{2}-\d{2})", re.IGNORECASE)
# Durations counted in months or years need a starting day; any fixed one decides their sign.
_REFERENCE = datetime(2024, 1, 31, tzinfo=timezone.utc)


def problem(kind: str, source: str) -> str | None:
    """TIMER_INVALID's detail for one expression of kind timeDate/timeDuration/timeCycle, or None."""
    hint = f'write it quoted, "{source}"'
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        if _ISO_TEXT.match(source.strip()):
            return f"{source!r} is not a Python expression: {hint}"
        return None  # the sandbox's static check reports the syntax error itself
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    # Every name reads as ISO 8601 and one carries a number: `R/PT0S`, not a variable called `P`.
    if names and all(_ISO_NAME.match(n) for n in names) and any(any(c.isdigit() for c in n) for n in names):
        return f"{source!r} is read as Python names ({', '.join(names)}), not as a period: {hint}"
    try:
        value = ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None  # it depends on the case's data: it is evaluated when the timer starts
    if not isinstance(value, str):
        return f"{source!r} gives {type(value).__name__}, not ISO 8601 text"
    return _check_text(kind, value.strip())


def _check_text(kind: str, text: str) -> str | None:
    try:
        if kind == "timeDuration":
            seconds = Timer.get_timedelta_from_start(Timer.parse_iso_duration(text), _REFERENCE).total_seconds()
            return None if seconds > 0 else f"{text!r} is not a positive duration"
        if kind == "timeCycle":
            cycles, _start, duration = Timer.parse_iso_recurring_interval(text)
            if duration.total_seconds() <= 0:
                return f"{text!r} repeats every {duration.total_seconds():g} s: the period must be positive"
            return None
        value = Timer.parse_time_or_duration(text)
    except Exception as exc:  # the library's parsers raise plain errors on malformed text
        return f"{text!r} is not ISO 8601 for a {kind} ({type(exc).__name__}: {exc})"
    if not isinstance(value, datetime):
        return f"{text!r} is a duration, but timeDate needs a date and time (use timeDuration)"
    return None
