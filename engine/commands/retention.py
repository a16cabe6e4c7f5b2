"""The retention job: a finished case past its procedure's period (engine/config/retention.py) leaves
the database, its certified export (the expediente ZIP, with its index as HTML: see
engine/expediente/export.py) kept in the archive folder first.

Per batch of cases, two steps, so that live work never waits on the slow one:
1. a read transaction writes each case's export to a temporary file in the archive folder
   (fsynced) and hashes it;
2. one short write transaction locks the batch's case rows (SKIP LOCKED: a row someone holds is
   left for the next run), keeps those that did not change since their export, moves their files
   to their names, records the archives (case number, hash, when) and deletes their runtime rows
   and history, table by table for the whole batch.
A crash between the two leaves temporary files and the cases untouched; the next run redoes them.
Cases are read in (ended_at, id) order from where the last batch stopped, so a long run never
rescans the index entries of the rows it has deleted; `shard=(k, n)` gives worker k of n the ids
with id % n == k, so n workers never export the same case.
"""
from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import exists, insert, select, text, tuple_
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
NOTICE = Base.metadata.tables["notification"]  # a case's notices: by `case_id`, its only link
AUDIT = Base.metadata.tables["audit_event"]
_KEPT = {"audit_event", "process_instance", "case_archive"}  # history goes last, through the purge
_PURGED = {"document", "case_note"}  # on PostgreSQL through tramite_purge_case (0030), after the case row


def archive_dir() -> Path:
    """TRAMITE_ARCHIVE_DIR, default `<data dir>/archive`: every host must see the same folder."""
    return Path(os.environ.get("TRAMITE_ARCHIVE_DIR") or data_dir() / "archive")


@dataclass
class Round:
    archived: list[str] = field(default_factory=list)  # case numbers
    skipped: int = 0  # locked by someone else, changed meanwhile, or already gone


@dataclass
class _Exported:
    instance_id: int
    temporary: Path
    sha256: str
    size: int
    version: int


def expired_cases(conn, now, limit: int, after: dict | None = None, shard: tuple[int, int] = (0, 1)) -> list[tuple]:
    """(id, process key, ended_at) of finished cases past their period at `now`, oldest first per
    process, from `after` ({process key: (ended_at, id) of the last one read}) on; a called case
    waits for its parent to leave (the parent's page lists it)."""
    parent = aliased(INSTANCE)
    after = after or {}
    index, count = shard
    found = []
    for key, years in sorted(retention.periods().items()):
        query = (select(INSTANCE.c.id, INSTANCE.c.process_key, INSTANCE.c.ended_at)
                 .where(INSTANCE.c.process_key == key, INSTANCE.c.status.in_(ENDED),
                        INSTANCE.c.ended_at < retention.ended_before(now, years),
                        ~exists().where(parent.c.id == INSTANCE.c.parent_instance_id))
                 .order_by(INSTANCE.c.ended_at, INSTANCE.c.id).limit(limit - len(found)))
        if key in after:
            query = query.where(tuple_(INSTANCE.c.ended_at, INSTANCE.c.id) > tuple_(*after[key]))
        if count > 1:
            query = query.where(INSTANCE.c.id % count == index)
        found += [tuple(r) for r in conn.execute(query) if retention.is_expired(r.ended_at, years, now)]
        if len(found) >= limit:
            break
    return found


def _export(session, instance_id: int, now, folder: Path) -> _Exported:
    """Phase 1 of one case: its archive in a temporary file, hashed."""
    version = session.execute(select(INSTANCE.c.lock_version).where(INSTANCE.c.id == instance_id)).scalar()
    handle, name = tempfile.mkstemp(prefix=".archiving-", suffix=".zip", dir=folder)
    try:
        with os.fdopen(handle, "w+b") as sink:
            expediente(session, SYSTEM, instance_id, now, sink, pdf_index=False)
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
    return _Exported(instance_id, Path(name), digest.hexdigest(), size, version)


