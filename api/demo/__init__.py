"""Demo data for `tramite seed-demo`: an ordered list of idempotent seed steps.

Each step takes the engine and returns the lines to print; later procedures append their
registry fixtures and sample cases to `DEMO_STEPS`.
"""
from __future__ import annotations

from typing import Callable

from sqlalchemy import select

from engine.identity import accounts
from engine.identity.actor import SYSTEM
from engine.persistence.models import Role, User

# Printed on screen on purpose: it only ever guards demo data on a developer's machine.
DEMO_PASSWORD = "tramite-demo"
OWN_PASSWORD = "(not the demo password)"


def table(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    return [line(headers), line("-" * w for w in widths), *(line(r) for r in rows)]


def demo_users(engine) -> list[str]:
    """One user per role, named after the role; users that exist already are left as they are."""
    def command(ctx):
        rows = []
        roles = ctx.session.scalars(select(Role).order_by(Role.builtin.desc(), Role.id)).all()
        for role in roles:
            user = ctx.session.scalars(select(User).where(User.username == role.id)).first()
            if user is None:
                user = accounts.create_user(ctx, role.id, DEMO_PASSWORD, [role.id], full_name=f"Demo {role.id}")
                password = DEMO_PASSWORD
            else:
                # Someone may have given this user a real password since; never claim otherwise.
                matches = accounts.check_password(DEMO_PASSWORD, user.password_hash)
                password = DEMO_PASSWORD if matches else OWN_PASSWORD
            rows.append((user.username, ", ".join(sorted(user.role_ids)), password))
        return rows

    rows = engine.execute(command, SYSTEM)
    return ["", f"Demo users (password {DEMO_PASSWORD!r}; a demo only, never for real data):",
            *table(("username", "roles", "password"), rows)]


DEMO_STEPS: list[Callable[..., list[str]]] = [demo_users]

from api.demo.farmer_registry import farmer_registry_demo  # noqa: E402  (it reads `table` from here)

DEMO_STEPS.append(farmer_registry_demo)

from api.demo.materials_aid import materials_aid_demo  # noqa: E402  (it reads `table` from here)

DEMO_STEPS.append(materials_aid_demo)

from api.demo.bid_adjudication import bid_adjudication_demo  # noqa: E402  (it reads `table` from here)

DEMO_STEPS.append(bid_adjudication_demo)

from api.demo.surplus_disposition import surplus_disposition_demo  # noqa: E402  (it reads `table` from here)

DEMO_STEPS.append(surplus_disposition_demo)


def seed(engine, emit: Callable[[str], None] = print) -> None:
    for step in DEMO_STEPS:
        for line in step(engine):
            emit(line)
