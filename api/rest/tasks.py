"""Human tasks: inbox lists, detail with form, claim, release, assign, complete."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.queries import cases as queries
from engine.commands import tasks as commands

from api import csv_lists
from api.rest.auth import actor, engine, read_listing_rows, release_read_connection
from api.rest.responses import answer
from api.rest.pagination import page_response
from api.rest.schemas import (
    AssignSchema, CompleteResultSchema, CompleteSchema, TaskDetailSchema, TaskListArgs, TaskSchema,
)
from api.rest import ID

blp = Blueprint("tasks", __name__, url_prefix="/api/v1/tasks", description="Human tasks")


@blp.route("", methods=["GET"])
@blp.arguments(TaskListArgs(), location="query")
@blp.response(200, TaskSchema(many=True))
@blp.doc(responses=csv_lists.openapi_200("Task"))
def list_tasks(args):
    """`Accept: text/csv` or `format=csv`: every task of the filter as CSV, in the order they were made."""
    page, per_page = args.pop("page"), args.pop("per_page")
    now = engine().now  # read only if a filter needs it
    if csv_lists.wanted(args.pop("format", None)):
        release_read_connection()
        rows = csv_lists.task_rows(engine().read, actor(), now, args)
        return csv_lists.api_response("tareas.csv", csv_lists.TASK_FIELDS, rows)
    items, total = read_listing_rows(queries.list_tasks, actor(), now, page=page, per_page=per_page, **args)
    return page_response(items, total, page, per_page)


@blp.route(f"/<{ID}:task_id>", methods=["GET"])
@blp.response(200, TaskDetailSchema)
def get_task(task_id):
    return answer(engine().read(queries.get_task, engine().versions, actor(), task_id))


@blp.route(f"/<{ID}:task_id>/claim", methods=["POST"])
@blp.response(200, TaskSchema)
def claim(task_id):
    return answer(engine().execute(commands.claim, actor(), task_id))


@blp.route(f"/<{ID}:task_id>/unclaim", methods=["POST"])
@blp.response(200, TaskSchema)
def unclaim(task_id):
    return answer(engine().execute(commands.unclaim, actor(), task_id))


@blp.route(f"/<{ID}:task_id>/assign", methods=["POST"])
@blp.arguments(AssignSchema())
@blp.response(200, TaskSchema)
def assign(args, task_id):
    return answer(engine().execute(commands.assign, actor(), task_id, args["username"]))


@blp.route(f"/<{ID}:task_id>/complete", methods=["POST"])
@blp.arguments(CompleteSchema())
@blp.response(200, CompleteResultSchema)
def complete(args, task_id):
    """Complete a task: JSON Schema validation (422 per field), then the procedure's rules."""
    return answer(engine().execute(commands.complete, actor(), task_id, args["data"]))
