"""List and detail queries over the projection tables, with the visibility rules of each role."""
from __future__ import annotations

from sqlalchemy import and_, bindparam, exists, func, or_, select, true, union_all
from sqlalchemy.orm import Session

from engine.definitions import form_files
from engine.queries import answers, case_search, dashboard, list_totals, shapes as views, task_guidance
from engine.identity import absences
from engine.identity.actor import Actor
from engine.kernel import access
from engine.definitions.repository import info
from engine.errors import Forbidden, NotFound
from engine.persistence import compiled
from engine.persistence.models import CASE_SEARCH, ProcessDefinition, ProcessInstance, Task
from engine.registries import notifications
from engine.runtime import records
from engine.persistence.tables import INSTANCE, IS_OPEN, TASK, TASK_COLUMNS, task_state_is


def _page(query, page: int, per_page: int):
    return query.limit(per_page).offset((page - 1) * per_page)


DEFINITION = ProcessDefinition.__table__
_DEFINITION_HASHES = select(DEFINITION.c.id, DEFINITION.c.hash)
_DEFINITION_SUMMARY = select(DEFINITION.c.summary).where(DEFINITION.c.id == bindparam("definition_id"))
_lanes_by_hash: dict[str, frozenset] = {}


def versions_with_lanes(conn, roles) -> list[int]:
    """Ids of the process versions that have a lane among `roles`.

    Staff see the cases of the procedures they work in, not only the ones where a task of
    theirs is open now: a clerk follows a membership case that only waits for the clerk's
    messages. Lanes depend only on a version's content, so they are kept per content hash.
    """
    return [definition_id for definition_id, digest in conn.execute(_DEFINITION_HASHES)
            if _lanes(conn, definition_id, digest) & roles]


def _lanes(conn, definition_id: int, digest: str) -> frozenset:
    lanes = _lanes_by_hash.get(digest)
    if lanes is None:
        summary = conn.execute(_DEFINITION_SUMMARY, {"definition_id": definition_id}).scalar() or {}
        lanes = _lanes_by_hash[digest] = frozenset(summary.get("lanes", []))
    return lanes


def instance_conditions(session: Session, actor: Actor, now, *, process=None, status=None, outcome=None,
                        stage=None, role=None, office=None, overdue=None, q=None, table=INSTANCE) -> list:
    """The WHERE of the case list: the actor's visibility and the filters (a page and a CSV share it).

    `table`: the case table, or the search table (CASE_SEARCH) when `searched_aside` says the
    filters are all among its columns."""
    conditions = []
    visible = access.visible_cases_condition(actor, table, lambda: versions_with_lanes(session, actor.roles))
    if visible is not None:
        conditions.append(visible)
    for name, value in (("process_key", process), ("status", status), ("outcome", outcome), ("stage", stage),
                        ("office", office)):
        if value:
            conditions.append(table.c[name] == value)
    if role:
        conditions.append(exists().where(Task.instance_id == ProcessInstance.id, IS_OPEN,
                                         Task.lane == role))
    if overdue:
        now = now() if callable(now) else now
        # The case row carries its earliest open due date (projections): no search through the tasks.
        conditions.append(ProcessInstance.next_due_at < now)
    if q and q.strip():
        conditions.append(or_(*case_search.search_arms(q)) if table is CASE_SEARCH else _search(q))
    return conditions


def searched_aside(filters: dict) -> bool:
    """A text search whose other filters are all columns of the search table (0033): its page and
    total read that narrow table alone, and only the page's 50 case rows are read."""
    return bool(filters.get("q") and filters["q"].strip()) and not any(
        filters.get(name) for name in ("status", "outcome", "stage", "role", "overdue"))


def _search(q: str):
    """Case number or starter (lower(...) LIKE), or any applicant name, id, municipality or
    reference the procedure declares, folded as `search_text` is ("maria" finds "María"): the
    cases whose row in the search table matches (its trigram indexes, 0033).

    Under a filter the search table lacks (status, outcome, stage, role, overdue) the OR stays: the
    term index's ids as a set (case_search.Search.ids) made the planner join all of them to the case
    rows — at 1,000,000 cases "rivera" with status=active took 1.8 s against 0.43 s this way."""
    return ProcessInstance.id.in_(select(CASE_SEARCH.c.instance_id).where(or_(*case_search.search_arms(q))))


