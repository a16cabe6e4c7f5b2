"""Which stage of the cascade a request belongs to, and which requests can never count
(SUR-07, 10, 11, 12, 13, 14; FAR-02, 14, 17; AMB-02, 03).

`request_category` answers TRANSFER (component agencies), 1 (government bodies not obliged to
dispose through the Comisión), 2 (registered producers, producer-utility goods only), 3
(endorsed non-profits; non-profits without endorsement under `MARKET_VALUE_SALE`) or 4 (the
public: an unendorsed non-profit under `TREAT_AS_PUBLIC` bids in the formal auction, so its
direct request is never reached). Refusals: `NOT_ELIGIBLE_CATEGORY`, `NOT_REGISTERED`.
"""
from __future__ import annotations

from engine.rules.decision import Decision
from engine.rules.surplus_disposition.common import KINDS, refuse

# 003: «utilidad agrícola, industrial, manual o de pesca, respectivamente» for «agricultor,
# acuicultor, avicultor, artesano y pescador». Aquaculture and poultry count as agriculture
# (AMB-02); the statute pairs no type with «industrial», which we give to artisans with «manual».
PRODUCER_TYPES_FOR_UTILITY = {
    "agricola": ("agricultor", "acuicultor", "avicultor"),
    "industrial": ("artesano",),
    "manual": ("artesano",),
    "pesca": ("pescador",),
}


def has_producer_utility(item, producer_utility_types) -> bool:
    utility = str((item or {}).get("utility") or "none").lower()
    return utility != "none" and utility in {str(u).lower() for u in producer_utility_types or ()}


def producer_types_for(item, producer_utility_types) -> list[str]:
    """The registry types whose members are notified of this item (FAR-14)."""
    if not has_producer_utility(item, producer_utility_types):
        return []
    return list(PRODUCER_TYPES_FOR_UTILITY.get(str(item.get("utility")).lower(), ()))


def request_category(requester, item, producer_utility_types=("agricola", "industrial", "manual", "pesca"),
                     nonprofit_without_certification="TREAT_AS_PUBLIC", registry_status=None,
                     registry_type=None) -> Decision:
    """The stage a request counts in; refuses the requests that can never count."""
    kind = str(requester.get("kind"))
    inputs = {"kind": kind, "utility": item.get("utility"), "is_vehicle": bool(item.get("is_vehicle")),
              "producer_utility_types": list(producer_utility_types or ()),
              "nonprofit_without_certification": nonprofit_without_certification,
              "registry_status": registry_status, "registry_type": registry_type}
    if kind not in KINDS:
        refuse("NOT_ELIGIBLE_CATEGORY", f"unknown requester kind {kind!r}", "SUR-08")
    if requester.get("obliged_to_dispose_through_commission"):
        refuse("NOT_ELIGIBLE_CATEGORY", "a body obliged by law to dispose through the Comisión cannot buy or "
               "claim surplus", "SUR-10")
    if kind == "agencia_componente":
        return Decision("TRANSFER", ("SUR-07",), inputs)
    if kind in ("agencia_ejecutiva", "municipio"):
        return Decision(1, ("SUR-09", "SUR-10"), inputs)
    if kind == "productor":
        if not has_producer_utility(item, producer_utility_types):
            refuse("NOT_ELIGIBLE_CATEGORY", "the item has no producer utility: producers cannot buy it",
                   "SUR-11", "AMB-02")
        if registry_status != "ACTIVE":
            refuse("NOT_REGISTERED", "only ACTIVE members of the Registro de Agricultores Bona Fide may buy",
                   "FAR-14", "FAR-17", "FAR-18")
        matching = producer_types_for(item, producer_utility_types)
        if registry_type is not None and matching and str(registry_type) not in matching:
            refuse("NOT_ELIGIBLE_CATEGORY", f"a {registry_type} cannot buy goods of {item.get('utility')} utility",
                   "FAR-02", "AMB-02")
        return Decision(2, ("SUR-11", "SUR-12", "FAR-17"), inputs)
    # sin_fines_de_lucro
    if (requester.get("endorsement") or {}).get("regulating_body"):
        return Decision(3, ("SUR-13",), inputs, {"pricing": "NONPROFIT_NOMINAL"})
    if nonprofit_without_certification == "MARKET_VALUE_SALE":
        return Decision(3, ("SUR-14", "AMB-03"), inputs, {"pricing": "MARKET_VALUE"})
    if nonprofit_without_certification == "TREAT_AS_PUBLIC":
        return Decision(4, ("SUR-14", "AMB-03"), inputs, {"pricing": "PUBLIC_AUCTION"})
    raise ValueError(f"unknown surplus.nonprofitWithoutCertification {nonprofit_without_certification!r}")


def government_order(requests, item, producer_utility_types, gov_order="AGENCIES_THEN_MUNICIPALITIES") -> Decision:
    """Order of category-1 requests (AMB-04): for producer-utility goods under
    AGENCIES_THEN_MUNICIPALITIES agencies come first, then municipalities, each by arrival; other
    goods (or ARRIVAL_ORDER) by arrival only."""
    pending = [r for r in requests or [] if r.get("status", "PENDING") == "PENDING"
               and (r.get("requester") or {}).get("kind") in ("agencia_ejecutiva", "municipio")]
    by_arrival = sorted(pending, key=lambda r: (str(r["received_at"]), str(r["request_id"])))
    split = gov_order == "AGENCIES_THEN_MUNICIPALITIES" and has_producer_utility(item, producer_utility_types)
    if split:
        by_arrival.sort(key=lambda r: r["requester"]["kind"] != "agencia_ejecutiva")
    return Decision([str(r["request_id"]) for r in by_arrival],
                    ("SUR-09", "SUR-10", "SUR-12") + (("AMB-04",) if split else ()),
                    {"gov_order": gov_order, "producer_utility": has_producer_utility(item, producer_utility_types)})
