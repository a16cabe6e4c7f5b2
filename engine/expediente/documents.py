"""The documents of a case: added with a folio and a version, voided with a reason, never changed
nor deleted. Every function runs inside the caller's command (`ctx`: its connection, clock and
history), so a document lands in the same transaction as the step that produced it.

Access is the caller's business (engine/commands/documents.py checks who may upload or void);
these functions keep the file whole: known type, accepted bytes, folio drawn once, row and history
event together, bytes stored before the row that names them.
"""
from __future__ import annotations

import unicodedata
from typing import BinaryIO

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from engine.errors import Conflict, NotFound, UnsupportedMediaType, ValidationFailed
from engine.expediente import catalogue, media, storage
from engine.persistence.models import Document, DocumentCounter, ProcessInstance, Task

DOCUMENT, COUNTER = Document.__table__, DocumentCounter.__table__
INSTANCE, TASK = ProcessInstance.__table__, Task.__table__
SOURCES = ("staff", "applicant", "generated")
MAX_DESCRIPTION = 2000


def add_document(ctx, instance_id: int, content: bytes | BinaryIO, *, type: str, filename: str,
                 source: str = "staff", actor: str | None = None, task_id: int | None = None,
                 description: str | None = None) -> dict:
    """Store `content` as the next folio of case `instance_id`; returns the document (API shape).

    Refusals change nothing: unknown type or task → ValidationFailed (422), empty or over
    TRAMITE_MAX_DOCUMENT_MB → PayloadTooLarge (413), bytes that are not PDF, PNG, JPEG, TIFF, ODT or
    DOCX → UnsupportedMediaType (415). `actor` is who the history names (default: the command's)."""
    if source not in SOURCES:
        raise ValidationFailed(f"source must be one of {', '.join(SOURCES)}", {"source": ["UNKNOWN_SOURCE"]})
    case = ctx.conn.execute(select(INSTANCE.c.id, INSTANCE.c.process_key).where(INSTANCE.c.id == instance_id)).first()
    if case is None:
        raise NotFound(f"there is no case {instance_id}")
    kind = catalogue.document_type(case.process_key, type or "")
    if kind is None:
        raise ValidationFailed(f"{type!r} is not a document type of {case.process_key}", {"type": ["UNKNOWN_TYPE"]})
    if catalogue.is_letter(type) and source != "generated":
        # A letter is the office's own notice, made by the engine when its step completes (its
        # remedy's last day by the calendar): an upload under that type would pass for one.
        message = (f"«{kind['label_es']}» ({type}) es una carta que genera el sistema al completar su paso; "
                   f"no se puede subir como documento")
        raise ValidationFailed(message, {"type": ["GENERATED_ONLY", message]})
    if task_id is not None and ctx.conn.execute(select(TASK.c.id).where(
            TASK.c.id == task_id, TASK.c.instance_id == instance_id)).first() is None:
        raise ValidationFailed(f"task {task_id} is not a task of this case", {"task_id": ["NOT_OF_CASE"]})
    description = (description or "").strip() or None
    if description and len(description) > MAX_DESCRIPTION:
        raise ValidationFailed(f"the description is longer than {MAX_DESCRIPTION} characters",
                               {"description": ["TOO_LONG"]})
    backend = storage.current()
    spooled = storage.spool(content, storage.max_document_bytes(), backend.spool_folder())
    try:
        media_type = media.sniff(spooled.path)
        if media_type is None:
            raise UnsupportedMediaType("the file is not a PDF, PNG, JPEG, TIFF, ODT or DOCX document",
                                       {"file": ["UNSUPPORTED_MEDIA_TYPE"]})
        key = backend.put(ctx.conn, spooled)  # before the row: no row ever names missing bytes
    finally:
        spooled.discard()
    folio = _draw_folio(ctx.conn, instance_id)
    # After the folio's row lock: a concurrent upload of the same type has committed or waits.
    version = ctx.conn.execute(select(func.count()).select_from(DOCUMENT).where(
        DOCUMENT.c.instance_id == instance_id, DOCUMENT.c.type == type)).scalar_one() + 1
    who = actor or ctx.actor.username
    row = {"instance_id": instance_id, "folio": folio, "type": type, "version": version,
           "filename": clean_filename(filename, media_type), "media_type": media_type, "size": spooled.size,
           "sha256": spooled.sha256, "source": source, "description": description, "task_id": task_id,
           "uploaded_by": who, "uploaded_at": ctx.now, "storage": backend.name, "storage_key": key}
    document_id = ctx.conn.execute(insert(DOCUMENT).values(**row).returning(DOCUMENT.c.id)).scalar_one()
    ctx.audit("document_added", instance_id=instance_id, task_id=task_id, actor=who,
              data={"document_id": document_id, "folio": folio, "type": type, "version": version,
                    "filename": row["filename"], "sha256": spooled.sha256, "size": spooled.size,
                    "source": source})
    return shape({**row, "id": document_id, "voided_at": None, "voided_by": None, "void_reason": None},
                 case.process_key)


