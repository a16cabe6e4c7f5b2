"""Reading the legal parameters: each with its value, default, type and the ambiguity it resolves."""
from __future__ import annotations

from sqlalchemy.orm import Session

from engine.config import parameters


def list_parameters(session: Session) -> list[dict]:
    """GET /parameters (anyone signed in): the catalogue in name order, with the values in force."""
    return parameters.describe(session)
