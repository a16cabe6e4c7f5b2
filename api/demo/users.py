"""Demo users: one per role, named after the role."""
from __future__ import annotations

from engine.commands import accounts as account_commands
from engine.identity.actor import SYSTEM
from engine.queries import accounts as account_queries

from api.demo.common import DEMO_PASSWORD, OWN_PASSWORD, table
from api.demo.words import role, say

# Reminders need an address; a reserved domain (RFC 2606) so that no demo notice reaches anyone.
DEMO_MAIL_DOMAIN = "demo.tramite.example"


def demo_email(username: str) -> str:
    return f"{username}@{DEMO_MAIL_DOMAIN}"


def ensure_users(engine, wanted: list[tuple[str, list[str], str, str | None]]) -> list[tuple[str, list[str], str]]:
    """(username, roles, password shown) of each wanted (username, roles, full name, office): made
    when missing; a user that exists is left as it is, with whatever password it has now, except
    that one with no e-mail address (made before addresses existed, or without one) gets its demo
    address, so that the demo's reminders and digests have somewhere to go."""
    users = {u["username"]: u for u in engine.read(account_queries.list_users, SYSTEM)}
    rows = []
    for username, roles, full_name, office in wanted:
        user = users.get(username)
        if user is None:
            user = engine.execute(account_commands.create_user, SYSTEM, username, DEMO_PASSWORD, roles,
                                  full_name=full_name, office=office, email=demo_email(username))
            shown = DEMO_PASSWORD
        else:
            # Someone may have given this user a real password since; never claim otherwise.
            matches = engine.read(account_queries.password_is, SYSTEM, username, DEMO_PASSWORD)
            shown = DEMO_PASSWORD if matches else OWN_PASSWORD
            if not user.get("email"):
                engine.execute(account_commands.update_user, SYSTEM, username, email=demo_email(username))
        rows.append((user["username"], user["roles"], shown))
    return rows


def demo_users(engine) -> list[str]:
    """One user per role, named after the role; users that exist already are left as they are."""
    roles = engine.read(account_queries.list_roles, builtin_first=True)
    labels = role_labels(engine)
    rows = ensure_users(engine, [(r["id"], [r["id"]], f"{r['label_es']} (demostración)", None) for r in roles])
    return ["", say(f"Usuarios de demostración (contraseña {DEMO_PASSWORD!r}; solo para la demostración, nunca "
                    "para datos reales):", f"Demo users (password {DEMO_PASSWORD!r}; a demo only, never for real data):"),
            *table((say("usuario", "username"), say("roles", "roles"), say("contraseña", "password")),
                   [(u, ", ".join(sorted(role(labels, x) for x in r)), shown(p)) for u, r, p in rows])]


def role_labels(engine) -> dict[str, tuple[str, str]]:
    return {r["id"]: (r["label_es"], r["label_en"]) for r in engine.read(account_queries.list_roles)}


def shown(password: str) -> str:
    return password if password == DEMO_PASSWORD else say("(no es la de demostración)", password)
