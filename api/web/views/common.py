"""What several pages share: the engine, process names, the outcome of a refused command."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import abort, g, request
from flask_babel import gettext as _
from engine.queries import accounts as account_queries, cases as queries
from engine.errors import Conflict, DatabaseUnavailable, EngineError, Forbidden, NotFound, ValidationFailed
from engine.rules.decision import RuleViolation

from api.errors import database_gone, http_status
from api.web import form_messages, formkit, rule_texts
from api.web.i18n import selected_language
from api.web.session import engine, web_actor

PER_PAGE = 25
MAX_PAGE = 1_000_000  # the REST lists' bound (PageArgs); past it the offset overflows SQLite's integers


def process_names() -> dict[str, str]:
    return {p["key"]: p["name"] for p in engine().read(queries.list_processes)}


def role_labels() -> dict[str, str]:
    """{role id: label in the page's language}, read once per request."""
    if "web_roles" not in g:
        g.web_roles = engine().read(account_queries.role_labels, selected_language() == "en")
    return g.web_roles


def page_number(name: str = "page") -> int:
    try:
        number = max(1, int(request.args.get(name, 1)))
    except ValueError:
        return 1
    if number > MAX_PAGE:
        abort(400, description=_("Número de página fuera de rango (como máximo %(max)s).", max=MAX_PAGE))
    return number


def pages(total: int, per_page: int = PER_PAGE) -> int:
    return max(1, -(-total // per_page))


@dataclass
class Refusal:
    """A command the engine refused, ready for a page: per-field errors and/or a rule named."""

    status: int
    message: str
    errors: dict = field(default_factory=dict)
    rule: str | None = None
    rule_ids: list = field(default_factory=list)
    detail: str | None = None  # the engine's own message, when `message` is the page's wording of it
    reasons: list = field(default_factory=list)  # a rule's refusal: every reason, in words (rule_texts)


def _refusal(status: int, exc, code: str, rule_ids=()) -> Refusal:
    if isinstance(exc, RuleViolation):
        reasons = rule_texts.refusal_reasons(exc)
        message = rule_texts.refusal_text(exc)
        return Refusal(status, message, {}, code, list(rule_ids), None, reasons)
    message = rule_texts.text(code, exc.message)
    return Refusal(status, message, {}, code, list(rule_ids), exc.message if message != exc.message else None)


def run(command, *args, **kwargs):
    """(result, None) or (None, Refusal): the page stays put and shows why."""
    try:
        return engine().execute(command, web_actor(), *args, **kwargs), None
    except ValidationFailed as exc:
        return None, Refusal(422, _("Revise los campos marcados."), form_messages.friendly_errors(exc.errors))
    except RuleViolation as exc:
        return None, _refusal(http_status(exc)[0], exc, exc.code, exc.rule_ids)
    except Conflict as exc:
        return None, _refusal(http_status(exc)[0], exc, exc.code)
    except (Forbidden, NotFound) as exc:
        return None, Refusal(http_status(exc)[0], exc.message)
    except DatabaseUnavailable as exc:
        database_gone(exc)
        english = selected_language() == "en"
        return None, Refusal(503, exc.message if english else str(form_messages.DATABASE_UNAVAILABLE))
    except EngineError as exc:
        return None, Refusal(http_status(exc)[0], exc.message, form_messages.friendly_errors(exc.errors))


def read(query, *args, **kwargs):
    return engine().read(query, *args, **kwargs)


def read_listing(query, *args, **kwargs):
    """A list or dashboard page's read: on the read replica when one is configured (a moment behind)."""
    return engine().read_listing(query, *args, **kwargs)


def form_post(schema: dict, ui: dict):
    """(data, rows_changed): the post as JSON, after the no-JavaScript add/remove row buttons."""
    form = request.form
    if form.get("_remove_row"):
        form = formkit.without_row(form, form["_remove_row"])
    data = formkit.parse(schema, ui, form)
    if request.form.get("_add_row"):
        data = formkit.with_new_row(schema, data, request.form["_add_row"])
    return data, bool(request.form.get("_remove_row") or request.form.get("_add_row"))
