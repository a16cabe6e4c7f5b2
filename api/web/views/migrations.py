"""The process owner's migration pages: choose the versions, preview which cases move and which
cannot (and why), run it — in batches from the page so it shows progress — and read the summary.

The preview is the engine's dry run and the run the same command for real, so what the preview
says is what the run does (engine/commands/migrations.py).
"""
from __future__ import annotations

import json

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands.migrations import migrate_cases
from engine.commands.moves import move_case
from engine.errors import EngineError
from engine.kernel import access
from engine.queries import migrations as queries

from api.errors import http_status
from api.web.blueprint import bp
from api.web.session import allowed, engine, web_actor
from api.web.views.common import read, run

MAX_BATCH = 200


def _mapping(text: str) -> dict[str, str]:
    """`old_id = new_id`, one per line; blank lines ignored."""
    mapping = {}
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        old, sep, new = line.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise ValueError(line.strip())
        mapping[old.strip()] = new.strip()
    return mapping


def _choice(versions: list[dict]) -> tuple[int | None, int | None]:
    numbers = [v["version"] for v in versions]
    to = request.values.get("to", type=int) or (numbers[0] if numbers else None)
    older = [v["version"] for v in versions if v["version"] != to and v["running"]]
    return request.values.get("from", type=int) or (older[0] if older else None), to


def _with_numbers(result: dict) -> dict:
    numbers = read(queries.case_numbers, result["migrated"] + [b["id"] for b in result["blocked"]])
    return {"migrated": [{"id": i, "case_number": numbers.get(i, str(i))} for i in result["migrated"]],
            "blocked": [{**b, "case_number": numbers.get(b["id"], str(b["id"]))} for b in result["blocked"]]}


def _summary_from_batches() -> dict:
    """The page's batches' results, posted back for the summary (shown only to who ran them)."""
    try:
        migrated = [int(i) for i in request.form.get("summary_migrated", "").split(",") if i]
        blocked = [{"id": int(b["id"]), "reason": str(b["reason"])}
                   for b in json.loads(request.form.get("summary_blocked") or "[]")]
    except (ValueError, KeyError, TypeError):
        abort(400)
    return _with_numbers({"migrated": migrated, "blocked": blocked})


@bp.route("/processes/<string:key>/migrate", methods=["GET", "POST"])
@allowed(access.owns_processes)
def migrate_page(key):
    versions = read(queries.running_by_version, key)
    if not versions:
        abort(404)
    source, target = _choice(versions)
    form = {"from": source, "to": target, "mapping": request.values.get("mapping", ""),
            "reason": request.values.get("reason", "")}
    context = {"key": key, "versions": versions, "form": form, "preview": None, "summary": None, "error": None}
    if request.method == "POST":
        try:
            mapping = _mapping(form["mapping"])
        except ValueError as exc:
            context["error"] = _("Cada línea del mapeo es «id_anterior = id_nuevo»; no se entiende: %(line)s",
                                 line=str(exc))
            return render_template("web/migrate.html", **context), 422
        if request.form.get("action") == "summary":
            context["summary"] = _summary_from_batches()
            return render_template("web/migrate.html", **context)
        run = request.form.get("action") == "run"
        try:
            result = migrate_cases(engine(), web_actor(), key, source, target, dry_run=not run,
                                   mapping=mapping or None, reason=form["reason"] or None)
        except EngineError as exc:
            context["error"] = exc.message
            return render_template("web/migrate.html", **context), http_status(exc)[0]
        context["summary" if run else "preview"] = _with_numbers(result)
        if run:
            context["versions"] = read(queries.running_by_version, key)
    return render_template("web/migrate.html", **context)


@bp.route("/processes/<string:key>/migrate/batch", methods=["POST"])
@allowed(access.owns_processes)
def migrate_batch(key):
    """One batch of the page's run: JSON {"from", "to", "ids", "mapping", "reason"} → the result."""
    body = request.get_json(silent=True) or {}
    ids = body.get("ids")
    if not isinstance(ids, list) or len(ids) > MAX_BATCH:
        return jsonify({"message": _("Lote no válido.")}), 422
    try:
        mapping = _mapping(body.get("mapping", ""))
        result = migrate_cases(engine(), web_actor(), key, body.get("from"), body.get("to"), instance_ids=ids,
                               mapping=mapping or None, reason=body.get("reason") or None)
    except ValueError as exc:
        return jsonify({"message": str(exc)}), 422
    except EngineError as exc:
        return jsonify({"message": exc.message, "errors": exc.errors}), http_status(exc)[0]
    return jsonify(_with_numbers(result))


@bp.route("/cases/<int:instance_id>/move", methods=["POST"])
@allowed(access.sees_all_cases)
def move(instance_id):
    """The case page's move form (supervisors)."""
    source, target = request.form.get("from_element", ""), request.form.get("to_element", "")
    reason = request.form.get("reason", "").strip()
    if not reason:
        flash(_("Escriba el motivo del cambio."), "error")
        return redirect(url_for("web.case", instance_id=instance_id))
    _result, refusal = run(move_case, instance_id, source, target, reason)
    if refusal:
        reasons = [m for key, messages in (refusal.errors or {}).items() if key != "rule" for m in messages]
        flash(" ".join(reasons) or refusal.message, "error")
    else:
        flash(_("Caso movido al paso «%(to)s».", to=target), "success")
    return redirect(url_for("web.case", instance_id=instance_id))
