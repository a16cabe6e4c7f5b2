"""Demo data of municipal bids: a banned bidder in the registry and bids in several stages.

Idempotent: the bidder is added when missing, and the sample bids are started only when the demo
has no bid case yet. Skipped when the procedure is not deployed.
"""
from __future__ import annotations

from datetime import date

from engine.rules.calendar import local_date
from engine.commands.cases import start_case
from engine.commands.messages import send_message
from engine.commands.registries import create_bidder
from engine.commands.tasks import complete
from engine.identity.actor import SYSTEM, Actor
from engine.queries.processes import has_cases, is_deployed

from api.demo.common import add_if_missing, table
from api.demo.words import say, stage

BID = "bid_adjudication"
SECRETARY, BOARD = (Actor(role, frozenset({role})) for role in ("bid_board_secretary", "bid_board"))


def _bid(number, matter, **extra):
    return {"bid": {"number": number, "matter": matter, "kind": "acquisition",
                    "lines": [{"line": 1, "description": matter}], "estimate": "50000.00", "appraisal": None,
                    "funds_certified": "60000.00", "alternates_requested": False, "general": False,
                    "price_variable": False, "has_price_honour_clause": False, "round": 1, "previous_case_id": None,
                    "offers_due_at": None, "emergency_justification": None, "single_source": None, **extra}}


def _offer(offer_id, name, price, pct="0", bond="2000.00"):
    return {"offer_id": offer_id, "line": 1, "bidder_id": offer_id, "bidder_name": name, "received_at": None,
            "in_acta": True, "collector_ok": True, "price": price, "preference_pct": pct,
            "prompt_payment_discount_pct": "0", "price_subject_to_market": False, "model": None, "bond_amount": bond}


def _complete(engine, actor, case, element_id, data):
    task = next(t["id"] for t in case["open_tasks"] if t["element_id"] == element_id)
    return engine.execute(complete, actor, task, data)["instance"]


def _evaluated(engine, number, matter, offers):
    case = engine.execute(start_case, SECRETARY, BID, _bid(number, matter))
    case = _complete(engine, SECRETARY, case, "record_opening", {"offers": offers})
    return _complete(engine, BOARD, case, "evaluate_offers", {"evaluations": [], "collusion": "none"})


def _cases(engine) -> list[tuple[str, str, str]]:
    chairs = [_offer("RL-3001", "Muebles del Caribe", "50000.00"), _offer("RL-3002", "Oficinas Borinquen", "52000.00", "5"),
              _offer("RL-3003", "Distribuidora Central", "49800.00")]
    opening = engine.execute(start_case, SECRETARY, BID, _bid("2025-101", "archivos de oficina"))
    evaluating = _complete(engine, SECRETARY, engine.execute(start_case, SECRETARY, BID, _bid("2025-102", "computadoras")),
                           "record_opening", {"offers": chairs})
    awarding = _evaluated(engine, "2025-103", "escritorios", chairs)
    tied = _evaluated(engine, "2025-104", "lámparas", [_offer("RL-3001", "Muebles del Caribe", "1000.00"),
                                                       _offer("RL-3003", "Distribuidora Central", "1000.00")])
    awarded = _evaluated(engine, "2025-105", "sillas de oficina", chairs)
    best = awarded["variables"]["ranking"]["1"][0]
    awarded = _complete(engine, BOARD, awarded, "award", {"decision": "award", "awards": [
        {"line": 1, "offer_id": best, "votes": [{"member": "bid_board", "offer_id": best}]}]})
    deserted = _complete(engine, SECRETARY, engine.execute(start_case, SECRETARY, BID, _bid("2025-106", "toldos")),
                         "record_opening", {"offers": []})
    cancelled = _complete(engine, SECRETARY, engine.execute(start_case, SECRETARY, BID, _bid("2025-107", "equipo de oficina")),
                          "record_opening", {"offers": chairs})
    cancelled = engine.execute(send_message, BOARD, cancelled["id"], "cancel", {
        "cause": "funds_insufficient", "reasons": "Los fondos no cubren la oferta más baja", "all_bidders_notified": True,
        "bonds_returned": True})
    awardee, lock = awarded["variables"]["awardee"], cancelled["variables"]["similar_purchase_lock_until"]
    return [(c["case_number"], stage(c["stage"], BID), note) for c, note in (
        (opening, say("espera el Acta de Apertura", "waits for the opening record")),
        (evaluating, say("espera la evaluación de la Junta", "waits for the board's evaluation")),
        (awarding, say("espera la adjudicación (la preferencia cambia el orden)",
                       "waits for the award (the preference changes the order)")),
        (tied, say("espera el desempate", "waits for the tie-break")),
        (awarded, say(f"adjudicada a {awardee}", f"awarded to {awardee}")),
        (deserted, say("desierta: espera la acción", "deserted: waits for the action")),
        (cancelled, say(f"cancelada; sin compra similar hasta {lock}", f"cancelled; no similar purchase until {lock}")))]


def bid_adjudication_demo(engine) -> list[str]:
    if not engine.read(is_deployed, BID):
        return []
    start = date(local_date(engine.now()).year, 1, 15)
    added = add_if_missing(engine, create_bidder, SYSTEM, id="RL-3900", name="Suplidora Sombra, Inc.", sanction={
        "kind": "ban", "from_": start, "months": 24, "reason": "varias ofertas bajo seudónimo (BID-21)"})
    cases = [] if engine.read(has_cases, BID) else _cases(engine)
    lines = ["", say("Registro de Licitadores: " + ("RL-3900 añadido, inhabilitado 24 meses" if added else "RL-3900 ya estaba"),
                     "Bidder registry: " + ("RL-3900 added, banned for 24 months" if added else "RL-3900 was there"))]
    if cases:
        lines += [say("Subastas de ejemplo:", "Sample bids:"),
                  *table((say("caso", "case"), say("etapa", "stage"), say("dónde está", "where it stands")), cases)]
    return lines
