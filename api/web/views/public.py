"""The applicant's status page, no staff account (API.md "Applicant access"): `/estado` in Spanish,
`/status` in English. Case number + access code open a session for that one case (its applicant
token kept in the signed session cookie); the page shows the status in plain words and offers the
filings the procedure gives the applicant. Every action is one engine command, as on the API."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import force_locale
from flask_babel import gettext as _

from engine.applicants import filing, sessions, status
from engine.commands import applicant_access as commands
from engine.errors import EngineError, NotFound, Unauthorized
from engine.expediente import catalogue, documents
from engine.identity.login_throttle import TooManyLogins
from engine.rules.decision import RuleViolation

from api.rest.documents import _attachment
from api.web import rule_texts
from api.web import session as web_session

bp = Blueprint("public_pages", __name__)
TOKEN_KEY = "applicant_token"
PAGES = {"es": "/estado", "en": "/status"}


def _engine():
    return web_session.engine()


def _case_id() -> int | None:
    token = session.get(TOKEN_KEY)
    if not token:
        return None
    try:
        return _engine().read_rows(sessions.case_of_token, token)
    except Unauthorized:
        session.pop(TOKEN_KEY, None)
        return None


def _lang() -> str:
    return "en" if request.values.get("lang") == "en" or request.path.startswith("/status") else "es"


def _page(lang: str) -> str:
    return url_for("public_pages.status_en" if lang == "en" else "public_pages.estado")


@bp.before_request
def _csrf():
    web_session.check_csrf()


def _render(lang: str, status_code: int = 200, **context):
    with force_locale(lang):
        case_id = _case_id()
        if case_id is None:
            return render_template("web/public_login.html", lang=lang, csrf_token=web_session.csrf_token,
                                   csrf_field=web_session.CSRF_FIELD, **context), status_code
        case = _engine().read_rows(status.case_status, case_id, lang)
        key = _engine().read_rows(documents.process_key_of, case_id)
        types = [t for t in catalogue.document_types(key) if not t["generated"]]  # letters are the engine's alone
        forms = {a["message"]: filing.form_of(key, a["message"], lang) for a in case["actions"]}
        return render_template("web/public_status.html", lang=lang, case=case, document_types=types, forms=forms,
                               csrf_token=web_session.csrf_token, csrf_field=web_session.CSRF_FIELD,
                               **context), status_code


@bp.route("/estado", methods=["GET", "POST"])
def estado():
    return _show_or_open("es")


@bp.route("/status", methods=["GET", "POST"])
def status_en():
    return _show_or_open("en")


def _show_or_open(lang: str):
    if request.method == "GET":
        return _render(lang)
    try:
        opened = commands.open_applicant_session(_engine(), request.form.get("case_number", ""),
                                                 request.form.get("access_code", ""), request.remote_addr or "unknown")
    except NotFound:
        with force_locale(lang):
            message = _("El número de caso o el código de acceso no es válido.")
        return _render(lang, 404, error=message, case_number=request.form.get("case_number", ""))
    except TooManyLogins as exc:
        with force_locale(lang):
            message = _("Demasiados intentos fallidos. Vuelva a intentarlo en %(seconds)s segundos.",
                        seconds=exc.retry_after)
        return _render(lang, 429, error=message)
    session[TOKEN_KEY] = opened["token"]
    return redirect(_page(lang))


class SessionEnded(Exception):
    """A filing or download without a live applicant session: back to the page's sign-in form."""


@bp.errorhandler(SessionEnded)
def _session_ended(_exc):
    return redirect(_page(_lang()))


def _require_case(lang: str) -> int:
    case_id = _case_id()
    if case_id is None:
        raise SessionEnded()
    return case_id


def _refusal_text(exc: EngineError, form: dict | None = None) -> str:
    if isinstance(exc, RuleViolation) or (exc.errors or {}).get("rule"):
        code = (exc.errors or {}).get("rule", [getattr(exc, "code", "")])[0]
        return rule_texts.text(code, exc.message)
    labels = {f["name"]: f["label"] for f in (form or {}).get("fields", [])}
    named = [labels[key.split(".")[0]] for key in (exc.errors or {}) if key.split(".")[0] in labels]
    if named:  # the schema's refusal, told by the page's own labels
        return _("Revise estos datos: %(fields)s.", fields=", ".join(dict.fromkeys(named)))
    return exc.message


def _attached() -> dict | None:
    """The file of the form, as the keywords of the applicant's upload command (None: no file)."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return None
    return {"content": upload.stream, "type": request.form.get("type", ""), "filename": upload.filename,
            "description": request.form.get("description")}


def _upload(case_id: int):
    document = _attached()
    if document is None:
        return None
    return _engine().execute(commands.applicant_upload, commands.applicant_actor(), case_id, **document)


@bp.route("/estado/documentos", methods=["POST"])
def upload():
    lang = _lang()
    case_id = _require_case(lang)
    with force_locale(lang):
        try:
            filed = _upload(case_id)
        except EngineError as exc:
            return _render(lang, 422, error=_refusal_text(exc))
        if filed is None:
            return _render(lang, 422, error=_("Elija el archivo que desea presentar."))
        flash(_("Documento presentado con el folio %(folio)s.", folio=filed["folio"]), "success")
        session["applicant_receipt"] = filed["receipt_document_id"]
    return redirect(_page(lang))


@bp.route("/estado/mensajes/<string:name>", methods=["POST"])
def message(name):
    lang = _lang()
    case_id = _require_case(lang)
    with force_locale(lang):
        try:
            document = _attached()
            key = _engine().read_rows(documents.process_key_of, case_id)
            payload = filing.payload_of(key, name, request.form.to_dict(flat=False),
                                        document["type"] if document else None)
            sent = _engine().execute(commands.applicant_message, commands.applicant_actor(), case_id, name, payload,
                                     document)
        except EngineError as exc:
            form = filing.form_of(_engine().read_rows(documents.process_key_of, case_id), name, lang)
            return _render(lang, 409 if "rule" in (exc.errors or {}) else 422, error=_refusal_text(exc, form))
        flash(_("Su solicitud fue presentada."), "success")
        session["applicant_receipt"] = sent["receipt_document_id"]
    return redirect(_page(lang))


@bp.route("/estado/documentos/<int:document_id>", methods=["GET"])
def download(document_id):
    case_id = _require_case(_lang())

    return _attachment(lambda sink: _engine().read_rows(status.write_document, case_id, document_id, sink))


@bp.route("/estado/salir", methods=["POST"])
def leave():
    lang = _lang()
    session.pop(TOKEN_KEY, None)
    return redirect(_page(lang))
