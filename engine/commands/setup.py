"""What a fresh database needs before anyone logs in: the roles (built-in, and every procedure's
lanes, from processes/roles.json), the legal parameters' defaults and the shipped offices — whatever
is missing."""
from __future__ import annotations

from engine.config import parameters
from engine.identity import accounts
from engine.kernel import access
from engine.registries import offices


def seed_catalogues(ctx) -> dict:
    """Adds what is missing and never overwrites (an admin may have changed a value since)."""
    access.require_engine(ctx.actor, "seed the roles and parameters")
    return {"roles": accounts.seed_roles(ctx.session), "parameters": parameters.seed(ctx.session),
            "offices": offices.seed(ctx.session, ctx.now)}
