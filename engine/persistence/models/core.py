"""The tables of DESIGN.md §Storage as typed SQLAlchemy 2.x models.

Projections (`task`, `timer`, the status columns of `process_instance`) are what every list query
reads; the workflow itself lives in `workflow_task_state`, one row per live SpiffWorkflow task, so
a command writes only what changed and loads only what is still alive.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from engine.persistence.types import JSONType, UTCDateTime

# BigInteger ids autoincrement on SQLite only as INTEGER PRIMARY KEY.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    pass


# Indexes only the migrations declare: their columns are expressions (the inbox's order) or they exist
# only on PostgreSQL (trigram search), which models cannot say. The models-vs-migrations check skips them.
MIGRATION_ONLY_INDEXES = frozenset({
    "ix_task_open_order", "ix_task_assignee_order",
    "ix_task_available_lane",  # SQLite only since 0036
    "ix_case_search_number_trgm", "ix_case_search_started_by_trgm", "ix_case_search_text_trgm",  # (0033)
    "ix_task_available_lane_case", "ix_instance_office_by_id",  # PostgreSQL only (0029)
    "ix_instance_due_started", "ix_case_due_total_past",  # PostgreSQL only (0032)
    "ix_case_search_number_head",  # PostgreSQL only (0037)
})
# Tables only the migrations make, on PostgreSQL only: the search's terms (0034, engine/queries/search_terms.py)
# and the case numbers a start drew and never used (0035, engine/runtime/number_holes.py).
MIGRATION_ONLY_TABLES = frozenset({"search_term", "case_search_term", "case_number_hole"})


class Role(Base):
    __tablename__ = "role"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    label_es: Mapped[str] = mapped_column(String(200))
    label_en: Mapped[str] = mapped_column(String(200))
    builtin: Mapped[bool] = mapped_column(Boolean, default=False)


class UserRole(Base):
    __tablename__ = "user_role"
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id", ondelete="CASCADE"), primary_key=True)
    role_id: Mapped[str] = mapped_column(ForeignKey("role.id"), primary_key=True)


class User(Base):
    __tablename__ = "app_user"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str] = mapped_column(String(300))
    full_name: Mapped[str] = mapped_column(String(200), default="")
    office: Mapped[str | None] = mapped_column(String(100))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Where reminders and the daily digest go (engine.commands.reminders); none: they are not sent.
    email: Mapped[str | None] = mapped_column(String(254))
    daily_digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # Every web session carries the generation of its login; a bump ends them all (api/web/session.py).
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    # Set when an admin resets the password: the next web sign-in must choose a new one first.
    must_change_password: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # The TOTP second factor (engine/identity/second_factor.py): the secret, confirmed once the user
    # typed a first code; the last time step used, so a code is good once.
    totp_secret: Mapped[str | None] = mapped_column(String(64))
    totp_confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    roles: Mapped[list[Role]] = relationship(secondary="user_role", lazy="selectin", order_by=Role.id)

    @property
    def role_ids(self) -> list[str]:
        return [r.id for r in self.roles]


class ApiToken(Base):
    __tablename__ = "api_token"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class EngineClock(Base):
    """One row: the manual clock every process agrees on (DESIGN.md §Clock)."""

    __tablename__ = "engine_clock"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    now: Mapped[datetime] = mapped_column(UTCDateTime)


class Parameter(Base):
    __tablename__ = "parameter"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    type: Mapped[str] = mapped_column(String(20))
    value: Mapped[object] = mapped_column(JSONType, nullable=True)
    default: Mapped[object] = mapped_column(JSONType, nullable=True)
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_by: Mapped[str | None] = mapped_column(String(100))


class ParameterSnapshot(Base):
    """One distinct set of parameter values some case froze at its start, shared by every case that
    froze the same values (0026): a case points at it instead of carrying its own ~4 KB copy."""

    __tablename__ = "parameter_snapshot"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # sha256 of the values as canonical JSON (engine/config/parameters.py `content_hash`).
    hash: Mapped[str] = mapped_column(String(64), unique=True)
    content: Mapped[dict] = mapped_column(JSONType)  # {parameter name: JSON value}
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ProcessDefinition(Base):
    __tablename__ = "process_definition"
    __table_args__ = (
        UniqueConstraint("key", "version"),
        Index("ix_process_definition_key_hash", "key", "hash"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    hash: Mapped[str] = mapped_column(String(64))
    # {file name: text}: BPMN, DMN and form files exactly as uploaded.
    files: Mapped[dict] = mapped_column(JSONType)
    # Derived at deploy time so reads never re-parse: elements, lanes, starter lane, called children.
    summary: Mapped[dict] = mapped_column(JSONType)
    deployed_by: Mapped[str] = mapped_column(String(100))
    deployed_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CaseCounter(Base):
    """SQLite: the last number drawn. PostgreSQL (0035): numbers are drawn from a sequence per prefix
    and year, and `last` is the number through which each is held by a case or waits for one."""
    __tablename__ = "case_counter"
    prefix: Mapped[str] = mapped_column(String(10), primary_key=True)
    year: Mapped[int] = mapped_column(Integer, primary_key=True)
    last: Mapped[int] = mapped_column(Integer, default=0)


class ProcessInstance(Base):
    __tablename__ = "process_instance"
    __table_args__ = (
        Index("ix_instance_key_status", "process_key", "status"),
        Index("ix_instance_next_due", "next_due_at"),
        # Everything a staff member's case list filters and counts on, for an index-only count.
        Index("ix_instance_visibility", "definition_id", "office", "status", "started_by"),
        # The reports' cases opened and closed per month and office, index-only (0024).
        Index("ix_instance_started_office", "started_at", "process_key", "office"),
        Index("ix_instance_ended", "ended_at", "process_key", "office"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    case_number: Mapped[str] = mapped_column(String(40), unique=True)
    process_key: Mapped[str] = mapped_column(String(100))
    # Its foreign key's checks read ix_instance_visibility, which starts with it (0036).
    definition_id: Mapped[int] = mapped_column(ForeignKey("process_definition.id"))
    status: Mapped[str] = mapped_column(String(20), default="active")
    outcome: Mapped[str | None] = mapped_column(String(60), index=True)
    stage: Mapped[str | None] = mapped_column(String(60))
    office: Mapped[str | None] = mapped_column(String(100), index=True)
    variables: Mapped[dict] = mapped_column(JSONType, default=dict)
    # The parameters frozen at its start, shared with every case that froze the same values. Never
    # null once started; nullable because SQLite cannot add a NOT NULL reference to a full table (0026).
    parameters_id: Mapped[int | None] = mapped_column(ForeignKey("parameter_snapshot.id"))
    # Workflow-level state without tasks or specs; tasks live in workflow_task_state.
    workflow_meta: Mapped[dict] = mapped_column(JSONType, default=dict)
    # {bpmn element id: completed visits}, kept incrementally because pruned tasks are gone.
    activity: Mapped[dict] = mapped_column(JSONType, default=dict)
    error_message: Mapped[str | None] = mapped_column(Text)
    error_element: Mapped[str | None] = mapped_column(String(200))
    started_by: Mapped[str] = mapped_column(String(100))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    parent_instance_id: Mapped[int | None] = mapped_column(BigId, index=True)
    lock_version: Mapped[int] = mapped_column(Integer, default=1)
    # The earliest due date among the case's open tasks (projections keep it): "overdue" is one
    # comparison on the case row instead of a search through a million task rows.
    next_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Who the case is about, from the variables its procedure names (engine/definitions/case_index.py),
    # kept by the projections: the case list shows and searches them without reading `variables`.
    applicant_name: Mapped[str | None] = mapped_column(String(200))
    applicant_id: Mapped[str | None] = mapped_column(String(100))
    municipality: Mapped[str | None] = mapped_column(String(100))
    reference: Mapped[str | None] = mapped_column(String(100))
    search_text: Mapped[str | None] = mapped_column(Text)  # folded: lower case, no accents (0016)

    # Set while the case's legal clock stands still (case_suspension holds the why): no timer of
    # the case fires, and the timer worker's queries skip it.
    suspended_since: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __mapper_args__ = {"version_id_col": lock_version}


class WorkflowTaskState(Base):
    """One live SpiffWorkflow task, serialized; rewritten only when its serialization changes."""

    __tablename__ = "workflow_task_state"
    instance_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("process_instance.id", ondelete="CASCADE"), primary_key=True)
    task_uuid: Mapped[str] = mapped_column(String(36), primary_key=True)
    # "" for the top workflow, else the id of the subprocess task that owns it.
    workflow_uuid: Mapped[str] = mapped_column(String(36), default="")
    body: Mapped[dict] = mapped_column(JSONType)
    digest: Mapped[str] = mapped_column(String(32))


class Task(Base):
    """Projection of a human task (open or finished); every task list reads this table only."""

    __tablename__ = "task"
    __table_args__ = (
        Index("ix_task_state_lane", "state", "lane"),
        Index("ix_task_due", "state", "due_at"),
        # The overdue case list's subquery, index-only (0009); the inbox-order indexes of 0008/0009
        # hold expressions, which models do not declare.
        Index("ix_task_open_due", "due_at", "instance_id", postgresql_where=text("state = 'open'"),
              sqlite_where=text("state = 'open'")),
        Index("ix_task_completed", "completed_at", "element_id"),  # the cycle-time report (0021)
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("process_instance.id", ondelete="CASCADE"), index=True)
    spiff_task_id: Mapped[str] = mapped_column(String(36), unique=True)
    element_id: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(300))
    lane: Mapped[str | None] = mapped_column(String(64))
    assignee: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[str] = mapped_column(String(20), default="open")
    priority: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    completed_by: Mapped[str | None] = mapped_column(String(100))
    data: Mapped[dict | None] = mapped_column(JSONType)


class Timer(Base):
    __tablename__ = "timer"
    __table_args__ = (
        UniqueConstraint("instance_id", "spiff_task_id"),
        Index("ix_timer_due", "fired_at", "due_at"),
        Index("ix_timer_due_at", "due_at"),  # the report's deadlines day by day (0028)
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    instance_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("process_instance.id", ondelete="CASCADE"), index=True)
    spiff_task_id: Mapped[str] = mapped_column(String(36))
    element_id: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(300))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    fired_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    cancelled: Mapped[bool] = mapped_column(Boolean, default=False)
    lock_owner: Mapped[str | None] = mapped_column(String(100))
    lock_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)


class AuditEvent(Base):
    """Append-only case history; the application never updates or deletes a row."""

    __tablename__ = "audit_event"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str] = mapped_column(String(100))
    instance_id: Mapped[int | None] = mapped_column(BigId, index=True)
    task_id: Mapped[int | None] = mapped_column(BigId)
    element_id: Mapped[str | None] = mapped_column(String(200))
    type: Mapped[str] = mapped_column(String(40))
    data: Mapped[dict] = mapped_column(JSONType, default=dict)
    rule_ids: Mapped[list] = mapped_column(JSONType, default=list)
    message: Mapped[str | None] = mapped_column(Text)


class LoginFailure(Base):
    """One failed login, kept only while it is inside the throttling window (engine/login_throttle.py)."""

    __tablename__ = "login_failure"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    username: Mapped[str] = mapped_column(String(100), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    failed_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
