"""Bearer-token authentication for `/api/v1`: every call but the token request needs one."""
from __future__ import annotations

from flask import current_app, g, request

from engine import accounts
from engine.context import Actor
from engine.errors import Unauthorized

OPEN_PATHS = {"/api/v1/auth/token", "/api/v1/openapi.json"}


def engine():
    return current_app.extensions["tramite"]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer " and header[7:].strip():
        return header[7:].strip()
    return None


def authenticate_request() -> None:
    if not request.path.startswith("/api/v1") or request.path in OPEN_PATHS:
        return
    token = bearer_token()
    if token is None:
        raise Unauthorized("send Authorization: Bearer <token> (POST /api/v1/auth/token)")
    user = engine().read(accounts.authenticate, token)
    g.user = {"username": user.username, "roles": user.role_ids, "office": user.office,
              "full_name": user.full_name, "id": user.id, "active": user.active}
    g.actor = Actor(user.username, frozenset(user.role_ids), user.office)


def actor() -> Actor:
    return g.actor
