"""The one blueprint every web page hangs on: `/web/...`, its templates and its static files."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("web", __name__, url_prefix="/web", template_folder="templates", static_folder="static")