def _runtime_tables():
    """Every table holding rows of a case by its id, children before parents (the case row's own
    cascade would take its tasks, timers, workflow state… one case at a time; explicit deletes
    take a whole batch per statement)."""
    return [t for t in reversed(Base.metadata.sorted_tables) if t.name not in _KEPT and "instance_id" in t.c]


def _remove(ctx, batch: list[_Exported], folder: Path) -> list[str]:
    """Phase 2, one short transaction for the batch: the case numbers archived (a case locked by
    someone else, changed since its export or gone is left, its temporary file removed)."""
    conn = ctx.conn
    exported = {e.instance_id: e for e in batch}
    rows = conn.execute(select(INSTANCE).where(INSTANCE.c.id.in_(exported))
                        .with_for_update(skip_locked=True)).all()
    ours = [r for r in rows if r.lock_version == exported[r.id].version and r.status in ENDED]
    for gone in exported.keys() - {r.id for r in ours}:
        exported[gone].temporary.unlink(missing_ok=True)
    if not ours:
        return []
    records = []
    for row in ours:
        target = folder / row.process_key / f"{row.ended_at:%Y}" / f"{row.case_number}.zip"
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(exported[row.id].temporary, target)
        records.append({"instance_id": row.id, "case_number": row.case_number, "process_key": row.process_key,
                        "status": row.status, "ended_at": row.ended_at, "archived_at": ctx.now,
                        "location": str(target), "sha256": exported[row.id].sha256, "size": exported[row.id].size})
    conn.execute(insert(ARCHIVE), records)
    ids = [r.id for r in ours]
    # The case's notices (letters and plain ones alike) are found by the case they belong to.
    conn.execute(NOTICE.delete().where(NOTICE.c.case_id.in_(ids)))
    guarded = conn.dialect.name == "postgresql"  # documents, notes, history: append-only there
    for table in _runtime_tables():
        if not (guarded and table.name in _PURGED):
            conn.execute(table.delete().where(table.c.instance_id.in_(ids)))
    conn.execute(INSTANCE.delete().where(INSTANCE.c.id.in_(ids)))
    if guarded:  # the only way past their triggers (0027, 0030): archived and gone, case by case
        conn.execute(text("SELECT tramite_purge_case(c) FROM unnest(CAST(:ids AS bigint[])) AS c"), {"ids": ids})
    else:
        conn.execute(AUDIT.delete().where(AUDIT.c.instance_id.in_(ids)))
    return [r.case_number for r in ours]


def run(engine, *, limit: int = 1000, batch: int = 50, folder: Path | None = None,
        shard: tuple[int, int] = (0, 1)) -> Round:
    """Archive and remove up to `limit` expired cases, `batch` cases per transaction."""
    folder = folder or archive_dir()
    folder.mkdir(parents=True, exist_ok=True)
    done = Round()
    after: dict = {}
    while len(done.archived) + done.skipped < limit:
        now = engine.now()
        due = engine.read_rows(expired_cases, now, min(batch, limit - len(done.archived) - done.skipped),
                               after, shard)
        for _id, key, ended_at in due:
            after[key] = (ended_at, _id)
        exported = []
        with engine.db.reading() as session:
            for instance_id, _key, _ended in due:
                try:
                    exported.append(_export(session, instance_id, now, folder))
                except EngineError as exc:  # e.g. a document whose bytes no longer match: the case stays
                    log.warning("case %s not archived: %s", instance_id, exc.message)
                    done.skipped += 1
        numbers = engine.execute(_remove, SYSTEM, exported, folder, now=now) if exported else []
        done.archived += numbers
        done.skipped += len(exported) - len(numbers)
        if len(due) < batch:
            break
    return done


def archived(conn, case_number: str) -> dict | None:
    row = conn.execute(select(ARCHIVE).where(ARCHIVE.c.case_number == case_number)).first()
    return dict(row._mapping) if row else None


__all__ = ["Round", "archive_dir", "archived", "expired_cases", "run"]
