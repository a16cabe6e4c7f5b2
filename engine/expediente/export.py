"""The certified export of a case file: a ZIP with `index.pdf` (the foliated index, drawn by
WeasyPrint from its own HTML template, never from a web page), every document, `history.json`
and `manifest.json` whose hashes match what is in the archive.

The retention archive (engine/commands/retention.py) is the same export with its index as
`index.html` (the same template with the same values) instead of `index.pdf`: drawing the PDF is
~90 % of an export's cost, and an archive is written for every case but read for few. The PDF is
drawn from that HTML when an archive is read (`archived_index_pdf`).

Internal notes are not part of it, nor their trace in the history. Each document's bytes are
hashed again while they are copied in: stored bytes that no longer match their row stop the
export instead of certifying them.
"""
from __future__ import annotations

import hashlib
import json
import zipfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import select

from engine.errors import EngineError
from engine.expediente import documents

PUERTO_RICO = ZoneInfo("America/Puerto_Rico")
SOURCE_LABELS = {"staff": "Personal de la agencia", "applicant": "Solicitante", "generated": "Generado por el sistema"}
PRIVATE_EVENTS = {"note_added"}
ARCHIVE_INDEX = "index.html"
_TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                         autoescape=select_autoescape(["html"]))


def write_expediente(conn, case: dict, history: list[dict], now: datetime, actor: str, sink,
                     *, pdf_index: bool = True, document_rows: list | None = None) -> None:
    """Write the export of `case` ({id, case_number, process_name}) to the binary file `sink`;
    `pdf_index=False` (the archive) writes the index as `index.html`, to be drawn when read;
    `document_rows`: the case's document rows read already (the archive reads a batch's at once)."""
    history = [e for e in history if e["type"] not in PRIVATE_EVENTS]
    history_bytes = json.dumps(history, ensure_ascii=False, indent=1, default=str).encode("utf-8")
    history_sha = hashlib.sha256(history_bytes).hexdigest()
    if document_rows is None:
        rows = {r.id: r for r in _rows(conn, case["id"])}
        listed = documents.index(conn, case["id"])
    else:
        rows = {r.id: r for r in document_rows}
        listed = [documents.shape(r._mapping, case["process_key"]) for r in sorted(document_rows, key=lambda r: r.folio)]
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        entries = []
        for doc in listed:
            entry = f"documentos/{doc['folio']:04d}-{doc['filename']}"
            digest = hashlib.sha256()
            # Stored as they are: the accepted formats are compressed already (deflating them again
            # costs seconds per hundred megabytes and gains nothing).
            info = zipfile.ZipInfo(entry, datetime.fromisoformat(doc["uploaded_at"]).astimezone(PUERTO_RICO)
                                   .timetuple()[:6])
            info.compress_type = zipfile.ZIP_STORED
            with archive.open(info, "w", force_zip64=True) as out:
                for chunk in documents.content_chunks(conn, rows[doc["id"]]):
                    digest.update(chunk)
                    out.write(chunk)
            if digest.hexdigest() != doc["sha256"]:
                raise EngineError(f"the stored bytes of folio {doc['folio']} do not match its SHA-256; "
                                  "the export was stopped")
            entries.append({**doc, "entry": entry})
        archive.writestr("history.json", history_bytes)
        html = _index_html(case, entries, history_sha, now, actor)
        if pdf_index:
            archive.writestr("index.pdf", _pdf(html))
        else:
            archive.writestr(ARCHIVE_INDEX, html.encode("utf-8"))
        manifest = {"case_number": case["case_number"], "generated_at": now.isoformat(),
                    "generated_by": actor, "history_sha256": history_sha,
                    "documents": [{"folio": d["folio"], "filename": d["entry"], "original_filename": d["filename"],
                                   "type": d["type"], "version": d["version"], "media_type": d["media_type"],
                                   "size": d["size"], "sha256": d["sha256"], "source": d["source"],
                                   "voided": d["voided"], "void_reason": d["void_reason"]} for d in entries]}
        if not pdf_index:
            manifest["index"] = ARCHIVE_INDEX
        archive.writestr("manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1))


def _rows(conn, instance_id):
    return conn.execute(select(documents.DOCUMENT).where(documents.DOCUMENT.c.instance_id == instance_id))


def _local(instant: str | None) -> str:
    return datetime.fromisoformat(instant).astimezone(PUERTO_RICO).strftime("%Y-%m-%d") if instant else ""


def archived_index_pdf(archive_file) -> bytes:
    """The PDF index of an archived export (a path or a binary file), drawn from its index.html:
    the same document the staff export carries for the same case at the same moment."""
    with zipfile.ZipFile(archive_file) as archive:
        return _pdf(archive.read(ARCHIVE_INDEX).decode("utf-8"))


def _pdf(html: str) -> bytes:
    from weasyprint import HTML  # heavy: loaded by the first export only
    return HTML(string=html).write_pdf()


def _index_html(case: dict, entries: list[dict], history_sha: str, now: datetime, actor: str) -> str:
    rows = [{**d, "date": _local(d["uploaded_at"]), "voided_on": _local(d["voided_at"]),
             "source_label": SOURCE_LABELS.get(d["source"], d["source"])} for d in entries]
    return _TEMPLATES.get_template("index.html").render(
        case_number=case["case_number"], process_name=case.get("process_name") or case.get("process_key", ""),
        documents=rows, history_sha256=history_sha, generated_by=actor,
        generated_at=now.astimezone(PUERTO_RICO).strftime("%Y-%m-%d %H:%M"))
