"""Payment at the Recaudador Oficial (FAR-23, FAR-25, SUR-21): instruments, payee, amount."""
from __future__ import annotations

import unicodedata

from engine.rules.decision import Decision
from engine.rules.surplus_disposition.common import cents, refuse, text

INSTRUMENTS = ("cheque_certificado", "giro_postal", "cheque_gerente", "cheque_personal", "efectivo")
HACIENDA = "secretario de hacienda"


def _plain(value) -> str:
    folded = unicodedata.normalize("NFKD", str(value or "")).encode("ascii", "ignore").decode()
    return " ".join(folded.lower().split())


def payment_check(instruments, price, buyer_kind, allowed=("cheque_certificado", "giro_postal", "cheque_gerente"),
                  payee=HACIENDA) -> Decision:
    """Refuses `PAYMENT_METHOD_NOT_ALLOWED` / `PAYEE_INVALID` (producers, FAR-23) and
    `PAYMENT_AMOUNT_MISMATCH` (anyone: the instruments must add up to the price)."""
    instruments = list(instruments or [])
    if not instruments:
        refuse("PAYMENT_AMOUNT_MISMATCH", "no payment instrument was recorded", "FAR-23", "SUR-21")
    rules = ["FAR-23"] if buyer_kind == "productor" else ["SUR-21"]
    for inst in instruments:
        kind = str(inst.get("type"))
        if kind not in INSTRUMENTS:
            refuse("PAYMENT_METHOD_NOT_ALLOWED", f"unknown instrument {kind!r}", *rules)
        if buyer_kind == "productor":
            if kind not in {str(a).lower() for a in allowed or ()}:
                refuse("PAYMENT_METHOD_NOT_ALLOWED",
                       f"producers pay only by {', '.join(allowed)}, not {kind}", "FAR-23")
            if _plain(inst.get("payee")) != _plain(payee):
                refuse("PAYEE_INVALID", f"producers' instruments are payable to the {payee}, not "
                       f"{inst.get('payee')!r}", "FAR-23")
    total = sum((cents(i.get("amount")) for i in instruments), cents(0))
    if total != cents(price):
        refuse("PAYMENT_AMOUNT_MISMATCH", f"the instruments add up to {total}, the price is {cents(price)}", *rules,
               values={"total": text(total), "price": text(cents(price))})
    return Decision(True, tuple(rules), {"buyer_kind": buyer_kind, "price": text(cents(price)),
                                         "instruments": [dict(i) for i in instruments],
                                         "allowed": list(allowed or ())}, {"total": text(total)})
