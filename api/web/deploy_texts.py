"""Why a diagram was refused at deploy, in the page's language.

The engine refuses an upload with per-element messages `"CODE: English detail"` (part of the API,
API.md). The modeler shows each beside its element: in Spanish the code's sentence below, with the
names the detail quotes (a lane, a function, a file) kept; in English the engine's own message.
A code missing here shows the engine's message, so a new check is never shown blank.
"""
from __future__ import annotations

import re

from flask_babel import gettext as _

from api.web.i18n import selected_language

SPANISH = {
    "PROCESS_NOT_FOUND": "El archivo no contiene un proceso con ese identificador",
    "PROCESS_NOT_EXECUTABLE": "El proceso no está marcado como ejecutable (isExecutable)",
    "UNSUPPORTED_FILE": "Solo se aceptan archivos .bpmn, .dmn y los formularios .json",
    "FILE_TOO_LARGE": "El archivo es demasiado grande",
    "TOO_MANY_ELEMENTS": "El diagrama tiene demasiados elementos",
    "TOO_MANY_BRANCHES": "El elemento tiene demasiadas salidas",
    "HUMAN_TASK_WITHOUT_LANE": "La tarea no está en ningún carril: póngala (o el subproceso que la contiene) en el "
                               "carril del rol que la hace",
    "LANE_NOT_A_ROLE": "El nombre del carril no es un rol conocido; use el identificador de un rol",
    "LANE_BUILTIN_ROLE": "Un carril no puede nombrar un rol del sistema (administrador, supervisor, dueño de proceso)",
    "USER_TASK_WITHOUT_FORM": "La tarea de usuario no tiene formulario",
    "INVALID_FORM": "El formulario no es válido",
    "SCRIPT_EMPTY": "La tarea de script no tiene script",
    "SCRIPT_NOT_PYTHON": "El script no está en Python",
    "SCRIPT_INVALID": "El script o la condición no es válido",
    "UNKNOWN_FUNCTION": "El script llama una función que el motor no conoce",
    "TIMER_INVALID": "El temporizador no tiene fecha, duración ni ciclo",
    "TIMER_VALUE_INVALID": "El valor del temporizador no es válido",
    "SERVICE_TASK_UNSUPPORTED": "Trámite no llama servicios externos; use una tarea de script",
    "COMPENSATION_UNSUPPORTED": "Trámite no ejecuta compensaciones",
    "LINK_EVENT_UNSUPPORTED": "Trámite no ejecuta eventos de enlace",
    "DATA_STORE_UNSUPPORTED": "Trámite no tiene almacenes de datos",
    "SIGNAL_WITHOUT_NAME": "Ponga nombre a la señal o al evento",
    "GATEWAY_WITHOUT_OUTGOING": "Una compuerta necesita al menos un flujo de salida",
    "CALLED_PROCESS_NOT_FOUND": "El proceso llamado no está desplegado",
    "CALL_CYCLE": "Los procesos se llaman entre sí sin que ninguno pueda terminar",
    "CORRELATION_PROPERTY_MISSING": "Falta la propiedad de correlación del mensaje",
    "NOTIFY_RECIPIENT_NOT_ALLOWED": "La notificación va a un destinatario no permitido",
    "NOTIFY_ADDRESS_NOT_ALLOWED": "La notificación va a una dirección no permitida",
    "DOCTYPE_NOT_ALLOWED": "El XML no puede declarar DOCTYPE ni ENTITY",
}
CODED = re.compile(r"^([A-Z][A-Z0-9_]+)(?::\s*(.*))?$", re.S)
QUOTED = re.compile(r"'([^']{1,80})'")


def explain(message: str) -> str:
    """One per-element refusal in the page's language."""
    if selected_language() == "en":
        return message
    found = CODED.match(str(message))
    if not found or found.group(1) not in SPANISH:
        return str(message)
    names = QUOTED.findall(found.group(2) or "")
    return SPANISH[found.group(1)] + (" (" + ", ".join(f"«{n}»" for n in names) + ")" if names else "") + "."


def refusal(key: str, message: str, errors: dict) -> dict:
    """The deploy endpoint's answer body for a refused upload, worded for the page."""
    worded = {where: [explain(m) for m in (msgs if isinstance(msgs, list) else [msgs])]
              for where, msgs in (errors or {}).items()}
    if selected_language() != "en":
        message = _("No se pudo desplegar «%(key)s»: revise los elementos marcados.", key=key)
    # `engine_errors`: the engine's own messages with their codes, for whoever quotes them to support.
    return {"message": message, "errors": worded, "engine_errors": errors or {}}
