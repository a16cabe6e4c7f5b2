"""The spool files an upload killed mid-way leaves (test_crash.py kills one) are removed by the next
uploads on that host, once nothing has written to them for hours; an upload in progress and other
programs' files are never touched."""
from __future__ import annotations

import os
import tempfile
import time

import pytest

from engine.expediente import spool_sweep, storage
from tests.api.expediente.support import PDF, upload

HOURS = 3600


def _file(folder, name, age_seconds: float):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"%PDF-1.4\n" + b"x" * 1000)
    then = time.time() - age_seconds
    os.utime(path, (then, then))
    return path


@pytest.fixture
def fresh_sweeps(monkeypatch):
    """This process has swept no folder yet (the once-an-hour memory starts empty)."""
    swept: dict = {}
    monkeypatch.setattr(spool_sweep, "_swept_at", swept)
    return swept


def test_an_upload_removes_what_killed_uploads_left_in_the_document_folder(api, case, expediente_env, fresh_sweeps):
    spools = expediente_env / "documents" / "tmp"
    dead = _file(spools, "tramite-upload-dead", 7 * HOURS)
    dead_before_the_rename = _file(spools, "upload-dead", 30 * HOURS)  # the name spool files had before
    in_progress = _file(spools, "tramite-upload-busy", 5 * 60)           # another request still writing
    not_a_spool = _file(spools, "README", 30 * HOURS)
    assert upload(api, case["id"], "clerk")["folio"] == 1
    assert not dead.exists() and not dead_before_the_rename.exists()
    assert in_progress.exists() and not_a_spool.exists()
    # The upload's own spool file went when it was stored: only what was kept is left.
    assert sorted(p.name for p in spools.iterdir()) == ["README", "tramite-upload-busy"]


def test_in_the_system_temporary_folder_only_trámite_s_own_files_go(tmp_path, monkeypatch, fresh_sweeps):
    system_tmp = tmp_path / "system-tmp"
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    ours = _file(system_tmp, "tramite-upload-dead", 7 * HOURS)
    someone_elses = _file(system_tmp, "upload-abc", 30 * HOURS)  # another program's name, perhaps
    spooled = storage.spool(PDF, storage.max_document_bytes(), None)  # PostgreSQL and S3 storage spool here
    try:
        assert not ours.exists() and someone_elses.exists()
        assert spooled.path.parent == system_tmp and spooled.path.name.startswith(spool_sweep.PREFIX)
    finally:
        spooled.discard()


def test_a_process_sweeps_a_folder_at_most_once_an_hour(tmp_path, fresh_sweeps):
    folder = tmp_path / "spools"
    storage.spool(PDF, storage.max_document_bytes(), folder).discard()
    late = _file(folder, "tramite-upload-late", 7 * HOURS)
    storage.spool(PDF, storage.max_document_bytes(), folder).discard()
    assert late.exists()  # swept a moment ago: listing the folder on every upload would cost them all
    fresh_sweeps[str(folder)] -= spool_sweep.EVERY_SECONDS + 1  # an hour later
    storage.spool(PDF, storage.max_document_bytes(), folder).discard()
    assert not late.exists()


def test_a_missing_folder_or_a_file_swept_by_another_process_is_no_error(tmp_path, monkeypatch):
    assert spool_sweep.sweep(tmp_path / "nowhere") == 0
    folder = tmp_path / "spools"
    gone = _file(folder, "tramite-upload-raced", 7 * HOURS)
    real_unlink = os.unlink

    def raced(path, *args, **kwargs):  # another host on the shared folder took it between listing and unlink
        real_unlink(path)
        raise FileNotFoundError(path)
    monkeypatch.setattr(spool_sweep.os, "unlink", raced)
    assert spool_sweep.sweep(folder) == 0 and not gone.exists()
