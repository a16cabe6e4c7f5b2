"""The holiday calendar's API (issue 19): GET/POST/DELETE /api/v1/holidays — admins change it,
bad input is refused per field and changes nothing, and a fresh installation has Puerto Rico's days."""
from __future__ import annotations

from sqlalchemy import func, select

from engine.bootstrap import make_engine
from engine.persistence.models import AuditEvent, Holiday

DAY = {"date": "2025-01-06", "name_es": "Día de Reyes", "name_en": "Three Kings' Day",
       "legal_source": "Ley Núm. 88 de 27 de junio de 1969, según enmendada"}


def test_an_admin_adds_lists_and_removes_a_holiday(api):
    added = api.post("/api/v1/holidays", "admin", DAY, expect=201)
    assert (added["date"], added["name_es"], added["added_by"], added["deadlines_moved"]) == \
        ("2025-01-06", "Día de Reyes", "admin", [])
    api.post("/api/v1/holidays", "admin", {**DAY, "date": "2026-01-06", "name_en": None}, expect=201)
    listed = api.get("/api/v1/holidays?year=2025", "clerk")  # anyone signed in reads the calendar
    assert [(h["date"], h["name_en"], h["legal_source"]) for h in listed] == \
        [("2025-01-06", "Three Kings' Day", DAY["legal_source"])]
    assert api.get("/api/v1/holidays?year=2026", "clerk")[0]["name_en"] == "Día de Reyes"  # English falls back
    api.call("DELETE", "/api/v1/holidays/2025-01-06", "admin", expect=200)
    assert api.get("/api/v1/holidays?year=2025", "admin") == []


def test_each_change_is_audited_with_before_and_after(api, engine):
    api.post("/api/v1/holidays", "admin", DAY, expect=201)
    api.call("DELETE", "/api/v1/holidays/2025-01-06", "admin", expect=200)
    events = engine.read(lambda s: [(e.type, e.actor, e.data["before"], e.data["after"]) for e in s.scalars(
        select(AuditEvent).where(AuditEvent.type.in_(("holiday_added", "holiday_removed"))).order_by(AuditEvent.id))])
    assert [(t, a) for t, a, _b, _f in events] == [("holiday_added", "admin"), ("holiday_removed", "admin")]
    assert events[0][2] is None and events[0][3]["name_es"] == "Día de Reyes"
    assert events[1][2]["legal_source"] == DAY["legal_source"] and events[1][3] is None


def test_only_an_admin_changes_the_calendar(api):
    for user in ("boss", "clerk", "owner"):
        api.post("/api/v1/holidays", user, DAY, expect=403)
    api.post("/api/v1/holidays", "admin", DAY, expect=201)
    api.call("DELETE", "/api/v1/holidays/2025-01-06", "boss", expect=403)
    assert len(api.get("/api/v1/holidays?year=2025", "boss")) == 1
    api.call("GET", "/api/v1/holidays", None, expect=401)


def test_bad_input_is_refused_per_field_and_changes_nothing(api):
    bad = api.post("/api/v1/holidays", "admin", {**DAY, "date": "20250106", "name_es": " ", "legal_source": ""},
                   expect=422)
    assert set(bad["errors"]) >= {"date", "name_es", "legal_source"}
    assert api.post("/api/v1/holidays", "admin", {**DAY, "date": "2025-02-30"}, expect=422)["errors"]["date"]
    assert api.post("/api/v1/holidays", "admin", {"name_es": "x"}, expect=422)["errors"].keys() >= {"date"}
    assert api.post("/api/v1/holidays", "admin", {**DAY, "name_es": "x" * 201}, expect=422)["errors"]["name_es"]
    assert api.get("/api/v1/holidays", "admin") == []
    api.post("/api/v1/holidays", "admin", DAY, expect=201)
    twice = api.post("/api/v1/holidays", "admin", {**DAY, "name_es": "Otro"}, expect=409)
    assert "Día de Reyes" in twice["message"]
    api.call("DELETE", "/api/v1/holidays/2025-01-07", "admin", expect=404)
    api.call("DELETE", "/api/v1/holidays/mañana", "admin", expect=422)
    api.call("GET", "/api/v1/holidays?year=abc", "admin", expect=422)


def test_a_fresh_installation_has_puerto_ricos_holidays(tmp_path):
    fresh = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    fresh.db.upgrade()
    try:
        with fresh.db.transaction() as session:
            rows = {h.day.isoformat(): h for h in session.scalars(select(Holiday))}
            per_year = dict(session.execute(select(func.substr(Holiday.__table__.c.day, 1, 4), func.count())
                                            .group_by(func.substr(Holiday.__table__.c.day, 1, 4))).all())
        assert per_year == {"2024": 15, "2025": 15, "2026": 15, "2027": 15}
        assert (rows["2025-01-06"].name_es, rows["2025-01-06"].name_en) == ("Día de Reyes", "Three Kings' Day")
        assert rows["2026-04-03"].name_es == "Viernes Santo" and rows["2024-11-28"].name_en == "Thanksgiving Day"
        assert rows["2027-01-18"].name_es.startswith("Natalicio de Martin Luther King")
        assert all("Ley Núm. 88" in h.legal_source and "fuente por confirmar" in h.legal_source for h in rows.values())
    finally:
        fresh.db.dispose()
