"""Signing in with the agency's directory over OpenID Connect, against a real provider: the
certified `oidc-provider` package run under node on loopback (tests/support/oidc_provider.mjs).

The browser's part (the provider's login and consent pages) is played with `requests`; the app's
part (the code exchange, the provider's keys, the id_token checks) is the app talking to the
provider over HTTP. Login, the mapping of groups to roles, a group taken away, a tampered id_token,
the state and the nonce."""
from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from sqlalchemy import select

from engine.config.login_policy import DirectoryLogin
from engine.persistence.models import User
from tests.conftest import PASSWORD
from tests.web.conftest import WebClient

ROOT = Path(__file__).resolve().parents[2]
CALLBACK = "http://localhost/web/login/directory/callback"
USERS = {"ana": {"name": "Ana Directorio", "groups": ["g-clerks"], "office": "Norte"},
         "beto": {"name": "Beto Directorio", "groups": ["g-clerks", "g-reviewers"]},
         "nadie": {"name": "Nadie", "groups": ["g-unmapped"]}}
GROUP_ROLES = {"g-clerks": "test_clerk", "g-reviewers": ["test_reviewer"], "g-bosses": "supervisor"}


class Provider:
    def __init__(self, tmp: Path):
        self.users_file = tmp / "users.json"
        self.set_users(USERS)
        node = shutil.which("node")
        if node is None or not (ROOT / "node_modules" / "oidc-provider").exists():
            pytest.fail("node and node_modules/oidc-provider are needed (make node_modules)")
        self.process = subprocess.Popen([node, str(ROOT / "tests/support/oidc_provider.mjs"), str(self.users_file),
                                         CALLBACK], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        line = self.process.stdout.readline()
        if not line:
            pytest.fail("the OpenID provider did not start: " + self.process.stderr.read()[-2000:])
        self.issuer = json.loads(line)["issuer"]

    def set_users(self, users: dict) -> None:
        self.users_file.write_text(json.dumps(users))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def provider(tmp_path_factory):
    running = Provider(tmp_path_factory.mktemp("oidc"))
    yield running
    running.stop()


@pytest.fixture
def directory_app(app, provider):
    provider.set_users(USERS)
    app.config["TRAMITE_OIDC"] = DirectoryLogin(provider.issuer, "tramite", "tramite-test-secret", GROUP_ROLES)
    return app


def at_provider(start: str, username: str) -> str:
    """The browser at the provider: log in as `username`, consent, and come back (the callback URL)."""
    browser, url, method, data = requests.Session(), start, "GET", None
    for _ in range(12):
        reply = browser.request(method, url, data=data, allow_redirects=False, timeout=20)
        if reply.is_redirect:
            url, method, data = urljoin(url, reply.headers["Location"]), "GET", None
            if url.startswith(CALLBACK):
                return url
            continue
        assert reply.status_code == 200, (reply.status_code, reply.text[:1000])
        prompt = re.search(r'name="prompt" value="(\w+)"', reply.text).group(1)
        url = urljoin(url, re.search(r'action="([^"]+)"', reply.text).group(1))
        method, data = "POST", {"prompt": prompt, "login": username, "password": "whatever"}
    raise AssertionError("the provider never sent the browser back")


def begin(app) -> tuple[WebClient, str]:
    web = WebClient(app)
    reply = web.client.get("/web/login/directory")
    assert reply.status_code == 302 and reply.headers["Location"].startswith(app.config["TRAMITE_OIDC"].issuer)
    return web, reply.headers["Location"]


def come_back(web: WebClient, callback: str):
    parts = urlsplit(callback)
    return web.client.get(f"{parts.path}?{parts.query}")


def sign_in(app, username: str, expect: int = 302) -> WebClient:
    web, start = begin(app)
    reply = come_back(web, at_provider(start, username))
    assert reply.status_code == expect, (reply.status_code, reply.get_data(as_text=True)[:1500])
    return web


def user_row(engine, username):
    return engine.read(lambda s: (lambda u: None if u is None else {"roles": u.role_ids, "office": u.office,
                                                                     "name": u.full_name})(
        s.scalars(select(User).where(User.username == username)).first()))


def signed_in_as(web: WebClient) -> str | None:
    reply = web.client.get("/web/")
    if "/web/login" in reply.headers.get("Location", ""):
        return None
    with web.client.session_transaction() as session:
        return session.get("uid")


def test_the_login_page_offers_the_directory(directory_app):
    page = WebClient(directory_app).get("/web/login")
    assert 'id="directory-login"' in page and 'name="password"' in page


def test_signing_in_makes_the_user_with_the_roles_their_groups_map_to(directory_app, engine, api):
    web = sign_in(directory_app, "ana")
    assert signed_in_as(web) is not None
    assert user_row(engine, "ana") == {"roles": ["test_clerk"], "office": "Norte", "name": "Ana Directorio"}
    assert web.client.get("/web/tasks").status_code == 200
    # A directory user has no local password that anything matches.
    r = api.client.post("/api/v1/auth/token", json={"username": "ana", "password": "!directory"})
    assert r.status_code == 401


def test_taken_out_of_a_group_the_user_loses_its_role_at_the_next_login(directory_app, engine, provider):
    sign_in(directory_app, "beto")
    assert user_row(engine, "beto")["roles"] == ["test_clerk", "test_reviewer"]
    provider.set_users({**USERS, "beto": {**USERS["beto"], "groups": ["g-clerks"]}})
    sign_in(directory_app, "beto")
    assert user_row(engine, "beto")["roles"] == ["test_clerk"]
    provider.set_users({**USERS, "beto": {**USERS["beto"], "groups": []}})
    web = sign_in(directory_app, "beto", expect=403)
    assert signed_in_as(web) is None and user_row(engine, "beto")["roles"] == []


def test_a_user_in_no_mapped_group_is_refused_and_not_made(directory_app, engine):
    web = sign_in(directory_app, "nadie", expect=403)
    assert signed_in_as(web) is None and user_row(engine, "nadie") is None


def tamper(token: dict, **claims) -> dict:
    header, payload, signature = token["id_token"].split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    body.update(claims)
    forged = base64.urlsafe_b64encode(json.dumps(body).encode()).rstrip(b"=").decode()
    return {**token, "id_token": f"{header}.{forged}.{signature}"}


def test_a_tampered_id_token_is_refused(directory_app, engine, monkeypatch, caplog):
    from api.web import directory
    web, start = begin(directory_app)
    with directory_app.test_request_context():
        client = directory.client()
    real = client.fetch_access_token
    monkeypatch.setattr(client, "fetch_access_token",
                        lambda **kw: tamper(real(**kw), groups=["g-bosses"], preferred_username="ana"))
    reply = come_back(web, at_provider(start, "nadie"))
    assert reply.status_code == 401
    assert signed_in_as(web) is None and user_row(engine, "ana") is None and user_row(engine, "nadie") is None
    assert "BadSignatureError" in caplog.text  # refused for its signature, not by accident


def test_the_state_must_be_the_one_this_browser_was_sent_with(directory_app, engine):
    web, start = begin(directory_app)
    callback = at_provider(start, "ana")
    forged = re.sub(r"state=[^&]+", "state=not-the-state", callback)
    assert come_back(web, forged).status_code == 401
    # Another browser (no state in its session) cannot use this browser's answer either.
    assert come_back(WebClient(directory_app), callback).status_code == 401
    assert user_row(engine, "ana") is None
    assert come_back(web, callback).status_code == 302  # the genuine answer, once...
    begin(directory_app)
    assert come_back(web, callback).status_code == 401  # ...and never twice


def test_the_nonce_must_be_the_one_sent(directory_app, engine, caplog):
    web, start = begin(directory_app)
    callback = at_provider(start, "ana")
    with web.client.session_transaction() as session:
        key = next(k for k in session if k.startswith("_state_directory_"))
        state = dict(session[key])
        state["data"] = {**state["data"], "nonce": "another-nonce"}
        session[key] = state
    assert come_back(web, callback).status_code == 401
    assert signed_in_as(web) is None and user_row(engine, "ana") is None
    assert "Invalid claim: 'nonce'" in caplog.text


def test_local_passwords_can_be_switched_off(directory_app, api):
    from dataclasses import replace
    directory_app.config["TRAMITE_LOGIN_POLICY"] = replace(directory_app.config["TRAMITE_LOGIN_POLICY"],
                                                           local_passwords=False)
    page = WebClient(directory_app).get("/web/login")
    assert 'id="directory-login"' in page and 'name="password"' not in page
    WebClient(directory_app).login("clerk", expect=403)
    assert api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": PASSWORD}).status_code == 403
    assert signed_in_as(sign_in(directory_app, "ana")) is not None
