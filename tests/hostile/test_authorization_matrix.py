"""Every endpoint of the API × every kind of user, against the status each must get (API.md,
DESIGN.md §Security). The table is checked against Flask's url_map: an API endpoint missing from
it fails the suite, so a new endpoint arrives with its row.

The kinds of user, and who plays them: the case under test belongs to the office "Norte" and its
open task to the lane `test_clerk`.
"""
from __future__ import annotations

import io
import itertools
import re
from dataclasses import dataclass
from typing import Callable

import pytest

from tests.conftest import PASSWORD
from tests.hostile.matrix_accounts import account_rows
from tests.hostile.matrix_holidays import holiday_rows
from tests.support import bpmn as b

KINDS = ("anonymous", "nobody", "lane_staff", "other_lane", "other_office", "supervisor", "owner", "admin")
PLAYED_BY = {
    "anonymous": None,          # no token at all
    "nobody": "nobody",         # a role that is no lane of the process
    "lane_staff": "clerk_norte",  # test_clerk, office Norte: the case's lane and office
    "other_lane": "reviewer",   # test_reviewer: another lane of the same process, no office
    "other_office": "clerk_sur",  # test_clerk, office Sur
    "supervisor": "boss",
    "owner": "owner",           # process_owner
    "admin": "admin",
}
NOT_IN_API = ("/web", "/static", "/estado", "/status")  # the web UI's pages and assets, checked by tests/web


def matrix_flow(key: str = "test_matrix") -> dict[str, str]:
    """The clerk scopes the case to an office, then handles it while the case also waits for
    `documents_received` (clerk lane); `explode` makes the scoping script fail (case in error)."""
    xml = b.diagram(
        key, lanes={"test_clerk": ["start", "scope", "fork", "handle", "wait_docs", "join"],
                    "test_reviewer": ["review", "end"]},
        nodes=[b.start(), b.script("scope", "office = requested_office\nguard = 1 / (0 if explode else 1)"),
               b.parallel("fork"), b.user("handle"), b.message_catch("wait_docs", "msg_docs", "received"),
               b.parallel("join"), b.user("review"), b.end()],
        flows=[*b.chain("start", "scope", "fork", "handle", "join", "review", "end"),
               b.flow("f_fork_docs", "fork", "wait_docs"), b.flow("f_docs_join", "wait_docs", "join")],
        messages={"msg_docs": "documents_received"})
    return {f"{key}.bpmn": xml, "handle.schema.json": b.form({}), "review.schema.json": b.form({})}


class World:
    """What the requests act on. Every request that changes something gets a fresh target, so the
    order in which the kinds of user are tried never changes what they get."""

    def __init__(self, api):
        self.api = api
        self.serial = itertools.count(1)
        for username, office in (("clerk_norte", "Norte"), ("clerk_sur", "Sur")):
            api.post("/api/v1/users", "admin", {"username": username, "password": PASSWORD,
                                                 "roles": ["test_clerk"], "office": office}, expect=201)
        api.deploy("test_matrix", matrix_flow())
        self.case = self.new_case()
        self.task = api.open_task(self.case, "handle")

    def unique(self, prefix: str) -> str:
        return f"{prefix}{next(self.serial)}"

    def new_case(self, office="Norte", explode=False) -> dict:
        return self.api.post("/api/v1/processes/test_matrix/instances", "clerk",
                             {"variables": {"requested_office": office, "explode": explode}}, expect=201)

    def new_task(self) -> dict:
        return self.api.open_task(self.new_case(), "handle")

    def claimed_task(self) -> dict:
        task = self.new_task()
        self.api.post(f"/api/v1/tasks/{task['id']}/claim", "clerk_norte")
        return task

    def case_past_its_message(self) -> dict:
        case = self.new_case()
        self.api.post(f"/api/v1/instances/{case['id']}/messages/documents_received", "clerk_norte",
                      {"payload": {}})
        return case

    def document(self) -> dict:
        return self.api.call("POST", f"/api/v1/instances/{self.case['id']}/documents", "clerk_norte", 201,
                             data=document_upload(), content_type="multipart/form-data").get_json()

    def suspended_case(self) -> dict:
        case = self.new_case()
        self.api.post(f"/api/v1/instances/{case['id']}/suspend", PLAYED_BY["supervisor"],
                      {"reason": "orden", "legal_basis": "art. 1"})
        return case

    def registry_entry(self, registry: str) -> str:
        entry = {"farmers": {"id": "F-7", "name": "Finca", "producer_type": "agricultor"},
                 "bidders": {"id": "B-7", "name": "Licitador"},
                 "beneficiaries": {"id": "REC-7", "name": "Beneficiaria"},
                 "stores": {"id": "RL-7", "name": "Ferretería"}}[registry]
        if self.api.call("GET", f"/api/v1/registries/{registry}/{entry['id']}", "admin").status_code == 404:
            self.api.post(f"/api/v1/registries/{registry}", "admin", entry, expect=201)
        return entry["id"]

    def fresh_token(self, username: str | None) -> str | None:
        if username is None:
            return None
        r = self.api.client.post("/api/v1/auth/token", json={"username": username, "password": PASSWORD})
        return r.get_json()["token"]


