"""Web pages through Flask's test client: a logged-in session per user, CSRF included."""
from __future__ import annotations

import re

import pytest

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.identity.actor import Actor
from engine.rules.decision import RuleViolation
from engine.kernel.procedure import Procedure
from tests.support.procedures import run_with
from tests.conftest import PASSWORD, USERS
from tests.web.diagrams import start_variables, web_flow


def quotes_needed_to_approve(data, _facts):
    if data.get("recommendation") == "approve" and not data.get("quotes"):
        raise RuleViolation("QUOTE_REQUIRED", "an approval needs at least one quote", ["TEST-07"])


@pytest.fixture(autouse=True)
def web_rules(monkeypatch, engine):
    run_with(monkeypatch, engine, Procedure(
        name="test_web", completion_rules={("test_web", "evaluate"): quotes_needed_to_approve}))


def actor(username: str) -> Actor:
    return Actor(username, frozenset(USERS[username]))


class WebClient:
    """One browser session without a browser: cookies kept, the CSRF token sent with each POST."""

    def __init__(self, app):
        self.client = app.test_client()

    def csrf(self) -> str:
        with self.client.session_transaction() as session:
            return session.get("_csrf", "")

    def login(self, username: str, password: str = PASSWORD, expect: int = 302):
        self.client.get("/web/login")
        response = self.client.post("/web/login", data={"username": username, "password": password,
                                                        "_csrf": self.csrf()})
        assert response.status_code == expect, response.get_data(as_text=True)[:500]
        return self

    def get(self, path: str, expect: int = 200) -> str:
        response = self.client.get(path)
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:1500])
        return response.get_data(as_text=True)

    def post(self, path: str, data=None, expect: int = 302, **kwargs):
        payload = {"_csrf": self.csrf(), **(data or {})}
        response = self.client.post(path, data=payload, **kwargs)
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:3000])
        return response

    def post_json(self, path: str, body: dict, expect: int = 200):
        response = self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf()})
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:3000])
        return response


@pytest.fixture
def web(app):
    return lambda username=None: WebClient(app).login(username) if username else WebClient(app)


@pytest.fixture
def web_case(engine):
    """The web test diagram deployed and one case started by the clerk (the case as the engine answers)."""
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow())[0].version, actor("owner"))
    case = engine.execute(start_case, actor("clerk"), "test_web", start_variables())
    return case


def text_of(html: str) -> str:
    """The page's text without tags, spaces collapsed: what a reader sees."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
