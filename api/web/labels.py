"""Words shown to people for the engine's codes: statuses, history events, validation messages.

The engine speaks in codes and English messages (they are part of the API); the pages show them
in the user's language and keep the code beside, so a clerk can quote it to support.
"""
from __future__ import annotations

import json
import re

from flask_babel import lazy_gettext as _l

from api.web import case_context, formkit, procedure_labels
from api.web.i18n import selected_language

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
    "case_migrated": _l("Caso migrado a otra versión"), "case_moved": _l("Caso movido a otro paso"),

    "case_suspended": _l("Plazos suspendidos"), "case_resumed": _l("Plazos reanudados"),
    "deadline_moved": _l("Plazo prorrogado"),  # extend_deadline() in a script: an extension granted
    "document_added": _l("Documento añadido al expediente"), "document_voided": _l("Documento anulado"),
    "note_added": _l("Nota interna añadida"), "letter_generated": _l("Carta generada"),
    "task_completed_on_behalf": _l("Tarea completada en suplencia"),
    "applicant_access_issued": _l("Código de acceso emitido al solicitante"),
    "applicant_session_opened": _l("El solicitante consultó su caso"),
    "applicant_filed": _l("Presentado por el solicitante, con su recibo"),
}

# The notifications outbox (the engine's notifications): how a notice travels and where it is.
CHANNELS = {"correo": _l("Correo electrónico"), "correo_postal": _l("Correo postal"), "portal": _l("Portal"),
            "entrega_personal": _l("Entrega personal")}
NOTICE_STATUS = {"pending": _l("Pendiente de envío"), "sent": _l("Enviada"), "failed": _l("Falló el envío"),
                 "not_sent": _l("No enviada")}

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


def event(code: str, process_key: str | None = None) -> str:
    """A history event type in words: the engine's own, then the procedure's label data."""
    if code in EVENTS:
        return str(EVENTS[code])
    return pick(procedure_labels.section("events", process_key).get(code)) or code.replace("_", " ")


def channel(code: str | None) -> str:
    return str(CHANNELS.get(code, code or ""))


def notice_status(code: str | None) -> str:
    return str(NOTICE_STATUS.get(code, code or ""))


# -- the procedure's own words (processes/<procedure>/labels.json) ------------------------------------

SYSTEM_ACTORS = {"engine": _l("Sistema"), "system": _l("Sistema"), "timer": _l("Sistema (plazo)")}
# What an element the diagram left unnamed is, when the label data does not name it either.
ELEMENT_KINDS = {"exclusiveGateway": _l("Punto de decisión"), "inclusiveGateway": _l("Punto de decisión"),
                 "parallelGateway": _l("Ramas en paralelo"), "eventBasedGateway": _l("Espera del primer evento"),
                 "startEvent": _l("Inicio"), "endEvent": _l("Fin"), "scriptTask": _l("Paso automático"),
                 "serviceTask": _l("Paso automático"), "intermediateCatchEvent": _l("Espera"),
                 "boundaryEvent": _l("Plazo o aviso del paso"), "subProcess": _l("Subproceso"),
                 "callActivity": _l("Otro procedimiento")}


def pick(entry) -> str | None:
    """A label entry `{"es", "en"}` in the page's language (Spanish when English is missing)."""
    if isinstance(entry, str):
        return entry
    if not isinstance(entry, dict):
        return None
    return entry.get(selected_language()) or entry.get("es") or entry.get("en")


def code(value, process_key: str | None = None, *sections: str) -> str:
    """A code a variable holds (a stage, an outcome, a status) in words; unknown codes as they are."""
    if not isinstance(value, str) or not value:
        return "" if value is None else str(value)
    for name in sections or ("stages", "outcomes", "values"):
        found = pick(procedure_labels.section(name, process_key).get(value))
        if found:
            return found
    return value


PARAMETER_TYPES = {"number": _l("número"), "string": _l("texto"), "list": _l("lista"), "object": _l("tabla"),
                   "bool": _l("sí o no"), "date": _l("fecha")}


def parameter_type(kind: str | None) -> str:
    return str(PARAMETER_TYPES.get(kind or "", kind or ""))