def void_document(ctx, document_id: int, reason: str) -> dict:
    """Mark a document void with `reason`; its bytes and row stay. 409 if it already is."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("a reason is required to void a document", {"reason": ["REQUIRED"]})
    row = load(ctx.conn, document_id)
    if row.voided_at is not None:
        raise Conflict(f"document {document_id} is already void", code="DOCUMENT_ALREADY_VOID")
    done = ctx.conn.execute(update(DOCUMENT).where(DOCUMENT.c.id == document_id, DOCUMENT.c.voided_at.is_(None))
                            .values(voided_at=ctx.now, voided_by=ctx.actor.username, void_reason=reason))
    if done.rowcount != 1:
        raise Conflict(f"document {document_id} is already void", code="DOCUMENT_ALREADY_VOID")
    ctx.audit("document_voided", instance_id=row.instance_id,
              data={"document_id": document_id, "folio": row.folio, "type": row.type, "reason": reason})
    return shape({**row._mapping, "voided_at": ctx.now, "voided_by": ctx.actor.username, "void_reason": reason},
                 process_key_of(ctx.conn, row.instance_id))


def load(conn, document_id: int):
    row = conn.execute(select(DOCUMENT).where(DOCUMENT.c.id == document_id)).first()
    if row is None:
        raise NotFound(f"there is no document {document_id}")
    return row


def index(conn, instance_id: int) -> list[dict]:
    """The case's documents in folio order."""
    key = process_key_of(conn, instance_id)
    rows = conn.execute(select(DOCUMENT).where(DOCUMENT.c.instance_id == instance_id).order_by(DOCUMENT.c.folio))
    return [shape(r._mapping, key) for r in rows]


def content_chunks(conn, row):
    """The stored bytes of a document row, chunk by chunk."""
    return storage.holding(row.storage).chunks(conn, row.storage_key)


def shape(row, process_key: str) -> dict:
    kind = catalogue.document_type(process_key, row["type"]) or {}
    return {"id": row["id"], "instance_id": row["instance_id"], "type": row["type"],
            "type_label": kind.get("label_es", row["type"]), "type_label_en": kind.get("label_en", row["type"]),
            "article": kind.get("article"), "filename": row["filename"], "media_type": row["media_type"],
            "size": row["size"], "sha256": row["sha256"], "version": row["version"], "folio": row["folio"],
            "source": row["source"], "description": row["description"], "task_id": row["task_id"],
            "uploaded_by": row["uploaded_by"], "uploaded_at": _iso(row["uploaded_at"]),
            "voided": row["voided_at"] is not None, "voided_at": _iso(row["voided_at"]),
            "voided_by": row["voided_by"], "void_reason": row["void_reason"]}


def clean_filename(filename: str | None, media_type: str) -> str:
    """The name as given, without folders, control characters or quotes (it goes into headers)."""
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(c for c in unicodedata.normalize("NFC", name)
                   if unicodedata.category(c)[0] != "C" and c not in '"<>|:*?').strip(" .")
    return name[:200] or f"documento.{media.EXTENSIONS[media_type]}"


def process_key_of(conn, instance_id: int) -> str:
    key = conn.execute(select(INSTANCE.c.process_key).where(INSTANCE.c.id == instance_id)).scalar()
    if key is None:
        raise NotFound(f"there is no case {instance_id}")
    return key


def _iso(value):
    return value.isoformat() if value is not None else None


def _draw(dialect_insert):
    statement = dialect_insert(COUNTER).values(instance_id=bindparam("p_case"), last=1)
    return statement.on_conflict_do_update(index_elements=[COUNTER.c.instance_id],
                                           set_={"last": COUNTER.c.last + 1}).returning(COUNTER.c.last)


_DRAW = {"postgresql": _draw(postgresql.insert), "sqlite": _draw(sqlite.insert)}


def _draw_folio(conn, instance_id: int) -> int:
    # One upsert creates the case's counter or bumps it, holding its row lock to commit: two uploads
    # in parallel never draw the same folio, and a rolled-back upload's folio is drawn again
    # (folios name committed documents, so none is ever skipped or reused).
    return conn.execute(_DRAW[conn.dialect.name], {"p_case": instance_id}).scalar_one()
