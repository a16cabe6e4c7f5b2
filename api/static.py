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


def install(app: Flask) -> None:
    @app.route("/static/vendor/<string:package>/<path:filename>")
    def vendor(package, filename):
        folder = VENDOR.get(package)
        if folder is None or not folder.is_dir():
            abort(404, description=f"front-end package {package} is not installed (run the set-up command)")
        if package in ONLY and filename not in ONLY[package]:
            abort(404)
        return send_from_directory(folder, filename)
