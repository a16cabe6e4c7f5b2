"""Lists as CSV: every row of the filter (not one page), UTF-8 with a header row, as each user may
see them; read back with the csv module."""
from __future__ import annotations

import csv
import io

import pytest

from engine.commands import accounts
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.identity.actor import SYSTEM, Actor
from engine.queries import exports
from tests.conftest import PASSWORD
from tests.web.diagrams import start_variables, web_flow


@pytest.fixture
def many_cases(engine, monkeypatch):
    """120 cases of the web test diagram, started at one instant: 70 by a Caguas clerk, 50 by Humacao's."""
    monkeypatch.setattr(exports, "BATCH", 7)  # many batches, and ties on started_at across their edges

    def seed(ctx):
        for username, office in (("caguas_clerk", "Caguas"), ("humacao_clerk", "Humacao")):
            accounts.create_user(ctx, username, PASSWORD, ["test_clerk"], full_name=username, office=office)
    engine.execute(seed, SYSTEM)
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow()), Actor("owner", frozenset({"process_owner"})))
    numbers = {}
    for i in range(120):
        username, office = ("caguas_clerk", "Caguas") if i < 70 else ("humacao_clerk", "Humacao")
        variables = start_variables(applicant={"name": f"Solicitante Núñez {i:03d}", "municipality": "Cidra"})
        case = engine.execute(start_case, Actor(username, frozenset({"test_clerk"}), office=office), "test_web",
                              variables)
        numbers[case["case_number"]] = office
    return numbers


def parsed(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.headers["Content-Type"].startswith("text/csv")
    text = response.get_data().decode("utf-8")
    assert not text.startswith("\ufeff")  # the API's CSV is for programs: no byte-order mark
    return list(csv.DictReader(io.StringIO(text)))


def test_every_case_of_the_filter_comes_as_csv_not_one_page(api, many_cases):
    rows = parsed(api.call("GET", "/api/v1/instances?per_page=50", "boss", headers={"Accept": "text/csv"}))
    assert len(rows) == 120 and {r["case_number"] for r in rows} == set(many_cases)
    assert [int(r["id"]) for r in rows] == sorted((int(r["id"]) for r in rows), reverse=True)  # newest first
    first = next(r for r in rows if r["applicant_name"] == "Solicitante Núñez 007")
    assert first["municipality"] == "Cidra" and first["status"] == "active" and first["office"] == "Caguas"
    assert list(rows[0]) == ["id", "case_number", "process_key", "version", "status", "outcome", "stage",
                             "applicant_name", "applicant_id", "municipality", "reference", "office",
                             "started_at", "ended_at", "started_by"]
    assert api.call("GET", "/api/v1/instances?per_page=50", "boss").headers["Content-Type"] == "application/json"


def test_the_csv_keeps_the_filter_and_the_callers_visibility(api, many_cases):
    rows = parsed(api.call("GET", "/api/v1/instances?format=csv&q=nunez%2001", "boss"))
    assert sorted(r["applicant_name"] for r in rows) == [f"Solicitante Núñez {i:03d}" for i in range(10, 20)]
    caguas = parsed(api.call("GET", "/api/v1/instances?format=csv", "caguas_clerk"))
    assert {r["case_number"] for r in caguas} == {n for n, office in many_cases.items() if office == "Caguas"}
    humacao = parsed(api.call("GET", "/api/v1/instances?format=csv&q=nunez", "humacao_clerk"))
    assert len(humacao) == 50 and {r["office"] for r in humacao} == {"Humacao"}
    assert parsed(api.call("GET", "/api/v1/instances?format=csv", "reviewer"))  # their lane's cases
    assert parsed(api.call("GET", "/api/v1/instances?format=csv", "owner")) == []


def test_every_task_of_the_filter_comes_as_csv(api, many_cases):
    rows = parsed(api.call("GET", "/api/v1/tasks?scope=available&per_page=50", "reviewer",
                           headers={"Accept": "text/csv"}))
    assert len(rows) == 120 and {r["element_id"] for r in rows} == {"evaluate"}
    assert [int(r["id"]) for r in rows] == sorted(int(r["id"]) for r in rows)
    assert {r["case_number"] for r in rows} == set(many_cases)
    assert parsed(api.call("GET", "/api/v1/tasks?format=csv&scope=mine", "reviewer")) == []
    assert api.call("GET", "/api/v1/tasks?format=csv&scope=all", "reviewer").status_code == 403
    assert len(parsed(api.call("GET", "/api/v1/tasks?format=csv&scope=all", "boss"))) == 120


def test_a_format_other_than_json_or_csv_is_refused(api, many_cases):
    assert api.call("GET", "/api/v1/instances?format=xml", "boss").status_code == 422
