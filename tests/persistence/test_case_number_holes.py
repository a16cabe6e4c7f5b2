"""Case numbers on PostgreSQL (migration 0035): a start draws from a sequence and holds no lock for
the rest of its transaction, and the numbers stay gap-free: a number whose start failed, or whose
connection was killed, is found by the timer worker's HoleFinder and given to the next start; a
number whose start is still running is never taken for one."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy import text

from engine.commands import accounts
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.errors import ValidationFailed
from engine.identity.actor import SYSTEM, Actor
from engine.runtime.number_holes import HoleFinder
from tests.conftest import PG_URL
from tests.support.diagrams import parallel_flow

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")

CLERK = Actor("clerk", frozenset({"test_clerk"}))
OWNER = Actor("owner", frozenset({"process_owner"}))
KEY = "test_parallel"
DOES_NOT_HANG = 60  # seconds: a bound that proves "does not wait for the other start", not a timing


def number(n: int) -> str:
    return f"TES-2024-{n:06d}"


@pytest.fixture
def deployed(engine):
    engine.execute(deploy, OWNER, KEY, parallel_flow())
    return engine


def start(engine) -> str:
    return engine.execute(start_case, CLERK, KEY, {})["case_number"]


def failing_start(ctx):
    """A start that fails after its number was drawn: the command rolls back whole."""
    start_case(ctx, KEY, {})
    raise ValidationFailed("refused after the draw", {"x": ["refused"]})


class HeldStart(threading.Thread):
    """A start that has drawn its number and waits, its transaction open, until `release`."""

    def __init__(self, engine):
        super().__init__(daemon=True)
        self.engine, self.drawn, self.gate = engine, threading.Event(), threading.Event()
        self.result = self.error = self.pid = None

    def command(self, ctx):
        self.pid = ctx.conn.execute(text("SELECT pg_backend_pid()")).scalar()
        case = start_case(ctx, KEY, {})
        self.drawn.set()
        assert self.gate.wait(DOES_NOT_HANG)
        return case

    def run(self):
        try:
            self.result = self.engine.execute(self.command, CLERK)["case_number"]
        except Exception as exc:  # noqa: BLE001 - the test reads it
            self.error = exc

    def __enter__(self):
        self.start()
        assert self.drawn.wait(DOES_NOT_HANG)
        return self

    def __exit__(self, *exc):
        self.gate.set()
        self.join(DOES_NOT_HANG)


def counter(engine) -> int:
    with engine.db.write_engine.connect() as conn:
        return conn.execute(text("SELECT last FROM case_counter WHERE prefix = 'TES' AND year = 2024")).scalar()


def holes_and_last(engine) -> tuple[list[int], int]:
    with engine.db.write_engine.connect() as conn:
        holes = list(conn.execute(text("SELECT n FROM case_number_hole ORDER BY n")).scalars())
        last = conn.execute(text("SELECT last FROM case_counter WHERE prefix = 'TES' AND year = 2024")).scalar()
    return holes, last


def test_a_start_between_its_draw_and_its_commit_holds_up_no_other_start(deployed):
    # The year's first start makes its sequence (a start at the same moment waits for that one).
    assert start(deployed) == number(1)
    with HeldStart(deployed) as held:
        # With the counter's row lock of before, this start waited for the held one to commit.
        assert start(deployed) == number(3)
    assert held.result == number(2) and held.error is None


def test_a_number_whose_start_failed_goes_to_the_next_start_after_the_worker_finds_it(deployed):
    finder = HoleFinder()
    assert start(deployed) == number(1)
    with pytest.raises(ValidationFailed):
        deployed.execute(failing_start, CLERK)  # drew 2, rolled back
    assert start(deployed) == number(3)
    assert finder.round(deployed) == {} and holes_and_last(deployed) == ([], 1)  # 2 drawn since its first look
    assert finder.round(deployed) == {"TES-2024": 1} and holes_and_last(deployed) == ([2], 3)
    assert [start(deployed), start(deployed)] == [number(2), number(4)]
    finder.round(deployed)
    assert holes_and_last(deployed) == ([], 4)


def test_a_number_whose_start_is_still_running_is_never_taken_for_a_hole(deployed):
    finder = HoleFinder()
    assert start(deployed) == number(1)
    with HeldStart(deployed) as held:
        assert finder.round(deployed) == {}
        # Drawn before the previous round and still held by no case: the finder waits for the start
        # (200 ms), gives up and leaves it.
        assert finder.round(deployed) == {}
        assert holes_and_last(deployed) == ([], 1)
    assert held.result == number(2)
    finder.round(deployed)
    assert holes_and_last(deployed) == ([], 2)
    assert start(deployed) == number(3)


def test_a_number_whose_connection_was_killed_goes_to_the_next_start(deployed):
    finder = HoleFinder()
    assert start(deployed) == number(1)
    with HeldStart(deployed) as held:
        with deployed.db.write_engine.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": held.pid}).scalar()
            conn.commit()
    assert held.result is None and held.error is not None
    assert start(deployed) == number(3)
    finder.round(deployed)
    assert finder.round(deployed) == {"TES-2024": 1}
    assert start(deployed) == number(2)


def test_two_finders_keep_a_hole_once(deployed):
    first, second = HoleFinder(), HoleFinder()
    assert start(deployed) == number(1)
    with pytest.raises(ValidationFailed):
        deployed.execute(failing_start, CLERK)
    for finder in (first, second, first, second):
        finder.round(deployed)
    assert holes_and_last(deployed) == ([2], 2)
    assert start(deployed) == number(2) and start(deployed) == number(3)


def test_a_failed_first_start_of_the_year_takes_its_sequence_with_it(deployed):
    with pytest.raises(ValidationFailed):
        deployed.execute(failing_start, CLERK)
    assert start(deployed) == number(1)


def test_many_clerks_starting_at_once_some_failing_leave_no_number_unused(deployed):
    errors, lock = [], threading.Lock()
    assert start(deployed) == number(1)  # the year's sequence made (a failed first start takes it back)

    def clerk(k: int) -> None:
        for i in range(6):
            try:
                deployed.execute(failing_start if (k + i) % 3 == 0 else start_case, CLERK,
                                 *(() if (k + i) % 3 == 0 else (KEY, {})))
            except ValidationFailed:
                pass
            except Exception as exc:  # noqa: BLE001 - asserted empty below
                with lock:
                    errors.append(exc)

    threads = [threading.Thread(target=clerk, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(DOES_NOT_HANG)
    assert errors == [] and not any(t.is_alive() for t in threads)
    finder = HoleFinder()
    finder.round(deployed)
    finder.round(deployed)
    holes, last = holes_and_last(deployed)
    assert len(holes) == 12 and last == 37
    refilled = [start(deployed) for _ in holes]
    assert refilled == [number(n) for n in holes]
    with deployed.db.write_engine.connect() as conn:
        numbers = sorted(conn.execute(text("SELECT case_number FROM process_instance")).scalars())
    assert numbers == [number(n) for n in range(1, 38)]
    assert start(deployed) == number(38)


def test_the_migration_carries_each_counter_into_its_sequence_and_back(tmp_path, worker_id):
    from tests.support.migrations import alembic_to, scratch_engine

    engine = scratch_engine(tmp_path, worker_id, "numbers")
    try:
        for role in ("test_clerk", "test_reviewer"):
            engine.execute(accounts.add_role, SYSTEM, role, role, role)
        engine.execute(deploy, OWNER, KEY, parallel_flow())
        assert [start(engine) for _ in range(3)] == [number(1), number(2), number(3)]
        alembic_to(engine, "0034", down=True)  # back to the counter's upsert: the counter at 3
        assert counter(engine) == 3
        alembic_to(engine, "head")
        assert start(engine) == number(4)
        HoleFinder().round(engine)
        assert holes_and_last(engine) == ([], 4)
        alembic_to(engine, "0034", down=True)
        assert counter(engine) == 4
        alembic_to(engine, "head")
    finally:
        engine.db.dispose()


def test_a_round_with_nothing_new_drawn_locks_and_writes_nothing(deployed):
    finder = HoleFinder()
    assert start(deployed) == number(1)
    finder.round(deployed)
    row = "SELECT xmin::text, xmax::text, last FROM case_counter WHERE prefix = 'TES' AND year = 2024"
    with deployed.db.write_engine.connect() as conn:
        before = conn.execute(text(row)).one()
    for _ in range(3):  # every worker, every second
        assert finder.round(deployed) == {}
    with deployed.db.write_engine.connect() as conn:
        assert conn.execute(text(row)).one() == before and before[2] == 1
