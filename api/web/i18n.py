"""Spanish first, English on request: Flask-Babel reading the .po catalogue itself.

Labels are written in Spanish in the templates and the code (they are the msgids); the English
comes from `translations/en/LC_MESSAGES/messages.po`. The .po is compiled in memory on first use
instead of shipping a compiled .mo, so a fresh clone installed with `pip install -e .` needs no
build step. `pybabel extract -F api/web/babel.cfg` + `pybabel update` keep the catalogue current,
and a test fails when a message has no English.
"""
from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from babel import support
from babel.dates import format_date, format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import session
from flask_babel import Babel, Domain, get_locale, ngettext
from flask_babel import gettext as _

from engine.rules.calendar import PUERTO_RICO, as_local_date

LANGUAGES = {"es": "Español", "en": "English"}
# Numbers and dates the way Puerto Rico writes them ("$1,200.50" in Spanish too).
FORMAT_LOCALES = {"es": "es_PR", "en": "en_US"}
DEFAULT_LANGUAGE = "es"
TRANSLATIONS = Path(__file__).parent / "translations"
LOCAL_ZONE = PUERTO_RICO  # the engine's legal zone: what the web shows is what the rules count
PR_OFFSET = "-04:00"  # Puerto Rico keeps Atlantic Standard Time all year
INSTANT_PATTERN = "d MMM y, HH:mm"
DATE_PATTERN = "d MMM y"


def load_catalogue(language: str) -> support.NullTranslations:
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    if not path.is_file():
        return support.Translations()
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    compiled = BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return support.Translations(fp=compiled)


class PoDomain(Domain):
    """A Flask-Babel domain whose catalogues come from the .po files, one per language."""

    def get_translations(self):
        language = page_language()
        if language not in self.cache:
            self.cache[language] = load_catalogue(language)
        return self.cache[language]


def selected_language() -> str:
    # Spanish unless the user chose otherwise: the browser's Accept-Language is not consulted,
    # because the agencies' working language is Spanish whatever the machine says.
    language = session.get("lang")
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


def install(app) -> Babel:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", str(LOCAL_ZONE))
    babel = Babel(app, locale_selector=selected_language)
    babel.domain_instance = PoDomain()
    return babel


def local(value) -> datetime | None:
    """An instant (ISO text or aware datetime) on Puerto Rico's wall clock."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.astimezone(LOCAL_ZONE)


def page_language() -> str:
    """The language this page is written in (Flask-Babel's locale, `force_locale` included): the
    key the catalogue is chosen by, and so the key of every cached wording below."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def format_locale() -> str:
    return FORMAT_LOCALES.get(page_language(), FORMAT_LOCALES[DEFAULT_LANGUAGE])


# A list page writes a date, an instant and the days left on each of its 100 rows through Babel, which
# looks the locale up and walks its pattern each time: a third of the rows' render (issue 21). The words
# depend only on the day (the minute, the count) and the language, so each is worked out once per
# process; the caches are bounded, and the catalogues they read are loaded once per process anyway.
@lru_cache(maxsize=4096)
def _date_text(value: date, locale: str) -> str:
    return format_date(value, DATE_PATTERN, locale=locale)


@lru_cache(maxsize=4096)
def _minute_text(wall: datetime, locale: str) -> str:
    # `wall` is naive: aware datetimes are equal (one key) whenever their instants are, whatever their
    # zones, and the pattern shows no zone, so the key is what the reader sees.
    return format_datetime(wall, INSTANT_PATTERN, locale=locale)


def instant(value) -> str:
    moment = local(value)
    if moment is None:
        return ""
    return _minute_text(moment.replace(second=0, microsecond=0, tzinfo=None), format_locale())


def day(value) -> str:
    """The legal day of a value as Puerto Rico reads it: an instant shows the Puerto Rico day it
    falls on (the engine's date policy), not its UTC date; text that is no date shows as it is."""
    if value is None or value == "":
        return ""
    try:
        value = as_local_date(value)
    except ValueError:
        if isinstance(value, str):
            return value
        raise
    return _date_text(value, format_locale())


def days_left(due, now) -> int | None:
    """Calendar days from today to the due day, both on Puerto Rico's clock (negative: overdue)."""
    due, now = local(due), local(now)
    if due is None or now is None:
        return None
    return (due.date() - now.date()).days


def due_status(due, now, soon_days: int = 3) -> str:
    due, now = local(due), local(now)
    if due is None:
        return "none"
    if due < now:
        return "overdue"
    return "soon" if (due - now).total_seconds() < soon_days * 86400 else "ok"


def days_left_text(due, now) -> str:
    left = days_left(due, now)
    if left is None:
        return ""
    overdue = due_status(due, now) == "overdue"
    return _days_text(page_language(), overdue, max(-left, 0) if overdue else left)


@lru_cache(maxsize=1024)
def _days_text(language: str, overdue: bool, days: int) -> str:
    if overdue:
        return _("vencida hoy") if days == 0 else ngettext("vencida hace %(num)d día", "vencida hace %(num)d días", days)
    if days == 0:
        return _("vence hoy")
    return ngettext("queda %(num)d día", "quedan %(num)d días", days)
