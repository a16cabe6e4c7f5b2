"""Reassignment / transfer (SUR-02…07, AMB-08, AMB-09): who may claim, and the order the Encargado
must follow when he selects the transferee.

Non-vehicle transfers go to the earliest request in arrival order (SUR-04, SUR-07). Criteria a–d
(SUR-03) work as a screen (`surplus.criteriaMode = SCREEN`, AMB-08): an earlier requester may be
skipped only under one of the criteria and with a recorded reason (`REASON_REQUIRED`).
"""
from __future__ import annotations

from engine.rules.decision import Decision
from engine.rules.surplus_disposition.common import refuse

CRITERIA = {"a": "SUR-03a", "b": "SUR-03b", "c": "SUR-03c", "d": "SUR-03d"}


def _arrival_order(requests) -> list[dict]:
    pending = [r for r in requests or [] if r.get("status", "PENDING") == "PENDING"]
    return sorted(pending, key=lambda r: (str(r["received_at"]), str(r["request_id"])))


def transfer_candidates(requests, is_vehicle) -> list[dict]:
    """Requests that count in the transfer stage: component agencies (SUR-07); for vehicles any
    kind may be placed in the Jefe de Transportación's order (SUR-05, AMB-09)."""
    return [r for r in _arrival_order(requests)
            if is_vehicle or (r.get("requester") or {}).get("kind") == "agencia_componente"]


def transferee_choice(requests, request_id, skipped=(), criteria_mode="SCREEN") -> Decision:
    """The Encargado's selection, checked: the earliest request not skipped, every skip with a
    criterion a–d and a reason. Refuses with `REASON_REQUIRED` or `ORDER_OF_ARRIVAL`."""
    order = transfer_candidates(requests, False)
    ids = [str(r["request_id"]) for r in order]
    chosen = str(request_id)
    if chosen not in ids:
        refuse("UNKNOWN_REQUEST", f"{chosen} is not a pending transfer request", "SUR-02", "SUR-07")
    skips = {}
    for skip in skipped or []:
        sid = str(skip.get("request_id"))
        if sid not in ids:
            refuse("UNKNOWN_REQUEST", f"{sid} is not a pending transfer request", "SUR-02")
        if sid == chosen:
            refuse("ORDER_OF_ARRIVAL", f"{sid} cannot be both skipped and selected", "SUR-04")
        if criteria_mode != "SCREEN":
            refuse("REASON_REQUIRED", f"criteria mode {criteria_mode} admits no skips", "SUR-04", "AMB-08")
        criterion = str(skip.get("criterion") or "").lower()
        if criterion not in CRITERIA or not str(skip.get("reason") or "").strip():
            refuse("REASON_REQUIRED", f"skipping {sid} needs a criterion a–d and a reason",
                   "SUR-02", "SUR-03a", "SUR-03b", "SUR-03c", "SUR-03d", "AMB-08")
        skips[sid] = {"criterion": criterion, "reason": str(skip["reason"]).strip()}
    first = next(i for i in ids if i not in skips)
    if first != chosen:
        refuse("ORDER_OF_ARRIVAL", f"{first} arrived earlier and was not skipped with a reason", "SUR-04", "SUR-07")
    rules = ("SUR-02", "SUR-04", "SUR-07") + tuple(CRITERIA[s["criterion"]] for s in skips.values()) + \
        (("AMB-08",) if skips else ())
    return Decision(outcome=chosen, rule_ids=tuple(dict.fromkeys(rules)),
                    inputs={"arrival_order": ids, "criteria_mode": criteria_mode},
                    details={"assignee": chosen, "skipped": skips})


def transfer_route(requests, item) -> Decision:
    """At the close of the claim window (SUR-02…07): VEHICLE (the Jefe de Transportación sets the
    order, SUR-05), SELECT (the Encargado picks among component agencies, SUR-04) or NONE (the sale
    phase opens, SUR-08)."""
    vehicle = bool((item or {}).get("is_vehicle"))
    waiting = transfer_candidates(requests, vehicle)
    route = ("VEHICLE" if vehicle else "SELECT") if waiting else "NONE"
    rules = ("SUR-05", "AMB-09") if vehicle else ("SUR-04", "SUR-07")
    return Decision(route, rules + (("SUR-08",) if route == "NONE" else ()),
                    {"is_vehicle": vehicle, "candidates": [r["request_id"] for r in waiting]})
