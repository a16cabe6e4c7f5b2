"""The tables of DESIGN.md §Storage as typed SQLAlchemy 2.x models, registries' tables included:
importing this package puts every table in `Base.metadata` (Alembic and the schema check read it)."""
from engine.persistence.models.core import (
    MIGRATION_ONLY_INDEXES, MIGRATION_ONLY_TABLES, ApiToken, AuditEvent, Base, BigId, CaseCounter, EngineClock,
    LoginFailure, Parameter, ParameterSnapshot, ProcessDefinition, ProcessInstance, Role, Task, Timer, User, UserRole,
    WorkflowTaskState,
)
from engine.persistence.models.applicants import ApplicantAccess, ApplicantFailure, ApplicantSession
from engine.persistence.models.documents import CaseNote, Document, DocumentCounter
from engine.persistence.models.case_search import CASE_SEARCH
from engine.persistence.models.bids import Bidder, BidderSanction, BidMatter, PurchaseLock
from engine.persistence.models.drafts import TaskDraft
from engine.persistence.models.farmers import FarmerRecord
from engine.persistence.models.holidays import Holiday
from engine.persistence.models.identity import AgencyToken, Office, RecoveryCode
from engine.persistence.models.legal_time import CaseSuspension
from engine.persistence.models.list_totals import CASE_DUE_TOTAL, CASE_TOTAL, TASK_TOTAL
from engine.persistence.models.materials_aid import Beneficiary, HardwareStore
from engine.persistence.models.notifications import Notification
from engine.persistence.models.reports import CaseStagePeriod, ReportDay, ReportRollup
from engine.persistence.models.retention import CaseArchive
from engine.persistence.models.saved_filters import SavedFilter
from engine.persistence.models.work import TaskReminder, UserAbsence, WorkDigest

__all__ = [
    "CASE_SEARCH",
    "ReportDay",
    "ReportRollup",
    "AgencyToken",
    "ApiToken",
    "ApplicantAccess",
    "ApplicantFailure",
    "ApplicantSession",
    "AuditEvent",
    "Base",
    "Beneficiary",
    "BidMatter",
    "Bidder",
    "BidderSanction",
    "BigId",
    "CASE_DUE_TOTAL",
    "CASE_TOTAL",
    "CaseArchive",
    "CaseCounter",
    "CaseNote",
    "CaseStagePeriod",
    "CaseSuspension",
    "Document",
    "DocumentCounter",
    "EngineClock",
    "FarmerRecord",
    "HardwareStore",
    "Holiday",
    "LoginFailure",
    "MIGRATION_ONLY_INDEXES",
    "MIGRATION_ONLY_TABLES",
    "Notification",
    "Office",
    "Parameter",
    "ParameterSnapshot",
    "ProcessDefinition",
    "ProcessInstance",
    "PurchaseLock",
    "RecoveryCode",
    "Role",
    "SavedFilter",
    "Task",
    "TASK_TOTAL",
    "TaskDraft",
    "TaskReminder",
    "Timer",
    "User",
    "UserAbsence",
    "WorkDigest",
    "UserRole",
    "WorkflowTaskState",
]
