"""The case file in a real browser under the strict CSP: a document dropped on the case page's drop
zone is uploaded by documents.js, shows in the index with its folio, and downloads byte for byte;
a second one goes through the file chooser, and a renamed executable is refused on the page."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.api.expediente.support import EXE, KEY, PDF, PNG, flow, install_catalogue


def test_drop_a_document_on_the_case_page_see_it_and_download_it(ui, api, tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(install_catalogue(tmp_path / "processes")))
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))
    api.deploy(KEY, flow())
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {"requested_office": None}},
                    expect=201)
    page = ui.login("clerk")
    page.goto(f"/web/cases/{case['id']}")
    form = page.locator("form[data-upload]")
    form.get_by_label("Tipo de documento").select_option("id_card")
    dropped = page.evaluate_handle(
        """(bytes) => { const dt = new DataTransfer();
                        dt.items.add(new File([new Uint8Array(bytes)], 'cedula.pdf', {type: 'application/pdf'}));
                        return dt; }""", list(PDF))
    form.locator("[data-dropzone]").dispatch_event("drop", {"dataTransfer": dropped})
    expect(form.locator("[data-drop-name]")).to_have_text("cedula.pdf")
    form.get_by_role("button", name="Añadir al expediente").click()
    row = page.locator(".documents-index tr[data-folio='1']")
    expect(row).to_contain_text("Identificación con foto")
    expect(row).to_contain_text("cedula.pdf")
    with page.expect_download() as download:
        row.get_by_role("link", name="cedula.pdf").click()
    assert open(download.value.path(), "rb").read() == PDF
    ui.shot("case-documents")

    form = page.locator("form[data-upload]")
    form.get_by_label("Tipo de documento").select_option("deed")
    form.locator("input[type=file]").set_input_files({"name": "escritura.png", "mimeType": "image/png", "buffer": PNG})
    form.get_by_role("button", name="Añadir al expediente").click()
    expect(page.locator(".documents-index tr[data-folio='2']")).to_contain_text("escritura.png")

    form = page.locator("form[data-upload]")
    form.get_by_label("Tipo de documento").select_option("deed")
    form.locator("input[type=file]").set_input_files({"name": "plano.pdf", "mimeType": "application/pdf", "buffer": EXE})
    form.get_by_role("button", name="Añadir al expediente").click()
    expect(form.locator("[data-status]")).to_contain_text("no es PDF")
    expect(page.locator(".documents-index tr[data-folio]")).to_have_count(2)


def test_upload_from_the_task_page_puts_the_document_beside_its_box(ui, api, tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(install_catalogue(tmp_path / "processes")))
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))
    api.deploy(KEY, flow())
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {"requested_office": None}},
                    expect=201)
    task = api.open_task(case, "handle")
    page = ui.login("clerk")
    page.goto(f"/web/tasks/{task['id']}")
    box = page.locator("input[name='docs.id_received']")
    expect(box).to_be_visible()
    section = page.locator("section.task-documents")
    expect(section.locator("[data-checklist-field='docs.id_received']")).to_contain_text("ninguno subido")
    section.get_by_text("Añadir un documento").click()
    form = section.locator("form[data-upload]")
    form.get_by_label("Tipo de documento").select_option("id_card")
    form.locator("input[type=file]").set_input_files({"name": "cedula.pdf", "mimeType": "application/pdf", "buffer": PDF})
    form.get_by_role("button", name="Añadir al expediente").click()
    beside = page.locator(".beside-box a")
    expect(beside).to_have_text("folio 1")
    assert page.locator("input[name='docs.id_received']").evaluate(
        "b => (b.closest('.field') || b.parentNode).querySelector('.beside-box a') !== null")
    assert page.url.endswith(f"/web/tasks/{task['id']}")
    docs = api.get(f"/api/v1/instances/{case['id']}/documents", "clerk")
    assert [(d["folio"], d["task_id"]) for d in docs] == [(1, task["id"])]
