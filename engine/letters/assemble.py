"""A case's step → the `Letter` values its kind calls for (one per addressee). Pure.

The remedy's last day is the engine's calendar (engine/rules/calendar.py) applied to the notice
date with the term the rules give (a parameter frozen in the case), rolled forward past weekends
and holidays as the case's calendar parameters say: never a date typed by staff.
"""
from __future__ import annotations

from datetime import date
from typing import Callable, Mapping

from engine.letters import kinds as catalogue
from engine.letters.model import Letter, Reason, Remedy
from engine.letters.sources import SOURCES
from engine.letters.wording import long_date, method_label, pick
from engine.rules import calendar
from engine.rules.reasons import citation, reasons_of
from engine.rules.reasons.catalogue import CODES

# wording(code, language, values) -> (sentence, rule ids) or None: the sentence the case's history
# recorded for a reason (engine.rules.reasons, with the decision's own values); else the rules'
# catalogue sentence filled from the case (`rules_wording`). The letters keep no words of their own.
Wording = Callable[[str, str, Mapping], "tuple[str, list[str]] | None"]


class _Blank(dict):
    def __missing__(self, key):
        return ""


def _fill(template, language: str, values: Mapping) -> str:
    # A sentence may depend on the case: {"by": "outcome", "<value>": {"es", "en"}, "*": ...}.
    if isinstance(template, dict) and "by" in template:
        template = template.get(str(values.get(template["by"]))) or template.get("*") or ""
    return pick(template, language).format_map(_Blank(values))


def case_language(scope: Mapping) -> str:
    """English when the case says so (`language`, or the applicant's), else Spanish."""
    applicant = scope.get("applicant") if isinstance(scope.get("applicant"), dict) else {}
    for value in (scope.get("language"), applicant.get("language")):
        if isinstance(value, str) and value.strip().lower() in ("en", "english", "inglés", "ingles", "en-us"):
            return "en"
    return "es"


def remedy_last_day(notice_date: date, days: int, parameters: Mapping) -> tuple[date, bool]:
    """The last timely day of a term counted from the notice, and whether it rolled forward."""
    roll = bool(parameters.get("calendar.rollForwardNonBusinessDay", True))
    holidays = calendar.parse_holidays(parameters.get("calendar.holidays") or [])
    last = calendar.last_timely_day(notice_date, int(days), roll_forward=roll, holidays=holidays)
    return last, last != calendar.last_timely_day(notice_date, int(days), roll_forward=False)


def article_text(rule_ids, language: str) -> str:
    """'FAR-06, FAR-07 — Reglamento de la Comisión (000); Ley … (003)': the rules and the texts they
    rest on (ambiguity and convention ids are the catalogue's, not articles, and are left out)."""
    ids = [i for i in rule_ids if i and not str(i).startswith(("AMB-", "TC-"))] or list(rule_ids)
    sources: list[str] = []
    for rule_id in ids:
        _, _, names = citation(rule_id, language).partition(" — ")
        sources.extend(n for n in names.split("; ") if n and n not in sources)
    return ", ".join(ids) + (f" — {'; '.join(sources)}" if sources else "")


def rules_wording(code: str, language: str, values: Mapping) -> "tuple[str, list[str]] | None":
    """The rules' catalogue sentence for `code` filled from `values` (engine/rules/<p>/messages.py):
    the one source of a reason's words, for letters as for the case page."""
    if code not in CODES:
        return None
    reason = reasons_of([code], values)[0]
    return reason.get(language) or reason["es"], list(reason.get("rule_ids") or [])


