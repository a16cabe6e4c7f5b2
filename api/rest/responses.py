"""Answers built by the engine's views go out as they are.

The engine's views already have the shapes the marshmallow schemas document; dumping them again
through the schemas cost as much as the database work of a read, so routes return JSON directly
and the schemas serve the OpenAPI document (and the fuzzing that checks it).
"""
from __future__ import annotations

from flask import jsonify


def answer(payload, status: int = 200):
    response = jsonify(payload)
    response.status_code = status
    return response
