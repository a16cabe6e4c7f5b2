"""The dashboard's report charts as server-drawn SVG (issue 19): geometry here, markup in
templates/web/_report_charts.html.

Drawn on the server rather than by a JavaScript library: the page's strict CSP (api/headers.py)
needs no exception, the charts print and show without scripts, each bar carries its number as text
and a <title> (screen readers, tooltips), and a test reads the figures straight from the HTML. Each
chart has its table beside it with the same figures."""
from __future__ import annotations

WIDTH, LABEL_W, BAR_W, ROW_H = 640, 230, 330, 26


def _number(value) -> str:
    return f"{float(value):g}" if value is not None else "—"


def bars(rows: list[dict], value_key: str, label_of, *, maximum: float | None = None, unit: str = "",
         second_key: str | None = None) -> dict:
    """Horizontal bars, one per row: {height, rows: [{label, text, y, width, second_x}]}. `second_key`
    marks a second value on the same scale (the p90 beside the median) as a tick."""
    values = [float(r[value_key]) for r in rows if r.get(value_key) is not None]
    seconds = [float(r[second_key]) for r in rows if second_key and r.get(second_key) is not None]
    top = maximum or max(values + seconds, default=0) or 1
    out = []
    for i, row in enumerate(rows):
        value = row.get(value_key)
        second = row.get(second_key) if second_key else None
        out.append({"label": label_of(row), "y": i * ROW_H, "text": _number(value) + (unit if value is not None else ""),
                    "width": round(BAR_W * float(value or 0) / top, 1),
                    "second_x": None if second is None else round(LABEL_W + BAR_W * float(second) / top, 1),
                    "second_text": None if second is None else _number(second) + unit})
    return {"height": max(len(rows), 1) * ROW_H + 4, "rows": out, "width": WIDTH, "label_w": LABEL_W,
            "bar_w": BAR_W}


def months(rows: list[dict]) -> dict:
    """Cases opened and closed per month (every office summed): two columns per month."""
    totals: dict[str, list[int]] = {}
    for row in rows:
        pair = totals.setdefault(row["month"], [0, 0])
        pair[0] += row["opened"]
        pair[1] += row["closed"]
    labels = sorted(totals)
    top = max((n for pair in totals.values() for n in pair), default=0) or 1
    step = max(min(80, (WIDTH - 40) // max(len(labels), 1)), 24)
    plot_h = 160
    columns = []
    for i, month in enumerate(labels):
        opened, closed = totals[month]
        x = 30 + i * step
        columns.append({"month": month, "x": x, "label_x": x + step / 2 - 4, "opened": opened, "closed": closed,
                        "opened_h": round(plot_h * opened / top, 1), "closed_h": round(plot_h * closed / top, 1),
                        "bar_w": round(step / 2 - 4, 1)})
    return {"columns": columns, "plot_h": plot_h, "width": max(WIDTH, 40 + len(labels) * step), "height": plot_h + 40}
