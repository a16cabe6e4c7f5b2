"""Each running deadline's arithmetic in words (API.md §Legal time `explanation`, issue 19).

Read from what the case already recorded, never written per rule: the decision that fixed the last
day (its inputs name the event's date and the days, its details whether the day rolled forward,
TC-1 and TC-2), the holidays in force with their names (the managed calendar), every resumption
that moved the deadline, and a holiday declared after it was fixed (`deadline_holiday`).
"""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.config import holidays as holiday_calendar
from engine.persistence.models import AuditEvent
from engine.rules import calendar
from engine.rules.reasons.format import day_in_words

_WEEKDAYS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


def _day(value: date) -> str:
    return f"{_WEEKDAYS[value.weekday()]} {day_in_words(value)}"


def _as_day(value) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _why_not_business(day: date, holidays) -> str:
    """Why a day is not a business day; a holiday of the managed calendar by its name (`holidays`
    maps a day to its Spanish name, or to None for a day of the `calendar.holidays` parameter)."""
    if day.weekday() in (5, 6):
        return "cae en sábado" if day.weekday() == 5 else "cae en domingo"
    if day in holidays:
        name = holidays[day] if isinstance(holidays, dict) else None
        return f"es feriado ({name})" if name else "es feriado"
    return "no es laborable"


def _skipped(nominal: date, rolled_to: date, holidays) -> str:
    """The holidays the roll-forward passed over after the nominal day (a weekend then a Monday holiday)."""
    days = [date.fromordinal(n) for n in range(nominal.toordinal() + 1, rolled_to.toordinal())]
    return "".join(f", y el {_day(d)} {_why_not_business(d, holidays)}" for d in days
                   if d.weekday() < 5 and d in holidays)


def _fixing_decision(events: list, last: date) -> dict | None:
    """The latest decision whose outcome is the deadline's last day and that counted days from a date."""
    for event in reversed(events):
        data = event.data or {}
        inputs = data.get("inputs") or {}
        if event.type == "decision" and _as_day(data.get("outcome")) == last and isinstance(inputs.get("days"), int):
            return data
    return None


def _holiday_text(event, move: dict) -> str:
    before = calendar.last_day_of(datetime.fromisoformat(move["before"]))
    after = calendar.last_day_of(datetime.fromisoformat(move["after"]))
    data = event.data or {}
    return (f"El {_day(before)} se declaró feriado ({data.get('name_es') or 'feriado'}) después de fijarse el plazo: "
            f"el último día pasó al siguiente día laborable, {_day(after)} (TC-2).") if before and after else ""


def explain(deadline: dict, events: list, holidays) -> str:
    due = deadline["due_at"]
    due = datetime.fromisoformat(due) if isinstance(due, str) else due
    last = calendar.last_day_of(due)
    if last is None:
        return f"Vence el {_day(calendar.local_date(due))} a las {due.astimezone(calendar.PUERTO_RICO):%H:%M}."
    moves = [(e, m) for e in events if e.type in ("case_resumed", "deadline_holiday")
             for m in (e.data or {}).get("deadlines", []) if m.get("element_id") == deadline["element_id"]]
    first = calendar.last_day_of(datetime.fromisoformat(moves[0][1]["before"])) if moves else last
    words = [f"Último día para actuar: {_day(last)}."]
    decision = _fixing_decision(events, first) if first else None
    if decision:
        inputs = decision["inputs"]
        start = next((_as_day(v) for k, v in inputs.items() if k != "days" and _as_day(v)), None)
        days = inputs["days"]
        if start:
            words.append(f"Se cuentan {days} días naturales desde el {_day(start)}: ese día no cuenta y el "
                         f"último sí (TC-1).")
        nominal = _as_day(decision.get("nominal_last_day"))
        if decision.get("rolled_forward") and nominal:
            words.append(f"El día {days}, {_day(nominal)}, {_why_not_business(nominal, holidays)}"
                         f"{_skipped(nominal, first, holidays)}: el plazo pasa al siguiente día laborable, "
                         f"{_day(first)} (TC-2).")
    for event, move in moves:
        if event.type == "deadline_holiday":
            words.append(_holiday_text(event, move))
            continue
        before = calendar.last_day_of(datetime.fromisoformat(move["before"]))
        after = calendar.last_day_of(datetime.fromisoformat(move["after"]))
        days = (event.data or {}).get("days", 0)
        if before and after:
            text = (f"El caso estuvo suspendido {days} días naturales (reanudado el "
                    f"{_day(calendar.local_date(event.at))}): el último día pasó del {_day(before)} ")
            shifted = before.toordinal() + days
            if after.toordinal() != shifted:
                nominal = date.fromordinal(shifted)
                text += f"al {_day(nominal)}, que {_why_not_business(nominal, holidays)}, y de ahí al {_day(after)} (TC-2)."
            else:
                text += f"al {_day(after)}."
            words.append(text)
    return " ".join(words)


def with_explanations(session: Session, instance_id: int, deadlines: list[dict], holidays) -> list[dict]:
    """The deadlines with their `explanation`; one read of the case's decisions and resumptions."""
    if not deadlines:
        return deadlines
    table = AuditEvent.__table__
    events = session.execute(select(table.c.type, table.c.data, table.c.at).where(
        table.c.instance_id == instance_id, table.c.type.in_(("decision", "case_resumed", "deadline_holiday")))
        .order_by(table.c.id)).all()
    blocked = calendar.parse_holidays(holidays or [])
    named = {day: None for day in blocked}
    named.update({day: n["name_es"] for day, n in holiday_calendar.names(session, blocked).items()})
    return [{**d, "explanation": explain(d, events, named)} for d in deadlines]
