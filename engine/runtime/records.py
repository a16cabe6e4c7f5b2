"""The case row as a plain record, read and written with single Core statements.

Commands touch the case row on every call; going through the ORM's unit of work cost more than
running the workflow itself (bench/RESULTS.md), so the hot path uses Core with an explicit
optimistic version check instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection

from engine.definitions import case_index
from engine.errors import Conflict
from engine.persistence import compiled
from engine.persistence.models import ParameterSnapshot, ProcessDefinition, ProcessInstance

INSTANCE, DEFINITION = ProcessInstance.__table__, ProcessDefinition.__table__
SNAPSHOT = ParameterSnapshot.__table__
MUTABLE = ("status", "outcome", "stage", "office", "variables", "workflow_meta", "activity", "error_message",
           "error_element", "ended_at", "next_due_at", *case_index.COLUMNS, "suspended_since")


@dataclass
class CaseRecord:
    id: int | None
    case_number: str
    process_key: str
    definition_id: int
    status: str
    outcome: str | None
    stage: str | None
    office: str | None
    variables: dict
    parameters_id: int | None  # the shared snapshot of the parameters frozen at its start
    workflow_meta: dict
    activity: dict
    error_message: str | None
    error_element: str | None
    started_by: str
    started_at: datetime
    ended_at: datetime | None
    parent_instance_id: int | None
    lock_version: int = 1
    next_due_at: datetime | None = None
    applicant_name: str | None = None  # the index columns (engine/definitions/case_index.py)
    applicant_id: str | None = None
    municipality: str | None = None
    reference: str | None = None
    search_text: str | None = None
    suspended_since: datetime | None = None  # the legal clock stands still since then
    # The frozen values themselves, not a column: held only by a case being started, which has
    # them at hand; any other reads them through `frozen_parameters` when a script asks.
    parameters: dict | None = field(default=None, compare=False)

    @property
    def notes(self) -> dict:
        """The engine's own bookkeeping kept beside the library's state."""
        return (self.workflow_meta or {}).get("tramite", {})


@dataclass
class StoredCase(CaseRecord):
    """A case row read for showing: with its version's number and content hash, read in the same
    statement (the version decides who may see the case, and the answer shows its number)."""
    definition_version: int | None = None
    definition_hash: str | None = None


STORED = [f.name for f in fields(CaseRecord) if f.name != "parameters"]  # the row's columns
_LOADED = [INSTANCE.c[name] for name in STORED]
# Statements are built once: building one costs several times more than running it on SQLite.
_LOAD_FOR_UPDATE = select(*_LOADED).where(INSTANCE.c.id == bindparam("instance_id")).with_for_update()
_PARAMETERS = (select(SNAPSHOT.c.content)
               .select_from(INSTANCE.join(SNAPSHOT, SNAPSHOT.c.id == INSTANCE.c.parameters_id))
               .where(INSTANCE.c.id == bindparam("instance_id")))
_LOAD_TO_READ = (select(*_LOADED,
                        DEFINITION.c.version.label("definition_version"), DEFINITION.c.hash.label("definition_hash"))
                 .select_from(INSTANCE.join(DEFINITION, DEFINITION.c.id == INSTANCE.c.definition_id))
                 .where(INSTANCE.c.id == bindparam("instance_id")))
_INSERT = insert(INSTANCE).returning(INSTANCE.c.id)
_SAVE = (update(INSTANCE)
         .where(INSTANCE.c.id == bindparam("p_id"), INSTANCE.c.lock_version == bindparam("p_version"))
         .values(lock_version=bindparam("p_next"), **{name: bindparam(f"p_{name}") for name in MUTABLE}))


def labelled_columns(prefix: str) -> list:
    """The case row's columns labelled `<prefix><name>`, to read the row within another statement."""
    return [c.label(prefix + c.name) for c in _LOADED]


def from_labelled(row, prefix: str) -> CaseRecord:
    return CaseRecord(**{c.name: row[prefix + c.name] for c in _LOADED})


def frozen_parameters(conn: Connection, instance_id: int) -> dict:
    """The parameters the case froze at its start (its shared snapshot): every reader comes here."""
    return conn.execute(_PARAMETERS, {"instance_id": instance_id}).scalar() or {}


def load(conn: Connection, instance_id: int, *, for_update: bool = True) -> CaseRecord | None:
    """The case row (its frozen parameters stay in their snapshot): locked for a command, or for a
    read with its version (a `StoredCase`)."""
    if for_update:
        row = compiled.run(conn, _LOAD_FOR_UPDATE, {"instance_id": instance_id}).first()
        return CaseRecord(**row._mapping) if row else None
    row = compiled.run(conn, _LOAD_TO_READ, {"instance_id": instance_id}).first()
    return StoredCase(**row._mapping) if row else None


def insert_record(conn: Connection, record: CaseRecord) -> int:
    values = {name: getattr(record, name) for name in STORED if name != "id"}
    record.id = conn.execute(_INSERT, values).scalar_one()
    return record.id


def save_params(record: CaseRecord) -> dict:
    params = {f"p_{name}": getattr(record, name) for name in MUTABLE}
    params.update(p_id=record.id, p_version=record.lock_version, p_next=record.lock_version + 1)
    return params


# The same UPDATE as text, to run inside another statement (a CTE); its values are bound with the
# columns' types, so they are converted exactly as `_SAVE` converts them.
SAVE_SQL = ("UPDATE process_instance SET lock_version = :p_next, "
            + ", ".join(f"{name} = :p_{name}" for name in MUTABLE)
            + " WHERE id = :p_id AND lock_version = :p_version RETURNING 1")
SAVE_BINDS = [bindparam(f"p_{name}", type_=INSTANCE.c[name].type) for name in MUTABLE]


def saved(record: CaseRecord, rowcount: int) -> None:
    """After the UPDATE of `save_params`: refuse (409) if someone else wrote the case meanwhile."""
    if rowcount != 1:
        raise Conflict("the case changed meanwhile; reload it and try again", code="STALE_VERSION")
    record.lock_version += 1


def save(conn: Connection, record: CaseRecord) -> None:
    """Write the mutable columns; refuse (409) if someone else wrote the case meanwhile."""
    saved(record, conn.execute(_SAVE, save_params(record)).rowcount)
