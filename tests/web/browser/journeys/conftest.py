"""The journeys' server: the procedures of processes/ deployed and the demo seeded, as `make run`
leaves them (demo users one per role, password `tramite-demo`; registries and sample cases), on
the tests' manual clock. Everything after that is done in the pages."""
from __future__ import annotations

from pathlib import Path

import pytest

from api import demo
from engine.bootstrap import deploy_directory
from tests.web.browser.journeys.pages import Journey

PROCESSES = Path(__file__).resolve().parents[4] / "processes"


@pytest.fixture
def journey(engine, ui):
    deploy_directory(engine, PROCESSES)
    demo.seed(engine, emit=lambda _line: None)
    return Journey(ui.page)
