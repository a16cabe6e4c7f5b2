"""Tokens, the caller, users, roles and offices."""
from __future__ import annotations

from flask import current_app, g, request
from flask_smorest import Blueprint

from engine.commands import accounts as commands, agency_tokens, offices as office_commands
from engine.errors import ValidationFailed
from engine.queries import accounts as queries, offices as office_queries

from api.rest.auth import actor, bearer_token, engine
from api.rest.auth_schemas import (
    AgencyTokenCreateSchema, AgencyTokenSchema, NewAgencyTokenSchema, PasswordChangeSchema,
)
from api.rest.office_schemas import (
    OfficeChangeSchema, OfficeCreateSchema, OfficeListArgs, OfficeSchema, PasswordResetResultSchema, PasswordResetSchema,
)
from api.rest.schemas import LoginSchema, RoleSchema, TokenSchema, UserCreateSchema, UserSchema
from api.rest.user_schemas import PreferencesSchema, UserUpdateSchema

blp = Blueprint("accounts", __name__, url_prefix="/api/v1", description="Authentication, users and roles")


@blp.route("/auth/token", methods=["POST"])
@blp.arguments(LoginSchema())
@blp.response(200, TokenSchema)
@blp.alt_response(429, description="too many failed logins for this username or from this address; "
                                   "the Retry-After header gives the seconds to wait",
                  headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}})
def issue_token(args):
    """Exchange a username and password for a bearer token (valid 12 hours)."""
    return commands.log_in(engine(), args["username"], args["password"], request.remote_addr or "unknown",
                           current_app.config.get("TRAMITE_LOGIN_POLICY"), args.get("otp"))


@blp.route("/auth/logout", methods=["POST"])
@blp.response(204)
def logout():
    """Revoke the caller's token."""
    engine().execute(commands.revoke_token, actor(), bearer_token())


@blp.route("/me", methods=["GET"])
@blp.response(200, UserSchema)
def me():
    return g.user


@blp.route("/users", methods=["GET"])
@blp.response(200, UserSchema(many=True))
def list_users():
    return engine().read(queries.list_users, actor())


@blp.route("/users", methods=["POST"])
@blp.arguments(UserCreateSchema())
@blp.response(201, UserSchema)
def create_user(args):
    return engine().execute(commands.create_user, actor(), **args)


@blp.route("/users/<string:username>", methods=["PUT"])
@blp.arguments(UserUpdateSchema())
@blp.response(200, UserSchema)
def update_user(args, username):
    """Correct a user (admin): name, office, roles, e-mail; only the fields given change."""
    if "office" in args and args["office"] is None:
        args["office"] = ""
    if "email" in args and args["email"] is None:
        args["email"] = ""
    return engine().execute(commands.update_user, actor(), username, **args)


@blp.route("/me/preferences", methods=["PUT"])
@blp.arguments(PreferencesSchema())
@blp.response(200, UserSchema)
def set_preferences(args):
    """The caller's own preferences: `daily_digest` (supervisors only; 422 otherwise)."""
    return engine().execute(commands.set_daily_digest, actor(), args["daily_digest"])


@blp.route("/users/<string:username>/password", methods=["PUT"])
@blp.arguments(PasswordChangeSchema())
@blp.response(204)
def set_password(args, username):
    """A new password (an admin for anyone; a user for themselves, with `current_password`): every
    web session and API token of that user ends."""
    me = actor()
    if username != me.username or me.is_admin:
        engine().execute(commands.set_password, me, username, args["password"], args.get("current_password"))
        return
    # One's own change asks for the current password: a wrong one counts as a failed login, as on
    # the web page, or a stolen token would guess it at leisure (429 once the throttle's limit is used).
    result = engine().execute(commands.change_own_password, me, args.get("current_password") or "",
                              args["password"], None, request.remote_addr or "unknown",
                              current_app.config.get("TRAMITE_LOGIN_POLICY"))
    if "refused" in result:
        raise ValidationFailed("the current password is wrong", result["refused"])


@blp.route("/users/<string:username>/password-reset", methods=["POST"])
@blp.arguments(PasswordResetSchema())
@blp.response(200, PasswordResetResultSchema)
def reset_password(args, username):
    """An admin's reset of another user's password: `temporary_password`, or one made here and
    answered once. Every session and token of the user ends; their next web sign-in must choose a
    new password before anything else."""
    return engine().execute(commands.reset_password, actor(), username, args.get("temporary_password"))


@blp.route("/offices", methods=["GET"])
@blp.arguments(OfficeListArgs(), location="query")
@blp.response(200, OfficeSchema(many=True))
def list_offices(args):
    """The office list users belong to: the active offices (`all=true`, admin: every office, with its
    active users and running cases)."""
    if args["all"]:
        return engine().read(office_queries.admin_listing, actor())
    return engine().read(office_queries.choices)


@blp.route("/offices", methods=["POST"])
@blp.arguments(OfficeCreateSchema())
@blp.response(201, OfficeSchema)
def create_office(args):
    """Add an office (admin): 409 `OFFICE_EXISTS` when its id or a name already names one (letter
    case, accents and spaces aside); 422 for a town another active office serves."""
    return engine().execute(office_commands.create, actor(), args["id"], args["name_es"], args.get("name_en"),
                            args.get("municipalities") or [])


@blp.route("/offices/<string:office_id>", methods=["PATCH"])
@blp.arguments(OfficeChangeSchema())
@blp.response(200, OfficeSchema)
def change_office(args, office_id):
    """Rename an office, give it its towns, deactivate or reactivate it (admin); the id stays."""
    return engine().execute(office_commands.update, actor(), office_id, **args)


@blp.route("/api-tokens", methods=["GET"])
@blp.response(200, AgencyTokenSchema(many=True))
def list_agency_tokens():
    """API tokens of other agencies' systems (admin): never the tokens themselves."""
    return engine().read(agency_tokens.listing, actor())


@blp.route("/api-tokens", methods=["POST"])
@blp.arguments(AgencyTokenCreateSchema())
@blp.response(201, NewAgencyTokenSchema)
def create_agency_token(args):
    """A named token scoped to roles (not `admin`), expiring in 1-366 days; shown once (admin)."""
    return engine().execute(agency_tokens.create, actor(), args["name"], args["roles"], args["expires_in_days"],
                            args.get("office"))


@blp.route("/api-tokens/<int(max=2147483647):token_id>", methods=["DELETE"])
@blp.response(204)
def revoke_agency_token(token_id):
    """Revoke an agency token (admin): it stops working at once; the row stays on record."""
    engine().execute(agency_tokens.revoke, actor(), token_id)


@blp.route("/roles", methods=["GET"])
@blp.response(200, RoleSchema(many=True))
def list_roles():
    return engine().read(queries.list_roles)


@blp.route("/roles", methods=["POST"])
@blp.arguments(RoleSchema())
@blp.response(201, RoleSchema)
def create_role(args):
    return engine().execute(commands.add_role, actor(), args["id"], args["label_es"], args["label_en"])
