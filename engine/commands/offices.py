"""Changing the office list (admin, audited): add an office, rename it, give it the towns it serves
for materials aid (MAT-08), deactivate or reactivate it.

An office's id never changes once made (users and cases hold it); a name change is a rename. No
spelling of an office already on the list makes a second one, and a town is served by one active
office at a time, so materials aid's assignment by municipality always has one answer.
"""
from __future__ import annotations

from sqlalchemy import select

from engine.errors import Conflict, NotFound, ValidationFailed
from engine.kernel import access
from engine.persistence.models import Office
from engine.registries import offices

MANAGING = "manage the offices"


def _names(name_es: str, name_en: str | None, errors: dict) -> tuple[str, str]:
    name_es, name_en = (name_es or "").strip(), (name_en or "").strip()
    if not name_es:
        errors["name_es"] = ["Escriba el nombre de la oficina."]
    elif len(name_es) > 200 or len(name_en) > 200:
        errors["name_es" if len(name_es) > 200 else "name_en"] = ["El nombre admite hasta 200 caracteres."]
    return name_es, name_en or name_es


def _towns(session, office_id: str, municipalities, active: bool, errors: dict) -> list[str]:
    """The towns, each once (in its first spelling); a town another active office serves is refused."""
    towns: dict[str, str] = {}
    for town in municipalities or []:
        if str(town).strip():
            towns.setdefault(offices.key(town), " ".join(str(town).split()))
    if active:
        taken = []
        for other in session.scalars(select(Office).where(Office.active.is_(True), Office.id != office_id)):
            taken += [f"{towns[offices.key(m)]} ({other.name_es})" for m in other.municipalities or []
                      if offices.key(m) in towns]
        if taken:
            errors["municipalities"] = ["Cada municipio lo sirve una sola oficina activa; ya los sirve otra: "
                                        + ", ".join(sorted(taken)) + "."]
    return sorted(towns.values(), key=offices.key)


def _clashes(session, office_id: str, *spellings: str) -> Office | None:
    """Another office that one of these spellings already names."""
    wanted = {offices.key(s) for s in spellings if offices.key(s)}
    for other in session.scalars(select(Office).where(Office.id != office_id)):
        if wanted & {offices.key(other.id), offices.key(other.name_es), offices.key(other.name_en)}:
            return other
    return None


def create(ctx, office_id: str, name_es: str, name_en: str | None = None,
           municipalities: list[str] | None = None) -> dict:
    access.require_admin(ctx.actor, MANAGING)
    office_id = " ".join((office_id or "").split())
    errors: dict = {}
    if not office_id:
        errors["id"] = ["Escriba el identificador de la oficina (por ejemplo, «Caguas»)."]
    elif len(office_id) > 100:
        errors["id"] = ["El identificador admite hasta 100 caracteres."]
    name_es, name_en = _names(name_es, name_en, errors)
    towns = _towns(ctx.session, office_id, municipalities, True, errors)
    if errors:
        raise ValidationFailed("the office cannot be made so", errors)
    existing = _clashes(ctx.session, office_id, office_id, name_es, name_en)
    if existing is not None:
        raise Conflict(f"La oficina ya existe: «{existing.name_es}» ({existing.id}).", code="OFFICE_EXISTS")
    row = Office(id=office_id, name_es=name_es, name_en=name_en, municipalities=towns, active=True,
                 created_at=ctx.now)
    ctx.session.add(row)
    ctx.session.flush()
    ctx.audit("office_created", data=offices.view(row))
    return offices.view(row)


def update(ctx, office_id: str, *, name_es: str | None = None, name_en: str | None = None,
           municipalities: list[str] | None = None, active: bool | None = None) -> dict:
    """Only what is given changes; the id stays."""
    access.require_admin(ctx.actor, MANAGING)
    row = ctx.session.get(Office, office_id)
    if row is None:
        raise NotFound(f"there is no office {office_id!r}")
    before = offices.view(row)
    errors: dict = {}
    new_es, new_en = _names(row.name_es if name_es is None else name_es,
                            row.name_en if name_en is None else name_en, errors)
    will_be_active = row.active if active is None else bool(active)
    towns = _towns(ctx.session, row.id, row.municipalities if municipalities is None else municipalities,
                   will_be_active, errors)
    if errors:
        raise ValidationFailed("the office cannot be changed so", errors)
    existing = _clashes(ctx.session, row.id, new_es, new_en)
    if existing is not None:
        raise Conflict(f"Otra oficina ya se llama así: «{existing.name_es}» ({existing.id}).", code="OFFICE_EXISTS")
    row.name_es, row.name_en, row.municipalities, row.active = new_es, new_en, towns, will_be_active
    after = offices.view(row)
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    if changed:
        ctx.session.flush()
        ctx.audit("office_changed", data={"office": row.id, "changes": changed})
    return after
