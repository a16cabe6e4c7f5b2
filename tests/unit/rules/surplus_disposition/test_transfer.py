"""Direct tests of engine/rules/surplus_disposition/transfer.py (SUR-02…08; AMB-08, AMB-09).

SUR-04/07: non-vehicle transfers go by order of arrival among component agencies; AMB-08 (SCREEN):
an earlier requester may be skipped only under a criterion a–d with a recorded reason
(`REASON_REQUIRED`), else `ORDER_OF_ARRIVAL`. SUR-05/AMB-09: vehicles follow the Jefe de
Transportación's order, which may include any kind of body. No transfer request → sale (SUR-08).
"""
from __future__ import annotations

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.surplus_disposition.transfer import transfer_candidates, transfer_route, transferee_choice


def req(rid, kind, at, status="PENDING"):
    return {"request_id": rid, "requester": {"id": rid, "kind": kind}, "received_at": at, "status": status}


# SUR-S01: Agencia Componente B at 2024-04-02 14:00, Agencia Componente A at 2024-04-03 10:15.
B = req("COMP-B", "agencia_componente", "2024-04-02T14:00:00-04:00")
A = req("COMP-A", "agencia_componente", "2024-04-03T10:15:00-04:00")
C = req("COMP-C", "agencia_componente", "2024-04-04T09:00:00-04:00")
MUN = req("MUN-AIBONITO", "municipio", "2024-04-01T08:00:00-04:00")
GONE = req("COMP-Z", "agencia_componente", "2024-04-01T07:00:00-04:00", "NO_INTEREST")
REQUESTS = [A, MUN, B, GONE, C]


@pytest.mark.parametrize(("is_vehicle", "ids"), [
    pytest.param(False, ["COMP-B", "COMP-A", "COMP-C"], id="SUR-07-SUR-04-component-agencies-by-arrival"),
    pytest.param(True, ["MUN-AIBONITO", "COMP-B", "COMP-A", "COMP-C"], id="SUR-05-AMB-09-vehicle-any-kind"),
])
def test_transfer_candidates(is_vehicle, ids):
    assert [r["request_id"] for r in transfer_candidates(REQUESTS, is_vehicle)] == ids


@pytest.mark.parametrize(("chosen", "skipped", "rules", "skips"), [
    pytest.param("COMP-B", [], ("SUR-02", "SUR-04", "SUR-07"), {}, id="SUR-04-SUR-S01-first-arrival"),
    pytest.param("COMP-A", [{"request_id": "COMP-B", "criterion": "c", "reason": "no puede cubrir el transporte"}],
                 ("SUR-02", "SUR-04", "SUR-07", "SUR-03c", "AMB-08"),
                 {"COMP-B": {"criterion": "c", "reason": "no puede cubrir el transporte"}},
                 id="SUR-03c-AMB-08-skip-with-reason"),
    pytest.param("COMP-C", [{"request_id": "COMP-B", "criterion": "A", "reason": " sin programa "},
                            {"request_id": "COMP-A", "criterion": "d", "reason": "no la usará al máximo"}],
                 ("SUR-02", "SUR-04", "SUR-07", "SUR-03a", "SUR-03d", "AMB-08"),
                 {"COMP-B": {"criterion": "a", "reason": "sin programa"},
                  "COMP-A": {"criterion": "d", "reason": "no la usará al máximo"}}, id="SUR-03a-SUR-03d-two-skips"),
    pytest.param("COMP-A", [{"request_id": "COMP-B", "criterion": "b", "reason": "sin presupuesto"}],
                 ("SUR-02", "SUR-04", "SUR-07", "SUR-03b", "AMB-08"),
                 {"COMP-B": {"criterion": "b", "reason": "sin presupuesto"}}, id="SUR-03b-budget"),
])
def test_transferee_choice(chosen, skipped, rules, skips):
    decision = transferee_choice(REQUESTS, chosen, skipped)
    assert decision.outcome == chosen
    assert decision.rule_ids == rules
    assert decision.details == {"assignee": chosen, "skipped": skips}
    assert decision.inputs == {"arrival_order": ["COMP-B", "COMP-A", "COMP-C"], "criteria_mode": "SCREEN"}


