"""The applicant's commands (API.md "Applicant access"): staff issue an access code with its filing
receipt; the applicant, holding a session for one case, files documents and sends the messages the
procedure marks as the applicant's — through the same commands and rules as the staff routes."""
from __future__ import annotations

import hashlib
import json

from engine.applicants import codes, procedure_data, receipt, sessions
from engine.expediente.documents import add_document
from engine.identity.actor import Actor, CaseApplicant
from engine.commands.messages import send_message
from engine.queries.cases import get_instance
from engine.runtime import records

APPLICANT = "applicant"  # who the history names for everything the applicant does


def issue_access(ctx, instance_id: int, status_url: str) -> dict:
    """A new code for the case (the previous one stops working) and its receipt, `letter.receipt`."""
    record = get_instance(ctx.conn, ctx.actor, instance_id)
    code = codes.new_code()
    sessions.store_code(ctx, instance_id, codes.hash_code(code))
    data = procedure_data.of(record.process_key)
    pdf = receipt.access_receipt(record.case_number, data.get("name_es", record.process_key),
                                 "Solicitud presentada ante la oficina", code, status_url, record.office, ctx.now)
    document = add_document(ctx, instance_id, pdf, type="letter.receipt", filename="recibo-radicacion.pdf",
                            source="generated", actor="engine", description="Recibo de radicación con el código de acceso")
    ctx.audit("applicant_access_issued", instance_id=instance_id, data={"receipt_document_id": document["id"]})
    return {"access_code": code, "receipt_document_id": document["id"]}


def _as_applicant(ctx, instance_id: int):
    """The case row and the context the staff commands run in for the applicant: the actor is the
    case's applicant (engine/kernel/access.py: this one case, its procedure's applicant messages,
    no lane, no office), and the history names it `applicant`."""
    record = records.load(ctx.conn, instance_id, for_update=False)
    actor = CaseApplicant(APPLICANT, case_id=instance_id,
                          messages=frozenset(procedure_data.applicant_messages(record.process_key)))
    return record, ctx.acting_as(actor, APPLICANT)


def _filing_receipt(ctx, instance_id: int, case_number: str, what: str, folio, sha256: str) -> dict:
    pdf = receipt.filing_receipt(case_number, what, ctx.now, folio, sha256)
    return add_document(ctx, instance_id, pdf, type="letter.receipt", filename="recibo-presentacion.pdf",
                        source="generated", actor="engine", description=f"Recibo: {what}")


def _filed(ctx, instance_id: int, what: str, receipt_id: int, **about) -> None:
    """The history's note of one filing with its receipt: what the staff case page lists as having
    come from the applicant (engine/applicants/received.py)."""
    ctx.audit("applicant_filed", instance_id=instance_id, data={"what": what, "receipt_document_id": receipt_id,
                                                                 **about})


def applicant_upload(ctx, instance_id: int, content, *, type: str, filename: str,
                     description: str | None = None) -> dict:
    """POST /public/case/documents: the applicant's document (source `applicant`) and its receipt."""
    record, _ = _as_applicant(ctx, instance_id)
    document = add_document(ctx, instance_id, content, type=type, filename=filename, source="applicant",
                            actor=APPLICANT, description=description)
    what = f"Documento: {document['type_label']} ({document['filename']})"
    proof = _filing_receipt(ctx, instance_id, record.case_number, what, document["folio"], document["sha256"])
    _filed(ctx, instance_id, what, proof["id"], document_id=document["id"])
    return {**document, "receipt_document_id": proof["id"]}


def applicant_message(ctx, instance_id: int, name: str, payload: dict | None, document: dict | None = None) -> dict:
    """POST /public/case/messages/{name}: exactly the staff route's command (its rules, codes,
    deadlines and refusals on record), as the case's applicant (engine/kernel/access.py decides
    which messages those are). The status page may attach one document (`document`: the keywords
    of `applicant_upload`): it is filed in the same transaction, so a refused message keeps none."""
    record, acting = _as_applicant(ctx, instance_id)
    attached = applicant_upload(ctx, instance_id, **document) if document else None
    send_message(acting, instance_id, name, payload)
    label = procedure_data.applicant_messages(record.process_key)[name].get("label_es", name)
    digest = hashlib.sha256(json.dumps(payload or {}, sort_keys=True, default=str).encode()).hexdigest()
    proof = _filing_receipt(ctx, instance_id, record.case_number, label, None, digest)
    _filed(ctx, instance_id, label, proof["id"], message=name)
    return {"received": name, "receipt_document_id": proof["id"], "document": attached}


def open_applicant_session(engine, case_number: str, code: str, address: str) -> dict:
    """POST /public/session: the pair checked in its own transaction; a wrong pair's failure is
    committed before the one generic 404 is raised."""
    opened = engine.execute(sessions.open_session, Actor(APPLICANT), case_number, code, address)
    if opened is None:
        raise sessions.NoSuchPair()
    return opened


def applicant_actor() -> Actor:
    """Who opens the applicant's transactions: no role; `_as_applicant` narrows it to the one case."""
    return Actor(APPLICANT)
