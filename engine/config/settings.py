"""Settings from the environment (API.md §Command line), read once at start-up."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from datetime import timedelta

from engine.config.clock import Clock, parse_instant
from engine.config.login_policy import LoginPolicy, local_passwords_allowed
from engine.errors import EngineError
from engine.config.paths import data_dir

TIMER_LEASE_SECONDS = 120.0
# One command's engine work (engine/runtime/stepping.py): automatic steps, CPU time, and how deep
# call activities and sub-processes may nest. A 2,000-round script loop takes 4,000 steps and
# about 1.5 s on one loaded core.
COMMAND_MAX_STEPS = 20_000
COMMAND_MAX_SECONDS = 3.0
COMMAND_MAX_CALL_DEPTH = 50


@dataclass(frozen=True)
class Settings:
    database_url: str
    clock_mode: str
    clock_start: str | None
    secret_key: str
    # Login throttling (engine/login_throttle.py): failures allowed per window, per username and
    # per client address. Operational settings, not legal parameters: they stay out of processes/.
    login_window_seconds: int = 900
    login_failures_per_username: int = 5
    login_failures_per_address: int = 30
    # The address users reach the server at (https://tramite.agencia.pr): links the API builds use it,
    # never the request's Host header, and an https one means TLS ends at a proxy (HSTS is sent).
    public_url: str | None = None
    # The bearer token Prometheus sends to /metrics; unset, /metrics answers nobody.
    metrics_token: str | None = None
    second_factor_required: bool = False
    local_passwords: bool = True
    # Past one machine (README §Several hosts): a streaming replica the lists and dashboards read
    # from, and whether psycopg may prepare statements on the server (not behind PgBouncer in
    # transaction mode, whose clients share server connections: TRAMITE_DATABASE_PREPARE=off).
    replica_url: str | None = None
    prepared_statements: bool = True

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        env = os.environ
        url = env.get("TRAMITE_DATABASE_URL")
        if not url:
            folder = data_dir()
            folder.mkdir(parents=True, exist_ok=True)
            url = f"sqlite:///{folder / 'tramite.db'}"
        values = dict(database_url=url, clock_mode=env.get("TRAMITE_CLOCK", "system"),
                      clock_start=env.get("TRAMITE_CLOCK_START"),
                      secret_key=env.get("TRAMITE_SECRET_KEY") or _dev_secret())
        for name in ("login_window_seconds", "login_failures_per_username", "login_failures_per_address"):
            if env.get(f"TRAMITE_{name.upper()}"):
                values[name] = int(env[f"TRAMITE_{name.upper()}"])
        if env.get("TRAMITE_DATABASE_REPLICA_URL", "").strip():
            values["replica_url"] = env["TRAMITE_DATABASE_REPLICA_URL"].strip()
        values["prepared_statements"] = _switch(env, "TRAMITE_DATABASE_PREPARE", True)
        for name in ("public_url", "metrics_token"):
            if env.get(f"TRAMITE_{name.upper()}", "").strip():
                values[name] = env[f"TRAMITE_{name.upper()}"].strip()
        if env.get("TRAMITE_SECOND_FACTOR", "").strip().lower() in ("required", "1", "true", "yes", "on"):
            values["second_factor_required"] = True
        values["local_passwords"] = local_passwords_allowed(env)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def login_policy(self) -> LoginPolicy:
        return LoginPolicy(timedelta(seconds=self.login_window_seconds), self.login_failures_per_username,
                           self.login_failures_per_address, self.second_factor_required, self.local_passwords)

    def clock(self) -> Clock:
        start = parse_instant(self.clock_start) if self.clock_start else None
        return Clock(self.clock_mode, start)


def _switch(env, name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("on", "1", "true", "yes"):
        return True
    if raw in ("off", "0", "false", "no"):
        return False
    raise EngineError(f"{name} must be on or off, not {raw!r}")


def timer_lease() -> timedelta:
    """TRAMITE_TIMER_LEASE_SECONDS: how long a timer worker holds the due timers it has taken.

    A worker that dies holding them delays them by at most this much; it must stay longer than a
    worker needs to fire one batch (a firing is exactly-once anyway: it locks its timer row).
    """
    raw = os.environ.get("TRAMITE_TIMER_LEASE_SECONDS", "").strip()
    if not raw:
        return timedelta(seconds=TIMER_LEASE_SECONDS)
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise EngineError(f"TRAMITE_TIMER_LEASE_SECONDS must be a number of seconds above 0, not {raw!r}")
    return timedelta(seconds=seconds)


def command_budget() -> tuple[int, float, int]:
    """(steps, seconds, call depth) one command may spend running the engine:
    TRAMITE_COMMAND_MAX_STEPS, TRAMITE_COMMAND_MAX_SECONDS, TRAMITE_COMMAND_MAX_CALL_DEPTH."""
    return (int(_positive("TRAMITE_COMMAND_MAX_STEPS", COMMAND_MAX_STEPS)),
            _positive("TRAMITE_COMMAND_MAX_SECONDS", COMMAND_MAX_SECONDS),
            int(_positive("TRAMITE_COMMAND_MAX_CALL_DEPTH", COMMAND_MAX_CALL_DEPTH)))


def _positive(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise EngineError(f"{name} must be a number above 0, not {raw!r}")
    return value


def _dev_secret() -> str:
    # A stable per-data-folder secret so sessions survive restarts of a demo server. It signs every
    # session: created readable by its owner alone (0600), and an older world-readable one is narrowed.
    path = data_dir() / "secret_key"
    if not path.exists():
        import secrets
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: use theirs
            pass
        else:
            with os.fdopen(handle, "w") as file:
                file.write(secrets.token_hex(32))
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)
    return path.read_text().strip()
