"""One database and one app for the whole conformance folder (per test worker).

Every scenario deploys its own process key and cancels what it leaves running, so the scenarios
can share a database; a fresh schema per scenario (the root `api` fixture) cost more than the
scenarios themselves. The database is this folder's own (`…_conformance`), so the root fixtures'
wipes between other tests on the same worker never touch it. The clock only moves forward, so
every scenario counts time from the clock it finds.
"""
from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url

from api.app import create_app
from engine.bootstrap import make_engine, prepare
from engine.commands import accounts as account_commands
from engine.config.clock import Clock, parse_instant
from engine.config.settings import Settings
from engine.identity import accounts
from engine.identity.actor import SYSTEM
from tests.conftest import PASSWORD, PG_URL, START, TEST_ROLES, USERS, ApiClient
from tests.support.databases import fresh_database


@pytest.fixture(scope="session")
def conformance_url(tmp_path_factory, worker_id):
    if not PG_URL:
        return f"sqlite:///{tmp_path_factory.mktemp('conformance') / 'tramite.db'}"
    return fresh_database(PG_URL, f"{make_url(PG_URL).database}_{worker_id}_conformance")


@pytest.fixture(scope="session")
def conformance_api(conformance_url, password_hash):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(accounts, "hash_password",
                      lambda pw, _real=accounts.hash_password: password_hash if pw == PASSWORD else _real(pw))
        engine = make_engine(conformance_url, Clock("manual", parse_instant(START)))
        prepare(engine, upgrade=True)

        def seed(ctx):
            for role, (es, en) in TEST_ROLES.items():
                account_commands.add_role(ctx, role, es, en)
            for username, roles in USERS.items():
                account_commands.create_user(ctx, username, PASSWORD, roles, full_name=username.title())
        engine.execute(seed, SYSTEM)
    settings = Settings(database_url=conformance_url, clock_mode="manual", clock_start=START,
                        secret_key="test-secret")
    app = create_app(settings, engine=engine, bootstrap=False)
    app.config["TESTING"] = True
    yield ApiClient(app.test_client())
    engine.db.dispose()
