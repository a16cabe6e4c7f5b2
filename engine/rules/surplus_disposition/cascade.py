"""The cascade's moves (SUR-08…15, SUR-22/23, FAR-19…21, AMB-03/04/15/16): which stage opens next,
whether a stage serves a request as it arrives or waits for its window, the lots a stage sells
(units one by one to producers, the whole item otherwise) and who is next in line for a lot."""
from __future__ import annotations

from engine.rules.calendar import as_local_date
from engine.rules.decision import Decision
from engine.rules.surplus_disposition.categories import government_order, has_producer_utility
from engine.rules.surplus_disposition.requests import LIVE, STAGE_OF_CATEGORY

CATEGORY_RULES = {"CATEGORY_1": ("SUR-08", "SUR-09", "SUR-10"), "CATEGORY_2": ("SUR-11", "SUR-12", "FAR-14", "FAR-17"),
                  "CATEGORY_3": ("SUR-13", "SUR-14", "AMB-03"), "PUBLIC_AUCTION": ("SUR-15", "AMB-12")}


def next_stage(previous, item, producer_utility_types, exhausted=False, on_exhausted="NEXT_CATEGORY") -> Decision:
    """The stage after `previous`: category 2 only for goods of producer utility (AMB-02); a category
    exhausted by buyers who did not collect goes on, or straight to the auction under `STOP`."""
    inputs = {"previous": previous, "utility": item.get("utility"), "exhausted": bool(exhausted),
              "on_category_exhausted": on_exhausted, "producer_utility_types": list(producer_utility_types or ())}
    if on_exhausted not in ("NEXT_CATEGORY", "STOP"):
        raise ValueError(f"unknown surplus.onCategoryExhausted {on_exhausted!r}")
    if exhausted and on_exhausted == "STOP" and previous != "TRANSFER":
        return Decision("PUBLIC_AUCTION", ("SUR-15", "SUR-23"), inputs, {"reason": "CATEGORY_EXHAUSTED_STOP"})
    order = ["TRANSFER", "CATEGORY_1"]
    if has_producer_utility(item, producer_utility_types):
        order.append("CATEGORY_2")
    order += ["CATEGORY_3", "PUBLIC_AUCTION"]
    stage = order[order.index(previous) + 1] if previous in order else "PUBLIC_AUCTION"
    rules = CATEGORY_RULES[stage] + (("AMB-02",) if previous == "CATEGORY_1" else ()) + \
        (("SUR-23",) if exhausted else ())
    return Decision(stage, tuple(dict.fromkeys(rules)), inputs,
                    {"reason": "CATEGORY_EXHAUSTED" if exhausted else "NO_REQUEST"})


def _in_stage(requests, stage, statuses=LIVE) -> list[dict]:
    return sorted([r for r in requests or [] if STAGE_OF_CATEGORY.get(r.get("category")) == stage
                   and r.get("status") in statuses], key=lambda r: (str(r["received_at"]), str(r["request_id"])))


def window_action(stage, requests, item, producer_utility_types, gov_order, window_over=False) -> Decision:
    """Category 1 or 3 while its window runs: SERVE the first request as it arrives, or WAIT. Goods of
    producer utility under AGENCIES_THEN_MUNICIPALITIES wait for the window to close (AMB-04).
    When the window is over: SERVE if anyone asked, else NEXT."""
    pending = _in_stage(requests, stage, ("PENDING",))
    ordered_wait = stage == "CATEGORY_1" and gov_order == "AGENCIES_THEN_MUNICIPALITIES" \
        and has_producer_utility(item, producer_utility_types)
    if window_over:
        action = "SERVE" if pending else "NEXT"
    else:
        action = "SERVE" if pending and not ordered_wait else "WAIT"
    rules = CATEGORY_RULES[stage] + (("AMB-04",) if ordered_wait else ())
    return Decision(action, rules, {"stage": stage, "pending": [r["request_id"] for r in pending],
                                    "gov_order": gov_order, "window_over": bool(window_over)})


