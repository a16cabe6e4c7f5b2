"""Login rate limiting over HTTP: failures counted in the database per username and per client
address, 429 with Retry-After once used up, forgotten on success, and shared by every process."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select, update

from engine.identity.login_throttle import FAILURE, LoginPolicy
from tests.conftest import PASSWORD

POLICY = LoginPolicy()  # the defaults the `app` fixture runs with
WINDOW = int(POLICY.window.total_seconds())


def log_in(api, username, password=PASSWORD, address="192.0.2.10"):
    return api.client.post("/api/v1/auth/token", json={"username": username, "password": password},
                           environ_base={"REMOTE_ADDR": address})


def fail(api, username, times, address="192.0.2.10"):
    for _ in range(times):
        assert log_in(api, username, "wrong-password", address).status_code == 401


def age_failures(engine, by: timedelta):
    """Time travel for the throttle: it reads the machine's clock, so its records move instead."""
    with engine.db.transaction() as session:
        for row_id, failed_at in session.execute(select(FAILURE.c.id, FAILURE.c.failed_at)).all():
            session.execute(update(FAILURE).where(FAILURE.c.id == row_id).values(failed_at=failed_at - by))


def stored_failures(engine) -> int:
    return engine.read(lambda s: s.scalar(select(func.count()).select_from(FAILURE)))


def assert_throttled(response, at_most=WINDOW):
    body = response.get_json()
    assert response.status_code == 429, body
    assert body["code"] == 429 and body["status"] == "Too Many Requests"
    assert body["errors"] == {"rule": ["TOO_MANY_LOGIN_ATTEMPTS"]}
    assert body["message_en"] == body["message"] and "try again" in body["message"]
    assert "vuelva a intentarlo" in body["message_es"]
    retry_after = int(response.headers["Retry-After"])
    assert 0 < retry_after <= at_most
    assert str(retry_after) in body["message"] and str(retry_after) in body["message_es"]
    return retry_after


def test_a_username_is_locked_after_its_failures_even_with_the_right_password(api, engine):
    fail(api, "clerk", POLICY.per_username)
    retry_after = assert_throttled(log_in(api, "clerk"))
    assert retry_after > WINDOW - 60
    # A locked attempt is not counted: waiting out the lock is enough to get back in.
    assert_throttled(log_in(api, "clerk", "wrong-password"))
    assert stored_failures(engine) == POLICY.per_username
    # Another user from the same address is not affected by the username's lock.
    assert log_in(api, "clerk2").status_code == 200


def test_the_lock_lifts_as_the_failures_leave_the_window(api, engine):
    fail(api, "clerk", POLICY.per_username)
    age_failures(engine, timedelta(seconds=WINDOW - 120))
    assert_throttled(log_in(api, "clerk"), at_most=120)
    age_failures(engine, timedelta(seconds=121))
    assert log_in(api, "clerk").status_code == 200


def test_a_successful_login_forgets_the_failures(api, engine):
    fail(api, "clerk", POLICY.per_username - 1)
    assert log_in(api, "clerk").status_code == 200
    assert stored_failures(engine) == 0
    fail(api, "clerk", POLICY.per_username - 1)
    assert log_in(api, "clerk").status_code == 200


def test_unknown_usernames_are_counted_like_real_ones(api):
    fail(api, "no-such-user", POLICY.per_username)
    assert_throttled(log_in(api, "no-such-user"))


def test_an_address_spraying_many_usernames_is_locked(api):
    for i in range(POLICY.per_address):
        fail(api, f"guess-{i}", 1, address="198.51.100.7")
    # Every username from that address waits, a real one with its right password too...
    assert_throttled(log_in(api, "reviewer", address="198.51.100.7"))
    # ...while the same user elsewhere logs in.
    assert log_in(api, "reviewer", address="198.51.100.8").status_code == 200


def test_moving_the_engine_clock_does_not_lift_a_lock(api):
    fail(api, "clerk", POLICY.per_username)
    api.move_clock("2026-04-01T12:00:00-04:00")
    assert_throttled(log_in(api, "clerk"))


def test_failures_made_through_another_process_count_here(api, engine, database_url):
    # A separate interpreter with its own app and engine, as a second gunicorn worker would be.
    script = f"""
import json
from api.app import create_app
from engine.config.settings import Settings
app = create_app(Settings(database_url={database_url!r}, clock_mode="manual",
                          clock_start="2024-04-01T12:00:00-04:00", secret_key="x"), bootstrap=False)
client = app.test_client()
codes = [client.post("/api/v1/auth/token", json={{"username": "clerk", "password": "nope-nope"}},
                     environ_base={{"REMOTE_ADDR": "192.0.2.10"}}).status_code
         for _ in range({POLICY.per_username - 1})]
print(json.dumps(codes))
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [401] * (POLICY.per_username - 1)
    fail(api, "clerk", 1)
    assert_throttled(log_in(api, "clerk"))


def test_the_429_is_in_the_openapi_document(api):
    spec = api.client.get("/api/v1/openapi.json").get_json()
    answers = spec["paths"]["/api/v1/auth/token"]["post"]["responses"]
    assert "429" in answers and "Retry-After" in answers["429"]["headers"]
