"""A TEST HARNESS, not the surplus procedure: a small diagram under the contract's process key and
task ids that calls the surplus rule functions from scripts, so the rules and the completion hooks
are exercised through the HTTP API before the real diagram exists."""
from __future__ import annotations

from tests.support import bpmn as b

SUR = "surplus_disposition"
PRICE_FIELDS = ("nominal_value", "custody_costs", "maintenance_costs", "repair_costs", "habilitation_costs",
                "storage_costs", "fair_market_value", "price", "processing_costs", "market_value")
MONEY = {"type": ["string", "number"], "pattern": r"^\d+(\.\d{1,2})?$"}
DISPOSITION = ("{'TRANSFER': 'TRANSFERRED', 'GOV_NOMINAL': 'SOLD_GOV', 'PRODUCER_FMV': 'SOLD_PRODUCER', "
               "'NONPROFIT_NOMINAL': 'SOLD_NONPROFIT_NOMINAL', 'MARKET_VALUE': 'SOLD_NONPROFIT_MARKET_VALUE'}")

CLASSIFY = "\n".join([
    "surplus_rules = {'criteria_mode': param('surplus.criteriaMode'), 'discount_table': param('farmer.discountTable'),",
    "                 'allowed_instruments': param('farmer.allowedPaymentInstruments')}",
    *(f"{f} = None" for f in PRICE_FIELDS),
    "discount_requested = False",
    "units = []",
    "receipt_number = None",
    "if stage != 'TRANSFER':",
    "    category = surplus_request_category(requester, item, param('surplus.producerUtilityTypes'),",
    "                                        param('surplus.nonprofitWithoutCertification'), registry_status)",
    "    pricing = category.get('pricing') or ('PRODUCER_FMV' if category['outcome'] == 2 else 'GOV_NOMINAL')",
    "    buyer_kind = requester['kind']",
    "    buyer = requester['id']",
])
ASSIGNED = "\n".join([
    "assignee = request_id",
    "buyer_kind = [r for r in requests if r['request_id'] == request_id][0]['requester']['kind']",
    "pricing = 'TRANSFER'",
    "price = '0.00'",
])
PRICED = "\n".join([
    "sale = surplus_sale_price(pricing, {" + ", ".join(f"'{f}': {f}" for f in PRICE_FIELDS)
    + ", 'discount_requested': discount_requested, 'units': units}, surplus_rules['discount_table'],"
      " buyer_profile.get('household_size'), buyer_profile.get('annual_income'))",
    "price = sale['outcome']",
])
PAID = "receipt_number = 'RC-' + case_number"
DELIVERED = "\n".join([
    "delivered_on = today().isoformat()",
    f"disposition = {DISPOSITION}[pricing]",
    "copy = surplus_hacienda_copy(item['is_vehicle'], buyer_kind, param('surplus.haciendaCopyRule'))",
    "hacienda_copy_sent = copy['outcome']",
    "if hacienda_copy_sent:",
    "    notify('Departamento de Hacienda', 'Copia del formulario de traspaso ' + item['inventory_number'],",
    "           'Entrega de ' + item['description'] + ' a ' + buyer_kind + ' el ' + delivered_on)",
    "held = surplus_retention_obligation(item, buyer_kind, disposition, param('surplus.retentionThresholdScope'),",
    "                                    param('surplus.retentionMueblesMeaning'), param('surplus.retentionValueThreshold'))",
    "retention_obligation = held['outcome']",
    "if retention_obligation:",
    "    dates = surplus_retention_dates(delivered_on, param('surplus.retentionYears'), param('surplus.retentionAnchor'))",
    "    retention_active_through = dates['outcome']['retention_active_through']",
    "    retention_free_from = dates['outcome']['retention_free_from']",
    "if pricing == 'PRODUCER_FMV':",
    "    split = surplus_fund_split(price, processing_costs)",
    "    fondo_general = split['outcome']['fondo_general']",
    "    fondo_secretario_hacienda = split['outcome']['fondo_secretario_hacienda']",
    "outcome = disposition",
])


def harness_files() -> dict[str, str]:
    xml = b.diagram(
        SUR,
        lanes={"surplus_officer": ["start", "classify", "route", "select_transferee", "assigned", "set_price",
                                   "priced", "pay_gate", "end"],
               "collector": ["record_payment", "paid"], "custodian": ["deliver_item", "delivered"],
               "commissioner": ["decide_return"]},
        nodes=[b.start(), b.script("classify", CLASSIFY), b.xor("route", default="f_sale"),
               b.user("select_transferee"), b.script("assigned", ASSIGNED), b.user("set_price"),
               b.script("priced", PRICED), b.xor("pay_gate", default="f_free"), b.user("record_payment"),
               b.script("paid", PAID), b.user("deliver_item"), b.script("delivered", DELIVERED), b.end()],
        flows=[*b.chain("start", "classify", "route"),
               b.flow("f_transfer", "route", "select_transferee", "stage == 'TRANSFER'"),
               b.flow("f_sale", "route", "set_price"),
               *b.chain("select_transferee", "assigned", prefix="ft"), b.flow("f_a_d", "assigned", "deliver_item"),
               *b.chain("set_price", "priced", "pay_gate", prefix="fp"),
               b.flow("f_pay", "pay_gate", "record_payment", "buyer_kind in ('productor', 'sin_fines_de_lucro')"),
               b.flow("f_free", "pay_gate", "deliver_item"),
               *b.chain("record_payment", "paid", prefix="fr"), b.flow("f_paid_d", "paid", "deliver_item"),
               *b.chain("deliver_item", "delivered", "end", prefix="fd")])
    start_form = {"stage": {"type": "string"}, "item": {"type": "object"}, "requester": {"type": ["object", "null"]},
                  "requests": {"type": "array"}, "registry_status": {"type": ["string", "null"]},
                  "buyer_profile": {"type": "object"}}
    return {
        "harness.bpmn": xml,
        "start.schema.json": b.form(start_form),
        "select_transferee.schema.json": b.form({"request_id": {"type": "string"}}, {"skipped": {"type": "array"}}),
        "set_price.schema.json": b.form({}, {**{f: MONEY for f in PRICE_FIELDS},
                                             "discount_requested": {"type": "boolean"},
                                             "units": {"type": "array", "items": {"type": "string"}}}),
        "record_payment.schema.json": b.form({"instruments": {"type": "array"}}),
        "deliver_item.schema.json": b.form({}, {"payment_receipt_number": {"type": "string"},
                                                "transfer_form_number": {"type": "string"},
                                                "invoice_number": {"type": "string"}}),
    }
