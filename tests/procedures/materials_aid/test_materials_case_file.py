"""Materials aid's documents in its case file (MAT-09): the regional office uploads the papers the
regulation lists, typed by the procedure's catalogue, and the record_documents task page shows each
received box's documents beside it; another office cannot add to the case (MAT-08)."""
from __future__ import annotations

import io
import re

import pytest

from tests.api.expediente.support import PDF, PNG
from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def documents_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))


def _upload(api, case_id, user, type, content=PDF, expect=201, **fields):
    data = {"file": (io.BytesIO(content), f"{type}.pdf"), "type": type, **{k: str(v) for k, v in fields.items()}}
    return api.call("POST", f"/api/v1/instances/{case_id}/documents", user, expect, data=data,
                    content_type="multipart/form-data").get_json()


def test_the_regional_office_files_the_listed_documents_and_the_task_page_shows_them(mat, api, app):
    case = mat.apply()
    task = api.open_task(case, "record_documents")
    types = {t["id"] for t in api.get("/api/v1/processes/materials_aid/document-types", "caguas")}
    assert {"photos_2x2", "ownership_evidence", "photo_id", "letter.ineligibility", "letter.purchase_order"} <= types
    photos = _upload(api, case["id"], "caguas", "photos_2x2", content=PNG, task_id=task["id"])
    deed = _upload(api, case["id"], "caguas", "ownership_evidence")
    assert (photos["folio"], deed["folio"]) == (1, 2) and photos["type_label"].startswith("Dos fotos 2 x 2")
    _upload(api, case["id"], "humacao", "photo_id", expect=403)  # another Regional Office's case

    client = app.test_client()
    client.get("/web/login")
    with client.session_transaction() as session:
        csrf = session["_csrf"]
    client.post("/web/login", data={"username": "caguas", "password": PASSWORD, "_csrf": csrf})
    page = client.get(f"/web/tasks/{task['id']}").get_data(as_text=True)
    boxes = dict(re.findall(r'data-checklist-field="([^"]+)"><strong>[^<]*</strong>:\s*(.*?)</li>', page, re.S))
    assert f"/web/documents/{photos['id']}/content" in boxes["photos"]
    assert f"/web/documents/{deed['id']}/content" in boxes["ownership_evidence"]
    assert "ninguno subido" in boxes["photo_id"]
    assert 'name="photos"' in page  # the box documents.js puts the links beside
