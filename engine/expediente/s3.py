"""Document bytes in an S3-compatible bucket (`TRAMITE_DOCUMENT_STORAGE=s3`), for several hosts
that share no folder and a deployment that keeps files out of the database.

Configured by the environment: `TRAMITE_S3_BUCKET` (required), `TRAMITE_S3_ENDPOINT_URL` (an
S3-compatible server; unset: AWS), `TRAMITE_S3_REGION`, `TRAMITE_S3_PREFIX` (default
`documents/`); credentials by boto3's own chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, a
profile, an instance role). boto3 is an optional dependency (`pip install tramite[s3]`), imported
only when this backend is used.

The same guarantees as the folder: the key is the content's SHA-256 (`<prefix>ab/cd/<sha256>`), so
bytes are never rewritten and the same content is stored once; the object is written (a single
PUT, which S3 makes visible whole or not at all; S3 checks it against the SHA-256 we counted, and
we check the size it then reports) before the document row is inserted, so a crash leaves at worst an object no row names, never a
row naming missing bytes. An unreachable or refusing server is a clear error and the upload
changes nothing.
"""
from __future__ import annotations

import base64
import os
from functools import lru_cache
from typing import Iterator

from engine.errors import EngineError, StorageUnavailable

CHUNK = 1024 * 1024
DEFAULT_PREFIX = "documents/"


def settings() -> dict:
    bucket = (os.environ.get("TRAMITE_S3_BUCKET") or "").strip()
    if not bucket:
        raise EngineError("TRAMITE_DOCUMENT_STORAGE=s3 needs TRAMITE_S3_BUCKET (the bucket's name)")
    prefix = os.environ.get("TRAMITE_S3_PREFIX", DEFAULT_PREFIX).strip().lstrip("/")
    if prefix and not prefix.endswith("/"):
        prefix += "/"
    return {"bucket": bucket, "prefix": prefix,
            "endpoint_url": (os.environ.get("TRAMITE_S3_ENDPOINT_URL") or "").strip() or None,
            "region": (os.environ.get("TRAMITE_S3_REGION") or "").strip() or None}


@lru_cache(maxsize=4)
def _client(endpoint_url: str | None, region: str | None):
    # One client per endpoint: boto3 clients are thread-safe and costly to build (~50 ms).
    try:
        import boto3
        from botocore.config import Config
    except ImportError:
        raise EngineError("TRAMITE_DOCUMENT_STORAGE=s3 needs boto3: pip install 'tramite[s3]'") from None
    config = Config(connect_timeout=5, read_timeout=30, retries={"max_attempts": 3, "mode": "standard"})
    return boto3.client("s3", endpoint_url=endpoint_url, region_name=region, config=config)


def _errors():
    from botocore.exceptions import BotoCoreError, ClientError
    return BotoCoreError, ClientError


def _code(exc) -> str:
    return str(getattr(exc, "response", {}).get("Error", {}).get("Code", ""))


class S3Storage:
    name = "s3"

    def __init__(self):
        self.config = settings()
        self.client = _client(self.config["endpoint_url"], self.config["region"])
        self.bucket = self.config["bucket"]

    def spool_folder(self):
        return None  # the system's temporary folder: the bytes leave the machine anyway

    def key(self, sha256: str) -> str:
        if len(sha256) != 64 or not all(c in "0123456789abcdef" for c in sha256):
            raise EngineError(f"not a content address: {sha256!r}")
        return f"{self.config['prefix']}{sha256[:2]}/{sha256[2:4]}/{sha256}"

    def put(self, conn, spooled) -> str:
        key = self.key(spooled.sha256)
        boto_error, client_error = _errors()
        try:
            if self._stored_size(key) == spooled.size:
                spooled.discard()  # the same bytes are already there: content addressing shares them
                return key
            with open(spooled.path, "rb") as body:
                # S3 refuses the PUT (BadDigest) if what arrived is not what we hashed.
                self.client.put_object(Bucket=self.bucket, Key=key, Body=body, ContentLength=spooled.size,
                                       ContentType="application/octet-stream",
                                       ChecksumSHA256=base64.b64encode(bytes.fromhex(spooled.sha256)).decode())
            stored = self._stored_size(key)
        except (boto_error, client_error) as exc:
            raise StorageUnavailable(f"the document store (bucket {self.bucket!r}) did not take the file: "
                                     f"{_code(exc) or type(exc).__name__}; nothing was saved, try again") from None
        if stored != spooled.size:  # a server that answered 200 and kept something else
            raise StorageUnavailable(f"the document store (bucket {self.bucket!r}) holds {stored} bytes under "
                                     f"{key}, not the {spooled.size} sent; nothing was saved, try again")
        spooled.discard()
        return key

    def _stored_size(self, key: str) -> int | None:
        _, client_error = _errors()
        try:
            return int(self.client.head_object(Bucket=self.bucket, Key=key)["ContentLength"])
        except client_error as exc:
            if _code(exc) in ("404", "NoSuchKey", "NotFound"):
                return None
            raise

    def chunks(self, conn, key: str) -> Iterator[bytes]:
        boto_error, client_error = _errors()
        try:
            body = self.client.get_object(Bucket=self.bucket, Key=key)["Body"]
        except (boto_error, client_error) as exc:
            raise StorageUnavailable(f"the document store (bucket {self.bucket!r}) did not give the file: "
                                     f"{_code(exc) or type(exc).__name__}") from None
        try:
            while chunk := body.read(CHUNK):
                yield chunk
        finally:
            body.close()
