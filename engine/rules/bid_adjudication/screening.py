"""Which offers the Junta may consider (BID-01, 02, 12, 21, 22, 25, 28, 30e-g; AMB-44, 48, 50, 51).

Two passes: `screen_offers` after the Acta de Apertura (facts the secretary records) and
`apply_evaluation` after the Junta's evaluation (findings only the board can make). Each offer
ends with `CONSIDERED` or the first reason that excludes it; the reasons' rule ids are recorded.
"""
from __future__ import annotations

from datetime import datetime

from engine.rules.calendar import as_local_date
from engine.rules.decision import Decision
from engine.rules.bid_adjudication.wording import evaluation_sentence, exclusion_reason

CONSIDERED = "CONSIDERED"
REASON_RULES = {
    "LATE": ("BID-01", "BID-12"), "NOT_IN_ACTA": ("BID-01",), "COLLECTOR_REPORT": ("BID-01",),
    "BIDDER_BANNED": ("BID-21", "BID-25", "BID-27", "BID-29"),
    "ALTERNATES_NOT_REQUESTED": ("BID-22", "AMB-50"), "MULTIPLE_ENVELOPES": ("BID-21", "AMB-48"),
    "NON_COMPLIANT_SPECS": ("BID-02", "BID-07", "BID-30a"),
    "NON_COMPLIANT_CONDITIONS": ("BID-02", "BID-07", "BID-30b", "BID-19", "AMB-51"),
    "BIDDER_EXCLUDED": ("BID-06", "BID-30e", "BID-30f", "BID-30g", "AMB-44"),
    "CONSPIRACY": ("BID-25",), "COLLUSION": ("BID-28", "BID-30d"),
}
# BID-22 speaks of «equipo, maquinaria o vehículos»: the contract's `equipment` kind.
ALTERNATES_KINDS = ("equipment",)
# An envelope that never entered the opening cannot be a second envelope of the same bidder.
NOT_OPENED = ("LATE", "NOT_IN_ACTA")


def _instant(value) -> datetime | None:
    if value in (None, ""):
        return None
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def opening_day(bid, today, offers_due_at=None):
    """The day the bid was opened (its offers were due), which decides who was banned then."""
    due = _instant(offers_due_at or bid.get("offers_due_at"))
    # The Puerto Rico day of the deadline: a UTC text near midnight must not name the next day.
    return as_local_date(due) if due is not None else today


def _rules_of(statuses: dict) -> tuple[str, ...]:
    ids = ["BID-01"]
    for status in statuses.values():
        ids.extend(r for r in REASON_RULES.get(status, ()) if r not in ids)
    return tuple(ids)


def screen_offers(offers, bid, banned_bidders, offers_due_at=None, escalation_non_compliant=True) -> Decision:
    """First pass, from the Acta de Apertura and the Informe del Recaudador.

    `banned_bidders` is {bidder id: ban entry} as the bidder registry stands on the opening day.
    A bid is deserted when nothing arrived or everything arrived late (BID-12).
    """
    due = _instant(offers_due_at or bid.get("offers_due_at"))
    statuses: dict[str, str] = {}
    for offer in offers:
        received = _instant(offer.get("received_at"))
        if due is not None and received is not None and received > due:
            status = "LATE"
        elif not offer.get("in_acta", True):
            status = "NOT_IN_ACTA"
        elif not offer.get("collector_ok", True):
            status = "COLLECTOR_REPORT"
        elif str(offer["bidder_id"]) in banned_bidders:
            status = "BIDDER_BANNED"
        elif offer.get("price_subject_to_market") and escalation_non_compliant:
            status = "NON_COMPLIANT_CONDITIONS"
        else:
            status = CONSIDERED
        statuses[str(offer["offer_id"])] = status
    sanctions = _duplicate_envelopes(offers, statuses, bid, {})
    deserted = not offers or all(s == "LATE" for s in statuses.values())
    return Decision(outcome=statuses, rule_ids=_rules_of(statuses) + (("BID-12",) if deserted else ()),
                    because=_left_out(statuses),
                    inputs={"offers": [o["offer_id"] for o in offers], "offers_due_at": due,
                            "banned_bidders": sorted(banned_bidders),
                            "alternates_requested": bool(bid.get("alternates_requested")), "kind": bid["kind"]},
                    details={"offers_status": statuses, "deserted": deserted,
                             "sanction_candidates": sanctions,
                             "bidders": sorted({str(o["bidder_id"]) for o in offers
                                                if statuses[str(o["offer_id"])] not in NOT_OPENED})})


def _duplicate_envelopes(offers, statuses, bid, aliases) -> list[dict]:
    """BID-21 / BID-22: several envelopes of one bidder (or its pseudonyms) for one renglón.

    Several *models* of one bidder in an equipment bid are alternates, not extra envelopes: all
    are rejected unless the Aviso asked for alternates (AMB-50: every offer of that bidder for
    the item). Marks `statuses` in place; returns the bidders to sanction.
    """
    groups: dict[tuple, list] = {}
    for offer in offers:
        if statuses[str(offer["offer_id"])] in NOT_OPENED:
            continue
        bidder = aliases.get(str(offer["bidder_id"]), str(offer["bidder_id"]))
        groups.setdefault((bidder, offer["line"]), []).append(offer)
    candidates = []
    for (bidder, _line), group in groups.items():
        if len(group) < 2:
            continue
        models = [o.get("model") for o in group]
        names = {str(o["bidder_id"]) for o in group}
        alternates = (bid["kind"] in ALTERNATES_KINDS and len(names) == 1 and None not in models
                      and len(set(models)) == len(models))
        if alternates and bid.get("alternates_requested"):
            continue
        reason = "ALTERNATES_NOT_REQUESTED" if alternates else "MULTIPLE_ENVELOPES"
        for offer in group:
            statuses[str(offer["offer_id"])] = reason
        if reason == "MULTIPLE_ENVELOPES":
            for name in sorted(names | {bidder}):
                if name not in [c["bidder_id"] for c in candidates]:
                    candidates.append({"bidder_id": name, "reason": reason})
    return candidates


