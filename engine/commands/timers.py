"""Fire due timers exactly once, and move the manual clock through every timer on the way."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import and_, bindparam, case as when, or_, select, update

from engine.kernel import access
from engine.persistence.models import ProcessInstance, Timer
from engine.persistence.tables import INSTANCE
from engine.persistence.types import UTCDateTime
from engine.runtime import records
from engine.runtime.case import Case
from engine.letters.issue import issue_letters

TIMER = Timer.__table__
# A suspended case's timers wait (API.md §Legal time): the worker never picks them.
_NOT_SUSPENDED = ~select(ProcessInstance.id).where(ProcessInstance.id == Timer.instance_id,
                                                   ProcessInstance.suspended_since.is_not(None)).exists()

LEASE = timedelta(minutes=2)  # the default of TRAMITE_TIMER_LEASE_SECONDS (engine.config.settings)
MAX_ATTEMPTS = 5


def lease_due_timers(ctx, owner: str, limit: int = 50, lease: timedelta = LEASE) -> list[int]:
    """Lease up to `limit` due timers to `owner`, earliest first; other workers skip rows this one
    has locked. One statement: the pick and the lease are one round trip."""
    access.require_engine(ctx.actor, "fire timers")
    real_now = datetime.now(timezone.utc)
    due = (select(TIMER.c.id).where(TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False),
                                    TIMER.c.due_at <= ctx.now,
                                    or_(TIMER.c.lock_expires_at.is_(None), TIMER.c.lock_expires_at < real_now),
                                    _NOT_SUSPENDED)
           .order_by(TIMER.c.due_at, TIMER.c.id).limit(limit).with_for_update(skip_locked=True))
    leased = ctx.conn.execute(update(TIMER).where(TIMER.c.id.in_(due.scalar_subquery()))
                              .values(lock_owner=owner, lock_expires_at=real_now + lease)
                              .returning(TIMER.c.id, TIMER.c.due_at)).all()
    return [row.id for row in sorted(leased, key=lambda row: (row.due_at, row.id))]


def next_due_timer(ctx, until: datetime) -> tuple[int, datetime] | None:
    access.require_engine(ctx.actor, "fire timers")
    row = ctx.session.execute(
        select(Timer.id, Timer.due_at).where(Timer.fired_at.is_(None), Timer.cancelled.is_(False),
                                             Timer.attempts < MAX_ATTEMPTS, Timer.due_at <= until, _NOT_SUSPENDED)
        .order_by(Timer.due_at, Timer.id).limit(1)).first()
    return (row.id, row.due_at) if row else None


# The timer and its case row, both locked, in one statement (a firing used to read them in two).
# What a firing reads of a timer and its case; a lot (engine/commands/timer_lot.py) reads the same for
# many timers.
TIMER_AND_CASE = (select(TIMER.c.id, TIMER.c.instance_id, TIMER.c.spiff_task_id, TIMER.c.element_id, TIMER.c.name,
                         TIMER.c.due_at, TIMER.c.fired_at, TIMER.c.cancelled, *records.labelled_columns("case_"))
                  .select_from(TIMER.join(INSTANCE, INSTANCE.c.id == TIMER.c.instance_id)))
_TIMER_AND_CASE = TIMER_AND_CASE.where(TIMER.c.id == bindparam("timer_id")).with_for_update(of=[TIMER, INSTANCE])


_RELEASE = update(TIMER).where(TIMER.c.id == bindparam("p_id")).values(lock_owner=None, lock_expires_at=None)
_CANCEL = update(TIMER).where(TIMER.c.id == bindparam("p_id")).values(cancelled=True)
_NOW = bindparam("p_now", type_=UTCDateTime())
_DUE_BY_NOW = and_(TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False), TIMER.c.due_at <= _NOW)
DONE_WITH = update(TIMER).where(TIMER.c.id == bindparam("p_id")).values(
    fired_at=when((_DUE_BY_NOW, _NOW), else_=TIMER.c.fired_at), lock_owner=None, lock_expires_at=None)


def fire_timer(ctx, timer_id: int) -> bool:
    """Fire one timer in this transaction; False if it was already fired or cancelled."""
    access.require_engine(ctx.actor, "fire timers")
    return fire_read(ctx, ctx.conn.execute(_TIMER_AND_CASE, {"timer_id": timer_id}).first())


def fire_read(ctx, timer, state_rows: list | None = None, open_rows: list | None = None, writes=None) -> bool:
    """Fire `timer`, a row of `_TIMER_AND_CASE` (the timer and its case, both locked). A lot
    (engine/commands/timer_lot.py) hands its case's workflow and open task rows, read for the
    whole lot, and `writes`, which runs the writes nobody reads back once for the lot."""
    if timer is None or timer.fired_at is not None or timer.cancelled:
        return False
    timer_id = timer.id
    record = records.from_labelled(timer._mapping, "case_")
    writes = writes if writes is not None else ctx.conn
    if record.suspended_since is not None:
        # Suspended after this timer was picked: the case row's lock orders the two, and the
        # timer waits for the resumption (which moves it later).
        writes.execute(_RELEASE, {"p_id": timer_id})
        return False
    if record.status != "active":
        writes.execute(_CANCEL, {"p_id": timer_id})
        return False
    case = Case.open(ctx, timer.instance_id, record, state_rows)
    case.open_task_rows, case.writes = open_rows, writes if writes is not ctx.conn else None
    if case.instance.notes.get("timers") == 1:
        # Its only running timer is this one, read and locked just now: close() need not read it again.
        case.running_timers = [{"id": timer.id, "spiff_task_id": timer.spiff_task_id, "element_id": timer.element_id,
                                "name": timer.name, "due_at": timer.due_at}]
    ctx.audit("timer_fired", instance_id=timer.instance_id, element_id=timer.element_id,
              data={"name": timer.name, "due_at": timer.due_at}, actor="engine")
    case.advance()
    issue_letters(ctx, case)
    case.close()
    # close() marked it fired if the library ran it, and released it: nothing is left to write.
    if timer_id in case.settled_timers:
        return True
    # A timer it could not see is still done with. A cycle timer the library re-armed (R3/PT1H: its
    # task waits on, due an hour later) is not: close() moved its row to the next repetition.
    writes.execute(DONE_WITH, {"p_id": timer_id, "p_now": ctx.now})
    return True


def record_failure(ctx, timer_id: int, error: str) -> None:
    """Back off after a failed firing; after the last attempt the case goes to error, visibly."""
    access.require_engine(ctx.actor, "fire timers")
    timer = ctx.session.get(Timer, timer_id)
    if timer is None:
        return
    timer.attempts += 1
    timer.last_error = error[:2000]
    timer.lock_owner = None
    timer.lock_expires_at = datetime.now(timezone.utc) + timedelta(seconds=2 ** min(timer.attempts, 10))
    if timer.attempts >= MAX_ATTEMPTS:
        record = records.load(ctx.conn, timer.instance_id)
        if record is not None and record.status == "active":
            record.status = "error"
            record.error_message = f"timer {timer.element_id} failed {timer.attempts} times: {error[:500]}"
            record.error_element = timer.element_id
            records.save(ctx.conn, record)
        ctx.audit("error", instance_id=timer.instance_id, element_id=timer.element_id, actor="engine",
                  message=f"timer failed after {timer.attempts} attempts: {error[:500]}")
