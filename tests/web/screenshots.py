"""Regenerates the README's screenshots of the web application: `python -m tests.web.screenshots`.

A throw-away SQLite database on a manual clock gets the farmer-registry procedure and a few months
of cases (admitted, denied, waiting, one overdue); a server thread serves it and Debian's chromium
photographs the four main pages into docs/screenshots/. Run it after changing how a page looks.
"""
from __future__ import annotations

import logging
import sys
import tempfile
import threading
from datetime import timedelta
from pathlib import Path

from werkzeug.serving import make_server

from api.app import create_app
from engine.commands import accounts
from engine.bootstrap import prepare, procedure_files
from engine.config.clock import Clock, parse_instant
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.commands.tasks import claim, complete
from engine.identity.actor import SYSTEM, Actor
from engine.bootstrap import make_engine
from engine.kernel.engine import Engine
from engine.config.settings import Settings
from engine.commands.clock import move_clock
from tests.web.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _wait_until_ready

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "screenshots"
START = "2024-01-08T09:00:00-04:00"
PASSWORD = "tramite-demo"
USERS = {"supervisora": ["supervisor"], "duena": ["process_owner"], "oficinista": ["registry_clerk"],
         "evaluadora": ["registry_evaluator"], "comisionado": ["commissioner"], "admin": ["admin"]}
APPLICANTS = [("Ana Torres", "agricultor", "40000.00", "32000.00"), ("Luis Rivera", "pescador", "25000.00", "24000.00"),
              ("Carmen Ortiz", "artesano", "18000.00", "9000.00"), ("José Santiago", "avicultor", "52000.00", "47000.00"),
              ("María Colón", "acuicultor", "31000.00", "30000.00"), ("Pedro Vega", "agricultor", "60000.00", "20000.00"),
              ("Rosa Medina", "agricultor", "28000.00", "27000.00"), ("Juan Cruz", "pescador", "22000.00", "21000.00")]
ADMISSION, MEMBERSHIP = "farmer_registry_admission", "farmer_registry_membership"


def who(username: str) -> Actor:
    return Actor(username, frozenset(USERS[username]))


def application(name, kind, gross, activity) -> dict:
    return {"applicant": {"name": name, "producer_type": kind, "address": "Carr. 172 km 3", "municipality": "Cidra"},
            "gross_annual_income": gross, "activity_income": activity, "sworn_declaration": True,
            "documents": [{"type": "secretario_agricultura", "issuer": "Depto. de Agricultura",
                           "registered_dept_estado": None}]}


def task(case: dict, element: str) -> int:
    return next(t["id"] for t in case["open_tasks"] if t["element_id"] == element)


def seed(engine: Engine) -> dict:
    prepare(engine)
    engine.execute(lambda ctx: [accounts.create_user(ctx, u, PASSWORD, r, full_name=u.title()) for u, r in USERS.items()],
                   SYSTEM)
    files = procedure_files(REPO / "processes" / "farmer_registry", REPO / "forms")
    for key in (MEMBERSHIP, ADMISSION):
        engine.execute(deploy, who("duena"), key, files)
    waiting = None
    for month, (name, kind, gross, activity) in enumerate(APPLICANTS):
        case = engine.execute(start_case, who("oficinista"), ADMISSION, application(name, kind, gross, activity))
        if month < 5 and "evaluate_application" in {t["element_id"] for t in case["open_tasks"]}:
            verdict = "admit" if case["variables"]["eligibility"]["eligible"] else "deny"
            case = engine.execute(complete, who("evaluadora"), task(case, "evaluate_application"),
                                  {"recommendation": verdict, "findings": "Evaluados todos los renglones."})["instance"]
            if verdict == "admit":
                engine.execute(complete, who("comisionado"), task(case, "order_admission"), {"decision": "admit"})
        elif waiting is None and case["open_tasks"]:
            waiting = case
        move_clock(engine, who("admin"), engine.now() + timedelta(days=17))
    engine.execute(claim, who("evaluadora"), task(waiting, "evaluate_application"))
    return waiting


def shoot(base_url: str, waiting: dict) -> list[Path]:
    from playwright.sync_api import sync_playwright
    OUT.mkdir(parents=True, exist_ok=True)
    shots = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800}).new_page()

        def login(username):
            page.goto("about:blank")
            page.context.clear_cookies()
            page.goto("/web/login")
            page.get_by_label("Usuario").fill(username)
            page.get_by_label("Contraseña").fill(PASSWORD)
            page.get_by_role("button", name="Entrar").click()
            page.wait_for_load_state()

        def shot(name):
            path = OUT / f"{name}.png"
            page.screenshot(path=str(path))
            shots.append(path)

        login("evaluadora")
        page.goto(f"/web/tasks/{task(waiting, 'evaluate_application')}")
        page.locator('[name="recommendation"][value="admit"]').check()
        page.locator('[name="findings"]').fill("Ingreso agrícola suficiente; certificación del Secretario.")
        shot("task")
        login("supervisora")
        page.goto("/web/dashboard")
        page.locator("#outcomes-chart[data-ready]").wait_for()
        shot("dashboard")
        page.goto(f"/web/cases/{waiting['id']}")
        page.locator("#diagram[data-ready=true]").wait_for()
        shot("case")
        login("duena")
        page.goto("/web/processes/farmer_registry_admission/versions/1/edit")
        page.locator("#modeler[data-ready=true]").wait_for()
        page.locator('.djs-element[data-element-id="evaluate_application"]').click()
        for group in ("General", "Trámite"):
            page.locator("#properties").get_by_text(group, exact=True).click()
        shot("modeler")
        browser.close()
    return shots


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/screenshots.db"
        engine = make_engine(url, Clock("manual", parse_instant(START)))
        waiting = seed(engine)
        settings = Settings(database_url=url, clock_mode="manual", clock_start=START, secret_key="screenshots")
        server = make_server("127.0.0.1", 0, create_app(settings, engine=engine, bootstrap=False), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base_url = f"http://127.0.0.1:{server.server_port}"
        _wait_until_ready(base_url + "/healthz")
        try:
            shots = shoot(base_url, waiting)
        finally:
            server.shutdown()
            engine.db.dispose()
    for path in shots:
        size = path.stat().st_size // 1024
        print(f"{path.relative_to(REPO)}  {size} KB" + ("  (over 200 KB!)" if size > 200 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