NEWEST_FIRST = (ProcessInstance.started_at.desc(), ProcessInstance.id.desc())
# What a list item shows (instance_items), and only that: a whole case row would bring its JSON
# (variables, workflow state, activity) and search text to be decoded for each of 50 rows and
# dropped (issue 21: 150 JSON documents decoded per list page).
ITEM_COLUMNS = [INSTANCE.c[name] for name in (
    "id", "case_number", "process_key", "definition_id", "status", "outcome", "stage", "started_at", "ended_at",
    "started_by", "office", "applicant_name", "applicant_id", "municipality", "reference", "suspended_since")]


def instance_items(session: Session, rows) -> list[dict]:
    versions = dict(session.execute(select(ProcessDefinition.id, ProcessDefinition.version)).all()) if rows else {}
    return [{"id": r.id, "case_number": r.case_number, "process_key": r.process_key,
             "version": versions.get(r.definition_id), "status": r.status, "outcome": r.outcome,
             "stage": r.stage, "started_at": r.started_at.isoformat(),
             "ended_at": r.ended_at.isoformat() if r.ended_at else None, "started_by": r.started_by,
             "office": r.office, "applicant_name": r.applicant_name, "applicant_id": r.applicant_id,
             "municipality": r.municipality, "reference": r.reference,
             "suspended": r.suspended_since is not None} for r in rows]


def list_instances(session: Session, actor: Actor, now, *, page=1, per_page=50, **filters):
    now = now() if callable(now) and filters.get("overdue") else now  # one clock reading for page and total
    aside = searched_aside(filters)
    conditions = instance_conditions(session, actor, now, table=CASE_SEARCH if aside else INSTANCE, **filters)
    where = and_(*conditions) if conditions else True
    search = case_search.Search(session, filters["q"]) if aside and case_search.indexed(session) else None
    if search is not None:
        # The page's ids from the narrow search table, arm by arm (case_search.py); then their case rows.
        # The other filters (the search is instance_conditions' last term), over the search table or the
        # search's term table: both have their columns. Made once per table (a staff member's
        # visibility reads the versions).
        made = {CASE_SEARCH: conditions[:-1]}

        def others(table) -> list:
            if table not in made:
                made[table] = instance_conditions(session, actor, now, table=table, **{**filters, "q": None})
            return made[table]
        query = select(*ITEM_COLUMNS).where(INSTANCE.c.id.in_(
            search.page(others, page, per_page).scalar_subquery()))
    elif aside:
        # The page's ids from the narrow search table, in the list's order; then their 50 case rows.
        ids = _page(select(CASE_SEARCH.c.instance_id).where(where)
                    .order_by(CASE_SEARCH.c.started_at.desc(), CASE_SEARCH.c.instance_id.desc()), page, per_page)
        query = select(*ITEM_COLUMNS).where(INSTANCE.c.id.in_(ids.scalar_subquery()))
    elif filters.get("overdue"):
        # The page's ids first, from ix_instance_due_started (0032) alone: its backward scan skips the
        # newer cases that are not overdue on the index (a scan of the cases read each of them).
        ids = _page(select(ProcessInstance.id).where(where).order_by(*NEWEST_FIRST), page, per_page)
        query = select(*ITEM_COLUMNS).where(INSTANCE.c.id.in_(ids.scalar_subquery()))
    else:
        query = _page(select(*ITEM_COLUMNS).where(where), page, per_page)
    rows = session.execute(query.order_by(*NEWEST_FIRST)).all()
    # A first page that is not full already tells the total; else the kept totals (PostgreSQL),
    # else the rows counted.
    total = len(rows) if page == 1 and len(rows) < per_page else list_totals.cases(
        session, actor, lambda: versions_with_lanes(session, actor.roles), now=now, **filters)
    if total is None and search is not None:
        total = search.count(session, others)
    if total is None:
        counted = CASE_SEARCH if aside else ProcessInstance
        total = session.scalar(select(func.count()).select_from(counted).where(where))
    return instance_items(session, rows), total