def apply_evaluation(offers, offers_status, evaluations, collusion="none", conspirators=(), bid=None,
                     exclusions=("poor_performance", "debtor_no_plan", "convicted")) -> Decision:
    """Second pass, from the Junta's evaluation of the offers still considered.

    Order: a bidder found behind a pseudonym (AMB-48), collusion of all (BID-28) or a
    conspiracy (BID-25), then specs and conditions (BID-02), then the bidder-level exclusions
    applied per bidder (AMB-44). An offer without an evaluation complies (nothing was found).
    """
    bid = bid or {"kind": "acquisition"}
    statuses = dict(offers_status)
    by_id = {str(e["offer_id"]): e for e in evaluations}
    aliases = {str(o["bidder_id"]): str(by_id[str(o["offer_id"])]["same_bidder_as"])
               for o in offers if by_id.get(str(o["offer_id"]), {}).get("same_bidder_as")}
    sanctions = []
    if aliases:
        sanctions = _duplicate_envelopes(offers, statuses, bid, aliases)
    considered = [o for o in offers if statuses[str(o["offer_id"])] == CONSIDERED]
    plotters = {str(b) for b in conspirators or ()}
    if collusion == "all":
        for offer in considered:
            statuses[str(offer["offer_id"])] = "COLLUSION"
        plotters = {str(o["bidder_id"]) for o in considered}
    for offer in considered:
        oid, found = str(offer["offer_id"]), by_id.get(str(offer["offer_id"]), {})
        if statuses[oid] != CONSIDERED:
            continue
        if collusion == "conspiracy" and str(offer["bidder_id"]) in plotters:
            statuses[oid] = "CONSPIRACY"
        elif found.get("complies_specs") is False:
            statuses[oid] = "NON_COMPLIANT_SPECS"
        elif found.get("complies_conditions") is False:
            statuses[oid] = "NON_COMPLIANT_CONDITIONS"
        elif found.get("bidder_exclusion", "none") not in (None, "none") and found["bidder_exclusion"] in exclusions:
            statuses[oid] = "BIDDER_EXCLUDED"
    if collusion in ("all", "conspiracy"):
        reason = "COLLUSION" if collusion == "all" else "CONSPIRACY"
        sanctions += [{"bidder_id": b, "reason": reason} for b in sorted(plotters)]
    remaining = [o for o in offers if statuses[str(o["offer_id"])] == CONSIDERED]
    excluded = _excluded_here(offers, offers_status, statuses, by_id)
    return Decision(outcome=statuses, rule_ids=_rules_of(statuses) + ("BID-02",), because=_left_out(statuses),
                    inputs={"evaluations": list(by_id), "collusion": collusion,
                            "conspirators": sorted(plotters), "aliases": aliases},
                    details={"offers_status": statuses, "sanction_candidates": sanctions,
                             "considered_count": len(remaining),
                             "considered_bidders": sorted({str(o["bidder_id"]) for o in remaining}),
                             "collusion_of_all": collusion == "all", "exclusions": excluded,
                             "explanation": evaluation_sentence(excluded, offers,
                                                                [str(o["offer_id"]) for o in remaining])})


def _left_out(statuses: dict) -> tuple:
    """Each offer no longer considered, as a reason of its own (messages.py words its status)."""
    return tuple((status, {"offer_id": oid}) for oid, status in statuses.items() if status != CONSIDERED)


def _excluded_here(offers, before, after, evaluations) -> list[dict]:
    """The offers this evaluation left out, each with its reason in words (AMB-44: the exclusion of
    the lowest bidder is recorded with its reason, though the award needs no justification)."""
    out = []
    for offer in offers:
        oid = str(offer["offer_id"])
        if before.get(oid) != CONSIDERED or after[oid] == CONSIDERED:
            continue
        exclusion = (evaluations.get(oid) or {}).get("bidder_exclusion") if after[oid] == "BIDDER_EXCLUDED" else None
        out.append({"offer_id": oid, "bidder_id": str(offer["bidder_id"]), "status": after[oid],
                    "exclusion": exclusion, "reason": exclusion_reason(after[oid], exclusion)})
    return out


def equipment_criteria_missing(kind, offers_status, evaluations) -> list[str]:
    """BID-11: for an equipment bid, criteria a–f recorded (text or "no_aplica") for every offer."""
    if kind != "equipment":
        return []
    by_id = {str(e["offer_id"]): e for e in evaluations}
    missing = []
    for oid, status in offers_status.items():
        if status != CONSIDERED:
            continue
        criteria = (by_id.get(oid) or {}).get("equipment_criteria") or {}
        if any(not str(criteria.get(letter) or "").strip() for letter in "abcdef"):
            missing.append(oid)
    return missing
