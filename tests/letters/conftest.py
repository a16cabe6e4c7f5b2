"""The letters tests play the four procedures through the HTTP API with the procedures' own scenario
steps (tests/procedures/*/conftest.py)."""
from tests.procedures.bid_adjudication.conftest import bids  # noqa: F401  (fixtures)
from tests.procedures.farmer_registry.conftest import far  # noqa: F401
from tests.procedures.materials_aid.conftest import mat  # noqa: F401
from tests.procedures.surplus_disposition.conftest import surplus  # noqa: F401
