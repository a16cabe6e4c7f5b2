"""Bearer tokens that expired, were revoked at logout, belong to a deactivated user, or are not
tokens at all: every one is 401, and revocation touches only the token that logged out."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select, update

from engine.identity.accounts import TOKEN_LIFETIME
from engine.persistence.models import ApiToken, User
from tests.conftest import PASSWORD


def new_token(api, username="clerk") -> str:
    r = api.client.post("/api/v1/auth/token", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200
    return r.get_json()["token"]


def me(api, token: str | None, scheme="Bearer"):
    headers = {"Authorization": f"{scheme} {token}"} if token is not None else {}
    return api.client.get("/api/v1/me", headers=headers)


def assert_unauthorized(response):
    body = response.get_json()
    assert response.status_code == 401, body
    assert body["code"] == 401 and body["status"] == "Unauthorized" and body["message"]


def set_expiry(engine, when: datetime):
    """Time travel for tokens: they expire on the machine's clock, so the row's expiry moves."""
    with engine.db.transaction() as session:
        session.execute(update(ApiToken).values(expires_at=when))


def test_a_token_lasts_twelve_hours_of_machine_time(api):
    before = datetime.now(timezone.utc)
    r = api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": PASSWORD})
    expires = datetime.fromisoformat(r.get_json()["expires_at"])
    assert before + TOKEN_LIFETIME <= expires <= datetime.now(timezone.utc) + TOKEN_LIFETIME


def test_an_expired_token_is_refused_everywhere(api, engine):
    token = new_token(api)
    assert me(api, token).status_code == 200
    set_expiry(engine, datetime.now(timezone.utc) - timedelta(seconds=1))
    assert_unauthorized(me(api, token))
    assert_unauthorized(api.client.get("/api/v1/tasks", headers={"Authorization": f"Bearer {token}"}))
    assert_unauthorized(api.client.post("/api/v1/auth/logout", headers={"Authorization": f"Bearer {token}"}))
    assert me(api, new_token(api)).status_code == 200  # logging in again is the way back


def test_a_token_still_inside_its_lifetime_works(api, engine):
    token = new_token(api)
    set_expiry(engine, datetime.now(timezone.utc) + timedelta(minutes=1))
    assert me(api, token).status_code == 200


def test_moving_the_engine_clock_does_not_expire_tokens(api):
    token = new_token(api)
    api.move_clock("2026-04-01T12:00:00-04:00")  # two years of business time
    assert me(api, token).status_code == 200


def test_logout_revokes_only_the_token_that_logged_out(api):
    first, second = new_token(api), new_token(api)
    out = api.client.post("/api/v1/auth/logout", headers={"Authorization": f"Bearer {first}"})
    assert out.status_code == 204
    assert_unauthorized(me(api, first))
    assert_unauthorized(api.client.post("/api/v1/auth/logout", headers={"Authorization": f"Bearer {first}"}))
    assert me(api, second).status_code == 200
    assert me(api, new_token(api)).status_code == 200


def test_a_deactivated_user_token_stops_working(api, engine):
    token = new_token(api)
    with engine.db.transaction() as session:
        session.execute(update(User).where(User.username == "clerk").values(active=False))
    assert_unauthorized(me(api, token))
    refused = api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": PASSWORD})
    assert refused.status_code == 401


def test_the_database_holds_only_token_hashes(api, engine):
    token = new_token(api)
    hashes = engine.read(lambda s: list(s.scalars(select(ApiToken.token_hash))))
    assert hashes and token not in hashes


@pytest.mark.parametrize("header", [
    None, "", "Bearer", "Bearer    ", "Basic Y2xlcms6c2VjcmV0by0xMjM=", "Token abc", "Bearer not-a-token",
    "Bearer " + "x" * 10_000, "Bearer ' OR 1=1 --",
])
def test_anything_but_a_live_token_is_401(api, header):
    headers = {"Authorization": header} if header is not None else {}
    assert_unauthorized(api.client.get("/api/v1/me", headers=headers))


def test_the_scheme_is_case_insensitive(api):
    assert me(api, new_token(api), scheme="bearer").status_code == 200


def test_an_unknown_or_inactive_username_costs_the_same_password_hashing(api, engine, monkeypatch):
    # Answering an unknown username without hashing made it measurably faster than a wrong
    # password, which told which usernames exist. Count the key derivations, not the clock.
    import hashlib
    derivations = []
    real = hashlib.scrypt
    monkeypatch.setattr(hashlib, "scrypt", lambda *a, **k: derivations.append(1) or real(*a, **k))
    with engine.db.transaction() as session:
        session.execute(update(User).where(User.username == "reviewer").values(active=False))

    def attempts(username, password):
        before = len(derivations)
        r = api.client.post("/api/v1/auth/token", json={"username": username, "password": password})
        return r.status_code, len(derivations) - before

    assert attempts("clerk", "wrong-password") == (401, 1)
    assert attempts("nobody-by-this-name", "wrong-password") == (401, 1)
    assert attempts("reviewer", PASSWORD) == (401, 1)
    assert attempts("clerk", PASSWORD) == (200, 1)
