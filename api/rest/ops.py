"""Health, metrics and the landing page."""
from __future__ import annotations

import hmac

from flask import Blueprint, Response, abort, current_app, jsonify
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Gauge, generate_latest

from engine.errors import Unauthorized
from engine.queries import operations

from api.rest.auth import bearer_token, engine

blp = Blueprint("ops", __name__)

LANDING = """<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Trámite</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/api/landing.css"></head>
<body>
<h1>Trámite</h1>
<p>Motor de casos BPMN para procedimientos del Gobierno de Puerto Rico.</p>
<ul><li><a href="/web/">Aplicación web (entrar)</a></li>
<li><a href="/api/docs">Documentación de la API (OpenAPI)</a></li>
<li><a href="/api/v1/openapi.json">openapi.json</a></li>
<li><a href="/healthz">Estado del servicio</a></li></ul>
<p lang="en"><small>BPMN case engine for Puerto Rico government procedures.
<a href="/api/docs">API documentation</a>.</small></p></body></html>"""


@blp.route("/")
def landing():
    return Response(LANDING, mimetype="text/html")


@blp.route("/healthz")
def healthz():
    try:
        engine().read_rows(operations.database_answers)
    except Exception:
        return jsonify({"status": "degraded", "database": "unreachable"}), 503
    return jsonify({"status": "ok", "database": "ok"})


def _check_metrics_token() -> None:
    """The figures name every procedure and lane and their load: only the scraper with
    TRAMITE_METRICS_TOKEN reads them; with no token configured, nobody does."""
    expected = current_app.config.get("TRAMITE_METRICS_TOKEN")
    if not expected:
        abort(404, description="metrics are off: set TRAMITE_METRICS_TOKEN and send it as a bearer token")
    sent = bearer_token() or ""
    if not hmac.compare_digest(sent.encode(), expected.encode()):
        raise Unauthorized("send Authorization: Bearer <TRAMITE_METRICS_TOKEN>")


@blp.route("/metrics")
def metrics():
    _check_metrics_token()
    # Read from the database at scrape time so every worker process reports the same figures.
    registry = CollectorRegistry()
    cases = Gauge("tramite_cases", "Cases by process and status", ["process", "status"], registry=registry)
    open_tasks = Gauge("tramite_open_tasks", "Open human tasks by lane", ["lane"], registry=registry)
    due = Gauge("tramite_pending_timers", "Timers not yet fired", registry=registry)

    figures = engine().read(operations.figures)
    for key, status, n in figures["cases"]:
        cases.labels(key, status).set(n)
    for lane, n in figures["open_tasks"]:
        open_tasks.labels(lane or "").set(n)
    due.set(figures["pending_timers"])
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
