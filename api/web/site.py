"""The web application for staff, supervisors, process owners and admins, under /web.

Server-rendered pages (Jinja) that call the engine directly, the same commands and queries the
API uses, so a page shows exactly what the API would allow. JavaScript is used where it serves:
list rows in forms, the bpmn-js diagram and modeler, the dashboard's chart.
"""
from __future__ import annotations

import json
import logging
import os
from datetime import datetime, timezone
from urllib.parse import urlsplit

from flask import Flask, abort, flash, has_request_context, redirect, render_template, request, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from engine.config.login_policy import DirectoryLogin
from engine.errors import EngineError
from engine.identity.actor import Actor
from engine.kernel import access, outage
from engine.rules.decision import RuleViolation

from api.errors import database_gone, http_status
from api.web import form_messages, i18n, labels, rule_texts
from api.web import session as web_session
from api.web.blueprint import bp
from api.web.row_links import row_link

log = logging.getLogger("tramite.web")


NAV = (  # (endpoint, label, endpoints that light it up, who sees it: a predicate of engine.kernel.access)
    ("web.inbox", _l("Bandeja"), ("web.inbox", "web.task"), access.works_cases),
    ("web.start", _l("Iniciar caso"), ("web.start", "web.start_form"), access.works_cases),
    ("web.dashboard", _l("Tablero"), ("web.dashboard",), access.sees_all_cases),
    ("web.cases", _l("Casos"), ("web.cases", "web.case"), access.lists_cases),
    ("web.work", _l("Tareas del equipo"), ("web.work",), access.sees_all_cases),
    ("web.processes", _l("Procesos"), ("web.processes", "web.modeler", "web.diff"), access.owns_processes),
    ("web.admin_users", _l("Administración"), ("web.admin_",), access.administers),
)


def _nav(actor: Actor | None) -> list[dict]:
    if actor is None:
        return []
    here = request.endpoint or ""
    return [{"endpoint": endpoint, "label": label, "active": any(here.startswith(p) for p in lit)}
            for endpoint, label, lit, who in NAV if who(actor)]


def _json_script(value) -> Markup:
    """JSON safe inside <script type="application/json">: no closing tag can end it early."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


@bp.before_request
def _before():
    web_session.load_user()
    web_session.check_csrf()


@bp.app_context_processor
def _context():
    if request.blueprint != "web":
        return {}
    user = web_session.current_user()
    actor = web_session.actor_of(user) if user else None
    return {"current_user": user, "nav_items": _nav(actor), "languages": i18n.LANGUAGES,
            "language": i18n.selected_language(), "csrf_token": web_session.csrf_token,
            "csrf_field": web_session.CSRF_FIELD, "is_admin": bool(actor and access.administers(actor)),
            "sees_everything": bool(actor and access.sees_all_cases(actor)),
            "is_supervisor": bool(actor and actor.is_supervisor),
            "is_owner": bool(actor and access.owns_processes(actor))}


# What a refusal without a rule means, in the page's language; the engine's English message (part of
# the API) is the detail on English pages only.
HUMAN_REFUSALS = {403: _l("Su rol no le permite ver esto ni actuar sobre ello."),
                  404: _l("No existe, o no está a su alcance: el caso, la tarea o la página que buscaba."),
                  503: form_messages.DATABASE_UNAVAILABLE}


@bp.errorhandler(EngineError)
def _engine_error(exc: EngineError):
    status = http_status(exc)[0]
    english = i18n.selected_language() == "en"
    code = getattr(exc, "code", None)
    if status in HUMAN_REFUSALS and not english:
        message = str(HUMAN_REFUSALS[status])
    else:
        message = rule_texts.text(code, exc.message) if code else exc.message
    page = render_template("web/error.html", status=status, message=message,
                           errors=labels.friendly_errors(exc.errors) if exc.errors else {})
    if database_gone(exc):
        return page, status, {"Retry-After": str(outage.RETRY_AFTER_SECONDS)}
    return page, status


@bp.errorhandler(RuleViolation)
def _rule_error(exc: RuleViolation):
    status = http_status(exc)[0]
    return render_template("web/error.html", status=status, message=rule_texts.refusal_text(exc),
                           errors={"rule": [exc.code], "rule_ids": exc.rule_ids},
                           reasons=rule_texts.refusal_reasons(exc)), status


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException):
    if exc.code == 400 and exc.description == "CSRF":
        flash(_("El formulario caducó o no vino de esta aplicación. Vuelva a intentarlo."), "error")
        return redirect(request.referrer if web_session.safe_next(_path_of(request.referrer)) else
                        url_for("web.home"))
    messages = {403: _("No tiene permiso para ver esta página."), 404: _("No se encontró la página.")}
    return render_template("web/error.html", status=exc.code,
                           message=messages.get(exc.code, exc.description or exc.name), errors={}), exc.code


def _path_of(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    return parts.path if parts.netloc in ("", request.host) else None


@bp.errorhandler(Exception)
def _unexpected(exc: Exception):
    gone = outage.unavailable(exc)
    if gone is not None:
        return _engine_error(gone)
    log.exception("unexpected error on a web page")
    return render_template("web/error.html", status=500,
                           message=_("Ocurrió un error inesperado; quedó registrado."), errors={}), 500


class SessionCookies(SecureCookieSessionInterface):
    """The session cookie is Secure when configured so, and whenever the request came over https:
    a server behind TLS needs no setting to stop the cookie from ever travelling in clear."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or (has_request_context() and request.is_secure)

    def get_expiration_time(self, app: Flask, session):
        # The cookie dies when the session does: SESSION_LIFETIME after the login, not after the
        # last request (Flask would slide it forward on every answer).
        issued = session.get("iat") if session.permanent else None
        if isinstance(issued, int):
            return datetime.fromtimestamp(issued, timezone.utc) + web_session.SESSION_LIFETIME
        return super().get_expiration_time(app, session)

    def open_session(self, app: Flask, request):
        # The REST API authenticates by bearer token and keeps no session: no cookie is read,
        # verified or set on its requests (a null session refuses any write).
        if request.path.startswith("/api/v1/"):
            return None
        return super().open_session(app, request)


