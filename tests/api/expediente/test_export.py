"""The certified export: every hash in the manifest matches the archive, the index reads back as a
PDF listing each folio, and internal notes stay out."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile

from pypdf import PdfReader

from tests.api.expediente.support import PDF, PNG, docx, upload


def test_the_export_holds_every_document_with_matching_hashes(api, case):
    first = upload(api, case["id"], "clerk", description="Cédula")
    upload(api, case["id"], "clerk", content=PNG, type="deed", filename="escritura.png")
    upload(api, case["id"], "clerk", content=docx(), filename="cedula-2.docx")
    api.post(f"/api/v1/documents/{first['id']}/void", "boss", {"reason": "ilegible"})
    api.post(f"/api/v1/instances/{case['id']}/notes", "clerk", {"text": "Nota secreta del equipo"}, expect=201)
    r = api.call("GET", f"/api/v1/instances/{case['id']}/expediente", "clerk", 200)
    assert r.mimetype == "application/zip" and r.headers["Content-Disposition"].startswith("attachment")
    archive = zipfile.ZipFile(io.BytesIO(r.data))
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["case_number"] == case["case_number"]
    assert [d["folio"] for d in manifest["documents"]] == [1, 2, 3]
    assert [d["voided"] for d in manifest["documents"]] == [True, False, False]
    for doc in manifest["documents"]:
        assert hashlib.sha256(archive.read(doc["filename"])).hexdigest() == doc["sha256"]
    assert archive.read(manifest["documents"][0]["filename"]) == PDF
    history = archive.read("history.json")
    assert hashlib.sha256(history).hexdigest() == manifest["history_sha256"]
    events = json.loads(history)
    assert [e["type"] for e in events if e["type"].startswith("document_")] == \
        ["document_added", "document_added", "document_added", "document_voided"]
    everything = b"".join(archive.read(n) for n in archive.namelist())
    assert b"Nota secreta" not in everything and not [e for e in events if e["type"] == "note_added"]
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(archive.read("index.pdf"))).pages)
    assert case["case_number"] in text
    for doc in manifest["documents"]:
        assert doc["sha256"][:16] in text.replace("\n", "")
    assert "ANULADO" in text and "Identificación con foto" in text and "Escritura" in text


def test_the_export_follows_the_case_visibility(api, case):
    api.call("GET", f"/api/v1/instances/{case['id']}/expediente", "nobody", 403)
    api.call("GET", "/api/v1/instances/999999/expediente", "clerk", 404)
    r = api.call("GET", f"/api/v1/instances/{case['id']}/expediente", "boss", 200)
    names = zipfile.ZipFile(io.BytesIO(r.data)).namelist()
    assert set(names) == {"history.json", "index.pdf", "manifest.json"}
