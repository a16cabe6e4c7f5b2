"""Surplus disposition's registry functions a script may call, bound to the command that runs it:
the producers' notices (FAR-14, from the Registro de Agricultores Bona Fide) and the per-unit
lottery (FAR-20, AMB-15, TC-7). Also the `request` message rule, which needs the registry to tell
an ACTIVE producer from one who is not (NOT_REGISTERED)."""
from __future__ import annotations

from collections.abc import Callable

from ..errors import NotFound
from ..rules.surplus_disposition import SUR, request_refused
from . import farmers, notifications
from .bid_functions import draw

NAMES = frozenset({"surplus_draw", "notify_producers"})


def bind(ctx, instance_id: int | None) -> dict[str, Callable]:
    from ..runtime.functions import (
        _current_element,  # the runtime imports us; resolved at call time
    )

    def surplus_draw(lot_id, participants, witnessed_result=None) -> dict:
        """A witnessed result as recorded by staff, or a cryptographic draw; either way the
        participants and the result go to the history."""
        ids = [str(p) for p in participants]
        if witnessed_result not in (None, ""):
            result = {"winner": str(witnessed_result), "seed": None, "participants": ids, "method": "WITNESSED"}
        else:
            result = {**draw(ids), "participants": ids}
        result["lot_id"] = str(lot_id)
        ctx.audit("lottery", instance_id=instance_id, element_id=_current_element.get(), actor="engine",
                  rule_ids=("FAR-20", "AMB-15", "TC-7"), message=f"sorteo de {lot_id}: gana {result['winner']}",
                  data=result)
        return result

    def notify_producers(producer_types, subject, body) -> list:
        """FAR-14: a notice to every ACTIVE producer of the matching types, at the Registry address."""
        sent = []
        for producer in farmers.active_producers(ctx.session, list(producer_types)):
            # FAR-14: «a la dirección que aparece en el Registro» — a postal address, not an e-mail.
            notifications.record(ctx, instance_id, producer["name"], subject, body, "correo_postal",
                                 producer.get("address"), _current_element.get())
            sent.append(producer["id"])
        return sent

    return {"surplus_draw": surplus_draw, "notify_producers": notify_producers}


def request_message(payload: dict, case: dict, _waiting: bool) -> None:
    """The contract's refusals for `request`: 409 DUPLICATE_REQUEST, 422 NOT_ELIGIBLE_CATEGORY /
    NOT_REGISTERED (checked against the registry as it stands when the request arrives)."""
    ctx = case.get("ctx")
    requester = payload.get("requester") or {}
    status = kind = None
    if requester.get("kind") == "productor" and ctx is not None:
        registry_id = str(requester.get("registry_id") or requester.get("id") or "")
        try:
            record = farmers.get(ctx.session, registry_id)
            status, kind = record.status, record.producer_type
        except NotFound:
            status = None
    frozen = case.get("surplus_rules") or {}  # frozen by `publish_listing` in the start's own command
    request_refused(payload, case.get("requests") or [], case.get("item") or {},
                    frozen.get("producer_utility_types") or ("agricola",),
                    frozen.get("nonprofit_without_certification") or "TREAT_AS_PUBLIC", status, kind)

MESSAGE_RULES = {(SUR, "request"): request_message}
