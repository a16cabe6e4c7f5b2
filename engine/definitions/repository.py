"""Reads stored process versions; a version never changes, so each is read and parsed once per process."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from engine.errors import NotFound
from engine.persistence.models import ProcessDefinition
from engine.definitions.parsing import build_specs

DEFINITION = ProcessDefinition.__table__


@dataclass(frozen=True)
class DefinitionInfo:
    id: int
    key: str
    version: int
    name: str
    hash: str
    files: dict
    summary: dict


class VersionCache:
    """Stored versions and their parsed specs, by version id (immutable, so never stale)."""

    def __init__(self, size: int = 128):
        self._size = size
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, loader):
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = loader()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value


def latest(session: Session, key: str) -> ProcessDefinition | None:
    return session.scalars(select(ProcessDefinition).where(ProcessDefinition.key == key)
                           .order_by(ProcessDefinition.version.desc()).limit(1)).first()


def with_hash(session: Session, key: str, digest: str) -> ProcessDefinition | None:
    """The newest version of `key` whose files hash to `digest`."""
    return session.scalars(select(ProcessDefinition).where(
        ProcessDefinition.key == key, ProcessDefinition.hash == digest)
        .order_by(ProcessDefinition.version.desc()).limit(1)).first()


def get_version(session: Session, key: str, version: int | None = None) -> ProcessDefinition:
    if version is None:
        found = latest(session, key)
    else:
        found = session.scalars(select(ProcessDefinition).where(
            ProcessDefinition.key == key, ProcessDefinition.version == version)).first()
    if found is None:
        what = f"version {version} of {key!r}" if version else repr(key)
        raise NotFound(f"there is no deployed process {what}")
    return found


_LATEST_ID = (select(DEFINITION.c.id).where(DEFINITION.c.key == bindparam("key"))
              .order_by(DEFINITION.c.version.desc()).limit(1))
_VERSION_ID = select(DEFINITION.c.id).where(DEFINITION.c.key == bindparam("key"),
                                            DEFINITION.c.version == bindparam("version"))


# The same lookups as scalar subqueries, for a statement that reads something else as well.
VERSION_ID_SUBQUERIES = {True: _VERSION_ID.scalar_subquery(), False: _LATEST_ID.scalar_subquery()}


def version_id(session: Session, key: str, version: int | None = None) -> int:
    found = session.execute(_VERSION_ID if version else _LATEST_ID, {"key": key, "version": version}).scalar()
    return found_version_id(found, key, version)


def found_version_id(found: int | None, key: str, version: int | None = None) -> int:
    """What `version_id` answers once the id was read (None: there is no such version)."""
    if found is None:
        what = f"version {version} of {key!r}" if version else repr(key)
        raise NotFound(f"there is no deployed process {what}")
    return found


def info(versions: VersionCache, session: Session, definition_id: int) -> DefinitionInfo:
    def load():
        row = session.execute(select(DEFINITION.c.id, DEFINITION.c.key, DEFINITION.c.version,
                                     DEFINITION.c.name, DEFINITION.c.hash, DEFINITION.c.files,
                                     DEFINITION.c.summary).where(DEFINITION.c.id == definition_id)).first()
        if row is None:
            raise NotFound(f"there is no process version {definition_id}")
        return DefinitionInfo(**row._mapping)
    return versions.get(("info", definition_id), load)


def next_version(session: Session, key: str) -> int:
    current = session.scalar(select(func.max(ProcessDefinition.version)).where(ProcessDefinition.key == key))
    return (current or 0) + 1


def bundle_files(versions: VersionCache, session: Session, definition: DefinitionInfo) -> dict[str, str]:
    """The version's own files plus the pinned versions of the processes it calls."""
    files = {}
    for child_id in definition.summary.get("children", {}).values():
        child = info(versions, session, child_id)
        files.update({f"{child.key}@{child.version}/{n}": c for n, c in bundle_files(versions, session, child).items()})
    files.update(definition.files)
    return files


def specs_for(versions: VersionCache, session: Session, definition: DefinitionInfo):
    return versions.get(("specs", definition.id), lambda: build_specs(
        {n: c for n, c in bundle_files(versions, session, definition).items() if n.endswith((".bpmn", ".dmn"))},
        definition.key))
