"""The farmer registry deployed with one user per lane, for the web tests that play its cases
(import `far` into the test module to use it)."""
from __future__ import annotations

import pytest

from tests.procedures.farmer_registry.conftest import ADMISSION, FARMER_USERS, MEMBERSHIP, Farmers, farmer_files
from tests.support.scenario import create_staff


@pytest.fixture
def far(api, engine):
    create_staff(engine, FARMER_USERS)
    files = farmer_files()
    api.deploy(MEMBERSHIP, files)
    api.deploy(ADMISSION, files)
    return Farmers(api, engine)
