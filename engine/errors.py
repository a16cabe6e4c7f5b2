"""Errors are values with codes; the API maps each kind to one HTTP status, once (api/errors.py)."""
from __future__ import annotations

from engine.rules.decision import RuleViolation  # noqa: F401  (re-exported: rules may not import the engine)


class EngineError(Exception):
    """Base of every refusal the engine makes on purpose (never a crash)."""

    def __init__(self, message: str, errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.errors = errors or {}


class BadRequest(EngineError):
    """Malformed input: a diagram that does not parse, an element at fault."""


class Unauthorized(EngineError):
    """No credentials, or ones that no longer hold (an expired or revoked token)."""


class Forbidden(EngineError):
    """The actor may not act on, or see, what was asked (engine.kernel.access decides)."""


class NotFound(EngineError):
    """Nothing by that id or name."""


class Conflict(EngineError):
    """State conflict: task not open, stale version, message not expected now."""

    def __init__(self, message: str, code: str | None = None, errors: dict | None = None):
        errors = dict(errors or {})
        if code:
            errors.setdefault("rule", []).append(code)
        super().__init__(message, errors)
        self.code = code


class ValidationFailed(EngineError):
    """Per-field validation errors (JSON Schema, marshmallow, typed parameters)."""


class PayloadTooLarge(EngineError):
    """An upload that is empty or larger than its limit (413)."""


class UnsupportedMediaType(EngineError):
    """An upload whose bytes are none of the accepted media types (415)."""


class StorageUnavailable(EngineError):
    """The document store (an S3-compatible bucket) did not take or give the bytes (503; nothing changed)."""


class DatabaseUnavailable(EngineError):
    """The database could not be reached, or dropped the connection mid-request (503): a restart, a
    failover, the network. A change sent at that moment may or may not have been saved."""


class ScriptError(Exception):
    """A script, gateway condition or timer expression failed or was refused by the sandbox.

    Not an EngineError: the case goes to `status = error` and the command still answers.
    """

    def __init__(self, message: str, element_id: str | None = None):
        super().__init__(message)
        self.message = message
        self.element_id = element_id
