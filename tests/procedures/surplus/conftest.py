from __future__ import annotations

import pytest

from engine import accounts
from engine.context import SYSTEM
from tests.conftest import PASSWORD

from .harness import SUR, harness_files

STAFF = {"encargado": "surplus_officer", "recaudador": "collector", "custodio": "custodian",
         "comisionado": "commissioner"}


class Surplus:
    def __init__(self, api):
        self.api = api

    def day(self, iso_day: str, hour: int = 13):
        self.api.move_clock(f"{iso_day}T{hour:02d}:00:00-04:00")

    def param(self, name, value):
        self.api.put(f"/api/v1/parameters/{name}", "admin", {"value": value})

    def start(self, item, requester=None, stage="SALE", requests=(), registry_status=None, buyer_profile=None,
              expect=201):
        variables = {"stage": stage, "item": item, "requester": requester, "requests": list(requests),
                     "registry_status": registry_status, "buyer_profile": buyer_profile or {}}
        return self.api.post(f"/api/v1/processes/{SUR}/instances", "encargado", {"variables": variables},
                             expect=expect)

    def complete(self, case, element_id, data, user, expect=200):
        task = self.api.open_task(case, element_id)
        answer = self.api.post(f"/api/v1/tasks/{task['id']}/complete", user, {"data": data}, expect=expect)
        return answer["instance"] if expect == 200 else answer

    def case(self, case_id):
        return self.api.get(f"/api/v1/instances/{case_id}", "boss")

    def history(self, case_id):
        return self.api.get(f"/api/v1/instances/{case_id}/history", "boss")

    def decisions(self, case_id, rule):
        return [e for e in self.history(case_id) if e["type"] == "decision" and e["data"].get("rule") == rule]


@pytest.fixture
def surplus(api, engine):
    def seed(ctx):
        for username, role in STAFF.items():
            accounts.create_user(ctx, username, PASSWORD, [role], full_name=username.title())
    engine.execute(seed, SYSTEM)
    api.deploy(SUR, harness_files())
    return Surplus(api)
