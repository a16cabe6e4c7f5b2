"""What every demo step shares: the demo password and the table its report is printed in."""
from __future__ import annotations

# Printed on screen on purpose: it only ever guards demo data on a developer's machine.
DEMO_PASSWORD = "tramite-demo"
OWN_PASSWORD = "(not the demo password)"


def table(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    return [line(headers), line("-" * w for w in widths), *(line(r) for r in rows)]
