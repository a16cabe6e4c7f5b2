"""Changing a legal parameter (admin; audited)."""
from __future__ import annotations

from datetime import datetime, timezone

from engine.config import parameter_types, parameters
from engine.errors import NotFound, ValidationFailed
from engine.kernel import access
from engine.persistence.models import Parameter


def set_parameter(ctx, name: str, value) -> dict:
    """PUT /parameters/{name}: a new value for cases started from now on (a running case keeps its own)."""
    access.require_admin(ctx.actor, "change parameters")
    entry = parameters.catalog().get(name)
    if entry is None:
        raise NotFound(f"there is no parameter {name!r}")
    try:
        typed = parameter_types.coerce(entry["type"], value, choices=entry.get("choices"),
                                       item_choices=entry.get("item_choices"))
    except ValueError as exc:
        raise ValidationFailed(f"{name}: {exc}", {"value": [str(exc)]}) from None
    row = ctx.session.get(Parameter, name)
    if row is None:
        row = Parameter(name=name, type=entry["type"], default=entry["default"])
        ctx.session.add(row)
    old = row.value
    row.value = parameter_types.to_json(entry["type"], typed)
    # Machine time, not the engine clock: snapshot() uses it to notice the change, and two changes
    # at one frozen training instant must still differ.
    row.updated_at, row.updated_by = datetime.now(timezone.utc), ctx.actor.username
    ctx.audit("parameter_changed", data={"name": name, "old": old, "new": row.value,
                                         "amb": entry.get("amb")})
    return next(p for p in parameters.describe(ctx.session) if p["name"] == name)
