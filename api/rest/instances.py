"""Cases: start, list, read, history, activity, messages, signals, cancel, retry."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.queries import cases as queries
from engine.commands.cases import cancel_case, retry_case, start_case
from engine.commands.messages import send_message
from engine.commands.signals import send_signal

from api import csv_lists
from api.rest.auth import actor, engine, read_rows, release_read_connection
from api.rest.responses import answer
from api.rest.pagination import page_response
from api.rest.schemas import (
    CancelSchema, CaseSchema, CaseSummarySchema, HistoryEventSchema, InstanceListArgs, MessageSchema,
    StartCaseSchema,
)
from api.rest import ID

blp = Blueprint("instances", __name__, url_prefix="/api/v1", description="Cases (process instances)")


@blp.route("/processes/<string:key>/instances", methods=["POST"])
@blp.arguments(StartCaseSchema())
@blp.response(201, CaseSchema)
def start(args, key):
    """Start a case; the caller must hold the lane of the start event."""
    return answer(engine().execute(start_case, actor(), key, args["variables"], args["version"]), 201)


@blp.route("/instances", methods=["GET"])
@blp.arguments(InstanceListArgs(), location="query")
@blp.response(200, CaseSummarySchema(many=True))
@blp.doc(responses=csv_lists.openapi_200("CaseSummary"))
def list_instances(args):
    """Newest first; `Accept: text/csv` or `format=csv`: every case of the filter as CSV, streamed."""
    page, per_page = args.pop("page"), args.pop("per_page")
    now = engine().now  # read only if a filter needs it
    if csv_lists.wanted(args.pop("format", None)):
        release_read_connection()  # each batch reads in its own short transaction
        rows = csv_lists.case_rows(engine().read, actor(), now, args)
        return csv_lists.api_response("casos.csv", csv_lists.CASE_FIELDS, rows)
    items, total = engine().read_listing(queries.list_instances, actor(), now, page=page, per_page=per_page,
                                         **args)
    return page_response(items, total, page, per_page)


@blp.route(f"/instances/<{ID}:instance_id>", methods=["GET"])
@blp.response(200, CaseSchema)
def get_instance(instance_id):
    return answer(read_rows(queries.case_detail, actor(), instance_id))


@blp.route(f"/instances/<{ID}:instance_id>/history", methods=["GET"])
@blp.response(200, HistoryEventSchema(many=True))
def history(instance_id):
    return answer(engine().read(queries.case_history, actor(), instance_id))


@blp.route(f"/instances/<{ID}:instance_id>/activity", methods=["GET"])
@blp.response(200, description="{element id: {state, count}} for the diagram overlay")
def activity(instance_id):
    return answer(read_rows(queries.case_activity, actor(), instance_id))


@blp.route(f"/instances/<{ID}:instance_id>/messages/<string:name>", methods=["POST"])
@blp.arguments(MessageSchema())
@blp.response(200, CaseSchema)
def message(args, instance_id, name):
    """Deliver message `name` with its payload to a case waiting for it."""
    return answer(engine().execute(send_message, actor(), instance_id, name, args["payload"]))


@blp.route("/signals/<string:name>", methods=["POST"])
@blp.arguments(MessageSchema())
@blp.response(200, description='{"delivered_to": [case ids]}: every active case waiting for the signal')
def signal(args, name):
    """Broadcast signal `name` with its payload (supervisors)."""
    return answer(engine().execute(send_signal, actor(), name, args["payload"]))


@blp.route(f"/instances/<{ID}:instance_id>/cancel", methods=["POST"])
@blp.arguments(CancelSchema())
@blp.response(200, CaseSchema)
def cancel(args, instance_id):
    return answer(engine().execute(cancel_case, actor(), instance_id, args["reason"]))


@blp.route(f"/instances/<{ID}:instance_id>/retry", methods=["POST"])
@blp.response(200, CaseSchema)
def retry(instance_id):
    return answer(engine().execute(retry_case, actor(), instance_id))
