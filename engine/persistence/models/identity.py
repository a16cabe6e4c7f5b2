"""Sign-in tables beside the users of core.py: API tokens given to other agencies' systems, the
second factor's recovery codes, and the offices users belong to."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base
from engine.persistence.types import JSONType, UTCDateTime


class AgencyToken(Base):
    """A named bearer token for another agency's system, acting with the roles (and office) it was
    given, until it expires or an admin revokes it. Only the token's sha256 is kept."""

    __tablename__ = "agency_token"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    roles: Mapped[list] = mapped_column(JSONType)
    office: Mapped[str | None] = mapped_column(String(100))
    created_by: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_by: Mapped[str | None] = mapped_column(String(100))


class RecoveryCode(Base):
    """A single-use code that stands in for the TOTP code (a lost phone); only its sha256 is kept."""

    __tablename__ = "recovery_code"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Office(Base):
    """An office users belong to and cases are scoped to (MAT-08), from a managed list: a user's
    `office` and a case's hold this `id`, which never changes (renaming changes the names only).
    `municipalities` are the towns it serves for materials aid (at most one active office a town)."""

    __tablename__ = "office"
    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    name_es: Mapped[str] = mapped_column(String(200))
    name_en: Mapped[str] = mapped_column(String(200))
    municipalities: Mapped[list] = mapped_column(JSONType, default=list)
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=text("true"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