def secure_cookies_wanted(environ=None) -> bool:
    return (environ if environ is not None else os.environ).get("TRAMITE_SECURE_COOKIES", "").strip().lower() in (
        "1", "true", "yes", "on")


def install(app: Flask) -> None:
    """Register the web application on the app (one line in api/app.py)."""
    from api.web import views  # noqa: F401  (the views register themselves on the blueprint)
    from api.web.filters import install as install_filters

    # Lax, not Strict: a link to a case from an e-mail must open it logged in; POSTs carry CSRF tokens.
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SECURE"] = bool(app.config.get("SESSION_COOKIE_SECURE")) or secure_cookies_wanted()
    app.session_interface = SessionCookies()
    app.config.setdefault("TRAMITE_OIDC", DirectoryLogin.from_env(os.environ))  # None: no directory
    # Set, not setdefault: Flask's own default (31 days) is always there and would win.
    app.config["PERMANENT_SESSION_LIFETIME"] = web_session.SESSION_LIFETIME
    i18n.install(app)
    install_filters(app)
    app.jinja_env.globals.update(json_script=_json_script, status_label=labels.status, event_label=labels.event,
                                 channel_label=labels.channel, notice_status_label=labels.notice_status,
                                 stage_label=labels.stage, outcome_label=labels.outcome, actor_label=labels.actor,
                                 element_state_label=labels.element_state, event_message=labels.event_message,
                                 ui_language=i18n.selected_language, code_text=labels.code_text,
                                 parameter_type=labels.parameter_type,
                                 event_why=rule_texts.event_why, rule_article=rule_texts.rule_article,
                                 in_words=rule_texts.sentence, row_link=row_link)
    app.jinja_env.filters["rule_citation"] = rule_texts.citation
    app.register_blueprint(bp)

    @app.route("/web")
    def web_root():
        return redirect(url_for("web.home"))


@bp.route("/<path:_unknown>")
def no_such_page(_unknown: str):
    # Without this an address under /web that no page has matched no blueprint and got the API's
    # JSON 404; the routes with a real address always win over this catch-all.
    abort(404)
