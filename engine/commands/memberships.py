"""Open an entry's membership case (FAR-15: the two-year renewal cycle), once per entry.

Called by the admission's script when it registers a farmer and by an admin creating an entry;
the engine starts the case, in the caller's transaction and history, as itself.
"""
from __future__ import annotations

from sqlalchemy import select

from engine.commands.cases import start_case
from engine.errors import Conflict
from engine.identity.actor import SYSTEM
from engine.persistence.models import ProcessInstance
from engine.registries import farmers

MEMBERSHIP_PROCESS = "farmer_registry_membership"
ENGINE_ACTOR = "engine"


def as_engine(ctx):
    """The running command, acting as the engine: same transaction, clock and history."""
    return ctx.acting_as(SYSTEM, ENGINE_ACTOR)


def _membership_of(session, record) -> int | None:
    ids = [int(i) for i in record.case_ids or []]
    if not ids:
        return None
    table = ProcessInstance.__table__
    return session.execute(select(table.c.id).where(
        table.c.id.in_(ids), table.c.process_key == MEMBERSHIP_PROCESS,
        table.c.status.in_(("active", "error"))).order_by(table.c.id.desc()).limit(1)).scalar()


def start_membership_case(ctx, registry_id: str, *, parent_instance_id: int | None = None) -> int:
    """Open the membership case of an entry (once); returns its id. Also used by the admin import."""
    session = ctx.session
    record = farmers.get(session, registry_id, for_update=True)
    running = _membership_of(session, record)
    if running is not None:
        return running
    if record.status == farmers.REMOVED or record.renewal_due is None:
        raise Conflict(f"{registry_id} is {record.status} or has no renewal date: no membership to follow",
                       code="MEMBERSHIP_NOT_POSSIBLE")
    engine_ctx = as_engine(ctx)
    case = start_case(engine_ctx, MEMBERSHIP_PROCESS,
                      {"registry_id": record.id, "renewal_due": record.renewal_due.isoformat(),
                       "registered_on": record.registered_on.isoformat()},
                      parent_instance_id=parent_instance_id)
    farmers.update(engine_ctx, registry_id, {"case_ids": [*record.case_ids, case["id"]]},
                   instance_id=parent_instance_id, actor=ENGINE_ACTOR)
    return case["id"]
