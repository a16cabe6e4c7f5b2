"""Every "may X see / act on Y" rule, once: commands and queries ask here, routes never decide.

DESIGN.md §Security: a user sees and acts on a task only with its lane's role, and in its office
where the case is scoped to one (MAT-08); supervisors see everything and reassign; process owners
deploy; admins run users, parameters, registries and the clock. Where a list query filters by a
rule, its SQL twin sits beside the Python predicate so the two cannot drift apart.
"""
from __future__ import annotations

from sqlalchemy import or_, true

from engine.errors import Forbidden
from engine.identity.actor import BUILTIN_ROLES, SYSTEM, Actor, CaseApplicant


# -- who is who ------------------------------------------------------------------------------
def sees_all_cases(actor: Actor) -> bool:
    """Supervisors and admins read every case and task, whatever the office or lane."""
    return actor.is_supervisor or actor.is_admin


def acts_across_offices(actor: Actor) -> bool:
    """Only supervisors act on another office's tasks and messages (admins administer, not decide)."""
    return actor.is_supervisor


def owns_processes(actor: Actor) -> bool:
    return actor.is_admin or actor.holds("process_owner")


def is_engine(actor: Actor) -> bool:
    """The engine itself (timer workers, start-up, the demo seed), never a person's request."""
    return actor.username == SYSTEM.username


def require_engine(actor: Actor, doing: str) -> None:
    if not is_engine(actor):
        raise Forbidden(f"only the engine may {doing}")


def administers(actor: Actor) -> bool:
    """Users, roles, parameters, registry corrections and the clock are an admin's."""
    return actor.is_admin


def works_cases(actor: Actor) -> bool:
    """Staff: someone holding a lane's role (any role but the built-in ones) works on tasks."""
    return any(role not in BUILTIN_ROLES for role in actor.roles)


def lists_cases(actor: Actor) -> bool:
    """The case list: supervisors see every case; staff of any lane the cases `may_see_case` lets them."""
    return sees_all_cases(actor) or works_cases(actor)


def require_admin(actor: Actor, doing: str) -> None:
    """403 unless `actor` is an admin; `doing` completes "only an admin may …"."""
    if not actor.is_admin:
        raise Forbidden(f"only an admin may {doing}")


def require_supervisor(actor: Actor, doing: str) -> None:
    if not actor.is_supervisor:
        raise Forbidden(f"only a supervisor may {doing}")


def require_process_owner(actor: Actor, doing: str = "deploy") -> None:
    if not owns_processes(actor):
        raise Forbidden(f"only a process owner may {doing}")


def require_sees_all_cases(actor: Actor, what: str) -> None:
    if not sees_all_cases(actor):
        raise Forbidden(f"only supervisors may see {what}")


# -- accounts ------------------------------------------------------------------------------------
def may_revoke_token(actor: Actor, owner: str) -> bool:
    """A token is revoked by whoever holds it (logging out) or by an admin."""
    return actor.username == owner or actor.is_admin


def check_revoke_token(actor: Actor, owner: str) -> None:
    if not may_revoke_token(actor, owner):
        raise Forbidden("only the token's holder or an admin may revoke it")


# -- offices (MAT-08) --------------------------------------------------------------------------
def office_admits(actor: Actor, office: str | None) -> bool:
    """Staff with an office reach the cases of that office and the cases scoped to none."""
    return not actor.office or office is None or office == actor.office


def office_condition(actor: Actor, column):
    """`office_admits` as SQL over an office column."""
    return office_sql(column, actor.office) if actor.office else true()


def office_sql(column, office):
    """The office test itself; `office` may be a bound parameter (cached list statements)."""
    return or_(column.is_(None), column == office)


def check_office(actor: Actor, office: str | None, what: str) -> None:
    """Acting (not reading) on a case of another office: supervisors only. A refusal says "not
    yours" and nothing more: which office, lane or case number holds it is not the caller's to learn."""
    if not office_admits(actor, office) and not acts_across_offices(actor):
        raise Forbidden(f"{what} is not yours")


# -- the applicant (no staff account) ------------------------------------------------------------
def is_applicant(actor: Actor) -> bool:
    return isinstance(actor, CaseApplicant)


def check_applicant_case(actor: CaseApplicant, instance_id: int) -> None:
    """An applicant's session opens its one case; any other case is not theirs (and says no more)."""
    if actor.case_id != instance_id:
        raise Forbidden(f"case {instance_id} is not yours")