def lots_for(stage, item, requests, vehicle_order=None, assignee=None, unsold_units=None,
             lottery_until=None) -> Decision:
    """What is sold now: per unit to producers (FAR-21, units with at least one request), the whole
    item (its unsold units) otherwise."""
    units = [u for u in (item.get("units") or []) if unsold_units is None or u["unit_id"] in unsold_units]
    base = {"stage": stage, "candidates_from": None, "lottery_done": False}
    if stage == "CATEGORY_2":
        lots = []
        for unit in units:
            asked = [r for r in _in_stage(requests, stage) if unit["unit_id"] in r.get("units", [])]
            if asked:
                lots.append({**base, "lot_id": unit["unit_id"], "units": [unit["unit_id"]],
                             "use_category": unit.get("use_category"), "lottery_until": lottery_until})
        return Decision(lots, ("FAR-21", "AMB-16", "FAR-19"), {"stage": stage, "units": [u["unit_id"] for u in units]})
    lot = {**base, "lot_id": "+".join(u["unit_id"] for u in units) or "ITEM", "units": [u["unit_id"] for u in units],
           "vehicle_order": list(vehicle_order or []), "assignee": assignee}
    return Decision([lot] if units else [], ("SUR-07", "SUR-08"), {"stage": stage,
                                                                   "units": [u["unit_id"] for u in units]})


def _under_cap(request, lot, item, cap) -> bool:
    """AMB-16: with `farmer.maxUnitsPerProducerPerCategory` set, a producer who already holds that
    many units of the lot's use category is passed over."""
    if cap in (None, ""):
        return True
    category = {u["unit_id"]: u.get("use_category") for u in item.get("units") or []}
    held = [u for u in request.get("selected_units") or [] if u not in lot["units"]
            and category.get(u) == lot.get("use_category")]
    return len(held) < int(cap)


def lot_candidates(lot, requests, item, producer_utility_types, gov_order, max_units_per_producer=None) -> Decision:
    """Who may take the lot now, in order: the Encargado's assignee; the consented vehicle order
    (SUR-05); category 1 in the AMB-04 order; producers who asked for the unit in order of receipt
    (FAR-19), the first pick by lottery among those who asked within the request window (AMB-15);
    category 3 by arrival. Nobody who did not collect (NO_INTEREST) comes back."""
    stage = lot["stage"]
    live = {r["request_id"]: r for r in requests or [] if r.get("status") in LIVE}
    if stage == "TRANSFER" and lot.get("vehicle_order"):
        order, rules = [i for i in lot["vehicle_order"] if i in live], ("SUR-05", "SUR-23")
    elif stage == "TRANSFER":
        order, rules = [i for i in [lot.get("assignee")] if i in live], ("SUR-04", "SUR-07")
    elif stage == "CATEGORY_1":
        order = government_order([{**r, "status": "PENDING"} for r in _in_stage(requests, stage)], item,
                                 producer_utility_types, gov_order).outcome
        rules = ("SUR-09", "SUR-10", "SUR-23", "AMB-04")
    elif stage == "CATEGORY_2":
        asked = [r for r in _in_stage(requests, stage) if lot["units"][0] in r.get("units", [])
                 and _under_cap(r, lot, item, max_units_per_producer)]
        order = [r["request_id"] for r in asked]
        # The window closes at the end of its last Puerto Rico day, whatever offset a stamp carries.
        in_window = [r["request_id"] for r in asked if not lot.get("lottery_until")
                     or as_local_date(r["received_at"]) <= as_local_date(lot["lottery_until"])]
        rules = ("FAR-19", "FAR-20", "FAR-21", "AMB-15") + (("AMB-16",) if max_units_per_producer else ())
    else:
        order, rules = [r["request_id"] for r in _in_stage(requests, stage)], ("SUR-13", "SUR-23")
    lottery = stage == "CATEGORY_2" and len(in_window) > 1 and not lot.get("lottery_done")
    if lottery:
        order = in_window + [i for i in order if i not in in_window]  # the rest wait in order of receipt
    action = "UNSOLD" if not order else ("LOTTERY" if lottery else "SELL")
    return Decision(action, rules, {"lot_id": lot["lot_id"], "stage": stage, "candidates": order,
                                    "max_units_per_producer": max_units_per_producer},
                    {"candidates": in_window if lottery else order,
                     "buyer": order[0] if order and not lottery else None})
