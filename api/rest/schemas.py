"""Marshmallow schemas: request validation and the OpenAPI document (`/api/v1/openapi.json`)."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from engine.commands.accounts import NO_ROLE  # the schema refuses "no role" in the words the engine uses

Instant = fields.String  # ISO 8601 with offset, already rendered by the engine's views
# Ids are PostgreSQL bigints, version numbers integers: a larger number names nothing (and the
# database would refuse to compare with it).
MAX_ID = 2**63 - 1
MAX_VERSION = 2**31 - 1


class _Strict(Schema):
    class Meta:
        unknown = EXCLUDE


class ErrorSchema(Schema):
    code = fields.Integer()
    status = fields.String()
    message = fields.String()
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))


class LoginSchema(_Strict):
    username = fields.String(required=True, validate=validate.Length(min=1, max=100))
    password = fields.String(required=True, validate=validate.Length(min=1, max=200))
    otp = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=40),
                        metadata={"description": "the TOTP (or a recovery) code, when the user has a second factor"})


class UserSchema(Schema):
    id = fields.Integer()
    username = fields.String()
    full_name = fields.String()
    roles = fields.List(fields.String())
    office = fields.String(allow_none=True)
    active = fields.Boolean()
    email = fields.String(allow_none=True, metadata={"description": "where reminders and the digest go"})
    daily_digest = fields.Boolean(metadata={"description": "a supervisor's daily e-mail of overdue and due-soon tasks"})


class TokenSchema(Schema):
    token = fields.String()
    expires_at = Instant()
    user = fields.Nested(UserSchema)


class UserCreateSchema(_Strict):
    username = fields.String(required=True, validate=validate.Regexp(r"^[A-Za-z0-9_.@-]{1,100}$"))
    password = fields.String(required=True, validate=validate.Length(min=8, max=200))
    full_name = fields.String(load_default="", validate=validate.Length(max=200))
    roles = fields.List(fields.String(), required=True, validate=validate.Length(min=1, error=NO_ROLE),
                        error_messages={"required": NO_ROLE})
    office = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    email = fields.String(load_default=None, allow_none=True, metadata={"format": "email"})


class RoleSchema(Schema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[a-z][a-z0-9_]{1,63}$"))
    label_es = fields.String(required=True, validate=validate.Length(min=1, max=200))
    label_en = fields.String(required=True, validate=validate.Length(min=1, max=200))


class ProcessSchema(Schema):
    key = fields.String()
    name = fields.String()
    latest_version = fields.Integer()
    versions = fields.List(fields.Integer())
    running_cases = fields.Dict(keys=fields.String(), values=fields.Integer())


class DeployResultSchema(Schema):
    key = fields.String()
    version = fields.Integer()
    hash = fields.String()


class DeployFilesSchema(Schema):
    files = fields.List(fields.Raw(metadata={"type": "string", "format": "binary"}), required=True)


class VersionSchema(Schema):
    key = fields.String()
    version = fields.Integer()
    name = fields.String()
    hash = fields.String()
    deployed_by = fields.String()
    deployed_at = Instant()
    starter_lane = fields.String(allow_none=True)
    lanes = fields.List(fields.String())
    elements = fields.List(fields.Dict())
    messages = fields.List(fields.String())
    children = fields.Dict()
    forms = fields.Dict()
    files = fields.List(fields.String())


class StartCaseSchema(_Strict):
    variables = fields.Dict(load_default=dict)
    version = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_VERSION))


class _CaseKeys(Schema):
    """What names a case wherever it appears: its number and its procedure."""
    case_number = fields.String()
    process_key = fields.String()


class TaskSchema(_CaseKeys):
    id = fields.Integer()
    instance_id = fields.Integer()
    element_id = fields.String()
    name = fields.String()
    lane = fields.String(allow_none=True)
    assignee = fields.String(allow_none=True)
    state = fields.String()
    created_at = Instant()
    due_at = Instant(allow_none=True)
    completed_at = Instant(allow_none=True)
    completed_by = fields.String(allow_none=True)
    priority = fields.Integer(metadata={"description": "inbox rank set by the case (`task_priority`); higher first"})
    on_behalf_of = fields.String(metadata={"description": "in a substitute's `scope=mine`: the absent assignee"})


class TaskDetailSchema(TaskSchema):
    form = fields.Dict()
    data = fields.Dict(metadata={"description": "`case`: the case's variables; `submitted`: what a completed task was "
                                                "given; `prefill`: what its form starts with (never another task's "
                                                "answer); `answers`: each earlier completion's own answers and author"})
    instructions = fields.String(metadata={"description": "the diagram's instructions for this task (Markdown)"})


class DeadlineSchema(Schema):
    name = fields.String()
    element_id = fields.String()
    due_at = Instant()


class CaseSchema(_CaseKeys):
    id = fields.Integer()
    version = fields.Integer()
    status = fields.String()
    outcome = fields.String(allow_none=True)
    stage = fields.String(allow_none=True)
    variables = fields.Dict()
    open_tasks = fields.List(fields.Nested(TaskSchema))
    deadlines = fields.List(fields.Nested(DeadlineSchema))
    started_at = Instant()
    ended_at = Instant(allow_none=True)
    started_by = fields.String()
    office = fields.String(allow_none=True)
    error = fields.Dict(allow_none=True)
    suspension = fields.Dict(allow_none=True, metadata={"description": "{since, reason, legal_basis, until} while suspended"})


class CaseSummarySchema(Schema):
    id = fields.Integer()
    case_number = fields.String()
    process_key = fields.String()
    version = fields.Integer()
    status = fields.String()
    outcome = fields.String(allow_none=True)
    stage = fields.String(allow_none=True)
    started_at = Instant()
    ended_at = Instant(allow_none=True)
    started_by = fields.String()
    office = fields.String(allow_none=True)
    # From the variables the procedure names (engine/procedures/<p>/case_index.json).
    applicant_name = fields.String(allow_none=True)
    applicant_id = fields.String(allow_none=True)
    municipality = fields.String(allow_none=True)
    reference = fields.String(allow_none=True, metadata={"description": "registry, beneficiary, bid or inventory number"})

    suspended = fields.Boolean(metadata={"description": "the legal clock of the case stands still"})


class HistoryEventSchema(Schema):
    at = Instant()
    actor = fields.String()
    type = fields.String()
    element_id = fields.String(allow_none=True)
    task_id = fields.Integer(allow_none=True)
    data = fields.Dict()
    rule_ids = fields.List(fields.String())
    message = fields.String(allow_none=True)


class MessageSchema(_Strict):
    payload = fields.Dict(load_default=dict)


class CancelSchema(_Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class AssignSchema(_Strict):
    username = fields.String(required=True, validate=validate.Length(min=1, max=100))


class CompleteSchema(_Strict):
    data = fields.Dict(required=True)


class CompleteResultSchema(Schema):
    task = fields.Nested(TaskSchema)
    instance = fields.Nested(CaseSchema)


class ParameterSchema(Schema):
    name = fields.String()
    type = fields.String()
    value = fields.Raw(allow_none=True)
    default = fields.Raw(allow_none=True)
    amb = fields.String(allow_none=True)
    rules = fields.List(fields.String())
    choices = fields.List(fields.String(), allow_none=True)
    item_choices = fields.List(fields.String(), allow_none=True)
    label_es = fields.String(allow_none=True)
    label_en = fields.String(allow_none=True)
    explanation_es = fields.String(allow_none=True)
    explanation_en = fields.String(allow_none=True)
    updated_at = Instant(allow_none=True)
    updated_by = fields.String(allow_none=True)


class ParameterUpdateSchema(_Strict):
    value = fields.Raw(required=True, allow_none=True)


class ClockSchema(Schema):
    now = Instant()
    mode = fields.String()


class ClockUpdateSchema(_Strict):
    now = fields.String(required=True)


class PageArgs(_Strict):
    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=1_000_000))
    per_page = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))


class InstanceListArgs(PageArgs):
    process = fields.String()
    status = fields.String(validate=validate.OneOf(["active", "completed", "cancelled", "error"]))
    outcome = fields.String()
    stage = fields.String()
    role = fields.String()
    office = fields.String()
    overdue = fields.Boolean()
    q = fields.String(validate=validate.Length(max=200), metadata={
        "description": "case number, starter, applicant name (accents and case ignored), id, municipality, "
                       "registry/beneficiary/bid/bidder/inventory number"})
    format = fields.String(validate=validate.OneOf(["json", "csv"]), metadata={
        "description": "csv (or Accept: text/csv): every row of the filter, not one page"})


class TaskListArgs(PageArgs):
    scope = fields.String(validate=validate.OneOf(["mine", "available", "all"]))
    state = fields.String(load_default="open", validate=validate.OneOf(["open", "completed", "any"]))
    process = fields.String()
    instance = fields.Integer(validate=validate.Range(min=1, max=MAX_ID))
    element_id = fields.String()
    overdue = fields.Boolean()
    format = fields.String(validate=validate.OneOf(["json", "csv"]), metadata={
        "description": "csv (or Accept: text/csv): every row of the filter, not one page"})


class HealthSchema(Schema):
    status = fields.String()
    database = fields.String()
