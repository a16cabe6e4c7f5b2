"""A live server on a loopback port and Debian's chromium driven by Playwright.

The browser suite runs once, in the SQLite phase: it tests pages, not databases. Each test gets a
fresh database (the `engine` fixture), a server thread for it, and a new browser context; the
browser itself is started once per test process. Any request that leaves the machine fails the
test, so a CDN link cannot slip in.
"""
from __future__ import annotations

import os
import re
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from tests.conftest import PASSWORD

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
BUNDLE = Path(__file__).resolve().parents[3] / "node_modules" / ".tramite-web" / "modeler.js"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    if not os.environ.get("TRAMITE_TEST_DATABASE_URL"):
        return
    skip = pytest.mark.skip(reason="the browser suite runs once, in the SQLite phase")
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (.ci/run does)")
    if not BUNDLE.exists():
        pytest.fail("the web bundles are missing: run `make node_modules` (npm ci + npm run build:web)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def _wait_until_ready(url: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)


@pytest.fixture
def live_server(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    _wait_until_ready(url + "/healthz")
    yield url
    server.shutdown()
    thread.join(5)


# The CSRF refusal's flash (api/web/site.py), in either language.
_FORM_EXPIRED = re.compile("El formulario caducó|The form expired")


class Browser:
    """A page plus the steps every scenario repeats: log in, take a screenshot."""

    def __init__(self, page, base_url: str):
        self.page, self.base_url = page, base_url

    def login(self, username: str, password: str = PASSWORD):
        page = self.page
        for _ in range(3):
            self._open_login_page()
            page.get_by_label("Usuario").fill(username)
            page.get_by_label("Contraseña").fill(password)
            page.get_by_role("button", name="Entrar").click()
            page.wait_for_load_state()
            # A response of the previous page still on its way (a script of the case page) can set the
            # previous user's session cookie after the login page loaded: the form's CSRF token then
            # belongs to another session, the app refuses it ("the form expired") and sends the browser
            # back, still as the previous user. Log in again, as a person would.
            if page.locator("p.flash-error").filter(has_text=_FORM_EXPIRED).count() == 0:
                break
        return page

    def _open_login_page(self) -> None:
        page = self.page
        # A new user starts from a fresh session; leaving the page first stops its requests still in
        # flight from bringing the previous session's cookie back.
        page.goto("about:blank")
        for _ in range(3):
            page.context.clear_cookies()
            page.goto("/web/login")
            # A response already on its way when the cookies were cleared (the favicon, say) sets the
            # refreshed session cookie again, and the login page then redirects to the inbox: clear again.
            if urlsplit(page.url).path == "/web/login":
                return

    def logout(self):
        self.page.get_by_role("button", name="Cerrar sesión").click()

    def shot(self, name: str, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


@pytest.fixture
def ui(browser, live_server):
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    outside: list[str] = []

    def only_this_server(route):
        if urlsplit(route.request.url).netloc == urlsplit(live_server).netloc or route.request.url.startswith("data:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()
    context.route("**/*", only_this_server)
    # Every page runs under the strict CSP of api/headers.py: anything it refuses fails the test.
    context.add_init_script(REPORT_POLICY_VIOLATIONS)
    page = context.new_page()
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if message.type == "error" and (
        "Content Security Policy" in message.text or "securitypolicyviolation" in message.text) else None)
    yield Browser(page, live_server)
    context.close()
    assert not outside, f"requests left the machine: {outside}"
    assert not script_errors, f"JavaScript errors: {script_errors}"
    assert not refused, f"the Content-Security-Policy refused: {refused}"


# The browser's own console line names the directive; the event adds the page and what was blocked.
REPORT_POLICY_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (e) {
  var at = e.target && e.target.outerHTML ? " at " + e.target.outerHTML.slice(0, 200) : "";
  console.error("securitypolicyviolation " + e.violatedDirective + " blocked " + (e.blockedURI || "inline")
                + " on " + e.documentURI + at + " from " + e.sourceFile + ":" + e.lineNumber);
});
"""
