"""Who each kind of letter goes to and what it tells them, read from the case's data.

One function per `source` named in the kinds files. Each takes the step's view of the case (the
case's variables with the completed step's own data over them) and returns one entry per addressee:
name, address, e-mail, delivery method, reason codes (worded by the kinds file), free-text reasons
recorded by staff, the values the kind's sentences are filled with and the facts listed.
Pure: no database, no clock.
"""
from __future__ import annotations

from typing import Callable

Source = Callable[[dict], list[dict]]


def _applicant(scope: dict) -> dict:
    applicant = scope.get("applicant")
    return applicant if isinstance(applicant, dict) else {}


def _address(applicant: dict) -> str | None:
    parts = [str(applicant[k]) for k in ("address", "municipality") if applicant.get(k)]
    return ", ".join(dict.fromkeys(parts)) or None


def _typed_reasons(scope: dict, *fields_and_articles) -> list[tuple[str, str]]:
    """Reasons staff wrote, used when the rules gave none (a denial on the evaluator's findings)."""
    for name, article in fields_and_articles:
        if isinstance(scope.get(name), str) and scope[name].strip():
            return [(scope[name].strip(), article)]
    return []


def _far_refusal(scope: dict, free: list[tuple[str, str]], *typed) -> list[dict]:
    """A farmer-registry refusal to the applicant: the requirements' reason codes, else `free`
    reasons, else what staff typed (`typed`: (field, article) pairs)."""
    applicant = _applicant(scope)
    codes = list(dict.fromkeys((scope.get("eligibility") or {}).get("reasons") or []))
    if not codes and not free:
        free = _typed_reasons(scope, *typed)
    return [{"name": applicant.get("name") or "", "address": _address(applicant),
             "email": applicant.get("email"), "method": scope.get("method") or "correo_certificado",
             "reason_codes": codes, "reason_free": free, "values": {"name": applicant.get("name") or ""}}]


def far_denial(scope: dict) -> list[dict]:
    # The commissioner's own reason when the order denied an eligible application (order_admission).
    free = [(str(scope["reason"]), "FAR-09")] if scope.get("decision") == "deny" and scope.get("reason") else []
    return _far_refusal(scope, free, ("findings", "FAR-09"), ("reasons_text", "FAR-09"))


def far_denial_confirmed(scope: dict) -> list[dict]:
    """The review's outcome (FAR-12, FAR-13): the requirements as re-evaluated with the documents the
    review brought, then the commissioner's own reason; the board's findings when neither says why."""
    reason = str(scope.get("reason") or "").strip()
    return _far_refusal(scope, [(reason, "FAR-12")] if reason else [], ("findings", "FAR-12"))


def far_admission(scope: dict) -> list[dict]:
    applicant = _applicant(scope)
    values = {"name": applicant.get("name") or "", "registry_id": scope.get("registry_id") or "",
              "admission_date": scope.get("admission_date") or "", "renewal_due": scope.get("renewal_due") or ""}
    return [{"name": values["name"], "address": _address(applicant), "email": applicant.get("email"),
             "method": "correo_postal", "reason_codes": [], "reason_free": [], "values": values}]


_REQUEST_TYPES = {"rehabilitation": "rehabilitación", "retaining_wall": "muro de contención",
                  "medical_equipment": "equipo médico", "disability_adaptation": "adaptación por impedimento"}


def mat_ineligibility(scope: dict) -> list[dict]:
    applicant = _applicant(scope)
    codes = list(scope.get("notice_reasons") or (scope.get("eligibility") or {}).get("reasons") or [])
    if scope.get("irregularities") and not codes:
        codes = ["IRREGULARITIES"]
    free = _typed_reasons(scope, ("irregularity_detail", "MAT-13, MAT-14"))
    if not codes and not free:
        free = _typed_reasons(scope, ("reasons_text", "MAT-12"))
    request = scope.get("request") or {}
    values = {"name": applicant.get("name") or "", "office": scope.get("office") or "",
              "request": _REQUEST_TYPES.get(request.get("type"), request.get("type") or "")}
    return [{"name": values["name"], "address": _address(applicant), "email": applicant.get("email"),
             "method": scope.get("method") or "correo_certificado", "reason_codes": codes, "reason_free": free,
             "values": values}]


_CLOSURE_REASONS = {"INCOMPLETE_CLOSED": "DOCS_LATE", "EXPIRED": "EXPIRED",
                    "REJECTED_WAIT_PERIOD": "REJECTED_WAIT_PERIOD"}


def mat_closure(scope: dict) -> list[dict]:
    """The written notice that closes an application without a decision on its merits (MAT-11,
    MAT-18, MAT-30; AMB-24), with the LPAU orientation (MAT-12)."""
    applicant = _applicant(scope)
    code = _CLOSURE_REASONS.get(scope.get("outcome"), "DOCS_LATE")
    values = {"name": applicant.get("name") or "", "office": scope.get("office") or ""}
    return [{"name": values["name"], "address": _address(applicant), "email": applicant.get("email"),
             "method": "correo_postal", "reason_codes": [code], "reason_free": [], "values": values}]


