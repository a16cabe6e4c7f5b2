"""Surplus disposition played through the HTTP API: the real diagram and forms, the Encargado and the
other roles of the contract, requests sent as messages while the clock moves."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.bootstrap import procedure_files
from engine.identity.actor import SYSTEM
from engine.registries import farmers
from tests.support.scenario import Scenario, create_staff

REPO = Path(__file__).resolve().parents[3]
SUR = "surplus_disposition"
STAFF = {"encargado": "surplus_officer", "recaudador": "collector", "custodio": "custodian",
         "comisionado": "commissioner", "transportacion": "transport_chief"}


def procedure_texts(key: str) -> dict[str, str]:
    files = procedure_files(REPO / "processes" / key, REPO / "forms")
    return {name: content.decode("utf-8") for name, content in files.items()}


def surplus_files() -> dict[str, str]:
    return procedure_texts(SUR)


def item(number, value, utility="none", units=("U1",), **extra) -> dict:
    return {"inventory_number": number, "description": f"bien {number}", "is_vehicle": False, "utility": utility,
            "estimated_value": value, "donated": False, "scrap_for_vehicle_repair": False,
            "units": [{"unit_id": u, "use_category": "general"} for u in units], **extra}


def requester(rid, kind, name=None, **extra) -> dict:
    return {"id": rid, "name": name or rid, "kind": kind, "obliged_to_dispose_through_commission": False,
            "under_commission_jurisdiction": True, "endorsement": None, "registry_id": None, **extra}


class Surplus(Scenario):
    """Scenario steps of the contract, each one HTTP call as the role the contract names."""

    REREAD_CASE = True

    def at(self, instant: str):
        """`2024-04-02 14:00` or `2024-04-02` (13:00) in Puerto Rico time."""
        day, _, clock = instant.partition(" ")
        return self.api.move_clock(f"{day}T{clock or '13:00'}:00-04:00")

    def start(self, item_, expect=201):
        return self.api.post(f"/api/v1/processes/{SUR}/instances", "encargado", {"variables": {"item": item_}},
                             expect=expect)

    def request(self, case, who, units=None, expect=200):
        payload = {"requester": who} if units is None else {"requester": who, "units": list(units)}
        return self.api.post(f"/api/v1/instances/{case['id']}/messages/request", "encargado", {"payload": payload},
                             expect=expect)

    def message(self, case, name, payload, user="encargado", expect=200):
        return super().message(case, name, payload, user, expect)


    def v(self, case):
        return self.case(case)["variables"]

    def tasks(self, case, element_id=None):
        return [t for t in self.case(case)["open_tasks"] if element_id is None or t["element_id"] == element_id]

    def notices(self, case):
        return self.api.get(f"/api/v1/instances/{case['id']}/notifications", "boss")


@pytest.fixture
def surplus(api, engine):
    create_staff(engine, STAFF)
    api.deploy(SUR, surplus_files())
    api.deploy("bid_adjudication", procedure_texts("bid_adjudication"))  # the public auction (SUR-15)
    return Surplus(api)


@pytest.fixture
def producers(engine):
    """The registered producers of EXAMPLES.md, ACTIVE unless a test changes them."""
    from datetime import date

    def seed(ctx):
        for rid, kind in (("F-17", "agricultor"), ("F-21", "agricultor"), ("F-22", "agricultor"),
                          ("F-23", "agricultor"), ("F-31", "agricultor"), ("F-32", "agricultor"),
                          ("F-40", "pescador"), ("F-50", "agricultor")):
            farmers.create(ctx, id=rid, name=f"Productor {rid}", producer_type=kind,
                           address=f"Calle {rid}, Aibonito", municipality="Aibonito",
                           registered_on=date(2024, 2, 5), renewal_due=date(2026, 2, 5))
    engine.execute(seed, SYSTEM)