def _reasons(entry: dict, language: str, wording: Wording | None, scope: Mapping) -> tuple[Reason, ...]:
    out = []
    for item in entry.get("reason_codes", []):
        code, own = (item, {}) if isinstance(item, str) else (item[0], dict(item[1]))
        values = {**dict(scope), **own}  # a sentence may name a record's field ({household[size]})
        worded = (wording(code, language, values) if wording else None) or rules_wording(code, language, values)
        if worded is None:
            worded = (str(code), [])
        sentence = worded[0][:1].upper() + worded[0][1:]
        out.append(Reason(sentence if sentence.endswith(".") else sentence + ".", article_text(worded[1], language)))
    out.extend(Reason(text if text.endswith((".", "!", "?")) else text + ".",
                      article_text([a.strip() for a in article.split(",")], language))
               for text, article in entry.get("reason_free", []))
    return tuple(out)


def _remedy(kind: dict, language: str, notice_date: date, parameters: Mapping, values: dict) -> Remedy | None:
    spec = kind.get("remedy")
    if not spec:
        return None
    days = int(parameters.get(spec["days_parameter"]) or 0)
    last, rolled = remedy_last_day(notice_date, days, parameters)
    article = spec.get("article") or ""
    if spec.get("article_parameter"):
        article = ", ".join(a for a in (article, str(parameters.get(spec["article_parameter"]) or "")) if a)
    values = {**values, "days": days}
    return Remedy(name=_fill(spec["name"], language, values), text=_fill(spec["text"], language, values),
                  days=days, last_day=last, article=article, rolled_forward=rolled)


def _format_dates(values: dict, language: str) -> dict:
    out = {}
    for key, value in values.items():
        if isinstance(value, date):  # a script's own step still holds the date it computed
            value = value.isoformat()
        if isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-":
            try:
                value = long_date(date.fromisoformat(value), language)
            except ValueError:
                pass
        out[key] = value
    return out


def letters_for(kind_name: str, scope: Mapping, *, case_number: str, notice_date: date,
                parameters: Mapping, language: str | None = None, wording: Wording | None = None) -> list[Letter]:
    """Every letter `kind_name` gives for a step whose view of the case is `scope`."""
    kind = catalogue.all_kinds()[kind_name]
    procedure = catalogue.procedures()[kind["procedure"]]
    language = language or case_language(scope)
    letters = []
    for entry in SOURCES[kind["source"]](dict(scope)):
        values = _format_dates({**scope_values(scope), **entry["values"],
                                "bid_law": parameters.get("letters.bidReconsiderationLaw", "")}, language)
        reasons = _reasons(entry, language, wording, scope)
        if not reasons and kind.get("grounds"):
            reasons = tuple(Reason(pick(g, language), article_text([a.strip() for a in g["article"].split(",")],
                                                                   language)) for g in kind["grounds"])
        rights = None
        if kind.get("rights"):
            law = str(parameters.get("letters.rightsLaw") or "")
            rights = (f"Se le orienta sobre sus derechos conforme a la {law}." if language == "es"
                      else f"You are advised of your rights under the {law}.")
        letters.append(Letter(
            kind=kind_name, language=language, case_number=case_number, notice_date=notice_date,
            agency=pick(procedure["agency"], language), office=_fill(kind["office"], language, values),
            title=_fill(kind["title"], language, values), addressee_name=entry["name"],
            addressee_address=entry.get("address"), address_line=entry.get("email"),
            decision=_fill(kind["decision"], language, values), reasons=reasons,
            paragraphs=tuple(_fill(p, language, values) for p in kind.get("paragraphs", [])),
            facts=tuple((pick(label, language), str(value)) for label, value in entry.get("facts", [])),
            remedy=_remedy(kind, language, notice_date, parameters, values), rights=rights,
            delivery_method=method_label(entry.get("method"), language),
            signer_title=pick(kind["signer"], language), signer_office=_fill(kind["office"], language, values),
            extra={"email": entry.get("email"), "method": entry.get("method"),
                   "recipient_id": entry.get("recipient_id")}))
    return letters


def scope_values(scope: Mapping) -> dict:
    """The plain top-level values of the case a sentence may name."""
    return {k: v for k, v in scope.items() if isinstance(v, (str, int, date)) and not isinstance(v, bool)}
