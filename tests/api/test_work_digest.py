"""The supervisors' daily digest (API.md "Work management"): a supervisor who chose it gets one
e-mail per Puerto Rico day (engine clock) listing the overdue and due-soon tasks they supervise;
never a second one that day, however many rounds or clock moves."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select, update

from engine.commands.digest import send_digests
from engine.errors import Forbidden
from engine.identity.actor import SYSTEM, Actor
from engine.persistence.tables import INSTANCE
from engine.registries.notifications import TABLE
from tests.support.diagrams import reminder_flow


@pytest.fixture
def outbox_rows(engine):
    """The outbox rows whose subject starts so (a digest belongs to no case), oldest first."""
    def rows(prefix: str) -> list:
        return engine.read(lambda session: session.execute(
            select(TABLE).where(TABLE.c.subject.startswith(prefix)).order_by(TABLE.c.id)).all())
    return rows


def start_two(api):
    api.deploy("test_reminder", reminder_flow())
    cases = [api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(2)]
    return cases, [api.open_task(c, "review") for c in cases]


def test_only_supervisors_choose_the_digest(api):
    assert api.put("/api/v1/me/preferences", "boss", {"daily_digest": True})["daily_digest"] is True
    refused = api.put("/api/v1/me/preferences", "clerk", {"daily_digest": True}, expect=422)
    assert refused["errors"]["daily_digest"] == ["El resumen diario es para supervisores: usted no tiene ese rol."]
    assert api.put("/api/v1/me/preferences", "clerk", {"daily_digest": False})["daily_digest"] is False
    api.put("/api/v1/me/preferences", "boss", {"daily_digest": "sí"}, expect=422)


def test_one_digest_per_puerto_rico_day_listing_overdue_and_due_soon(api, engine, outbox_rows):
    cases, tasks = start_two(api)
    api.put("/api/v1/users/boss", "admin", {"email": "boss@agencia.pr.gov"})
    api.put("/api/v1/me/preferences", "boss", {"daily_digest": True})
    api.put("/api/v1/me/preferences", "boss_clerk", {"daily_digest": True})  # a supervisor with no address
    api.post(f"/api/v1/tasks/{tasks[1]['id']}/complete", "reviewer", {"data": {}})
    due = datetime.fromisoformat(tasks[0]["due_at"])  # 00:00 Puerto Rico on the day after the last day
    api.move_clock((due - timedelta(days=2, hours=18)).isoformat())  # 06:00: before the digest's hour
    assert outbox_rows("Resumen diario") == []
    api.move_clock((due - timedelta(days=2, hours=15)).isoformat())  # 09:00 the same day
    first, unsent = outbox_rows("Resumen diario")
    assert (first.recipient, first.address, first.status) == ("boss", "boss@agencia.pr.gov", "pending")
    assert (unsent.recipient, unsent.status) == ("boss_clerk", "not_sent") and "boss_clerk no tiene" in unsent.error
    assert "tareas vencidas 0, por vencer 1" in first.subject
    assert f"Caso {cases[0]['case_number']} · «Revisar»" in first.body
    assert cases[1]["case_number"] not in first.body  # its task is done
    api.move_clock((due - timedelta(days=2, hours=1)).isoformat())  # 23:00 the same day
    assert engine.execute(send_digests, SYSTEM) == 0
    assert len(outbox_rows("Resumen diario")) == 2
    api.put("/api/v1/me/preferences", "boss_clerk", {"daily_digest": False})
    api.move_clock((due + timedelta(hours=8)).isoformat())  # 08:00 the day after the last day
    second = outbox_rows("Resumen diario")[2]
    assert "tareas vencidas 1, por vencer 0" in second.subject and cases[0]["case_number"] in second.body
    api.put("/api/v1/me/preferences", "boss", {"daily_digest": False})
    api.move_clock((due + timedelta(days=1, hours=8)).isoformat())
    assert len(outbox_rows("Resumen diario")) == 3


def test_sending_the_digests_is_the_engines_alone(engine):
    with pytest.raises(Forbidden, match="only the engine may"):
        engine.execute(send_digests, Actor("admin", frozenset({"admin"})))


def test_a_supervisor_with_an_office_gets_the_tasks_of_that_office_and_of_none(api, engine, outbox_rows):
    cases, _tasks = start_two(api)
    engine.execute(lambda ctx: ctx.conn.execute(update(INSTANCE).where(INSTANCE.c.id == cases[1]["id"])
                                                .values(office="Sur")), SYSTEM)
    api.put("/api/v1/users/boss", "admin", {"office": "Norte", "email": "boss@agencia.pr.gov"})
    api.put("/api/v1/me/preferences", "boss", {"daily_digest": True})
    api.move_clock("2024-04-20T09:00:00-04:00")
    [digest] = outbox_rows("Resumen diario")
    assert cases[0]["case_number"] in digest.body and cases[1]["case_number"] not in digest.body


def test_the_digest_hour_is_a_parameter_and_the_digest_waits_for_it(api, outbox_rows):
    for wrong in (24, -1, 7.5, "siete"):
        refused = api.put("/api/v1/parameters/work.digestHour", "admin", {"value": wrong}, expect=422)
        assert refused["errors"]["value"]
    assert [p["value"] for p in api.get("/api/v1/parameters", "admin") if p["name"] == "work.digestHour"] == [7]
    api.put("/api/v1/parameters/work.digestHour", "admin", {"value": 10})
    _cases, tasks = start_two(api)
    api.put("/api/v1/users/boss", "admin", {"email": "boss@agencia.pr.gov"})
    api.put("/api/v1/me/preferences", "boss", {"daily_digest": True})
    due = datetime.fromisoformat(tasks[0]["due_at"])  # 00:00 Puerto Rico on the day after the last day
    api.move_clock((due - timedelta(days=2, hours=15)).isoformat())  # 09:00: past 07:00, before 10:00
    assert outbox_rows("Resumen diario") == []
    api.move_clock((due - timedelta(days=2, hours=14, minutes=1)).isoformat())  # 09:59
    assert outbox_rows("Resumen diario") == []
    api.move_clock((due - timedelta(days=2, hours=14)).isoformat())  # 10:00
    assert [r.recipient for r in outbox_rows("Resumen diario")] == ["boss"]
    api.put("/api/v1/parameters/work.digestHour", "admin", {"value": 0})  # earlier the next day: still one a day
    api.move_clock((due - timedelta(days=2, hours=2)).isoformat())
    assert len(outbox_rows("Resumen diario")) == 1
    api.move_clock((due - timedelta(days=1, hours=23, minutes=30)).isoformat())  # 00:30 the next day
    assert len(outbox_rows("Resumen diario")) == 2
