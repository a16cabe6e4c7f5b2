"""A municipal bid from the pages: published by the board's secretary, offers opened on their day,
evaluated by the board with a bidder's sworn complaint found unjustified at the hearing (the
complainant sanctioned, Justicia told), then awarded to the lowest evaluated offer."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser.journeys.pages import Journey

BID = "Adjudicación de subasta municipal"
OFFERS = [("RL-4101", "Muebles del Caribe, Inc.", "48,900.00", "0"),
          ("RL-4102", "Oficinas Borinquen, LLC", "51,000.00", "5"),   # 5 % preference: 48,450.00 evaluated
          ("RL-4103", "Distribuidora Central", "49,800.00", "0")]


def test_bid_published_opened_evaluated_with_a_complaint_and_awarded(journey: Journey):
    j = journey
    page = j.sign_in("bid_board_secretary")
    case = j.start_case(BID, {
        "bid.number": "2024-017", "bid.matter": "sillas ergonómicas para la Casa Alcaldía", "bid.kind": "acquisition",
        "bid.lines.0.line": "1", "bid.lines.0.description": "300 sillas ergonómicas",
        "bid.estimate": "50,000.00", "bid.funds_certified": "55,000.00"})
    expect(page.locator("li.open-task")).to_contain_text("Registrar el Acta de Apertura")

    # The offers are opened on the day the notice gave, two weeks later.
    j.sign_in("admin")
    j.move_clock_to("2024-04-15T10:00")
    j.sign_in("bid_board_secretary")
    answers = {}
    for i, (bidder, name, price, preference) in enumerate(OFFERS):
        answers.update({f"offers.{i}.offer_id": f"O-{i + 1}", f"offers.{i}.line": "1", f"offers.{i}.bidder_id": bidder,
                        f"offers.{i}.bidder_name": name, f"offers.{i}.price": price,
                        f"offers.{i}.preference_pct": preference, f"offers.{i}.bond_amount": "2,500.00"})
    j.do_task(case, "Registrar el Acta de Apertura y el Informe del Recaudador", answers)

    j.sign_in("bid_board")
    j.inbox()
    mine, available = j.counts()
    j.claim_and_open(case, "Evaluar las ofertas")
    j.fill({"collusion": "none",
            "complaint.complainant_id": "RL-4103", "complaint.declaration_date": "2024-04-16",
            "complaint.hearing_date": "2024-04-22", "complaint.arbitrary": True, "complaint.unfounded": True,
            "complaint.malicious": True})
    j.complete()
    j.do_task(case, "Imponer sanciones", {
        "resolution_date": "2024-04-22", "sanctions.0.bidder_id": "RL-4103", "sanctions.0.kind": "registry_withdrawal",
        "sanctions.0.months": "12", "sanctions.0.reason": "Querella arbitraria, infundada y maliciosa (vista del 22 de abril).",
        "justice_referral": True})
    j.do_task(case, "Adjudicar", {
        "decision": "award", "awards.0.line": "1", "awards.0.offer_id": "O-2",
        "awards.0.votes.0.member": "bid_board", "awards.0.votes.0.offer_id": "O-2"})
    j.inbox()
    assert j.counts() == (mine, available - 1)

    j.sign_in("bid_board_secretary")
    j.find_case(case)
    expect(page.locator("h1 .status")).to_have_text("Terminado")
    j.explains("Oficinas Borinquen", "48,450.00", "preferencia")
    j.history_names("Evaluar las ofertas", "bid_board")
    j.history_names("Imponer sanciones", "bid_board")
    j.history_names("Registrar el Acta de Apertura", "bid_board_secretary")
    j.finish()
