"""The farmer registry played through the HTTP API: the real diagrams and forms, deployed by a
process owner, and one user per lane of the contract."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import update

from engine.commands import accounts
from engine.bootstrap import procedure_files
from engine.config.clock import parse_instant
from engine.identity.actor import SYSTEM
from engine.persistence.models import EngineClock
from tests.conftest import PASSWORD

REPO = Path(__file__).resolve().parents[2]
FARMER_USERS = {"far_clerk": "registry_clerk", "far_evaluator": "registry_evaluator",
                "far_commissioner": "commissioner", "far_board": "review_board"}
ADMISSION, MEMBERSHIP = "farmer_registry_admission", "farmer_registry_membership"


def farmer_files() -> dict[str, str]:
    files = procedure_files(REPO / "processes" / "farmer_registry", REPO / "forms")
    return {name: content.decode("utf-8") for name, content in files.items()}


def application(name="Ana Torres", producer_type="agricultor", gross="40000.00", activity="32000.00",
                documents=None, **extra) -> dict:
    """The contract's start variables; by default Ana Torres of FAR-S01."""
    if documents is None:
        documents = [{"type": "secretario_agricultura", "issuer": "Depto. de Agricultura",
                      "registered_dept_estado": None}]
    return {"applicant": {"name": name, "producer_type": producer_type, "address": "Carr. 172 km 3, Cidra",
                          "municipality": "Cidra"},
            "gross_annual_income": gross, "activity_income": activity, "sworn_declaration": True,
            "documents": documents, **extra}


def document(kind, registered=None, issuer="Emisor"):
    return {"type": kind, "issuer": issuer, "registered_dept_estado": registered}


class Farmers:
    """Scenario steps of the contract, each one HTTP call as the role the contract names."""

    def __init__(self, api, engine):
        self.api, self.engine = api, engine

    # -- time ----------------------------------------------------------------------------
    def day(self, iso_day: str, hour: int = 13):
        return self.api.move_clock(f"{iso_day}T{hour:02d}:00:00-04:00")

    def rewind_clock_to(self, iso_day: str):
        """Scenarios dated before the suite's clock start: set the empty engine's clock back once."""
        instant = parse_instant(f"{iso_day}T09:00:00-04:00")
        self.engine.execute(lambda ctx: ctx.session.execute(
            update(EngineClock.__table__).values(now=instant)), SYSTEM)

    def param(self, name, value):
        self.api.put(f"/api/v1/parameters/{name}", "admin", {"value": value})

    # -- cases ---------------------------------------------------------------------------
    def apply(self, variables=None, expect=201, **kwargs):
        return self.api.post(f"/api/v1/processes/{ADMISSION}/instances", "far_clerk",
                             {"variables": variables or application(**kwargs)}, expect=expect)

    def case(self, case_id):
        return self.api.get(f"/api/v1/instances/{case_id}", "boss")

    def history(self, case_id):
        return self.api.get(f"/api/v1/instances/{case_id}/history", "boss")

    def complete(self, case, element_id, data, user, expect=200):
        task = self.api.open_task(case, element_id)
        answer = self.api.post(f"/api/v1/tasks/{task['id']}/complete", user, {"data": data}, expect=expect)
        return answer["instance"] if expect == 200 else answer

    def evaluate(self, case, recommendation, expect=200, **extra):
        data = {"recommendation": recommendation, "findings": "Evaluados todos los renglones", **extra}
        return self.complete(case, "evaluate_application", data, "far_evaluator", expect)

    def order(self, case, decision="admit", expect=200, **extra):
        return self.complete(case, "order_admission", {"decision": decision, **extra}, "far_commissioner", expect)

    def notify(self, case, method="correo_certificado"):
        return self.complete(case, "notify_denial", {"method": method, "reasons_text": "Falta certificación"},
                             "far_clerk")

    def hearing(self, case, recommendation):
        return self.complete(case, "review_hearing", {"recommendation": recommendation, "findings": "Vista"},
                             "far_board")

    def review_decision(self, case, decision):
        return self.complete(case, "review_decision", {"decision": decision, "reason": "Revisado"},
                             "far_commissioner")

    def message(self, case_id, name, payload, user="far_clerk", expect=200):
        return self.api.post(f"/api/v1/instances/{case_id}/messages/{name}", user, {"payload": payload},
                             expect=expect)

    def admitted(self, **kwargs) -> dict:
        """A fresh application evaluated and admitted today; returns the finished admission case."""
        case = self.apply(**kwargs)
        case = self.evaluate(case, "admit")
        return self.order(case, "admit")

    def denied_and_notified(self, **kwargs) -> dict:
        case = self.evaluate(self.apply(**kwargs), "deny")
        return self.notify(case)

    # -- registry ------------------------------------------------------------------------
    def entry(self, registry_id):
        return self.api.get(f"/api/v1/registries/farmers/{registry_id}", "far_clerk")

    def membership_of(self, admission_case):
        return self.case(admission_case["variables"]["membership_case_id"])

    def renew(self, membership_id, gross="40000.00", activity="32000.00", expect=200, **extra):
        payload = {"signed_certification": True, "gross_annual_income": gross, "activity_income": activity,
                   **extra}
        return self.message(membership_id, "renewal_filed", payload, expect=expect)


@pytest.fixture
def far(api, engine):
    def seed(ctx):
        for username, role in FARMER_USERS.items():
            accounts.create_user(ctx, username, PASSWORD, [role], full_name=username.title())
    engine.execute(seed, SYSTEM)
    files = farmer_files()
    api.deploy(MEMBERSHIP, files)
    api.deploy(ADMISSION, files)
    return Farmers(api, engine)
