"""The diagram the web tests drive: a start form and a task form with every kind of field."""
from __future__ import annotations

import json

from tests.support import bpmn as b

MONEY = {"type": ["string", "number"], "pattern": r"^\d{1,12}(\.\d{1,2})?$"}
SCHEMA = "https://json-schema.org/draft/2020-12/schema"

START = {
    "$schema": SCHEMA, "title": "Solicitud de ayuda", "type": "object", "additionalProperties": False,
    "required": ["applicant", "amount", "kind", "lines"],
    "properties": {
        "applicant": {"type": "object", "required": ["name"], "additionalProperties": False,
                      "properties": {"name": {"type": "string", "minLength": 1, "pattern": r"\S"},
                                     "municipality": {"type": ["string", "null"], "maxLength": 100}}},
        "amount": MONEY,
        "filed_on": {"type": "string", "format": "date"},
        "kind": {"enum": ["new", "renewal"]},
        "notes": {"type": "string", "maxLength": 2000},
        "urgent": {"type": "boolean"},
        "lines": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}},
    },
    "$defs": {"item": {"type": "object", "required": ["description", "price"], "additionalProperties": False,
                       "properties": {"description": {"type": "string", "minLength": 1},
                                      "quantity": {"type": "integer", "minimum": 1}, "price": MONEY}}},
}
START_UI = {
    "ui:order": ["applicant", "kind", "amount", "filed_on", "urgent", "lines", "notes"],
    "applicant": {"ui:title": "Solicitante", "name": {"ui:title": "Nombre completo"},
                  "municipality": {"ui:title": "Municipio"}},
    "amount": {"ui:title": "Cantidad solicitada", "ui:help": "En dólares, con dos decimales."},
    "filed_on": {"ui:title": "Fecha de presentación"},
    "kind": {"ui:title": "Tipo de solicitud", "ui:widget": "select", "ui:enumNames": ["Nueva", "Renovación"]},
    "notes": {"ui:title": "Observaciones", "ui:widget": "textarea"},
    "urgent": {"ui:title": "Es urgente", "ui:widget": "checkbox"},
    "lines": {"ui:title": "Renglones", "items": {"description": {"ui:title": "Descripción"},
                                                 "quantity": {"ui:title": "Cantidad"},
                                                 "price": {"ui:title": "Precio"}}},
}
EVALUATE = {
    "$schema": SCHEMA, "title": "Evaluación", "type": "object", "additionalProperties": False,
    "required": ["recommendation", "findings"],
    "properties": {
        "recommendation": {"enum": ["approve", "deny"]},
        "findings": {"type": "string", "minLength": 1, "maxLength": 5000, "pattern": r"\S"},
        "visit_date": {"type": "string", "format": "date"},
        "checks": {"type": "array", "uniqueItems": True, "items": {"enum": ["identity", "income", "address"]}},
        "quotes": {"type": "array", "items": {"type": "object", "required": ["store", "amount"],
                                              "additionalProperties": False,
                                              "properties": {"store": {"type": "string", "minLength": 1},
                                                             "amount": MONEY}}},
    },
}
EVALUATE_UI = {
    "ui:order": ["recommendation", "findings", "visit_date", "checks", "quotes"],
    "recommendation": {"ui:title": "Recomendación", "ui:widget": "radio", "ui:enumNames": ["Aprobar", "Denegar"]},
    "findings": {"ui:title": "Hallazgos", "ui:widget": "textarea"},
    "visit_date": {"ui:title": "Fecha de la visita"},
    "checks": {"ui:title": "Verificaciones hechas", "ui:widget": "checkboxes",
               "ui:enumNames": ["Identidad", "Ingresos", "Dirección"]},
    "quotes": {"ui:title": "Cotizaciones", "items": {"store": {"ui:title": "Ferretería"},
                                                     "amount": {"ui:title": "Importe"}}},
}


def web_flow(task_name: str = "Evaluar solicitud") -> dict[str, str]:
    """start (clerk) → evaluate (reviewer, 20-day deadline) → decide → end; late → TIMED_OUT."""
    xml = b.diagram(
        "test_web", name="Solicitud de prueba",
        lanes={"test_clerk": ["start", "compute", "late", "end_late"],
               "test_reviewer": ["evaluate", "timeout", "decide", "end"]},
        nodes=[b.start(), b.script("compute", "review_last_day = last_timely_day(20)\n"
                                              "review_timer = deadline_timer(review_last_day)\nstage = 'EVALUATION'"),
               b.user("evaluate", task_name), b.timer_boundary("timeout", "evaluate", "review_timer"),
               b.script("decide", "outcome = 'APPROVED' if recommendation == 'approve' else 'DENIED'\n"
                                  "stage = 'DECIDED'"),
               b.script("late", "outcome = 'TIMED_OUT'"), b.end("end"), b.end("end_late")],
        flows=[*b.chain("start", "compute", "evaluate", "decide", "end"), *b.chain("timeout", "late", "end_late")])
    return {"web.bpmn": xml, "start.schema.json": json.dumps(START), "start.ui.json": json.dumps(START_UI),
            "evaluate.schema.json": json.dumps(EVALUATE), "evaluate.ui.json": json.dumps(EVALUATE_UI)}


def start_variables(**extra) -> dict:
    return {"applicant": {"name": "Ana Torres", "municipality": "Cidra"}, "amount": "1200.50", "kind": "new",
            "lines": [{"description": "Zinc", "quantity": 10, "price": "45.00"}], **extra}


# What the red team's diagram did, reduced to a trace: the script, if it runs, calls this server
# (on the old application/xml answer Chromium ran it: an XHTML element turns off its XML viewer).
PAYLOAD = ('<bpmn:extensionElements><x:script xmlns:x="http://www.w3.org/1999/xhtml">'
           "fetch('/web/pwned?cookie=' + document.cookie);"
           "</x:script></bpmn:extensionElements>")


def hostile_flow() -> dict[str, str]:
    """The web test diagram with an XHTML <script> inside its start event (issue 15, finding 1)."""
    files = web_flow()
    files["web.bpmn"] = files["web.bpmn"].replace('<bpmn:startEvent id="start"/>',
                                                  f'<bpmn:startEvent id="start">{PAYLOAD}</bpmn:startEvent>', 1)
    assert PAYLOAD in files["web.bpmn"]
    return files
