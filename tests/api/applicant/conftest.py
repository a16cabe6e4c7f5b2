"""The applicant's side played on the farmer registry: a denied case whose applicant holds a code."""
from __future__ import annotations

import pytest

from tests.procedures.farmer_registry import conftest as farmers
from tests.procedures.farmer_registry.test_farmer_registry_review import elena

far = farmers.far  # the farmer-registry scenario fixture

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture(autouse=True)
def document_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))


class Applicant:
    """One applicant's HTTP calls with their token (no staff account)."""

    def __init__(self, client, token):
        self.client, self.token = client, token

    def call(self, method, path, expect=200, **kw):
        response = self.client.open(path, method=method, headers={"Authorization": f"Bearer {self.token}"}, **kw)
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:1500])
        return response

    def case(self, lang="es"):
        return self.call("GET", f"/api/v1/public/case?lang={lang}").get_json()


def issue(far, case_id, user="far_clerk"):
    return far.api.post(f"/api/v1/instances/{case_id}/applicant-access", user, expect=201)


def session(far, case_number, code, expect=200):
    response = far.api.client.post("/api/v1/public/session", json={"case_number": case_number, "access_code": code})
    assert response.status_code == expect, response.get_json()
    return response


@pytest.fixture
def denied(far):
    """Elena's application denied and notified on 2024-04-02 (review until 2024-04-22), with a code."""
    case = far.evaluate(elena(far), "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    access = issue(far, case["id"])
    token = session(far, case["case_number"], access["access_code"]).get_json()["token"]
    return {"case": case, "access": access, "applicant": Applicant(far.api.client, token)}
