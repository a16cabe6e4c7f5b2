"""Where a document's bytes live, chosen by the deployment (`TRAMITE_DOCUMENT_STORAGE`):

- `folder` (the default, one machine): content-addressed files under `TRAMITE_DOCUMENT_DIR`
  (default `<data dir>/documents`), `ab/cd/<sha256>`. A file is written to a temporary name,
  fsynced, renamed into place and its folder fsynced, all before the document row is inserted:
  a crash leaves at worst a file no row names, never a row naming a missing file.
- `postgresql` (several hosts, one database): PostgreSQL large objects, written with `lo_put` in
  the command's own transaction, so the bytes and the row commit or vanish together.
- `s3` (several hosts, files outside the database): an S3-compatible bucket through boto3
  (engine/expediente/s3.py), content-addressed keys written before the row, like the folder.

Bytes are never rewritten: the same content is stored once and shared by every row naming it.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from sqlalchemy import text

from engine.config.paths import data_dir
from engine.errors import EngineError, PayloadTooLarge
from engine.expediente import spool_sweep
from engine.expediente.s3 import S3Storage

CHUNK = 1024 * 1024
DEFAULT_MAX_MB = 20


def max_document_bytes() -> int:
    """TRAMITE_MAX_DOCUMENT_MB (default 20): the largest document an upload may hold."""
    raw = os.environ.get("TRAMITE_MAX_DOCUMENT_MB", "").strip()
    try:
        megabytes = float(raw) if raw else DEFAULT_MAX_MB
    except ValueError:
        raise EngineError(f"TRAMITE_MAX_DOCUMENT_MB must be a number of megabytes, not {raw!r}") from None
    if megabytes <= 0:
        raise EngineError(f"TRAMITE_MAX_DOCUMENT_MB must be above 0, not {raw!r}")
    return int(megabytes * 1024 * 1024)


def backend_name() -> str:
    name = (os.environ.get("TRAMITE_DOCUMENT_STORAGE") or "folder").strip().lower()
    if name not in BACKENDS:
        raise EngineError(f"TRAMITE_DOCUMENT_STORAGE must be one of {', '.join(BACKENDS)}, not {name!r}")
    return name


def document_dir() -> Path:
    return Path(os.environ.get("TRAMITE_DOCUMENT_DIR") or data_dir() / "documents")


@dataclass
class Spooled:
    """An upload copied to a local temporary file, with its hash and size counted on the way."""
    path: Path
    sha256: str
    size: int

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


def spool(content: bytes | BinaryIO, limit: int, folder: Path | None = None) -> Spooled:
    """Copy `content` to a temporary file chunk by chunk, refusing it (413) as soon as it passes
    `limit` bytes: a huge upload is never held in memory, nor written past the limit."""
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    spool_sweep.now_and_then(folder)  # what uploads killed mid-way left here
    handle, name = tempfile.mkstemp(prefix=spool_sweep.PREFIX, dir=folder)
    path, digest, size = Path(name), hashlib.sha256(), 0
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in _chunks(content):
                size += len(chunk)
                if size > limit:
                    raise PayloadTooLarge(f"the document is larger than {limit // (1024 * 1024)} MB",
                                          {"file": ["TOO_LARGE"]})
                digest.update(chunk)
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    if size == 0:
        path.unlink(missing_ok=True)
        raise PayloadTooLarge("the document is empty", {"file": ["EMPTY"]})
    return Spooled(path, digest.hexdigest(), size)


def _chunks(content: bytes | BinaryIO) -> Iterator[bytes]:
    if isinstance(content, (bytes, bytearray, memoryview)):
        view = memoryview(content)
        for start in range(0, len(view), CHUNK):
            yield bytes(view[start:start + CHUNK])
        return
    while chunk := content.read(CHUNK):
        yield chunk


class FolderStorage:
    name = "folder"

    def __init__(self, root: Path | None = None):
        self.root = root or document_dir()

    def spool_folder(self) -> Path:
        # Temporary files beside their final place: the rename is then atomic (one filesystem).
        return self.root / "tmp"

    def path(self, key: str) -> Path:
        if len(key) != 64 or not all(c in "0123456789abcdef" for c in key):
            raise EngineError(f"not a content address: {key!r}")
        return self.root / key[:2] / key[2:4] / key

    def put(self, conn, spooled: Spooled) -> str:
        target = self.path(spooled.sha256)
        if target.exists() and target.stat().st_size == spooled.size:
            spooled.discard()  # the same bytes are already stored: content addressing shares them
            return spooled.sha256
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(spooled.path, target)  # spool() fsynced the file itself
        _fsync_dir(target.parent)
        return spooled.sha256

    def chunks(self, conn, key: str) -> Iterator[bytes]:
        with open(self.path(key), "rb") as f:
            while chunk := f.read(CHUNK):
                yield chunk


class LargeObjectStorage:
    """PostgreSQL large objects: every host reaches them, and they are transactional."""

    name = "postgresql"

    def spool_folder(self) -> Path | None:
        return None

    def put(self, conn, spooled: Spooled) -> str:
        if conn.dialect.name != "postgresql":
            raise EngineError("TRAMITE_DOCUMENT_STORAGE=postgresql needs a PostgreSQL database")
        same = conn.execute(text("SELECT storage_key FROM document WHERE sha256 = :sha AND storage = 'postgresql' "
                                 "LIMIT 1"), {"sha": spooled.sha256}).scalar()
        if same is not None:
            spooled.discard()
            return same
        oid = conn.execute(text("SELECT lo_create(0)")).scalar_one()
        offset = 0
        with open(spooled.path, "rb") as f:
            while chunk := f.read(CHUNK):
                conn.execute(text("SELECT lo_put(:oid, :offset, :data)"), {"oid": oid, "offset": offset, "data": chunk})
                offset += len(chunk)
        spooled.discard()
        return str(oid)

    def chunks(self, conn, key: str) -> Iterator[bytes]:
        offset = 0
        while True:
            chunk = conn.execute(text("SELECT lo_get(:oid, :offset, :length)"),
                                 {"oid": int(key), "offset": offset, "length": CHUNK}).scalar_one()
            if not chunk:
                return
            yield bytes(chunk)
            offset += len(chunk)


BACKENDS = {"folder": FolderStorage, "postgresql": LargeObjectStorage, "s3": S3Storage}


def current():
    """The backend new documents go to."""
    return BACKENDS[backend_name()]()


def holding(storage: str):
    """The backend a stored document's row names (documents stay where they were written)."""
    if storage not in BACKENDS:
        raise EngineError(f"unknown document storage {storage!r}")
    return BACKENDS[storage]()


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