@dataclass(frozen=True)
class Row:
    method: str
    rule: str  # as Flask's url_map spells it
    expected: dict[str, int]
    request: Callable[[World, str | None], dict]  # (world, username) -> path and client arguments
    variant: str = ""


def everyone(status: int, anonymous: int = 401) -> dict[str, int]:
    return {kind: anonymous if kind == "anonymous" else status for kind in KINDS}


def only(status: int, *kinds: str, others: int = 403, **exceptions: int) -> dict[str, int]:
    expected = {kind: status if kind in kinds else others for kind in KINDS}
    return {**expected, "anonymous": 401, **exceptions}


CASE_READERS = ("lane_staff", "other_lane", "supervisor", "admin")


def get(path: Callable[[World], str]):
    return lambda w, user: {"path": path(w)}


def post(path: Callable[[World], str], body: Callable[[World, str | None], dict] | dict | None = None):
    def build(w, user):
        payload = body(w, user) if callable(body) else (body if body is not None else {})
        return {"path": path(w), "json": payload}
    return build


def deploy_request(w: World, user):
    key = w.unique("test_deploy_")
    files = matrix_flow(key)
    return {"path": f"/api/v1/processes/{key}/versions", "content_type": "multipart/form-data",
            "data": {"files": [(io.BytesIO(c.encode()), n) for n, c in files.items()]}}


def document_upload() -> dict:
    # The process has no procedure folder: its cases file documents of the general catalogue.
    return {"file": (io.BytesIO(b"%PDF-1.4\n%%EOF\n"), "carta.pdf"), "type": "other"}


def registry_rows(name: str, body: Callable[[World], dict], patch: dict) -> list[Row]:
    base = f"/api/v1/registries/{name}"
    rule = {"farmers": "registry_id", "bidders": "bidder_id", "beneficiaries": "applicant_id",
            "stores": "store_id"}[name]
    return [
        Row("GET", base, everyone(200), get(lambda w: base)),
        Row("GET", f"{base}/<string:{rule}>", everyone(200), get(lambda w: f"{base}/{w.registry_entry(name)}")),
        Row("POST", base, only(201, "admin"), post(lambda w: base, lambda w, u: body(w))),
        Row("PATCH", f"{base}/<string:{rule}>", only(200, "admin"),
            lambda w, u: {"path": f"{base}/{w.registry_entry(name)}", "json": patch}),
    ]


def fresh_user(w: World) -> str:
    username = w.unique("pw_user_")
    w.api.post("/api/v1/users", "admin", {"username": username, "password": PASSWORD, "roles": ["test_clerk"]},
               expect=201)
    return username


def fresh_agency_token(w: World) -> int:
    return w.api.post("/api/v1/api-tokens", "admin", {"name": w.unique("agency-"), "roles": ["test_clerk"],
                                                      "expires_in_days": 30}, expect=201)["id"]


I = "/api/v1/instances/<int:instance_id>"
T = "/api/v1/tasks/<int:task_id>"
V = "/api/v1/processes/<string:key>/versions"

