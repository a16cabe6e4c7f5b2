"""The holiday calendar's rows of the authorization matrix (issue 19): everybody reads it, the admin
adds and removes days. Kept apart so that the matrix module stays within the file-size limit; the
matrix hands in its own row builders."""
from __future__ import annotations

from datetime import date, timedelta


def new_holiday_day(w) -> str:
    """A day no other call of the matrix used (each role's request adds its own)."""
    return (date(2030, 1, 1) + timedelta(days=next(w.serial))).isoformat()


def fresh_holiday(w) -> str:
    day = new_holiday_day(w)
    w.api.post("/api/v1/holidays", "admin", {"date": day, "name_es": "Feriado", "legal_source": "Ley"}, expect=201)
    return day


def holiday_rows(row, everyone, only, get, post) -> list:
    return [
        row("GET", "/api/v1/holidays", everyone(200), get(lambda w: "/api/v1/holidays?year=2024")),
        row("POST", "/api/v1/holidays", only(201, "admin"), post(lambda w: "/api/v1/holidays", lambda w, u: {
            "date": new_holiday_day(w), "name_es": "Feriado", "legal_source": "Ley"})),
        row("DELETE", "/api/v1/holidays/<string:day>", only(200, "admin"),
            lambda w, u: {"path": f"/api/v1/holidays/{fresh_holiday(w)}"}),
    ]
