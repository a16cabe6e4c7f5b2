"""The retention job: a finished case past its procedure's period (engine/config/retention.py) leaves
the database, its certified export (the expediente ZIP) kept in the archive folder first.

Per case, two steps, so that live work never waits on the slow one:
1. a read transaction writes the export to a temporary file in the archive folder (fsynced) and
   hashes it;
2. a short write transaction locks the case row (SKIP LOCKED: a row someone holds is left for the
   next round), checks it did not change since the export, moves the file to its name, records
   the archive (case number, hash, when) and deletes the case's runtime rows and history.
A crash between the two leaves a temporary file and the case untouched; the next round redoes it.
"""
from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import exists, insert, select, text
from sqlalchemy.orm import aliased

from engine.config import retention
from engine.config.paths import data_dir
from engine.errors import EngineError
from engine.identity.actor import SYSTEM
from engine.persistence.models import Base, CaseArchive
from engine.persistence.tables import INSTANCE
from engine.queries.documents import expediente

log = logging.getLogger("tramite.retention")
ENDED = ("completed", "cancelled")
ARCHIVE = CaseArchive.__table__
# Rows of a case found through its documents rather than its id (the outbox of its letters).
_BY_DOCUMENT = "document_id"
_KEPT = {"audit_event", "process_instance", "case_archive"}  # history goes last, through the purge


def archive_dir() -> Path:
    """TRAMITE_ARCHIVE_DIR, default `<data dir>/archive`: every host must see the same folder."""
    return Path(os.environ.get("TRAMITE_ARCHIVE_DIR") or data_dir() / "archive")


@dataclass
class Round:
    archived: list[str] = field(default_factory=list)  # case numbers
    skipped: int = 0  # locked by someone else, changed meanwhile, or already gone


def expired_cases(conn, now, limit: int) -> list[int]:
    """Ids of finished cases past their period at `now`, oldest first; a called case waits for its
    parent to leave (the parent's page lists it)."""
    parent = aliased(INSTANCE)
    found = []
    for key, years in sorted(retention.periods().items()):
        rows = conn.execute(
            select(INSTANCE.c.id, INSTANCE.c.ended_at)
            .where(INSTANCE.c.process_key == key, INSTANCE.c.status.in_(ENDED),
                   INSTANCE.c.ended_at < retention.ended_before(now, years),
                   ~exists().where(parent.c.id == INSTANCE.c.parent_instance_id))
            .order_by(INSTANCE.c.ended_at).limit(limit - len(found)))
        found += [r.id for r in rows if retention.is_expired(r.ended_at, years, now)]
        if len(found) >= limit:
            break
    return found


def _export(session, instance_id: int, now, folder: Path) -> tuple[Path, str, int, int]:
    """Phase 1: the export in a temporary file; (its path, sha256, size, the case's lock version)."""
    version = session.execute(select(INSTANCE.c.lock_version).where(INSTANCE.c.id == instance_id)).scalar()
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=".archiving-", suffix=".zip", dir=folder)
    try:
        with os.fdopen(handle, "w+b") as sink:
            expediente(session, SYSTEM, instance_id, now, sink)
            sink.flush()
            os.fsync(sink.fileno())
            sink.seek(0)
            digest = hashlib.sha256()
            for chunk in iter(lambda: sink.read(1024 * 1024), b""):
                digest.update(chunk)
            size = sink.tell()
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name), digest.hexdigest(), size, version


def _runtime_tables():
    """Every table holding rows of one case, children before parents (the case row's own
    cascade takes its tasks, timers, workflow state, suspensions, drafts and reminders)."""
    tables = [t for t in reversed(Base.metadata.sorted_tables) if t.name not in _KEPT]
    return ([t for t in tables if _BY_DOCUMENT in t.c], [t for t in tables if "instance_id" in t.c])


def _remove(ctx, instance_id: int, temporary: Path, sha256: str, size: int, version: int, folder: Path) -> str | None:
    """Phase 2, one short transaction: the case number archived, or None when it is not ours now."""
    conn = ctx.conn
    row = conn.execute(select(INSTANCE).where(INSTANCE.c.id == instance_id)
                       .with_for_update(skip_locked=True)).first()
    if row is None or row.lock_version != version or row.status not in ENDED:
        temporary.unlink(missing_ok=True)
        return None
    target = folder / row.process_key / f"{row.ended_at:%Y}" / f"{row.case_number}.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(temporary, target)
    conn.execute(insert(ARCHIVE).values(
        instance_id=row.id, case_number=row.case_number, process_key=row.process_key, status=row.status,
        ended_at=row.ended_at, archived_at=ctx.now, location=str(target), sha256=sha256, size=size))
    by_document, by_instance = _runtime_tables()
    documents = Base.metadata.tables["document"]
    case_documents = select(documents.c.id).where(documents.c.instance_id == instance_id)
    for table in by_document:
        conn.execute(table.delete().where(table.c[_BY_DOCUMENT].in_(case_documents)))
    for table in by_instance:
        conn.execute(table.delete().where(table.c.instance_id == instance_id))
    conn.execute(INSTANCE.delete().where(INSTANCE.c.id == instance_id))
    if conn.dialect.name == "postgresql":  # the only way past the append-only trigger (0027)
        conn.execute(text("SELECT tramite_purge_audit(:id)"), {"id": instance_id})
    else:
        conn.execute(text("DELETE FROM audit_event WHERE instance_id = :id"), {"id": instance_id})
    return row.case_number


def run(engine, *, limit: int = 1000, batch: int = 50, folder: Path | None = None) -> Round:
    """Archive and remove up to `limit` expired cases, `batch` ids read at a time."""
    folder = folder or archive_dir()
    done = Round()
    while len(done.archived) + done.skipped < limit:
        now = engine.now()
        ids = engine.read_rows(expired_cases, now, min(batch, limit - len(done.archived) - done.skipped))
        for instance_id in ids:
            try:
                with engine.db.reading() as session:
                    exported = _export(session, instance_id, now, folder)
            except EngineError as exc:  # e.g. a document whose bytes no longer match: the case stays
                log.warning("case %s not archived: %s", instance_id, exc.message)
                done.skipped += 1
                continue
            number = engine.execute(_remove, SYSTEM, instance_id, *exported, folder, now=now)
            if number is None:
                done.skipped += 1
            else:
                done.archived.append(number)
        if len(ids) < batch or not ids:
            break
    return done


def archived(conn, case_number: str) -> dict | None:
    row = conn.execute(select(ARCHIVE).where(ARCHIVE.c.case_number == case_number)).first()
    return dict(row._mapping) if row else None


__all__ = ["Round", "archive_dir", "archived", "expired_cases", "run"]