def check_applicant_message(actor: CaseApplicant, name: str) -> None:
    """The applicant sends only the messages its procedure marks as the applicant's, whatever lane
    catches them in the diagram (staff lanes record the same message from a paper filing)."""
    if name not in actor.messages:
        raise Forbidden(f"the message {name!r} is not one the applicant sends")


# -- cases ---------------------------------------------------------------------------------------
def may_see_case(actor: Actor, *, lanes: frozenset, started_by: str, office: str | None) -> bool:
    """A case is visible to whoever works in one of its version's lanes, or started it, in its office.

    Staff follow the cases of the procedures they work in, not only those where a task of theirs
    is open now (a clerk follows a membership case that only waits for the clerk's messages).
    """
    if sees_all_cases(actor):
        return True
    return bool(lanes & actor.roles or started_by == actor.username) and office_admits(actor, office)


def visible_cases_condition(actor: Actor, instance, versions_with_my_lanes):
    """`may_see_case` as SQL over the case table; None when the actor sees every case.

    `versions_with_my_lanes()` lists the version ids that have a lane among the actor's roles."""
    if sees_all_cases(actor):
        return None
    mine = or_(instance.c.definition_id.in_(versions_with_my_lanes()), instance.c.started_by == actor.username)
    return mine & office_condition(actor, instance.c.office)


def may_start(actor: Actor, starter_lane: str | None) -> bool:
    """The starter lane's role starts a case; a diagram without one is started by supervisors/admins."""
    if is_engine(actor):
        return True
    return actor.holds(starter_lane) if starter_lane else sees_all_cases(actor)


def check_start(actor: Actor, key: str, starter_lane: str | None) -> None:
    if not may_start(actor, starter_lane):
        raise Forbidden(f"starting {key} needs the role {starter_lane!r}")


# -- tasks ---------------------------------------------------------------------------------------
def check_task_visible(actor: Actor, task_id: int, lane: str | None, assignee: str | None,
                       office: str | None) -> None:
    if sees_all_cases(actor):
        return
    if not (actor.holds(lane) or assignee == actor.username):
        raise Forbidden(f"task {task_id} is not yours")
    if not office_admits(actor, office):
        raise Forbidden(f"task {task_id} is not yours")


def check_task_actor(actor: Actor, task_id: int, lane: str | None, office: str | None,
                     refusal: dict | None = None) -> None:
    """Claiming, completing or releasing: the lane's role, in the case's office (supervisors: any).

    `refusal` is the rule code a procedure gives to acting outside this lane (SUR-05, MAT-36)."""
    if not actor.holds(lane):
        # In the caller's own office the lane is no secret (a version's lanes are public); of another
        # office's task the refusal says "not yours" and no more.
        ours = office_admits(actor, office) or acts_across_offices(actor)
        raise Forbidden(f"task {task_id} belongs to the role {lane!r}" if ours else f"task {task_id} is not yours",
                        refusal)
    check_office(actor, office, f"task {task_id}")


def may_act_on_task(actor: Actor, lane: str | None, assignee: str | None) -> bool:
    """Whether a page should offer this task's form to `actor` (the command decides again)."""
    return actor.holds(lane) and assignee in (None, actor.username)


def check_list_all_tasks(actor: Actor) -> None:
    if not sees_all_cases(actor):
        raise Forbidden("only supervisors may list every task")


def task_office_filter(actor: Actor) -> str | None:
    """The office a task list is narrowed to (None: every office)."""
    return None if sees_all_cases(actor) else actor.office


# -- messages --------------------------------------------------------------------------------------
def check_message_sender(actor: Actor, name: str, lanes: set) -> None:
    """DESIGN.md §Messages: the sender holds the lane of the element that catches it (supervisors: any);
    an applicant sends its procedure's applicant messages (`check_applicant_message`)."""
    if is_applicant(actor):
        check_applicant_message(actor, name)
        return
    if lanes and not actor.is_supervisor and not any(actor.holds(lane) for lane in lanes):
        raise Forbidden(f"the message {name!r} is for the role {', '.join(sorted(lanes))}")


# -- the case file (expediente) ------------------------------------------------------------------
def may_add_to_case_file(actor: Actor, lanes: frozenset) -> bool:
    """Documents and notes are added by staff who hold a lane of the case's process, and supervisors
    (seeing the case is checked first, by the query that reads it)."""
    return actor.is_supervisor or is_engine(actor) or bool(lanes & actor.roles)


def check_add_to_case_file(actor: Actor, lanes: frozenset, office: str | None, what: str) -> None:
    if not may_add_to_case_file(actor, lanes):
        raise Forbidden(f"only the staff of this procedure may add {what} to the case")
    check_office(actor, office, "this case")