MATRIX: list[Row] = [
    # Open: the documentation, the login itself and health. Metrics answer the configured scraper
    # token alone, and nobody while none is configured (test_low_findings checks the token).
    Row("GET", "/api/docs", {k: 200 for k in KINDS}, get(lambda w: "/api/docs")),
    Row("GET", "/api/v1/openapi.json", {k: 200 for k in KINDS}, get(lambda w: "/api/v1/openapi.json")),
    Row("GET", "/healthz", {k: 200 for k in KINDS}, get(lambda w: "/healthz")),
    Row("GET", "/metrics", {k: 404 for k in KINDS}, get(lambda w: "/metrics")),
    Row("GET", "/favicon.ico", {k: 200 for k in KINDS}, get(lambda w: "/favicon.ico")),
    Row("POST", "/api/v1/auth/token", everyone(200),  # anonymous: a username that does not exist
        post(lambda w: "/api/v1/auth/token", lambda w, u: {"username": u or "ghost", "password": PASSWORD})),
    Row("POST", "/api/v1/auth/logout", everyone(204),
        lambda w, u: {"path": "/api/v1/auth/logout", "token": w.fresh_token(u)}),
    # Accounts.
    Row("GET", "/api/v1/me", everyone(200), get(lambda w: "/api/v1/me")),
    *account_rows(Row, everyone, only, get, post),
    Row("PUT", "/api/v1/users/<string:username>/password", only(204, "admin"),
        lambda w, u: {"path": f"/api/v1/users/{fresh_user(w)}/password", "json": {"password": "otra-clave-9"}}),
    Row("POST", "/api/v1/users/<string:username>/password-reset", only(200, "admin"),
        lambda w, u: {"path": f"/api/v1/users/{fresh_user(w)}/password-reset", "json": {}}),
    Row("GET", "/api/v1/offices", everyone(200), get(lambda w: "/api/v1/offices")),
    Row("POST", "/api/v1/offices", only(201, "admin"), post(lambda w: "/api/v1/offices", lambda w, u: {
        "id": w.unique("office_"), "name_es": w.unique("Oficina número ")})),
    Row("PATCH", "/api/v1/offices/<string:office_id>", only(200, "admin"),
        lambda w, u: {"path": "/api/v1/offices/Norte", "json": {"name_en": "North office"}}),
    Row("PUT", "/api/v1/users/<string:username>/absence", only(200, "supervisor", "admin"),
        lambda w, u: {"path": "/api/v1/users/clerk/absence",
                      "json": {"from": "2024-04-01", "until": "2024-04-05", "substitute": "clerk2"}}),
    Row("DELETE", "/api/v1/users/<string:username>/absence", only(204, "supervisor", "admin"),
        lambda w, u: {"path": "/api/v1/users/clerk/absence"}),
    Row("GET", "/api/v1/api-tokens", only(200, "admin"), get(lambda w: "/api/v1/api-tokens")),
    Row("POST", "/api/v1/api-tokens", only(201, "admin"), post(lambda w: "/api/v1/api-tokens", lambda w, u: {
        "name": w.unique("agency-"), "roles": ["test_clerk"], "expires_in_days": 30})),
    Row("DELETE", "/api/v1/api-tokens/<int:token_id>", only(204, "admin"),
        lambda w, u: {"path": f"/api/v1/api-tokens/{fresh_agency_token(w)}"}),
    Row("GET", "/api/v1/roles", everyone(200), get(lambda w: "/api/v1/roles")),
    Row("POST", "/api/v1/roles", only(201, "admin"), post(lambda w: "/api/v1/roles", lambda w, u: {
        "id": w.unique("new_role_"), "label_es": "Rol", "label_en": "Role"})),
    # Process definitions: everybody reads them; process owners (and admins) deploy.
    Row("GET", "/api/v1/processes", everyone(200), get(lambda w: "/api/v1/processes")),
    Row("POST", V, only(201, "owner", "admin"), deploy_request),
    Row("GET", f"{V}/<int:version>", everyone(200), get(lambda w: "/api/v1/processes/test_matrix/versions/1")),
    Row("GET", f"{V}/<int:version>/bpmn", everyone(200),
        get(lambda w: "/api/v1/processes/test_matrix/versions/1/bpmn")),
    # Cases: started by holders of the start lane; read by who holds a lane of the process, in
    # their office; acted on by the lane of the catching element or a supervisor.
    Row("POST", "/api/v1/processes/<string:key>/instances", only(201, "lane_staff", "other_office"),
        post(lambda w: "/api/v1/processes/test_matrix/instances",
             {"variables": {"requested_office": "Norte", "explode": False}})),
    Row("GET", "/api/v1/instances", everyone(200), get(lambda w: "/api/v1/instances")),
    Row("GET", I, only(200, *CASE_READERS), get(lambda w: f"/api/v1/instances/{w.case['id']}")),
    Row("GET", f"{I}/history", only(200, *CASE_READERS), get(lambda w: f"/api/v1/instances/{w.case['id']}/history")),
    Row("GET", f"{I}/activity", only(200, *CASE_READERS), get(lambda w: f"/api/v1/instances/{w.case['id']}/activity")),
    Row("GET", f"{I}/notifications", only(200, *CASE_READERS),
        get(lambda w: f"/api/v1/instances/{w.case['id']}/notifications")),
    Row("POST", f"{I}/messages/<string:name>", only(200, "lane_staff", "supervisor"),
        post(lambda w: f"/api/v1/instances/{w.new_case()['id']}/messages/documents_received", {"payload": {}})),
    # Once the case no longer waits, who may see it learns that (409); who may not, learns nothing.
    Row("POST", f"{I}/messages/<string:name>", only(409, "lane_staff", "other_lane", "supervisor", "admin"),
        post(lambda w: f"/api/v1/instances/{w.case_past_its_message()['id']}/messages/documents_received",
             {"payload": {}}), variant="not waiting"),
    Row("POST", "/api/v1/signals/<string:name>", only(200, "supervisor"),
        post(lambda w: "/api/v1/signals/nobody_waits", {"payload": {}})),
    # Running cases repaired: owners migrate (from 1 to 1 is refused after the role check), supervisors move.
    Row("POST", "/api/v1/processes/<string:key>/migrations", only(422, "owner", "admin"),
        post(lambda w: "/api/v1/processes/test_matrix/migrations", {"from_version": 1, "to_version": 1})),
    Row("POST", f"{I}/move", only(200, "supervisor"),
        post(lambda w: f"/api/v1/instances/{w.new_case()['id']}/move",
             {"from_element": "handle", "to_element": "handle", "reason": "reabrir"})),
    # Legal time: supervisors suspend and resume a case's deadlines.
    Row("POST", f"{I}/suspend", only(200, "supervisor"),
        post(lambda w: f"/api/v1/instances/{w.new_case()['id']}/suspend", {"reason": "orden", "legal_basis": "art. 1"})),
    Row("POST", f"{I}/resume", only(200, "supervisor"),
        post(lambda w: f"/api/v1/instances/{w.suspended_case()['id']}/resume")),
    Row("POST", f"{I}/cancel", only(200, "supervisor"),
        post(lambda w: f"/api/v1/instances/{w.new_case()['id']}/cancel", {"reason": "duplicado"})),
    Row("POST", f"{I}/retry", only(200, "supervisor"),  # the script still fails: 200 with the case in error
        post(lambda w: f"/api/v1/instances/{w.new_case(explode=True)['id']}/retry")),
    # The case file: read by who may read the case; added to by its lanes (in the office) and supervisors;
    # voided by supervisors.
    Row("GET", "/api/v1/processes/<string:key>/document-types", everyone(200),
        get(lambda w: "/api/v1/processes/test_matrix/document-types")),
    Row("POST", f"{I}/documents", only(201, "lane_staff", "other_lane", "supervisor"),
        lambda w, u: {"path": f"/api/v1/instances/{w.case['id']}/documents", "data": document_upload(),
                      "content_type": "multipart/form-data"}),
    Row("GET", f"{I}/documents", only(200, *CASE_READERS), get(lambda w: f"/api/v1/instances/{w.case['id']}/documents")),
    Row("GET", "/api/v1/documents/<int:document_id>/content", only(200, *CASE_READERS),
        get(lambda w: f"/api/v1/documents/{w.document()['id']}/content")),
    Row("POST", "/api/v1/documents/<int:document_id>/void", only(200, "supervisor"),
        post(lambda w: f"/api/v1/documents/{w.document()['id']}/void", {"reason": "duplicado"})),
    Row("POST", f"{I}/notes", only(201, "lane_staff", "other_lane", "supervisor"),
        post(lambda w: f"/api/v1/instances/{w.case['id']}/notes", {"text": "nota"})),
    Row("GET", f"{I}/notes", only(200, *CASE_READERS), get(lambda w: f"/api/v1/instances/{w.case['id']}/notes")),
    Row("GET", f"{I}/expediente", only(200, *CASE_READERS), get(lambda w: f"/api/v1/instances/{w.case['id']}/expediente")),
    # The applicant's side: staff who read the case issue the code; the public routes take an applicant
    # token only (every staff token 403), and the session is the same 404 for any wrong pair.
    Row("POST", f"{I}/applicant-access", only(201, *CASE_READERS),
        post(lambda w: f"/api/v1/instances/{w.case['id']}/applicant-access")),
    Row("POST", "/api/v1/public/session", everyone(404, anonymous=404),
        post(lambda w: "/api/v1/public/session", lambda w, u: {"case_number": f"NADA-{u or 'anonimo'}", "access_code": "NADA"})),
    Row("GET", "/api/v1/public/case", only(200), get(lambda w: "/api/v1/public/case")),
    Row("GET", "/api/v1/public/documents/<int:document_id>/content", only(200),
        get(lambda w: f"/api/v1/public/documents/{w.document()['id']}/content")),
    Row("POST", "/api/v1/public/case/documents", only(201),
        lambda w, u: {"path": "/api/v1/public/case/documents", "data": document_upload(),
                      "content_type": "multipart/form-data"}),
    Row("POST", "/api/v1/public/case/messages/<string:name>", only(200),
        post(lambda w: "/api/v1/public/case/messages/documents_received", {"payload": {}})),
    # Tasks: the lane (and its office) acts; supervisors read all, release and assign.
    Row("GET", "/api/v1/tasks", everyone(200), get(lambda w: "/api/v1/tasks")),
    Row("GET", "/api/v1/tasks", only(200, "supervisor", "admin"), get(lambda w: "/api/v1/tasks?scope=all"),
        variant="scope=all"),
    Row("GET", T, only(200, "lane_staff", "supervisor", "admin"), get(lambda w: f"/api/v1/tasks/{w.task['id']}")),
    Row("POST", f"{T}/claim", only(200, "lane_staff"), post(lambda w: f"/api/v1/tasks/{w.new_task()['id']}/claim")),
    Row("POST", f"{T}/unclaim", only(200, "lane_staff", "supervisor"),
        post(lambda w: f"/api/v1/tasks/{w.claimed_task()['id']}/unclaim")),
    Row("POST", f"{T}/assign", only(200, "supervisor"),
        post(lambda w: f"/api/v1/tasks/{w.new_task()['id']}/assign", {"username": "clerk_norte"})),
    Row("POST", "/api/v1/tasks/bulk-assign", only(200, "supervisor"),
        post(lambda w: "/api/v1/tasks/bulk-assign", lambda w, u: {"task_ids": [w.new_task()["id"]],
                                                                   "username": "clerk_norte"})),
    Row("POST", "/api/v1/tasks/bulk-release", only(200, "supervisor"),
        post(lambda w: "/api/v1/tasks/bulk-release", lambda w, u: {"task_ids": [w.claimed_task()["id"]]})),
    Row("GET", "/api/v1/reports/cycle-times", only(200, "supervisor", "admin"),
        get(lambda w: "/api/v1/reports/cycle-times")),
    Row("POST", f"{T}/complete", only(200, "lane_staff"),
        post(lambda w: f"/api/v1/tasks/{w.new_task()['id']}/complete", {"data": {}})),
    # Parameters and the clock: everybody reads, the admin changes.
    Row("GET", "/api/v1/parameters", everyone(200), get(lambda w: "/api/v1/parameters")),
    Row("PUT", "/api/v1/parameters/<string:name>", only(200, "admin"),
        lambda w, u: {"path": "/api/v1/parameters/calendar.holidays", "json": {"value": ["2024-07-04"]}}),
    *holiday_rows(Row, everyone, only, get, post),
    Row("GET", "/api/v1/admin/clock", everyone(200), get(lambda w: "/api/v1/admin/clock")),
    Row("PUT", "/api/v1/admin/clock", only(200, "admin"), lambda w, u: {
        "path": "/api/v1/admin/clock", "json": {"now": f"2024-04-01T13:{next(w.serial):02d}:00-04:00"}}),
    # Registries: every member of staff reads them; the admin creates and corrects entries.
    *registry_rows("farmers", lambda w: {"id": w.unique("F-1"), "name": "Finca", "producer_type": "agricultor"},
                   {"name": "Finca corregida"}),
    *registry_rows("bidders", lambda w: {"id": w.unique("B-"), "name": "Licitador"}, {"name": "Corregido"}),
    *registry_rows("beneficiaries", lambda w: {"id": w.unique("REC-"), "name": "Beneficiaria"},
                   {"name": "Corregida"}),
    *registry_rows("stores", lambda w: {"id": w.unique("RL-"), "name": "Ferretería"}, {"name": "Corregida"}),
    Row("GET", "/api/v1/registries/purchase_locks", everyone(200),
        get(lambda w: "/api/v1/registries/purchase_locks?matter=papel")),
    Row("GET", "/api/v1/registries/regional_offices", everyone(200), get(lambda w: "/api/v1/registries/regional_offices")),
]


