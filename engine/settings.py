"""Settings from the environment (API.md §Command line), read once at start-up."""
from __future__ import annotations

import os
from dataclasses import dataclass

from .clock import Clock, parse_instant
from .paths import data_dir


@dataclass(frozen=True)
class Settings:
    database_url: str
    clock_mode: str
    clock_start: str | None
    secret_key: str

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
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def clock(self) -> Clock:
        start = parse_instant(self.clock_start) if self.clock_start else None
        return Clock(self.clock_mode, start)


def _dev_secret() -> str:
    # A stable per-data-folder secret so sessions survive restarts of a demo server.
    path = data_dir() / "secret_key"
    if not path.exists():
        import secrets
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()
