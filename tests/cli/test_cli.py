"""The installed `tramite` console script, run as a user would: real processes, a SQLite file in tmp.

These tests use SQLite even when TRAMITE_TEST_DATABASE_URL is set: they test the command line,
not the database.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from engine.bootstrap import make_engine
from engine.identity.actor import SYSTEM
from engine.queries import accounts as account_queries
from tests.support import bpmn as b
from tests.support.diagrams import rules_flow

REPO = Path(__file__).resolve().parents[2]
ROLES = [{"id": role, "label_es": role, "label_en": role}
         for role in ("admin", "process_owner", "supervisor", "test_clerk", "test_reviewer")]
COMMAND_TIMEOUT = 60
START_TIMEOUT = 30
STOP_TIMEOUT = 10


def tramite_script() -> str:
    beside = Path(sys.executable).parent / "tramite"
    found = str(beside) if beside.exists() else shutil.which("tramite")
    assert found, "the `tramite` console script is not installed (pip install -e .)"
    return found


class Workspace:
    """A data folder, a database and a processes/ + forms/ tree of one's own."""

    def __init__(self, root: Path):
        self.root = root
        self.processes = root / "processes"
        self.processes.mkdir()
        (self.processes / "roles.json").write_text(json.dumps(ROLES), encoding="utf-8")
        shutil.copy(REPO / "processes" / "parameters.json", self.processes / "parameters.json")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TRAMITE_")}
        self.env.update(TRAMITE_DATA_DIR=str(root / "data"), TRAMITE_PROCESSES_DIR=str(self.processes),
                        TRAMITE_DATABASE_URL=f"sqlite:///{root / 'tramite.db'}",
                        TRAMITE_SECRET_KEY="cli-test-secret", PYTHONUNBUFFERED="1")

    def add_procedure(self, folder: str, files: dict[str, str]) -> None:
        diagrams, forms = self.processes / folder, self.root / "forms" / folder
        diagrams.mkdir(parents=True)
        forms.mkdir(parents=True)
        for name, content in files.items():
            (forms if name.endswith(".json") else diagrams).joinpath(name).write_text(content, encoding="utf-8")

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([tramite_script(), *args], cwd=self.root, env=self.env, capture_output=True,
                              text=True, timeout=COMMAND_TIMEOUT)

    def start(self, *args: str, log: str) -> tuple[subprocess.Popen, Path]:
        out = self.root / log
        with out.open("w") as sink:
            proc = subprocess.Popen([tramite_script(), *args], cwd=self.root, env=self.env,
                                    stdout=sink, stderr=subprocess.STDOUT)
        return proc, out


@pytest.fixture
def ws(tmp_path):
    workspace = Workspace(tmp_path)
    workspace.add_procedure("demo_proc", rules_flow())
    return workspace


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def refused(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result.stderr


def wait_until(check, proc: subprocess.Popen, log: Path, what: str):
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"exited ({proc.returncode}) before {what}:\n{log.read_text()}"
        result = check()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {START_TIMEOUT} s:\n{log.read_text()}")


def stop(proc: subprocess.Popen, log: Path) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"still running {STOP_TIMEOUT} s after SIGTERM:\n{log.read_text()}")
    assert code == 0, log.read_text()
    assert "Traceback" not in log.read_text()