def case_list_page(session: Session, actor: Actor, now, **list_args) -> tuple[list[dict], int, dict]:
    """`list_instances` and the filter choices (dashboard.filter_values) in one read transaction: the
    web case list shows both, and each read of its own began and ended a transaction."""
    items, total = list_instances(session, actor, now, **list_args)
    return items, total, dashboard.filter_values(session)


def get_instance(session: Session, actor: Actor, instance_id: int):
    """The case's record (a `StoredCase`), if the actor may see it (404 / 403 otherwise)."""
    conn = session.connection() if isinstance(session, Session) else session
    record = records.load(conn, instance_id, for_update=False)
    if record is None:
        raise NotFound(f"there is no case {instance_id}")
    if access.is_applicant(actor):
        access.check_applicant_case(actor, instance_id)
        return record
    if access.sees_all_cases(actor):
        return record
    # The rule of `access.visible_cases_condition`, decided on the row already read.
    if not access.may_see_case(actor, lanes=_lanes(conn, record.definition_id, record.definition_hash),
                               started_by=record.started_by, office=record.office):
        raise Forbidden(f"case {instance_id} is not yours")  # its number, office and lanes stay unsaid
    return record


def case_detail(conn, actor: Actor, instance_id: int) -> dict:
    """GET /instances/{id}: the case with its open tasks and deadlines."""
    return views.case(conn, get_instance(conn, actor, instance_id))


def case_history(session, actor: Actor, instance_id: int) -> list[dict]:
    get_instance(session, actor, instance_id)
    return views.history(session, instance_id)


def case_activity(conn, actor: Actor, instance_id: int) -> dict:
    """{element id: {state, count}} for the diagram's overlay."""
    return views.activity(conn, get_instance(conn, actor, instance_id))


def case_notifications(conn, actor: Actor, instance_id: int) -> list[dict]:
    """The notices a case wrote to the outbox, oldest first: who may read the case reads them."""
    get_instance(conn, actor, instance_id)
    return notifications.of_case(conn, instance_id)


_TASK_LISTS: dict = {}


def _inbox_order(columns):
    # Priority first (MAT-28 puts disaster cases ahead), then the nearest due date, then age.
    return (columns.priority.desc(), columns.due_at.is_(None), columns.due_at, columns.id)


# Up to this many lanes, "available" is one part per lane (each the head of its own index, merged);
# beyond, one part with the lanes as a list (a statement per count of lanes stays few).
SPLIT_LANES = 8


def task_filters(scope, state, instance, element_id, overdue, process, office,
                 standing_in: bool = False, lanes: int = 0) -> tuple[list, list]:
    """(the scope's disjoint parts, the other conditions) of a task list, over bound parameters
    named as `task_list_params` fills them; with `lanes` > 1, "available" is one part per lane,
    bound as `lane_0` … (`lane_params`)."""
    mine = TASK.c.assignee == bindparam("me")
    if standing_in:  # a substitute's own list holds the absent users' tasks of their lanes too
        mine = or_(mine, and_(TASK.c.assignee.in_(bindparam("absent", expanding=True)),
                              TASK.c.lane.in_(bindparam("my_roles", expanding=True))))
    available = and_(IS_OPEN, TASK.c.assignee.is_(None), TASK.c.lane.in_(bindparam("my_roles", expanding=True)))
    conditions = []
    if state and state != "any":
        conditions.append(task_state_is(state))
    if instance:
        conditions.append(TASK.c.instance_id == bindparam("instance"))
    if element_id:
        conditions.append(TASK.c.element_id == bindparam("element_id"))
    if overdue:
        conditions.append(and_(IS_OPEN, TASK.c.due_at < bindparam("now")))
    if process:
        conditions.append(INSTANCE.c.process_key == bindparam("process"))
    if office:
        conditions.append(access.office_sql(INSTANCE.c.office, bindparam("my_office")))
    if lanes > 1:
        # One lane's open unassigned tasks are the head of the inbox index on (lane, …): with the
        # lanes as one IN list the database read every open task of each lane and sorted them.
        available = [and_(IS_OPEN, TASK.c.assignee.is_(None), TASK.c.lane == bindparam(f"lane_{i}"))
                     for i in range(lanes)]
    else:
        available = [available]
    parts = {"mine": [mine], "available": available, "all": [true()]}.get(scope) or [mine, *available]
    return parts, conditions


