"""The retention job: a finished case past its procedure's period (engine/config/retention.py) leaves
the database, its certified export (the expediente ZIP, with its index as HTML: see
engine/expediente/export.py) kept in the archive folder first.

Per batch of cases, two steps, so that live work never waits on the slow one:
1. a read transaction reads the batch's cases, documents and history in three queries and writes
   each case's export into one temporary container (a ZIP of the cases' ZIPs, stored), fsynced
   once: one file and one fsync per batch instead of per case;
2. one short write transaction locks the batch's case rows (SKIP LOCKED: a row someone holds is
   left for the next run), keeps those that did not change since their export, moves the
   container to its name, records each archive (case number, `<container>#<case>.zip`, the
   SHA-256 of the case's ZIP) and deletes the cases' runtime rows and history, table by table for
   the whole batch.
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
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import exists, insert, select, text, tuple_
from sqlalchemy.orm import aliased

from engine.config import retention
from engine.config.paths import data_dir
from engine.errors import EngineError
from engine.expediente import export, spool_sweep
from engine.expediente.documents import DOCUMENT
from engine.identity.actor import SYSTEM
from engine.persistence import term_prune
from engine.persistence.models import Base, CaseArchive
from engine.persistence.tables import DEFINITION, INSTANCE
from engine.queries import shapes

log = logging.getLogger("tramite.retention")
ENDED = ("completed", "cancelled")
ARCHIVE = CaseArchive.__table__
NOTICE = Base.metadata.tables["notification"]  # a case's notices: by `case_id`, its only link
AUDIT = Base.metadata.tables["audit_event"]
_MEMBER = "#"  # a location is the batch's container, this, and the case's entry in it
ARCHIVING_PREFIX = ".archiving-"  # a batch's container while it is written, before its rename
_IN_MEMORY = 16 * 1024 * 1024  # a case's export is spooled in memory up to this, on disk beyond
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
class _Pack:
    """A batch's archives in one temporary container file: {case id: (member, sha256, size, lock version)}."""
    temporary: Path
    members: dict[int, tuple[str, str, int, int]]
    terms: list[str] = field(default_factory=list)  # the removed cases' search terms (PostgreSQL)


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


def _pack(session, ids: list[int], now, folder: Path) -> tuple[_Pack, int]:
    """Phase 1 of a batch: each case's export (its ZIP, as the staff export but with the index as
    HTML) stored in one temporary container, fsynced once; (the pack, cases not exported)."""
    conn = session.connection()
    cases = conn.execute(select(INSTANCE.c.id, INSTANCE.c.case_number, INSTANCE.c.process_key,
                                INSTANCE.c.lock_version, DEFINITION.c.name)
                         .join(DEFINITION, DEFINITION.c.id == INSTANCE.c.definition_id)
                         .where(INSTANCE.c.id.in_(ids)).order_by(INSTANCE.c.id)).all()
    files: dict[int, list] = {}
    for row in conn.execute(select(DOCUMENT).where(DOCUMENT.c.instance_id.in_(ids))):
        files.setdefault(row.instance_id, []).append(row)
    histories = shapes.histories(session, ids)
    handle, name = tempfile.mkstemp(prefix=ARCHIVING_PREFIX, suffix=".zip", dir=folder)
    pack, skipped = _Pack(Path(name), {}), len(ids) - len(cases)
    stamp = now.astimezone(export.PUERTO_RICO).timetuple()[:6]
    try:
        with os.fdopen(handle, "w+b") as sink:
            with zipfile.ZipFile(sink, "w") as container:
                for case in cases:
                    with tempfile.SpooledTemporaryFile(max_size=_IN_MEMORY) as one:
                        try:
                            export.write_expediente(
                                conn, {"id": case.id, "case_number": case.case_number,
                                       "process_key": case.process_key, "process_name": case.name},
                                histories.get(case.id, []), now, SYSTEM.username, one,
                                pdf_index=False, document_rows=files.get(case.id, []))
                        except EngineError as exc:  # e.g. a document whose bytes no longer match: it stays
                            log.warning("case %s not archived: %s", case.case_number, exc.message)
                            skipped += 1
                            continue
                        member = f"{case.case_number}.zip"
                        pack.members[case.id] = (member, *_copy_hashed(one, container, zipfile.ZipInfo(member, stamp)),
                                                 case.lock_version)
            sink.flush()
            os.fsync(sink.fileno())
    except BaseException:
        pack.temporary.unlink(missing_ok=True)
        raise
    return pack, skipped


def _copy_hashed(source, container, info) -> tuple[str, int]:
    """Copy `source` (from its start) into `container` as the stored entry `info`; (sha256, size)."""
    source.seek(0)
    digest, size = hashlib.sha256(), 0
    with container.open(info, "w", force_zip64=True) as out:  # stored: a ZIP is compressed already
        for chunk in iter(lambda: source.read(1024 * 1024), b""):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return digest.hexdigest(), size


