"""Direct tests of the task-completion rules of engine/rules/surplus_disposition/hooks.py
(surplus_disposition.md task table; RULES.md SUR-02…05, 09, 11, 13, 14, 18, 21; FAR-20…23, 25, 26;
AMB-08, 15, 16, 19; §5; SUR-S01/S04/S07/S10, FAR-S16/S19).

select_transferee: the earliest request not skipped (ORDER_OF_ARRIVAL), a skip under criteria a–d
with a reason (REASON_REQUIRED); set_vehicle_order (SUR-05); draw_lottery (FAR-20, AMB-15); set_price
(PRICE_EXCEEDS_FMV, UNITS_MUST_BE_SOLD_INDIVIDUALLY); record_payment (PAYMENT_METHOD_NOT_ALLOWED,
PAYEE_INVALID for producers, PAYMENT_AMOUNT_MISMATCH); deliver_item (DELIVERY_REQUIRES_PAYMENT_RECEIPT,
VEHICLE_ORDER_NOT_APPROVED); decide_return (AUDIT_REPORT_REQUIRED).
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.facts import Facts
from engine.rules.surplus_disposition import hooks
from tests.unit.rules.hook_checks import ACCEPT, check, unprocessable


def facts(case) -> Facts:
    return Facts(case=case, today=date(2024, 4, 17), actor="officer")


def request(rid, kind, received_at, status="PENDING", name=None):
    return {"request_id": rid, "requester": {"id": rid, "name": name or rid, "kind": kind}, "units": ["U1"],
            "received_at": received_at, "status": status}


# SUR-S01: Agencia Componente B asked on 2024-04-02 14:00, A on 2024-04-03 10:15; a municipio too.
AGC_B = request("AGC-B", "agencia_componente", "2024-04-02T14:00:00-04:00")
AGC_A = request("AGC-A", "agencia_componente", "2024-04-03T10:15:00-04:00")
MUNI = request("MUN-COAMO", "municipio", "2024-04-01T09:00:00-04:00")
REQUESTS = [AGC_A, AGC_B, MUNI]
REASON = unprocessable("REASON_REQUIRED", ("SUR-02", "SUR-03a", "SUR-03b", "SUR-03c", "SUR-03d", "AMB-08"))
ORDER = unprocessable("ORDER_OF_ARRIVAL", cites=("SUR-04",))


@pytest.mark.parametrize(("requests", "data", "verdict"), [
    pytest.param(REQUESTS, {"request_id": "AGC-B"}, ACCEPT, id="SUR-04-S01-first-arrival-selected-accepted"),
    pytest.param(REQUESTS, {"request_id": "AGC-A"}, ORDER, id="SUR-04-later-arrival-without-skip-refused"),
    pytest.param(REQUESTS, {"request_id": "AGC-A", "skipped": [
        {"request_id": "AGC-B", "criterion": "c", "reason": "no puede cubrir el transporte"}]}, ACCEPT,
        id="SUR-03c-AMB-08-skip-with-criterion-and-reason-accepted"),
    pytest.param(REQUESTS, {"request_id": "AGC-A", "skipped": [{"request_id": "AGC-B", "criterion": "c", "reason": ""}]},
                 REASON, id="AMB-08-skip-without-reason-refused"),
    pytest.param(REQUESTS, {"request_id": "AGC-A", "skipped": [
        {"request_id": "AGC-B", "criterion": "e", "reason": "otro"}]}, REASON, id="SUR-03-criterion-outside-a-d-refused"),
    pytest.param(REQUESTS, {"request_id": "AGC-B", "skipped": [{"request_id": "AGC-B", "criterion": "a", "reason": "x"}]},
                 ORDER, id="SUR-04-skipped-and-selected-refused"),
    pytest.param(REQUESTS, {"request_id": "MUN-COAMO"}, unprocessable("UNKNOWN_REQUEST", cites=("SUR-07",)),
                 id="SUR-07-municipio-is-not-a-transfer-request"),
    pytest.param([AGC_A, {**AGC_B, "status": "NO_INTEREST"}], {"request_id": "AGC-A"}, ACCEPT,
                 id="SUR-23-request-that-fell-through-is-not-first"),
])
def test_transferee_selected(requests, data, verdict):
    check(hooks.transferee_selected, data, facts({"requests": requests, "surplus_rules": {"criteria_mode": "SCREEN"}}),
          verdict)


# --- set_vehicle_order (SUR-05, AMB-09) ------------------------------------------------------------

VEHICLE_REQUESTS = [AGC_B, MUNI, request("HOGAR", "sin_fines_de_lucro", "2024-04-04T09:00:00-04:00"),
                    request("AGE-X", "agencia_ejecutiva", "2024-04-05T09:00:00-04:00", status="NO_INTEREST")]
NOT_PENDING = unprocessable("UNKNOWN_REQUEST", ("SUR-05",))


@pytest.mark.parametrize(("order", "verdict"), [
    pytest.param(["MUN-COAMO", "AGC-B", "HOGAR"], ACCEPT, id="SUR-05-AMB-09-order-with-municipio-and-nonprofit-accepted"),
    pytest.param([], unprocessable("VEHICLE_ORDER_EMPTY", ("SUR-05",)), id="SUR-05-empty-order-refused"),
    pytest.param(["AGC-B", "NADIE"], NOT_PENDING, id="SUR-05-unknown-request-refused"),
    pytest.param(["AGC-B", "AGC-B"], NOT_PENDING, id="SUR-05-repeated-request-refused"),
    pytest.param(["AGE-X"], NOT_PENDING, id="SUR-05-request-no-longer-pending-refused"),
])
def test_vehicle_order_set(order, verdict):
    check(hooks.vehicle_order_set, {"order": order}, facts({"requests": VEHICLE_REQUESTS}), verdict)


# --- draw_lottery (FAR-20, FAR-21, AMB-15) ---------------------------------------------------------

# FAR-S16: F-31 asked for U1, U2, U3 and F-32 for U2; the injected result for U2 is F-32.
LOTTERY_CASE = {"lot": {"lot_id": "U2", "units": ["U2"]}, "candidates": ["F-31", "F-32"]}


@pytest.mark.parametrize(("data", "verdict"), [
    pytest.param({"unit_id": "U2", "witnessed_result": "F-32"}, ACCEPT, id="FAR-20-S16-witnessed-candidate-accepted"),
    pytest.param({"unit_id": "U2"}, ACCEPT, id="FAR-20-TC-7-engine-draws-accepted"),
    pytest.param({"unit_id": "U3", "witnessed_result": "F-31"}, unprocessable("UNKNOWN_UNIT", ("FAR-20", "FAR-21")),
                 id="FAR-21-lottery-for-another-unit-refused"),
    pytest.param({"unit_id": "U2", "witnessed_result": "F-23"},
                 unprocessable("LOTTERY_RESULT_INVALID", ("FAR-20", "AMB-15")),
                 id="AMB-15-winner-did-not-ask-for-the-unit-refused"),
])
def test_lottery_drawn(data, verdict):
    check(hooks.lottery_drawn, data, facts(LOTTERY_CASE), verdict)


# --- set_price (SUR-09, 11, 13, 14; FAR-21, 22, 26) -------------------------------------------------

TABLE = [{"min_household": 5, "max_income": "19999.99", "pct": 25}]  # FAR-S19's test table
FMV = {"fair_market_value": "1200.00", "price": "1200.00", "processing_costs": "50.00", "discount_requested": False}


@pytest.mark.parametrize(("basis", "data", "verdict"), [
    pytest.param("GOV_NOMINAL", {"nominal_value": "1.00", "custody_costs": "60.00"}, ACCEPT,
                 id="SUR-09-S07-nominal-plus-custody-accepted"),
    pytest.param("GOV_NOMINAL", {"custody_costs": "60.00"}, unprocessable("PRICE_COMPONENT_REQUIRED", ("SUR-09",)),
                 id="SUR-09-without-nominal-value-refused"),
    pytest.param("NONPROFIT_NOMINAL", {"nominal_value": "1.00", "maintenance_costs": "40.00", "storage_costs": "60.00",
                                       "repair_costs": "0.00"}, ACCEPT, id="SUR-13-S10-nominal-plus-costs-accepted"),
    pytest.param("MARKET_VALUE", {}, unprocessable("PRICE_COMPONENT_REQUIRED", ("SUR-14", "AMB-03")),
                 id="SUR-14-AMB-03-market-value-missing-refused"),
    pytest.param("PRODUCER_FMV", {**FMV, "units": ["U1"]}, ACCEPT, id="FAR-22-S16-price-equal-to-fmv-accepted"),
    pytest.param("PRODUCER_FMV", {**FMV, "price": "1200.01"}, unprocessable("PRICE_EXCEEDS_FMV", ("FAR-22", "SUR-11")),
                 id="FAR-22-price-above-fmv-refused"),
    pytest.param("PRODUCER_FMV", {**FMV, "fair_market_value": None},
                 unprocessable("PRICE_COMPONENT_REQUIRED", ("SUR-11", "FAR-22")), id="SUR-11-without-fmv-refused"),
    pytest.param("PRODUCER_FMV", {**FMV, "price": "2400.00", "fair_market_value": "2400.00", "units": ["U1", "U3"]},
                 unprocessable("UNITS_MUST_BE_SOLD_INDIVIDUALLY", ("FAR-21", "AMB-16")),
                 id="FAR-21-AMB-16-S16-two-units-in-one-sale-refused"),
    pytest.param("PRODUCER_FMV", {**FMV, "fair_market_value": "9000.00", "price": "9000.00", "discount_requested": True},
                 ACCEPT, id="FAR-26-AMB-19-S19-discount-requested-accepted"),
])
def test_price_set(basis, data, verdict):
    case = {"pricing": basis, "buyer_profile": {"household_size": 5, "annual_income": "18000.00"},
            "surplus_rules": {"discount_table": TABLE}}
    check(hooks.price_set, data, facts(case), verdict)


# --- record_payment (FAR-23, SUR-21) ---------------------------------------------------------------

def paid(kind, amount="1200.00", payee="Secretario de Hacienda"):
    return {"type": kind, "amount": amount, "payee": payee, "number": "000123"}


@pytest.mark.parametrize(("buyer_kind", "price", "instruments", "rules", "verdict"), [
    pytest.param("productor", "1200.00", [paid("cheque_certificado")], {}, ACCEPT,
                 id="FAR-23-certified-check-to-hacienda-accepted"),
    pytest.param("productor", "1200.00", [paid("giro_postal", "700.00"), paid("cheque_gerente", "500.00")], {}, ACCEPT,
                 id="FAR-23-money-order-plus-managers-check-accepted"),
    pytest.param("productor", "1200.00", [paid("efectivo")], {},
                 unprocessable("PAYMENT_METHOD_NOT_ALLOWED", ("FAR-23",)), id="FAR-23-cash-refused"),
    pytest.param("productor", "1200.00", [paid("cheque_personal")], {},
                 unprocessable("PAYMENT_METHOD_NOT_ALLOWED", ("FAR-23",)), id="FAR-23-personal-check-refused"),
    pytest.param("productor", "1200.00", [paid("cheque_certificado")], {"allowed_instruments": ["giro_postal"]},
                 unprocessable("PAYMENT_METHOD_NOT_ALLOWED", ("FAR-23",)), id="FAR-23-allowed-instruments-parameter"),
    pytest.param("productor", "1200.00", [paid("cheque_certificado", payee="Comisión")], {},
                 unprocessable("PAYEE_INVALID", ("FAR-23",)), id="FAR-23-payable-to-the-comision-refused"),
    pytest.param("productor", "1200.00", [paid("cheque_certificado", "1100.00")], {},
                 unprocessable("PAYMENT_AMOUNT_MISMATCH", ("FAR-23",)), id="FAR-23-total-below-price-refused"),
    pytest.param("productor", "1200.00", [], {}, unprocessable("PAYMENT_AMOUNT_MISMATCH", cites=("FAR-23",)),
                 id="FAR-23-no-instrument-refused"),
    pytest.param("sin_fines_de_lucro", "101.00", [paid("cheque_personal", "101.00", payee="Comisión")], {}, ACCEPT,
                 id="SUR-21-S10-nonprofit-any-listed-instrument-accepted"),
    pytest.param("sin_fines_de_lucro", "101.00", [paid("bitcoin", "101.00")], {},
                 unprocessable("PAYMENT_METHOD_NOT_ALLOWED", ("SUR-21",)), id="SUR-21-unknown-instrument-refused"),
    pytest.param("sin_fines_de_lucro", "101.00", [paid("efectivo", "100.00")], {},
                 unprocessable("PAYMENT_AMOUNT_MISMATCH", ("SUR-21",)), id="SUR-21-nonprofit-total-mismatch-refused"),
])
def test_payment_recorded(buyer_kind, price, instruments, rules, verdict):
    case = {"price": price, "buyer_kind": buyer_kind, "surplus_rules": rules}
    check(hooks.payment_recorded, {"instruments": instruments}, facts(case), verdict)


# --- deliver_item (SUR-05, SUR-20, SUR-21, FAR-25) --------------------------------------------------

RECEIPTS = {"U1": {"buyer": "F-31", "receipt_number": "R-2024-100"}}
SOLD = {"item": {"is_vehicle": False}, "lot": {"lot_id": "U1", "units": ["U1"]}, "stage": "CATEGORY_2",
        "buyer": "F-31", "buyer_kind": "productor", "receipts": RECEIPTS}
HOGAR = {**SOLD, "stage": "CATEGORY_3", "buyer": "HOGAR", "buyer_kind": "sin_fines_de_lucro",
         "receipts": {"U1": {"buyer": "HOGAR", "receipt_number": "R-2024-200"}}}
VEHICLE = {"item": {"is_vehicle": True}, "lot": {"lot_id": "U1"}, "stage": "TRANSFER", "assignee": "AGC-B",
           "buyer_kind": "agencia_componente"}
NO_RECEIPT = unprocessable("DELIVERY_REQUIRES_PAYMENT_RECEIPT", ("SUR-21", "FAR-25"))


@pytest.mark.parametrize(("case", "data", "verdict"), [
    pytest.param(SOLD, {"payment_receipt_number": "R-2024-100"}, ACCEPT, id="FAR-25-producer-with-receipt-accepted"),
    pytest.param(SOLD, {"transfer_form_number": "T-1"}, NO_RECEIPT, id="FAR-25-producer-without-receipt-refused"),
    pytest.param(SOLD, {"payment_receipt_number": "R-2024-999"}, NO_RECEIPT, id="FAR-25-receipt-of-another-sale-refused"),
    pytest.param({**SOLD, "buyer": "F-32"}, {"payment_receipt_number": "R-2024-100"}, NO_RECEIPT,
                 id="SUR-23-receipt-issued-to-previous-buyer-refused"),
    pytest.param(HOGAR, {"payment_receipt_number": "R-2024-200"}, ACCEPT, id="SUR-21-S10-nonprofit-with-receipt-accepted"),
    pytest.param(HOGAR, {"payment_receipt_number": " "}, NO_RECEIPT, id="SUR-21-nonprofit-without-receipt-refused"),
    pytest.param({**SOLD, "stage": "CATEGORY_1", "buyer": "MUN-COAMO", "buyer_kind": "municipio", "receipts": {}},
                 {"transfer_form_number": "T-2"}, ACCEPT, id="SUR-20-S07-government-buyer-needs-no-receipt"),
    pytest.param(VEHICLE, {"transfer_form_number": "T-3"}, unprocessable("VEHICLE_ORDER_NOT_APPROVED", ("SUR-05",)),
                 id="SUR-05-S04-vehicle-without-anuencia-refused"),
    pytest.param({**VEHICLE, "vehicle_order_approved": True}, {"transfer_form_number": "T-3"}, ACCEPT,
                 id="SUR-05-vehicle-with-anuencia-accepted"),
])
def test_item_delivered(case, data, verdict):
    check(hooks.item_delivered, data, facts(case), verdict)


# --- decide_return (SUR-18) -----------------------------------------------------------------------

@pytest.mark.parametrize(("case", "verdict"), [
    pytest.param({"audit_report": {"report_number": "IF-2025-3", "breach": True}}, ACCEPT,
                 id="SUR-18-after-audit-report-accepted"),
    pytest.param({}, unprocessable("AUDIT_REPORT_REQUIRED", ("SUR-18",)), id="SUR-18-without-audit-report-refused"),
])
def test_return_decided(case, verdict):
    check(hooks.return_decided, {"require_return": True, "penalty": "500.00", "reason": "uso distinto"},
          facts(case), verdict)
