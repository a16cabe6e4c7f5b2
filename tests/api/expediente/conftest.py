from __future__ import annotations

import pytest

from tests.api.expediente.support import KEY, flow, install_catalogue


@pytest.fixture(autouse=True)
def expediente_env(tmp_path, monkeypatch):
    """Every test gets its own processes folder (with the test procedure's catalogue) and storage."""
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(install_catalogue(tmp_path / "processes")))
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))
    monkeypatch.delenv("TRAMITE_MAX_DOCUMENT_MB", raising=False)
    monkeypatch.delenv("TRAMITE_DOCUMENT_STORAGE", raising=False)
    return tmp_path


@pytest.fixture
def case(api):
    api.deploy(KEY, flow())
    return api.post(f"/api/v1/processes/{KEY}/instances", "clerk",
                    {"variables": {"requested_office": "Ponce"}}, expect=201)


@pytest.fixture(scope="session")
def s3_endpoint():
    """moto's S3 server over HTTP on a local port, for the whole run (tests/support/s3.py)."""
    from tests.support import s3

    server, endpoint = s3.start_server()
    yield endpoint
    server.stop()


@pytest.fixture
def s3_bucket(s3_endpoint, monkeypatch):
    """A fresh bucket, and the storage pointed at it: {"endpoint", "bucket"}."""
    from tests.support import s3

    bucket = s3.new_bucket(s3_endpoint)
    s3.use(monkeypatch, s3_endpoint, bucket)
    return {"endpoint": s3_endpoint, "bucket": bucket}
