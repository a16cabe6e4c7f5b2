"""Two timer workers running the reminder round at the same instant on PostgreSQL (API.md "Work
management": each reminder once). The first holds its transaction open, the reminders and the
digest written but not committed; the second starts its round meanwhile, sees the same tasks due
and waits on the first one's rows; once the first commits, the second sends nothing. Then two
workers hand the outbox to SMTP at once, and every address gets its mail once."""
from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import datetime, timedelta

import pytest
from sqlalchemy import create_engine, text

from engine.commands import reminders
from engine.commands.digest import send_digests
from engine.identity.actor import SYSTEM
from engine.registries.notifications import SmtpSettings
from engine.worker import work_round
from tests.support.diagrams import reminder_flow
from tests.support.smtp_sink import SmtpSink

BOUND = 30  # seconds: a generous "does not hang" bound, never a timing assertion


def _in_thread(results: dict, name: str, call) -> threading.Thread:
    def target():
        try:
            results[name] = call()
        except BaseException as exc:  # reported by the assertion on results
            results[name] = exc
    thread = threading.Thread(target=target, name=f"worker-{name}", daemon=True)
    thread.start()
    return thread


def _until_a_backend_waits_on_a_lock(database_url: str, stop: threading.Event) -> None:
    """The second worker is inside its round, stopped by the first one's uncommitted rows."""
    watcher = create_engine(database_url)
    deadline = time.monotonic() + BOUND
    try:
        with watcher.connect() as conn:
            while time.monotonic() < deadline:
                waiting = conn.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'")).scalar()
                conn.rollback()
                if waiting:
                    return
                stop.wait(0.01)  # a poll of the server's own view, not a guess at how long it takes
    finally:
        watcher.dispose()
    raise AssertionError("the second worker never reached the first one's reminder rows")


def test_two_workers_racing_the_round_send_each_reminder_and_digest_once(api, engine, database_url):
    if engine.db.is_sqlite:
        pytest.skip("SQLite has one writer at a time; the race is PostgreSQL's")
    api.deploy("test_reminder", reminder_flow())
    cases = [api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(3)]
    api.post(f"/api/v1/tasks/{api.open_task(cases[0], 'review')['id']}/claim", "reviewer")
    for username in ("reviewer", "both", "boss"):
        api.put(f"/api/v1/users/{username}", "admin", {"email": f"{username}@agencia.pr.gov"})
    api.put("/api/v1/me/preferences", "boss", {"daily_digest": True})
    due = datetime.fromisoformat(api.open_task(cases[0], "review")["due_at"])
    # Straight to 10:00 two days before, without the clock move's own reminder round.
    engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, due - timedelta(days=2, hours=14)), SYSTEM)

    held, release, results = threading.Event(), threading.Event(), {}

    def first_round(ctx):
        counts = reminders.send_reminders(ctx)
        counts["digests"] = send_digests(ctx)
        held.set()
        assert release.wait(BOUND)
        return counts

    first = _in_thread(results, "first", lambda: engine.execute(first_round, SYSTEM))
    assert held.wait(BOUND), results
    second = _in_thread(results, "second", lambda: reminders.run(engine))
    try:
        _until_a_backend_waits_on_a_lock(database_url, release)
    finally:
        release.set()
        first.join(BOUND)
        second.join(BOUND)
    assert results["first"] == {"due_soon": 5, "overdue": 0, "tasks": 3, "digests": 1}, results
    assert results["second"] == {"due_soon": 0, "overdue": 0, "digests": 0}, results

    with SmtpSink() as sink:
        smtp = SmtpSettings(host="127.0.0.1", port=sink.port, timeout=5)
        barrier = threading.Barrier(2, timeout=BOUND)
        rounds = [_in_thread(results, f"smtp{n}", lambda n=n: (barrier.wait(), work_round(engine, f"w{n}", smtp=smtp)))
                  for n in (1, 2)]
        for thread in rounds:
            thread.join(BOUND)
        assert not isinstance(results["smtp1"], BaseException) and not isinstance(results["smtp2"], BaseException)
    # The held task went to its holder; the two free ones to the lane's people with an address
    # (reviewer and both; clerk2-less lanes aside), and the digest to the supervisor: once each.
    assert Counter(m["To"] for m in sink.messages) == {"reviewer@agencia.pr.gov": 3, "both@agencia.pr.gov": 2,
                                                       "boss@agencia.pr.gov": 1}
    assert results["smtp1"][1]["sent"] + results["smtp2"][1]["sent"] == 6