def code_text(value, process_key: str | None = None) -> str:
    """Any value in words: codes by the label data, yes/no, lists joined, a map as "key: value"."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(_l("Sí") if value else _l("No"))
    if isinstance(value, list):
        return ", ".join(code_text(v, process_key) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{code(str(k), process_key)}: {code_text(v, process_key)}" for k, v in value.items()) or "—"
    return code(value, process_key) if isinstance(value, str) else str(value)


def stage(value, process_key: str | None = None) -> str:
    return code(value, process_key, "stages", "values", "outcomes")


def outcome(value, process_key: str | None = None) -> str:
    return code(value, process_key, "outcomes", "values", "stages")


def role(role_id: str | None, roles: dict) -> str:
    return roles.get(role_id, role_id or "")


# Events whose message a person typed (a cancellation's reason); the others carry the engine's
# English wording for the API, shown on English pages only (their data stays under "Datos").
TYPED_MESSAGES = ("case_cancelled",)


def event_message(event: dict) -> str:
    message = event.get("message") or ""
    return message if event.get("type") in TYPED_MESSAGES or selected_language() == "en" else ""


def element_state(state: str | None) -> str:
    return str(ELEMENT_STATES.get(state or "", state or ""))


def actor(username: str | None) -> str:
    return str(SYSTEM_ACTORS.get(username or "", username or ""))


def element_names(definition) -> dict[str, str]:
    """{element id: what a person reads}: its name in the diagram, else the label data's, else its kind."""
    named = procedure_labels.section("elements", definition.key)
    out = {}
    for element in definition.summary.get("elements", []):
        name, element_id = element.get("name"), element["id"]
        if name and name != element_id:
            out[element_id] = name
        else:
            out[element_id] = pick(named.get(element_id)) or str(ELEMENT_KINDS.get(element.get("type"),
                                                                                  _l("Paso del diagrama")))
    return out


def catalogue(definition) -> dict:
    """The version's form catalogue (api/web/case_context) completed by the procedure's label data:
    a variable no form names reads as the label data says, and its codes in words; the variables
    the label data calls internal are marked so the facts leave them out."""
    out = case_context.form_catalogue(definition.files)
    data = procedure_labels.for_process(definition.key)
    codes = [(formkit.token(c), pick(e)) for name in ("stages", "outcomes", "values")
             for c, e in procedure_labels.section(name, definition.key).items()]
    for path, entry in (data.get("variables") or {}).items():
        known = out.get(path)
        label = pick(entry)
        if known is None:
            out[path] = formkit.Field(path=path, kind="text", label=label, options=codes)
        elif not case_context._titled(known):
            known.label = label
    for path in data.get("internal") or []:
        out[path] = formkit.Field(path=path, kind=INTERNAL, label=path)
    return out


INTERNAL = "internal"


def _option(names: dict, member, process_key: str | None) -> str:
    # A form that gave its options no names shows the member itself: the label data names it then.
    named = names.get(formkit.token(member))
    return named if named and named != str(member) else code(member, process_key)


def message_title(process_key: str | None, name: str, fallback: str | None = None) -> str:
    return pick(procedure_labels.section("messages", process_key).get(name)) or fallback or name


def message_ui(process_key: str | None, name: str, schema: dict, ui: dict | None, known: dict) -> dict:
    """The message form's UI schema with a title for each field and words for each option, from the
    label data's `messages.<name>.fields`, else from the version's forms (`known`, a catalogue)."""
    fields = (procedure_labels.section("messages", process_key).get(name) or {}).get("fields") or {}
    return form_ui(process_key, schema, ui, known, fields)


def form_ui(process_key: str | None, schema: dict, ui: dict | None, known: dict, fields: dict | None = None) -> dict:
    """A form's UI schema completed where it names nothing: a field's title from `fields` (label
    data by path), else from `known` (labels.catalogue); an option's words from the label data."""
    fields = fields or {}
    ui = json.loads(json.dumps(ui or {}))

    def walk(node: dict, node_ui: dict, path: str):
        node = formkit.resolve(node, schema)
        if node.get("type") == "array" or "items" in node:
            walk(node.get("items") or {}, node_ui.setdefault("items", {}), f"{path}.*" if path else "*")
        for prop, sub in formkit._properties(node, schema).items():
            sub_path = f"{path}.{prop}" if path else prop
            sub_ui = node_ui.setdefault(prop, {})
            field = known.get(sub_path)
            title = pick(fields.get(sub_path)) or (field.label if field is not None and field.kind != INTERNAL
                                                  else None)
            if title and not sub_ui.get("ui:title") and not formkit.resolve(sub, schema).get("title"):
                sub_ui["ui:title"] = title
            members = formkit.enum_of(formkit.resolve(sub, schema)) or []
            if members and "ui:enumNames" not in sub_ui:
                names = dict(field.options) if field is not None and field.options else {}
                sub_ui["ui:enumNames"] = ["—" if m is None else _option(names, m, process_key) for m in members]
            walk(formkit.resolve(sub, schema), sub_ui, sub_path)
    walk(schema, ui, "")
    return ui
