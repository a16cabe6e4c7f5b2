"""Shared fixtures: a real database per test worker (SQLite, or PostgreSQL when
TRAMITE_TEST_DATABASE_URL is set), a clean schema per test, the Flask app with a manual clock,
and an HTTP client that logs in as the seeded users."""
from __future__ import annotations

import hashlib
import os

import pytest
from jsonschema import Draft202012Validator
from sqlalchemy import text
from sqlalchemy.engine import make_url

from api.app import create_app
from engine.commands import accounts as account_commands
from engine.commands import offices as office_commands
from engine.identity import accounts
from tests.support.reuse import app_for, remembered_check_schema, remembered_scrypt
from tests.support.baseline import Baseline
from tests.support.databases import fresh_database
from engine.bootstrap import prepare
from engine.config.clock import Clock, parse_instant
from engine.identity.actor import SYSTEM
from engine.bootstrap import make_engine
from engine.kernel.engine import Engine
from engine.persistence.models import Base
from engine.config.settings import Settings

START = "2024-04-01T12:00:00-04:00"  # a Monday
PG_URL = os.environ.get("TRAMITE_TEST_DATABASE_URL")
TEST_ROLES = {"test_clerk": ("Oficinista de prueba", "Test clerk"),
              "test_reviewer": ("Revisor de prueba", "Test reviewer")}
# Offices beside the shipped Regional Offices, for tests that scope cases without materials aid.
TEST_OFFICES = {"Norte": ("Oficina Norte", "North office"), "Sur": ("Oficina Sur", "South office")}
USERS = {
    "admin": ["admin"], "owner": ["process_owner"], "boss": ["supervisor"],
    "clerk": ["test_clerk"], "clerk2": ["test_clerk"], "reviewer": ["test_reviewer"],
    "both": ["test_clerk", "test_reviewer"], "boss_clerk": ["supervisor", "test_clerk"],
    "nobody": ["registry_clerk"],
}
PASSWORD = "secreto-123"


def pytest_report_header(config):
    return f"database: {'PostgreSQL ' + PG_URL if PG_URL else 'SQLite'}"


@pytest.fixture(scope="session")
def database_url(tmp_path_factory, worker_id):
    if not PG_URL:
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'tramite.db'}"
    return fresh_database(PG_URL, f"{make_url(PG_URL).database}_{worker_id}")


@pytest.fixture(scope="session")
def migrated(database_url):
    engine = make_engine(database_url)
    engine.db.upgrade()
    engine.db.dispose()
    return True


def _wipe(engine: Engine) -> None:
    tables = [t.name for t in reversed(Base.metadata.sorted_tables)]
    with engine.db.transaction() as session:
        if engine.db.is_sqlite:
            for name in tables:
                session.execute(text(f'DELETE FROM "{name}"'))
        else:
            session.execute(text("TRUNCATE " + ", ".join(f'"{n}"' for n in tables) + " RESTART IDENTITY CASCADE"))


@pytest.fixture(scope="session")
def password_hash():
    # scrypt is slow on purpose; hash the shared test password once per session.
    return accounts.hash_password(PASSWORD)


def _seed_test_accounts(ctx):
    for role, (es, en) in TEST_ROLES.items():
        account_commands.add_role(ctx, role, es, en)
    for office, (es, en) in TEST_OFFICES.items():
        office_commands.create(ctx, office, es, en)
    for username, roles in USERS.items():
        account_commands.create_user(ctx, username, PASSWORD, roles, full_name=username.title())


def _known_password(patcher, password_hash) -> None:
    patcher.setattr(accounts, "hash_password",
                    lambda pw, _real=accounts.hash_password: password_hash if pw == PASSWORD else _real(pw))


@pytest.fixture(scope="session")
def baseline(database_url, migrated, password_hash):
    """The catalogues and test accounts seeded once per worker through the real commands; each
    test's `engine` gets these rows back (tests/support/baseline.py) instead of seeding again."""
    with pytest.MonkeyPatch.context() as patcher:
        _known_password(patcher, password_hash)
        eng = make_engine(database_url, Clock("manual", parse_instant(START)))
        _wipe(eng)
        prepare(eng, upgrade=False)
        eng.execute(_seed_test_accounts, SYSTEM)
        seeded = Baseline(eng)
        seeded.restore(eng)
        seeded.check(eng)
        eng.db.dispose()
    yield seeded
    seeded.close()


@pytest.fixture
def engine(database_url, baseline, password_hash, monkeypatch, tmp_path):
    # Steps that give a notice store their letter in the case file: each test its own folder.
    monkeypatch.setenv("TRAMITE_DOCUMENT_DIR", str(tmp_path / "documents"))
    _known_password(monkeypatch, password_hash)
    monkeypatch.setattr(hashlib, "scrypt", remembered_scrypt)
    monkeypatch.setattr(Draft202012Validator, "check_schema", remembered_check_schema)
    eng = make_engine(database_url, Clock("manual", parse_instant(START)))
    baseline.restore(eng)
    yield eng
    eng.db.dispose()


def _build_app(engine, database_url):
    settings = Settings(database_url=database_url, clock_mode="manual", clock_start=START,
                        secret_key="test-secret")
    application = create_app(settings, engine=engine, bootstrap=False)
    application.config["TESTING"] = True
    return application


@pytest.fixture
def app(engine, database_url):
    # Built once per environment and handed back as new with this test's engine (tests/support/reuse.py).
    return app_for(database_url, engine, lambda eng: _build_app(eng, database_url))


class ApiClient:
    """Real HTTP through Flask's test client, one bearer token per seeded user."""

    def __init__(self, client):
        self.client = client
        self.tokens: dict[str, str] = {}

    def token(self, username: str) -> str:
        if username not in self.tokens:
            r = self.client.post("/api/v1/auth/token", json={"username": username, "password": PASSWORD})
            assert r.status_code == 200, r.get_json()
            self.tokens[username] = r.get_json()["token"]
        return self.tokens[username]

    def call(self, method: str, path: str, as_user: str | None = None, expect: int | None = None, **kwargs):
        headers = kwargs.pop("headers", {})
        if as_user:
            headers["Authorization"] = f"Bearer {self.token(as_user)}"
        response = self.client.open(path, method=method, headers=headers, **kwargs)
        if expect is not None:
            assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:2000])
        return response

    def get(self, path, as_user, expect=200, **kw):
        return self.call("GET", path, as_user, expect, **kw).get_json()

    def post(self, path, as_user, json=None, expect=200, **kw):
        return self.call("POST", path, as_user, expect, json=json if json is not None else {}, **kw).get_json()

    def put(self, path, as_user, json=None, expect=200, **kw):
        return self.call("PUT", path, as_user, expect, json=json, **kw).get_json()

    def deploy(self, key: str, files: dict[str, str], as_user="owner", expect=201):
        import io
        data = {"files": [(io.BytesIO(c.encode("utf-8")), name) for name, c in files.items()]}
        return self.call("POST", f"/api/v1/processes/{key}/versions", as_user, expect,
                         data=data, content_type="multipart/form-data").get_json()

    def open_task(self, case: dict, element_id: str) -> dict:
        matches = [t for t in case["open_tasks"] if t["element_id"] == element_id]
        assert matches, f"no open task {element_id} in {[t['element_id'] for t in case['open_tasks']]}"
        return matches[0]

    def move_clock(self, instant: str):
        return self.put("/api/v1/admin/clock", "admin", {"now": instant})


@pytest.fixture
def api(app):
    return ApiClient(app.test_client())
