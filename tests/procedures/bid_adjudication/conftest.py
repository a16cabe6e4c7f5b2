"""Municipal bids played through the HTTP API: the real diagram and forms, a Junta of five members
J1–J5 (EXAMPLES.md «Global test setup»), its secretary, Compras, the Legislatura and the Alcalde."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from engine.bootstrap import procedure_files
from tests.support.scenario import Scenario, create_staff

REPO = Path(__file__).resolve().parents[3]
BID = "bid_adjudication"
STAFF = {"secretary": "bid_board_secretary", "J1": "bid_board", "J2": "bid_board", "J3": "bid_board",
         "J4": "bid_board", "J5": "bid_board", "compras": "purchasing", "legislatura": "municipal_legislature",
         "alcalde": "mayor"}
CHAIRS = {"number": "2025-001", "matter": "sillas de oficina", "kind": "acquisition",
          "lines": [{"line": 1, "description": "500 sillas"}], "estimate": "50000.00", "appraisal": None,
          "funds_certified": "60000.00", "alternates_requested": False, "general": False, "price_variable": False,
          "has_price_honour_clause": False, "round": 1, "previous_case_id": None,
          "offers_due_at": "2024-04-10T10:00:00-04:00", "emergency_justification": None, "single_source": None}


def bid_files() -> dict[str, str]:
    files = procedure_files(REPO / "processes" / BID, REPO / "forms")
    return {name: content.decode("utf-8") for name, content in files.items()}


def offer(offer_id, price, bidder=None, line=1, **extra) -> dict:
    """A timely offer in the Acta, OK for the Recaudador, from a bidder named after the offer."""
    bidder = bidder or offer_id
    return {"offer_id": offer_id, "line": line, "bidder_id": bidder, "bidder_name": f"Licitador {bidder}",
            "received_at": "2024-04-10T09:00:00-04:00", "in_acta": True, "collector_ok": True, "price": price,
            "preference_pct": "0", "prompt_payment_discount_pct": "0", "price_subject_to_market": False,
            "model": None, "bond_amount": None, **extra}


def votes(**by_member) -> list[dict]:
    return [{"member": member, "offer_id": offer_id} for member, offer_id in by_member.items()]


class Bids(Scenario):
    """Scenario steps of the contract, each one HTTP call as the role the contract names."""

    def open(self, expect=201, user="secretary", **changes) -> dict:
        bid = copy.deepcopy(CHAIRS)
        bid.update(changes)
        return self.api.post(f"/api/v1/processes/{BID}/instances", user, {"variables": {"bid": bid}}, expect=expect)

    def record(self, case, offers, **extra):
        return self.complete(case, "record_opening", {"offers": offers, **extra}, "secretary")

    def evaluate(self, case, evaluations=(), expect=200, **extra):
        data = {"evaluations": list(evaluations), "collusion": "none", "conspirators": [],
                "purchasing_report_requested": False, **extra}
        return self.complete(case, "evaluate_offers", data, "J1", expect)

    def award(self, case, *awards, expect=200):
        return self.complete(case, "award", {"decision": "award", "awards": list(awards)}, "J1", expect)

    def award_first(self, case, line=1):
        best = case["variables"]["ranking"][str(line)][0]
        return self.award(case, {"line": line, "offer_id": best,
                                 "votes": votes(J1=best, J2=best, J3=best, J4=best, J5=best)})

    def reject_all(self, case, reasons=("a",)):
        return self.complete(case, "award", {"decision": "reject_all", "rejection_reasons": list(reasons)}, "J1")

    def cancel(self, case_id, expect=200, **payload):
        body = {"cause": "funds_insufficient", "reasons": "Fondos insuficientes", "all_bidders_notified": True,
                "bonds_returned": True, **payload}
        return self.api.post(f"/api/v1/instances/{case_id}/messages/cancel", "J1", {"payload": body}, expect=expect)

    def bidders(self, **query):
        args = "&".join(f"{k}={v}" for k, v in query.items())
        return self.api.get(f"/api/v1/registries/bidders?{args}", "admin")

    def played(self, offers, evaluations=(), **bid) -> dict:
        """Opened, recorded and evaluated: the case waits at award (or wherever the rules send it)."""
        case = self.open(**bid)
        case = self.record(case, offers)
        return self.evaluate(case, evaluations) if any(
            t["element_id"] == "evaluate_offers" for t in case["open_tasks"]) else case


def rule_of(answer) -> list:
    return answer["errors"]["rule"]


@pytest.fixture
def bids(api, engine):
    create_staff(engine, STAFF, full_name=lambda username: f"Junta {username}")
    api.deploy(BID, bid_files())
    return Bids(api)