def lane_params(roles) -> dict:
    """The `lane_<i>` parameters of a list split per lane (`task_filters(lanes=…)`)."""
    return {f"lane_{i}": role for i, role in enumerate(sorted(roles))}


def task_list_params(actor: Actor, now, *, scope=None, state="open", process=None, instance=None,
                     element_id=None, overdue=None) -> tuple[str | None, dict]:
    """(the office the list is narrowed to, every bound parameter of `task_filters`); checks `all`."""
    if scope == "all":
        access.check_list_all_tasks(actor)
    office = access.task_office_filter(actor)
    return office, {"me": actor.username, "my_roles": sorted(actor.roles) or [""], "state": state,
                    "my_office": office, "instance": instance, "element_id": element_id, "process": process,
                    "now": (now() if callable(now) else now) if overdue else None}


def _task_list_statements(scope, state, instance, element_id, overdue, process, office, standing_in=False,
                          lanes=0):
    """(count, page) statements for one combination of filters, built once and reused."""
    key = (scope, state, bool(instance), bool(element_id), bool(overdue), bool(process), bool(office), standing_in,
           lanes)
    if key not in _TASK_LISTS:
        parts, conditions = task_filters(scope, state, instance, element_id, overdue, process, office, standing_in,
                                         lanes)
        joined = TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id)
        # The count joins the cases only when a case column filters: every task has its case, and
        # without the join it is an index-only scan.
        counted = joined if (process or office) else TASK
        columns = (*TASK_COLUMNS, INSTANCE.c.case_number, INSTANCE.c.process_key)
        # "Mine or available" are two disjoint lists, each the head of its own index in the inbox's
        # order (0008, 0009); merged they make the page. As one OR the database read every open task
        # of the role and sorted them.
        if len(parts) == 1 or instance:
            # One case's tasks are few: found through the case, not by reading the role's inbox.
            where = and_(or_(*parts), *conditions)
            count = select(func.count()).select_from(counted).where(where)
            page = (select(*columns).select_from(joined).where(where).order_by(*_inbox_order(TASK.c))
                    .limit(bindparam("limit")).offset(bindparam("offset")))
        else:
            heads = [select(*columns).select_from(joined).where(part, *conditions).order_by(*_inbox_order(TASK.c))
                     .limit(bindparam("upto")).subquery() for part in parts]
            merged = union_all(*(select(head) for head in heads)).subquery()
            page = (select(merged).order_by(*_inbox_order(merged.c))
                    .limit(bindparam("limit")).offset(bindparam("offset")))
            ids = union_all(*(select(TASK.c.id).select_from(counted).where(part, *conditions) for part in parts))
            count = select(func.count()).select_from(ids.subquery())
        _TASK_LISTS[key] = (count, page, frozenset(count.compile().params))
    return _TASK_LISTS[key]


def list_tasks(session: Session, actor: Actor, now, *, page=1, per_page=50, scope=None,
               state="open", process=None, instance=None, element_id=None, overdue=None):
    """`now` may be a callable: the clock is read only when the overdue filter needs it."""
    office, params = task_list_params(actor, now, scope=scope, state=state, process=process, instance=instance,
                                      element_id=element_id, overdue=overdue)
    absent = absences.stood_in_for(session, actor.username, now) if scope in (None, "mine") else []
    params["absent"] = absent
    lanes = len(actor.roles) if (scope in (None, "available") and not instance
                                 and 1 < len(actor.roles) <= SPLIT_LANES) else 0
    if lanes:
        params.update(lane_params(actor.roles))
    count, rows_query, names = _task_list_statements(scope, state, instance, element_id, overdue, process, office,
                                                     bool(absent), lanes)
    params = {k: v for k, v in params.items() if k in names}
    offset = (page - 1) * per_page
    rows = compiled.run(session, rows_query, {**params, "limit": per_page, "offset": offset,
                                              "upto": offset + per_page})
    # A first page that is not full already tells the total; else the kept totals (PostgreSQL).
    total = len(rows) if page == 1 and len(rows) < per_page else list_totals.tasks(
        session, actor, scope=scope, state=state, process=process, office=office, absent=absent,
        instance=instance, element_id=element_id, overdue=overdue)
    if total is None:
        total = session.execute(count, params).scalar()
    items = [views.task(dict(r._mapping), r.case_number, r.process_key) for r in rows]
    for item in items:
        if absent and item["assignee"] in absent:
            item["on_behalf_of"] = item["assignee"]  # "suplencia de …" on the substitute's list
    return items, total


