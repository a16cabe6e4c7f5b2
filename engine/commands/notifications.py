"""Handing the notifications outbox to the SMTP transport (the timer worker's second job); a notice
that carries a generated letter (`document_id`) goes with the letter's PDF attached."""
from __future__ import annotations

import smtplib
from email.message import EmailMessage

from sqlalchemy import select, update

from engine.expediente import documents
from engine.kernel import access
from engine.registries.notifications import TABLE, SmtpSettings


def deliver_outbox(ctx, smtp: SmtpSettings | None, limit: int = 100) -> dict:
    """Send pending e-mail notices that have an address; mark each sent or failed. With no SMTP
    settings nothing is sent (transport off)."""
    access.require_engine(ctx.actor, "send the notifications outbox")
    if smtp is None:
        return {"sent": 0, "failed": 0, "transport": "off"}
    rows = ctx.conn.execute(select(TABLE).where(
        TABLE.c.status == "pending", TABLE.c.channel == "correo", TABLE.c.address.is_not(None))
        # Two workers never send one notice twice: each takes rows the other has not locked.
        .order_by(TABLE.c.id).limit(limit).with_for_update(skip_locked=True)).all()
    sent = failed = 0
    if not rows:
        return {"sent": 0, "failed": 0, "transport": "smtp"}
    with smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout) as server:
        if smtp.starttls:
            server.starttls()
        if smtp.user:
            server.login(smtp.user, smtp.password or "")
        for row in rows:
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = smtp.sender, row.address, row.subject
            message.set_content(row.body)
            if row.document_id is not None:
                _attach(ctx.conn, message, row.document_id)
            try:
                server.send_message(message)
            except smtplib.SMTPException as exc:
                failed += 1
                ctx.conn.execute(update(TABLE).where(TABLE.c.id == row.id).values(status="failed", error=str(exc)[:2000]))
                continue
            sent += 1
            ctx.conn.execute(update(TABLE).where(TABLE.c.id == row.id).values(status="sent", sent_at=ctx.now))
            ctx.audit("notification_sent", instance_id=row.case_id, actor="engine",
                      data={"notification_id": row.id, "address": row.address})
    return {"sent": sent, "failed": failed, "transport": "smtp"}


def _attach(conn, message: EmailMessage, document_id: int) -> None:
    """The notice's letter goes with it: the PDF stored in the case file, byte for byte."""
    row = documents.load(conn, document_id)
    maintype, _, subtype = (row.media_type or "application/pdf").partition("/")
    message.add_attachment(b"".join(documents.content_chunks(conn, row)), maintype=maintype,
                           subtype=subtype or "pdf", filename=row.filename)
