"""What operations ask the database: whether it answers, and the figures /metrics reports."""
from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from engine.persistence.models import ProcessInstance, Task, Timer
from engine.persistence.tables import IS_OPEN


def database_answers(conn) -> bool:
    return conn.execute(text("SELECT 1")).scalar() == 1


def figures(session: Session) -> dict:
    """Cases by process and status, open tasks by lane, timers not yet fired: read at scrape time,
    so every worker process reports the same."""
    cases = session.execute(select(ProcessInstance.process_key, ProcessInstance.status, func.count())
                            .group_by(ProcessInstance.process_key, ProcessInstance.status)).all()
    open_tasks = session.execute(select(Task.lane, func.count()).where(IS_OPEN).group_by(Task.lane)).all()
    pending = session.scalar(select(func.count()).select_from(Timer).where(
        Timer.fired_at.is_(None), Timer.cancelled.is_(False)))
    return {"cases": [tuple(r) for r in cases], "open_tasks": [tuple(r) for r in open_tasks],
            "pending_timers": pending}
