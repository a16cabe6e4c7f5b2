"""The dashboard's report section: the same figures as `GET /api/v1/reports/cycle-times` under the
page's filters (procedure, office, from, to), with the geometry of its SVG charts."""
from __future__ import annotations

from flask import request

from engine.errors import ValidationFailed
from engine.queries import reports

from api.web import report_charts
from api.web import labels
from api.web.session import engine, web_actor
from api.web.views.common import process_names

REPORT_FILTERS = ("process", "office", "from", "to")


def dashboard_report() -> dict:
    filters = {k: (request.args.get(k) or "").strip()[:100] or None for k in REPORT_FILTERS}
    error = None
    try:
        report = engine().read_rows(reports.cycle_times, web_actor(), filters["process"], filters["from"],
                                    filters["to"], office=filters["office"])
    except ValidationFailed as refusal:  # a bad date in the filter: the form says so, the rest still shows
        error = sorted(refusal.errors)
        report = engine().read_rows(reports.cycle_times, web_actor(), filters["process"], office=filters["office"])
    names = process_names()

    def of_stage(row):
        return f"{names.get(row['process'], row['process'])} · {labels.stage(row['stage'], row['process'])}"

    def of_task(row):
        return f"{names.get(row['process'], row['process'])} · {row['name']}"
    charts = {
        "stages": report_charts.bars(report["stages"], "median_hours", of_stage, unit=" h", second_key="p90_hours"),
        "tasks": report_charts.bars(report["tasks"], "median_hours", of_task, unit=" h", second_key="p90_hours"),
        "deadlines": report_charts.bars(report["deadlines"], "on_time_pct", of_task, maximum=100, unit=" %"),
        "months": report_charts.months(report["months"]),
    }
    offices = sorted({m["office"] for m in report["months"] if m["office"]} | ({filters["office"]} - {None}))
    return {"report": report, "charts": charts, "report_filters": filters, "report_error": error,
            "report_offices": offices}
