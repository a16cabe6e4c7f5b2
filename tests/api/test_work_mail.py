"""Reminders and escalations by e-mail (API.md "Work management"): each staff member's notice goes
to their address through the outbox and the SMTP transport (a real SMTP server on loopback); one
with no address is recorded `not_sent`, saying why, never left pending."""
from __future__ import annotations

from datetime import datetime, timedelta
from email.header import decode_header, make_header
from email.message import Message

from api.demo.users import ensure_users
from engine.registries.notifications import SmtpSettings
from engine.rules.calendar import PUERTO_RICO
from engine.worker import work_round
from tests.support.diagrams import reminder_flow
from tests.support.smtp_sink import SmtpSink


def start(api):
    api.deploy("test_reminder", reminder_flow())
    case = api.post("/api/v1/processes/test_reminder/instances", "clerk", {"variables": {}}, expect=201)
    return case, api.open_task(case, "review")


def give_email(api, username: str, email: str) -> dict:
    return api.put(f"/api/v1/users/{username}", "admin", {"email": email})


def outbox(api, case) -> dict[str, dict]:
    return {f"{n['recipient']}:{n['subject'].split(':')[0]}": n
            for n in api.get(f"/api/v1/instances/{case['id']}/notifications", "boss")}


def body(mail: Message) -> str:
    return mail.get_payload(decode=True).decode() if not mail.is_multipart() else mail.get_payload(0).get_payload()


def subject(mail: Message) -> str:
    return str(make_header(decode_header(mail["Subject"])))


def deliver(engine, sink) -> dict:
    return work_round(engine, "w1", smtp=SmtpSettings(host="127.0.0.1", port=sink.port, timeout=5))


def test_due_soon_and_overdue_are_e_mailed_once_and_a_user_without_address_is_recorded_not_sent(api, engine):
    case, task = start(api)
    give_email(api, "reviewer", "Reviewer@Agencia.PR.gov")
    give_email(api, "boss", "boss@agencia.pr.gov")
    due = datetime.fromisoformat(task["due_at"])
    last_day = (due.astimezone(PUERTO_RICO) - timedelta(days=1)).strftime("%d/%m/%Y")
    with SmtpSink() as sink:
        api.move_clock((due - timedelta(days=2)).isoformat())
        assert deliver(engine, sink)["sent"] == 1
        [mail] = sink.messages
        assert mail["To"] == "Reviewer@agencia.pr.gov"
        assert subject(mail) == (f"Recordatorio: la tarea «Revisar» del caso {case['case_number']} "
                                   f"vence el {last_day}")
        text = body(mail)
        assert f"Último día: {last_day}" in text and f"Caso: {case['case_number']}" in text
        assert f"/web/tasks/{task['id']}" in text
        notices = outbox(api, case)
        assert notices["reviewer:Recordatorio"]["status"] == "sent"
        unsent = notices["both:Recordatorio"]
        assert (unsent["status"], unsent["address"]) == ("not_sent", None)
        assert unsent["error"] == "No se envió: both no tiene dirección de correo electrónico registrada."
        api.move_clock((due + timedelta(hours=1)).isoformat())
        assert deliver(engine, sink)["sent"] == 1
        assert sink.messages[1]["To"] == "boss@agencia.pr.gov"
        assert subject(sink.messages[1]).startswith(f"Tarea vencida: «Revisar» del caso {case['case_number']}")
        assert outbox(api, case)["boss_clerk:Tarea vencida"]["status"] == "not_sent"
        api.move_clock((due + timedelta(days=3)).isoformat())
        assert deliver(engine, sink)["sent"] == 0
    assert len(sink.messages) == 2
    assert [n["status"] for n in outbox(api, case).values()].count("pending") == 0


def test_the_users_api_takes_checks_changes_and_clears_an_email(api):
    made = api.post("/api/v1/users", "admin", {"username": "ana", "password": "secreto-123", "roles": ["test_clerk"],
                                               "email": " ana@Agencia.pr.gov "}, expect=201)
    assert made["email"] == "ana@agencia.pr.gov" and made["daily_digest"] is False
    for bad in ("ana", "ana@agencia", "ana @agencia.pr", "a@b..pr", "x" * 250 + "@a.pr"):
        refused = api.post("/api/v1/users", "admin", {"username": "luis", "password": "secreto-123",
                                                      "roles": ["test_clerk"], "email": bad}, expect=422)
        assert list(refused["errors"]) == ["email"], bad
        assert api.put("/api/v1/users/ana", "admin", {"email": bad}, expect=422)["errors"]["email"]
    assert "luis" not in [u["username"] for u in api.get("/api/v1/users", "admin")]
    assert api.put("/api/v1/users/ana", "admin", {"email": "ana.rivera@agencia.pr.gov"})["email"] == \
        "ana.rivera@agencia.pr.gov"
    changed = api.put("/api/v1/users/ana", "admin", {"full_name": "Ana Rivera"})
    assert (changed["full_name"], changed["email"], changed["roles"]) == ("Ana Rivera", "ana.rivera@agencia.pr.gov",
                                                                          ["test_clerk"])
    assert api.put("/api/v1/users/ana", "admin", {"email": None})["email"] is None
    api.put("/api/v1/users/ana", "boss", {"email": "x@y.pr"}, expect=403)
    api.put("/api/v1/users/ghost", "admin", {"email": "x@y.pr"}, expect=404)


def test_demo_users_get_an_address_on_a_reserved_domain(engine, api):
    ensure_users(engine, [("demo_clerk", ["test_clerk"], "Oficinista (demostración)", None)])
    made = next(u for u in api.get("/api/v1/users", "admin") if u["username"] == "demo_clerk")
    assert made["email"] == "demo_clerk@demo.tramite.example"


def test_the_demo_seed_gives_an_address_to_a_demo_user_that_has_none_and_keeps_one_given(engine, api):
    api.post("/api/v1/users", "admin", {"username": "demo_boss", "password": "tramite-demo-1", "roles": ["supervisor"]},
             expect=201)
    ensure_users(engine, [("demo_clerk", ["test_clerk"], "Oficinista (demostración)", None)])
    give_email(api, "demo_clerk", "oficina@agencia.pr.gov")
    ensure_users(engine, [("demo_boss", ["supervisor"], "Supervisor (demostración)", None),
                          ("demo_clerk", ["test_clerk"], "Oficinista (demostración)", None)])
    emails = {u["username"]: u["email"] for u in api.get("/api/v1/users", "admin")}
    assert emails["demo_boss"] == "demo_boss@demo.tramite.example"
    assert emails["demo_clerk"] == "oficina@agencia.pr.gov"


def test_an_absent_holders_substitute_is_reminded_too(api, engine):
    case, task = start(api)
    api.post(f"/api/v1/tasks/{task['id']}/claim", "reviewer")
    api.put("/api/v1/users/reviewer/absence", "reviewer", {"from": "2024-04-15", "until": "2024-04-30",
                                                           "substitute": "both"})
    give_email(api, "both", "both@agencia.pr.gov")
    with SmtpSink() as sink:
        api.move_clock((datetime.fromisoformat(task["due_at"]) - timedelta(days=1)).isoformat())
        assert deliver(engine, sink)["sent"] == 1
    assert sink.messages[0]["To"] == "both@agencia.pr.gov"
    assert sorted(outbox(api, case)) == ["both:Recordatorio", "reviewer:Recordatorio"]
