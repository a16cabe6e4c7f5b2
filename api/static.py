"""Serves front-end packages installed from npm (node_modules), never from a CDN."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, abort, send_from_directory

ROOT = Path(__file__).resolve().parent.parent
VENDOR = {
    "swagger-ui": ROOT / "node_modules" / "swagger-ui-dist",
    "bpmn-js": ROOT / "node_modules" / "bpmn-js" / "dist",
    "chart.js": ROOT / "node_modules" / "chart.js" / "dist",
    "properties-panel": ROOT / "node_modules" / "@bpmn-io" / "properties-panel" / "dist" / "assets",
    # The web UI's own bundles (modeler + properties panel, auto-layout), built by `npm run build:web`.
    "tramite-web": ROOT / "node_modules" / ".tramite-web",
}
# Packages served only in part: swagger-ui-dist also ships a demo index.html and start-up script that
# open the petstore example; /api/docs uses these two files alone.
ONLY = {"swagger-ui": frozenset({"swagger-ui.css", "swagger-ui-bundle.js"})}


FAVICON = ROOT / "api" / "web" / "static" / "favicon.svg"


def install(app: Flask) -> None:
    # Pages link the icon (base.html); /favicon.ico answers the browsers and pages that ask anyway.
    @app.route("/favicon.ico")
    def favicon():
        return send_from_directory(FAVICON.parent, FAVICON.name, mimetype="image/svg+xml", max_age=86400)

    @app.route("/static/vendor/<string:package>/<path:filename>")
    def vendor(package, filename):
        folder = VENDOR.get(package)
        if folder is None or not folder.is_dir():
            abort(404, description=f"front-end package {package} is not installed (run the set-up command)")
        if package in ONLY and filename not in ONLY[package]:
            abort(404)
        return send_from_directory(folder, filename)
