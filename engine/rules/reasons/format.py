"""Values put into a reason's sentence the way a person reads them, in Spanish or in English.

A catalogue sentence names its values and how to show them: `{income_share_pct:pct}` → "30",
`{max_aid:money}` → "$8,500.00", `{review_deadline:date}` → "21 de diciembre de 2026",
`{types:list}` → "agricultor, pescador y artesano", `{flag:yesno}`, `{years:years}` → "1 año" / "3 años". A value the decision did not
record reads "—" rather than breaking the sentence, and a part between ‹ and › is left out
whenever a value it names is unknown ("‹; el mínimo es {min_share_pct:pct} %›").
"""
from __future__ import annotations

import re
import string
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

MONTHS = {
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
           "octubre", "noviembre", "diciembre"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"),
}
WORDS = {"es": {"and": "y", "yes": "sí", "no": "no", "none": "ninguno", "year": "año", "years": "años"},
         "en": {"and": "and", "yes": "yes", "no": "no", "none": "none", "year": "year", "years": "years"}}
MISSING = "—"


def day_in_words(day: date, language: str = "es") -> str:
    """"21 de diciembre de 2026" / "December 21, 2026": the one spelling of a day for reasons,
    letters and deadline explanations."""
    month = MONTHS["en" if language == "en" else "es"][day.month - 1]
    return f"{month} {day.day}, {day.year}" if language == "en" else f"{day.day} de {month} de {day.year}"


class _Missing:
    def __format__(self, spec: str) -> str:
        return MISSING

    def __getitem__(self, key):
        return self

    def __getattr__(self, name):
        return self


class SentenceFormatter(string.Formatter):
    def __init__(self, language: str, labels: dict | None = None):
        super().__init__()
        self.language = language
        self.labels = labels or {}  # {contract code: {"es", "en"}}: "secretario_agricultura" as a person says it

    def get_value(self, key, args, kwargs):
        value = kwargs.get(key) if isinstance(key, str) else None
        return _Missing() if value is None else value

    def get_field(self, field_name, args, kwargs):
        try:
            return super().get_field(field_name, args, kwargs)
        except (KeyError, IndexError, TypeError, AttributeError):
            return _Missing(), field_name

    def format_field(self, value, format_spec):
        if isinstance(value, _Missing) or value is None:
            return MISSING
        show = getattr(self, "_" + format_spec, None) if format_spec else None
        try:
            return show(value) if show else self._plain(value)
        except (ValueError, TypeError, InvalidOperation):
            return str(value)

    def _plain(self, value) -> str:
        if isinstance(value, bool):
            return self._yesno(value)
        if isinstance(value, (date, datetime)):
            return self._date(value)
        if isinstance(value, (list, tuple)):
            return self._list(value)
        if isinstance(value, str) and value in self.labels:
            return self.labels[value].get(self.language, value)
        return str(value)

    def _pct(self, value) -> str:
        number = Decimal(str(value))
        text = f"{number:f}"
        return text.rstrip("0").rstrip(".") if "." in text else text

    def _money(self, value) -> str:
        return f"${Decimal(str(value)):,.2f}"

    def _date(self, value) -> str:
        day = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
        if isinstance(day, datetime):
            day = day.date()
        return day_in_words(day, self.language)

    def _yesno(self, value) -> str:
        return WORDS[self.language]["yes" if value else "no"]

    def _years(self, value) -> str:
        count = Decimal(str(value))
        return f"{self._pct(count)} {WORDS[self.language]['year' if count == 1 else 'years']}"

    def _list(self, value) -> str:
        items = [self._plain(v) for v in (value if isinstance(value, (list, tuple, set)) else [value])]
        if not items:
            return WORDS[self.language]["none"]
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + f" {WORDS[self.language]['and']} " + items[-1]


OPTIONAL = re.compile(r"‹([^‹›]*)›")


def _known(segment: str, values: dict) -> bool:
    formatter = SentenceFormatter("es")
    for _, name, _, _ in string.Formatter().parse(segment):
        if name and isinstance(formatter.get_field(name, (), values)[0], _Missing):
            return False
    return True


def fill(template: str, values: dict, language: str, labels: dict | None = None) -> str:
    """The template with its values shown for `language`; a broken template reads as written."""
    template = OPTIONAL.sub(lambda m: m.group(1) if _known(m.group(1), values) else "", template)
    try:
        return SentenceFormatter(language, labels).vformat(template, (), values)
    except (ValueError, IndexError):
        return template
