"""Live servers for the production tests: a fresh PostgreSQL database each, `tramite serve` and
`tramite worker` as real subprocesses on loopback, and a plain HTTP client (one connection each)."""
from __future__ import annotations

import http.client
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api.balanced_worker import READY as WORKER_READY
from engine.commands import accounts
from tests.support.databases import drop_database as dropped, fresh_database
from engine.bootstrap import prepare
from engine.config.clock import Clock, parse_instant
from engine.commands.deploy import deploy
from engine.identity.actor import SYSTEM
from engine.bootstrap import make_engine

REPO = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("TRAMITE_TEST_DATABASE_URL", "")
IS_POSTGRES = PG_URL.startswith("postgresql")
REQUIRES_POSTGRES = pytest.mark.skipif(
    not IS_POSTGRES,
    reason="production tests run only against PostgreSQL (CI's `make test-pg` phase): "
           "set TRAMITE_TEST_DATABASE_URL=postgresql+psycopg://... (scripts/postgres-test-server.sh)")

START = "2024-04-01T12:00:00-04:00"  # the manual clock's start, a Monday
PASSWORD = "secreto-123"
TEST_ROLES = ("test_clerk", "test_reviewer")
SERVER_READY_SECONDS = 60


def tramite_command() -> list[str]:
    """The installed `tramite` script of this interpreter's environment, else the module itself."""
    script = Path(sys.executable).with_name("tramite")
    return [str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float, what: str, interval: float = 0.05):
    """Poll `predicate` (an external process's progress) until truthy or the deadline passes."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


# --- the database -------------------------------------------------------------------------------

def create_database(label: str, worker_id: str) -> str:
    """A new, empty database on the test server, named after the test and the xdist worker."""
    return fresh_database(PG_URL, f"{make_url(PG_URL).database}_prod_{label}_{worker_id}"[:63])


def drop_database(url: str) -> None:
    target = make_url(url)
    admin = create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        dropped(conn, target.database)
    admin.dispose()


class Installation:
    """One fresh database made ready the way an operator would: migrated, seeded, users, diagrams."""

    def __init__(self, url: str, workdir: Path):
        self.url = url
        self.workdir = workdir
        self.engine = make_engine(url, Clock("manual", parse_instant(START)))
        prepare(self.engine)  # migrations, built-in roles and parameters
        self.engine.execute(lambda ctx: [accounts.add_role(ctx, r, r, r) for r in TEST_ROLES], SYSTEM)
        self.processes = self._processes_folder()

    def _processes_folder(self) -> Path:
        """The real catalogues (roles, parameters, offices…) but no procedure: `serve` deploys nothing."""
        folder = self.workdir / "processes"
        folder.mkdir(parents=True, exist_ok=True)
        for item in (REPO / "processes").iterdir():
            if item.is_file():
                shutil.copy(item, folder / item.name)
        return folder

    def users(self, roles_by_user: dict[str, list[str]]) -> None:
        def create(ctx):
            for username, roles in roles_by_user.items():
                accounts.create_user(ctx, username, PASSWORD, roles, full_name=username)
        self.engine.execute(create, SYSTEM)

    def tokens(self, *usernames: str) -> dict[str, str]:
        """Bearer tokens issued by the engine itself, so the tests never meet a login rate limit."""
        return {u: self.engine.execute(lambda ctx, u=u: accounts.issue_token(ctx, u, PASSWORD)["token"], SYSTEM)
                for u in usernames}

    def deploy(self, key: str, files: dict[str, str]) -> None:
        self.engine.execute(deploy, SYSTEM, key, files)

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRAMITE_")}
        env.update(TRAMITE_DATABASE_URL=self.url, TRAMITE_CLOCK="manual", TRAMITE_CLOCK_START=START,
                   TRAMITE_SECRET_KEY="production-test-secret", TRAMITE_DATA_DIR=str(self.workdir / "data"),
                   TRAMITE_PROCESSES_DIR=str(self.processes), PYTHONUNBUFFERED="1")
        env.update(extra)
        return env

    def scalar(self, sql: str, **params):
        with self.engine.db.read_engine.connect() as conn:
            return conn.execute(text(sql), params).scalar()

    def rows(self, sql: str, **params) -> list:
        with self.engine.db.read_engine.connect() as conn:
            return conn.execute(text(sql), params).all()

    def close(self) -> None:
        self.engine.db.dispose()


# --- processes ------------------------------------------------------------------------------------

def _stop(proc: subprocess.Popen, sig=signal.SIGTERM, timeout: float = 20) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


class LiveServer:
    """`tramite serve` (gunicorn, several workers) in its own process group on a free loopback port."""

    def __init__(self, installation: Installation, *, workers: int = 2, threads: int = 8,
                 timer_worker: bool = False, name: str = "server", env: dict[str, str] | None = None):
        self.installation = installation
        self.extra_env = env or {}
        self.workers, self.threads, self.timer_worker = workers, threads, timer_worker
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.installation.workdir / f"{self.name}-{self.starts}.log"

    def start(self) -> "LiveServer":
        for attempt in range(3):
            try:
                return self._start()
            except AssertionError:
                # Another process may have taken the free port before gunicorn bound it: try another.
                if attempt == 2 or "Address already in use" not in self.log():
                    raise

    def _start(self) -> "LiveServer":
        self.starts += 1
        self.port = free_port()
        cmd = [*tramite_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--workers", str(self.workers), "--threads", str(self.threads)]
        if not self.timer_worker:
            cmd.append("--no-timer-worker")
        with open(self.log_path, "wb") as out:
            # Its own session: a SIGKILL to the group takes gunicorn's master and workers at once.
            self.proc = subprocess.Popen(cmd, cwd=self.installation.workdir, env=self.installation.env(**self.extra_env),
                                         stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
        wait_until(self._healthy, SERVER_READY_SECONDS, f"{self.name} on port {self.port} to answer /healthz",
                   interval=0.1)
        if self.workers > 1:  # every worker booted: connections made now are spread over them all
            wait_until(lambda: self.log().count(WORKER_READY) >= self.workers, SERVER_READY_SECONDS,
                       f"{self.name}'s {self.workers} workers to take connections", interval=0.1)
        return self

    def _healthy(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"{self.name} exited with {self.proc.returncode}:\n{self.log()[-4000:]}")
        probe = Http(self.port, timeout=5)
        try:
            status, body = probe.request("GET", "/healthz")
        except (OSError, http.client.HTTPException):
            return False
        finally:
            probe.close()
        return status == 200 and isinstance(body, dict) and body.get("status") == "ok"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def server_errors(self) -> list[str]:
        """Access-log lines with a 5xx status, and tracebacks, from this run of the server."""
        lines = self.log().splitlines()
        return [line for line in lines if re.search(r'" 5\d\d ', line) or "Traceback" in line]

    def worker_pids(self) -> list[int]:
        """gunicorn's worker processes (the master's children) now."""
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def kill(self) -> None:
        """SIGKILL to gunicorn's master and every worker: no graceful anything."""
        _stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc)


