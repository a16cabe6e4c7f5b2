"""The farmer registry's functions a script may call, bound to the command that runs it.

`bind(ctx, instance_id)` gives each script its case's view of the registries: every change lands
in the command's transaction and in the audit log under that case, as the engine (never as the
user whose action happened to move the case). `NAMES` is what the deploy-time whitelist admits.
"""
from __future__ import annotations

from datetime import date
from typing import Callable

from engine.commands.memberships import ENGINE_ACTOR, start_membership_case
from engine.registries import farmers
from engine.rules.calendar import as_local_date

NAMES = frozenset({
    "register_farmer", "farmer_status", "set_farmer_status", "renew_farmer", "start_membership",
    "active_producers",
})
# FAR-14 / FAR-17: surplus disposition reads the Registry (never writes it) to tell a bona fide producer.
READ_BY_SURPLUS = frozenset({"farmer_status", "active_producers"})


def _day(value) -> date:
    return as_local_date(value, instants=False)  # registry dates are days, never instants


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
