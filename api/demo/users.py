"""Demo users: one per role, named after the role."""
from __future__ import annotations

from engine.commands import accounts as account_commands
from engine.identity.actor import SYSTEM
from engine.queries import accounts as account_queries

from api.demo.common import DEMO_PASSWORD, OWN_PASSWORD, table


def ensure_users(engine, wanted: list[tuple[str, list[str], str, str | None]]) -> list[tuple[str, list[str], str]]:
    """(username, roles, password shown) of each wanted (username, roles, full name, office): made
    when missing; a user that exists is left as it is, with whatever password it has now."""
    users = {u["username"]: u for u in engine.read(account_queries.list_users, SYSTEM)}
    rows = []
    for username, roles, full_name, office in wanted:
        user = users.get(username)
        if user is None:
            user = engine.execute(account_commands.create_user, SYSTEM, username, DEMO_PASSWORD, roles,
                                  full_name=full_name, office=office)
            shown = DEMO_PASSWORD
        else:
            # Someone may have given this user a real password since; never claim otherwise.
            matches = engine.read(account_queries.password_is, SYSTEM, username, DEMO_PASSWORD)
            shown = DEMO_PASSWORD if matches else OWN_PASSWORD
        rows.append((user["username"], user["roles"], shown))
    return rows


def demo_users(engine) -> list[str]:
    """One user per role, named after the role; users that exist already are left as they are."""
    roles = engine.read(account_queries.list_roles, builtin_first=True)
    rows = ensure_users(engine, [(r["id"], [r["id"]], f"Demo {r['id']}", None) for r in roles])
    return ["", f"Demo users (password {DEMO_PASSWORD!r}; a demo only, never for real data):",
            *table(("username", "roles", "password"), [(u, ", ".join(sorted(r)), p) for u, r, p in rows])]
