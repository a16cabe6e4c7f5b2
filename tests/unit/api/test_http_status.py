"""The HTTP status of each kind of refusal (API.md §Conventions), decided once in api/errors.py."""
import pytest

from api.errors import http_status
from engine.errors import BadRequest, Conflict, EngineError, Forbidden, NotFound, Unauthorized, ValidationFailed
from engine.identity.login_throttle import TooManyLogins
from engine.rules.decision import Refusal, RuleViolation


@pytest.mark.parametrize("refusal, status", [
    (EngineError("x"), 400), (BadRequest("x"), 400), (Unauthorized("x"), 401), (Forbidden("x"), 403),
    (NotFound("x"), 404), (Conflict("x", code="TASK_NOT_OPEN"), 409), (ValidationFailed("x"), 422),
    (TooManyLogins(30), 429), (RuleViolation("PRICE_EXCEEDS_FMV", "x"), 422),
    (Refusal("UNTIMELY_REVIEW_REQUEST", "x"), 409),
])
def test_each_refusal_has_the_status_api_md_gives_it(refusal, status):
    assert http_status(refusal)[0] == status


def test_a_refusal_of_a_new_kind_takes_its_base_s_status():
    class OutOfStock(Conflict):
        pass
    assert http_status(OutOfStock("x")) == (409, "Conflict")
