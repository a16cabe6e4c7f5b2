"""The notifications outbox: notices a case owes someone (producers of a matching type, Hacienda,
buyers), written by the diagram in the same transaction as the step that owes them.

A script calls the engine helper `notify(recipient, subject, body, channel="correo", address=None)`:
one `notification` row per notice, status `pending`, audited under the case (`notification`, actor `engine`). A
supervisor (or anyone who may read the case) lists them at GET /api/v1/instances/{id}/notifications.

Sending is a separate, configurable transport: the worker's command `deliver_outbox`
(engine/commands/notifications.py) hands pending e-mail rows that
have an address to an SMTP server (`SmtpSettings.from_env`: TRAMITE_SMTP_HOST, _PORT, _FROM,
_USER, _PASSWORD, _STARTTLS) and marks each `sent` or `failed`. With no TRAMITE_SMTP_HOST the
transport is off (the default and the demo): rows stay `pending`, which is the record.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from sqlalchemy import insert, select, update

from engine.persistence.models import Notification

CHANNELS = ("correo", "correo_postal", "entrega_personal", "portal")
# `not_sent`: the notice could never go (a user with no e-mail address); `error` says why, so it is
# not left `pending` for ever.
STATUSES = ("pending", "sent", "failed", "not_sent")


TABLE = Notification.__table__
_INSERT = insert(TABLE)


def record(ctx, instance_id: int | None, recipient, subject, body, channel="correo", address=None,
           element_id: str | None = None, document_id: int | None = None, not_sent: str | None = None) -> dict:
    """Write one notice to the outbox in the command's transaction and audit it; `not_sent` says
    why it cannot be sent at all (it is recorded so, never handed to the transport)."""
    recipient, subject, body = str(recipient).strip(), str(subject).strip(), str(body)
    channel = str(channel or "correo")
    if not recipient or not subject:
        raise ValueError("a notice needs a recipient and a subject")
    if channel not in CHANNELS:
        raise ValueError(f"unknown channel {channel!r}; one of {', '.join(CHANNELS)}")
    row = {"case_id": instance_id, "recipient": recipient[:200], "address": (str(address)[:300] if address else None),
           "channel": channel, "subject": subject[:300], "body": body, "element_id": element_id,
           "created_at": ctx.now, "sent_at": None, "status": "not_sent" if not_sent else "pending",
           "error": not_sent,
           "document_id": document_id}
    new_id = ctx.conn.execute(_INSERT.returning(TABLE.c.id), row).scalar_one()
    ctx.audit("notification", instance_id=instance_id, element_id=element_id, actor="engine",
              message=f"aviso a {recipient}: {subject}",
              data={"notification_id": new_id, "recipient": recipient, "channel": channel, "subject": subject})
    return {"id": new_id, "recipient": recipient, "channel": channel, "subject": subject,
            "created_at": ctx.now.isoformat(), "status": row["status"], "document_id": document_id}


def attach_document(ctx, notification_id: int, document_id: int) -> None:
    """Link a notice already written to the letter generated for it (a script's `notify` comes first)."""
    ctx.conn.execute(update(TABLE).where(TABLE.c.id == notification_id).values(document_id=document_id))


def _view(row) -> dict:
    return {"id": row.id, "case_id": row.case_id, "recipient": row.recipient, "address": row.address,
            "channel": row.channel, "subject": row.subject, "body": row.body, "element_id": row.element_id,
            "created_at": row.created_at.isoformat() if row.created_at else None,
            "sent_at": row.sent_at.isoformat() if row.sent_at else None, "status": row.status, "error": row.error,
            "document_id": row.document_id}


def of_case(conn, instance_id: int) -> list[dict]:
    rows = conn.execute(select(TABLE).where(TABLE.c.case_id == instance_id).order_by(TABLE.c.id)).all()
    return [_view(r) for r in rows]


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int = 25
    sender: str = "tramite@localhost"
    user: str | None = None
    password: str | None = None
    starttls: bool = False
    timeout: float = 10.0

    @classmethod
    def from_env(cls, env=None) -> "SmtpSettings | None":
        """None (transport off) unless TRAMITE_SMTP_HOST is set."""
        env = os.environ if env is None else env
        host = (env.get("TRAMITE_SMTP_HOST") or "").strip()
        if not host:
            return None
        return cls(host=host, port=int(env.get("TRAMITE_SMTP_PORT") or 25),
                   sender=env.get("TRAMITE_SMTP_FROM") or "tramite@localhost",
                   user=env.get("TRAMITE_SMTP_USER") or None, password=env.get("TRAMITE_SMTP_PASSWORD") or None,
                   starttls=(env.get("TRAMITE_SMTP_STARTTLS") or "").lower() in ("1", "true", "yes"))