SKIP_B = {"request_id": "COMP-B", "criterion": "c", "reason": "transporte"}


@pytest.mark.parametrize(("chosen", "skipped", "mode", "code", "rules"), [
    pytest.param("COMP-A", [], "SCREEN", "ORDER_OF_ARRIVAL", ["SUR-04", "SUR-07"], id="SUR-04-SUR-S01-later-arrival"),
    pytest.param("COMP-C", [SKIP_B], "SCREEN", "ORDER_OF_ARRIVAL", ["SUR-04", "SUR-07"],
                 id="SUR-04-A-not-skipped"),
    pytest.param("COMP-A", [{**SKIP_B, "reason": "  "}], "SCREEN", "REASON_REQUIRED",
                 ["SUR-02", "SUR-03a", "SUR-03b", "SUR-03c", "SUR-03d", "AMB-08"], id="AMB-08-blank-reason"),
    pytest.param("COMP-A", [{**SKIP_B, "criterion": "e"}], "SCREEN", "REASON_REQUIRED",
                 ["SUR-02", "SUR-03a", "SUR-03b", "SUR-03c", "SUR-03d", "AMB-08"], id="SUR-03-no-criterion-e"),
    pytest.param("COMP-A", [{"request_id": "COMP-B", "reason": "x"}], "SCREEN", "REASON_REQUIRED",
                 ["SUR-02", "SUR-03a", "SUR-03b", "SUR-03c", "SUR-03d", "AMB-08"], id="SUR-03-criterion-missing"),
    pytest.param("COMP-A", [SKIP_B], "ORDER_ONLY", "REASON_REQUIRED", ["SUR-04", "AMB-08"],
                 id="AMB-08-mode-without-skips"),
    pytest.param("COMP-B", [SKIP_B], "SCREEN", "ORDER_OF_ARRIVAL", ["SUR-04"], id="SUR-04-skipped-and-selected"),
    pytest.param("MUN-AIBONITO", [], "SCREEN", "UNKNOWN_REQUEST", ["SUR-02", "SUR-07"], id="SUR-07-not-a-transfer"),
    pytest.param("COMP-Z", [], "SCREEN", "UNKNOWN_REQUEST", ["SUR-02", "SUR-07"], id="SUR-23-no-interest-not-pending"),
    pytest.param("COMP-A", [{"request_id": "NOPE", "criterion": "a", "reason": "x"}], "SCREEN", "UNKNOWN_REQUEST",
                 ["SUR-02"], id="SUR-02-skip-unknown"),
])
def test_transferee_choice_refuses(chosen, skipped, mode, code, rules):
    with pytest.raises(RuleViolation) as caught:
        transferee_choice(REQUESTS, chosen, skipped, mode)
    assert caught.value.code == code and caught.value.rule_ids == rules


@pytest.mark.parametrize(("requests", "item", "route", "rules", "candidates"), [
    pytest.param(REQUESTS, {"is_vehicle": False}, "SELECT", ("SUR-04", "SUR-07"), ["COMP-B", "COMP-A", "COMP-C"],
                 id="SUR-04-SUR-07-select"),
    pytest.param([MUN], {"is_vehicle": True}, "VEHICLE", ("SUR-05", "AMB-09"), ["MUN-AIBONITO"],
                 id="SUR-05-AMB-09-vehicle-order"),
    pytest.param([MUN, GONE], {"is_vehicle": False}, "NONE", ("SUR-04", "SUR-07", "SUR-08"), [],
                 id="SUR-08-no-transfer-request-sale-opens"),
    pytest.param([], {"is_vehicle": True}, "NONE", ("SUR-05", "AMB-09", "SUR-08"), [], id="SUR-08-vehicle-no-request"),
    pytest.param([], None, "NONE", ("SUR-04", "SUR-07", "SUR-08"), [], id="SUR-08-no-item"),
])
def test_transfer_route(requests, item, route, rules, candidates):
    decision = transfer_route(requests, item)
    assert decision.outcome == route
    assert decision.rule_ids == rules
    assert decision.inputs["candidates"] == candidates
