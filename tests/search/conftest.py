"""The four procedures' scenario fixtures, for searching and listing their cases, and `searched`:
24 cases of three starters (one with LIKE's wildcards in the name) and two offices."""
import itertools

import pytest

from engine.commands import accounts
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.identity.actor import SYSTEM, Actor
from tests.conftest import PASSWORD
from tests.procedures.bid_adjudication.conftest import bids  # noqa: F401
from tests.procedures.farmer_registry.conftest import far  # noqa: F401
from tests.procedures.materials_aid.conftest import mat  # noqa: F401
from tests.procedures.surplus_disposition.conftest import producers, surplus  # noqa: F401
from tests.web.conftest import web  # noqa: F401
from tests.web.diagrams import start_variables, web_flow

STARTERS = {"caguas_clerk": "Caguas", "humacao_clerk": "Humacao", "clerk_50%_done": None}


@pytest.fixture
def searched(engine):
    def seed(ctx):
        for username, office in STARTERS.items():
            accounts.create_user(ctx, username, PASSWORD, ["test_clerk"], full_name=username, office=office)
    engine.execute(seed, SYSTEM)
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow()), Actor("owner", frozenset({"process_owner"})))
    numbers = []
    for i, (username, office) in zip(range(24), itertools.cycle(STARTERS.items())):
        name = f"Solicitante Núñez {i:03d}" if i % 4 else f"Humacao Clerk {i}"
        variables = start_variables(applicant={"name": name, "municipality": "Cidra" if i % 2 else "Caguas"})
        numbers.append(engine.execute(start_case, Actor(username, frozenset({"test_clerk"}), office=office),
                                      "test_web", variables)["case_number"])
    return numbers