class TimerWorkerProcess:
    """`tramite worker` in its own process group."""

    def __init__(self, installation: Installation, name: str, interval: float = 0.1, **env: str):
        self.installation, self.name = installation, name
        self.log_path = installation.workdir / f"{name}.log"
        with open(self.log_path, "wb") as out:
            self.proc = subprocess.Popen([*tramite_command(), "worker", "--interval", str(interval)],
                                         cwd=installation.workdir, env=installation.env(**env),
                                         stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)

    def kill(self) -> None:
        _stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        _stop(self.proc)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


# --- HTTP --------------------------------------------------------------------------------------------

class Http:
    """One keep-alive HTTP/1.1 connection; JSON in and out; returns (status, parsed body)."""

    def __init__(self, port: int, token: str | None = None, timeout: float = 60):
        self.port, self.token, self.timeout = port, token, timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def connect(self) -> "Http":
        self.conn.connect()
        return self

    def request(self, method: str, path: str, body=None):
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self._drop_if_closed_by_server()
        try:
            try:
                self.conn.request(method, path, body=payload, headers=headers)
            except (BrokenPipeError, ConnectionResetError):
                # The server closed the idle connection (gunicorn's keep-alive, 2 s) as we began to
                # send: nothing of this request reached it, so it goes again on a new connection, as
                # urllib3 does. A failure once the request is sent (a server killed mid-request) is
                # never repeated: it is raised.
                self.conn.close()
                self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except BaseException:
            self.conn.close()
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = data.decode(errors="replace")
        return response.status, parsed

    def _drop_if_closed_by_server(self) -> None:
        """A kept-alive connection whose socket is readable before a request holds the server's
        close (end of file): a loaded machine can leave a client idle past the keep-alive, and
        sending on it would fail. It is closed, and http.client opens a new one."""
        sock = self.conn.sock
        if sock is not None and select.select([sock], [], [], 0)[0]:
            self.conn.close()

    def get(self, path: str):
        status, body = self.request("GET", path)
        assert status == 200, (path, status, body)
        return body

    def post(self, path: str, body=None, expect: int = 200):
        status, answer = self.request("POST", path, {} if body is None else body)
        assert status == expect, (path, status, answer)
        return answer

    def close(self) -> None:
        self.conn.close()