def row_id(row: Row) -> str:
    return f"{row.method} {plain(row.rule)}" + (f" [{row.variant}]" if row.variant else "")


def is_api(rule: str) -> bool:
    return rule != "/" and not rule.startswith(NOT_IN_API)


def plain(rule: str) -> str:
    """`/x/<int(max=9):id>` → `/x/<id>`: a converter's bounds are not the endpoint's identity."""
    return re.sub(r"<(?:[^:>]*:)?([^>]+)>", r"<\1>", rule)


def test_every_api_endpoint_is_in_the_matrix(app):
    served = {(method, plain(rule.rule)) for rule in app.url_map.iter_rules() if is_api(rule.rule)
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    covered = {(row.method, plain(row.rule)) for row in MATRIX}
    assert sorted(served - covered) == [], "endpoints without a row in MATRIX: add one for each"
    assert sorted(covered - served) == [], "rows for endpoints that no longer exist"


def call(api, method: str, request: dict, username: str | None):
    request = dict(request)
    path = request.pop("path")
    token = request.pop("token") if "token" in request else (api.token(username) if username else None)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return api.client.open(path, method=method, headers=headers, **request)


# Rows whose expected statuses are right and the code is not yet: strict, so a fix shows up.
KNOWN_BUGS: dict[str, str] = {}  # a row that fails for a known, unfixed bug: the reason names the fix


@pytest.mark.parametrize("row", [
    pytest.param(row, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[row_id(row)]))
    if row_id(row) in KNOWN_BUGS else row for row in MATRIX], ids=row_id)