def mat_purchase_order(scope: dict) -> list[dict]:
    applicant = _applicant(scope)
    store = (scope.get("selected_store") or {}).get("store_name") or ""
    values = {"name": applicant.get("name") or "", "po_number": scope.get("po_number") or "",
              "po_amount": scope.get("po_amount") or scope.get("selected_total") or "", "store": store}
    facts = [({"es": "Orden de compra", "en": "Purchase order"}, values["po_number"]),
             ({"es": "Importe", "en": "Amount"}, "$" + str(values["po_amount"])),
             ({"es": "Ferretería", "en": "Hardware store"}, store)]
    return [{"name": values["name"], "address": _address(applicant), "email": applicant.get("email"),
             "method": "correo_postal", "reason_codes": [], "reason_free": [], "values": values, "facts": facts}]


def bid_award(scope: dict) -> list[dict]:
    """One letter to each bidder: the awarded ones learn what they won, the others why not."""
    bid = scope.get("bid") or {}
    offers = [o for o in scope.get("offers") or [] if isinstance(o, dict)]
    status = scope.get("offers_status") or {}
    awards = [a for a in scope.get("awards") or [] if isinstance(a, dict)]
    names = {o.get("bidder_id"): o.get("bidder_name") or o.get("bidder_id") for o in offers}
    won = {a.get("bidder_id"): a for a in awards}
    winners = "; ".join(f"renglón {a.get('line')}: {names.get(a.get('bidder_id'), a.get('bidder_id'))}, "
                        f"${a.get('contract_price')}" for a in awards)
    winners_en = "; ".join(f"line {a.get('line')}: {names.get(a.get('bidder_id'), a.get('bidder_id'))}, "
                           f"${a.get('contract_price')}" for a in awards)
    letters = []
    for bidder in dict.fromkeys(o.get("bidder_id") for o in offers):
        own = [o for o in offers if o.get("bidder_id") == bidder]
        base = {"bid_number": bid.get("number") or "", "matter": bid.get("matter") or ""}
        if bidder in won:
            award = won[bidder]
            codes = [("AWARDED" if not scope.get("justification_required") else "NOT_CHOSEN_JUSTIFIED", {})]
            es = (f"Se le adjudica el renglón {award.get('line')} de la subasta núm. {base['bid_number']} "
                  f"({base['matter']}) por ${award.get('contract_price')}.")
            en = (f"You are awarded line {award.get('line')} of bid no. {base['bid_number']} "
                  f"({base['matter']}) for ${award.get('contract_price')}.")
        else:
            codes = []
            for o in own:
                code = status.get(o.get("offer_id"))
                codes.append(("RANKED_LOWER" if code in (None, "CONSIDERED") else code, {"offer_id": o.get("offer_id")}))
            es = (f"Su oferta en la subasta núm. {base['bid_number']} ({base['matter']}) no fue adjudicada. "
                  f"Adjudicación: {winners}.")
            en = (f"Your offer in bid no. {base['bid_number']} ({base['matter']}) was not awarded. "
                  f"Award: {winners_en}.")
        facts = [({"es": "Oferta", "en": "Offer"}, f"{o.get('offer_id')} — ${o.get('price')}") for o in own]
        letters.append({"name": names.get(bidder) or str(bidder), "address": None, "email": None,
                        "method": "correo_certificado", "reason_codes": codes,
                        "reason_free": [], "values": {**base, "outcome_es": es, "outcome_en": en},
                        "facts": facts, "recipient_id": bidder})
    return letters


def sur_sale(scope: dict) -> list[dict]:
    item = scope.get("item") or {}
    transfer = scope.get("pricing") == "TRANSFER"
    price = scope.get("price")
    paying = scope.get("buyer_kind") in ("productor", "sin_fines_de_lucro")
    values = {"inventory_number": item.get("inventory_number") or "", "description": item.get("description") or "",
              "sale_word_es": "traspaso" if transfer else "venta", "sale_word_en": "transfer" if transfer else "sale",
              "sale_verb_es": "traspasa" if transfer else "vende", "sale_verb_en": "transferred" if transfer else "sold",
              "price_es": f" por el precio de ${price}" if price and not transfer else "",
              "price_en": f" for the price of ${price}" if price and not transfer else "",
              "pay_es": (", después de pagar el precio al Recaudador Oficial con cheque certificado, giro postal o "
                         "cheque de gerente a favor del Secretario de Hacienda") if paying else "",
              "pay_en": (", after paying the price to the Official Collector by certified cheque, money order or "
                         "manager's cheque payable to the Secretario de Hacienda") if paying else ""}
    facts = [({"es": "Propiedad", "en": "Property"}, f"{values['description']} ({values['inventory_number']})")]
    if price and not transfer:
        facts.append(({"es": "Precio", "en": "Price"}, f"${price}"))
    if scope.get("invoice_amount"):
        facts.append(({"es": "Factura al cobro (SUR-20)", "en": "Invoice (SUR-20)"}, f"${scope['invoice_amount']}"))
    email = scope.get("buyer_email")
    return [{"name": scope.get("buyer_name") or str(scope.get("buyer") or ""), "address": None, "email": email,
             "method": "correo" if email else "correo_postal", "reason_codes": [], "reason_free": [],
             "values": values, "facts": facts}]


SOURCES: dict[str, Source] = {
    "far_denial": far_denial, "far_denial_confirmed": far_denial_confirmed, "far_admission": far_admission, "mat_ineligibility": mat_ineligibility,
    "mat_closure": mat_closure, "mat_purchase_order": mat_purchase_order, "bid_award": bid_award, "sur_sale": sur_sale,
}
