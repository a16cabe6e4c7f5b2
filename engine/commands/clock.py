"""Moving the manual clock (demo and training; admin): every timer due on the way fires at its own
instant, in due order, before the clock settles on the target (API.md §Clock).

A move is several transactions — one per timer, so that a failing case does not hold back the
others — opened by `move_clock`; its first and last are the commands below, which check who moves
the clock and where to.
"""
from __future__ import annotations

import logging
from datetime import datetime

from engine.commands.legal_time import next_due_resumption, resume_case
from engine.commands import reminders
from engine.commands.timers import fire_timer, next_due_timer, record_failure
from engine.config.clock import parse_instant
from engine.errors import Conflict, NotFound, ValidationFailed
from engine.identity.actor import SYSTEM
from engine.kernel import access

log = logging.getLogger("tramite.timers")
MAX_FIRINGS_PER_MOVE = 100_000


def _manual(clock) -> None:
    if not clock.manual:
        raise NotFound("the clock can be moved only when the server runs with TRAMITE_CLOCK=manual")


def _instant(target: datetime | str) -> datetime:
    """A client's ISO instant (with its offset), or a datetime a page computed already."""
    if isinstance(target, datetime):
        return target
    try:
        return parse_instant(target)
    except ValueError as exc:
        raise ValidationFailed("bad instant", {"now": [str(exc)]}) from None


def check_move(ctx, target: datetime) -> None:
    """Refuse before any timer fires: an admin's move, forward only."""
    access.require_admin(ctx.actor, "move the clock")
    if target < ctx.now:
        raise Conflict(f"time never moves backwards: the clock reads {ctx.now.isoformat()}",
                       code="CLOCK_BACKWARDS")


def set_clock(ctx, clock, target: datetime) -> None:
    """The move's last step: the clock reads `target`, on record (the timers on the way have fired)."""
    _manual(clock)
    check_move(ctx, target)
    clock.move_to(ctx.conn, target)
    ctx.audit("clock_moved", data={"to": target})


def move_clock(engine, actor, target: datetime | str) -> int:
    """Move the manual clock to `target`, firing every timer due on the way at its own instant;
    returns how many fired."""
    _manual(engine.clock)
    target = _instant(target)
    engine.execute(check_move, actor, target)
    fired = 0
    for _ in range(MAX_FIRINGS_PER_MOVE):
        due = engine.execute(next_due_timer, SYSTEM, target)
        ending = engine.execute(next_due_resumption, SYSTEM, target)
        if ending is not None and (due is None or ending[1] <= due[1]):
            # A suspension ends on the way (its `until` day is over): the case resumes at that
            # instant, and its deadlines, moved later, fire in their turn.
            at = max(ending[1], engine.now())

            def resume(ctx, instance_id=ending[0], at=at):
                engine.clock.move_to(ctx.conn, at)
                return resume_case(ctx, instance_id, at)

            engine.execute(resume, SYSTEM, now=at)
            continue
        if due is None:
            break
        timer_id, due_at = due
        at = max(due_at, engine.now())

        def step(ctx, timer_id=timer_id, at=at):
            engine.clock.move_to(ctx.conn, at)
            return fire_timer(ctx, timer_id)

        try:
            fired += 1 if engine.execute(step, SYSTEM, now=at) else 0
        except Exception as exc:
            log.exception("timer %s failed during a clock move", timer_id)
            engine.execute(record_failure, SYSTEM, timer_id, str(exc))
    engine.execute(set_clock, actor, engine.clock, target)
    reminders.run(engine)  # at the clock's new reading, as the timer worker's round would
    return fired
