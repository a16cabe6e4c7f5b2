"""Document bytes in an S3-compatible bucket (TRAMITE_DOCUMENT_STORAGE=s3) against a real HTTP S3
endpoint (moto's standalone server, tests/support/s3.py): content-addressed keys, bytes stored once,
downloads and the export read back from the bucket, and a store that refuses or cannot be reached
changes nothing (503, no row, no history, no folio)."""
from __future__ import annotations

import hashlib
import io
import json
import socket
import zipfile

import pytest

from engine.expediente import documents
from engine.identity.actor import Actor
from tests.api.expediente.support import PDF, PNG, upload
from tests.support import s3

CLERK = Actor("clerk", frozenset({"test_clerk"}), None)


def _key(sha: str) -> str:
    return f"documents/{sha[:2]}/{sha[2:4]}/{sha}"


def test_uploads_land_in_the_bucket_under_their_sha256_once(api, case, s3_bucket, expediente_env):
    big = PDF + bytes(range(256)) * 9000  # ~2 MB: several of our chunks
    first = upload(api, case["id"], "clerk", content=big)
    same = upload(api, case["id"], "clerk", content=big, type="deed")
    other = upload(api, case["id"], "clerk", content=PNG, filename="foto.png", type="deed")
    stored = s3.objects(s3_bucket["endpoint"], s3_bucket["bucket"])
    assert set(stored) == {_key(first["sha256"]), _key(other["sha256"])}  # the same bytes once
    for key, content in stored.items():
        assert hashlib.sha256(content).hexdigest() == key.rsplit("/", 1)[1]
    assert not list((expediente_env / "documents").glob("??/??/*"))  # nothing in the folder
    for doc, content in ((first, big), (same, big), (other, PNG)):
        body = api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk", 200).data
        assert body == content and hashlib.sha256(body).hexdigest() == doc["sha256"]


def test_the_prefix_is_the_deployments(api, case, s3_bucket, monkeypatch):
    monkeypatch.setenv("TRAMITE_S3_PREFIX", "oficina-ponce/expedientes")
    doc = upload(api, case["id"], "clerk")
    sha = doc["sha256"]
    assert list(s3.objects(s3_bucket["endpoint"], s3_bucket["bucket"])) == [
        f"oficina-ponce/expedientes/{sha[:2]}/{sha[2:4]}/{sha}"]
    assert api.call("GET", f"/api/v1/documents/{doc['id']}/content", "clerk", 200).data == PDF


def test_the_certified_export_reads_every_document_from_the_bucket(api, case, s3_bucket):
    upload(api, case["id"], "clerk")
    upload(api, case["id"], "clerk", content=PNG, filename="foto.png", type="deed")
    archive = zipfile.ZipFile(io.BytesIO(api.call("GET", f"/api/v1/instances/{case['id']}/expediente", "clerk",
                                                  200).data))
    manifest = json.loads(archive.read("manifest.json"))
    assert len(manifest["documents"]) == 2
    for entry in manifest["documents"]:
        assert hashlib.sha256(archive.read(entry["filename"])).hexdigest() == entry["sha256"]


def test_a_bucket_that_refuses_is_503_and_the_upload_changes_nothing(api, case, s3_bucket, monkeypatch):
    monkeypatch.setenv("TRAMITE_S3_BUCKET", "no-such-bucket-" + s3_bucket["bucket"])
    refused = upload(api, case["id"], "clerk", expect=503)
    assert "nothing was saved" in refused["message"] and "NoSuchBucket" in refused["message"]
    assert api.get(f"/api/v1/instances/{case['id']}/documents", "clerk") == []
    assert not [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "clerk") if e["type"] == "document_added"]
    monkeypatch.setenv("TRAMITE_S3_BUCKET", s3_bucket["bucket"])
    assert upload(api, case["id"], "clerk")["folio"] == 1  # the refused upload used up no folio


def test_an_unreachable_store_is_503_not_a_hang(api, case, s3_bucket, monkeypatch):
    with socket.socket() as probe:  # a local port nobody listens on: connection refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("TRAMITE_S3_ENDPOINT_URL", f"http://127.0.0.1:{port}")
    assert "nothing was saved" in upload(api, case["id"], "clerk", expect=503)["message"]
    assert api.get(f"/api/v1/instances/{case['id']}/documents", "clerk") == []


def test_a_command_that_fails_after_storing_leaves_no_row_naming_the_object(case, engine, s3_bucket):
    def store_then_fail(ctx):
        documents.add_document(ctx, case["id"], PNG, type="deed", filename="x.png")
        raise RuntimeError("the step that caused the letter failed")
    with pytest.raises(RuntimeError):
        engine.execute(store_then_fail, CLERK)
    assert engine.read_rows(documents.index, case["id"]) == []
    # At worst an object no row names; whole, at its content address.
    for key, content in s3.objects(s3_bucket["endpoint"], s3_bucket["bucket"]).items():
        assert hashlib.sha256(content).hexdigest() == key.rsplit("/", 1)[1]


def test_without_a_bucket_the_storage_says_what_to_set(api, case, s3_bucket, monkeypatch):
    monkeypatch.delenv("TRAMITE_S3_BUCKET")
    refused = upload(api, case["id"], "clerk", expect=400)
    assert "TRAMITE_S3_BUCKET" in refused["message"]
    assert api.get(f"/api/v1/instances/{case['id']}/documents", "clerk") == []
