"""The tables of DESIGN.md §Storage as typed SQLAlchemy 2.x models, registries' tables included:
importing this package puts every table in `Base.metadata` (Alembic and the schema check read it)."""
from engine.persistence.models.core import (
    MIGRATION_ONLY_INDEXES, ApiToken, AuditEvent, Base, BigId, CaseCounter, EngineClock, LoginFailure, Parameter,
    ProcessDefinition, ProcessInstance, Role, Task, Timer, User, UserRole, WorkflowTaskState,
)
from engine.persistence.models.bids import Bidder, BidderSanction, BidMatter, PurchaseLock
from engine.persistence.models.farmers import FarmerRecord
from engine.persistence.models.identity import AgencyToken, RecoveryCode
from engine.persistence.models.materials_aid import Beneficiary, HardwareStore
from engine.persistence.models.notifications import Notification
from engine.persistence.models.work import TaskReminder, UserAbsence

__all__ = [
    "MIGRATION_ONLY_INDEXES", "AgencyToken", "ApiToken", "AuditEvent", "Base", "BigId", "Beneficiary", "Bidder", "BidderSanction",
    "BidMatter", "CaseCounter", "EngineClock", "FarmerRecord", "HardwareStore", "LoginFailure", "Notification",
    "Parameter", "ProcessDefinition", "ProcessInstance", "PurchaseLock", "RecoveryCode", "Role", "Task", "TaskReminder", "Timer", "User", "UserAbsence", "UserRole",
    "WorkflowTaskState",
]
