"""Reading the case file under the case's visibility rules (403 / 404 exactly as the case page)."""
from __future__ import annotations

from sqlalchemy import select

from engine.errors import NotFound
from engine.expediente import catalogue, documents, export, notes
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.tables import DEFINITION
from engine.queries import shapes
from engine.queries.cases import get_instance


def version_lanes(conn, definition_id: int) -> frozenset:
    """The lanes of a case's version: who works them may add to its file."""
    summary = conn.execute(select(DEFINITION.c.summary).where(DEFINITION.c.id == definition_id)).scalar()
    return frozenset((summary or {}).get("lanes", []))


def case_documents(conn, actor: Actor, instance_id: int) -> list[dict]:
    get_instance(conn, actor, instance_id)
    return documents.index(conn, instance_id)


def case_notes(conn, actor: Actor, instance_id: int) -> list[dict]:
    get_instance(conn, actor, instance_id)
    return notes.notes_of(conn, instance_id)


def document_for_download(conn, actor: Actor, document_id: int, sink) -> dict:
    """Write a document's bytes to `sink` (a binary file) if `actor` may see its case; its shape."""
    row = documents.load(conn, document_id)
    get_instance(conn, actor, row.instance_id)
    for chunk in documents.content_chunks(conn, row):
        sink.write(chunk)
    return documents.shape(row._mapping, documents.process_key_of(conn, row.instance_id))


def document_types_of(conn, process_key: str) -> list[dict]:
    """GET /processes/{key}/document-types: 404 for a key neither deployed nor shipped."""
    found = catalogue.document_types(process_key)
    if not catalogue.has_own_catalogue(process_key) and conn.execute(select(DEFINITION.c.id).where(DEFINITION.c.key == process_key).limit(1)).first() is None:
        raise NotFound(f"there is no process {process_key!r}")
    return found


def expediente(session, actor: Actor, instance_id: int, now, sink, *, pdf_index: bool = True) -> str:
    """Write the certified export of a case `actor` may see to `sink`; returns its case number.
    `pdf_index=False`: the retention archive's form (engine/expediente/export.py)."""
    record = get_instance(session, actor, instance_id)
    conn = session.connection()
    name = conn.execute(select(DEFINITION.c.name).where(DEFINITION.c.id == record.definition_id)).scalar()
    case = {"id": record.id, "case_number": record.case_number, "process_key": record.process_key,
            "process_name": name}
    export.write_expediente(conn, case, shapes.history(session, instance_id), now, actor.username, sink,
                            pdf_index=pdf_index)
    return record.case_number


def case_file(conn, actor: Actor, instance_id: int, task_element: str | None = None) -> dict:
    """What the case and task pages show of the file: the index, the notes, the types one may upload,
    whether `actor` may add or void, and (on a task page) {form field: documents of its type}."""
    record = get_instance(conn, actor, instance_id)
    lanes = version_lanes(conn, record.definition_id)
    index = documents.index(conn, instance_id)
    boxes = {}
    if task_element:
        for path, kind in catalogue.checklist_types(record.process_key, task_element).items():
            boxes[path] = {"type": kind["id"], "label_es": kind["label_es"], "label_en": kind["label_en"],
                           "documents": [d for d in index if d["type"] == kind["id"]]}
    return {"documents": index, "notes": notes.notes_of(conn, instance_id),
            "types": [t for t in catalogue.document_types(record.process_key) if not t["generated"]],  # letters: the engine's
            "may_add": access.may_add_to_case_file(actor, lanes) and (
                access.office_admits(actor, record.office) or access.acts_across_offices(actor)),
            "may_void": actor.is_supervisor, "checklist": boxes}
