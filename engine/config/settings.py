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
    second_factor_required: bool = False
    local_passwords: bool = True

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


def _dev_secret() -> str:
    # A stable per-data-folder secret so sessions survive restarts of a demo server.
    path = data_dir() / "secret_key"
    if not path.exists():
        import secrets
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()
