"""The steps every procedure's scenario suite shares: each one HTTP call as the role the contract
names (or, for the clock and users, the one engine call a fixture needs)."""
from __future__ import annotations

from sqlalchemy import update

from engine.config.clock import parse_instant
from engine.commands import accounts
from engine.identity.actor import SYSTEM
from engine.persistence.models import EngineClock
from tests.conftest import PASSWORD


def case_id_of(case_or_id) -> int:
    return case_or_id["id"] if isinstance(case_or_id, dict) else case_or_id


def create_staff(engine, users: dict[str, str], full_name=str.title) -> None:
    """One user per lane: {username: role}, all with the suite's password."""
    def seed(ctx):
        for username, role in users.items():
            accounts.create_user(ctx, username, PASSWORD, [role], full_name=full_name(username))
    engine.execute(seed, SYSTEM)


class Scenario:
    HOUR = 13            # the hour of day `day()` moves the clock to
    REREAD_CASE = False  # read the case again before looking for the task to complete

    def __init__(self, api, engine=None):
        self.api, self.engine = api, engine

    # -- time ----------------------------------------------------------------------------------
    def day(self, iso_day: str, hour: int | None = None):
        return self.api.move_clock(f"{iso_day}T{self.HOUR if hour is None else hour:02d}:00:00-04:00")

    def rewind_clock_to(self, iso_day: str):
        """Scenarios dated before the suite's clock start: set the empty engine's clock back once."""
        instant = parse_instant(f"{iso_day}T09:00:00-04:00")
        self.engine.execute(lambda ctx: ctx.session.execute(update(EngineClock.__table__).values(now=instant)),
                            SYSTEM)

    def param(self, name, value):
        self.api.put(f"/api/v1/parameters/{name}", "admin", {"value": value})

    # -- cases -----------------------------------------------------------------------------------
    def case(self, case_or_id):
        return self.api.get(f"/api/v1/instances/{case_id_of(case_or_id)}", "boss")

    def history(self, case_or_id, type=None):
        events = self.api.get(f"/api/v1/instances/{case_id_of(case_or_id)}/history", "boss")
        return [e for e in events if type is None or e["type"] == type]

    def decisions(self, case_or_id, rule):
        return [e for e in self.history(case_or_id, "decision") if e["data"].get("rule") == rule]

    def complete(self, case, element_id, data, user, expect=200, task=None):
        task = task or self.api.open_task(self.case(case) if self.REREAD_CASE else case, element_id)
        answer = self.api.post(f"/api/v1/tasks/{task['id']}/complete", user, {"data": data}, expect=expect)
        return answer["instance"] if expect == 200 else answer

    def message(self, case_or_id, name, payload, user, expect=200):
        return self.api.post(f"/api/v1/instances/{case_id_of(case_or_id)}/messages/{name}", user,
                             {"payload": payload}, expect=expect)
