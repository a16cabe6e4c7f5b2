"""Notices of the surplus cascade in the outbox, and their delivery by the configurable SMTP
transport: producers' notices go by post to the Registry address (FAR-14), a buyer's notice by
e-mail when the request gives one; the worker hands pending e-mail to SMTP, off when unconfigured."""
from __future__ import annotations

from engine.registries.notifications import SmtpSettings
from engine.worker import work_round
from tests.support.smtp_sink import SmtpSink

from .conftest import item, requester


def test_notices_in_the_outbox_and_the_smtp_transport(surplus, producers, engine):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("P-6000", "400.00"))
    surplus.at("2024-04-17 09:00")
    surplus.request(case, requester("MUN-CAYEY", "municipio", "Municipio de Cayey", email="compras@cayey.pr"))
    surplus.complete(case, "set_price", {"nominal_value": "10.00"}, "encargado")
    notices = surplus.notices(case)
    buyer_notice = next(n for n in notices if n["recipient"] == "Municipio de Cayey")
    assert (buyer_notice["channel"], buyer_notice["status"]) == ("correo", "pending")
    assert work_round(engine, "w1", smtp=None)["transport"] == "off"
    assert next(n for n in surplus.notices(case) if n["id"] == buyer_notice["id"])["status"] == "pending"
    with SmtpSink() as sink:
        result = work_round(engine, "w1", smtp=SmtpSettings(host="127.0.0.1", port=sink.port, timeout=5))
        assert result["sent"] == 1 and result["failed"] == 0
        assert work_round(engine, "w1", smtp=SmtpSettings(host="127.0.0.1", port=sink.port, timeout=5))["sent"] == 0
    [mail] = sink.messages
    assert mail["To"] == "compras@cayey.pr" and "P-6000" in mail["Subject"]
    # The notice carries its sale letter: the body is the first part, the PDF the second.
    body = mail.get_payload(0).get_payload(decode=True).decode() if mail.is_multipart() else mail.get_payload()
    assert "2024-04-27" in body or "recoger" in body.lower()
    after = {n["id"]: n["status"] for n in surplus.notices(case)}
    assert after[buyer_notice["id"]] == "sent"
    # The listing notice has no address: it stays on record, pending, never sent by e-mail.
    assert list(after.values()).count("pending") == len(after) - 1


def test_producers_are_notified_by_post_at_the_registry_address(surplus, producers):
    surplus.at("2024-04-01 12:30")
    case = surplus.start(item("A-4500", "800.00", utility="agricola"))
    surplus.at("2024-05-03 09:00")
    postal = [n for n in surplus.notices(case) if n["channel"] == "correo_postal"]
    assert len(postal) == 7 and all(n["address"].startswith("Calle F-") for n in postal)
