"""A process killed (SIGKILL) while storing a document leaves no row naming missing bytes, no
history event of a document that is not there, and no folio used up."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.expediente.support import PDF, upload
from tests.support import s3

ROOT = Path(__file__).resolve().parents[3]


def _kill_during_upload(database_url, case_id, point):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tests.api.expediente.crash_upload", database_url, str(case_id), point],
                          cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr.decode()[-2000:]


def _every_row_has_its_bytes(engine, api, case_id):
    for doc in api.get(f"/api/v1/instances/{case_id}/documents", "clerk"):
        body = api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk", 200).data
        assert hashlib.sha256(body).hexdigest() == doc["sha256"]


@pytest.mark.parametrize("point", ["mid_blob", "after_blob", "before_commit"])
@pytest.mark.parametrize("backend", ["folder", "postgresql", "s3"])
def test_a_kill_while_storing_leaves_the_file_consistent(api, case, engine, database_url, point, backend,
                                                         monkeypatch, expediente_env, request):
    if backend == "postgresql" and engine.db.is_sqlite:
        pytest.skip("large objects need PostgreSQL (the PostgreSQL phase runs this)")
    monkeypatch.setenv("TRAMITE_DOCUMENT_STORAGE", backend)
    bucket = request.getfixturevalue("s3_bucket") if backend == "s3" else None  # the killed process uses it too
    upload(api, case["id"], "clerk")  # folio 1, committed before the crash
    _kill_during_upload(database_url, case["id"], point)
    index = api.get(f"/api/v1/instances/{case['id']}/documents", "clerk")
    assert [d["folio"] for d in index] == [1]
    history = api.get(f"/api/v1/instances/{case['id']}/history", "clerk")
    assert len([e for e in history if e["type"] == "document_added"]) == 1
    _every_row_has_its_bytes(engine, api, case["id"])
    # A stored file is whole or absent: nothing half-written sits at a content address.
    for path in (expediente_env / "documents").glob("??/??/*"):
        assert hashlib.sha256(path.read_bytes()).hexdigest() == path.name
    for key, content in (s3.objects(bucket["endpoint"], bucket["bucket"]) if bucket else {}).items():
        assert hashlib.sha256(content).hexdigest() == key.rsplit("/", 1)[1]
    # The folio the dead upload drew was never committed: the next upload takes folio 2.
    assert upload(api, case["id"], "clerk", content=PDF + b"%again\n")["folio"] == 2
    _every_row_has_its_bytes(engine, api, case["id"])
