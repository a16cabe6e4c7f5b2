"""The Registro de Agricultores Bona Fide (FAR-11): who is registered, and whether notices reach them.

An entry is created when an admission case ends ADMITTED (or imported by an admin with its paper
id), and its status is moved by the producer's membership case: ACTIVE, RENEWAL_OVERDUE (no
surplus notices until renewed, AMB-17) or REMOVED (FAR-16). Every change is written to the audit
log in the transaction that makes it.
"""
from __future__ import annotations

import re
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.rules.calendar import add_years, local_date
from engine.errors import Conflict, NotFound, ValidationFailed
from engine.persistence.models import FarmerRecord, Parameter

ACTIVE, RENEWAL_OVERDUE, REMOVED = "ACTIVE", "RENEWAL_OVERDUE", "REMOVED"
STATUSES = (ACTIVE, RENEWAL_OVERDUE, REMOVED)
PRODUCER_TYPES = ("agricultor", "acuicultor", "avicultor", "artesano", "pescador")
ID_PATTERN = re.compile(r"^F-([1-9][0-9]{0,8})$")
EDITABLE = ("name", "producer_type", "address", "municipality", "status", "registered_on", "renewal_due")


def view(record: FarmerRecord) -> dict:
    return {"id": record.id, "name": record.name, "producer_type": record.producer_type,
            "address": record.address, "municipality": record.municipality, "status": record.status,
            "registered_on": record.registered_on.isoformat(),
            "renewal_due": record.renewal_due.isoformat() if record.renewal_due else None,
            "case_ids": list(record.case_ids or []), "updated_at": record.updated_at.isoformat()}


def _snapshot(record: FarmerRecord) -> dict:
    return {k: v for k, v in view(record).items() if k != "updated_at"}


def get(session: Session, registry_id: str, *, for_update: bool = False) -> FarmerRecord:
    query = select(FarmerRecord).where(FarmerRecord.id == registry_id)
    record = session.scalars(query.with_for_update() if for_update else query).first()
    if record is None:
        raise NotFound(f"there is no registered producer {registry_id}")
    return record


def find_by_admission(session: Session, admission_case_id: int) -> FarmerRecord | None:
    return session.scalars(select(FarmerRecord).where(FarmerRecord.admission_case_id == admission_case_id)).first()


def next_id(session: Session) -> str:
    """The next free `F-<n>`: one above the highest number in use, imported paper ids included."""
    numbers = [int(m.group(1)) for rid in session.scalars(select(FarmerRecord.id).where(FarmerRecord.id.like("F-%")))
               if (m := ID_PATTERN.match(rid))]
    return f"F-{max(numbers, default=0) + 1}"


def _check(field: str, value) -> None:
    if field == "status" and value not in STATUSES:
        raise ValidationFailed(f"unknown status {value!r}", {"status": [f"must be one of {', '.join(STATUSES)}"]})
    if field == "producer_type" and value not in PRODUCER_TYPES:
        raise ValidationFailed(f"unknown producer type {value!r}",
                               {"producer_type": [f"must be one of {', '.join(PRODUCER_TYPES)}"]})
    if field == "name" and not str(value or "").strip():
        raise ValidationFailed("a registered producer needs a name", {"name": ["required"]})


def create(ctx, *, name: str, producer_type: str, registered_on: date, id: str | None = None,
           address: str | None = None, municipality: str | None = None, status: str = ACTIVE,
           renewal_due: date | None = None, case_ids=(), admission_case_id: int | None = None,
           instance_id: int | None = None, actor: str | None = None) -> FarmerRecord:
    for field, value in (("name", name), ("producer_type", producer_type), ("status", status)):
        _check(field, value)
    session = ctx.session
    if id is None:
        id = next_id(session)
    elif not ID_PATTERN.match(id):
        raise ValidationFailed(f"registry id {id!r} is not of the form F-<number>", {"id": ["must look like F-17"]})
    elif session.get(FarmerRecord, id) is not None:
        raise Conflict(f"the registry already has an entry {id}", code="REGISTRY_ID_TAKEN")
    record = FarmerRecord(id=id, name=name.strip(), producer_type=producer_type, address=address,
                          municipality=municipality, status=status, registered_on=registered_on,
                          renewal_due=renewal_due, case_ids=list(case_ids), admission_case_id=admission_case_id,
                          updated_at=ctx.now)
    session.add(record)
    session.flush()
    ctx.audit("registry_entry_created", instance_id=instance_id, actor=actor,
              rule_ids=("FAR-11",), message=f"farmer registry: {id} {record.name} ({status})",
              data={"registry": "farmers", "id": id, "entry": _snapshot(record)})
    return record


