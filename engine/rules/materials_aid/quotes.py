"""Quotes, the maximum aid and what a misuse costs (MAT-15, 21, 22, 20, 34; AMB-26, AMB-36).

The stores are those of the Registro de Licitadores as the engine read them for this case; a quote
from any other store does not count, and three distinct registered stores must be asked.
"""
from __future__ import annotations

import unicodedata

from engine.rules.decision import Decision
# Half-even to the cent, as these amounts always were; `cents` is the shared helper.
from engine.rules.money import cents

QUOTE_STORE_NOT_REGISTERED = "QUOTE_STORE_NOT_REGISTERED"
QUOTES_NOT_THREE_DISTINCT = "QUOTES_NOT_THREE_DISTINCT"
ITEM_NOT_INDISPENSABLE = "ITEM_NOT_INDISPENSABLE"
MAX_AID_EXCEEDED = "MAX_AID_EXCEEDED"
MISUSED_VALUE, ALL_DELIVERED = "MISUSED_VALUE", "ALL_DELIVERED"


def _key(text) -> str:
    plain = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


def registered_store(quote: dict, registered_stores) -> dict | None:
    """The registry entry a quote names, by registry id or, failing that, by the store's name."""
    by_id = {_key(s["id"]): s for s in registered_stores or []}
    by_name = {_key(s["name"]): s for s in registered_stores or []}
    return by_id.get(_key(quote.get("store_id"))) or by_name.get(_key(quote.get("store_name")))


def quote_problems(quotes, registered_stores, quote_count) -> list[tuple[str, str]]:
    """(code, detail) for every way the quotes fail MAT-15; empty when they stand."""
    problems = []
    stores = set()
    for quote in quotes or []:
        store = registered_store(quote, registered_stores)
        if store is None:
            name = quote.get("store_name") or quote.get("store_id")
            problems.append((QUOTE_STORE_NOT_REGISTERED, f"{name} is not in the Registro de Licitadores"))
        else:
            stores.add(store["id"])
    if len(stores) < int(quote_count):
        problems.append((QUOTES_NOT_THREE_DISTINCT,
                         f"{len(stores)} distinct registered store(s) quoted; {int(quote_count)} are required"))
    return problems


def items_not_indispensable(items) -> list[str]:
    """MAT-22: items outside the areas indispensable to occupancy, health and safety."""
    return [str(item.get("description")) for item in items or [] if not item.get("indispensable")]


def select_quote(quotes, registered_stores) -> Decision:
    """MAT-15 / AMB-26: the lowest total among the registered stores' quotes; the first listed on a tie."""
    valid = [(cents(q["total"]), i, q, registered_store(q, registered_stores)) for i, q in enumerate(quotes or [])]
    valid = [v for v in valid if v[3] is not None]
    if not valid:
        raise ValueError("no quote from a registered store to select")
    total, _, quote, store = min(valid, key=lambda v: (v[0], v[1]))
    return Decision(outcome={"store_id": store["id"], "store_name": store["name"]},
                    rule_ids=("MAT-15", "AMB-26", "TC-4"),
                    inputs={"quotes": [dict(q) for q in quotes], "quote_selection": "LOWEST_TOTAL"},
                    details={"selected_total": total})


def aid_within_maximum(amount, max_aid) -> Decision:
    """MAT-21 / AMB-31: the aid may not exceed the maximum the Secretario set."""
    if max_aid is None:
        raise ValueError("materials.maxAidAmount is not set: the Secretario's maximum must be entered first")
    return Decision(outcome=cents(amount) <= cents(max_aid), rule_ids=("MAT-21", "AMB-31", "TC-4"),
                    inputs={"amount": cents(amount), "max_aid_amount": cents(max_aid)})


def collection_amount(misused_value, delivered_total, basis=MISUSED_VALUE) -> Decision:
    """MAT-20 / MAT-34 / AMB-36: what the beneficiary must pay back; legal costs only if sued."""
    delivered = cents(delivered_total)
    if basis == ALL_DELIVERED:
        amount = delivered
    else:
        amount = min(cents(misused_value if misused_value is not None else delivered), delivered)
    return Decision(outcome=amount, rule_ids=("MAT-20", "MAT-34", "MAT-35", "AMB-36", "TC-4"),
                    inputs={"misused_value": None if misused_value is None else cents(misused_value),
                            "delivered_total": delivered, "collection_basis": basis})
