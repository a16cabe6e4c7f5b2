"""What every demo step shares: the demo password, the table its report is printed in, and adding
a fixture only when it is missing."""
from __future__ import annotations

from engine.errors import Conflict

# Printed on screen on purpose: it only ever guards demo data on a developer's machine.
DEMO_PASSWORD = "tramite-demo"
OWN_PASSWORD = "(not the demo password)"
# What a command answers when the entry it would add is there already.
EXISTS = ("REGISTRY_ID_TAKEN", "USER_EXISTS", "ROLE_EXISTS")


def table(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    return [line(headers), line("-" * w for w in widths), *(line(r) for r in rows)]


def add_if_missing(engine, command, actor, *args, **kwargs) -> bool:
    """Run an engine command that adds a fixture; False when the fixture existed (the demo is
    idempotent: what is there, an admin may have changed since, and it is kept)."""
    try:
        engine.execute(command, actor, *args, **kwargs)
    except Conflict as exc:
        if exc.code in EXISTS:
            return False
        raise
    return True
