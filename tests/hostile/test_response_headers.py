"""Issue 15, finding 1: uploaded content is never served as a page of the application's origin, and
every page carries a strict Content-Security-Policy and the other security headers, from one hook
(api/headers.py). The browser suite (tests/web/browser/test_uploaded_content.py) shows the same
diagram's script cannot run in Chromium; these check the headers themselves."""
from __future__ import annotations

import re

import pytest

from engine.commands.deploy import deploy
from tests.web.conftest import WebClient, actor
from tests.web.diagrams import hostile_flow, start_variables, web_flow


@pytest.fixture
def hostile_case(api):
    api.deploy("test_web", hostile_flow())
    return api.post("/api/v1/processes/test_web/instances", "clerk", {"variables": start_variables()}, expect=201)


def directives(policy: str) -> dict[str, str]:
    return {part.split()[0]: " ".join(part.split()[1:]) for part in re.split(r";\s*", policy.strip()) if part}


def test_uploaded_diagram_xml_is_plain_text_in_a_sandbox(app, hostile_case):
    web = WebClient(app).login("admin")
    for path in ("/web/processes/test_web/versions/1/bpmn", f"/web/cases/{hostile_case['id']}/diagram.xml"):
        response = web.client.get(path)
        assert response.status_code == 200
        assert response.headers["Content-Type"] == "text/plain; charset=utf-8", path
        assert directives(response.headers["Content-Security-Policy"])["sandbox"] == ""
        assert directives(response.headers["Content-Security-Policy"])["default-src"] == "'none'"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "<x:script" in response.get_data(as_text=True)  # the document itself, unchanged


def test_the_api_answer_keeps_its_xml_type_but_is_sandboxed(api, hostile_case):
    response = api.call("GET", "/api/v1/processes/test_web/versions/1/bpmn", "owner", expect=200)
    assert response.mimetype == "application/xml"  # API.md's contract for programs
    assert "sandbox" in directives(response.headers["Content-Security-Policy"])
    assert response.headers["X-Content-Type-Options"] == "nosniff"


PAGES = ["/", "/api/docs", "/web/login"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_strict_policy(app, path):
    response = app.test_client().get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["default-src"] == "'self'" and policy["script-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "Strict-Transport-Security" not in response.headers  # plain http: HSTS would mean nothing


def test_logged_in_pages_have_no_inline_script_or_handler(app, engine):
    """What the policy refuses, the pages must not need: no <script> without src (JSON data blocks
    aside) and no on…= attribute, on every page a user reaches from the menu."""
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow()), actor("owner"))
    paths = {"admin": ["/web/dashboard", "/web/cases", "/web/admin/users", "/web/admin/clock"],
             "owner": ["/web/processes", "/web/processes/test_web/versions/1/edit", "/web/processes/test_web/diff"],
             "clerk": ["/web/tasks", "/web/start", "/web/start/test_web"]}
    for username, pages in paths.items():
        web = WebClient(app).login(username)
        for path in pages:
            html = web.get(path)
            for tag in re.findall(r"<script\b[^>]*>", html):
                assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
            assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), path
            assert " style=" not in html, path


def test_hsts_only_over_tls(app):
    secure = app.test_client().get("/web/login", base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")
    app.config["TRAMITE_PUBLIC_URL"] = "https://tramite.example.pr"  # TLS ends at the proxy
    assert "Strict-Transport-Security" in app.test_client().get("/web/login").headers


def test_the_modeler_alone_allows_style_attributes_and_never_inline_script(app, engine):
    engine.execute(lambda ctx: deploy(ctx, "test_web", web_flow()), actor("owner"))
    web = WebClient(app).login("owner")
    modeler = directives(web.client.get("/web/processes/test_web/versions/1/edit").headers["Content-Security-Policy"])
    assert modeler["style-src-attr"] == "'unsafe-inline'" and modeler["script-src"] == "'self'"
    assert modeler["style-src-elem"] == "'self'"
    listing = directives(web.client.get("/web/processes").headers["Content-Security-Policy"])
    assert "style-src-attr" not in listing


def test_swagger_ui_serves_only_what_the_docs_page_uses(app):
    client = app.test_client()
    docs = client.get("/api/docs").get_data(as_text=True)
    assert "<script>" not in docs and "petstore" not in docs
    for used in re.findall(r'(?:src|href)="(/static/vendor/swagger-ui/[^"]+)"', docs):
        assert client.get(used).status_code == 200, used
    for unused in ("index.html", "swagger-initializer.js", "oauth2-redirect.html", "swagger-ui-bundle.js.map",
                   "package.json"):
        assert client.get(f"/static/vendor/swagger-ui/{unused}").status_code == 404, unused
