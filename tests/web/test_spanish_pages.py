"""Every page of the demo, in Spanish, shows no code, id, variable path or English word (issue 16 item 5),
and each procedure's label data names every stage, outcome and message its diagrams use, in both languages."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api import demo
from engine.bootstrap import deploy_directory
from engine.definitions.parsing import describe
from engine.identity.actor import SYSTEM
from engine.queries import accounts as account_queries
from tests.support.spanish_check import untranslated

REPO = Path(__file__).resolve().parents[2]
PROCEDURES = ("farmer_registry", "materials_aid", "bid_adjudication", "surplus_disposition")
ASSIGNED = re.compile(r"(?:\b(stage|outcome)\s*=\s*|(?:&quot;|[\"'])(stage|outcome)(?:&quot;|[\"'])\s*:\s*)"
                      r"(?:&quot;|[\"'])([A-Z][A-Z0-9_]+)(?:&quot;|[\"'])")


@pytest.fixture
def demo_site(engine, app):
    deploy_directory(engine, REPO / "processes")
    demo.seed(engine, emit=lambda _line: None)
    users = engine.read(account_queries.list_users, SYSTEM)
    names = [u["username"] for u in users] + [u.get("full_name") or "" for u in users]
    return app, names


def _login(app, username, password):
    client = app.test_client()
    client.get("/web/login")
    with client.session_transaction() as session:
        token = session.get("_csrf", "")
    answer = client.post("/web/login", data={"username": username, "password": password, "_csrf": token})
    assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
    return client


def _page(client, path, expect=200) -> str:
    answer = client.get(path)
    assert answer.status_code == expect, (path, answer.status_code)
    return answer.get_data(as_text=True)


def test_every_demo_page_in_spanish_shows_no_code_id_or_english(demo_site):
    app, names = demo_site
    boss = _login(app, "boss", "secreto-123")
    problems: dict[str, list[str]] = {}

    def check(path, client=boss, expect=200):
        found = untranslated(_page(client, path, expect), allow=names)
        if found:
            problems[path] = found
        return found

    listing = _page(boss, "/web/cases?per_page=100")
    case_ids = sorted({int(i) for i in re.findall(r'/web/cases/(\d+)"', listing)})
    assert len(case_ids) >= 20  # the four procedures' demo cases, at several stages, some closed
    for path in ("/web/cases?per_page=100", "/web/dashboard", "/web/tasks"):
        check(path)
    for case_id in case_ids:
        html = _page(boss, f"/web/cases/{case_id}")
        check(f"/web/cases/{case_id}")
        for name in sorted(set(re.findall(rf"/web/cases/{case_id}/messages/([a-z_]+)", html))):
            check(f"/web/cases/{case_id}/messages/{name}")
        for task_id in sorted(set(re.findall(r'/web/tasks/(\d+)"', html))):
            check(f"/web/tasks/{task_id}")
    # Refusals: a message form sent empty (fields), and a message a rule refuses.
    refused = 0
    for case_id in case_ids:
        html = _page(boss, f"/web/cases/{case_id}")
        for name in sorted(set(re.findall(rf"/web/cases/{case_id}/messages/([a-z_]+)", html))):
            with boss.session_transaction() as session:
                token = session.get("_csrf", "")
            answer = boss.post(f"/web/cases/{case_id}/messages/{name}", data={"_csrf": token})
            if answer.status_code in (409, 422):
                refused += 1
                found = untranslated(answer.get_data(as_text=True), allow=names)
                if found:
                    problems[f"POST /web/cases/{case_id}/messages/{name}"] = found
    assert refused >= 3
    check("/web/cases/999999", expect=404)
    check("/web/tasks/999999", expect=404)
    admin = _login(app, "admin", "secreto-123")
    for path in ("/web/admin/parameters", "/web/admin/users", "/web/admin/roles", "/web/admin/registries"):
        check(path, admin)
    clerk = _login(app, "registry_clerk", demo.DEMO_PASSWORD)
    check("/web/dashboard", clerk, expect=403)
    for username in ("registry_clerk", "registry_evaluator", "caguas_oficina", "bid_board_secretary", "bid_board",
                     "surplus_officer"):
        staff = _login(app, username, demo.DEMO_PASSWORD)
        inbox = _page(staff, "/web/tasks")
        check("/web/tasks", staff)
        for task_id in sorted(set(re.findall(r'/web/tasks/(\d+)"', inbox)))[:4]:
            check(f"/web/tasks/{task_id}", staff)
        starts = _page(staff, "/web/start")
        check("/web/start", staff)
        for key in sorted(set(re.findall(r'/web/start/([a-z_]+)"', starts))):
            check(f"/web/start/{key}", staff)
    owner = _login(app, "owner", "secreto-123")
    check("/web/processes", owner)
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)[:30000]


def test_after_the_deadlines_pass_the_closed_cases_read_in_spanish_too(demo_site):
    """The clock moved from the admin page: windows close, timers end cases (a final denial, an
    incomplete application closed, the surplus cascade moving on); every case page stays Spanish."""
    app, names = demo_site
    admin = _login(app, "admin", "secreto-123")
    for _step in range(3):
        with admin.session_transaction() as session:
            token = session.get("_csrf", "")
        assert admin.post("/web/admin/clock", data={"days": "25", "_csrf": token}).status_code == 302
    boss = _login(app, "boss", "secreto-123")
    listing = _page(boss, "/web/cases?per_page=100&status=completed")
    closed = sorted({int(i) for i in re.findall(r'/web/cases/(\d+)"', listing)})
    assert len(closed) >= 4, listing[:300]
    problems = {}
    for case_id in sorted({int(i) for i in re.findall(r'/web/cases/(\d+)"', _page(boss, "/web/cases?per_page=100"))}):
        found = untranslated(_page(boss, f"/web/cases/{case_id}"), allow=names)
        if found:
            problems[case_id] = found
    for path in ("/web/dashboard", "/web/cases?per_page=100&status=completed"):
        found = untranslated(_page(boss, path), allow=names)
        if found:
            problems[path] = found
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)[:30000]


def test_a_refusal_page_is_in_spanish_and_english_when_asked(demo_site):
    app, _names = demo_site
    boss = _login(app, "boss", "secreto-123")
    assert "No existe, o no está a su alcance" in _page(boss, "/web/cases/999999", expect=404)
    boss.get("/web/lang/en")
    english = _page(boss, "/web/cases/999999", expect=404)
    assert "No existe" not in english and "999999" in english


def test_the_same_pages_in_english_name_stages_variables_and_events_in_english(demo_site):
    app, _names = demo_site
    boss = _login(app, "boss", "secreto-123")
    listing = _page(boss, "/web/cases?per_page=100")
    spanish = _page(boss, "/web/cases?per_page=100&stage=DENIED")
    assert "Denegada, en plazo de revisión" in spanish and "DENIED" not in re.sub(r'value="[^"]*"|href="[^"]*"', "", spanish)
    case_id = re.search(r'/web/cases/(\d+)"', spanish).group(1)
    assert "Denegación notificada el" in _page(boss, f"/web/cases/{case_id}")
    boss.get("/web/lang/en")
    english = _page(boss, f"/web/cases/{case_id}")
    assert "Denied, review window open" in english and "Denial notified on" in english
    assert "Last day to ask for a review" in english and "Denegada, en plazo" not in english
    assert listing


def _codes_in(folder: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {"stage": set(), "outcome": set()}
    for path in sorted(folder.glob("*.bpmn")):
        for match in ASSIGNED.finditer(path.read_text(encoding="utf-8")):
            found[match.group(1) or match.group(2)].add(match.group(3))
    return found


def _complete(entry) -> bool:
    return isinstance(entry, dict) and all(isinstance(entry.get(k), str) and entry[k].strip() for k in ("es", "en"))


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_label_data_names_every_stage_outcome_and_message_of_the_diagrams(procedure):
    folder = REPO / "processes" / procedure
    data = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    info = describe({p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.bpmn")})
    assert set(data["processes"]) == {k for k, p in info["processes"].items() if p["executable"]}
    codes = _codes_in(folder)
    assert codes["stage"] and codes["outcome"], codes
    named = {**data["stages"], **data["values"], **data["outcomes"]}
    assert sorted(codes["stage"] - set(named)) == []
    assert sorted(codes["outcome"] - set(data["outcomes"]) - set(data["values"])) == []
    assert sorted(set(info["messages"]) - set(data["messages"])) == []
    for variable in ("stage", "outcome", "case_number"):
        assert _complete(data["variables"].get(variable)), variable
    for section in ("stages", "outcomes", "values", "variables", "events"):
        assert [k for k, v in data[section].items() if not _complete(v)] == [], section
    for name, message in data["messages"].items():
        assert _complete(message), name
        assert [k for k, v in message.get("fields", {}).items() if not _complete(v)] == [], name


def test_every_lane_of_the_diagrams_is_a_role_with_both_labels():
    roles = {r["id"]: r for r in json.loads((REPO / "processes" / "roles.json").read_text(encoding="utf-8"))}
    for procedure in PROCEDURES:
        folder = REPO / "processes" / procedure
        lanes = set(re.findall(r'<bpmn:lane [^>]*name="([^"]+)"', "".join(
            p.read_text(encoding="utf-8") for p in folder.glob("*.bpmn"))))
        assert lanes, procedure
        for lane in lanes:
            assert lane in roles and roles[lane]["label_es"] and roles[lane]["label_en"], (procedure, lane)


# The result variables each contract names (../shared/procedures/<procedure>.md), by process key.
RESULT_VARIABLES = {
    "farmer_registry_admission": "eligibility stage extra_docs_deadline denial_notified_on review_deadline review_accepted "
                                 "judicial_review_available admission_date registry_id renewal_due outcome",
    "farmer_registry_membership": "registry_id renewal_due registry_status status_lost_flag outcome",
    "materials_aid": "docs_requested_on docs_deadline filing_date application_valid_through eligibility selected_store "
                     "selected_total po_amount po_issued_on delivered_on use_deadline visit_not_before completion_date "
                     "last_use_date reapply_earliest collection_amount querella_filed_on outcome",
    "bid_adjudication": "offers_status evaluated_prices ranking tie lotteries awards awardee contract_price "
                        "justification_required justification bans notified_purchasing justice_referral follow_up "
                        "contractor bid_status bonds_returned similar_purchase_lock_until single_bidder_count outcome",
    "surplus_disposition": "listing_published_on claim_window_closes category_window_closes request_window_closes "
                           "requests stage producer_notices_sent lotteries price notice_sent_on pickup_deadline buyer "
                           "assignee receipt_number invoice_amount disposition delivered_on hacienda_copy_sent "
                           "retention_obligation retention_active_through retention_free_from fondo_general "
                           "fondo_secretario_hacienda auction_case_id outcome",
}


@pytest.mark.parametrize("key", sorted(RESULT_VARIABLES))
def test_every_result_variable_of_the_contract_has_words_in_both_languages(key):
    from engine.bootstrap import procedure_files
    from api.web import case_context
    folder = next(REPO / "processes" / p for p in PROCEDURES
                  if key in json.loads((REPO / "processes" / p / "labels.json").read_text(encoding="utf-8"))["processes"])
    data = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    files = {n: c.decode("utf-8") for n, c in procedure_files(folder, REPO / "forms").items()}
    titled = {p for p, f in case_context.form_catalogue(files).items() if case_context._titled(f)}
    missing = [v for v in RESULT_VARIABLES[key].split()
               if not _complete(data["variables"].get(v)) and v not in titled]
    assert missing == []