def http(method: str, url: str, body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, json.loads(response.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_db_upgrade_creates_the_database(ws):
    assert "up to date" in ok(ws.run("db", "upgrade"))
    assert (ws.root / "tramite.db").stat().st_size > 0


def test_deploy_then_deploying_again_is_a_no_op(ws):
    first = ok(ws.run("deploy"))
    assert "test_rules" in first and "v1" in first and "deployed" in first
    again = ok(ws.run("deploy", str(ws.processes)))
    assert "test_rules" in again and "v1" in again and "unchanged" in again


def test_a_user_task_without_a_form_is_refused_naming_the_element(tmp_path):
    ws = Workspace(tmp_path)
    xml = b.diagram("broken", lanes={"test_clerk": ["start", "fill_in", "end"]},
                    nodes=[b.start(), b.user("fill_in", "Llenar"), b.end()],
                    flows=b.chain("start", "fill_in", "end"))
    ws.add_procedure("broken", {"broken.bpmn": xml})
    err = refused(ws.run("deploy"))
    assert "cannot deploy broken" in err
    assert "fill_in: USER_TASK_WITHOUT_FORM" in err


def test_users_create_then_a_duplicate_is_refused_cleanly(ws):
    out = ok(ws.run("users", "create", "ana", "--password", "secreto-123", "--role", "test_clerk",
                    "--role", "test_reviewer", "--office", "San Juan", "--full-name", "Ana Rivera"))
    assert "created user ana" in out and "test_clerk, test_reviewer" in out
    err = refused(ws.run("users", "create", "ana", "--password", "secreto-456", "--role", "test_clerk"))
    assert "exists already" in err
    err = refused(ws.run("users", "create", "luis", "--password", "secreto-123", "--role", "no_such_role"))
    assert "unknown role 'no_such_role'" in err


def test_seed_demo_prints_one_user_per_role_with_the_password_and_is_idempotent(ws):
    out = ok(ws.run("seed-demo"))
    assert "test_rules" in out and "desplegado" in out and "Usuarios de demostración" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    for role in ("admin", "process_owner", "supervisor", "test_clerk", "test_reviewer"):
        assert rows[role][0] == role and rows[role][-1] == "tramite-demo"
    again = ok(ws.run("seed-demo", "--english"))
    assert "unchanged" in again and "Demo users" in again and "desplegado" not in again
    assert [line.split()[0] for line in again.splitlines() if line.endswith("tramite-demo")] == \
           [line.split()[0] for line in out.splitlines() if line.endswith("tramite-demo")]


def test_serve_answers_http_and_stops_on_sigterm(ws):
    ok(ws.run("seed-demo"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc, log = ws.start("serve", "--port", str(port), log="serve.log")
    try:
        def healthy():
            try:
                return http("GET", f"{base}/healthz")[1]["status"] == "ok"
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                # TimeoutError: the master listens before its worker has booted (slow on a loaded machine)
                return False
        wait_until(healthy, proc, log, "healthy /healthz")
        status, body = http("POST", f"{base}/api/v1/auth/token",
                            {"username": "test_clerk", "password": "tramite-demo"})
        assert status == 200
        status, processes = http("GET", f"{base}/api/v1/processes", token=body["token"])
        assert status == 200 and [p["key"] for p in processes] == ["test_rules"]
        # The access log goes to stdout, one compact line per request.
        wait_until(lambda: '"GET /api/v1/processes HTTP/1.1" 200' in log.read_text(), proc, log, "access log")
    finally:
        if proc.poll() is None:
            stop(proc, log)
    assert proc.returncode == 0


def test_worker_runs_in_the_foreground_until_sigterm(ws):
    ok(ws.run("db", "upgrade"))
    proc, log = ws.start("worker", "--interval", "0.2", log="worker.log")
    try:
        wait_until(lambda: "timer worker started" in log.read_text(), proc, log, "start-up line")
    finally:
        if proc.poll() is None:
            stop(proc, log)
    assert "timer worker stopped" in log.read_text()


def test_users_create_needs_a_role_and_an_office_on_the_list(ws):
    err = refused(ws.run("users", "create", "luis", "--password", "secreto-123"))
    assert "roles: Elija al menos un rol" in err
    err = refused(ws.run("users", "create", "luis", "--password", "secreto-123", "--role", "test_clerk",
                         "--office", "Gotham"))
    assert "office: La oficina «Gotham» no está en la lista de oficinas" in err
    out = ok(ws.run("users", "create", "luis", "--password", "secreto-123", "--role", "test_clerk",
                    "--office", " caguas "))
    assert "created user luis" in out
    assert "exists already" in refused(ws.run("users", "create", "luis", "--password", "secreto-123",
                                              "--role", "test_clerk"))


def test_users_create_takes_an_email_and_refuses_one_that_is_no_address(ws):
    err = refused(ws.run("users", "create", "eva", "--password", "secreto-123", "--role", "test_clerk",
                         "--email", "eva-at-agencia"))
    assert "email: No es una dirección de correo electrónico válida" in err
    out = ok(ws.run("users", "create", "eva", "--password", "secreto-123", "--role", "test_clerk",
                    "--email", "Eva@Agencia.PR.gov"))
    assert "created user eva" in out
    engine = make_engine(ws.env["TRAMITE_DATABASE_URL"])
    try:
        users = {u["username"]: u for u in engine.read(account_queries.list_users, SYSTEM)}
    finally:
        engine.db.dispose()
    assert users["eva"]["email"] == "Eva@agencia.pr.gov"
