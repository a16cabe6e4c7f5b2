"""A person's saved list filters ("mis casos vencidos"): a name and the list's query string."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.persistence.models.core import Base
from engine.persistence.types import UTCDateTime


class SavedFilter(Base):
    __tablename__ = "saved_filter"
    __table_args__ = (UniqueConstraint("username", "list", "name", name="uq_saved_filter_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(100))
    list: Mapped[str] = mapped_column(String(20))     # "cases" or "tasks"
    name: Mapped[str] = mapped_column(String(100))
    query: Mapped[str] = mapped_column(String(2000))  # the list's own query string, without its page
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
