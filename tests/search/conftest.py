"""The four procedures' scenario fixtures, for searching and listing their cases."""
from tests.procedures.bid_adjudication.conftest import bids  # noqa: F401
from tests.procedures.farmer_registry.conftest import far  # noqa: F401
from tests.procedures.materials_aid.conftest import mat  # noqa: F401
from tests.procedures.surplus_disposition.conftest import producers, surplus  # noqa: F401
from tests.web.conftest import web  # noqa: F401
