"""Surplus disposition's registry functions a script may call, bound to the command that runs it:
the producers' notices (FAR-14, from the Registro de Agricultores Bona Fide) and the per-unit
lottery (FAR-20, AMB-15, TC-7). Also the lookup of the `request` message rule, which needs the
registry to tell an ACTIVE producer from one who is not (NOT_REGISTERED)."""
from __future__ import annotations

from collections.abc import Callable

from engine.errors import NotFound
from engine.scripting.current import current_element
from engine.registries import farmers, notifications
from engine.procedures.bid_adjudication.bindings import draw

NAMES = frozenset({"surplus_draw", "notify_producers"})


def bind(ctx, instance_id: int | None) -> dict[str, Callable]:
    def surplus_draw(lot_id, participants, witnessed_result=None) -> dict:
        """A witnessed result as recorded by staff, or a cryptographic draw; either way the
        participants and the result go to the history."""
        ids = [str(p) for p in participants]
        if witnessed_result not in (None, ""):
            result = {"winner": str(witnessed_result), "seed": None, "participants": ids, "method": "WITNESSED"}
        else:
            result = {**draw(ids), "participants": ids}
        result["lot_id"] = str(lot_id)
        ctx.audit("lottery", instance_id=instance_id, element_id=current_element(), actor="engine",
                  rule_ids=("FAR-20", "AMB-15", "TC-7"), message=f"sorteo de {lot_id}: gana {result['winner']}",
                  data=result)
        return result

    def notify_producers(producer_types, subject, body) -> list:
        """FAR-14: a notice to every ACTIVE producer of the matching types, at the Registry address."""
        sent = []
        for producer in farmers.active_producers(ctx.session, list(producer_types)):
            # FAR-14: «a la dirección que aparece en el Registro» — a postal address, not an e-mail.
            notifications.record(ctx, instance_id, producer["name"], subject, body, "correo_postal",
                                 producer.get("address"), current_element())
            sent.append(producer["id"])
        return sent

    return {"surplus_draw": surplus_draw, "notify_producers": notify_producers}


def request_lookup(ctx, payload: dict, _facts) -> dict:
    """The farmer registry's word on a producer's request (NOT_REGISTERED): its status and type."""
    requester = payload.get("requester") or {}
    if requester.get("kind") != "productor":
        return {}
    try:
        record = farmers.get(ctx.session, str(requester.get("registry_id") or requester.get("id") or ""))
    except NotFound:
        return {"registry_status": None}
    return {"registry_status": record.status, "producer_type": record.producer_type}
