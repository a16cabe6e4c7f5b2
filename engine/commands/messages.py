"""Deliver a message with its payload to a case that is waiting for it."""
from __future__ import annotations

from engine.definitions import form_files, forms
from engine.queries import cases as queries, shapes as views
from engine.errors import Conflict, ValidationFailed
from engine.kernel import access
from engine.rules.decision import RuleViolation
from engine.rules.reasons import explain_refusal
from engine.runtime.case import Case
from engine.rules.calendar import local_date
from engine.rules.facts import Facts
from engine.letters.issue import issue_letters


def send_message(ctx, instance_id: int, name: str, payload: dict | None) -> dict:
    payload = {} if payload is None else payload
    if not isinstance(payload, dict):
        raise ValidationFailed("payload must be an object", {"payload": ["must be an object"]})
    # Someone who may not see the case learns nothing of it, and no procedure rule runs for them.
    queries.get_instance(ctx.conn, ctx.actor, instance_id)
    case = Case.open(ctx, instance_id)
    instance = case.instance
    # Office scoping (MAT-08) holds for messages as for tasks: staff act only on their office's cases.
    access.check_office(ctx.actor, instance.office, f"case {instance_id}")
    if instance.status == "active":
        case.advance()  # a deadline already due decides before the message does
    catchers = case.message_catchers(name) if instance.status == "active" else []
    access.check_message_sender(ctx.actor, name, {c.task_spec.lane for c in catchers if c.task_spec.lane})
    payload = forms.validate(form_files.message_form(case.definition.files, name).schema, payload)
    # Runs even when the case no longer waits: the rule may owe the sender a reason on record
    # (a review request after its deadline is UNTIMELY, not merely unexpected).
    def facts():
        return Facts(case=case.variables(), today=local_date(ctx.now), actor=ctx.actor.username,
                     office=ctx.actor.office, waiting=bool(catchers))
    try:
        ctx.procedures.check_message(ctx, instance.process_key, name, payload, facts)
    except RuleViolation as refusal:
        ctx.keep_refusal("message_refused", instance_id=instance_id, rule_ids=refusal.rule_ids,
                         message=refusal.message, data={"name": name, "payload": payload, "code": refusal.code,
                               "reasons": explain_refusal(refusal)})
        raise
    if not catchers:
        raise Conflict(f"case {instance.case_number} is not waiting for the message {name!r}",
                       code="MESSAGE_NOT_EXPECTED")
    problem = case.correlation_problem(name, payload)
    if problem:
        raise ValidationFailed(problem, {"payload": [problem]})
    ctx.audit("message_received", instance_id=instance_id, element_id=catchers[0].task_spec.bpmn_id,
              data={"name": name, "payload": payload})
    case.deliver(name, payload)
    issue_letters(ctx, case)
    case.close()
    return views.case_of(case)
