"""Storage backends and the guarantees the database gives the file: large objects on PostgreSQL,
rows that cannot be rewritten, folios drawn once under parallel uploads, a rolled-back command
leaving nothing."""
from __future__ import annotations

import hashlib
import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from engine.expediente import documents
from engine.identity.actor import Actor
from tests.api.expediente.support import PDF, PNG, upload

CLERK = Actor("clerk", frozenset({"test_clerk"}), None)


def _needs_postgresql(engine):
    if engine.db.is_sqlite:
        pytest.skip("a PostgreSQL feature; the PostgreSQL phase runs this")


def _large_objects(engine) -> int:
    with engine.db.write_engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM pg_largeobject_metadata")).scalar_one()


def test_large_objects_hold_the_bytes_in_the_database(api, case, engine, monkeypatch, expediente_env):
    _needs_postgresql(engine)
    monkeypatch.setenv("TRAMITE_DOCUMENT_STORAGE", "postgresql")
    before = _large_objects(engine)
    big = PDF + bytes(range(256)) * 9000  # a few chunks
    first = upload(api, case["id"], "clerk", content=big)
    same = upload(api, case["id"], "clerk", content=big, type="deed")
    assert _large_objects(engine) == before + 1  # the same bytes are stored once
    assert not list((expediente_env / "documents").glob("??/??/*"))
    for doc in (first, same):
        body = api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk", 200).data
        assert body == big and hashlib.sha256(body).hexdigest() == doc["sha256"]


def test_a_command_that_fails_after_storing_leaves_no_large_object(case, engine, monkeypatch):
    _needs_postgresql(engine)
    monkeypatch.setenv("TRAMITE_DOCUMENT_STORAGE", "postgresql")
    before = _large_objects(engine)

    def store_then_fail(ctx):
        documents.add_document(ctx, case["id"], PNG, type="deed", filename="x.png")
        raise RuntimeError("the step that caused the letter failed")
    with pytest.raises(RuntimeError):
        engine.execute(store_then_fail, CLERK)
    assert _large_objects(engine) == before
    assert engine.read_rows(documents.index, case["id"]) == []


def test_document_rows_are_never_rewritten_or_deleted_on_postgresql(api, case, engine):
    _needs_postgresql(engine)
    doc = upload(api, case["id"], "clerk")
    for statement in ("UPDATE document SET sha256 = 'x' WHERE id = :id", "DELETE FROM document WHERE id = :id",
                      "UPDATE document SET voided_at = now(), filename = 'y' WHERE id = :id"):
        with pytest.raises(DBAPIError, match="only voided"):
            with engine.db.transaction() as session:
                session.execute(text(statement), {"id": doc["id"]})
    api.post(f"/api/v1/documents/{doc['id']}/void", "boss", {"reason": "duplicado"})  # voiding is allowed
    with pytest.raises(DBAPIError, match="only voided"):
        with engine.db.transaction() as session:
            session.execute(text("UPDATE document SET void_reason = 'otra' WHERE id = :id"), {"id": doc["id"]})


def test_parallel_uploads_draw_each_folio_once(api, case, engine):
    results, errors = [], []
    start = threading.Barrier(6)

    def one(n):
        start.wait()
        try:
            results.append(engine.execute(lambda ctx: documents.add_document(
                ctx, case["id"], PDF + str(n).encode(), type="id_card", filename=f"{n}.pdf"), CLERK))
        except Exception as exc:  # noqa: BLE001 — the test reports every failure
            errors.append(exc)
    threads = [threading.Thread(target=one, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(d["folio"] for d in results) == [1, 2, 3, 4, 5, 6]
    assert sorted(d["version"] for d in results) == [1, 2, 3, 4, 5, 6]
