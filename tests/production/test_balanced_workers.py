"""`tramite serve`'s workers share kept-alive connections evenly (api/balanced_worker.py): gunicorn's
own gthread left it to a race which worker accepts, and a connection stays with its worker, so 8
clients landed 6 / 2 on two workers and one interpreter lock carried most of the load (issue 21).
Which worker holds a connection is read from /proc (its socket's inode among the worker's files)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from .live import IS_POSTGRES, Http, wait_until

pytestmark = pytest.mark.skipif(not IS_POSTGRES, reason="needs PostgreSQL (TRAMITE_TEST_DATABASE_URL)")


def _server_sockets(port: int) -> dict[int, int]:
    """{socket inode: client port} of the server's accepted connections on `port` (IPv4 loopback),
    in any state: one its client closed stays the worker's until the worker closes it too."""
    found = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].split(":")[1], 16)
        if local_port == port and fields[3] != "0A":  # not the listening socket
            found[int(fields[9])] = int(fields[2].split(":")[1], 16)
    return found


def holders(server, clients: list[Http], ports: set[int] | None = None) -> dict[int, int]:
    """How many of `clients`' connections (or of those from `ports`) each worker holds open:
    {worker pid: count}."""
    ours = ports if ports is not None else {c.conn.sock.getsockname()[1] for c in clients}
    sockets = _server_sockets(server.port)
    counts = {}
    for pid in server.worker_pids():
        inodes = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
        counts[pid] = sum(1 for inode, port in sockets.items() if inode in inodes and port in ours)
    return counts


def connect(server, n: int) -> list[Http]:
    """`n` clients, one after another, each answered once and kept alive."""
    clients = []
    for _ in range(n):
        client = Http(server.port)
        assert client.get("/healthz")["status"] == "ok"
        clients.append(client)
    return clients


def test_kept_alive_connections_are_spread_evenly_over_the_workers(serve):
    server = serve(workers=3, threads=4)
    clients = connect(server, 12)
    try:
        assert sorted(holders(server, clients).values()) == [4, 4, 4]
        for client in clients:  # and they go on being answered where they are
            assert client.get("/healthz")["status"] == "ok"
        assert sorted(holders(server, clients).values()) == [4, 4, 4]
    finally:
        for client in clients:
            client.close()


def test_closed_connections_make_room_where_they_were(serve):
    server = serve(workers=2, threads=4)
    clients = connect(server, 4)
    try:
        counts = holders(server, clients)
        assert sorted(counts.values()) == [2, 2]
        busy = max(counts)  # one worker's two clients go away
        gone = [c for c in clients if holders(server, [c]).get(busy)]
        gone_ports = {c.conn.sock.getsockname()[1] for c in gone}
        for client in gone:
            client.close()
        wait_until(lambda: holders(server, [], gone_ports)[busy] == 0, 30,
                   "the worker to close the connections its clients closed")
        clients = [c for c in clients if c not in gone] + connect(server, 2)
        assert sorted(holders(server, clients).values()) == [2, 2]
    finally:
        for client in clients:
            client.close()


def test_a_killed_worker_holds_back_no_other(serve):
    server = serve(workers=2, threads=4)
    first = server.worker_pids()
    os.kill(first[0], signal.SIGKILL)  # its slot keeps its pid and its count until reclaimed
    wait_until(lambda: len(server.worker_pids()) == 2 and first[0] not in server.worker_pids(), 60,
               "gunicorn to replace the killed worker")
    (new,) = set(server.worker_pids()) - set(first)

    def new_worker_answers() -> bool:
        probe = Http(server.port)
        try:
            probe.get("/healthz")
            return holders(server, [probe]).get(new) == 1
        finally:
            probe.close()

    wait_until(new_worker_answers, 60, "the new worker to take a connection", interval=0.2)
    wait_until(lambda: not any(holders(server, [], set(_server_sockets(server.port).values())).values()), 30,
               "the probes' connections to close")
    clients = connect(server, 6)  # each answered: the dead worker's slot (0 held) holds back no other
    try:
        assert sorted(holders(server, clients).values()) == [3, 3]
    finally:
        for client in clients:
            client.close()
