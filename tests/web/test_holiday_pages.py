"""The holiday calendar's admin page (issue 19): one year's holidays with their law, a new day checked
and then confirmed (it tells how many running deadlines end on it), a removal confirmed, refusals
beside their field, and the page closed to anyone but an admin."""
from __future__ import annotations

import re

from tests.web.conftest import text_of

NEW = {"date": "2024-12-24", "name_es": "Nochebuena", "name_en": "Christmas Eve",
       "legal_source": "Orden Ejecutiva de prueba"}


def rows(html: str) -> list[str]:
    return re.findall(r'data-holiday="([^"]*)"', html)


def test_an_admin_adds_a_holiday_after_confirming_and_removes_it(web, api):
    admin = web("admin")
    page = admin.get("/web/admin/holidays")  # the clock's year
    assert rows(page) == [] and "Feriados de 2024" in text_of(page)
    assert 'href="/web/admin/holidays"' in page and "Feriados" in text_of(page)  # the admin menu links it
    confirm = admin.post("/web/admin/holidays?year=2024", NEW, expect=200).get_data(as_text=True)
    assert "Confirmar el feriado" in text_of(confirm) and "(casos): 0" in text_of(confirm)
    assert api.get("/api/v1/holidays?year=2024", "admin") == []  # nothing saved before the confirmation
    done = admin.post("/web/admin/holidays?year=2024", {**NEW, "confirm": "1"})
    assert done.headers["Location"].endswith("/web/admin/holidays?year=2024")
    page = admin.get("/web/admin/holidays?year=2024")
    assert rows(page) == ["2024-12-24"] and "Nochebuena Orden Ejecutiva de prueba admin" in text_of(page)
    admin.client.get("/web/lang/en")
    english = text_of(admin.get("/web/admin/holidays?year=2024"))
    assert "Holidays of 2024" in english and "Christmas Eve" in english and "Remove" in english
    admin.client.get("/web/lang/es")
    ask = admin.get("/web/admin/holidays/2024-12-24/remove")
    assert "Quitar el feriado" in text_of(ask) and "no se acorta" in text_of(ask)
    assert rows(admin.get("/web/admin/holidays?year=2024")) == ["2024-12-24"]  # asking removes nothing
    admin.post("/web/admin/holidays/2024-12-24/remove")
    assert rows(admin.get("/web/admin/holidays?year=2024")) == []


def test_a_refused_holiday_shows_each_field_and_saves_nothing(web, api):
    admin = web("admin")
    refused = admin.post("/web/admin/holidays", {"date": "24/12/2024", "name_es": "", "name_en": "",
                                                  "legal_source": "", "confirm": "1"}, expect=422)
    html = refused.get_data(as_text=True)
    assert {'id="err-date"', 'id="err-name_es"', 'id="err-legal_source"'} <= set(re.findall(r'id="err-[a-z_]+"', html))
    assert 'value="24/12/2024"' in html  # what was typed comes back
    admin.post("/web/admin/holidays", {**NEW, "confirm": "1"})
    twice = admin.post("/web/admin/holidays", {**NEW, "name_es": "Otra"}, expect=409).get_data(as_text=True)
    assert "Nochebuena" in text_of(twice)
    assert [h["name_es"] for h in api.get("/api/v1/holidays", "admin")] == ["Nochebuena"]


def test_only_an_admin_sees_the_page(web):
    for user in ("boss", "clerk"):
        web(user).get("/web/admin/holidays", expect=403)
        web(user).post("/web/admin/holidays", {**NEW, "confirm": "1"}, expect=403)
