"""Words shown to people for the engine's codes: statuses, history events, validation messages.

The engine speaks in codes and English messages (they are part of the API); the pages show them
in the user's language and keep the code beside, so a clerk can quote it to support.
"""
from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l

STATUS = {"active": _l("En curso"), "completed": _l("Terminado"), "cancelled": _l("Cancelado"),
          "error": _l("En error"), "open": _l("Abierta")}

EVENTS = {
    "case_started": _l("Caso iniciado"), "case_completed": _l("Caso terminado"),
    "case_cancelled": _l("Caso cancelado"), "case_retried": _l("Caso reintentado"),
    "task_claimed": _l("Tarea reclamada"), "task_released": _l("Tarea liberada"),
    "task_assigned": _l("Tarea asignada"), "task_completed": _l("Tarea completada"),
    "task_refused": _l("Tarea rechazada por una regla"), "message_received": _l("Mensaje recibido"),
    "message_refused": _l("Mensaje rechazado por una regla"), "timer_fired": _l("Plazo vencido"),
    "decision": _l("Decisión"), "error": _l("Error"), "notification": _l("Notificación"),
    "notification_sent": _l("Notificación enviada"),
    "case_suspended": _l("Plazos suspendidos"), "case_resumed": _l("Plazos reanudados"),
}

# The notifications outbox (the engine's notifications): how a notice travels and where it is.
CHANNELS = {"correo": _l("Correo electrónico"), "correo_postal": _l("Correo postal"), "portal": _l("Portal")}
NOTICE_STATUS = {"pending": _l("Pendiente de envío"), "sent": _l("Enviada"), "failed": _l("Falló el envío")}

ELEMENT_STATES = {"completed": _l("completado"), "active": _l("activo"), "waiting": _l("en espera"),
                  "error": _l("en error")}

# jsonschema's English messages (and the engine's own), recognised by their wording, in the user's language.
_VALIDATION = [
    (re.compile(r"required for a ban"), _l("Una inhabilitación dura un número de meses.")),
    (re.compile(r"is a required property"), _l("Este campo es obligatorio.")),
    (re.compile(r"does not match"), _l("El formato no es válido.")),
    (re.compile(r"is not of type '(number|integer)'"), _l("Escriba un número.")),
    (re.compile(r"is not of type 'boolean'"), _l("Escoja sí o no.")),
    (re.compile(r"is not of type"), _l("El valor no es del tipo esperado.")),
    (re.compile(r"is not one of|is not valid under any of the given schemas"), _l("Escoja una de las opciones.")),
    (re.compile(r"should be non-empty|is too short"), _l("Falta información: añada al menos un elemento o escriba más.")),
    (re.compile(r"is too long|expected at most"), _l("Es demasiado largo o tiene demasiados elementos.")),
    (re.compile(r"is less than the minimum|is less than or equal to the minimum"), _l("El valor es menor que el mínimo permitido.")),
    (re.compile(r"is greater than the maximum|is greater than or equal to the maximum"), _l("El valor es mayor que el máximo permitido.")),
    (re.compile(r"has non-unique elements"), _l("Hay elementos repetidos.")),
    (re.compile(r"Additional properties|Unevaluated properties"), _l("El formulario envió campos que no conoce.")),
    (re.compile(r"is not a 'date'"), _l("Escriba una fecha válida.")),
]


def friendly(message: str) -> str:
    """A validation message in the user's language; unknown wording is shown as the engine said it."""
    for pattern, text in _VALIDATION:
        if pattern.search(message):
            return str(text)
    return message


def friendly_errors(errors: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, messages in (errors or {}).items():
        for message in messages if isinstance(messages, list) else [messages]:
            text = friendly(str(message))
            if text not in out.setdefault(path, []):
                out[path].append(text)
    return out


def status(code: str | None) -> str:
    return str(STATUS.get(code, code or ""))


def event(code: str) -> str:
    return str(EVENTS.get(code, code.replace("_", " ")))


def channel(code: str | None) -> str:
    return str(CHANNELS.get(code, code or ""))


def notice_status(code: str | None) -> str:
    return str(NOTICE_STATUS.get(code, code or ""))
