"""Start, cancel and retry a case."""
from __future__ import annotations

from engine.definitions import form_files, forms
from engine.config import parameters
from engine.queries import shapes as views
from engine.runtime.case_numbers import insert_numbered
from engine.definitions import repository
from engine.errors import Conflict, ValidationFailed
from engine.kernel import access
from engine.runtime.case import Case
from engine.rules.calendar import local_date
from engine.rules.facts import Facts
from engine.runtime.records import CaseRecord
from engine.letters.issue import issue_letters


def start_case(ctx, key: str, variables: dict | None = None, version: int | None = None,
               parent_instance_id: int | None = None) -> dict:
    # The version's id rides in the parameters' freshness check: one round trip for both.
    parameters_id, frozen, found = parameters.freeze(
        ctx.conn, ctx.now, repository.VERSION_ID_SUBQUERIES[bool(version)], {"key": key, "version": version})
    definition = repository.info(ctx.versions, ctx.conn, repository.found_version_id(found, key, version))
    access.check_start(ctx.actor, key, definition.summary.get("starter_lane"))
    if not isinstance(variables, dict):
        raise ValidationFailed("variables must be an object", {"variables": ["must be an object"]})
    variables = forms.validate(form_files.start_form(definition.files).schema, variables)
    # Who files matters to some procedures (MAT-08: the office that serves the applicant's town).
    ctx.procedures.check_completion(ctx, key, "start", variables, Facts(
        case={}, today=local_date(ctx.now), actor=ctx.actor.username, office=ctx.actor.office))
    record = CaseRecord(
        id=None, case_number="", process_key=key, definition_id=definition.id,
        status="active", outcome=None, stage=None, office=ctx.actor.office, variables={},
        parameters_id=parameters_id, workflow_meta={}, activity={}, error_message=None,
        error_element=None, started_by=ctx.actor.username, started_at=ctx.now, ended_at=None,
        parent_instance_id=parent_instance_id, parameters=frozen)
    # The case number's draw holds its counter's row lock until the commit, so every start of the
    # procedure waits for it (issue 21): what needs no number is done before it.
    workflow = Case.new_workflow(ctx, definition)
    insert_numbered(ctx, record)
    case = Case.begin(ctx, record, definition, {**variables, "case_number": record.case_number}, workflow)
    ctx.audit("case_started", instance_id=record.id,
              data={"version": definition.version, "variables": variables})
    case.advance()
    issue_letters(ctx, case)
    case.close()
    return views.case_of(case)


def cancel_case(ctx, instance_id: int, reason: str) -> dict:
    access.require_supervisor(ctx.actor, "cancel a case")
    if not reason or not str(reason).strip():
        raise ValidationFailed("a reason is required", {"reason": ["required"]})
    case = Case.open(ctx, instance_id)
    if case.instance.status in ("completed", "cancelled"):
        raise Conflict(f"case {case.instance.case_number} is {case.instance.status}", code="CASE_NOT_ACTIVE")
    case.cancel()
    ctx.audit("case_cancelled", instance_id=instance_id, message=reason, data={"reason": reason})
    case.close()
    return views.case_of(case)


def retry_case(ctx, instance_id: int) -> dict:
    access.require_supervisor(ctx.actor, "retry a case")
    case = Case.open(ctx, instance_id)
    if case.instance.status != "error":
        raise Conflict(f"case {case.instance.case_number} is not in error", code="CASE_NOT_IN_ERROR")
    failed = [t.task_spec.bpmn_id for t in case.error_tasks()]
    ctx.audit("case_retried", instance_id=instance_id, data={"elements": failed})
    case.retry()
    case.close()
    return views.case_of(case)
