"""A process killed (SIGKILL) while storing a document leaves no row naming missing bytes, no
history event of a document that is not there, and no folio used up; the spool file it left is
removed by a later upload once it is hours old (engine/expediente/spool_sweep.py)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from engine.expediente import spool_sweep
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
    # PostgreSQL and S3 storage spool in the system's temporary folder: this test's own, here and in
    # the killed process, so that what the kill leaves is seen (and not left in the machine's /tmp).
    system_tmp = expediente_env / "system-tmp"
    system_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(system_tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    monkeypatch.setattr(spool_sweep, "_swept_at", {})
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
    # Killed mid-copy, the upload's spool file stays behind; stored or refused, it never does.
    spools = expediente_env / "documents" / "tmp" if backend == "folder" else system_tmp
    left = list(spools.glob(spool_sweep.PREFIX + "*"))
    assert len(left) == (1 if point == "mid_blob" else 0)
    hours_ago = time.time() - spool_sweep.STALE_SECONDS - 60
    for path in left:
        os.utime(path, (hours_ago, hours_ago))
    monkeypatch.setattr(spool_sweep, "_swept_at", {})  # the hour between sweeps has passed
    # The folio the dead upload drew was never committed: the next upload takes folio 2.
    assert upload(api, case["id"], "clerk", content=PDF + b"%again\n")["folio"] == 2
    assert not list(spools.glob(spool_sweep.PREFIX + "*"))
    _every_row_has_its_bytes(engine, api, case["id"])
