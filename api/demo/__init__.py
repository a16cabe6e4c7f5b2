"""Demo data for `tramite seed-demo`: an ordered list of idempotent seed steps.

Each step takes the engine and returns the lines to print: the demo users first, then each
procedure's registry fixtures and sample cases (one module per procedure in this package).
"""
from __future__ import annotations

from typing import Callable

from api.demo.bid_adjudication import bid_adjudication_demo
from api.demo.common import DEMO_PASSWORD, OWN_PASSWORD, table  # noqa: F401  (what callers of the demo read)
from api.demo.farmer_registry import farmer_registry_demo
from api.demo.materials_aid import materials_aid_demo
from api.demo.surplus_disposition import surplus_disposition_demo
from api.demo.users import demo_users

DEMO_STEPS: list[Callable[..., list[str]]] = [
    demo_users, farmer_registry_demo, materials_aid_demo, bid_adjudication_demo, surplus_disposition_demo]


def seed(engine, emit: Callable[[str], None] = print) -> None:
    for step in DEMO_STEPS:
        for line in step(engine):
            emit(line)
