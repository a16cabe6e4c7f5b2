"""Fixtures of the hostile-input suite: a loopback HTTP server that records every request it gets,
so a test can prove that an upload made the server fetch nothing."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class _Recorder(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the name http.server dispatches to)
        self.server.requests.append(self.path)
        body = b'<!ENTITY leak "FETCHED-FROM-THE-NETWORK">'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):  # keep the test output clean
        pass


class Tripwire:
    """An HTTP server on 127.0.0.1 that must never be called; `url(path)` points at it."""

    def __init__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
        self.server.requests = []
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/evil") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    @property
    def requests(self) -> list[str]:
        return list(self.server.requests)


@pytest.fixture
def tripwire():
    wire = Tripwire()
    wire.thread.start()
    # Prove the wire works, so "no request" later means "not fetched", not "could not connect".
    from urllib.request import urlopen
    with urlopen(wire.url("/self-check"), timeout=5) as reply:
        assert reply.status == 200
    assert wire.requests == ["/self-check"]
    wire.server.requests.clear()
    yield wire
    wire.server.shutdown()
    wire.server.server_close()
    wire.thread.join(timeout=5)
