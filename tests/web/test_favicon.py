"""A favicon on every page (issue 16, item 10): pages link the SVG icon in web/static, and
/favicon.ico answers the browsers (and the API docs page) that ask for it anyway — no 404 anywhere."""
from __future__ import annotations

import re

import pytest


def icon_of(html: str) -> str:
    found = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
    assert found, "the page links no icon"
    return found.group(1)


@pytest.mark.parametrize("user, path, status", [
    (None, "/web/login", 200), ("clerk", "/web/tasks", 200), ("boss", "/web/dashboard", 200),
    ("boss", "/web/cases", 200), ("owner", "/web/processes", 200), ("admin", "/web/admin/offices", 200),
    ("clerk", "/web/password", 200), ("clerk", "/web/admin/users", 403), ("boss", "/web/cases/99999", 404),
])
def test_every_kind_of_page_links_an_icon_that_is_served(web, user, path, status):
    client = web(user)
    html = client.get(path, expect=status)
    icon = client.client.get(icon_of(html))
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data


def test_the_case_page_links_the_icon_too(web, web_case):
    assert icon_of(web("boss").get(f"/web/cases/{web_case['id']}"))


def test_favicon_ico_is_served_to_whoever_asks(app):
    client = app.test_client()
    for path in ("/favicon.ico", "/api/docs"):
        assert client.get(path).status_code == 200
    icon = client.get("/favicon.ico")
    assert icon.mimetype == "image/svg+xml" and b"<svg" in icon.data
