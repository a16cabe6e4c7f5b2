"""The Recaudador's receipt number is shown where the people who need it act (issue 16): the
collector sees the receipt issued on the case page after recording the payment, and the custodian
reads it on the delivery task's page to check the buyer's copy — not only in the raw variables."""
from __future__ import annotations

import re

from tests.procedures.surplus_disposition.conftest import item, producers, requester, surplus  # noqa: F401
from tests.web.conftest import text_of

PAY = {"type": "cheque_certificado", "payee": "Secretario de Hacienda", "number": "CC-55821", "amount": "1800.00"}


def _receipts_table(page: str) -> str:
    tables = [t for t in re.findall(r"<table.*?</table>", page, re.S) if "Número de recibo" in t and "Pagado el" in t]
    assert tables, "no table of the receipts issued on the page"
    return text_of(tables[0])


def test_the_collector_and_the_custodian_read_the_receipt_number_on_their_pages(surplus, producers, web):  # noqa: F811
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4107", "2400.00", utility="agricola"))
    surplus.at("2024-05-03 09:00")  # nobody claimed it in transfer nor category 1: the producers' turn
    surplus.request(case, requester("F-17", "productor", "Pedro Santiago Rivera", registry_id="F-17"))
    surplus.at("2024-05-14 09:00")
    surplus.complete(case, "set_price", {"fair_market_value": "2400.00", "price": "1800.00",
                                         "processing_costs": "0.00"}, "encargado")
    surplus.complete(case, "record_payment", {"instruments": [PAY]}, "recaudador")
    [number] = [r["receipt_number"] for r in surplus.v(case)["receipts"].values()]

    collector = _receipts_table(web("recaudador").get(f"/web/cases/{case['id']}"))
    assert number in collector and "U1" in collector and "F-17" in collector

    [delivery] = surplus.tasks(case, "deliver_item")
    custodian = web("custodio")
    task_page = custodian.get(f"/web/tasks/{delivery['id']}")
    shown = _receipts_table(task_page)
    assert number in shown and "14 may 2024" in shown
    assert "Recibos expedidos por el Recaudador" in text_of(task_page)
