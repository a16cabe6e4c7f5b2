"""`/api/docs`: Swagger UI over the OpenAPI document, its start-up in a file (the page CSP refuses
inline script), and only the two swagger-ui-dist files it loads (api/static.py) — not the package's
demo index.html, which points at the petstore."""
from __future__ import annotations

from flask import Blueprint, Response, url_for
from markupsafe import escape

blp = Blueprint("api_docs", __name__, static_folder="static", static_url_path="/static/api")

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trámite API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css"></head>
<body><div id="swagger-ui" data-spec-url="{spec}"></div>
<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js" defer></script>
<script src="{start}" defer></script></body></html>"""


@blp.route("/api/docs")
def swagger_ui():
    return Response(PAGE.format(spec=escape(url_for("api-docs.openapi_json")),
                                start=escape(url_for("api_docs.static", filename="api_docs.js"))),
                    mimetype="text/html")
