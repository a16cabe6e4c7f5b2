"""The case file's commands: upload a document, void one, write an internal note.

Each checks who may act and then hands over to engine/expediente, which other commands call
directly when a document is a side effect of their own step (a generated letter)."""
from __future__ import annotations

from typing import BinaryIO

from engine.expediente import documents, notes
from engine.kernel import access
from engine.queries.cases import get_instance
from engine.queries.documents import version_lanes


def _check_may_add(ctx, instance_id: int, what: str):
    record = get_instance(ctx.conn, ctx.actor, instance_id)  # 404 / 403 as the case page
    access.check_add_to_case_file(ctx.actor, version_lanes(ctx.conn, record.definition_id), record.office, what)
    return record


def upload_document(ctx, instance_id: int, content: bytes | BinaryIO, *, type: str, filename: str,
                    task_id: int | None = None, description: str | None = None) -> dict:
    """POST /instances/{id}/documents: a staff member's upload (source `staff`)."""
    _check_may_add(ctx, instance_id, "documents")
    return documents.add_document(ctx, instance_id, content, type=type, filename=filename, source="staff",
                                  task_id=task_id, description=description)


def void_document(ctx, document_id: int, reason: str) -> dict:
    """POST /documents/{id}/void (supervisor): the document stays, marked void with the reason."""
    access.require_supervisor(ctx.actor, "void a document")
    row = documents.load(ctx.conn, document_id)
    get_instance(ctx.conn, ctx.actor, row.instance_id)
    return documents.void_document(ctx, document_id, reason)


def add_note(ctx, instance_id: int, text: str) -> dict:
    """POST /instances/{id}/notes: an internal note, by the staff of the case's procedure."""
    _check_may_add(ctx, instance_id, "notes")
    return notes.add_note(ctx, instance_id, text)
