"""Hardware stores and whether they are inscribed in the Registro de Licitadores (MAT-15).

Quotes count only from stores registered here; an admin keeps the entries current (a store
that leaves the Registro is marked, not deleted, so old cases still name it). Every change is
written to the audit log in the transaction that makes it.
"""
from __future__ import annotations


from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from engine.errors import Conflict, NotFound, ValidationFailed
from engine.persistence.models import HardwareStore

EDITABLE = ("name", "registered", "municipality")
REGISTRY = "stores"


def view(store: HardwareStore) -> dict:
    return {"id": store.id, "name": store.name, "registered": store.registered,
            "municipality": store.municipality, "updated_at": store.updated_at.isoformat()}


def _snapshot(store: HardwareStore) -> dict:
    return {k: v for k, v in view(store).items() if k != "updated_at"}


def get(session: Session, store_id: str, *, for_update: bool = False) -> HardwareStore:
    query = select(HardwareStore).where(HardwareStore.id == store_id)
    store = session.scalars(query.with_for_update() if for_update else query).first()
    if store is None:
        raise NotFound(f"there is no hardware store {store_id}")
    return store


def _check_name(name) -> str:
    if not str(name or "").strip():
        raise ValidationFailed("a hardware store needs a name", {"name": ["required"]})
    return str(name).strip()


def create(ctx, *, id: str, name: str, registered: bool = True, municipality: str | None = None) -> HardwareStore:
    session = ctx.session
    if session.get(HardwareStore, id) is not None:
        raise Conflict(f"the registry already has a store {id}", code="REGISTRY_ID_TAKEN")
    store = HardwareStore(id=id, name=_check_name(name), registered=bool(registered), municipality=municipality,
                          updated_at=ctx.now)
    session.add(store)
    session.flush()
    ctx.audit("registry_entry_created", rule_ids=("MAT-15",), message=f"hardware stores: {id} {store.name}",
              data={"registry": REGISTRY, "id": id, "entry": _snapshot(store)})
    return store


def update(ctx, store_id: str, changes: dict) -> HardwareStore:
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ValidationFailed(f"cannot change {', '.join(unknown)}", {k: ["not editable"] for k in unknown})
    if "name" in changes:
        changes = {**changes, "name": _check_name(changes["name"])}
    store = get(ctx.session, store_id, for_update=True)
    before = _snapshot(store)
    for field, value in changes.items():
        setattr(store, field, value)
    after = _snapshot(store)
    changed = {k: {"from": before[k], "to": after[k]} for k in after if before[k] != after[k]}
    if changed:
        store.updated_at = ctx.now
        ctx.session.flush()
        ctx.audit("registry_entry_changed", rule_ids=("MAT-15",),
                  message=f"hardware stores: {store_id} " + ", ".join(
                      f"{k} {v['from']} → {v['to']}" for k, v in changed.items()),
                  data={"registry": REGISTRY, "id": store_id, "changes": changed})
    return store


def list_entries(session: Session, *, registered: bool | None = None, q: str | None = None,
                 page: int = 1, per_page: int = 50) -> tuple[list[dict], int]:
    conditions = []
    if registered is not None:
        conditions.append(HardwareStore.registered.is_(registered))
    if q and q.strip():
        like = f"%{q.strip()}%"
        conditions.append(or_(HardwareStore.id.ilike(like), HardwareStore.name.ilike(like)))
    total = session.scalar(select(func.count()).select_from(HardwareStore).where(*conditions))
    rows = session.scalars(select(HardwareStore).where(*conditions).order_by(HardwareStore.id)
                           .limit(per_page).offset((page - 1) * per_page)).all()
    return [view(r) for r in rows], total


def registered_stores(session: Session) -> list[dict]:
    """The stores a quote may come from today, in registry order."""
    rows = session.scalars(select(HardwareStore).where(HardwareStore.registered.is_(True))
                           .order_by(HardwareStore.id)).all()
    return [{"id": r.id, "name": r.name} for r in rows]
