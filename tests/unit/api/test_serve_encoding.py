"""The two speed-ups of the HTTP layer (issue 21) keep the bytes they replace: `tramite serve`'s access
line is the one gunicorn's stock logger writes, and an answer encoded by orjson parses to what the
standard library's encoder made of the same value."""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from types import SimpleNamespace
from uuid import UUID

from flask import Flask
from gunicorn.config import Config
from gunicorn.glogging import Logger

from api.app import DecimalJSONProvider
from api.server import ACCESS_LOG_FORMAT, AccessLogger


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def _access_line(logger_class, resp, environ, request_time) -> str:
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("access_log_format", ACCESS_LOG_FORMAT)
    logger = logger_class(cfg)
    lines = _Lines()
    logger.access_log.handlers = [lines]
    logger.access(resp, SimpleNamespace(headers=[("ACCEPT", "application/json")]), environ, request_time)
    return lines.lines[-1]


def test_the_access_line_is_gunicorns_own_quotes_escaped_and_an_empty_body_zero():
    cases = [
        (SimpleNamespace(status="200 OK", sent=1234, headers=[]),
         {"REQUEST_METHOD": "GET", "RAW_URI": "/api/v1/tasks?instance=7", "SERVER_PROTOCOL": "HTTP/1.1",
          "REMOTE_ADDR": "127.0.0.1"}, timedelta(milliseconds=12, microseconds=345)),
        (SimpleNamespace(status="404 NOT FOUND", sent=0, headers=[]),
         {"REQUEST_METHOD": "POST", "RAW_URI": '/a"b', "SERVER_PROTOCOL": "HTTP/1.0"}, timedelta(seconds=2)),
        (SimpleNamespace(status=500, sent=None, headers=[]),
         {"REQUEST_METHOD": "GET", "RAW_URI": "/x", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "::1"},
         timedelta(0)),
    ]
    for resp, environ, elapsed in cases:
        ours = _access_line(AccessLogger, resp, environ, elapsed)
        assert ours == _access_line(Logger, resp, environ, elapsed)
    assert '"POST /a\\"b HTTP/1.0" 404 0 2000ms' in _access_line(AccessLogger, *cases[1])


def _streamed_line(logger_class, resp, environ, request_time) -> str:
    """The bytes gunicorn's own access handler (a StreamHandler, "%(message)s") writes."""
    import io
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("access_log_format", ACCESS_LOG_FORMAT)
    logger = logger_class(cfg)
    out = io.StringIO()
    (handler,) = [h for h in logger.access_log.handlers if getattr(h, "_gunicorn", False)]
    logger.access_log.handlers = [handler]  # the logger is global: other tests leave their handlers
    handler.setStream(out)
    logger.access(resp, SimpleNamespace(headers=[]), environ, request_time)
    return out.getvalue()


def test_the_access_line_written_straight_to_the_stream_is_the_one_logging_writes():
    resp = SimpleNamespace(status="201 CREATED", sent=88, headers=[])
    environ = {"REQUEST_METHOD": "POST", "RAW_URI": '/api/v1/tasks/7/complete?x="1"', "SERVER_PROTOCOL": "HTTP/1.1",
               "REMOTE_ADDR": "127.0.0.1"}
    ours = _streamed_line(AccessLogger, resp, environ, timedelta(milliseconds=3))
    assert ours == _streamed_line(Logger, resp, environ, timedelta(milliseconds=3))
    assert ours.endswith(" 201 88 3ms\n") and ours.count("\n") == 1


@dataclass
class _Point:
    x: int


def test_an_answer_encoded_by_orjson_means_what_the_stdlib_encoder_wrote():
    app = Flask(__name__)
    app.json = DecimalJSONProvider(app)
    value = {"amount": Decimal("1234.50"), "when": datetime(2024, 4, 1, 16, 0, tzinfo=timezone.utc),
             "day": date(2024, 4, 1), "id": UUID("12345678-1234-5678-1234-567812345678"), 3: "three",
             "name": "Trámite, año", "point": _Point(2), "rows": [(1, 2)], "none": None}
    with app.app_context():
        answer = app.json.response(value)
        expected = json.dumps(value, default=DecimalJSONProvider.default, separators=(",", ":"))
    assert answer.mimetype == "application/json"
    body = answer.get_data()
    assert body.endswith(b"\n")
    assert json.loads(body) == json.loads(expected)
    assert json.loads(body)["when"] == "Mon, 01 Apr 2024 16:00:00 GMT"  # Flask's HTTP date, not ISO
    assert "Trámite".encode() in body  # UTF-8 text, no \u escapes
    with app.app_context():  # past 64 bits orjson refuses: the stdlib writes it
        assert json.loads(app.json.response({"big": 2 ** 70}).get_data()) == {"big": 2 ** 70}
