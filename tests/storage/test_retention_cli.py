"""`tramite retention`, the job's command line (scheduled daily by the operator)."""
from __future__ import annotations

from tests.cli.test_cli import ok, ws  # noqa: F401  (ws is the CLI workspace fixture)


def test_the_retention_command_runs_and_says_what_it_did(ws):  # noqa: F811
    ok(ws.run("db", "upgrade"))
    out = ok(ws.run("retention", "--limit", "10"))
    assert out.startswith("archived 0 case(s) to ") and "skipped 0" in out


def test_the_retention_command_shares_the_cases_between_workers(ws):  # noqa: F811
    ok(ws.run("db", "upgrade"))
    out = ok(ws.run("retention", "--limit", "10", "--workers", "2"))
    assert out.startswith("archived 0 case(s) to ") and "skipped 0" in out
