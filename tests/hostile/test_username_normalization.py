"""The per-username lockout holds however the username is typed: spaces around it or capitals
are the same username, for the throttle and the lookup, on the API's token route and the web login."""
from __future__ import annotations

import pytest

from tests.conftest import PASSWORD
from tests.hostile.test_login_throttle import POLICY, assert_throttled, fail, log_in
from tests.web.conftest import WebClient

SPELLINGS = (" clerk", "clerk ", "\tclerk\n", "CLERK", " Clerk ", "ｃｌｅｒｋ")


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_api_lock_is_not_bypassed_by_another_spelling(api, spelling):
    fail(api, "clerk", POLICY.per_username)
    assert_throttled(log_in(api, spelling))


def test_failures_in_every_spelling_add_up(api):
    for spelling in SPELLINGS[:POLICY.per_username]:
        fail(api, spelling, 1)
    assert_throttled(log_in(api, "clerk"))


def web_login(app, username, password=PASSWORD):
    client = WebClient(app)
    client.client.get("/web/login")
    return client.client.post("/web/login", data={"username": username, "password": password,
                                                  "_csrf": client.csrf()})


def test_the_web_lock_is_not_bypassed_by_spaces(app):
    for _ in range(POLICY.per_username):
        assert web_login(app, "clerk", "wrong-password").status_code == 401
    for spelling in (" clerk", "clerk  ", "Clerk"):
        assert web_login(app, spelling).status_code == 429


def test_the_web_and_the_api_share_one_count(app, api):
    for _ in range(POLICY.per_username - 1):
        assert web_login(app, " clerk", "wrong-password").status_code == 401
    fail(api, "CLERK ", 1)
    assert_throttled(log_in(api, "clerk"))
    assert web_login(app, "clerk").status_code == 429


def test_any_spelling_of_a_right_username_signs_in(app, api):
    assert log_in(api, "  Clerk ").status_code == 200
    assert log_in(api, "  Clerk ").get_json()["user"]["username"] == "clerk"
    assert web_login(app, " CLERK").status_code == 302


def test_a_user_created_with_capitals_is_one_user(api):
    body = {"username": "Ana.Lopez", "password": PASSWORD, "roles": ["test_clerk"]}
    assert api.post("/api/v1/users", "admin", body, expect=201)["username"] == "ana.lopez"
    api.post("/api/v1/users", "admin", {**body, "username": "ana.LOPEZ"}, expect=409)
    assert log_in(api, "ANA.lopez").status_code == 200


def test_normalization_is_one_spelling():
    from engine.identity.accounts import normalize_username
    assert {normalize_username(s) for s in SPELLINGS} == {"clerk"}
