"""The certified export of a case file: a ZIP with `index.pdf` (the foliated index, drawn by
WeasyPrint from its own HTML template, never from a web page), every document, `history.json`
and `manifest.json` whose hashes match what is in the archive.

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
_TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                         autoescape=select_autoescape(["html"]))


def write_expediente(conn, case: dict, history: list[dict], now: datetime, actor: str, sink) -> None:
    """Write the export of `case` ({id, case_number, process_name}) to the binary file `sink`."""
    history = [e for e in history if e["type"] not in PRIVATE_EVENTS]
    history_bytes = json.dumps(history, ensure_ascii=False, indent=1, default=str).encode("utf-8")
    history_sha = hashlib.sha256(history_bytes).hexdigest()
    rows = {r.id: r for r in _rows(conn, case["id"])}
    listed = documents.index(conn, case["id"])
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
        archive.writestr("index.pdf", _index_pdf(case, entries, history_sha, now, actor))
        manifest = {"case_number": case["case_number"], "generated_at": now.isoformat(),
                    "generated_by": actor, "history_sha256": history_sha,
                    "documents": [{"folio": d["folio"], "filename": d["entry"], "original_filename": d["filename"],
                                   "type": d["type"], "version": d["version"], "media_type": d["media_type"],
                                   "size": d["size"], "sha256": d["sha256"], "source": d["source"],
                                   "voided": d["voided"], "void_reason": d["void_reason"]} for d in entries]}
        archive.writestr("manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1))


def _rows(conn, instance_id):
    return conn.execute(select(documents.DOCUMENT).where(documents.DOCUMENT.c.instance_id == instance_id))


def _local(instant: str | None) -> str:
    return datetime.fromisoformat(instant).astimezone(PUERTO_RICO).strftime("%Y-%m-%d") if instant else ""


def _index_pdf(case: dict, entries: list[dict], history_sha: str, now: datetime, actor: str) -> bytes:
    from weasyprint import HTML  # heavy: loaded by the first export only

    rows = [{**d, "date": _local(d["uploaded_at"]), "voided_on": _local(d["voided_at"]),
             "source_label": SOURCE_LABELS.get(d["source"], d["source"])} for d in entries]
    html = _TEMPLATES.get_template("index.html").render(
        case_number=case["case_number"], process_name=case.get("process_name") or case.get("process_key", ""),
        documents=rows, history_sha256=history_sha, generated_by=actor,
        generated_at=now.astimezone(PUERTO_RICO).strftime("%Y-%m-%d %H:%M"))
    return HTML(string=html).write_pdf()
