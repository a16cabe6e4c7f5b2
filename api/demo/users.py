"""Demo users: one per role, named after the role."""
from __future__ import annotations

from sqlalchemy import select

from engine.identity import accounts
from engine.identity.actor import SYSTEM
from engine.persistence.models import Role, User

from api.demo.common import DEMO_PASSWORD, OWN_PASSWORD, table


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
