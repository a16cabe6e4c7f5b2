"""Who is logged in to the web pages, what they may open, and the CSRF token every form carries.

The signed session cookie holds only the user id, when the login was (`iat`, machine time), the
user's session generation at that login, the CSRF token and the language. A session lasts
SESSION_LIFETIME from its login whatever is done with it (no sliding), and ends for good when the
user's generation moves on (log out, deactivation, a new password: every browser at once; a cookie
kept from before is worth nothing). The user and their roles are read again on each request, so a
role taken away or an account deactivated takes effect at once. Every POST under /web must echo the session's CSRF token (form field `_csrf` or
header `X-CSRF-Token`); the login form too, so nobody can log a browser into someone else's account.
"""
from __future__ import annotations

import hmac
import secrets
import time
from datetime import timedelta
from functools import wraps
from urllib.parse import urlsplit

from flask import abort, current_app, g, redirect, request, session, url_for

from engine.commands import accounts as account_commands
from engine.identity.actor import Actor
from engine.kernel import access
from engine.queries import accounts as account_queries

SESSION_LIFETIME = timedelta(hours=12)
CSRF_FIELD = "_csrf"
CSRF_HEADER = "X-CSRF-Token"


def engine():
    return current_app.extensions["tramite"]


def issued_at() -> float | None:
    """When this session's login was (seconds since the epoch), if it has one."""
    value = session.get("iat")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _still_valid() -> bool:
    # Machine time, as for API tokens: moving a training clock must not log everybody out.
    issued = issued_at()
    return issued is not None and 0 <= time.time() - issued < SESSION_LIFETIME.total_seconds()


def load_user() -> None:
    g.web_user = None
    user_id = session.get("uid")
    if user_id is None:
        return
    user = engine().read(account_queries.signed_in_user, user_id, session.get("gen")) if _still_valid() else None
    if user is None:
        _forget_login()
        return
    g.web_user = user


def current_user() -> dict | None:
    return g.get("web_user")


def web_actor() -> Actor:
    return actor_of(current_user())


def check_credentials(username: str, password: str) -> dict | None:
    """The user for good credentials, None for bad ones; raises TooManyLogins (429) like the API,
    counted in the database so every worker agrees."""
    return engine().execute(account_commands.verify_login, Actor(username), username, password,
                            request.remote_addr or "unknown", current_app.config.get("TRAMITE_LOGIN_POLICY"))


def log_in(user: dict) -> None:
    language = session.get("lang")
    session.clear()  # a fresh session (and CSRF token) at each login: no fixation
    session.permanent = True
    session["uid"] = user["id"]
    session["gen"] = user["session_generation"]
    session["iat"] = int(time.time())
    if language:
        session["lang"] = language
    csrf_token()


def log_out() -> None:
    """End every session of the signed-in user (their generation moves), then this cookie's."""
    user = current_user()
    if user is not None:
        engine().execute(account_commands.end_sessions, actor_of(user))
    _forget_login()


def _forget_login() -> None:
    language = session.get("lang")
    session.clear()
    if language:
        session["lang"] = language


PENDING_SECONDS = 300  # a right password waits this long for its second factor


def begin_pending(user: dict) -> None:
    """A right password that still owes a TOTP code: no session yet, only the pending login."""
    language = session.get("lang")
    session.clear()
    session["pending"] = {"uid": user["id"], "gen": user["session_generation"], "at": int(time.time()),
                          "step": user["second_factor"]}
    if language:
        session["lang"] = language
    csrf_token()


def pending_login() -> dict | None:
    value = session.get("pending")
    if not isinstance(value, dict) or not isinstance(value.get("at"), int):
        return None
    if not 0 <= time.time() - value["at"] < PENDING_SECONDS:
        session.pop("pending", None)
        return None
    return value


def csrf_token() -> str:
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return session[CSRF_FIELD]


def check_csrf() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER) or ""
    expected = session.get(CSRF_FIELD) or ""
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(400, description="CSRF")


def safe_next(target: str | None) -> str | None:
    """Only a path inside the web application: never an open redirect to another site."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/web/") or target.startswith("//"):
        return None
    return target


def login_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if current_user() is None:
            return redirect(url_for("web.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapper


def allowed(check):
    """A page for some users only: `check(actor)`, a predicate of engine.kernel.access, decides at
    once (others get the 403 page, anonymous users the login); the command decides again."""
    def decorate(view):
        @wraps(view)
        @login_required
        def wrapper(*args, **kwargs):
            if not check(web_actor()):
                abort(403)
            return view(*args, **kwargs)
        return wrapper
    return decorate


def actor_of(user: dict) -> Actor:
    return Actor(user["username"], frozenset(user["roles"]), user["office"])


def home_endpoint(user: dict) -> str:
    actor = actor_of(user)
    if access.works_cases(actor):
        return "web.inbox"
    if access.sees_all_cases(actor):
        return "web.dashboard"
    if access.owns_processes(actor):
        return "web.processes"
    return "web.inbox"
