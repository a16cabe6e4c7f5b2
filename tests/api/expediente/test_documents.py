"""Documents of a case over real HTTP: upload, index, download, versions, void, and each refusal."""
from __future__ import annotations

import hashlib

from tests.api.expediente.support import EXE, KEY, PDF, PNG, docx, odt, plain_zip, upload


def test_upload_list_download(api, case):
    doc = upload(api, case["id"], "clerk", description="Cédula del solicitante")
    assert doc["folio"] == 1 and doc["version"] == 1 and doc["source"] == "staff"
    assert doc["sha256"] == hashlib.sha256(PDF).hexdigest() and doc["size"] == len(PDF)
    assert doc["media_type"] == "application/pdf" and doc["type_label"] == "Identificación con foto"
    assert doc["uploaded_by"] == "clerk" and doc["voided"] is False
    second = upload(api, case["id"], "clerk", content=PNG, type="deed", filename="../../etc/escritura.png")
    assert second["folio"] == 2 and second["filename"] == "escritura.png"
    index = api.get(f"/api/v1/instances/{case['id']}/documents", "clerk")
    assert [d["folio"] for d in index] == [1, 2]
    r = api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk", 200)
    assert r.data == PDF
    assert r.headers["Content-Disposition"].startswith("attachment")
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    history = api.get(f"/api/v1/instances/{case['id']}/history", "clerk")
    added = [e for e in history if e["type"] == "document_added"]
    assert [e["data"]["folio"] for e in added] == [1, 2] and added[0]["actor"] == "clerk"


def test_same_type_again_is_a_new_version_and_the_first_stays(api, case):
    first = upload(api, case["id"], "clerk")
    again = upload(api, case["id"], "clerk", content=PDF + b"%v2\n")
    assert (again["version"], again["folio"]) == (2, 2)
    index = api.get(f"/api/v1/instances/{case['id']}/documents", "clerk")
    assert [(d["type"], d["version"]) for d in index] == [("id_card", 1), ("id_card", 2)]
    assert api.call("GET", f"/api/v1/documents/{first['id']}/content", "clerk", 200).data == PDF


def test_office_documents_accepted_by_their_bytes(api, case):
    assert upload(api, case["id"], "clerk", content=docx(), filename="plano.docx")["media_type"].endswith(
        "wordprocessingml.document")
    assert upload(api, case["id"], "clerk", content=odt(), type="deed", filename="x.odt")["media_type"] == \
        "application/vnd.oasis.opendocument.text"


def test_void_needs_a_supervisor_and_a_reason_and_keeps_the_document(api, case):
    doc = upload(api, case["id"], "clerk")
    api.post(f"/api/v1/documents/{doc['id']}/void", "clerk", {"reason": "ilegible"}, expect=403)
    api.post(f"/api/v1/documents/{doc['id']}/void", "boss", {"reason": ""}, expect=422)
    voided = api.post(f"/api/v1/documents/{doc['id']}/void", "boss", {"reason": "ilegible"})
    assert voided["voided"] is True and voided["void_reason"] == "ilegible"
    api.post(f"/api/v1/documents/{doc['id']}/void", "boss", {"reason": "otra vez"}, expect=409)
    assert api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk", 200).data == PDF
    index = api.get(f"/api/v1/instances/{case['id']}/documents", "clerk")
    assert [d["voided"] for d in index] == [True]
    history = api.get(f"/api/v1/instances/{case['id']}/history", "clerk")
    assert [e["data"]["reason"] for e in history if e["type"] == "document_voided"] == ["ilegible"]
    # A new upload after a void takes the next folio: folios are never reused.
    assert upload(api, case["id"], "clerk")["folio"] == 2


def _nothing_stored(api, case):
    assert api.get(f"/api/v1/instances/{case['id']}/documents", "clerk") == []
    history = api.get(f"/api/v1/instances/{case['id']}/history", "clerk")
    assert not [e for e in history if e["type"] == "document_added"]


def test_unknown_type_is_422(api, case):
    body = upload(api, case["id"], "clerk", type="passport", expect=422)
    assert "type" in body["errors"]
    _nothing_stored(api, case)


def test_empty_and_too_large_are_413(api, case, monkeypatch):
    upload(api, case["id"], "clerk", content=b"", expect=413)
    monkeypatch.setenv("TRAMITE_MAX_DOCUMENT_MB", "1")
    big = PDF + b"0" * (1024 * 1024)
    body = upload(api, case["id"], "clerk", content=big, expect=413)
    assert body["code"] == 413
    # Past the request's own limit too (the file plus the envelope): werkzeug stops reading.
    upload(api, case["id"], "clerk", content=PDF + b"0" * (3 * 1024 * 1024), expect=413)
    _nothing_stored(api, case)


def test_a_renamed_executable_or_plain_zip_is_415(api, case):
    for content, name in ((EXE, "cedula.pdf"), (plain_zip(), "plano.docx"), (b"hola, soy texto", "x.pdf")):
        body = upload(api, case["id"], "clerk", content=content, filename=name, expect=415)
        assert body["code"] == 415
    _nothing_stored(api, case)


