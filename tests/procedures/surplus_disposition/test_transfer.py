"""Reassignment / transfer stage (SUR-01…07, SUR-19): SUR-S01, S03/S04 (vehicle order and consent)."""
from __future__ import annotations

from .conftest import item, requester

COMP_A = requester("AC-A", "agencia_componente", "Agencia Componente A")
COMP_B = requester("AC-B", "agencia_componente", "Agencia Componente B")


def test_sur_s01_reassignment_by_order_of_arrival(surplus):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-1001", "180.00"))
    v = case["variables"]
    assert (v["listing_published_on"], v["claim_window_closes"], v["stage"]) == ("2024-04-01", "2024-04-16", "TRANSFER")
    surplus.at("2024-04-02 14:00")
    surplus.request(case, COMP_B)
    surplus.at("2024-04-03 10:15")
    case = surplus.request(case, COMP_A)
    requests = case["variables"]["requests"]
    assert [(r["request_id"], r["status"], r["received_at"]) for r in requests] == [
        ("AC-B", "PENDING", "2024-04-02T14:00:00-04:00"), ("AC-A", "PENDING", "2024-04-03T10:15:00-04:00")]
    assert not surplus.tasks(case, "select_transferee")
    surplus.at("2024-04-17 09:00")
    refused = surplus.complete(case, "select_transferee", {"request_id": "AC-A"}, "encargado", expect=422)
    assert refused["errors"]["rule"] == ["ORDER_OF_ARRIVAL"]
    case = surplus.complete(case, "select_transferee", {"request_id": "AC-B"}, "encargado")
    assert case["variables"]["assignee"] == "AC-B"
    surplus.at("2024-04-22 10:00")
    case = surplus.complete(case, "deliver_item", {"transfer_form_number": "TF-1"}, "custodio")
    v = case["variables"]
    assert case["outcome"] == "TRANSFERRED" and case["status"] == "completed"
    assert (v["assignee"], v["hacienda_copy_sent"], v["retention_obligation"], v["delivered_on"]) == \
        ("AC-B", True, False, "2024-04-22")
    assert {r["request_id"]: r["status"] for r in v["requests"]} == {"AC-B": "SELECTED", "AC-A": "NOT_REACHED"}
    recipients = [n["recipient"] for n in surplus.notices(case)]
    assert "Departamento de Hacienda" in recipients and "Agencia Componente B" in recipients
