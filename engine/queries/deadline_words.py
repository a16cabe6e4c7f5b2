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

_WEEKDAYS = {"es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
             "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")}
# One sentence per kind of fact (never per rule), Spanish first: the law's own words, and the
# `explanation` of the API. English is for the English pages only, which ask for it by language.
_WORDS = {
    "es": {"due_at": "Vence el {day} a las {time}.", "last": "Último día para actuar: {day}.",
           "counted": "Se cuentan {days} días naturales desde el {start}: ese día no cuenta y el último sí (TC-1).",
           "rolled": "El día {days}, {nominal}, {why}{skipped}: el plazo pasa al siguiente día laborable, {day} (TC-2).",
           "skipped": ", y el {day} {why}", "saturday": "cae en sábado", "sunday": "cae en domingo",
           "holiday_named": "es feriado ({name})", "holiday": "es feriado", "not_business": "no es laborable",
           "declared": "El {before} se declaró feriado{name} después de fijarse el plazo: el último día pasó al "
                       "siguiente día laborable, {after} (TC-2).",
           "suspended": "El caso estuvo suspendido {days} días naturales (reanudado el {resumed}): el último día "
                        "pasó del {before} ",
           "to_rolled": "al {nominal}, que {why}, y de ahí al {after} (TC-2).", "to": "al {after}."},
    "en": {"due_at": "Due on {day} at {time}.", "last": "Last day to act: {day}.",
           "counted": "{days} calendar days are counted from {start}: that day does not count and the last one "
                      "does (TC-1).",
           "rolled": "Day {days}, {nominal}, {why}{skipped}: the term moves to the next business day, {day} (TC-2).",
           "skipped": ", and {day} {why}", "saturday": "falls on a Saturday", "sunday": "falls on a Sunday",
           "holiday_named": "is a holiday ({name})", "holiday": "is a holiday", "not_business": "is not a business day",
           "declared": "{before} was declared a holiday{name} after the term was fixed: the last day moved to the "
                       "next business day, {after} (TC-2).",
           "suspended": "The case was suspended for {days} calendar days (resumed on {resumed}): the last day "
                        "moved from {before} ",
           "to_rolled": "to {nominal}, which {why}, and from there to {after} (TC-2).", "to": "to {after}."},
}


def _day(value: date, lang: str) -> str:
    weekday = _WEEKDAYS[lang][value.weekday()]
    return f"{weekday}, {day_in_words(value, lang)}" if lang == "en" else f"{weekday} {day_in_words(value)}"


def _as_day(value) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _why_not_business(day: date, holidays, lang: str) -> str:
    """Why a day is not a business day; a holiday of the managed calendar by its name (`holidays`
    maps a day to its {language: name}, or to None for a day of the `calendar.holidays` parameter)."""
    words = _WORDS[lang]
    if day.weekday() in (5, 6):
        return words["saturday"] if day.weekday() == 5 else words["sunday"]
    if day in holidays:
        name = (holidays[day] or {}).get(lang) if isinstance(holidays, dict) else None
        return words["holiday_named"].format(name=name) if name else words["holiday"]
    return words["not_business"]


def _skipped(nominal: date, rolled_to: date, holidays, lang: str) -> str:
    """The holidays the roll-forward passed over after the nominal day (a weekend then a Monday holiday)."""
    days = [date.fromordinal(n) for n in range(nominal.toordinal() + 1, rolled_to.toordinal())]
    return "".join(_WORDS[lang]["skipped"].format(day=_day(d, lang), why=_why_not_business(d, holidays, lang))
                   for d in days if d.weekday() < 5 and d in holidays)


def _fixing_decision(events: list, last: date) -> dict | None:
    """The latest decision whose outcome is the deadline's last day and that counted days from a date."""
    for event in reversed(events):
        data = event.data or {}
        inputs = data.get("inputs") or {}
        if event.type == "decision" and _as_day(data.get("outcome")) == last and isinstance(inputs.get("days"), int):
            return data
    return None


