"""Tokens, the caller, users and roles."""
from __future__ import annotations

from flask import current_app, g, request
from flask_smorest import Blueprint
from sqlalchemy import select

from engine.identity import accounts
from engine.queries import shapes as views
from engine.persistence.models import Role, User

from api.rest.auth import actor, bearer_token, engine, require_admin
from api.rest.schemas import LoginSchema, RoleSchema, TokenSchema, UserCreateSchema, UserSchema

blp = Blueprint("accounts", __name__, url_prefix="/api/v1", description="Authentication, users and roles")


@blp.route("/auth/token", methods=["POST"])
@blp.arguments(LoginSchema())
@blp.response(200, TokenSchema)
@blp.alt_response(429, description="too many failed logins for this username or from this address; "
                                   "the Retry-After header gives the seconds to wait",
                  headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}})
def issue_token(args):
    """Exchange a username and password for a bearer token (valid 12 hours)."""
    token, row, user = accounts.log_in(engine(), args["username"], args["password"],
                                       request.remote_addr or "unknown",
                                       current_app.config.get("TRAMITE_LOGIN_POLICY"))
    return {"token": token, "expires_at": row.expires_at.isoformat(), "user": views.user(user)}


@blp.route("/auth/logout", methods=["POST"])
@blp.response(204)
def logout():
    """Revoke the caller's token."""
    engine().execute(lambda ctx: accounts.revoke_token(ctx, bearer_token()), actor())


@blp.route("/me", methods=["GET"])
@blp.response(200, UserSchema)
def me():
    return g.user


@blp.route("/users", methods=["GET"])
@blp.response(200, UserSchema(many=True))
def list_users():
    require_admin("manage users and roles")
    return engine().read(lambda s: [views.user(u) for u in s.scalars(select(User).order_by(User.username))])


@blp.route("/users", methods=["POST"])
@blp.arguments(UserCreateSchema())
@blp.response(201, UserSchema)
def create_user(args):
    require_admin("manage users and roles")
    return engine().execute(lambda ctx: views.user(accounts.create_user(ctx, **args)), actor())


@blp.route("/roles", methods=["GET"])
@blp.response(200, RoleSchema(many=True))
def list_roles():
    return engine().read(lambda s: [{"id": r.id, "label_es": r.label_es, "label_en": r.label_en}
                                    for r in s.scalars(select(Role).order_by(Role.id))])


@blp.route("/roles", methods=["POST"])
@blp.arguments(RoleSchema())
@blp.response(201, RoleSchema)
def create_role(args):
    require_admin("manage users and roles")
    engine().execute(lambda ctx: accounts.add_role(ctx, args["id"], args["label_es"], args["label_en"]), actor())
    return args
