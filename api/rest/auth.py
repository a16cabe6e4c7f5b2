"""Bearer-token authentication for `/api/v1`: every call but the token request needs one."""
from __future__ import annotations

from flask import current_app, g, request

from engine.identity import absences, accounts
from engine.identity.actor import Actor
from engine.applicants.codes import TOKEN_PREFIX as APPLICANT_TOKEN_PREFIX
from engine.errors import Forbidden, Unauthorized
from engine.kernel import outage

OPEN_PATHS = {"/api/v1/auth/token", "/api/v1/openapi.json"}
PUBLIC_PREFIX = "/api/v1/public/"  # the applicant's routes authenticate themselves (api/rest/public.py)


def engine():
    return current_app.extensions["tramite"]


def bearer_token(req=None) -> str | None:
    header = (req or request).environ.get("HTTP_AUTHORIZATION", "")
    if header[:7].lower() == "bearer " and header[7:].strip():
        return header[7:].strip()
    return None


def read_rows(query, *args, **kwargs):
    """Run a Core read in the request's read transaction (opened for authentication)."""
    conn = g.get("read_conn")
    if conn is None:
        return engine().read_rows(query, *args, **kwargs)
    return query(conn, *args, **kwargs)


def read_listing_rows(query, *args, **kwargs):
    """`read_rows` for a list: on the read replica when one is configured, else the request's."""
    if engine().has_replica:
        return engine().read_listing_rows(query, *args, **kwargs)
    return read_rows(query, *args, **kwargs)


def release_read_connection(_exc=None) -> None:
    conn = g.pop("read_conn", None)
    if conn is not None:
        absences.forget_noted()  # what the bearer check read on it ends with the request
        conn.close()  # ends the read-only transaction


def authenticate_request() -> None:
    # Runs before every request: the request and `g` are fetched once (each use of a proxy costs).
    req = request._get_current_object()
    path = req.path
    if not path.startswith("/api/v1") or path in OPEN_PATHS or path.startswith(PUBLIC_PREFIX):
        return
    token = bearer_token(req)
    if token is None:
        raise Unauthorized("send Authorization: Bearer <token> (POST /api/v1/auth/token)")
    if token.startswith(APPLICANT_TOKEN_PREFIX):
        raise Forbidden("an applicant token opens only the applicant's routes (/api/v1/public/)")
    # A read request gets one read transaction for the token check and its own reads. A write
    # request reads the token on a connection held for that one statement: an open SQLite reader
    # would hold back the WAL checkpoints of the write that follows, and its command opens its own.
    state = g._get_current_object()
    read_engine = current_app.extensions["tramite"].db.read_engine
    # Each once more on a fresh connection if the database had dropped the first (a restart).
    if req.method == "GET":
        state.read_conn, user = outage.read_again_if_lost(lambda: _held_for_the_request(read_engine, token))
    else:
        user = outage.read_again_if_lost(lambda: accounts.authenticate_once(read_engine, token))
    state.user = user
    state.actor = Actor(user["username"], frozenset(user["roles"]), user["office"])


def _held_for_the_request(read_engine, token: str) -> tuple:
    """A read connection held until the request ends, and the bearer's user read on it."""
    conn = read_engine.connect()
    try:
        conn.begin()
        return conn, accounts.authenticate(conn, token, note_absences=True)
    except BaseException:
        conn.close()
        raise


def actor() -> Actor:
    return g.actor
