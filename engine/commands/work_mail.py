"""The e-mails of work management (reminders, escalations, the supervisors' digest): their Spanish
words, the staff member's address, and the outbox row that carries them.

Each notice is one outbox row (engine.registries.notifications) with the user's address, so the
worker's SMTP transport (engine.commands.notifications.deliver_outbox) sends it like any other. A
user with no address still gets the row, recorded `not_sent` with the reason: the office sees who
was not told, and nothing sits `pending` for ever.
"""
from __future__ import annotations

import os

from sqlalchemy import select

from engine.persistence.models import User
from engine.registries import notifications
from engine.rules.calendar import PUERTO_RICO, last_day_of

_USER = User.__table__
LOCAL_URL = "http://127.0.0.1:8000"  # `tramite serve`'s own address when TRAMITE_PUBLIC_URL is unset


def addresses(conn, usernames) -> dict[str, str | None]:
    """Each user's e-mail address (None when they have none)."""
    names = sorted(set(usernames))
    if not names:
        return {}
    rows = conn.execute(select(_USER.c.username, _USER.c.email).where(_USER.c.username.in_(names)))
    found = {r.username: r.email for r in rows}
    return {name: found.get(name) for name in names}


def no_address(username: str) -> str:
    return f"No se envió: {username} no tiene dirección de correo electrónico registrada."


def task_link(task_id: int) -> str:
    base = (os.environ.get("TRAMITE_PUBLIC_URL") or "").strip().rstrip("/") or LOCAL_URL
    return f"{base}/web/tasks/{task_id}"


def last_day(due_at) -> str:
    """The last day a due instant stands for: a day's deadline (00:00 of the next day) is its day,
    any other instant its day and hour, in Puerto Rico."""
    day = last_day_of(due_at)
    if day is not None:
        return day.strftime("%d/%m/%Y")
    return due_at.astimezone(PUERTO_RICO).strftime("%d/%m/%Y a las %H:%M")


def send(ctx, username: str, address: str | None, subject: str, body: str, instance_id: int | None = None,
         element_id: str | None = None) -> dict:
    """One notice to one staff member, e-mailed by the transport, or recorded as not sendable."""
    return notifications.record(ctx, instance_id, username, subject, body, address=address, element_id=element_id,
                                not_sent=None if address else no_address(username))


def reminder(task, kind: str) -> tuple[str, str]:
    """(subject, body) of a task's reminder (`due_soon`) or escalation (`overdue`)."""
    day = last_day(task.due_at)
    if kind == "due_soon":
        subject = f"Recordatorio: la tarea «{task.name}» del caso {task.case_number} vence el {day}"
        opening = f"La tarea «{task.name}» del caso {task.case_number} vence pronto."
    else:
        subject = f"Tarea vencida: «{task.name}» del caso {task.case_number} venció el {day}"
        opening = f"La tarea «{task.name}» del caso {task.case_number} está vencida."
    body = "\n".join([
        opening, "",
        f"Caso: {task.case_number}",
        f"Tarea: {task.name}",
        f"Último día: {day}",
        f"Asignada a: {task.assignee or 'nadie (disponible para su rol)'}",
        f"Abrir la tarea: {task_link(task.id)}", "",
        "Este aviso lo envía Trámite una sola vez por tarea."])
    return subject, body


def digest(day, overdue: list, due_soon: list, more: int = 0) -> tuple[str, str]:
    """(subject, body) of a supervisor's daily digest for Puerto Rico day `day`."""
    stamp = day.strftime("%d/%m/%Y")
    subject = f"Resumen diario del {stamp}: tareas vencidas {len(overdue)}, por vencer {len(due_soon)}"
    lines = [f"Resumen de las tareas que usted supervisa, {stamp}.", ""]
    for title, tasks in (("Tareas vencidas", overdue), ("Tareas que vencen pronto", due_soon)):
        lines.append(f"{title} ({len(tasks)}):")
        lines += [f"- Caso {t.case_number} · «{t.name}» · último día {last_day(t.due_at)} · "
                  f"{t.assignee or 'sin asignar'} · {task_link(t.id)}" for t in tasks] or ["- ninguna"]
        lines.append("")
    if more:
        lines.append(f"… y {more} tareas más: véalas en la lista de tareas del equipo.")
    lines.append("Recibe este resumen porque lo activó en «Mi cuenta»; allí puede desactivarlo.")
    return subject, "\n".join(lines)
