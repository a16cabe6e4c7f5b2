"""Throwaway PostgreSQL servers of their own for the "past one machine" tests: a primary with a
streaming replica (two real servers on two ports, not one server under two names), and PgBouncer in
transaction mode in front of a server.

They are made with Debian's postgresql and pgbouncer packages (scripts/system-packages.sh --ci) and
run as the `postgres` user, so making them needs root (CI runs as root) or that user; `unavailable()`
says in words why not, for a skip. The servers keep the defaults fsync=on and synchronous_commit=on:
the timer benchmark's durable figures run on this primary (python -m tests.support.pg_servers).
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROLE, PASSWORD = "tramite", "tramite"
READY_SECONDS = 60


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _pgbouncer() -> str | None:
    return shutil.which("pgbouncer") or next(iter(glob.glob("/usr/sbin/pgbouncer")), None)


def unavailable(pgbouncer: bool = False) -> str | None:
    """Why these servers cannot be made here, or None."""
    if _bindir() is None:
        return "PostgreSQL server binaries missing (/usr/lib/postgresql/*/bin: Debian's postgresql package)"
    if pgbouncer and _pgbouncer() is None:
        return "pgbouncer missing (Debian's pgbouncer package: scripts/system-packages.sh --ci)"
    if os.geteuid() != 0 and _user() != "postgres":
        return "making a PostgreSQL server here needs root or the postgres user"
    return None


def _user() -> str:
    import pwd
    return pwd.getpwuid(os.geteuid()).pw_name


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(*cmd: str, check: bool = True) -> subprocess.CompletedProcess:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    done = subprocess.run([*prefix, *cmd], cwd="/", capture_output=True, text=True, timeout=READY_SECONDS)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


class Server:
    """One postgres process on 127.0.0.1:`port`, its data and socket under `root`."""

    def __init__(self, root: Path, name: str, port: int):
        self.root, self.name, self.port = root, name, port
        self.data = root / name
        self.log = root / f"{name}.log"

    def url(self, database: str = "postgres", port: int | None = None) -> str:
        return f"postgresql+psycopg://{ROLE}:{PASSWORD}@127.0.0.1:{port or self.port}/{database}"

    def start(self) -> "Server":
        bindir = _bindir()
        _as_postgres(str(bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                     "-t", str(READY_SECONDS), "-o", f"-p {self.port} -k {self.root}", "start")
        return self

    def stop(self) -> None:
        _as_postgres(str(_bindir() / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop",
                     check=False)

    def psql(self, sql: str, database: str = "postgres") -> str:
        """SQL as the superuser over this server's socket; the bare result."""
        done = _as_postgres(str(_bindir() / "psql"), "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1",
                            "-h", str(self.root), "-p", str(self.port), "-d", database, "-c", sql)
        return done.stdout.strip()


def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="tramite-pg-"))
    root.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    return root


class ReplicatedPair:
    """A primary and a hot-standby replica fed by streaming replication from it."""

    def __init__(self):
        self.root = _root()
        self.primary = Server(self.root, "primary", free_port())
        self.replica = Server(self.root, "replica", free_port())

    def start(self) -> "ReplicatedPair":
        bindir = _bindir()
        _as_postgres(str(bindir / "initdb"), "-D", str(self.primary.data), "-U", "postgres", "-E", "UTF8",
                     "--locale=C.UTF-8", "--no-sync", "--auth-local=trust", "--auth-host=scram-sha-256")
        with open(self.primary.data / "postgresql.conf", "a") as conf:
            conf.write("listen_addresses = '127.0.0.1'\nwal_level = replica\nmax_wal_senders = 4\n"
                       "hot_standby = on\nshared_buffers = 32MB\nmax_connections = 60\n")
        with open(self.primary.data / "pg_hba.conf", "a") as hba:
            hba.write("local replication all trust\n")
        self.primary.start()
        self.primary.psql(f"CREATE ROLE {ROLE} LOGIN CREATEDB PASSWORD '{PASSWORD}'")
        self.primary.psql(f"CREATE DATABASE {ROLE} OWNER {ROLE}")
        # -R: the copy starts as a standby streaming from the primary (standby.signal, primary_conninfo).
        _as_postgres(str(bindir / "pg_basebackup"), "-D", str(self.replica.data), "-h", str(self.root),
                     "-p", str(self.primary.port), "-U", "postgres", "-X", "stream", "-R", "-c", "fast")
        self.replica.start()
        return self

    def database(self, name: str) -> tuple[str, str]:
        """A new database on the primary, owned by the app's role, once the replica has it too:
        (primary URL, replica URL)."""
        self.primary.psql(f'CREATE DATABASE "{name}" OWNER {ROLE}')
        self.wait_replayed()
        return self.primary.url(name), self.replica.url(name)

    def wait_replayed(self) -> None:
        """Until the replica has replayed everything the primary has written so far."""
        target = self.primary.psql("SELECT pg_current_wal_lsn()")
        deadline = time.monotonic() + READY_SECONDS
        while self.replica.psql(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn") != "t":
            if time.monotonic() > deadline:
                raise AssertionError(f"the replica did not replay up to {target} in {READY_SECONDS} s")
            time.sleep(0.05)

    def stop(self) -> None:
        self.replica.stop()
        self.primary.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class Bouncer:
    """PgBouncer in transaction mode on its own port in front of `server`'s databases."""

    def __init__(self, server: Server, pool_size: int = 4):
        self.server, self.port = server, free_port()
        self.root = server.root
        self.pool_size = pool_size
        self.proc: subprocess.Popen | None = None

    def url(self, database: str) -> str:
        return self.server.url(database, port=self.port)

    def start(self) -> "Bouncer":
        ini, users = self.root / "pgbouncer.ini", self.root / "userlist.txt"
        users.write_text(f'"{ROLE}" "{PASSWORD}"\n')
        ini.write_text(
            "[databases]\n"
            f"* = host=127.0.0.1 port={self.server.port}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = scram-sha-256\nauth_file = {users}\n"
            f"pool_mode = transaction\ndefault_pool_size = {self.pool_size}\nmax_client_conn = 200\n"
            # Each client's statements land on whichever server connection is free: the app must
            # not lean on session state, and the pool must reset nothing it relies on.
            "server_reset_query =\nignore_startup_parameters = extra_float_digits,options\n"
            f"logfile = {self.root / 'pgbouncer.log'}\n")
        for path in (ini, users):
            if os.geteuid() == 0:
                shutil.chown(path, "postgres", "postgres")
        drop_root = ["-u", "postgres"] if os.geteuid() == 0 else []  # it refuses to run as root
        self.proc = subprocess.Popen([_pgbouncer(), *drop_root, str(ini)], cwd="/", stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + READY_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.root / "pgbouncer.log")
                    raise RuntimeError(f"pgbouncer did not start: {log.read_text() if log.exists() else ''}")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)


if __name__ == "__main__":  # a durable primary and its replica for a benchmark run, until Enter
    pair = ReplicatedPair().start()
    print(f"primary {pair.primary.url()}\nreplica {pair.replica.url()}", flush=True)
    try:
        input("Enter stops them ")
    finally:
        pair.stop()
