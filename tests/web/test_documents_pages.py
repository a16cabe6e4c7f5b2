"""The case file on the pages (Flask's test client): upload by form and by the script's JSON post,
the index, downloads, voiding, notes and the export, as each kind of user may."""
from __future__ import annotations

import io
import zipfile

import pytest

from tests.api.expediente.support import EXE, KEY, PDF, flow, install_catalogue


@pytest.fixture(autouse=True)
def expediente_env(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(install_catalogue(tmp_path / "processes")))
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))


@pytest.fixture
def docs_case(api):
    api.deploy(KEY, flow())
    return api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {"requested_office": None}},
                    expect=201)


def _upload(client, case_id, content=PDF, type="id_card", expect=302, headers=None, **extra):
    return client.post(f"/web/cases/{case_id}/documents", {"file": (io.BytesIO(content), "cedula.pdf"),
                       "type": type, **extra}, expect=expect, content_type="multipart/form-data",
                       headers=headers or {})


def test_upload_from_the_case_page_lists_and_downloads(web, docs_case):
    clerk = web("clerk")
    page = clerk.get(f"/web/cases/{docs_case['id']}")
    assert 'id="documentos"' in page and "data-upload" in page and "Identificación con foto" in page
    assert "El expediente no tiene documentos todavía." in page
    response = _upload(clerk, docs_case["id"], description="Cédula")
    assert response.headers["Location"].endswith(f"/web/cases/{docs_case['id']}#documentos")
    page = clerk.get(f"/web/cases/{docs_case['id']}")
    assert 'data-folio="1"' in page and "cedula.pdf" in page and "folio 1" in page
    download = clerk.client.get("/web/documents/1/content")
    assert download.status_code == 200 and download.data == PDF
    assert download.headers["Content-Disposition"].startswith("attachment")
    assert "Anular" not in page  # clerks do not void


def test_the_script_post_answers_json(web, docs_case):
    clerk = web("clerk")
    ok = _upload(clerk, docs_case["id"], expect=201, headers={"Accept": "application/json"})
    assert ok.get_json()["document"]["folio"] == 1 and ok.get_json()["next"].endswith("#documentos")
    refused = _upload(clerk, docs_case["id"], content=EXE, expect=415, headers={"Accept": "application/json"})
    assert "PDF, PNG" in refused.get_json()["message"]
    unknown = _upload(clerk, docs_case["id"], type="nada", expect=422, headers={"Accept": "application/json"})
    assert unknown.get_json()["document"] is None


def test_supervisor_voids_from_the_page_and_notes_are_shown(web, docs_case):
    clerk, boss = web("clerk"), web("boss")
    _upload(clerk, docs_case["id"])
    page = boss.get(f"/web/cases/{docs_case['id']}")
    assert "Anular documento" in page
    boss.post("/web/documents/1/void", {"reason": "ilegible", "instance_id": docs_case["id"]})
    page = boss.get(f"/web/cases/{docs_case['id']}")
    assert "ilegible" in page and 'class="voided"' in page
    clerk.post(f"/web/cases/{docs_case['id']}/notes", {"text": "Llamar el lunes"})
    page = boss.get(f"/web/cases/{docs_case['id']}")
    assert "Llamar el lunes" in page and "Notas internas" in page


def test_the_export_button_downloads_the_zip(web, docs_case):
    clerk = web("clerk")
    _upload(clerk, docs_case["id"])
    assert "expediente.zip" in clerk.get(f"/web/cases/{docs_case['id']}")
    response = clerk.client.get(f"/web/cases/{docs_case['id']}/expediente.zip")
    assert response.status_code == 200
    assert "manifest.json" in zipfile.ZipFile(io.BytesIO(response.data)).namelist()


def test_the_task_page_shows_the_documents_of_its_boxes(web, docs_case):
    clerk = web("clerk")
    task_id = docs_case["open_tasks"][0]["id"]
    page = clerk.get(f"/web/tasks/{task_id}")
    assert 'data-checklist-field="docs.id_received"' in page and "ninguno subido" in page
    _upload(clerk, docs_case["id"], task_id=str(task_id), next=f"/web/tasks/{task_id}")
    page = clerk.get(f"/web/tasks/{task_id}")
    assert "document-checklist-data" in page and "folio 1" in page


def test_outsiders_get_no_upload_form_and_no_documents(web, docs_case):
    clerk = web("clerk")
    _upload(clerk, docs_case["id"])
    nobody = web("nobody")
    nobody.get(f"/web/cases/{docs_case['id']}", expect=403)
    assert nobody.client.get("/web/documents/1/content").status_code == 403
    _upload(nobody, docs_case["id"], expect=302)  # refused: the page says why, nothing stored
    assert clerk.get(f"/web/cases/{docs_case['id']}").count("data-folio=") == 1


def test_the_upload_form_offers_no_letter_type_and_a_forged_post_of_one_is_refused(web, docs_case):
    clerk = web("clerk")
    page = clerk.get(f"/web/cases/{docs_case['id']}")
    assert '<option value="id_card">' in page and '<option value="deed">' in page
    assert 'value="letter.' not in page  # neither the procedure's own letter nor the general ones
    forged = _upload(clerk, docs_case["id"], type="letter.denial", expect=422, headers={"Accept": "application/json"})
    assert "genera el sistema" in forged.get_json()["message"] and forged.get_json()["document"] is None
    assert "cedula.pdf" not in clerk.get(f"/web/cases/{docs_case['id']}")
