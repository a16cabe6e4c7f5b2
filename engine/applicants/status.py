"""What the status page shows the applicant of their one case, in plain words (API.md "Applicant
access"): the stage as a sentence from the procedure's data, what is pending from them and by
when, the deadlines running, the letters notified, the messages they may send now. Nothing else of
the case leaves here: no stage codes, no variables, no staff names, no internal notes."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from engine.applicants import procedure_data
from engine.errors import NotFound
from engine.expediente import documents
from engine.persistence.tables import INSTANCE, TIMER
from engine.rules.calendar import local_date

_STATUS = {"es": {"active": "en trámite", "completed": "terminado", "cancelled": "cancelado", "error": "en trámite"},
           "en": {"active": "in progress", "completed": "finished", "cancelled": "cancelled", "error": "in progress"}}
_GENERIC_STAGE = {"es": "Su caso está en trámite en la oficina.", "en": "Your case is being handled by the office."}
# The applicant sees the documents the office sent them and the ones they filed, never staff uploads.
SOURCES_SHOWN = ("generated", "applicant")


def _last_day(due_at):
    """A deadline's timer fires at the first instant after its last day: that day is the one before."""
    return local_date(due_at - timedelta(microseconds=1)).isoformat()


def case_status(conn, instance_id: int, lang: str = "es") -> dict:
    lang = "en" if lang == "en" else "es"
    case = conn.execute(select(INSTANCE.c.case_number, INSTANCE.c.process_key, INSTANCE.c.status,
                               INSTANCE.c.stage).where(INSTANCE.c.id == instance_id)).first()
    if case is None:
        raise NotFound("there is no such case")
    data = procedure_data.of(case.process_key)
    stage = data.get("stages", {}).get(case.stage or "", {})
    timers = conn.execute(select(TIMER.c.name, TIMER.c.due_at).where(
        TIMER.c.instance_id == instance_id, TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False))
        .order_by(TIMER.c.due_at)).all()
    deadlines = [{"name": t.name, "last_day": _last_day(t.due_at)} for t in timers if t.name]
    pending = []
    if stage.get("pending"):
        pending.append({"what": stage["pending"][lang], "due": deadlines[0]["last_day"] if deadlines else None})
    messages = data.get("messages", {})
    actions = ([{"message": name, "label": messages[name][f"label_{lang}"]}
                for name in stage.get("actions", []) if name in messages] if case.status == "active" else [])
    shown = [{"kind": d["type"], "label": d["type_label_en" if lang == "en" else "type_label"],
              "date": local_date(_aware(d["uploaded_at"])).isoformat(), "document_id": d["id"],
              "filename": d["filename"], "source": d["source"]}
             for d in documents.index(conn, instance_id) if d["source"] in SOURCES_SHOWN and not d["voided"]]
    letters = [d for d in shown if d["source"] == "generated"]
    filed = [d for d in shown if d["source"] == "applicant"]
    return {"case_number": case.case_number, "process_name": data.get(f"name_{lang}", case.process_key),
            "status": _STATUS[lang].get(case.status, case.status),
            "stage_label": stage.get(lang) or _GENERIC_STAGE[lang],
            "pending": pending, "deadlines": deadlines, "letters": letters, "actions": actions,
            "filed": filed}


def _aware(value):
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def document_of_case(conn, instance_id: int, document_id: int):
    """A document the applicant may download: theirs or a letter to them, of their own case (else 404)."""
    row = documents.load(conn, document_id)
    if row.instance_id != instance_id or row.source not in SOURCES_SHOWN:
        raise NotFound(f"there is no document {document_id}")
    return row


def write_document(conn, instance_id: int, document_id: int, sink) -> tuple[str, str]:
    """Stream one of the case's own documents into `sink`; its (filename, media type). The API and the
    status page both download through this."""
    row = document_of_case(conn, instance_id, document_id)
    for chunk in documents.content_chunks(conn, row):
        sink.write(chunk)
    return row.filename, row.media_type
