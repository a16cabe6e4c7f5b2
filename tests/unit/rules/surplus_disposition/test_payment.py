"""Direct tests of engine/rules/surplus_disposition/payment.py (FAR-23, FAR-25, SUR-21).

FAR-23: producers pay only by certified check, postal money order or manager's check, payable to the
Secretario de Hacienda (`PAYMENT_METHOD_NOT_ALLOWED`, `PAYEE_INVALID`); for anyone the instruments
must add up to the price exactly (`PAYMENT_AMOUNT_MISMATCH`, TC-4).
"""
from __future__ import annotations

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.surplus_disposition.payment import payment_check

HACIENDA = "Secretario de Hacienda"


def inst(kind, amount, payee=HACIENDA, number="1"):
    return {"type": kind, "amount": amount, "payee": payee, "number": number}


@pytest.mark.parametrize(("instruments", "price", "kind", "total", "rules"), [
    pytest.param([inst("cheque_certificado", "1200.00")], "1200.00", "productor", "1200.00", ("FAR-23",),
                 id="FAR-23-FAR-S16-certified-check"),
    pytest.param([inst("giro_postal", "600.00"), inst("giro_postal", "600.00", number="2")], "1200.00", "productor",
                 "1200.00", ("FAR-23",), id="FAR-23-two-money-orders"),
    pytest.param([inst("cheque_gerente", "9000.00", "SECRETARIO DE HACIENDA")], "9000.00", "productor", "9000.00",
                 ("FAR-23",), id="FAR-23-managers-check-payee-case"),
    pytest.param([inst("cheque_certificado", "50.00", "  secretario   de hacienda ")], "50.00", "productor", "50.00",
                 ("FAR-23",), id="FAR-23-payee-spacing"),
    pytest.param([inst("efectivo", "101.00", "Comisión")], "101.00", "sin_fines_de_lucro", "101.00", ("SUR-21",),
                 id="SUR-21-SUR-S10-nonprofit-any-instrument"),
    pytest.param([inst("cheque_personal", "0.10"), inst("efectivo", "0.20")], "0.30", "sin_fines_de_lucro", "0.30",
                 ("SUR-21",), id="SUR-21-TC-4-exact-cents"),
])
def test_payment_check_accepts(instruments, price, kind, total, rules):
    decision = payment_check(instruments, price, kind)
    assert decision.outcome is True
    assert decision.rule_ids == rules
    assert decision.details == {"total": total}
    assert decision.inputs["price"] == price and decision.inputs["buyer_kind"] == kind


@pytest.mark.parametrize(("instruments", "price", "kind", "code", "rules"), [
    pytest.param([inst("cheque_personal", "1200.00")], "1200.00", "productor", "PAYMENT_METHOD_NOT_ALLOWED",
                 ["FAR-23"], id="FAR-23-personal-check"),
    pytest.param([inst("efectivo", "1200.00")], "1200.00", "productor", "PAYMENT_METHOD_NOT_ALLOWED", ["FAR-23"],
                 id="FAR-23-cash"),
    pytest.param([inst("tarjeta", "1200.00")], "1200.00", "sin_fines_de_lucro", "PAYMENT_METHOD_NOT_ALLOWED",
                 ["SUR-21"], id="SUR-21-unknown-instrument"),
    pytest.param([inst("cheque_certificado", "1200.00", "Comisión")], "1200.00", "productor", "PAYEE_INVALID",
                 ["FAR-23"], id="FAR-23-payee-not-hacienda"),
    pytest.param([inst("giro_postal", "1200.00", None)], "1200.00", "productor", "PAYEE_INVALID", ["FAR-23"],
                 id="FAR-23-payee-missing"),
    pytest.param([inst("cheque_certificado", "1199.99")], "1200.00", "productor", "PAYMENT_AMOUNT_MISMATCH",
                 ["FAR-23"], id="FAR-23-TC-4-one-cent-short"),
    pytest.param([inst("cheque_certificado", "1200.01")], "1200.00", "productor", "PAYMENT_AMOUNT_MISMATCH",
                 ["FAR-23"], id="FAR-23-TC-4-one-cent-over"),
    pytest.param([inst("efectivo", "100.00")], "101.00", "sin_fines_de_lucro", "PAYMENT_AMOUNT_MISMATCH", ["SUR-21"],
                 id="SUR-21-amount-short"),
    pytest.param([], "101.00", "sin_fines_de_lucro", "PAYMENT_AMOUNT_MISMATCH", ["FAR-23", "SUR-21"],
                 id="SUR-21-no-instrument"),
])
def test_payment_check_refuses(instruments, price, kind, code, rules):
    with pytest.raises(RuleViolation) as caught:
        payment_check(instruments, price, kind)
    assert caught.value.code == code and caught.value.rule_ids == rules


def test_allowed_instruments_parameter():
    allowed = ("cheque_certificado",)
    with pytest.raises(RuleViolation) as caught:
        payment_check([inst("giro_postal", "5.00")], "5.00", "productor", allowed)
    assert caught.value.code == "PAYMENT_METHOD_NOT_ALLOWED"
    assert payment_check([inst("cheque_certificado", "5.00")], "5.00", "productor", allowed).outcome is True
