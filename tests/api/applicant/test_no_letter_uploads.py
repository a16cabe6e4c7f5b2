"""An applicant cannot file a document under a letter's type: letters are the office's, generated."""
from __future__ import annotations

import io

from tests.api.applicant.conftest import PDF


def test_an_applicant_upload_of_a_letter_type_is_refused_in_spanish_and_files_nothing(far, denied):
    applicant = denied["applicant"]
    before = far.api.get(f"/api/v1/instances/{denied['case']['id']}/documents", "far_clerk")
    refused = applicant.call("POST", "/api/v1/public/case/documents", 422,
                             data={"file": (io.BytesIO(PDF), "carta.pdf"), "type": "letter.denial"},
                             content_type="multipart/form-data").get_json()
    assert "GENERATED_ONLY" in refused["errors"]["type"]
    assert any("genera el sistema" in m for m in refused["errors"]["type"])
    assert far.api.get(f"/api/v1/instances/{denied['case']['id']}/documents", "far_clerk") == before
