"""The TOTP second factor on local login: admins and process owners set it up with a QR code when
the setting requires it, then give a code (or a single-use recovery code) after their password,
on the web and on the API's token route; wrong codes are throttled, a code is good once.

Codes are computed with pyotp against the machine's time, the clock a phone shows codes for."""
from __future__ import annotations

import re
import time
from dataclasses import replace

import pyotp
import pytest

from tests.conftest import PASSWORD
from tests.hostile.test_login_throttle import POLICY
from tests.web.conftest import WebClient


@pytest.fixture
def required(app):
    app.config["TRAMITE_LOGIN_POLICY"] = replace(app.config["TRAMITE_LOGIN_POLICY"], second_factor_required=True)
    return app


def password_step(app, username, password=PASSWORD):
    client = WebClient(app)
    client.client.get("/web/login")
    response = client.client.post("/web/login", data={"username": username, "password": password,
                                                      "_csrf": client.csrf()})
    return client, response


def signed_in(client) -> bool:
    response = client.client.get("/web/")
    assert response.status_code == 302
    return "/web/login" not in response.headers["Location"]


def code_step(client, code, expect):
    response = client.client.post("/web/login/second-factor", data={"code": code, "_csrf": client.csrf()})
    assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:800])
    return response.get_data(as_text=True)


def enrol(app, username="admin") -> tuple[str, list[str]]:
    client, response = password_step(app, username)
    assert response.status_code == 302 and "/web/login/second-factor" in response.headers["Location"]
    page = client.get("/web/login/second-factor")
    secret = re.search(r'id="totp-secret">([A-Z2-7]+)<', page).group(1)
    done = code_step(client, pyotp.TOTP(secret).now(), 200)
    codes = re.findall(r"<li><code>([a-z0-9-]+)</code></li>", done)
    assert signed_in(client)
    return secret, codes


def test_a_password_alone_no_longer_signs_an_admin_in(required):
    client, response = password_step(required, "admin")
    assert response.status_code == 302 and "/web/login/second-factor" in response.headers["Location"]
    assert not signed_in(client)
    # Staff without a powerful role are not asked.
    clerk, response = password_step(required, "clerk")
    assert response.status_code == 302 and "second-factor" not in response.headers["Location"]


def test_enrolment_shows_a_qr_code_without_script_and_gives_ten_recovery_codes(required):
    client, _ = password_step(required, "owner")
    page = client.get("/web/login/second-factor")
    qr = page[page.index('id="totp-qr"'):]
    qr = qr[:qr.index("</figure>")]
    assert "<svg" in qr and "<script" not in page.split("</main>")[0].split("<main")[-1]
    assert "data:" not in qr
    secret = re.search(r'id="totp-secret">([A-Z2-7]+)<', page).group(1)
    code_step(client, "000000" if pyotp.TOTP(secret).now() != "000000" else "111111", 401)
    assert not signed_in(client)
    done = code_step(client, pyotp.TOTP(secret).now(), 200)
    codes = re.findall(r"<li><code>([a-z0-9-]+)</code></li>", done)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert client.client.get("/web/processes").status_code == 200


def test_after_enrolment_each_login_needs_a_code_that_is_good_once(required):
    secret, _codes = enrol(required)
    client, _ = password_step(required, "admin")
    assert not signed_in(client)
    totp = pyotp.TOTP(secret)
    used = totp.at(time.time() + 30)  # the next step's code (within one step either side)
    code_step(client, used, 302)
    assert signed_in(client)
    again, _ = password_step(required, "admin")
    code_step(again, used, 401)  # replayed: its step is spent
    code_step(again, totp.now(), 401)  # an earlier step than the last one used
    assert not signed_in(again)


def test_a_recovery_code_works_once(required):
    _secret, codes = enrol(required)
    client, _ = password_step(required, "admin")
    code_step(client, codes[0].upper(), 302)
    assert signed_in(client)
    again, _ = password_step(required, "admin")
    code_step(again, codes[0], 401)
    code_step(again, codes[1], 302)


def test_wrong_codes_are_throttled(required):
    secret, _ = enrol(required)
    client, _ = password_step(required, "admin")
    for _ in range(POLICY.per_username):
        code_step(client, "12345", 401)
    response = client.client.post("/web/login/second-factor",
                                  data={"code": pyotp.TOTP(secret).at(time.time() + 30), "_csrf": client.csrf()})
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0
    assert not signed_in(client)


def test_a_pending_login_expires_and_is_no_session(required):
    client, _ = password_step(required, "admin")
    assert client.client.get("/web/tasks").status_code == 302
    with client.client.session_transaction() as session:
        session["pending"] = {**session["pending"], "at": session["pending"]["at"] - 301}
    response = client.client.get("/web/login/second-factor")
    assert response.status_code == 302 and "/web/login" in response.headers["Location"]


def test_the_api_token_route_asks_for_the_code_too(required, api):
    secret, codes = enrol(required)
    body = {"username": "admin", "password": PASSWORD}
    answer = api.client.post("/api/v1/auth/token", json=body)
    assert answer.status_code == 401 and answer.get_json()["errors"] == {"otp": ["SECOND_FACTOR_REQUIRED"]}
    answer = api.client.post("/api/v1/auth/token", json={**body, "otp": "123456"})
    assert answer.status_code == 401 and answer.get_json()["errors"] == {"otp": ["SECOND_FACTOR_WRONG"]}
    answer = api.client.post("/api/v1/auth/token", json={**body, "otp": pyotp.TOTP(secret).at(time.time() + 30)})
    assert answer.status_code == 200
    assert api.client.post("/api/v1/auth/token", json={**body, "otp": codes[3]}).status_code == 200
    owner = api.client.post("/api/v1/auth/token", json={"username": "owner", "password": PASSWORD})
    assert owner.status_code == 401 and owner.get_json()["errors"] == {"otp": ["SECOND_FACTOR_ENROLMENT_REQUIRED"]}
    assert api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": PASSWORD}).status_code == 200


def test_without_the_setting_only_who_enrolled_is_asked(app, required):
    secret, _ = enrol(required, "owner")
    app.config["TRAMITE_LOGIN_POLICY"] = replace(app.config["TRAMITE_LOGIN_POLICY"], second_factor_required=False)
    _client, response = password_step(app, "admin")
    assert "second-factor" not in response.headers["Location"]
    _client, response = password_step(app, "owner")
    assert "/web/login/second-factor" in response.headers["Location"]


def test_an_admin_resets_a_lost_second_factor(required):
    enrol(required, "owner")
    secret, _ = enrol(required, "admin")
    client, _ = password_step(required, "admin")
    code_step(client, pyotp.TOTP(secret).at(time.time() + 30), 302)
    client.post("/web/admin/users/owner/second-factor/reset")
    _client, response = password_step(required, "owner")
    assert "/web/login/second-factor" in response.headers["Location"]
    assert 'id="totp-qr"' in _client.get("/web/login/second-factor")  # set up again, a new secret