def get_task(session: Session, versions, actor: Actor, task_id: int) -> dict:
    """A task with its form and the case data the worker needs; `versions`: the engine's version cache."""
    row = session.execute(select(*TASK_COLUMNS, INSTANCE.c.case_number, INSTANCE.c.process_key,
                                 INSTANCE.c.definition_id, INSTANCE.c.variables, INSTANCE.c.office)
                          .select_from(TASK.join(INSTANCE, INSTANCE.c.id == TASK.c.instance_id))
                          .where(TASK.c.id == task_id)).first()
    if row is None:
        raise NotFound(f"there is no task {task_id}")
    access.check_task_visible(actor, task_id, row.lane, row.assignee, row.office)
    definition = info(versions, session, row.definition_id)
    out = views.task(dict(row._mapping), row.case_number, row.process_key)
    form = form_files.task_form(definition.files, row.element_id)
    out["form"] = {"schema": form.schema or {}, "ui": form.ui or {}}
    out["instructions"] = task_guidance.instructions(versions, session, definition, row.element_id)
    data = session.execute(select(TASK.c.data).where(TASK.c.id == task_id)).scalar() or {}
    # An open task's row keeps what it sees beyond the merged case data (its own multi-instance
    # item, its sub-process's scope); a completed one what was submitted.
    earlier = [a for a in answers.of_case(session.connection(), row.instance_id) if a["task_id"] != task_id]
    if row.state == "open":
        out["data"] = {"case": {**(row.variables or {}), **data}, "submitted": {},
                       "prefill": answers.prefill(row.element_id, answers.field_names(form.schema or {}),
                                                  row.variables or {}, data, earlier)}
    else:
        earlier = [a for a in earlier if a["at"] and out["completed_at"] and a["at"] <= out["completed_at"]]
        out["data"] = {"case": row.variables or {}, "submitted": data, "prefill": data}
    # Who said what before: each earlier completion's own answers (a later task reads, never rewrites).
    out["data"]["answers"] = earlier
    return out


def list_processes(session: Session) -> list[dict]:
    rows = session.execute(select(ProcessDefinition.key, ProcessDefinition.version, ProcessDefinition.name,
                                  ProcessDefinition.id).order_by(ProcessDefinition.key,
                                                                 ProcessDefinition.version)).all()
    if list_totals.kept(session):
        running = {d: n for d, n in list_totals.case_groups(session, "definition_id", statuses=dashboard.RUNNING)}
    else:
        running = dict(session.execute(select(ProcessInstance.definition_id, func.count())
                                       .where(ProcessInstance.status.in_(dashboard.RUNNING))
                                       .group_by(ProcessInstance.definition_id)).all())
    out: dict[str, dict] = {}
    for key, version, name, def_id in rows:
        entry = out.setdefault(key, {"key": key, "versions": [], "running_cases": {}})
        entry["versions"].append(version)
        entry["latest_version"], entry["name"] = version, name
        entry["running_cases"][str(version)] = running.get(def_id, 0)
    return list(out.values())


def inbox(session: Session, actor: Actor, now, *, process: str | None = None, case_number: str = "",
          pages: dict[str, int] | None = None, per_page: int = 50, overdue: bool | None = None) -> dict:
    """A worker's two lists, "mine" and "available", each at its own page; `case_number` narrows
    both to one case (no case of that number: both empty)."""
    instance = inbox_instance(session, case_number)
    lists = {}
    for scope in ("mine", "available"):
        page = (pages or {}).get(scope, 1)
        items, total = list_tasks(session, actor, now, scope=scope, process=process, instance=instance,
                                  page=page, per_page=per_page, overdue=overdue)
        lists[scope] = {"rows": items, "total": total, "page": page}
    return lists


def inbox_instance(session: Session, case_number: str) -> int | None:
    """The case an inbox's case-number filter names: None without one, -1 (no task) for none such."""
    return (dashboard.case_id_of(session, case_number) or -1) if case_number else None
