"""Issue 21: what the retention archive holds (read back from the ZIP: documents, history, manifest
and the index as HTML, its PDF drawn when read), and the job's batches: several cases per
transaction, N workers each taking their own cases, and every row of a case gone, its notices too."""
from __future__ import annotations

import hashlib
import io
import json
import os
import time
import zipfile

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from engine.commands import retention as job
from engine.config import retention
from engine.expediente import spool_sweep
from engine.expediente.export import archived_index_pdf
from engine.identity.actor import SYSTEM
from engine.persistence.models import (
    CaseArchive,
    CaseNote,
    Document,
    Notification,
    ProcessInstance,
)
from engine.registries import notifications
from tests.api.expediente.support import KEY, PNG, flow, install_catalogue, upload
from tests.support.diagrams import rules_flow


@pytest.fixture
def catalogue(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(install_catalogue(tmp_path / "processes")))
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))
    monkeypatch.delenv("TRAMITE_DOCUMENT_STORAGE", raising=False)
    monkeypatch.setattr(retention, "periods", lambda: {KEY: 3, "test_rules": 3})


def _archive_of(engine, case_number):
    with engine.db.reading() as session:
        return session.scalars(select(CaseArchive).where(CaseArchive.case_number == case_number)).one()


def test_the_archive_holds_the_case_file_and_its_recorded_hash(api, engine, tmp_path, catalogue):
    api.deploy(KEY, flow())
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {"requested_office": "Ponce"}},
                    expect=201)
    upload(api, case["id"], "clerk", description="Cédula")
    upload(api, case["id"], "clerk", content=PNG, type="deed", filename="escritura.png")
    api.post(f"/api/v1/instances/{case['id']}/notes", "clerk", {"text": "Nota interna"}, expect=201)
    api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "desistió"})
    api.move_clock("2030-01-02T12:00:00-04:00")
    # On PostgreSQL the documents' and notes' triggers refused the job before 0030.
    assert job.run(engine, folder=tmp_path / "archive").archived == [case["case_number"]]
    with engine.db.reading() as session:
        assert [session.scalar(select(func.count()).select_from(m).where(m.instance_id == case["id"]))
                for m in (Document, CaseNote)] == [0, 0]

    record = _archive_of(engine, case["case_number"])
    content = job.read_archive(record.location)
    assert hashlib.sha256(content).hexdigest() == record.sha256 and len(content) == record.size
    archive = zipfile.ZipFile(io.BytesIO(content))
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["case_number"] == case["case_number"] and manifest["index"] == "index.html"
    assert [d["folio"] for d in manifest["documents"]] == [1, 2]
    assert set(archive.namelist()) == {"history.json", "index.html", "manifest.json",
                                       *(d["filename"] for d in manifest["documents"])}
    for doc in manifest["documents"]:
        assert hashlib.sha256(archive.read(doc["filename"])).hexdigest() == doc["sha256"]
    history = archive.read("history.json")
    assert hashlib.sha256(history).hexdigest() == manifest["history_sha256"]
    assert {"case_started", "document_added", "case_cancelled"} <= {e["type"] for e in json.loads(history)}
    index = archive.read("index.html").decode("utf-8")
    assert case["case_number"] in index and "Escritura" in index and manifest["history_sha256"] in index

    pdf = archived_index_pdf(io.BytesIO(content))  # drawn when the archive is read
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).replace("\n", "")
    assert case["case_number"] in text and "Identificación con foto" in text
    for doc in manifest["documents"]:
        assert doc["sha256"][:16] in text


def _finished(api, n) -> list[dict]:
    api.deploy("test_rules", rules_flow())
    cases = [api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(n)]
    for case in cases:
        api.post(f"/api/v1/instances/{case['id']}/cancel", "boss", {"reason": "desistió"})
    api.move_clock("2030-01-02T12:00:00-04:00")
    return cases


def test_batches_and_shards_archive_every_case_once(api, engine, tmp_path, catalogue):
    cases = _finished(api, 7)
    folder = tmp_path / "archive"
    first = job.run(engine, batch=2, folder=folder, shard=(0, 2))      # more than one batch
    second = job.run(engine, batch=2, folder=folder, shard=(1, 2))
    assert {c["id"] % 2 for c in cases if c["case_number"] in first.archived} == {0}
    assert sorted(first.archived + second.archived) == sorted(c["case_number"] for c in cases)
    assert not [p for p in folder.rglob(".archiving-*")]                  # no temporary file left
    with engine.db.reading() as session:
        assert session.scalar(select(func.count()).select_from(CaseArchive)) == 7
    assert job.run(engine, batch=2, folder=folder).archived == []


def test_a_case_s_notices_leave_with_it(api, engine, tmp_path, catalogue):
    """A plain notice (no letter) carries only its case id: the job used to leave it behind."""
    api.deploy("test_rules", rules_flow())
    gone, kept = (api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
                  for _ in range(2))
    api.post(f"/api/v1/instances/{gone['id']}/cancel", "boss", {"reason": "desistió"})
    for case in (gone, kept):
        engine.execute(lambda ctx, cid: notifications.record(ctx, cid, "Ana", "Aviso", "Su caso"), SYSTEM, case["id"])
    api.move_clock("2030-01-02T12:00:00-04:00")
    assert job.run(engine, folder=tmp_path / "archive").archived == [gone["case_number"]]
    with engine.db.reading() as session:
        assert session.scalars(select(Notification.case_id)).all() == [kept["id"]]


def test_a_case_changed_between_export_and_removal_stays_and_leaves_the_container(api, engine, tmp_path,
                                                                                   catalogue):
    changed, archived = _finished(api, 2)
    folder = tmp_path / "archive"
    folder.mkdir()
    now = engine.now()
    with engine.db.reading() as session:
        pack, skipped = job._pack(session, [changed["id"], archived["id"]], now, folder)
    assert skipped == 0 and len(pack.members) == 2
    with engine.db.transaction() as session:  # someone touched the case after its export
        session.execute(ProcessInstance.__table__.update().where(ProcessInstance.id == changed["id"])
                        .values(lock_version=ProcessInstance.lock_version + 1))
    assert engine.execute(job._remove, SYSTEM, pack, folder, now=now) == [archived["case_number"]]
    record = _archive_of(engine, archived["case_number"])
    container = zipfile.ZipFile(record.location.rpartition("#")[0])
    assert container.namelist() == [f"{archived['case_number']}.zip"]
    assert hashlib.sha256(job.read_archive(record.location)).hexdigest() == record.sha256
    assert not list(folder.rglob(".archiving-*"))
    assert job.run(engine, folder=folder).archived == [changed["case_number"]]  # the next run takes it


def test_a_run_removes_the_container_a_killed_run_left_and_no_one_else_s(api, engine, tmp_path, catalogue):
    """A run killed while packing leaves its temporary container (up to a batch of exports) in the
    archive folder; the next run removes it once nothing has written to it for hours."""
    case = _finished(api, 1)[0]
    folder = tmp_path / "archive"
    folder.mkdir()
    left, writing, kept = folder / ".archiving-dead.zip", folder / ".archiving-busy.zip", folder / "notes.txt"
    hours_ago = time.time() - spool_sweep.STALE_SECONDS - 60
    for path in (left, writing, kept):
        path.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    for path in (left, kept):
        os.utime(path, (hours_ago, hours_ago))
    assert job.run(engine, folder=folder).archived == [case["case_number"]]
    assert not left.exists()
    assert writing.exists() and kept.exists()  # a run in progress elsewhere; not a container
