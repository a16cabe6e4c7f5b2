"""Case and task lists as CSV, streamed: every row of the filter, batch after batch (engine/queries/exports.py).

The API writes the JSON field names as its header row, in UTF-8 without a byte-order mark (a
program reads it). The web download writes Spanish headers and starts with a BOM: Excel opens a
UTF-8 file without one as Windows-1252 and "María" comes out as "MarÃ­a".
"""
from __future__ import annotations

import csv
import io
from typing import Callable, Iterable, Iterator

from flask import Response, request, stream_with_context

from engine.queries import exports

CSV = "text/csv"
BOM = "\ufeff"
CASE_FIELDS = ("id", "case_number", "process_key", "version", "status", "outcome", "stage", "applicant_name",
               "applicant_id", "municipality", "reference", "office", "started_at", "ended_at", "started_by")
TASK_FIELDS = ("id", "instance_id", "case_number", "process_key", "element_id", "name", "lane", "assignee", "state",
               "priority", "created_at", "due_at", "completed_at", "completed_by", "on_behalf_of")



def openapi_200(schema_name: str) -> dict:
    """A list's 200 in the OpenAPI document: the JSON page, and the CSV (for clients and schemathesis;
    a manual `doc` replaces the generated content, so the JSON one is written here too)."""
    return {"200": {"description": "OK: a page as JSON, or every row as CSV", "content": {
        "application/json": {"schema": {"type": "array", "items": {"$ref": f"#/components/schemas/{schema_name}"}}},
        CSV: {"schema": {"type": "string", "description": "every row of the filter, UTF-8, a header row"}}}}}


def wanted(format_arg: str | None) -> bool:
    """`format=csv`, or an Accept header that prefers text/csv to JSON."""
    if format_arg:
        return format_arg == "csv"
    return request.accept_mimetypes.best_match(["application/json", CSV]) == CSV


def _rows(fetch: Callable, start) -> Iterator[dict]:
    """The first batch is read now, before any byte is sent: a refusal (403 for `scope=all`) or a
    bad filter still answers with its own status, not inside a 200 already under way."""
    items, after = fetch(start)

    def more():
        nonlocal items, after
        while True:
            yield from items
            if after is None:
                return
            items, after = fetch(after)
    return more()


def case_rows(read, actor, now, filters: dict) -> Iterator[dict]:
    """Every case of the filter; `read(query, *args, **kwargs)` runs one short read transaction."""
    return _rows(lambda after: read(exports.instance_batch, actor, now, after=after, **filters), None)


def task_rows(read, actor, now, filters: dict) -> Iterator[dict]:
    return _rows(lambda after: read(exports.task_batch, actor, now, after=after, **filters), 0)


def _lines(header: list[str], rows: Iterable[list], bom: bool) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    first, count = (BOM if bom else "") + buffer.getvalue(), 0
    buffer.seek(0), buffer.truncate()
    yield first
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
        count += 1
        if count % 200 == 0:
            yield buffer.getvalue()
            buffer.seek(0), buffer.truncate()
    yield buffer.getvalue()


def response(filename: str, header: list[str], rows: Iterable[list], *, bom: bool = False) -> Response:
    """A streamed download; the rows are read as the client takes them."""
    out = Response(stream_with_context(_lines(header, rows, bom)), mimetype=CSV)
    out.headers["Content-Type"] = "text/csv; charset=utf-8"
    out.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    out.headers["Cache-Control"] = "no-store"
    return out


def api_response(filename: str, fields: tuple, items: Iterable[dict]) -> Response:
    return response(filename, list(fields), ([item.get(f) for f in fields] for item in items))
