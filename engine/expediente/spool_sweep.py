"""The spool files of uploads whose process died, removed.

An upload is copied to a spool file before it is stored (`storage.spool`), and the file is removed
as soon as it is stored or refused. A process killed meanwhile (SIGKILL, the kernel's OOM killer, a
gunicorn worker past its timeout, a host losing power) leaves it behind, up to the size limit each
time: in the document folder's `tmp` (folder storage), or in the system's temporary folder
(PostgreSQL and S3 storage). Nothing else would ever remove them.

Each process that spools sweeps its spool folder now and then (at most once an hour per folder), so
every host that takes uploads cleans its own: no other job needs to reach each host's disk. The
retention job sweeps its own temporary containers the same way when a run starts
(engine/commands/retention.py).

A file is an orphan when nothing has written to it for `STALE_SECONDS`, by the filesystem's clock:
an upload writes its file chunk by chunk and its request ends long before (gunicorn's timeout). That
is a file's age on disk, not legal time: the engine's clock (moved by time travel and tests) must
not decide that an upload in progress is abandoned.
"""
from __future__ import annotations

import logging
import math
import os
import tempfile
import time
from pathlib import Path

PREFIX = "tramite-upload-"
# The name spool files had before 2026-12-07, swept only where the folder is Trámite's own.
LEGACY_PREFIX = "upload-"
STALE_SECONDS = 6 * 3600
EVERY_SECONDS = 3600

log = logging.getLogger("tramite.documents")
_swept_at: dict[str, float] = {}


def now_and_then(folder: Path | None) -> None:
    """Sweep `folder` (None: the system's temporary folder) unless this process did in the last hour."""
    key = str(folder)
    now = time.monotonic()
    if now - _swept_at.get(key, -math.inf) < EVERY_SECONDS:
        return
    _swept_at[key] = now
    removed = sweep(folder)
    if removed:
        log.warning("removed %d spool file(s) of uploads whose process died, from %s", removed,
                    folder or tempfile.gettempdir())


def sweep(folder: Path | None, now: float | None = None, prefixes: tuple[str, ...] | None = None) -> int:
    """Remove the orphaned files in `folder` whose names start with one of `prefixes` (default: the
    spool files'; in the system's temporary folder only Trámite's own prefix, so other programs'
    files are never touched); how many."""
    root = Path(folder) if folder is not None else Path(tempfile.gettempdir())
    if prefixes is None:
        prefixes = (PREFIX,) if folder is None else (PREFIX, LEGACY_PREFIX)
    cutoff = (time.time() if now is None else now) - STALE_SECONDS
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return 0
    removed = 0
    for entry in entries:
        if not entry.name.startswith(prefixes):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except FileNotFoundError:  # another process on this folder swept it first
            continue
    return removed