def test_another_office_and_outsiders_cannot_reach_the_documents(api, case, engine):
    from engine.commands import accounts as account_commands
    from engine.identity.actor import SYSTEM
    from tests.conftest import PASSWORD
    engine.execute(lambda ctx: account_commands.create_user(ctx, "clerk_sj", PASSWORD, ["test_clerk"],
                                                            office="San Juan"), SYSTEM)
    doc = upload(api, case["id"], "clerk")
    upload(api, case["id"], "clerk_sj", expect=403)
    api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk_sj", 403)
    api.call("GET", f"/api/v1/instances/{case['id']}/documents", "clerk_sj", 403)
    api.call("GET", f"/api/v1/documents/{doc['id']}/content", "nobody", 403)
    upload(api, case["id"], "nobody", expect=403)
    api.call("GET", "/api/v1/documents/999999/content", "clerk", 404)
    upload(api, 999999, "clerk", expect=404)


def test_task_id_must_be_a_task_of_the_case(api, case):
    task = api.open_task(case, "handle")
    assert upload(api, case["id"], "clerk", task_id=task["id"])["task_id"] == task["id"]
    assert "task_id" in upload(api, case["id"], "clerk", task_id=987654, expect=422)["errors"]


def test_document_types_of_a_procedure(api, case):
    types = api.get(f"/api/v1/processes/{KEY}/document-types", "clerk")
    ids = [t["id"] for t in types]
    assert ids[:3] == ["id_card", "deed", "letter.denial"]
    # The other letters come from the general catalogue (named once); the procedure's own entry wins.
    assert "letter.denial_confirmed" in ids[3:] and "letter.denial" not in ids[3:]
    assert types[0]["article"] == "Art. 4" and types[2]["article"] == "Art. 9"
    assert [t["generated"] for t in types[:3]] == [False, False, True]
    api.call("GET", "/api/v1/processes/no_such_process/document-types", "clerk", 404)


class _Endless:
    """A request body that would be 1 GB: counts what the server reads of it."""

    def __init__(self, head: bytes):
        self.head, self.read_bytes = head, 0

    def read(self, n=-1):
        n = 65536 if n is None or n < 0 else min(n, 65536)
        chunk = (self.head if self.read_bytes == 0 else b"") or b"0" * n
        self.read_bytes += len(chunk)
        return chunk

    def readline(self, n=-1):
        return self.read(n)

    def tell(self):
        return self.read_bytes

    def seek(self, *_):
        return 0


def test_a_huge_upload_is_refused_without_being_read(api, app, case):
    from werkzeug.test import EnvironBuilder, run_wsgi_app
    boundary = "bench"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nid_card\r\n--{boundary}\r\n"
            f"Content-Disposition: form-data; name=\"file\"; filename=\"x.pdf\"\r\n"
            f"Content-Type: application/pdf\r\n\r\n%PDF-1.4\n").encode()
    body = _Endless(head)
    environ = EnvironBuilder(path=f"/api/v1/instances/{case['id']}/documents", method="POST",
                             content_type=f"multipart/form-data; boundary={boundary}",
                             headers={"Authorization": f"Bearer {api.token('clerk')}"}).get_environ()
    environ.update({"wsgi.input": body, "CONTENT_LENGTH": str(1024 ** 3)})  # a client declaring 1 GB
    _iterable, status, _headers = run_wsgi_app(app, environ, buffered=True)
    assert status.startswith("413"), status
    assert body.read_bytes < 1024 * 1024  # the declared length alone decided
    assert api.get(f"/api/v1/instances/{case['id']}/documents", "clerk") == []


def test_a_missing_file_or_a_task_id_that_is_no_number_is_422(api, case):
    r = api.call("POST", f"/api/v1/instances/{case['id']}/documents", "clerk", 422,
                 data={"type": "id_card"}, content_type="multipart/form-data")
    assert "file" in r.get_json()["errors"]
    assert "task_id" in upload(api, case["id"], "clerk", task_id="uno", expect=422)["errors"]
    assert "type" in upload(api, case["id"], "clerk", type="", expect=422)["errors"]


def test_only_the_engine_files_letters_a_staff_upload_of_a_letter_type_is_422_in_spanish(api, case):
    for user in ("clerk", "boss"):
        refused = upload(api, case["id"], user, type="letter.denial", expect=422)
        assert refused["errors"]["type"][0] == "GENERATED_ONLY"
        assert "es una carta que genera el sistema" in refused["errors"]["type"][1]
        assert "genera el sistema" in refused["message"]
    upload(api, case["id"], "clerk", type="letter.award", expect=422)  # a letter from the general catalogue
    assert api.get(f"/api/v1/instances/{case['id']}/documents", "clerk") == []
    assert not [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")
                if e["type"] == "document_added"]
