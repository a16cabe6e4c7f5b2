"""Who a script acts for, and what it may reach: the case facts a script's helpers are scoped by.

Registry helpers belong to the procedures that declare them (`HelperFamily`): a case's scripts may
call those of the procedure that owns the case's process key. The rest of the engine's helpers are
general, but `notify` from a process no procedure owns (an owner's own diagram) may only write a
notice to the staff of the diagram's lanes, without an address: nothing in such a case says whose
address a value is (its own scripts may have written it), so nothing from it is ever e-mailed.

What a script changes is recorded as the engine acting `on_behalf_of` the person whose command ran
it, the case's starter and the version's deployer, so a registry change or a notice always names
the people behind it.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from engine.errors import ScriptError
from engine.persistence.models import ProcessDefinition, ProcessInstance

_CASE, _VERSION = ProcessInstance.__table__, ProcessDefinition.__table__
_FACTS = (select(_CASE.c.process_key, _CASE.c.started_by, _VERSION.c.deployed_by, _VERSION.c.version)
          .join(_VERSION, _VERSION.c.id == _CASE.c.definition_id))
_LANES = select(_VERSION.c.summary).join(_CASE, _VERSION.c.id == _CASE.c.definition_id)


@dataclass(frozen=True)
class CaseFacts:
    process_key: str | None
    started_by: str | None
    deployed_by: str | None
    version: int | None


NO_CASE = CaseFacts(None, None, None, None)


def case_facts(conn, instance_id: int | None) -> CaseFacts:
    if instance_id is None:
        return NO_CASE
    row = conn.execute(_FACTS.where(_CASE.c.id == instance_id)).first()
    return NO_CASE if row is None else CaseFacts(row.process_key, row.started_by, row.deployed_by, row.version)


def on_behalf_of(ctx, facts: CaseFacts) -> dict:
    """The people behind what a script of this case does in this command."""
    return {"user": ctx.actor.username, "starter": facts.started_by, "deployer": facts.deployed_by,
            "process": facts.process_key, "version": facts.version}


class ActingFor:
    """The command's context as a script's helpers see it: the same transaction, clock and history,
    every event it writes carrying `on_behalf_of` (also through `acting_as`, the engine's own acts)."""

    def __init__(self, inner, behalf):
        self._inner, self._behalf = inner, behalf  # behalf: the dict, or a function that makes it

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def audit(self, type: str, *, data: dict | None = None, **event) -> None:
        if callable(self._behalf):
            self._behalf = self._behalf()
        self._inner.audit(type, data={**(data or {}), "on_behalf_of": self._behalf}, **event)

    def acting_as(self, actor, audit_actor: str) -> "ActingFor":
        return ActingFor(self._inner.acting_as(actor, audit_actor), self._behalf)


def refuse_helper(name: str, owner: str, process_key: str | None) -> ScriptError:
    return ScriptError(f"UNKNOWN_FUNCTION: {name}() belongs to the {owner} procedure; "
                       f"process {process_key!r} may not call it")


def check_notice(conn, instance_id: int | None, recipient, address) -> None:
    """`notify` from a process no procedure owns: a lane's staff, no address (see the module doc)."""
    lanes = set()
    if instance_id is not None:
        summary = conn.execute(_LANES.where(_CASE.c.id == instance_id)).scalar()
        lanes = set((summary or {}).get("lanes") or [])
    if address not in (None, ""):
        raise ScriptError("NOTIFY_ADDRESS_NOT_ALLOWED: a process no procedure owns may not send a notice to "
                          f"an address ({str(address)[:80]!r}); address it to a lane ({', '.join(sorted(lanes))})")
    if str(recipient).strip() not in lanes:
        raise ScriptError(f"NOTIFY_RECIPIENT_NOT_ALLOWED: {str(recipient)[:80]!r} is not a lane of this process; "
                          f"a notice goes to the staff of one of its lanes ({', '.join(sorted(lanes))})")
