"""What came from the applicant, for the staff's case page: each filing with when it came and its
receipt, and each message the rules refused with the reason on record. Read from the case's history
(the applicant's commands note each filing there, `applicant_filed`), for staff who may see the case."""
from __future__ import annotations

from sqlalchemy import select

from engine.applicants import procedure_data
from engine.persistence.models import AuditEvent
from engine.queries.cases import get_instance

_EVENTS = ("applicant_filed", "message_refused")


def filings(conn, actor, instance_id: int, lang: str = "es") -> list[dict]:
    record = get_instance(conn, actor, instance_id)  # 403/404 as the case page itself
    labels = procedure_data.applicant_messages(record.process_key)
    table = AuditEvent.__table__
    rows = conn.execute(select(table.c.at, table.c.type, table.c.data, table.c.message).where(
        table.c.instance_id == instance_id, table.c.actor == "applicant", table.c.type.in_(_EVENTS))
        .order_by(table.c.id)).all()
    out = []
    for row in rows:
        data = row.data or {}
        if row.type == "applicant_filed":
            out.append({"at": row.at, "what": data.get("what"), "message": data.get("message"),
                        "document_id": data.get("document_id"), "receipt_document_id": data.get("receipt_document_id"),
                        "refused": None})
        else:
            name = data.get("name")
            label = labels.get(name, {}).get(f"label_{lang}") or labels.get(name, {}).get("label_es") or name
            out.append({"at": row.at, "what": label, "message": name, "document_id": None,
                        "receipt_document_id": None, "refused": {"code": data.get("code"), "reason": row.message}})
    return out
