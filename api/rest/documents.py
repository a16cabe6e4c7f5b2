"""The case file (API.md "Case file (expediente)"): document types, documents, internal notes and
the certified export."""
from __future__ import annotations

import re
import tempfile

from flask import request, send_file
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.commands import documents as commands
from engine.errors import ValidationFailed
from engine.expediente.media import ACCEPTED
from engine.expediente.storage import max_document_bytes
from engine.queries import documents as queries

from api.rest import ID
from api.rest.auth import actor, engine, read_rows
from api.rest.responses import answer

blp = Blueprint("documents", __name__, url_prefix="/api/v1", description="Case file (expediente)")


class DocumentTypeSchema(Schema):
    id = fields.String()
    label_es = fields.String()
    label_en = fields.String()
    article = fields.String()
    checklist = fields.List(fields.String())
    generated = fields.Boolean(metadata={"description": "a letter the engine generates; never uploaded (422)"})


class DocumentSchema(Schema):
    id = fields.Integer()
    instance_id = fields.Integer()
    type = fields.String()
    type_label = fields.String()
    type_label_en = fields.String()
    article = fields.String(allow_none=True)
    filename = fields.String()
    media_type = fields.String()
    size = fields.Integer()
    sha256 = fields.String()
    version = fields.Integer()
    folio = fields.Integer()
    source = fields.String(metadata={"enum": ["staff", "applicant", "generated"]})
    description = fields.String(allow_none=True)
    task_id = fields.Integer(allow_none=True)
    uploaded_by = fields.String()
    uploaded_at = fields.String()
    voided = fields.Boolean()
    voided_at = fields.String(allow_none=True)
    voided_by = fields.String(allow_none=True)
    void_reason = fields.String(allow_none=True)


class VoidSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class NoteInSchema(Schema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=10_000))


class NoteSchema(Schema):
    id = fields.Integer()
    at = fields.String()
    author = fields.String()
    text = fields.String()


@blp.route("/processes/<string:key>/document-types", methods=["GET"])
@blp.response(200, DocumentTypeSchema(many=True))
def document_types(key):
    """The documents a procedure's regulations ask for, with the article asking for each."""
    return answer(read_rows(queries.document_types_of, key))


UPLOAD_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file", "type"], "properties": {
        "file": {"type": "string", "format": "binary"},
        "type": {"type": "string", "minLength": 1, "maxLength": 100, "description": "a document type id of the case's procedure"},
        "task_id": {"type": "integer", "minimum": 1},
        "description": {"type": "string", "maxLength": 2000}}}}}}


@blp.route(f"/instances/<{ID}:instance_id>/documents", methods=["POST"])
@blp.doc(requestBody=UPLOAD_BODY)
@blp.response(201, DocumentSchema)
@blp.alt_response(422, description="no `file`, a type the procedure does not know, a task of another case")
@blp.alt_response(413, description="empty, or larger than TRAMITE_MAX_DOCUMENT_MB")
@blp.alt_response(415, description="not a PDF, PNG, JPEG, TIFF, ODT or DOCX document, judged by its bytes")
def upload(instance_id):
    """Add a document to the case (multipart: `file`, `type`, optional `task_id`, `description`)."""
    upload = request.files.get("file")
    if upload is None:
        raise ValidationFailed("send the document as the multipart field `file`", {"file": ["REQUIRED"]})
    task_id = request.form.get("task_id") or None
    if task_id is not None:
        if not task_id.isdigit() or len(task_id) > 18:
            raise ValidationFailed("task_id must be a task's id", {"task_id": ["NOT_AN_ID"]})
        task_id = int(task_id)
    document = engine().execute(commands.upload_document, actor(), instance_id, upload.stream,
                                type=request.form.get("type", ""), filename=upload.filename or "",
                                task_id=task_id, description=request.form.get("description"))
    return answer(document, 201)


@blp.route(f"/instances/<{ID}:instance_id>/documents", methods=["GET"])
@blp.response(200, DocumentSchema(many=True))
def index(instance_id):
    """The case's documents in folio order."""
    return answer(read_rows(queries.case_documents, actor(), instance_id))


@blp.route(f"/documents/<{ID}:document_id>/content", methods=["GET"])
@blp.doc(responses={"200": {"description": "the document's bytes, as an attachment, in its own media type",
                            "content": {kind: {"schema": {"type": "string", "format": "binary"}} for kind in ACCEPTED}}})
def content(document_id):
    """The stored bytes (the case's visibility rules apply)."""
    return download(actor(), document_id)


def download(who, document_id):
    def fill(sink):
        document = read_rows(queries.document_for_download, who, document_id, sink)
        return document["filename"], document["media_type"]
    return _attachment(fill)


def _attachment(fill):
    """Send what `fill(sink)` writes to a temporary file (a document may be 20 MB, read from a large
    object inside a transaction); `fill` returns the (filename, media type)."""
    sink = tempfile.TemporaryFile()
    try:
        filename, media_type = fill(sink)
    except BaseException:
        sink.close()
        raise
    sink.seek(0)
    return send_file(sink, mimetype=media_type, as_attachment=True, download_name=filename, max_age=0,
                     conditional=False, etag=False)


@blp.route(f"/documents/<{ID}:document_id>/void", methods=["POST"])
@blp.arguments(VoidSchema())
@blp.response(200, DocumentSchema)
def void(body, document_id):
    """Mark a document void with a reason (supervisors); it is never deleted."""
    return answer(engine().execute(commands.void_document, actor(), document_id, body["reason"]))


@blp.route(f"/instances/<{ID}:instance_id>/notes", methods=["POST"])
@blp.arguments(NoteInSchema())
@blp.response(201, NoteSchema)
def add_note(body, instance_id):
    """An internal note: audited, never edited, never in the expediente."""
    return answer(engine().execute(commands.add_note, actor(), instance_id, body["text"]), 201)


@blp.route(f"/instances/<{ID}:instance_id>/notes", methods=["GET"])
@blp.response(200, NoteSchema(many=True))
def notes(instance_id):
    return answer(read_rows(queries.case_notes, actor(), instance_id))


_UPLOAD_PATH = re.compile(r"^/(?:api/v1|web)/(?:instances|cases|tasks)/\d+/documents$")
ENVELOPE_BYTES = 1024 * 1024  # the multipart boundaries and the other fields around the file


def raise_upload_limit() -> None:
    """Document uploads may be larger than any other request (TRAMITE_MAX_DOCUMENT_MB, default 20 MB):
    their request limit is raised before anything reads the body, and werkzeug stops reading (413)
    past it, spooling what it reads to a temporary file, never to memory. The engine counts the file
    itself against the limit again while storing it."""
    if request.method == "POST" and _UPLOAD_PATH.match(request.path):
        request.max_content_length = max_document_bytes() + ENVELOPE_BYTES


@blp.route(f"/instances/<{ID}:instance_id>/expediente", methods=["GET"])
@blp.response(200, description="the certified export: index.pdf, every document, history.json, manifest.json",
              content_type="application/zip")
def expediente(instance_id):
    """The case file as a ZIP whose manifest's hashes match every document and the history."""
    return export_zip(actor(), instance_id)


def export_zip(who, instance_id):
    def fill(sink):
        case_number = engine().read(queries.expediente, who, instance_id, engine().now(), sink)
        return f"expediente-{case_number}.zip", "application/zip"
    return _attachment(fill)