def _keep_only(pack: _Pack, ids: set[int]) -> None:
    """Rewrite the container without the cases that are not ours after all (rare: a case locked
    or changed between the two phases), so that it holds only archived cases."""
    keep = {pack.members[i][0] for i in ids}
    handle, name = tempfile.mkstemp(prefix=ARCHIVING_PREFIX, suffix=".zip", dir=pack.temporary.parent)
    with os.fdopen(handle, "w+b") as sink:
        with zipfile.ZipFile(pack.temporary) as old, zipfile.ZipFile(sink, "w") as new:
            for info in old.infolist():
                if info.filename in keep:
                    with old.open(info) as member:
                        _copy_hashed(member, new, info)
        sink.flush()
        os.fsync(sink.fileno())
    pack.temporary.unlink()
    pack.temporary = Path(name)
    pack.members = {i: m for i, m in pack.members.items() if i in ids}


def _runtime_tables():
    """Every table holding rows of a case by its id, children before parents (the case row's own
    cascade would take its tasks, timers, workflow state… one case at a time; explicit deletes
    take a whole batch per statement)."""
    return [t for t in reversed(Base.metadata.sorted_tables) if t.name not in _KEPT and "instance_id" in t.c]


def _remove(ctx, pack: _Pack, folder: Path) -> list[str]:
    """Phase 2, one short transaction for the batch: the case numbers archived (a case locked by
    someone else, changed since its export or gone is left for the next run)."""
    conn = ctx.conn
    rows = conn.execute(select(INSTANCE).where(INSTANCE.c.id.in_(pack.members))
                        .with_for_update(skip_locked=True)).all()
    ours = [r for r in rows if r.lock_version == pack.members[r.id][3] and r.status in ENDED]
    if not ours:
        pack.temporary.unlink(missing_ok=True)
        return []
    if len(ours) < len(pack.members):
        _keep_only(pack, {r.id for r in ours})
    target = folder / f"{ctx.now:%Y}" / f"{ctx.now:%Y%m%d-%H%M%S}-{min(pack.members)}-{max(pack.members)}.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(pack.temporary, target)
    conn.execute(insert(ARCHIVE), [
        {"instance_id": r.id, "case_number": r.case_number, "process_key": r.process_key, "status": r.status,
         "ended_at": r.ended_at, "archived_at": ctx.now, "location": f"{target}{_MEMBER}{pack.members[r.id][0]}",
         "sha256": pack.members[r.id][1], "size": pack.members[r.id][2]} for r in ours])
    ids = [r.id for r in ours]
    pack.terms = term_prune.held_by(conn, ids)  # pruned once this commits (run)
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


def run(engine, *, limit: int = 1000, batch: int = 200, folder: Path | None = None,
        shard: tuple[int, int] = (0, 1)) -> Round:
    """Archive and remove up to `limit` expired cases, `batch` cases per transaction."""
    folder = folder or archive_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # The container of a run killed while packing (hundreds of cases' exports) is removed by no one else.
    spool_sweep.sweep(folder, prefixes=(ARCHIVING_PREFIX,))
    done = Round()
    after: dict = {}
    while len(done.archived) + done.skipped < limit:
        now = engine.now()
        due = engine.read_rows(expired_cases, now, min(batch, limit - len(done.archived) - done.skipped),
                               after, shard)
        for _id, key, ended_at in due:
            after[key] = (ended_at, _id)
        if not due:
            break
        with engine.db.reading() as session:
            pack, skipped = _pack(session, [d[0] for d in due], now, folder)
        done.skipped += skipped
        numbers = engine.execute(_remove, SYSTEM, pack, folder, now=now) if pack.members else []
        if pack.terms:  # their own transaction: the lock is held for the delete alone
            engine.execute(term_prune.prune, SYSTEM, pack.terms, now=now)
        if not pack.members:
            pack.temporary.unlink(missing_ok=True)
        done.archived += numbers
        done.skipped += len(pack.members) - len(numbers)
        if len(due) < batch:
            break
    return done


def read_archive(location: str) -> bytes:
    """The archived export (a ZIP) recorded at `location` (`<container>#<case number>.zip`)."""
    container, _, member = location.rpartition(_MEMBER)
    with zipfile.ZipFile(container) as pack:
        return pack.read(member)


def archived(conn, case_number: str) -> dict | None:
    row = conn.execute(select(ARCHIVE).where(ARCHIVE.c.case_number == case_number)).first()
    return dict(row._mapping) if row else None


__all__ = ["Round", "archive_dir", "archived", "expired_cases", "read_archive", "run"]
