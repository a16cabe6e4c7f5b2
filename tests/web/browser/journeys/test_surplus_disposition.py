"""Surplus property from the pages: an agricultural item declared surplus goes down the cascade
(no agency claims it in the transfer window, no government body in category 1) to the registered
producers, one asks for it within the request window, pays the collector and picks it up."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.browser.journeys.pages import Journey

SURPLUS = "Disposición de propiedad excedente"
RECEIPT = re.compile(r"RC-[\w-]+")


def test_surplus_item_down_the_cascade_to_a_producer_sale_and_pickup(journey: Journey):
    j = journey
    page = j.sign_in("surplus_officer")
    case = j.start_case(SURPLUS, {
        "item.inventory_number": "A-4107", "item.description": "Rastra de discos Massey Ferguson",
        "item.is_vehicle": False, "item.utility": "agricola", "item.estimated_value": "2,400.00",
        "item.units.0.unit_id": "U1", "item.units.0.use_category": "preparación de terreno"})
    expect(page.locator("li.open-task")).to_have_count(0)  # the listing is published; it waits

    # Nobody claims it for transfer (15 days) nor in category 1 (15 more): the producers' turn.
    j.sign_in("admin")
    j.move_clock_to("2024-05-03T09:00")
    j.sign_in("surplus_officer")
    j.find_case(case)
    page.locator('li[data-message="request"]').get_by_role("link", name="Registrar").click()
    j.fill({"requester.id": "F-17", "requester.name": "Pedro Santiago Rivera", "requester.kind": "productor",
            "requester.registry_id": "F-17"})
    page.get_by_role("button", name="Registrar el mensaje").click()
    expect(page.locator(".flash-success")).to_be_visible()
    j.case_page(case)

    # The producers' request window (10 days) closes: the one request gets the item.
    j.sign_in("admin")
    j.move_clock_to("2024-05-20T09:00")
    j.sign_in("surplus_officer")
    j.do_task(case, "Fijar el precio", {"fair_market_value": "2,400.00", "price": "1,800.00",
                                        "processing_costs": "0.00", "discount_requested": False})

    j.sign_in("collector")
    j.claim_and_open(case, "Recibir el pago")
    j.fill({"instruments.0.type": "cheque_certificado", "instruments.0.amount": "1,800.00",
            "instruments.0.payee": "Secretario de Hacienda", "instruments.0.number": "CC-55821"})
    j.complete()

    # The collector reads the receipt issued on the case page; the custodian checks the buyer's
    # copy against the same number on the delivery task's page.
    j.find_case(case)
    issued = page.locator("table", has_text="Número de recibo").filter(has_text="Pagado el")
    receipt = RECEIPT.search(issued.inner_text()).group(0)
    j.sign_in("custodian")
    j.claim_and_open(case, "Entregar el bien")
    expect(page.locator("table", has_text="Número de recibo").filter(has_text="Pagado el")).to_contain_text(receipt)
    j.fill({"payment_receipt_number": receipt, "transfer_form_number": "TR-2024-311"})
    j.complete()

    j.sign_in("surplus_officer")
    j.find_case(case)
    expect(page.locator("h1 .status")).to_have_text("Terminado")
    j.explains("Pedro Santiago Rivera", "productor")
    j.history_names("Recibir el pago", "collector")
    j.history_names("Entregar el bien", "custodian")
    j.history_names("Fijar el precio", "surplus_officer")
    j.finish()