def test_authorization_matrix(api, row):
    world = World(api)
    got, bodies = {}, {}
    for kind in KINDS:
        username = PLAYED_BY[kind]
        response = call(api, row.method, row.request(world, username), username)
        # Binary answers (a ZIP, a document) are shown as far as they read as text.
        got[kind], bodies[kind] = response.status_code, response.get_data()[:300].decode("utf-8", "replace")
    assert all(status < 500 for status in got.values()), bodies
    wrong = {kind: f"expected {row.expected[kind]}, got {got[kind]}: {bodies[kind]}"
             for kind in KINDS if got[kind] != row.expected[kind]}
    assert not wrong, wrong


def test_the_matrix_covers_every_kind_of_user_on_every_row():
    assert all(set(row.expected) == set(KINDS) for row in MATRIX)
    assert len(MATRIX) * len(KINDS) >= 400


def test_lists_show_each_kind_of_user_only_what_they_may_see(api):
    world = World(api)
    norte, sur = world.case, world.new_case(office="Sur")
    sees = {kind: sorted(c["id"] for c in api.get("/api/v1/instances", user))
            for kind, user in PLAYED_BY.items() if user}
    assert sees == {"nobody": [], "lane_staff": [norte["id"]], "other_lane": sorted([norte["id"], sur["id"]]),
                    "other_office": [sur["id"]], "supervisor": sorted([norte["id"], sur["id"]]), "owner": [],
                    "admin": sorted([norte["id"], sur["id"]])}
    inbox = {kind: sorted(t["instance_id"] for t in api.get("/api/v1/tasks", user))
             for kind, user in PLAYED_BY.items() if user}
    assert inbox == {"nobody": [], "lane_staff": [norte["id"]], "other_lane": [], "other_office": [sur["id"]],
                     "supervisor": [], "owner": [], "admin": []}
