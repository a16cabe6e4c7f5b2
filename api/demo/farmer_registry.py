"""Demo data of the farmer registry: the registered producers of EXAMPLES.md and a case in each stage.

Idempotent: missing registry entries are added, and the sample cases are started only when the
demo has no admission case yet. Skipped when the procedure is not deployed.
"""
from __future__ import annotations

from datetime import date

from engine.rules.calendar import local_date
from engine.commands.cases import start_case
from engine.commands.messages import send_message
from engine.commands.registries import create_farmer
from engine.commands.tasks import complete
from engine.identity.actor import SYSTEM, Actor
from engine.queries.processes import has_cases, is_deployed

from api.demo.common import add_if_missing, table
from api.demo.words import say, stage

ADMISSION = "farmer_registry_admission"
# The fixtures of EXAMPLES.md "Global test setup": ACTIVE, renewal current.
PRODUCERS = [
    ("F-17", "Pedro Santiago Rivera", "agricultor", "Bo. Rincón, Cidra", "Cidra"),
    ("F-21", "Marisol Vélez Torres", "pescador", "Calle Marina 12, Naguabo", "Naguabo"),
    ("F-22", "Héctor Luis Nieves", "artesano", "Calle Comercio 45, San Germán", "San Germán"),
    ("F-23", "Carmen Rosa Ortiz", "agricultor", "Carr. 155 km 30, Orocovis", "Orocovis"),
    ("F-31", "Ramón Figueroa Colón", "agricultor", "Bo. Guilarte, Adjuntas", "Adjuntas"),
    ("F-32", "Luz Marina Pagán", "agricultor", "Bo. Cayuco, Utuado", "Utuado"),
]
CLERK, EVALUATOR, COMMISSIONER = (Actor(role, frozenset({role}))
                                  for role in ("registry_clerk", "registry_evaluator", "commissioner"))
SECRETARIO = {"type": "secretario_agricultura", "issuer": "Depto. de Agricultura", "registered_dept_estado": None}


def _application(name, producer_type, municipality, gross, activity, documents):
    return {"applicant": {"name": name, "producer_type": producer_type, "address": f"Bo. Centro, {municipality}",
                          "municipality": municipality},
            "gross_annual_income": gross, "activity_income": activity, "sworn_declaration": True,
            "documents": documents}


def _task(case, element_id):
    return next(t["id"] for t in case["open_tasks"] if t["element_id"] == element_id)


def _complete(engine, actor, case, element_id, data):
    return engine.execute(complete, actor, _task(case, element_id), data)["instance"]


def _evaluate(engine, case, recommendation, **extra):
    data = {"recommendation": recommendation, "findings": "Evaluados todos los renglones (demostración)", **extra}
    return _complete(engine, EVALUATOR, case, "evaluate_application", data)


def _cases(engine) -> list[tuple[str, str, str]]:
    def start(*args):
        return engine.execute(start_case, CLERK, ADMISSION, _application(*args))

    waiting = start("Ana Torres", "agricultor", "Cidra", "40000.00", "32000.00", [SECRETARIO])
    pending = _evaluate(engine, start("Elena Ruiz", "agricultor", "Aibonito", "30000.00", "25500.00", []),
                        "require_documents", required_documents=["secretario_agricultura"])
    denied = _evaluate(engine, start("Roberto Díaz", "avicultor", "Corozal", "50000.00", "15000.00", [SECRETARIO]),
                       "deny")
    denied = _complete(engine, CLERK, denied, "notify_denial",
                       {"method": "correo_certificado", "reasons_text": "El ingreso avícola es el 30 % del bruto."})
    review = _evaluate(engine, start("Sofía Méndez", "artesano", "Moca", "24000.00", "20000.00", []), "deny")
    review = _complete(engine, CLERK, review, "notify_denial",
                       {"method": "entrega_personal", "reasons_text": "No acompañó certificación."})
    review = engine.execute(send_message, CLERK, review["id"], "review_requested",
                            {"documents": [{"type": "fomento_economico", "issuer": "Fomento Económico",
                                            "registered_dept_estado": None}]})
    admitted = _evaluate(engine, start("José Colón", "pescador", "Cabo Rojo", "36000.00", "21600.00", [SECRETARIO]),
                         "admit")
    admitted = _complete(engine, COMMISSIONER, admitted, "order_admission", {"decision": "admit"})
    registry_id = admitted["variables"].get("registry_id")
    return [(c["case_number"], stage(c["stage"], ADMISSION), note) for c, note in (
        (waiting, say("espera evaluación", "waits for the evaluation")),
        (pending, say("espera documentos", "waits for documents")),
        (denied, say("en plazo de revisión", "review window open")),
        (review, say("en vista de revisión", "review hearing")),
        (admitted, say(f"admitido {registry_id}, membresía abierta", f"admitted {registry_id}, membership open")))]


def farmer_registry_demo(engine) -> list[str]:
    if not engine.read(is_deployed, ADMISSION):
        return []
    today = local_date(engine.now())
    registered = date(today.year - 1, today.month, min(today.day, 28))
    added = [registry_id for registry_id, name, producer_type, address, municipality in PRODUCERS
             if add_if_missing(engine, create_farmer, SYSTEM, id=registry_id, name=name, producer_type=producer_type,
                               address=address, municipality=municipality, registered_on=registered,
                               renewal_due=date(registered.year + 2, registered.month, registered.day))]
    cases = [] if engine.read(has_cases, ADMISSION) else _cases(engine)
    listed = ", ".join(added) or say("F-17, F-21, F-22, F-23, F-31 y F-32 ya estaban",
                                     "all of F-17, F-21, F-22, F-23, F-31, F-32 were there")
    lines = ["", say(f"Registro de Agricultores: {len(added)} productor(es) añadido(s) ({listed})",
                     f"Farmer registry: {len(added)} producer(s) added ({listed})")]
    if cases:
        lines += [say("Casos de admisión de ejemplo:", "Sample admission cases:"),
                  *table((say("caso", "case"), say("etapa", "stage"), say("dónde está", "where it stands")), cases)]
    return lines
