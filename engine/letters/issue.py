"""Letters made when the step that gives a notice completes, inside that step's command.

A command that ran a case's steps calls `issue_letters(ctx, case)` before saving it. For every step
of this command whose element gives a letter kind (engine/letters/kinds/*.json, `on`), each
addressee's letter is assembled from the step's view of the case, rendered to PDF/A-3b, stored in
the expediente (`source: generated`, type `letter.<kind>`) and linked from its notification: the
one the step's own `notify(...)` wrote, or a new one. All of it in the command's transaction, so a
step that fails leaves no letter and a letter never exists without its step.
"""
from __future__ import annotations

import unicodedata

from SpiffWorkflow.util.task import TaskState
from sqlalchemy import select

from engine.config import parameters as parameter_store
from engine.expediente import catalogue
from engine.expediente.documents import add_document
from engine.letters import assemble, kinds, render
from engine.letters.model import Letter
from engine.persistence.models import AuditEvent
from engine.registries import notifications
from engine.rules.calendar import local_date
from engine.rules.reasons import explain_recorded
from engine.runtime import records

AUDIT = AuditEvent.__table__
_DONE = "tramite_letters"  # marks a step whose letters were made: a retried command makes none twice
_CHANNELS = {"correo_electronico": "correo", "correo": "correo", "correo_certificado": "correo_postal",
             "correo_postal": "correo_postal", "entrega_personal": "entrega_personal", "portal": "portal"}
# The parameters a letter reads: its remedy's terms and the laws it cites, and the calendar.
_NAMES = ("calendar.rollForwardNonBusinessDay", "farmer.reviewDeadlineDays", "surplus.pickupDays",
          "letters.reconsiderationDays", "letters.bidReconsiderationDays", "letters.bidReconsiderationLaw",
          "letters.rightsLaw", "letters.judicialReviewDays")


def letter_parameters(frozen: dict, holidays) -> dict:
    """The values a letter uses: frozen in the case (the catalogue's default for one the case
    predates), with the holidays read live as every deadline does."""
    catalog = parameter_store.catalog()
    values = {name: frozen.get(name, catalog[name]["default"]) for name in _NAMES if name in catalog}
    values["calendar.holidays"] = holidays
    return values


def _steps(case, triggers: dict):
    for wf in [case.workflow, *case.workflow.subprocesses.values()]:
        for task in wf.tasks.values():
            element = getattr(task.task_spec, "bpmn_id", None)
            # Only this command's steps: a case older than the letters never gets one late.
            if (element in triggers and task.state == TaskState.COMPLETED and not task.internal_data.get(_DONE)
                    and case.changed_in_this_command(task)):
                yield element, task


def issue_letters(ctx, case, *, task_id: int | None = None, element_id: str | None = None) -> list[dict]:
    """Make the letters of the steps this command completed; returns [{kind, document_id, notification_id}].
    `task_id`/`element_id`: the user task the command completed, so its letter names that task."""
    triggers = kinds.triggers_for(case.instance.process_key)
    if not triggers:
        return []
    found = sorted(_steps(case, triggers), key=lambda pair: pair[1].last_state_change)
    if not found:
        return []
    frozen = records.frozen_parameters(ctx.conn, case.instance.id)
    holidays = parameter_store.typed_value("calendar.holidays", frozen, ctx.session)
    values = letter_parameters(frozen, holidays)
    variables = case.variables()
    wording = reason_wording(ctx.conn, case.instance.id)
    today = local_date(ctx.now)
    made = []
    for element, task in found:
        task.internal_data[_DONE] = True
        scope = {**variables, **task.data}
        for kind in triggers[element]:
            for letter in assemble.letters_for(kind["kind"], scope, case_number=case.instance.case_number,
                                               notice_date=today, parameters=values, wording=wording):
                made.append(_store(ctx, case.instance.id, kind, letter, element,
                                   task_id if element == element_id else None))
    return made


def reason_wording(conn, case_id: int):
    """The rules' own sentence for each reason code: the one the case's history recorded with its
    values (the latest decision that gave that code), else the code's sentence filled from the case."""
    recorded: dict[str, dict] = {}
    rows = conn.execute(select(AUDIT.c.data).where(AUDIT.c.instance_id == case_id, AUDIT.c.type == "decision")
                        .order_by(AUDIT.c.id))
    for (data,) in rows:
        why = explain_recorded(data or {}) if isinstance(data, dict) else None
        for reason in (why or {}).get("reasons", []):
            recorded[reason["code"]] = reason

    def wording(code: str, language: str, values) -> tuple[str, list[str]] | None:
        reason = recorded.get(code)
        if reason is None or (values.get("offer_id") and values["offer_id"] not in reason.get(language, "")):
            return None  # the letter then fills the rules' sentence from the case (assemble.rules_wording)
        return reason.get(language) or reason["es"], list(reason.get("rule_ids") or [])
    return wording


def _store(ctx, case_id: int, kind: dict, letter: Letter, element: str, task_id: int | None) -> dict:
    content = render.pdf(letter)
    type_id = kinds.document_type(letter.kind)
    # The words a person reads for the kind are its document type's label (the catalogue's, one
    # source): in the file name the expediente lists and in the history line.
    label = (catalogue.letter_label(type_id) or {}).get("label_es") or letter.kind.replace("_", " ")
    filename = f"{_slug(label, 60)}-{letter.case_number}-{_slug(letter.addressee_name)}.pdf"
    document = add_document(ctx, case_id, content, type=type_id, filename=filename,
                            source="generated", actor="engine", task_id=task_id,
                            description=f"{letter.title} — {letter.addressee_name}")
    notice = _own_notice(ctx, case_id, element, letter) if kind.get("link_notification") else None
    if notice is not None:
        notifications.attach_document(ctx, notice, document["id"])
    else:
        method = letter.extra.get("method") or "correo_postal"
        channel = _CHANNELS.get(method, "correo_postal")
        notice = notifications.record(
            ctx, case_id, letter.addressee_name or letter.case_number, letter.title, _body(letter), channel,
            letter.extra.get("email") if channel == "correo" else None, element, document_id=document["id"])["id"]
    ctx.audit("letter_generated", instance_id=case_id, element_id=element, actor="engine",
              message=f"{label} a {letter.addressee_name}",
              data={"kind": letter.kind, "document_id": document["id"], "notification_id": notice,
                    "addressee": letter.addressee_name, "language": letter.language,
                    "remedy_last_day": letter.remedy.last_day.isoformat() if letter.remedy else None})
    return {"kind": letter.kind, "document_id": document["id"], "notification_id": notice}


def _own_notice(ctx, case_id: int, element: str, letter: Letter) -> int | None:
    """The notice the step's script wrote to this addressee in this command, not yet linked."""
    for row in reversed(notifications.of_case(ctx.conn, case_id)):
        if (row["element_id"] == element and row["document_id"] is None and row["recipient"] == letter.addressee_name
                and row["created_at"] == ctx.now.isoformat()):
            return row["id"]
    return None


def _body(letter: Letter) -> str:
    lines = [letter.title, f"{letter.case_number} — {letter.notice_date.isoformat()}", "", letter.decision]
    if letter.remedy:
        lines += ["", f"{letter.remedy.name}: {letter.remedy.last_day.isoformat()}"]
    lines += ["", "Se acompaña la carta en PDF." if letter.language == "es" else "The letter is attached as a PDF."]
    return "\n".join(lines)


def _slug(name: str, limit: int = 40) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "-".join("".join(c if c.isalnum() else " " for c in plain).lower().split())[:limit] or "destinatario"


__all__ = ["issue_letters", "letter_parameters"]
