"""Requests arriving by message (SUR-01, SUR-07, FAR-19): who asked, for which units, when, and in
which stage the request counts. Refusals happen before the case moves (`request_refused`); a request
that is accepted is stamped by the engine clock and kept in `requests` with its status.

Statuses: PENDING (waiting for its stage), SELECTED (buyer or assignee), SKIPPED (passed over under
criteria a–d), NO_INTEREST (did not collect in time, SUR-23), NOT_REACHED (its stage never came or
had passed: an earlier category took the good, SUR-12).
"""
from __future__ import annotations

from engine.rules.decision import Decision, Refusal
from engine.rules.surplus_disposition.categories import request_category
from engine.rules.surplus_disposition.common import refuse

# The cascade in order; a request's category maps to the stage it counts in.
STAGES = ("TRANSFER", "CATEGORY_1", "CATEGORY_2", "CATEGORY_3", "PUBLIC_AUCTION", "DISPOSED")
STAGE_OF_CATEGORY = {"TRANSFER": "TRANSFER", 1: "CATEGORY_1", 2: "CATEGORY_2", 3: "CATEGORY_3", 4: "PUBLIC_AUCTION"}
LIVE = ("PENDING", "SELECTED")


def rank(stage: str) -> int:
    return STAGES.index(stage) if stage in STAGES else 0


def unit_ids(item) -> list[str]:
    return [str(u["unit_id"]) for u in (item or {}).get("units") or []]


def request_refused(payload, requests, item, producer_utility_types, nonprofit_without_certification,
                    registry_status=None, registry_type=None) -> None:
    """Raises what the contract answers for a request that can never count (422) or is a second
    request of the same requester (409 DUPLICATE_REQUEST)."""
    requester = payload.get("requester") or {}
    rid = str(requester.get("id") or "").strip()
    if not rid:
        refuse("REQUESTER_ID_REQUIRED", "a request names its requester's id", "SUR-01")
    if any(str(r.get("request_id")) == rid for r in requests or []):
        raise Refusal("DUPLICATE_REQUEST", f"{rid} already has a request on this item", ("SUR-01", "FAR-19"))
    unknown = [u for u in payload.get("units") or [] if str(u) not in unit_ids(item)]
    if unknown:
        refuse("UNKNOWN_UNIT", f"the item has no unit {', '.join(map(str, unknown))}", "FAR-21")
    request_category(requester, item, producer_utility_types, nonprofit_without_certification,
                     registry_status, registry_type)


def register_request(payload, item, stage, received_at, producer_utility_types=("agricola",),
                     nonprofit_without_certification="TREAT_AS_PUBLIC", registry_status=None,
                     registry_type=None) -> Decision:
    """The accepted request as kept in `requests`: held (PENDING) for its stage, or NOT_REACHED when
    its stage has passed or the good is already disposed of."""
    requester = dict(payload.get("requester") or {})
    category = request_category(requester, item, producer_utility_types, nonprofit_without_certification,
                                registry_status, registry_type)
    counts_in = STAGE_OF_CATEGORY[category.outcome]
    if item.get("is_vehicle") and stage == "TRANSFER":
        counts_in = "TRANSFER"  # the Jefe de Transportación may place any body in his order (SUR-05)
    passed = rank(counts_in) < rank(stage) or stage in ("PUBLIC_AUCTION", "DISPOSED") \
        or counts_in == "PUBLIC_AUCTION"
    entry = {"request_id": str(requester["id"]), "requester": requester,
             "units": [str(u) for u in payload.get("units") or unit_ids(item)],
             "received_at": str(received_at), "status": "NOT_REACHED" if passed else "PENDING",
             "category": category.outcome, "pricing": category.details.get("pricing") or _pricing(category.outcome)}
    rules = tuple(dict.fromkeys(("SUR-01", "FAR-19", *category.rule_ids) + (("SUR-12",) if passed else ())))
    return Decision(entry["status"], rules,
                    {**category.inputs, "stage": stage, "received_at": str(received_at),
                     "request_id": entry["request_id"]},
                    {"entry": entry})


def _pricing(category) -> str:
    return {"TRANSFER": "TRANSFER", 1: "GOV_NOMINAL", 2: "PRODUCER_FMV", 3: "NONPROFIT_NOMINAL"}.get(category,
                                                                                                   "PUBLIC_AUCTION")


def set_status(requests, request_ids, status, only_from=None) -> list[dict]:
    """`requests` with the given requests moved to `status` (from `only_from` statuses, if given)."""
    ids = {str(i) for i in request_ids}
    out = []
    for r in requests or []:
        r = dict(r)
        if r["request_id"] in ids and (only_from is None or r.get("status") in only_from):
            r["status"] = status
        out.append(r)
    return out


def close_unreached(requests) -> list[dict]:
    """At the end of the cascade every request still waiting was never reached (SUR-12)."""
    return set_status(requests, [r["request_id"] for r in requests or []], "NOT_REACHED", only_from=("PENDING",))


def select_for(requests, request_id, units) -> list[dict]:
    """`requests` with `request_id` SELECTED and the lot's units noted on it (the per-producer cap of
    AMB-16 counts them)."""
    out = []
    for r in requests or []:
        r = dict(r)
        if r["request_id"] == str(request_id):
            r["status"] = "SELECTED"
            r["selected_units"] = sorted(set(r.get("selected_units") or []) | {str(u) for u in units})
        out.append(r)
    return out
