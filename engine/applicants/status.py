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
from engine.persistence.tables import INSTANCE
from engine.queries import shapes
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
                               INSTANCE.c.stage, INSTANCE.c.variables).where(INSTANCE.c.id == instance_id)).first()
    if case is None:
        raise NotFound("there is no such case")
    data = procedure_data.of(case.process_key)
    stage = _variant(data.get("stages", {}).get(case.stage or "", {}), case.variables or {})
    deadlines = [_deadline(d, lang) for d in shapes.explained_deadlines(conn, instance_id, lang) if d["name"]]
    by_element = {d["element_id"]: d for d in deadlines}
    pending = [_pending(item, by_element, lang) for item in _items(stage.get("pending"))]
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
            "pending": pending, "deadlines": [_public(d) for d in deadlines], "letters": letters, "actions": actions,
            "filed": filed}


def _variant(stage: dict, variables: dict) -> dict:
    """A stage reads differently once the applicant has done their part in it (`after`: the variable
    whose value says so, e.g. the completion date once notified); only that variable is read, and
    nothing of it is shown."""
    after = stage.get("after")
    if after and variables.get(after["when_set"]) not in (None, ""):
        return {"actions": [], **{k: v for k, v in after.items() if k != "when_set"}}
    return stage


def _items(pending) -> list[dict]:
    """A stage's pending items (one object or a list of them in applicant.json)."""
    return [pending] if isinstance(pending, dict) else list(pending or [])


def _deadline(row: dict, lang: str) -> dict:
    # The explanation is the engine's arithmetic in words (engine/queries/deadline_words.py), in the
    # page's language; `explanation_lang` says which.
    return {"element_id": row["element_id"], "name": row["name"], "last_day": _last_day(row["due_at"]),
            "explanation": row.get("explanation"), "explanation_lang": lang}


def _public(deadline: dict) -> dict:
    return {k: v for k, v in deadline.items() if k != "element_id"}


def _pending(item: dict, by_element: dict, lang: str) -> dict:
    """What the applicant owes, by the legal deadline that item names (`deadline`: the timer's
    element); never another deadline that happens to run first. No such timer running: no date."""
    own = by_element.get(item.get("deadline") or "")
    return {"what": item[lang], "due": own["last_day"] if own else None,
            "explanation": own["explanation"] if own else None, "explanation_lang": lang}


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
