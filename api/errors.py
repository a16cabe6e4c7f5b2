"""Every refusal of the engine as an HTTP status, once (the REST answers and the web pages both ask
here), and the REST error body of API.md; nothing escapes as a bare 500."""
from __future__ import annotations

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from engine.errors import (
    BadRequest, Conflict, DatabaseUnavailable, EngineError, Forbidden, NotFound, PayloadTooLarge, StorageUnavailable,
    Unauthorized, UnsupportedMediaType, ValidationFailed,
)
from engine.kernel import outage
from engine.identity.login_throttle import TooManyLogins
from engine.rules.decision import Refusal, RuleViolation
from engine.rules.reasons import explain_refusal, refusal_sentences

log = logging.getLogger("tramite.api")

# API.md §Conventions: the status of each kind of refusal; a kind not listed takes its base's.
STATUSES: dict[type, tuple[int, str]] = {
    EngineError: (400, "Bad Request"), BadRequest: (400, "Bad Request"),
    Unauthorized: (401, "Unauthorized"), Forbidden: (403, "Forbidden"), NotFound: (404, "Not Found"),
    Conflict: (409, "Conflict"), ValidationFailed: (422, "Unprocessable Entity"),
    TooManyLogins: (429, "Too Many Requests"),
    PayloadTooLarge: (413, "Request Entity Too Large"), UnsupportedMediaType: (415, "Unsupported Media Type"),
    StorageUnavailable: (503, "Service Unavailable"), DatabaseUnavailable: (503, "Service Unavailable"),
    # A rule refuses what was asked (422), or refuses it as out of time or out of turn (409).
    RuleViolation: (422, "Unprocessable Entity"), Refusal: (409, "Conflict"),
}


def http_status(exc: Exception) -> tuple[int, str]:
    """(status, reason) of an engine refusal or a rule's."""
    for kind in type(exc).__mro__:
        if kind in STATUSES:
            return STATUSES[kind]
    return 500, "Internal Server Error"


def body(status: int, reason: str, message: str, errors: dict | None = None):
    response = jsonify({"code": status, "status": reason, "message": message, "errors": errors or {}})
    response.status_code = status
    return response


def _flatten(errors, prefix="") -> dict[str, list[str]]:
    """webargs nests errors by location and field; API.md wants {"field.path": [messages]}."""
    flat: dict[str, list[str]] = {}
    if isinstance(errors, dict):
        for key, value in errors.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            for k, v in _flatten(value, path).items():
                flat.setdefault(k, []).extend(v)
    elif isinstance(errors, list) and all(isinstance(e, str) for e in errors):
        flat[prefix or "_schema"] = list(errors)
    elif isinstance(errors, list):
        for i, e in enumerate(errors):
            flat.update(_flatten(e, f"{prefix}.{i}"))
    else:
        flat[prefix or "_schema"] = [str(errors)]
    return flat


def database_gone(exc: EngineError) -> bool:
    """Whether `exc` is the 503 of a database out of reach (engine/kernel/outage.py); if so it is
    logged in one line (no traceback: nothing in the request was at fault)."""
    if not isinstance(exc, DatabaseUnavailable):
        return False
    cause = exc.__cause__
    log.warning("database unavailable: %s", str(getattr(cause, "orig", None) or cause).strip()[:300])
    return True


def install(app: Flask) -> None:
    @app.errorhandler(EngineError)
    def engine_error(exc: EngineError):
        response = body(*http_status(exc), exc.message, exc.errors)
        if database_gone(exc):
            response.headers["Retry-After"] = str(outage.RETRY_AFTER_SECONDS)
        return response

    @app.errorhandler(TooManyLogins)
    def too_many_logins(exc: TooManyLogins):
        # API.md's error body plus the message in both languages: a login form shows it as it is.
        status, reason = http_status(exc)
        response = jsonify({"code": status, "status": reason, "message": exc.message,
                            "message_en": exc.message, "message_es": exc.message_es, "errors": exc.errors})
        response.status_code = status
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(RuleViolation)
    def rule_violation(exc: RuleViolation):
        # A rule may name several codes and the fields at fault (e.g. the missing documents).
        errors = {**(exc.errors or {}), "rule": list(dict.fromkeys([exc.code, *exc.errors.get("rule", [])]))}
        # Several reasons (a refused admission): the message gives every one in words, with its rules.
        reasons = explain_refusal(exc)
        message = exc.message if len(reasons) < 2 else f"{exc.message}. {refusal_sentences(reasons, 'en')}"
        return body(*http_status(exc), message, errors)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        data = getattr(exc, "data", None) or {}
        errors = data.get("messages") or data.get("errors") or {}
        if exc.code == 422 and errors:
            # Request bodies are JSON; drop the location level ("json", "query").
            errors = {k: v for loc in errors.values() for k, v in _flatten(loc).items()} \
                if all(k in ("json", "query", "form", "files", "headers") for k in errors) else _flatten(errors)
            return body(422, "Unprocessable Entity", "the request has invalid fields", errors)
        message = data.get("message") or exc.description or exc.name
        response = body(exc.code or 500, exc.name, str(message), _flatten(errors) if errors else {})
        # The exception's own headers say what the client needs (Allow on a 405, WWW-Authenticate).
        for name, value in exc.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        gone = outage.unavailable(exc)
        if gone is not None:
            return engine_error(gone)
        log.exception("unexpected error")
        return body(500, "Internal Server Error", "an unexpected error occurred; it has been logged")
