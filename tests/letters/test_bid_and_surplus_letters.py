"""Bid adjudication: a letter to each bidder on the award (the awarded one, one ranked lower, one
screened out for lateness), with the reconsideration term; surplus: the sale letter with the price
and the pickup deadline, linked from the buyer's notice and attached to its e-mail."""
from __future__ import annotations

from engine.registries.notifications import SmtpSettings
from engine.worker import work_round
from tests.letters.support import letters_of, pdfa_part, text_of
from tests.procedures.bid_adjudication.conftest import offer
from tests.procedures.surplus_disposition.conftest import item, requester
from tests.support.smtp_sink import SmtpSink


def test_every_bidder_gets_an_award_letter_with_its_own_reasons(bids):
    case = bids.played([offer("O1", "100.00"), offer("O2", "90.00"),
                        offer("O3", "80.00", received_at="2024-04-10T11:00:00-04:00")])
    assert case["variables"]["offers_status"]["O3"] == "LATE"
    bids.day("2024-04-17")  # a Wednesday: day 10 is Saturday 2024-04-27, rolled to Monday the 29th
    case = bids.award_first(case)
    letters = {entry["notice"]["recipient"]: entry for entry in letters_of(bids.api, case["id"], "award")}
    assert set(letters) == {"Licitador O1", "Licitador O2", "Licitador O3"}
    won, lower, late = (letters[f"Licitador {o}"]["text"] for o in ("O2", "O1", "O3"))
    assert "Se le adjudica el renglón 1 de la subasta núm. 2025-001" in won and "$90.00" in won
    assert "precio evaluado" in lower and "BID-03, BID-05" in lower and "no fue adjudicada" in lower
    assert "La oferta O3 llegó después de la hora de apertura." in late and "BID-01, BID-12" in late
    for text in (won, lower, late):
        assert case["case_number"] in text and "reconsideración ante la Junta de Subastas" in text
        assert "29 de abril de 2024 (2024-04-29)" in text and "17 de abril de 2024 (2024-04-17)" in text
        assert "Ley 107-2020" in text and "Correo certificado" in text and "Junta de Subastas" in text
    assert pdfa_part(letters["Licitador O2"]["bytes"]) == ("3", "B")


def test_the_sale_letter_states_the_price_and_pickup_deadline_and_rides_the_e_mail(surplus, engine):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-6000", "400.00"))
    surplus.at("2024-04-17 09:00")
    surplus.request(case, requester("MUN-CAYEY", "municipio", "Municipio de Cayey", email="compras@cayey.pr"))
    case = surplus.complete(case, "set_price", {"nominal_value": "10.00"}, "encargado")
    assert case["variables"]["pickup_deadline"] == "2024-04-29"  # day 10 is Saturday the 27th
    [letter] = letters_of(surplus.api, case["id"], "sale")
    text = letter["text"]
    assert case["case_number"] in text and "Municipio de Cayey" in text and "P-6000" in text
    assert "$10.00" in text and "Recogido de la propiedad" in text
    assert "29 de abril de 2024 (2024-04-29)" in text and "17 de abril de 2024 (2024-04-17)" in text
    assert "Correo electrónico" in text and "compras@cayey.pr" in text
    assert "Encargado(a) de la Propiedad Excedente" in text
    notice = letter["notice"]
    # The script's own notice carries the letter: no second notice to the buyer.
    assert notice["element_id"] == "send_notice" and notice["address"] == "compras@cayey.pr"
    assert [n["recipient"] for n in surplus.notices(case)].count("Municipio de Cayey") == 1
    with SmtpSink() as sink:
        assert work_round(engine, "w1", smtp=SmtpSettings(host="127.0.0.1", port=sink.port, timeout=5))["sent"] == 1
    [mail] = sink.messages
    [attachment] = [part for part in mail.walk() if part.get_content_type() == "application/pdf"]
    assert attachment.get_filename() == letter["document"]["filename"]
    assert attachment.get_payload(decode=True) == letter["bytes"]
    assert "Municipio de Cayey" in text_of(attachment.get_payload(decode=True))
