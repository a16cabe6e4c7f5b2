"""A database restart or failover under a running app (engine/kernel/outage.py, api/errors.py): a
request that meets a dead connection answers 503 with Retry-After and the API's error body, never a
500 with a traceback; the pools let go of every dead connection at the first, so the requests after
it are served; and the errors that are not an outage stay what they were."""
from __future__ import annotations

import pytest
from sqlalchemy import Integer, bindparam, create_engine, select, text
from sqlalchemy.exc import DBAPIError

from engine.errors import DatabaseUnavailable
from engine.kernel import outage
from engine.persistence import compiled, pg_engines

from tests.conftest import PG_URL
from tests.support.diagrams import rules_flow
from tests.support.outage import end_every_session, fill, restart_under

needs_pg = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")


def _assert_unavailable(response) -> None:
    assert response.status_code == 503, (response.status_code, response.get_data(as_text=True)[:500])
    assert response.headers["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)
    body = response.get_json()
    assert body["code"] == 503 and body["status"] == "Service Unavailable"
    assert "database cannot be reached" in body["message"] and "may or may not have been saved" in body["message"]


@needs_pg
def test_reads_after_a_restart_are_served_on_fresh_connections(api, app, caplog):
    """A read that meets a dropped connection is read once more (engine/persistence/reconnect.py)."""
    api.token("clerk")
    restart_under(app)
    assert [api.call("GET", path, "clerk").status_code
            for path in ("/api/v1/tasks", "/api/v1/me", "/api/v1/tasks", "/api/v1/instances")] == [200] * 4
    assert "dropped database connection; reading once more" in caplog.text
    assert "unexpected error" not in caplog.text


@needs_pg
def test_a_command_after_a_restart_is_refused_with_503_once_and_saves_nothing_half(api, app, caplog):
    api.deploy("test_rules", rules_flow())
    token = api.token("clerk")
    restart_under(app)
    answers = []
    for _ in range(4):  # its bearer check runs on a read connection held for it, then the command on a write one
        answers.append(api.client.post("/api/v1/processes/test_rules/instances", json={"variables": {}},
                                       headers={"Authorization": f"Bearer {token}"}))
        if answers[-1].status_code != 503:
            break
    statuses = [r.status_code for r in answers]
    assert statuses == [503, 201], statuses  # the bearer check read again; the command is not retried
    for response in answers[:-1]:
        _assert_unavailable(response)
    # Nothing of a refused start stays: the one case is the one acknowledged, numbered first.
    cases = api.get("/api/v1/instances", "boss")
    assert [c["case_number"] for c in cases] == ["TES-2024-000001"]
    assert "unexpected error" not in caplog.text
    again = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    assert again["case_number"] == "TES-2024-000002"


@needs_pg
def test_a_write_request_s_bearer_check_lets_go_of_every_dead_connection_at_the_first():
    """The bearer check of a write runs below SQLAlchemy's Connection (compiled.first_on), which on
    a lost connection invalidates the whole pool: without that, each dead pooled connection failed
    one request (3 of 3 here)."""
    pool = pg_engines.read_engine(PG_URL)
    try:
        fill(pool, 3)
        end_every_session(PG_URL)
        one = select(bindparam("x", type_=Integer).label("v"))
        outcomes = []
        for n in range(4):
            try:
                outcomes.append(compiled.first_on(pool, one, {"x": n})[0])
            except DBAPIError as exc:
                assert exc.connection_invalidated and outage.unavailable(exc) is not None
                outcomes.append("lost")
        assert outcomes == ["lost", 1, 2, 3]
    finally:
        pool.dispose()


def test_errors_that_are_not_an_outage_stay_what_they_were(engine):
    """A statement's own error (here a syntax error, on either database) and what is no database
    error at all are not a 503."""
    with pytest.raises(DBAPIError) as syntax:
        with engine.db.write_engine.connect() as conn:
            conn.execute(text("SELEC 1"))
    assert outage.unavailable(syntax.value) is None
    assert outage.unavailable(ValueError("no database here")) is None


@needs_pg
def test_a_server_that_refuses_connections_is_an_outage_and_a_statement_timeout_is_not(engine):
    closed = create_engine("postgresql+psycopg://nobody:x@127.0.0.1:9/none", connect_args={"connect_timeout": 5})
    with pytest.raises(DBAPIError) as refused:
        closed.connect()
    assert isinstance(outage.unavailable(refused.value), DatabaseUnavailable)
    with pytest.raises(DBAPIError) as timed_out:
        with engine.db.write_engine.connect() as conn:
            conn.execute(text("SET LOCAL statement_timeout = '10ms'"))
            conn.execute(text("SELECT pg_sleep(1)"))
    assert timed_out.value.orig.sqlstate == "57014" and outage.unavailable(timed_out.value) is None


@needs_pg
@pytest.mark.parametrize("batch", [1, 3])
def test_a_timer_firing_that_meets_a_restart_is_not_counted_against_the_timer_and_fires_after(
        api, engine, monkeypatch, batch):
    """A failover while the worker fires (its connection ended under it) ends the round: no attempt of
    the five a timer has before its case goes to error is spent, and the next round fires each once.
    Before, the firing failed, the pool gave record_failure a fresh connection, and it counted."""
    from datetime import timedelta

    from engine import worker
    from engine.config.clock import parse_instant
    from engine.identity.actor import SYSTEM
    from engine.persistence.models import Timer
    from tests.support.diagrams import deadline_flow

    api.deploy("test_deadline", deadline_flow())
    cases = [api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(3)]
    engine.execute(lambda ctx: engine.clock.move_to(ctx.session, parse_instant("2024-05-01T00:00:00-04:00")),
                   SYSTEM)
    url = engine.db.write_engine.url.render_as_string(hide_password=False)
    ended = []

    def ending_first(real):
        def command(ctx, *args, **kwargs):
            if not ended:  # the server goes away under the firing's own connection
                ended.append(end_every_session(url))
            return real(ctx, *args, **kwargs)
        return command

    monkeypatch.setattr(worker, "fire_timer", ending_first(worker.fire_timer))
    monkeypatch.setattr(worker, "fire_timers", ending_first(worker.fire_timers))
    lease = timedelta(milliseconds=1)  # so that the next round may lease them again at once
    with pytest.raises(DatabaseUnavailable):
        worker.fire_due(engine, owner="w", batch=batch, lease=lease)
    assert ended
    engine.db.read_engine.dispose()  # its dead connections fail one read of their own (the tests above)
    timers = engine.read(lambda s: [(t.attempts, t.last_error, t.fired_at) for t in s.query(Timer).all()])
    assert timers and all(attempts == 0 and error is None and fired is None for attempts, error, fired in timers)
    assert worker.fire_due(engine, owner="w", batch=batch, lease=lease) == 3
    for case in cases:
        assert api.get(f"/api/v1/instances/{case['id']}", "boss")["outcome"] == "TIMED_OUT"
        history = [e["type"] for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss")]
        assert history.count("timer_fired") == 1


def test_with_the_database_down_the_api_and_the_sign_in_page_answer_503_not_500(caplog):
    """No server where the app's database should be (connections refused): the API's error body and
    the web's page in Spanish, both 503 with Retry-After, one log line each and no traceback."""
    import re

    from api.app import create_app
    from engine.config.settings import Settings

    down = "postgresql+psycopg://nobody:x@127.0.0.1:9/none"  # port 9 (discard): nothing listens here
    app = create_app(Settings(database_url=down, clock_mode="manual", clock_start="2024-04-01T09:00:00-04:00",
                              secret_key="test-secret"), bootstrap=False)
    client = app.test_client()
    _assert_unavailable(client.get("/api/v1/me", headers={"Authorization": "Bearer any-token"}))
    _assert_unavailable(client.post("/api/v1/auth/token", json={"username": "clerk", "password": "x"}))
    assert client.get("/web/login").status_code == 200  # the form itself needs no database
    with client.session_transaction() as session:
        csrf = session.get("_csrf", "")
    page = client.post("/web/login", data={"username": "clerk", "password": "x", "_csrf": csrf})
    assert page.status_code == 503 and page.headers["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.get_data(as_text=True)))
    assert "La base de datos no responde en este momento" in words and "inesperado" not in words
    assert "Traceback" not in caplog.text and "unexpected error" not in caplog.text
    assert caplog.text.count("database unavailable") == 3
