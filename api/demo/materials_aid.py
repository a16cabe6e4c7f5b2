"""Demo data of the materials aid programme for `tramite seed-demo` (one of `demo.DEMO_STEPS`).

The EXAMPLES.md fixtures (hardware stores of the Registro de Licitadores, income limits, maximum
aid), staff of two Regional Offices, and a handful of cases in several stages. Idempotent: what
exists is kept, and the cases are made only while the programme has none. It does nothing where
the procedure is not deployed.
"""
from __future__ import annotations

from engine.commands.cases import start_case
from engine.commands.parameters import set_parameter
from engine.commands.registries import create_store
from engine.commands.tasks import complete
from engine.identity.actor import SYSTEM, Actor
from engine.queries.accounts import list_roles
from engine.queries.parameters import list_parameters
from engine.queries.processes import has_cases, is_deployed

from api.demo.common import add_if_missing, table
from api.demo.users import ensure_users, role_labels
from api.demo.words import role as role_label, say, stage

MATERIALS = "materials_aid"
STORES = [("RL-1001", "Ferretería Borinquen", True), ("RL-1002", "Ferretería El Coquí", True),
          ("RL-1003", "Materiales del Este", True), ("RL-1004", "Ferretería Central", True),
          ("LOCAL-0001", "Ferretería La Esquina", False)]
PARAMETERS = {"materials.lowIncomeThresholds": {"1": "15000.00", "2": "18000.00", "3": "21000.00",
                                                "4": "25000.00", "5": "28000.00", "6": "31000.00"},
              "materials.maxAidAmount": "5000.00"}
STAFF = [("caguas_oficina", "regional_office", "Caguas"), ("caguas_director", "regional_director", "Caguas"),
         ("humacao_oficina", "regional_office", "Humacao"), ("humacao_director", "regional_director", "Humacao")]
DOCUMENTS = {name: True for name in ("photos", "ownership_evidence", "income_evidence", "photo_id",
                                     "social_security_card", "utility_bill", "materials_estimate")}
QUOTES = {"adjusted_estimate": "4200.00",
          "items": [{"description": "Zinc y madera para el techo", "amount": "4200.00", "indispensable": True}],
          "quotes": [{"store_id": "RL-1001", "store_name": "Ferretería Borinquen", "total": "4150.00"},
                     {"store_id": "RL-1002", "store_name": "Ferretería El Coquí", "total": "4310.00"},
                     {"store_id": "RL-1003", "store_name": "Materiales del Este", "total": "4395.00"}]}
INVESTIGATION = {"findings": "Estructura verificada", "photo_count": 5, "irregularities": False}


def _application(applicant_id, name, town, priority="none", event_date=None, **property_):
    return {"applicant": {"id": applicant_id, "name": name, "municipality": town},
            "household": {"size": 3, "annual_income": property_.pop("income", "17500.00")},
            "property": {"owns_lot": True, "owns_house": True, "resides": True, "other_properties": False,
                         **property_},
            "request": {"type": "rehabilitation", "estimate": "4800.00", "description": "Techo y baño"},
            "priority": {"kind": priority, "event_date": event_date}, "labor_certified": True}


# (office, application, steps: (task element id, data, who: office staff / central role))
CASES = [
    ("Caguas", _application("DEMO-C01", "Carmen Ortiz", "Cidra"), []),
    ("Caguas", _application("DEMO-C02", "Luis Colón", "Cayey", "disaster", "2024-09-18"),
     [("record_documents", DOCUMENTS, "office"), ("field_investigation", INVESTIGATION, "office"),
      ("prepare_quotes", QUOTES, "office")]),
    ("Caguas", _application("DEMO-C03", "Ana Benítez", "Caguas"),
     [("record_documents", DOCUMENTS, "office"), ("field_investigation", INVESTIGATION, "office"),
      ("prepare_quotes", QUOTES, "office"), ("central_review", {"approved": True}, "central_office"),
      ("issue_purchase_order", {"po_number": "OC-2024-0003"}, "administration"),
      ("verify_situation", {"situation_prevails": True}, "office"),
      ("sign_duties", {"beneficiary_signed": True}, "office"),
      ("deliver_materials", {"delivery_note": "Conduce 0003"}, "office")]),
    ("Humacao", _application("DEMO-H01", "Pedro Rosa", "Yabucoa", "structural_risk", "2024-10-02"),
     [("record_documents", DOCUMENTS, "office"), ("field_investigation", INVESTIGATION, "office")]),
    ("Humacao", _application("DEMO-H02", "Rosa Díaz", "Humacao", owns_lot=False, lot_owner_authorization="none"),
     [("record_documents", DOCUMENTS, "office")]),
    ("Humacao", _application("DEMO-H03", "José Vega", "Las Piedras", income="40000.00"),
     [("record_documents", DOCUMENTS, "office")]),
]


def _deployed(engine) -> bool:
    roles = {r["id"] for r in engine.read(list_roles)}
    return engine.read(is_deployed, MATERIALS) and {role for _, role, _ in STAFF} <= roles


def _fixtures(engine) -> list[tuple[str, str, str]]:
    for store_id, name, registered in STORES:
        add_if_missing(engine, create_store, SYSTEM, id=store_id, name=name, registered=registered)
    current = {p["name"]: p["value"] for p in engine.read(list_parameters)}
    for name, value in PARAMETERS.items():
        if current.get(name) is None:  # never overwrite what an admin set
            engine.execute(set_parameter, SYSTEM, name, value)
    labels = role_labels(engine)
    users = ensure_users(engine, [(username, [role], f"{labels.get(role, (role,))[0]} de {office} (demostración)", office)
                                  for username, role, office in STAFF])
    return [(username, f"{role_label(labels, role)} ({office})", shown)
            for (username, _roles, shown), (_, role, office) in zip(users, STAFF)]


def _cases(engine) -> list[tuple[str, str, str]]:
    if engine.read(has_cases, MATERIALS):
        return []
    made = []
    for office, variables, steps in CASES:
        staff = Actor(f"{office.lower()}_oficina", frozenset({"regional_office"}), office)
        case = engine.execute(start_case, staff, MATERIALS, variables)
        for element_id, data, who in steps:
            actor = staff if who == "office" else Actor(who, frozenset({who}))
            task = next(t for t in case["open_tasks"] if t["element_id"] == element_id)
            case = engine.execute(complete, actor, task["id"], data)["instance"]
        made.append((case["case_number"], office, stage(case["stage"], MATERIALS)))
    return made


def materials_aid_demo(engine) -> list[str]:
    if not _deployed(engine):
        return []
    users = _fixtures(engine)
    lines = ["", say("Ayuda de materiales: ferreterías del Registro de Licitadores, límites de ingreso y ayuda máxima "
                     "sembrados; personal de las Oficinas Regionales:",
                     "Materials aid: stores of the Registro de Licitadores, income limits and maximum aid seeded; "
                     "Regional Office staff:"),
             *table((say("usuario", "username"), say("rol (oficina)", "role (office)"), say("contraseña", "password")),
                    users)]
    cases = _cases(engine)
    if cases:
        lines += ["", say("Casos de ayuda de materiales de ejemplo:", "Materials aid demo cases:"),
                  *table((say("caso", "case"), say("oficina", "office"), say("etapa", "stage")), cases)]
    return lines
