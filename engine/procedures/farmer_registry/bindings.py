"""The farmer registry's functions a script may call, bound to the command that runs it.

`bind(ctx, instance_id)` gives each script its case's view of the registries: every change lands
in the command's transaction and in the audit log under that case, as the engine (never as the
user whose action happened to move the case). `NAMES` is what the deploy-time whitelist admits.
"""
from __future__ import annotations

from datetime import date
from typing import Callable

from sqlalchemy import select

from engine.commands.cases import start_case
from engine.identity.actor import SYSTEM
from engine.rules.calendar import as_local_date
from engine.errors import Conflict
from engine.persistence.models import ProcessInstance
from engine.registries import farmers

MEMBERSHIP_PROCESS = "farmer_registry_membership"
ENGINE_ACTOR = "engine"

NAMES = frozenset({
    "register_farmer", "farmer_status", "set_farmer_status", "renew_farmer", "start_membership",
    "active_producers",
})


def as_engine(ctx):
    """The running command, acting as the engine: same transaction, clock and history."""
    return ctx.acting_as(SYSTEM, ENGINE_ACTOR)


def _day(value) -> date:
    return as_local_date(value, instants=False)  # registry dates are days, never instants


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


def bind(ctx, instance_id: int | None) -> dict[str, Callable]:
    # Reach ctx.session only inside the functions: binding happens on every command, and a session
    # is made (with its savepoint) only when a script really touches the registry.
    def register_farmer(applicant: dict, registered_on, renewal_due) -> str:
        """FAR-10 / FAR-11: the admitted applicant's entry, ACTIVE; its id (`F-<n>`)."""
        existing = farmers.find_by_admission(ctx.session, instance_id) if instance_id is not None else None
        if existing is not None:
            return existing.id
        record = farmers.create(
            ctx, name=str(applicant.get("name") or ""), producer_type=str(applicant.get("producer_type")),
            address=applicant.get("address"), municipality=applicant.get("municipality"),
            registered_on=_day(registered_on), renewal_due=_day(renewal_due),
            case_ids=[instance_id] if instance_id is not None else [], admission_case_id=instance_id,
            instance_id=instance_id, actor=ENGINE_ACTOR)
        return record.id

    def farmer_status(registry_id: str) -> str:
        return farmers.get(ctx.session, registry_id).status

    def set_farmer_status(registry_id: str, status: str) -> str:
        """FAR-15 / FAR-16 / AMB-17: RENEWAL_OVERDUE stops the notices, REMOVED ends the entry."""
        farmers.update(ctx, registry_id, {"status": status}, instance_id=instance_id, actor=ENGINE_ACTOR,
                       rule_ids=("FAR-15", "FAR-16", "AMB-17"))
        return status

    def renew_farmer(registry_id: str, renewal_due) -> str:
        """FAR-15: a timely or late renewal makes the entry ACTIVE until the next due date."""
        farmers.update(ctx, registry_id, {"status": farmers.ACTIVE, "renewal_due": _day(renewal_due)},
                       instance_id=instance_id, actor=ENGINE_ACTOR, rule_ids=("FAR-15", "AMB-17"))
        return farmers.ACTIVE

    def start_membership(registry_id: str) -> int:
        return start_membership_case(ctx, registry_id, parent_instance_id=instance_id)

    def active_producers(producer_type=None) -> list[dict]:
        return farmers.active_producers(ctx.session, producer_type)

    return {"register_farmer": register_farmer, "farmer_status": farmer_status,
            "set_farmer_status": set_farmer_status, "renew_farmer": renew_farmer,
            "start_membership": start_membership, "active_producers": active_producers}
