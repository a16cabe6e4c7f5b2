"""Web sessions: 12 hours from the login whatever is done with them, and ended on every browser by
logging out, deactivation or a new password (a cookie kept from before is worth nothing).

Sessions run on the machine's clock, as API tokens do, so time travels by moving the session's
`iat` (when its login was) backwards."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from http.cookies import SimpleCookie

from api.web.session import SESSION_LIFETIME
from tests.conftest import PASSWORD
from tests.web.conftest import WebClient

HOURS_12 = 12 * 3600


def signed_in(client: WebClient) -> bool:
    response = client.client.get("/web/tasks")
    if response.status_code == 302:
        assert "/web/login" in response.headers["Location"]
        return False
    assert response.status_code == 200, response.status_code
    return True


def age(client: WebClient, seconds: int) -> None:
    with client.client.session_transaction() as session:
        session["iat"] -= seconds


def session_cookie(client: WebClient) -> str:
    return client.client.get_cookie("session").value


def put_back(client: WebClient, value: str) -> None:
    client.client.set_cookie("session", value)


def test_the_session_cookie_lives_twelve_hours_not_a_month(app):
    client = WebClient(app)
    client.client.get("/web/login")
    response = client.client.post("/web/login", data={"username": "clerk", "password": PASSWORD,
                                                      "_csrf": client.csrf()})
    assert response.status_code == 302
    cookie = SimpleCookie(next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")))
    expires = datetime.strptime(cookie["session"]["expires"], "%a, %d %b %Y %H:%M:%S GMT").replace(tzinfo=timezone.utc)
    assert expires <= datetime.now(timezone.utc) + SESSION_LIFETIME + timedelta(seconds=5)
    assert SESSION_LIFETIME == timedelta(hours=12) and app.permanent_session_lifetime == SESSION_LIFETIME


def test_twelve_hours_after_the_login_the_session_is_over_however_busy(app):
    client = WebClient(app).login("clerk")
    age(client, HOURS_12 - 60)
    assert signed_in(client)  # a request at 11 h 59 min still works...
    for _ in range(3):
        assert signed_in(client)  # ...and requests do not slide the end forward
    age(client, 61)
    assert not signed_in(client)
    # Nor does a cookie from before the expiry, re-sent, bring it back.
    assert not signed_in(client)


def test_the_cookie_expiry_does_not_slide_with_requests(app):
    client = WebClient(app).login("clerk")
    age(client, 6 * 3600)
    response = client.client.get("/web/tasks")
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("session="):
            cookie = SimpleCookie(header)
            expires = datetime.strptime(cookie["session"]["expires"], "%a, %d %b %Y %H:%M:%S GMT")
            left = expires.replace(tzinfo=timezone.utc) - datetime.now(timezone.utc)
            assert left <= timedelta(hours=6, seconds=5)


def test_a_session_without_a_login_time_is_refused(app):
    client = WebClient(app).login("clerk")
    with client.client.session_transaction() as session:
        del session["iat"]
    assert not signed_in(client)


def test_a_login_time_in_the_future_is_refused(app):
    client = WebClient(app).login("clerk")
    age(client, -3600)
    assert not signed_in(client)


def test_logging_out_ends_every_session_of_the_user_and_the_kept_cookie(app):
    laptop, phone, other = WebClient(app).login("clerk"), WebClient(app).login("clerk"), WebClient(app).login("clerk2")
    kept = session_cookie(laptop)
    laptop.post("/web/logout")
    assert not signed_in(laptop)
    put_back(laptop, kept)  # the cookie an attacker copied before the log-out
    assert not signed_in(laptop)
    assert not signed_in(phone)
    assert signed_in(other)  # another user's sessions are theirs
    assert signed_in(WebClient(app).login("clerk"))  # logging in again is the way back


def test_deactivating_ends_the_sessions_for_good_even_after_reactivation(app, api):
    client = WebClient(app).login("clerk")
    kept = session_cookie(client)
    admin = WebClient(app).login("admin")
    admin.post("/web/admin/users/clerk/active", {"active": "0"})
    assert not signed_in(client)
    admin.post("/web/admin/users/clerk/active", {"active": "1"})
    put_back(client, kept)
    assert not signed_in(client)


def test_a_new_password_ends_every_session_and_token(app, api):
    client = WebClient(app).login("clerk")
    token = api.token("clerk")
    api.call("PUT", "/api/v1/users/clerk/password", "admin", 204, json={"password": "otra-clave-9"})
    assert not signed_in(client)
    assert api.client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    WebClient(app).login("clerk", expect=401)
    assert must_choose_a_password(WebClient(app).login("clerk", "otra-clave-9"))  # an admin's is a reset


def must_choose_a_password(client: WebClient) -> bool:
    response = client.client.get("/web/tasks")
    return response.status_code == 302 and "/web/password" in response.headers["Location"]


def test_the_admin_page_sets_a_password_and_ends_the_sessions(app):
    client = WebClient(app).login("reviewer")
    admin = WebClient(app).login("admin")
    admin.post("/web/admin/users/reviewer/password", {"password": "nueva-clave-1"})
    assert not signed_in(client)
    assert must_choose_a_password(WebClient(app).login("reviewer", "nueva-clave-1"))
    assert signed_in(admin)


def test_a_user_changes_their_own_password_only_with_the_current_one(api):
    api.call("PUT", "/api/v1/users/clerk/password", "clerk", 422, json={"password": "otra-clave-9"})
    api.call("PUT", "/api/v1/users/clerk/password", "clerk", 422,
             json={"password": "otra-clave-9", "current_password": "not-it-at-all"})
    api.call("PUT", "/api/v1/users/clerk2/password", "clerk", 403, json={"password": "otra-clave-9"})
    api.call("PUT", "/api/v1/users/clerk/password", "clerk", 204,
             json={"password": "otra-clave-9", "current_password": PASSWORD})
    r = api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": "otra-clave-9"})
    assert r.status_code == 200


def test_moving_the_engine_clock_does_not_end_a_session(app, api):
    client = WebClient(app).login("clerk")
    api.move_clock("2026-04-01T12:00:00-04:00")
    assert signed_in(client)
    assert time.time()  # the session's own clock is the machine's


def test_guessing_ones_current_password_through_the_api_is_throttled_like_a_login(api):
    # A stolen token must not become a way to guess the password behind it: five wrong current
    # passwords (the login policy's limit per username), then 429 even for the right one.
    for _ in range(5):
        api.call("PUT", "/api/v1/users/clerk/password", "clerk", 422,
                 json={"password": "otra-clave-9", "current_password": "adivinanza-mala"})
    refused = api.call("PUT", "/api/v1/users/clerk/password", "clerk", 429,
                       json={"password": "otra-clave-9", "current_password": PASSWORD})
    assert int(refused.headers["Retry-After"]) > 0
    # The new password was never set (the login answers 401, or 429 while the same throttle holds).
    assert api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": "otra-clave-9"}).status_code in (401, 429)
