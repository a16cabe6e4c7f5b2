"""Issue 15's "Low" list, one test each (all fail on the code before the fix): a huge ?page= on the
web lists, 403s that named another office's case, /metrics without a token, the Host header in
pagination links, the generated secret key's file mode."""
from __future__ import annotations

import os
import stat

import pytest

from engine.config.settings import Settings
from tests.conftest import PASSWORD
from tests.hostile.test_authorization_matrix import matrix_flow
from tests.web.conftest import WebClient

HUGE = "9" * 30  # past any integer column: SQLite raised OverflowError (a 500)
WEB_LISTS = [("admin", "/web/cases?page={n}"), ("admin", "/web/admin/registries?page={n}"),
             ("admin", "/web/admin/registries/bidders?page={n}"),
             ("admin", "/web/admin/registries/beneficiaries?page={n}"),
             ("admin", "/web/admin/registries/stores?page={n}"),
             ("clerk", "/web/tasks?mine_page={n}"), ("clerk", "/web/tasks?available_page={n}")]
API_LISTS = ["/api/v1/instances", "/api/v1/tasks", "/api/v1/registries/farmers", "/api/v1/registries/bidders",
             "/api/v1/registries/beneficiaries", "/api/v1/registries/stores"]


@pytest.mark.parametrize("user,path", WEB_LISTS)
def test_a_huge_page_number_on_a_web_list_is_a_400(app, user, path):
    web = WebClient(app).login(user)
    assert web.client.get(path.format(n=HUGE)).status_code == 400
    assert web.client.get(path.format(n=1_000_000)).status_code == 200  # the last page allowed: empty


@pytest.mark.parametrize("path", API_LISTS)
def test_a_huge_page_number_on_an_api_list_is_refused_per_field(api, path):
    answer = api.call("GET", f"{path}?page={HUGE}", "admin", expect=422).get_json()
    assert "page" in answer["errors"]


@pytest.fixture
def norte_case(api):
    for username, role, office in (("clerk_norte", "test_clerk", "Norte"), ("clerk_sur", "test_clerk", "Sur"),
                                   ("reviewer_sur", "test_reviewer", "Sur")):
        api.post("/api/v1/users", "admin", {"username": username, "password": PASSWORD,
                                             "roles": [role], "office": office}, expect=201)
    api.deploy("test_matrix", matrix_flow())
    case = api.post("/api/v1/processes/test_matrix/instances", "clerk",
                    {"variables": {"requested_office": "Norte", "explode": False}}, expect=201)
    assert case["office"] == "Norte"
    return case


def test_a_refusal_says_not_yours_and_nothing_of_the_other_office(api, app, norte_case):
    task = api.open_task(norte_case, "handle")
    refused = [
        api.call("GET", f"/api/v1/instances/{norte_case['id']}", "clerk_sur", expect=403),
        api.call("GET", f"/api/v1/tasks/{task['id']}", "clerk_sur", expect=403),
        api.call("POST", f"/api/v1/tasks/{task['id']}/claim", "clerk_sur", expect=403, json={}),
        api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk_sur", expect=403, json={"data": {}}),
        api.call("POST", f"/api/v1/instances/{norte_case['id']}/messages/documents_received", "clerk_sur",
                 expect=403, json={"payload": {}}),
        api.call("GET", f"/api/v1/tasks/{task['id']}", "reviewer", expect=403),  # another lane
        # Another lane and another office: not even the lane is named.
        api.call("POST", f"/api/v1/tasks/{task['id']}/claim", "reviewer_sur", expect=403, json={}),
    ]
    for response in refused:
        message = response.get_json()["message"]
        assert "not yours" in message, message
        for secret in (norte_case["case_number"], "Norte", "test_clerk"):
            assert secret not in message, message
    page = WebClient(app).login("clerk_sur").get(f"/web/cases/{norte_case['id']}", expect=403)
    assert norte_case["case_number"] not in page and "Norte" not in page


def test_metrics_answer_only_the_configured_token(app, api):
    admin = {"Authorization": f"Bearer {api.token('admin')}"}
    assert app.test_client().get("/metrics").status_code == 404  # no token configured: off
    assert app.test_client().get("/metrics", headers=admin).status_code == 404
    app.config["TRAMITE_METRICS_TOKEN"] = "scrape-me-0123456789"
    client = app.test_client()
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers=admin).status_code == 401  # a user's login is not the token
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    good = client.get("/metrics", headers={"Authorization": "Bearer scrape-me-0123456789"})
    assert good.status_code == 200 and "tramite_open_tasks" in good.get_data(as_text=True)


def test_the_metrics_token_and_public_url_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("TRAMITE_SECRET_KEY", "k")
    monkeypatch.setenv("TRAMITE_METRICS_TOKEN", " t0ken ")
    monkeypatch.setenv("TRAMITE_PUBLIC_URL", "https://tramite.example.pr")
    settings = Settings.from_env(database_url="sqlite://")
    assert settings.metrics_token == "t0ken" and settings.public_url == "https://tramite.example.pr"


def _three_cases(api):
    api.deploy("test_matrix", matrix_flow())
    for _ in range(3):
        api.post("/api/v1/processes/test_matrix/instances", "clerk",
                 {"variables": {"requested_office": "Norte", "explode": False}}, expect=201)


def test_pagination_links_never_carry_the_host_header(app, api):
    _three_cases(api)
    link = api.call("GET", "/api/v1/instances?per_page=1&page=2", "boss", expect=200,
                    headers={"Host": "evil.example"}).headers["Link"]
    assert "evil.example" not in link
    assert '</api/v1/instances?page=3&per_page=1>; rel="next"' in link  # relative to this server
    app.config["TRAMITE_PUBLIC_URL"] = "https://tramite.example.pr"
    link = api.call("GET", "/api/v1/instances?per_page=1&page=2", "boss", expect=200,
                    headers={"Host": "evil.example"}).headers["Link"]
    assert "evil.example" not in link
    assert '<https://tramite.example.pr/api/v1/instances?page=1&per_page=1>; rel="first"' in link


def test_the_generated_secret_key_is_readable_by_its_owner_alone(tmp_path, monkeypatch):
    monkeypatch.delenv("TRAMITE_SECRET_KEY", raising=False)
    monkeypatch.setenv("TRAMITE_DATA_DIR", str(tmp_path / "data"))
    old_umask = os.umask(0o022)  # the usual umask, which made it 0644
    try:
        key = Settings.from_env(database_url="sqlite://").secret_key
    finally:
        os.umask(old_umask)
    path = tmp_path / "data" / "secret_key"
    assert len(key) == 64 and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # one written by an older release is narrowed, and kept
    assert Settings.from_env(database_url="sqlite://").secret_key == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
