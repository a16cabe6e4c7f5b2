"""Materials aid played through the HTTP API: the real diagram and forms, the fixture parameters and
stores of EXAMPLES.md («Global test setup»), and staff of two Regional Offices plus the central roles."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from engine.commands import accounts
from engine.bootstrap import procedure_files
from engine.identity.actor import SYSTEM
from tests.conftest import PASSWORD
from tests.support.scenario import Scenario

REPO = Path(__file__).resolve().parents[3]
MATERIALS = "materials_aid"
# user: (role, office)
STAFF = {"caguas": ("regional_office", "Caguas"), "caguas_director": ("regional_director", "Caguas"),
         "humacao": ("regional_office", "Humacao"), "humacao_director": ("regional_director", "Humacao"),
         "carolina": ("regional_office", "Carolina"),
         "central": ("central_office", None), "assistant": ("assistant_secretary", None),
         "administration": ("administration", None)}
THRESHOLDS = {"1": "15000.00", "2": "18000.00", "3": "21000.00", "4": "25000.00", "5": "28000.00", "6": "31000.00"}
STORES = [("RL-1001", "Ferretería Borinquen", True), ("RL-1002", "Ferretería El Coquí", True),
          ("RL-1003", "Materiales del Este", True), ("RL-1004", "Ferretería Central", True),
          ("LOCAL-0001", "Ferretería La Esquina", False)]
MARIA = {"applicant": {"id": "REC-0001", "name": "María Rivera", "municipality": "Cidra",
                       "is_department_employee": False, "has_dispensa": False},
         "household": {"size": 4, "annual_income": "18000.00"},
         "property": {"owns_lot": True, "owns_house": True, "land": "private", "lot_owner_authorization": "none",
                      "is_heir": False, "heirs_sworn_authorization": False, "resides": True,
                      "aid_enables_completion": False, "other_properties": False},
         "request": {"type": "rehabilitation", "estimate": "4800.00", "description": "Techo y baño"},
         "priority": {"kind": "none", "event_date": None},
         "labor_certified": True}
BASIC_DOCUMENTS = {name: True for name in ("photos", "ownership_evidence", "income_evidence", "photo_id",
                                           "social_security_card", "utility_bill", "materials_estimate")}
MAT_S01_QUOTES = [{"store_id": "RL-1001", "store_name": "Ferretería Borinquen", "total": "4150.00"},
                  {"store_id": "RL-1002", "store_name": "Ferretería El Coquí", "total": "4310.00"},
                  {"store_id": "RL-1003", "store_name": "Materiales del Este", "total": "4395.00"}]
ITEMS = [{"description": "Planchas de zinc y madera para el techo", "amount": "3000.00", "indispensable": True},
         {"description": "Inodoro y tubería del baño", "amount": "1200.00", "indispensable": True}]


def materials_files() -> dict[str, str]:
    files = procedure_files(REPO / "processes" / MATERIALS, REPO / "forms")
    return {name: content.decode("utf-8") for name, content in files.items()}


def application(**changes) -> dict:
    """The contract's start variables (María Rivera of MAT-S01); `property={"owns_lot": False}` merges."""
    variables = copy.deepcopy(MARIA)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(variables.get(key), dict):
            variables[key].update(value)
        else:
            variables[key] = value
    return variables


class Materials(Scenario):
    """Scenario steps of the contract, each one HTTP call as the role the contract names."""

    HOUR = 10
    REREAD_CASE = True

    # -- cases ----------------------------------------------------------------------------------
    def apply(self, variables=None, user="caguas", expect=201, **changes):
        return self.api.post(f"/api/v1/processes/{MATERIALS}/instances", user,
                             {"variables": variables or application(**changes)}, expect=expect)

    def message(self, case, name, payload, user="caguas", expect=200):
        return super().message(case, name, payload, user, expect)

    # -- the contract's tasks, with the figures of MAT-S01 by default -------------------------------
    def documents(self, case, user="caguas", expect=200, **extra):
        return self.complete(case, "record_documents", {**BASIC_DOCUMENTS, **extra}, user, expect)

    def investigate(self, case, irregularities=False, user="caguas", expect=200, **extra):
        data = {"findings": "Estructura verificada; techo con filtraciones", "photo_count": 6,
                "irregularities": irregularities, **extra}
        return self.complete(case, "field_investigation", data, user, expect)

    def quotes(self, case, quotes=None, items=None, adjusted="4200.00", user="caguas", expect=200):
        data = {"adjusted_estimate": adjusted, "items": items or ITEMS, "quotes": quotes or MAT_S01_QUOTES}
        return self.complete(case, "prepare_quotes", data, user, expect)

    def central_review(self, case, approved=True, expect=200):
        return self.complete(case, "central_review", {"approved": approved, "notes": "Formulario de revisión"},
                             "central", expect)

    def purchase_order(self, case, po_number="OC-2024-0001"):
        return self.complete(case, "issue_purchase_order", {"po_number": po_number}, "administration")

    def verify(self, case, prevails=True, user="caguas"):
        return self.complete(case, "verify_situation", {"situation_prevails": prevails, "notes": "Visita"}, user)

    def sign(self, case, signed=True, user="caguas", expect=200):
        return self.complete(case, "sign_duties", {"beneficiary_signed": signed}, user, expect)

    def deliver(self, case, user="caguas"):
        return self.complete(case, "deliver_materials", {"delivery_note": "Conduce 123"}, user)

    def notify(self, case, user="caguas"):
        return self.complete(case, "notify_ineligibility",
                             {"method": "correo_certificado", "reasons_text": "Razones y orientación LPAU"}, user)

    def follow_up(self, case, work_done=True, used_properly=True, misused_value=None, user="caguas", expect=200):
        data = {"work_done": work_done, "materials_used_properly": used_properly, "photo_count": 4,
                "report": "Informe a la Secretaría Auxiliar"}
        if misused_value is not None:
            data["misused_value"] = misused_value
        return self.complete(case, "follow_up_visit", data, user, expect)

    def decide_extension(self, case, granted=True, days=45, user="caguas_director", expect=200):
        data = {"granted": granted, "days_granted": days, "reason": "Causa justa: enfermedad"}
        return self.complete(case, "decide_extension", data, user, expect)

    # -- whole stretches --------------------------------------------------------------------------
    def filed(self, **changes):
        """An application started and its documents recorded today."""
        return self.documents(self.apply(**changes))

    def at_central_review(self, **changes):
        return self.quotes(self.investigate(self.filed(**changes)))

    def delivered(self, **changes):
        case = self.purchase_order(self.central_review(self.at_central_review(**changes)))
        return self.deliver(self.sign(self.verify(case)))


@pytest.fixture
def mat(api, engine):
    def seed(ctx):
        for username, (role, office) in STAFF.items():
            accounts.create_user(ctx, username, PASSWORD, [role], full_name=username.title(), office=office)
    engine.execute(seed, SYSTEM)
    api.deploy(MATERIALS, materials_files())
    api.put("/api/v1/parameters/materials.lowIncomeThresholds", "admin", {"value": THRESHOLDS})
    api.put("/api/v1/parameters/materials.maxAidAmount", "admin", {"value": "5000.00"})
    for store_id, name, registered in STORES:
        api.post("/api/v1/registries/stores", "admin", {"id": store_id, "name": name, "registered": registered},
                 expect=201)
    return Materials(api, engine)
