"""WSGI entry for gunicorn: `gunicorn 'api.wsgi:application()'`.

Migrations and the deployment of `processes/` happen once, before workers start
(`tramite db upgrade` / `tramite serve`), never in each worker.
"""
from __future__ import annotations

from api.app import create_app


def application():
    return create_app(bootstrap=False)