def renewal_years(session: Session) -> int:
    """`farmer.renewalYears` as it stands now (FAR-15)."""
    from engine.config.parameters import catalog  # parameters → models → this module: import when called
    row = session.get(Parameter, "farmer.renewalYears")
    return int(row.value if row is not None else catalog()["farmer.renewalYears"]["default"])


def import_entry(ctx, **fields) -> FarmerRecord:
    """An admin's entry, e.g. from the paper registry: registered today and due one cycle later
    unless the dates are given (a `renewal_due` of None means unknown)."""
    fields.setdefault("registered_on", local_date(ctx.now))
    if "renewal_due" not in fields:
        fields["renewal_due"] = add_years(fields["registered_on"], renewal_years(ctx.session))
    return create(ctx, **fields)


def update(ctx, registry_id: str, changes: dict, *, instance_id: int | None = None, actor: str | None = None,
           rule_ids=("FAR-11",)) -> FarmerRecord:
    unknown = sorted(set(changes) - set(EDITABLE) - {"case_ids"})
    if unknown:
        raise ValidationFailed(f"cannot change {', '.join(unknown)}", {k: ["not editable"] for k in unknown})
    for field, value in changes.items():
        _check(field, value)
    record = get(ctx.session, registry_id, for_update=True)
    before = _snapshot(record)
    for field, value in changes.items():
        setattr(record, field, list(value) if field == "case_ids" else value)
    after = _snapshot(record)
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    if changed:
        record.updated_at = ctx.now
        ctx.session.flush()
        ctx.audit("registry_entry_changed", instance_id=instance_id, actor=actor, rule_ids=rule_ids,
                  message=f"farmer registry: {registry_id} " + ", ".join(
                      f"{k} {v['from']} → {v['to']}" for k, v in changed.items() if k != "case_ids"),
                  data={"registry": "farmers", "id": registry_id, "changes": changed})
    return record


def list_entries(session: Session, *, status: str | None = None, producer_type: str | None = None,
                 page: int = 1, per_page: int = 50) -> tuple[list[dict], int]:
    conditions = []
    if status:
        conditions.append(FarmerRecord.status == status)
    if producer_type:
        conditions.append(FarmerRecord.producer_type == producer_type)
    total = session.scalar(select(func.count()).select_from(FarmerRecord).where(*conditions))
    rows = session.scalars(select(FarmerRecord).where(*conditions)
                           .order_by(func.length(FarmerRecord.id), FarmerRecord.id)
                           .limit(per_page).offset((page - 1) * per_page)).all()
    return [view(r) for r in rows], total


def active_producers(session: Session, producer_type: str | list[str] | tuple[str, ...] | None = None) -> list[dict]:
    """The producers a surplus notice must reach (FAR-14): ACTIVE only, in registry order.

    RENEWAL_OVERDUE producers receive no notices until they renew (AMB-17), REMOVED ones never.
    `producer_type` is one type, several, or None for all.
    """
    conditions = [FarmerRecord.status == ACTIVE]
    if isinstance(producer_type, str):
        conditions.append(FarmerRecord.producer_type == producer_type)
    elif producer_type is not None:
        conditions.append(FarmerRecord.producer_type.in_(list(producer_type)))
    rows = session.scalars(select(FarmerRecord).where(*conditions)
                           .order_by(func.length(FarmerRecord.id), FarmerRecord.id)).all()
    return [{"id": r.id, "name": r.name, "producer_type": r.producer_type, "address": r.address,
             "municipality": r.municipality} for r in rows]
