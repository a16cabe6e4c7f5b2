"""Reading a generated letter back: its notification, its document's bytes, its text as pypdf extracts it."""
from __future__ import annotations

import io

from pypdf import PdfReader


def letters_of(api, case_id: int, kind: str, as_user="boss") -> list[dict]:
    """The notifications of a case that carry a letter of `kind`, with the document's bytes and text."""
    documents = {d["id"]: d for d in api.get(f"/api/v1/instances/{case_id}/documents", as_user)}
    out = []
    for notice in api.get(f"/api/v1/instances/{case_id}/notifications", as_user):
        document = documents.get(notice.get("document_id"))
        if document is None or document["type"] != f"letter.{kind}":
            continue
        response = api.call("GET", f"/api/v1/documents/{document['id']}/content", as_user, 200)
        content = response.get_data()
        out.append({"notice": notice, "document": document, "bytes": content, "text": text_of(content)})
    return out


def text_of(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    # One line of words: pypdf breaks lines where the layout does, and a test reads sentences.
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def pdfa_part(content: bytes) -> tuple[str | None, str | None]:
    """(part, conformance) from the XMP metadata: ("3", "B") for PDF/A-3b."""
    xmp = PdfReader(io.BytesIO(content)).xmp_metadata
    if xmp is None:
        return None, None
    return xmp.pdfaid_part, xmp.pdfaid_conformance