def _holiday_text(event, move: dict, holidays, lang: str) -> str:
    before = calendar.last_day_of(datetime.fromisoformat(move["before"]))
    after = calendar.last_day_of(datetime.fromisoformat(move["after"]))
    if not (before and after):
        return ""
    data = event.data or {}
    # The name the history recorded, else the managed calendar's; a day of the parameter has none.
    name = data.get(f"name_{lang}") or ((holidays or {}).get(before) or {}).get(lang) or data.get("name_es")
    return _WORDS[lang]["declared"].format(before=_day(before, lang), name=f" ({name})" if name else "",
                                           after=_day(after, lang))


def _suspension_text(event, move: dict, holidays, lang: str) -> str:
    words = _WORDS[lang]
    before = calendar.last_day_of(datetime.fromisoformat(move["before"]))
    after = calendar.last_day_of(datetime.fromisoformat(move["after"]))
    days = (event.data or {}).get("days", 0)
    if not (before and after):
        return ""
    text = words["suspended"].format(days=days, resumed=_day(calendar.local_date(event.at), lang),
                                     before=_day(before, lang))
    shifted = before.toordinal() + days
    if after.toordinal() == shifted:
        return text + words["to"].format(after=_day(after, lang))
    nominal = date.fromordinal(shifted)
    return text + words["to_rolled"].format(nominal=_day(nominal, lang), after=_day(after, lang),
                                            why=_why_not_business(nominal, holidays, lang))


def explain(deadline: dict, events: list, holidays, lang: str = "es") -> str:
    """The deadline in words in `lang` ("es" or "en"), from the case's events and the named holidays."""
    words = _WORDS[lang]
    due = deadline["due_at"]
    due = datetime.fromisoformat(due) if isinstance(due, str) else due
    last = calendar.last_day_of(due)
    if last is None:
        return words["due_at"].format(day=_day(calendar.local_date(due), lang),
                                      time=f"{due.astimezone(calendar.PUERTO_RICO):%H:%M}")
    moves = [(e, m) for e in events if e.type in ("case_resumed", "deadline_holiday")
             for m in (e.data or {}).get("deadlines", []) if m.get("element_id") == deadline["element_id"]]
    first = calendar.last_day_of(datetime.fromisoformat(moves[0][1]["before"])) if moves else last
    out = [words["last"].format(day=_day(last, lang))]
    decision = _fixing_decision(events, first) if first else None
    if decision:
        inputs = decision["inputs"]
        start = next((_as_day(v) for k, v in inputs.items() if k != "days" and _as_day(v)), None)
        days = inputs["days"]
        if start:
            out.append(words["counted"].format(days=days, start=_day(start, lang)))
        nominal = _as_day(decision.get("nominal_last_day"))
        if decision.get("rolled_forward") and nominal:
            out.append(words["rolled"].format(days=days, nominal=_day(nominal, lang), day=_day(first, lang),
                                              why=_why_not_business(nominal, holidays, lang),
                                              skipped=_skipped(nominal, first, holidays, lang)))
    for event, move in moves:
        text = (_holiday_text if event.type == "deadline_holiday" else _suspension_text)(event, move, holidays, lang)
        if text:
            out.append(text)
    return " ".join(out)


def with_explanations(session: Session, instance_id: int, deadlines: list[dict], holidays,
                      lang: str = "es") -> list[dict]:
    """The deadlines with their `explanation` in `lang`; one read of the case's decisions and resumptions.

    The API's `explanation` is the Spanish one (API.md); an English page asks for "en" and gets the
    same facts in English under the same key, so no shape grows a key per language."""
    if not deadlines:
        return deadlines
    lang = "en" if lang == "en" else "es"
    table = AuditEvent.__table__
    events = session.execute(select(table.c.type, table.c.data, table.c.at).where(
        table.c.instance_id == instance_id, table.c.type.in_(("decision", "case_resumed", "deadline_holiday")))
        .order_by(table.c.id)).all()
    blocked = calendar.parse_holidays(holidays or [])
    named = {day: None for day in blocked}
    named.update({day: {"es": n["name_es"], "en": n.get("name_en") or n["name_es"]}
                  for day, n in holiday_calendar.names(session, blocked).items()})
    return [{**d, "explanation": explain(d, events, named, lang)} for d in deadlines]
