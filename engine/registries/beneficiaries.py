"""Beneficiaries of materials aid: when each last used the materials, for the 2-year wait (MAT-30).

An entry is written by the engine when a case ends with materials delivered (COMPLETED or
NON_COMPLIANCE_COLLECTION), keyed by the applicant's id; an admin may import or correct entries
from the paper files. Every change is written to the audit log.
"""
from __future__ import annotations

from datetime import date

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from engine.errors import Conflict, NotFound, ValidationFailed
from engine.persistence.models import Beneficiary

EDITABLE = ("name", "municipality", "last_use_date", "last_outcome")
REGISTRY = "beneficiaries"


def view(entry: Beneficiary) -> dict:
    return {"id": entry.id, "name": entry.name, "municipality": entry.municipality,
            "last_use_date": entry.last_use_date.isoformat() if entry.last_use_date else None,
            "last_outcome": entry.last_outcome, "case_ids": list(entry.case_ids or []),
            "updated_at": entry.updated_at.isoformat()}


def _snapshot(entry: Beneficiary) -> dict:
    return {k: v for k, v in view(entry).items() if k != "updated_at"}


def find(session: Session, applicant_id: str, *, for_update: bool = False) -> Beneficiary | None:
    query = select(Beneficiary).where(Beneficiary.id == applicant_id)
    return session.scalars(query.with_for_update() if for_update else query).first()


def get(session: Session, applicant_id: str) -> Beneficiary:
    entry = find(session, applicant_id)
    if entry is None:
        raise NotFound(f"there is no beneficiary {applicant_id}")
    return entry


def create(ctx, *, id: str, name: str, municipality: str | None = None, last_use_date: date | None = None,
           last_outcome: str | None = None, case_ids=(), instance_id: int | None = None,
           actor: str | None = None) -> Beneficiary:
    if not str(name or "").strip():
        raise ValidationFailed("a beneficiary needs a name", {"name": ["required"]})
    if find(ctx.session, id) is not None:
        raise Conflict(f"the registry already has a beneficiary {id}", code="REGISTRY_ID_TAKEN")
    entry = Beneficiary(id=id, name=str(name).strip(), municipality=municipality, last_use_date=last_use_date,
                        last_outcome=last_outcome, case_ids=list(case_ids), updated_at=ctx.now)
    ctx.session.add(entry)
    ctx.session.flush()
    ctx.audit("registry_entry_created", instance_id=instance_id, actor=actor, rule_ids=("MAT-30",),
              message=f"materials beneficiaries: {id} {entry.name} (last use {entry.last_use_date})",
              data={"registry": REGISTRY, "id": id, "entry": _snapshot(entry)})
    return entry


def update(ctx, applicant_id: str, changes: dict, *, instance_id: int | None = None,
           actor: str | None = None) -> Beneficiary:
    unknown = sorted(set(changes) - set(EDITABLE) - {"case_ids"})
    if unknown:
        raise ValidationFailed(f"cannot change {', '.join(unknown)}", {k: ["not editable"] for k in unknown})
    entry = find(ctx.session, applicant_id, for_update=True)
    if entry is None:
        raise NotFound(f"there is no beneficiary {applicant_id}")
    before = _snapshot(entry)
    for field, value in changes.items():
        setattr(entry, field, list(value) if field == "case_ids" else value)
    after = _snapshot(entry)
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    if changed:
        entry.updated_at = ctx.now
        ctx.session.flush()
        ctx.audit("registry_entry_changed", instance_id=instance_id, actor=actor, rule_ids=("MAT-30",),
                  message=f"materials beneficiaries: {applicant_id} " + ", ".join(
                      f"{k} {v['from']} → {v['to']}" for k, v in changed.items() if k != "case_ids"),
                  data={"registry": REGISTRY, "id": applicant_id, "changes": changed})
    return entry


def record_use(ctx, *, applicant: dict, last_use_date: date, outcome: str, instance_id: int,
               actor: str) -> Beneficiary:
    """The case delivered materials: the applicant's last use is this one (once per case)."""
    entry = find(ctx.session, applicant["id"], for_update=True)
    if entry is None:
        return create(ctx, id=applicant["id"], name=applicant.get("name") or applicant["id"],
                      municipality=applicant.get("municipality"), last_use_date=last_use_date,
                      last_outcome=outcome, case_ids=[instance_id], instance_id=instance_id, actor=actor)
    case_ids = list(entry.case_ids or [])
    if instance_id not in case_ids:
        case_ids.append(instance_id)
    return update(ctx, entry.id, {"last_use_date": last_use_date, "last_outcome": outcome, "case_ids": case_ids,
                                  "name": applicant.get("name") or entry.name},
                  instance_id=instance_id, actor=actor)


def list_entries(session: Session, *, q: str | None = None, page: int = 1,
                 per_page: int = 50) -> tuple[list[dict], int]:
    conditions = []
    if q and q.strip():
        like = f"%{q.strip()}%"
        conditions.append(or_(Beneficiary.id.ilike(like), Beneficiary.name.ilike(like)))
    total = session.scalar(select(func.count()).select_from(Beneficiary).where(*conditions))
    rows = session.scalars(select(Beneficiary).where(*conditions).order_by(Beneficiary.name, Beneficiary.id)
                           .limit(per_page).offset((page - 1) * per_page)).all()
    return [view(r) for r in rows], total
