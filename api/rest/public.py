"""The applicant's routes (API.md "Applicant access"): no staff account, a session for one case.

`/api/v1/public/session` is open; every other route here takes an applicant token and only that
(a staff token → 403), and an applicant token works nowhere else (api/rest/auth.py → 403)."""
from __future__ import annotations

from flask import current_app, g, request
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.applicants import codes, sessions, status
from engine.commands import applicant_access as commands
from engine.errors import Forbidden, Unauthorized, ValidationFailed

from api.rest import ID
from api.rest.auth import actor, bearer_token, engine
from api.rest.documents import DocumentSchema, UPLOAD_BODY, _attachment
from api.rest.responses import answer

blp = Blueprint("public", __name__, url_prefix="/api/v1", description="Applicant access")
PREFIX = "/api/v1/public/"
SESSION_PATH = PREFIX + "session"


class SessionInSchema(Schema):
    case_number = fields.String(required=True, validate=validate.Length(min=1, max=64))
    access_code = fields.String(required=True, validate=validate.Length(min=1, max=100))


class SessionSchema(Schema):
    token = fields.String()
    expires_at = fields.String()


class AccessSchema(Schema):
    access_code = fields.String()
    receipt_document_id = fields.Integer()


class PublicCaseSchema(Schema):
    case_number = fields.String()
    process_name = fields.String()
    status = fields.String()
    stage_label = fields.String()
    pending = fields.List(fields.Dict())
    deadlines = fields.List(fields.Dict())
    letters = fields.List(fields.Dict())
    filed = fields.List(fields.Dict())
    actions = fields.List(fields.Dict())


class LangArgs(Schema):
    lang = fields.String(load_default="es", validate=validate.OneOf(["es", "en"]))


class PublicMessageSchema(Schema):
    payload = fields.Dict(load_default=dict)


class FiledSchema(Schema):
    received = fields.String()
    receipt_document_id = fields.Integer()


class PublicDocumentSchema(DocumentSchema):
    receipt_document_id = fields.Integer()


def status_url() -> str:
    base = current_app.config.get("TRAMITE_PUBLIC_URL")
    path = "/estado"
    return f"{base}{path}" if base else request.host_url.rstrip("/") + path


def authenticate_applicant() -> None:
    """Before every applicant route: the case of the applicant token, or 401/403."""
    path = request.path
    if not path.startswith(PREFIX) or path == SESSION_PATH:
        return
    token = bearer_token()
    if token is None:
        raise Unauthorized("send Authorization: Bearer <applicant token> (POST /api/v1/public/session)")
    if not token.startswith(codes.TOKEN_PREFIX):
        raise Forbidden("these routes are the applicant's: a staff token does not open them")
    g.applicant_case = engine().read_rows(sessions.case_of_token, token)


def case_id() -> int:
    return g.applicant_case


@blp.route("/instances/<{}:instance_id>/applicant-access".format(ID), methods=["POST"])
@blp.response(201, AccessSchema)
def issue_access(instance_id):
    """A new access code for the case's applicant (the previous one stops working) and its receipt."""
    return answer(engine().execute(commands.issue_access, actor(), instance_id, status_url()), 201)


@blp.route("/public/session", methods=["POST"])
@blp.arguments(SessionInSchema())
@blp.response(200, SessionSchema)
@blp.alt_response(404, description="the case number or the access code is wrong (one answer for both)")
@blp.alt_response(429, description="too many wrong pairs for this case number or from this address")
def open_session(args):
    """Exchange a case number and its access code for a token for that one case (2 hours)."""
    return commands.open_applicant_session(engine(), args["case_number"], args["access_code"],
                                           request.remote_addr or "unknown")


@blp.route("/public/case", methods=["GET"])
@blp.arguments(LangArgs(), location="query")
@blp.response(200, PublicCaseSchema)
def public_case(args):
    """The applicant's case in plain words (`?lang=en` for English)."""
    return answer(engine().read_rows(status.case_status, case_id(), args["lang"]))


@blp.route(f"/public/documents/<{ID}:document_id>/content", methods=["GET"])
def public_document(document_id):
    """A letter to the applicant or a document they filed, of their own case."""
    instance_id = case_id()

    return _attachment(lambda sink: engine().read_rows(status.write_document, instance_id, document_id, sink))


@blp.route("/public/case/documents", methods=["POST"])
@blp.doc(requestBody=UPLOAD_BODY)
@blp.response(201, PublicDocumentSchema)
def public_upload():
    """File a document into the case (source `applicant`), with the same checks as staff uploads."""
    upload = request.files.get("file")
    if upload is None:
        raise ValidationFailed("send the document as the multipart field `file`", {"file": ["REQUIRED"]})
    return answer(engine().execute(commands.applicant_upload, commands.applicant_actor(), case_id(), upload.stream,
                                   type=request.form.get("type", ""), filename=upload.filename or "",
                                   description=request.form.get("description")), 201)


@blp.route("/public/case/messages/<string:name>", methods=["POST"])
@blp.arguments(PublicMessageSchema())
@blp.response(200, FiledSchema)
def public_message(args, name):
    """Send one of the applicant's messages of the procedure (same rules and codes as staff)."""
    return answer(engine().execute(commands.applicant_message, commands.applicant_actor(), case_id(), name,
                                   args["payload"]))
