"""The farmer registry played through the HTTP API: the real diagrams and forms, deployed by a
process owner, and one user per lane of the contract."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.bootstrap import procedure_files
from tests.support.scenario import Scenario, create_staff

REPO = Path(__file__).resolve().parents[3]
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


class Farmers(Scenario):
    """Scenario steps of the contract, each one HTTP call as the role the contract names."""

    # -- cases ---------------------------------------------------------------------------
    def apply(self, variables=None, expect=201, **kwargs):
        return self.api.post(f"/api/v1/processes/{ADMISSION}/instances", "far_clerk",
                             {"variables": variables or application(**kwargs)}, expect=expect)

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
        return super().message(case_id, name, payload, user, expect)

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
    create_staff(engine, FARMER_USERS)
    files = farmer_files()
    api.deploy(MEMBERSHIP, files)
    api.deploy(ADMISSION, files)
    return Farmers(api, engine)
