"""The exact totals of the case and task lists (X-Total-Count), read from the totals kept beside
the rows on PostgreSQL (migration 0031; engine/reporting/list_totals.py keeps them).

Each function answers None when the list's filters are not ones the kept totals hold; the list then
counts its rows as before. Kept totals answer: cases by visibility, process, status, outcome, stage
and office; tasks by scope (mine, standing in, available by lane, all), state, process and office.
Overdue cases move with the clock: the days before today are kept (0032, overdue_totals.py) and
today's counted. They do not answer a text search (`q`), the role filter of the case list (a case
with an open task of a lane), overdue tasks, or one case's or one element's tasks: those are
counted exactly over their own indexes. SQLite (one office, small tables) always
counts: the same filters, the same answers; the tests compare both against count(*)."""
from __future__ import annotations

from sqlalchemy import and_, func, literal, or_, select, true, union_all

from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import CASE_TOTAL, TASK_TOTAL
from engine.persistence.tables import INSTANCE
from engine.queries import overdue_totals


def kept(session) -> bool:
    """The totals are kept on PostgreSQL only (its triggers write them)."""
    bind = session.get_bind() if hasattr(session, "get_bind") else session
    return bind.dialect.name == "postgresql"


def _case_filters(table, *, process=None, status=None, outcome=None, stage=None, office=None) -> list:
    return [column == value for column, value in ((table.c.process_key, process), (table.c.status, status),
                                                  (table.c.outcome, outcome), (table.c.stage, stage),
                                                  (table.c.office, office)) if value]


def cases(session, actor: Actor, versions_with_my_lanes, *, role=None, overdue=None, q=None, now=None, **filters):
    """The case list's total, or None when a filter is not one the totals hold.

    A staff member sees the versions they work in (a sum of kept rows) and the cases they started
    in other versions: those are counted exactly over ix_instance_started_by, one short range.
    Overdue (`now`: the list's clock) is kept per due day (engine/queries/overdue_totals.py)."""
    if role or (q and q.strip()) or not kept(session):
        return None
    if overdue:
        return overdue_totals.cases(session, actor, versions_with_my_lanes, now() if callable(now) else now,
                                    _case_filters, **filters)
    wanted = _case_filters(CASE_TOTAL, **filters)
    if access.sees_all_cases(actor):
        return _sum(session, CASE_TOTAL, wanted)
    mine = versions_with_my_lanes()
    in_versions = _sum(session, CASE_TOTAL, [*wanted, CASE_TOTAL.c.definition_id.in_(mine),
                                             access.office_condition(actor, CASE_TOTAL.c.office)]) if mine else 0
    started = session.execute(select(func.count()).select_from(INSTANCE).where(
        INSTANCE.c.started_by == actor.username, INSTANCE.c.definition_id.not_in(mine),
        access.office_condition(actor, INSTANCE.c.office), *_case_filters(INSTANCE, **filters))).scalar()
    return in_versions + started


def tasks(session, actor: Actor, *, scope=None, state="open", process=None, office=None, absent=(),
          instance=None, element_id=None, overdue=None):
    """A task list's total with `task_filters`' meaning (engine/queries/cases.py), or None."""
    if instance or element_id or overdue or not kept(session):
        return None
    roles = sorted(actor.roles) or [""]
    t = TASK_TOTAL.c
    mine = t.assignee == actor.username
    if absent:  # a substitute's own list: the absent users' tasks of the substitute's lanes too
        mine = or_(mine, and_(t.assignee.in_(list(absent)), t.lane.in_(roles)))
    available = and_(t.state == "open", t.assignee.is_(None), t.lane.in_(roles))
    # The parts are disjoint (an assignee or none), so one OR sums them as the list merges them.
    parts = {"mine": mine, "available": available, "all": true()}
    part = parts[scope] if scope in parts else or_(mine, available)
    conditions = [part]
    if state and state != "any":
        conditions.append(t.state == state)
    if process:
        conditions.append(t.process_key == process)
    if office:
        conditions.append(access.office_sql(t.office, office))
    return _sum(session, TASK_TOTAL, conditions)


def _sum(session, table, conditions) -> int:
    return int(session.execute(select(func.coalesce(func.sum(table.c.n), 0)).where(*conditions)).scalar())


def case_values(session, *column_names: str) -> dict[str, list[str]]:
    """The distinct non-null values of case columns the totals key on (stage, outcome, office), each
    in the database's order, read in one statement (the case list's filter choices)."""
    parts = []
    for name in column_names:
        column = CASE_TOTAL.c[name]
        parts.append(select(literal(name).label("k"), column.label("v")).where(column.is_not(None))
                     .group_by(column).having(func.sum(CASE_TOTAL.c.n) > 0))
    found: dict[str, list[str]] = {name: [] for name in column_names}
    for name, value in session.execute(union_all(*parts).order_by("k", "v")):
        found[name].append(value)
    return found


def case_groups(session, *columns: str, statuses=None) -> list[tuple]:
    """(columns..., cases) for each group with cases, from the kept totals."""
    keys = [CASE_TOTAL.c[c] for c in columns]
    query = select(*keys, func.sum(CASE_TOTAL.c.n)).group_by(*keys).having(func.sum(CASE_TOTAL.c.n) > 0)
    if statuses:
        query = query.where(CASE_TOTAL.c.status.in_(statuses))
    return [(*row[:-1], int(row[-1])) for row in session.execute(query.order_by(*keys))]
