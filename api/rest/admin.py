"""Legal parameters and the (manual) engine clock."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.config import parameters
from engine.config.clock import parse_instant
from engine.errors import Forbidden, NotFound, ValidationFailed
from engine.worker import move_clock

from api.rest.auth import actor, engine
from api.rest.schemas import ClockSchema, ClockUpdateSchema, ParameterSchema, ParameterUpdateSchema

blp = Blueprint("admin", __name__, url_prefix="/api/v1", description="Parameters and clock")


@blp.route("/parameters", methods=["GET"])
@blp.response(200, ParameterSchema(many=True))
def list_parameters():
    return engine().read(parameters.describe)


@blp.route("/parameters/<string:name>", methods=["PUT"])
@blp.arguments(ParameterUpdateSchema())
@blp.response(200, ParameterSchema)
def set_parameter(args, name):
    """Change a parameter (admin); cases started afterwards use the new value."""
    if not actor().is_admin:
        raise Forbidden("only an admin may change parameters")
    return engine().execute(parameters.set_value, actor(), name, args["value"])


def _clock():
    return {"now": engine().now().isoformat(), "mode": engine().clock.mode}


@blp.route("/admin/clock", methods=["GET"])
@blp.response(200, ClockSchema)
def get_clock():
    return _clock()


@blp.route("/admin/clock", methods=["PUT"])
@blp.arguments(ClockUpdateSchema())
@blp.response(200, ClockSchema)
def set_clock(args):
    """Move the manual clock forward, firing every timer that falls due on the way, in order."""
    if not engine().clock.manual:
        raise NotFound("the clock can be moved only when the server runs with TRAMITE_CLOCK=manual")
    try:
        target = parse_instant(args["now"])
    except ValueError as exc:
        raise ValidationFailed("bad instant", {"now": [str(exc)]}) from None
    move_clock(engine(), actor(), target)
    return _clock()
