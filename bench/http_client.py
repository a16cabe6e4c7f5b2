"""The benchmarks' HTTP clients: one keep-alive connection each, JSON in and out, a bearer token.

The load generator shares the machine's two cores with the server and PostgreSQL, so what it spends
is taken from what it measures. `Client` speaks HTTP/1.1 on a plain socket: the same requests and
answers as `StdlibClient` (http.client), without the email package's header parsing and
http.client's layers, which cost the eight client threads ~1.9 ms of CPU per case (4 requests) on
issue 21's machine against ~0.6 ms here (bench/RESULTS.md). `StdlibClient` stays for a side-by-side
run (`--client stdlib`)."""
from __future__ import annotations

import http.client
import json
import socket

import orjson

TIMEOUT = 60


class HttpError(Exception):
    def __init__(self, status: int, body: bytes, method: str, path: str):
        super().__init__(f"{method} {path} -> {status}: {body[:300]!r}")
        self.status = status


class _Retry(Exception):
    """The server closed an idle keep-alive connection before answering: send again once."""


class Client:
    """HTTP/1.1 on a socket: a request is one `sendall`, an answer is read by its Content-Length
    (or its chunks); the connection is opened again when the server closed it while idle."""

    def __init__(self, port: int, token: str | None = None):
        self.port, self.token = port, token
        self.sock: socket.socket | None = None
        self.buffer = b""
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        self._head = f"Host: 127.0.0.1:{port}\r\nAccept: application/json\r\n{auth}"

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buffer = sock, b""
        return sock

    def request(self, method: str, path: str, body=None, expect=(200, 201)):
        payload = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\n{self._head}"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        elif method != "GET":
            head += "Content-Length: 0\r\n"
        message = (head + "\r\n").encode("latin-1") + payload
        for attempt in (1, 2):
            sock = self.sock or self._connect()
            try:
                sock.sendall(message)
                status, data = self._answer(sock)
                break
            except (_Retry, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise ConnectionError(f"{method} {path}: the server closed the connection twice") from None
        if status not in expect:
            raise HttpError(status, data, method, path)
        return orjson.loads(data) if data else None

    def _read(self, sock: socket.socket) -> bytes:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionResetError("the server closed the connection")
        return chunk

    def _answer(self, sock: socket.socket) -> tuple[int, bytes]:
        buffer = self.buffer
        while (end := buffer.find(b"\r\n\r\n")) < 0:
            try:
                buffer += self._read(sock)
            except ConnectionResetError:
                if not buffer:
                    raise _Retry() from None
                raise
        head, buffer = buffer[:end].decode("latin-1"), buffer[end + 4:]
        lines = head.split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            size = int(headers["content-length"])
            while len(buffer) < size:
                buffer += self._read(sock)
            data, self.buffer = buffer[:size], buffer[size:]
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            data, self.buffer = self._chunks(sock, buffer)
        else:  # no length: the body runs to the end of the connection
            parts = [buffer]
            while chunk := sock.recv(65536):
                parts.append(chunk)
            data, self.buffer = b"".join(parts), b""
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, data

    def _chunks(self, sock: socket.socket, buffer: bytes) -> tuple[bytes, bytes]:
        parts = []
        while True:
            while (end := buffer.find(b"\r\n")) < 0:
                buffer += self._read(sock)
            size = int(buffer[:end].split(b";", 1)[0], 16)
            buffer = buffer[end + 2:]
            while len(buffer) < size + 2:
                buffer += self._read(sock)
            if size == 0:  # no trailers are sent by gunicorn
                return b"".join(parts), buffer[2:]
            parts.append(buffer[:size])
            buffer = buffer[size + 2:]

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""


class StdlibClient:
    """The same on http.client (the benchmarks' client until issue 21's lean one)."""

    def __init__(self, port: int, token: str | None = None):
        self.port = port
        self.token = token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)

    def request(self, method: str, path: str, body=None, expect=(200, 201)):
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server closed an idle keep-alive connection: reconnect once.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
                if attempt == 2:
                    raise
        if response.status not in expect:
            raise HttpError(response.status, data, method, path)
        return json.loads(data) if data else None

    def close(self) -> None:
        self.conn.close()


CLIENTS = {"lean": Client, "stdlib": StdlibClient}
