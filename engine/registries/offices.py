"""Offices as a managed list, reference data like the registries beside it: the one spelling of an
office a user or token may hold.

An office was free text once, and typing "caguas" made a second office whose staff saw none of
Caguas' tasks. Now what is typed is resolved against the list (letter case, accents and spaces do
not matter; the id or either name will do) and an unknown one is refused: nothing here ever adds an
office by accident. The ids stay those of the old free text ("Caguas"), so cases keep their scope.

Changes to the list are commands (engine/commands/offices.py); this module reads it and seeds it.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.errors import ValidationFailed
from engine.persistence.models import Office
from engine.registries import regional_offices

UNKNOWN_OFFICE = "La oficina «{name}» no está en la lista de oficinas; elija una de la lista."
INACTIVE_OFFICE = "La oficina «{name}» está desactivada; elija una oficina activa."


def key(text) -> str:
    """How two spellings of one office compare: no accents, no case, single spaces."""
    plain = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


def _keys(office: Office) -> set[str]:
    return {key(office.id), key(office.name_es), key(office.name_en)}


def find(session: Session, name: str | None) -> Office | None:
    """The office `name` spells (its id or either of its names), active or not; None if none."""
    wanted = key(name)
    if not wanted:
        return None
    offices = list(session.scalars(select(Office).order_by(Office.id)))
    by_id = [o for o in offices if key(o.id) == wanted]
    return (by_id or [o for o in offices if wanted in _keys(o)] or [None])[0]


def resolve(session: Session, name: str | None, field: str = "office") -> str | None:
    """The id of the active office `name` spells; None for no office (None or blank); 422 naming
    `field` for an office not on the list or deactivated."""
    if name is None or not str(name).strip():
        return None
    office = find(session, name)
    if office is None:
        raise ValidationFailed("unknown office", {field: [UNKNOWN_OFFICE.format(name=str(name).strip())]})
    if not office.active:
        raise ValidationFailed("inactive office", {field: [INACTIVE_OFFICE.format(name=office.name_es)]})
    return office.id


def view(office: Office) -> dict:
    return {"id": office.id, "name_es": office.name_es, "name_en": office.name_en,
            "municipalities": list(office.municipalities or []), "active": office.active}


def listing(session: Session, *, include_inactive: bool = True) -> list[dict]:
    query = select(Office).order_by(Office.name_es)
    if not include_inactive:
        query = query.where(Office.active.is_(True))
    return [view(o) for o in session.scalars(query)]


def directory(session: Session) -> dict:
    """The Regional Offices directory materials aid reads (MAT-08): the active offices that serve
    towns, shaped as the rules take it (`{"offices": [{"id", "name", "municipalities"}]}`)."""
    return {"offices": [{"id": o["id"], "name": o["name_es"], "municipalities": o["municipalities"]}
                        for o in listing(session, include_inactive=False) if o["municipalities"]]}


def seed(session: Session, now: datetime) -> int:
    """Add the Regional Offices of processes/materials_aid/regional_offices.json that are missing
    (by id); never overwrites one an admin renamed, deactivated or gave other towns."""
    have = {key(i) for i in session.scalars(select(Office.id))}
    added = 0
    for entry in regional_offices.offices():
        if key(entry["id"]) in have:
            continue
        session.add(Office(id=entry["id"], name_es=entry["name"], name_en=entry.get("name_en") or entry["name"],
                           municipalities=list(entry["municipalities"]), active=True, created_at=now))
        have.add(key(entry["id"]))
        added += 1
    session.flush()
    return added
