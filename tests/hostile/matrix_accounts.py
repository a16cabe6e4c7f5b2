"""The user-list rows of the authorization matrix: reading and creating users, an admin changing a
user's fields, and one's own preferences. Kept apart so that the matrix module stays within the
file-size limit; the matrix hands in its own row builders (as tests/hostile/matrix_holidays.py)."""
from __future__ import annotations

from tests.conftest import PASSWORD


def account_rows(row, everyone, only, get, post) -> list:
    return [
        row("GET", "/api/v1/users", only(200, "admin"), get(lambda w: "/api/v1/users")),
        row("POST", "/api/v1/users", only(201, "admin"), post(lambda w: "/api/v1/users", lambda w, u: {
            "username": w.unique("new_user_"), "password": PASSWORD, "roles": ["test_clerk"]})),
        row("PUT", "/api/v1/users/<string:username>", only(200, "admin"),
            post(lambda w: "/api/v1/users/clerk", {"email": "c@a.pr"})),
        row("PUT", "/api/v1/me/preferences", everyone(200),
            post(lambda w: "/api/v1/me/preferences", {"daily_digest": False})),
    ]
