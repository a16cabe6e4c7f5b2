"""The legal parameter store: typed values with defaults and AMB ids, frozen into each case at start.

An admin changes a value with the command engine.commands.parameters.set_parameter."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from sqlalchemy import bindparam, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from engine.config import holidays, parameter_types
from engine.config.paths import processes_dir
from engine.persistence import compiled
from engine.persistence.models import Parameter, ParameterSnapshot

# Read live, not frozen: a holiday declared after a case started still moves a deadline that
# has not been computed yet (DESIGN.md §Parameters).
LIVE = frozenset({"calendar.holidays"})


@lru_cache(maxsize=4)
def catalog(path: Path | None = None) -> dict[str, dict]:
    entries = parameter_types.load_catalog(path or processes_dir() / "parameters.json")
    return {e["name"]: e for e in entries}


def seed(session: Session) -> int:
    """Insert every catalogue parameter that is missing (never overwrites a value set by an admin)."""
    have = set(session.scalars(select(Parameter.name)))
    added = 0
    for name, entry in catalog().items():
        if name not in have:
            session.add(Parameter(name=name, type=entry["type"], value=entry["default"],
                                  default=entry["default"]))
            added += 1
    return added


def describe(session: Session) -> list[dict]:
    rows = {p.name: p for p in session.scalars(select(Parameter))}
    out = []
    for name, entry in sorted(catalog().items()):
        row = rows.get(name)
        out.append({
            "name": name, "type": entry["type"],
            "value": row.value if row else entry["default"], "default": entry["default"],
            "amb": entry.get("amb"), "rules": entry.get("rules", []),
            "choices": entry.get("choices"), "item_choices": entry.get("item_choices"),
            **{k: entry[k] for k in parameter_types.SHAPE_KEYS if k in entry},
            "label_es": entry.get("label_es"), "label_en": entry.get("label_en"),
            "explanation_es": entry.get("explanation_es"), "explanation_en": entry.get("explanation_en"),
            "updated_at": row.updated_at.isoformat() if row and row.updated_at else None,
            "updated_by": row.updated_by if row else None,
        })
    return out


_snapshot_cache: dict = {}
_FINGERPRINT = select(func.count(), func.max(Parameter.__table__.c.updated_at))
_SNAPSHOTS = ParameterSnapshot.__table__
_SNAPSHOT_ID = select(_SNAPSHOTS.c.id).where(_SNAPSHOTS.c.hash == bindparam("hash")).scalar_subquery()
# One round trip per start: is the store unchanged, and is the snapshot this process holds a row?
_FINGERPRINT_AND_ROW = select(func.count(), func.max(Parameter.__table__.c.updated_at), _SNAPSHOT_ID)
_INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def snapshot(session: Session) -> dict:
    """The JSON values in force now: what a starting case freezes.

    Every start needs them; reading one summary row instead of the whole table is enough to know
    whether the copy this process holds is still current (another process may have changed one).
    """
    table = Parameter.__table__
    fingerprint = tuple(session.execute(_FINGERPRINT).one())
    url = str(session.engine.url)
    cached = _snapshot_cache.get(url)
    if cached is not None and cached[0] == fingerprint:
        return dict(cached[1])
    values = {name: entry["default"] for name, entry in catalog().items()}
    values.update((name, value) for name, value in session.execute(select(table.c.name, table.c.value)))
    _snapshot_cache[url] = (fingerprint, values)
    return dict(values)


def content_hash(values: dict) -> str:
    """The snapshot's identity: equal values give one shared row whatever order they came in."""
    canonical = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


_WITH_ALSO: dict = {}


def freeze(conn, now: datetime, also=None, also_params: dict | None = None) -> tuple[int, dict, object]:
    """The shared snapshot row of the values in force now (made if no case froze them before), the
    values (what a starting case points at), and the value of the scalar subquery `also` when one
    is given (a start's definition id), read in the same round trip as the freshness check.

    The cache says which row this process last used; the row is looked up again each time because
    the transaction that made it may have rolled back."""
    url = str(conn.engine.url)
    cached = _snapshot_cache.get(url)
    if cached is not None and len(cached) == 3:
        if also is None:
            statement = _FINGERPRINT_AND_ROW
        else:  # built once per subquery: building a statement per call costs more than running it
            statement = _WITH_ALSO.get(also)
            if statement is None:
                statement = _WITH_ALSO[also] = _FINGERPRINT_AND_ROW.add_columns(also)
        row = compiled.run(conn, statement, {"hash": cached[2], **(also_params or {})}).one()
        count, updated, row_id = row[:3]
        extra = row[3] if also is not None else None
        if (count, updated) == cached[0] and row_id is not None:
            return row_id, dict(cached[1]), extra
    else:
        extra = conn.execute(select(also), also_params or {}).scalar() if also is not None else None
    return (*_freeze_fresh(conn, now, url), extra)


def _freeze_fresh(conn, now: datetime, url: str) -> tuple[int, dict]:
    values = snapshot(conn)
    digest = content_hash(values)
    _snapshot_cache[url] = (*_snapshot_cache[url][:2], digest)
    row_id = conn.execute(select(_SNAPSHOT_ID), {"hash": digest}).scalar()
    if row_id is None:
        # Two starts may make the same row at once: the second one's insert does nothing.
        insert = _INSERTS[conn.dialect.name](_SNAPSHOTS).on_conflict_do_nothing(index_elements=["hash"])
        conn.execute(insert, {"hash": digest, "content": values, "created_at": now})
        row_id = conn.execute(select(_SNAPSHOT_ID), {"hash": digest}).scalar_one()
    return row_id, values


def typed_value(name: str, frozen: dict, session: Session):
    """A case's parameter as a typed value (Decimal, date, ...); live ones come from the store."""
    entry = catalog().get(name)
    if entry is None:
        raise KeyError(f"unknown parameter {name!r}")
    if name in LIVE:
        table = Parameter.__table__
        row = session.execute(select(table.c.value).where(table.c.name == name)).first()
        raw = row.value if row else entry["default"]
    else:
        raw = frozen.get(name, entry["default"])
    value = parameter_types.coerce(entry["type"], raw)
    if name == "calendar.holidays":
        # The managed calendar counts as much as the parameter: one union, wherever a deadline is computed.
        value = sorted({*(value or []), *(day.isoformat() for day in holidays.managed_days(session))})
    return value


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
