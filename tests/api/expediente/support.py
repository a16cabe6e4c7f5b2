"""A small procedure with a document catalogue of its own, and files of each kind, real bytes."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from tests.support import bpmn as b

KEY = "test_docs"
TYPES = [
    {"id": "id_card", "label_es": "Identificación con foto", "label_en": "Photo ID", "article": "Art. 4",
     "checklist": ["handle.docs.id_received"]},
    {"id": "deed", "label_es": "Escritura", "label_en": "Deed", "article": "Art. 5"},
    {"id": "letter.denial", "label_es": "Carta de denegación", "label_en": "Denial letter", "article": "Art. 9"},
]

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
       b"trailer<</Root 1 0 R>>\n%%EOF\n")
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\x1f\x15\xc4\x89" + b"\0" * 40
EXE = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + b"\0" * 200 + b"This program cannot be run in DOS mode"


def docx() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<Types><Override PartName="/word/document.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("word/document.xml", "<w:document/>")
    return out.getvalue()


def odt() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        z.writestr("content.xml", "<office:document-content/>")
    return out.getvalue()


def plain_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("run.sh", "#!/bin/sh\n")
    return out.getvalue()


def flow() -> dict[str, str]:
    xml = b.diagram(KEY, lanes={"test_clerk": ["start", "scope", "handle", "end"]},
                    nodes=[b.start(), b.script("scope", "office = requested_office"), b.user("handle"), b.end()],
                    flows=b.chain("start", "scope", "handle", "end"))
    received = {"type": "object", "properties": {"id_received": {"type": "boolean", "title": "Identificación recibida"}}}
    return {"docs.bpmn": xml, "handle.schema.json": b.form({}, {"docs": received})}


REPO_PROCESSES = Path(__file__).resolve().parents[3] / "processes"


def install_catalogue(root: Path) -> Path:
    """A processes folder: the shipped catalogues (roles, parameters) and the test procedure's."""
    folder = root / KEY
    folder.mkdir(parents=True)
    for name in ("roles.json", "parameters.json", "document_types.json"):
        (root / name).symlink_to(REPO_PROCESSES / name)
    (folder / "document_types.json").write_text(json.dumps(TYPES), encoding="utf-8")
    (folder / "docs.bpmn").write_text(flow()["docs.bpmn"], encoding="utf-8")
    return root


def upload(api, case_id, as_user, content=PDF, type="id_card", filename="cedula.pdf", expect=201, **fields):
    data = {"file": (io.BytesIO(content), filename), "type": type, **{k: str(v) for k, v in fields.items()}}
    response = api.call("POST", f"/api/v1/instances/{case_id}/documents", as_user, expect,
                        data=data, content_type="multipart/form-data")
    return response.get_json()
