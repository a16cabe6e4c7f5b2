"""Offices as a managed list in the admin pages (issue 16, item 8): the user forms pick an office
from a select, "caguas" is Caguas and never a second office, the admin adds, renames, deactivates
and gives towns to offices, and materials aid's assignment by municipality follows the list."""
from __future__ import annotations

import re

from engine.commands import accounts as account_commands
from engine.identity import accounts
from engine.identity.actor import SYSTEM
from engine.registries import offices
from tests.web.conftest import text_of


def office_of(engine, username: str) -> str | None:
    return engine.read(lambda session: accounts.get_user(session, username).office)


def select_options(html: str, select_id: str) -> list[str]:
    block = re.search(rf'<select id="{select_id}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', block)


def test_the_new_user_form_offers_the_active_offices_in_a_select(web):
    html = web("admin").get("/web/admin/users")
    options = select_options(html, "u-office")
    assert options[0] == "" and {"Caguas", "Humacao", "San Juan", "Norte"} <= set(options)
    assert 'name="office" value=' not in html  # no free-text office any more


def test_caguas_typed_in_any_case_is_the_one_caguas_office(web, engine):
    admin = web("admin")
    admin.post("/web/admin/users", {"username": "rosa", "password": "larga-y-segura", "roles": ["test_clerk"],
                                    "office": " caguas "})
    assert office_of(engine, "rosa") == "Caguas"
    admin.post("/web/admin/users/clerk", {"full_name": "Clerk", "office": "CAGUAS", "roles": ["test_clerk"]})
    assert office_of(engine, "clerk") == "Caguas"
    html = admin.get("/web/admin/offices")
    rows = re.findall(r'data-office="([^"]*)"', html)
    assert [r for r in rows if r.casefold() == "caguas"] == ["Caguas"] and len(rows) == 10  # 8 shipped + 2 tests
    assert "Cidra, Gurabo, San Lorenzo 2 0 Sí" in text_of(html)


def test_an_office_not_on_the_list_is_refused_beside_the_field(web, engine):
    admin = web("admin")
    refused = admin.post("/web/admin/users", {"username": "rosa", "password": "larga-y-segura",
                                              "roles": ["test_clerk"], "office": "Gotham"}, expect=422)
    html = refused.get_data(as_text=True)
    assert 'id="err-office"' in html and "La oficina «Gotham» no está en la lista de oficinas" in text_of(html)
    assert engine.read(lambda s: offices.find(s, "Gotham")) is None
    refused = admin.post("/web/admin/users/clerk", {"full_name": "X", "office": "Gotham", "roles": ["test_clerk"]},
                         expect=422)
    assert 'id="err-office"' in refused.get_data(as_text=True)


def test_a_user_without_a_role_is_refused_by_the_form(web):
    refused = web("admin").post("/web/admin/users", {"username": "rosa", "password": "larga-y-segura",
                                                     "office": "Caguas"}, expect=422)
    html = refused.get_data(as_text=True)
    assert 'id="err-roles"' in html and "Elija al menos un rol" in text_of(html)


def test_the_admin_adds_renames_and_deactivates_an_office(web, engine):
    admin = web("admin")
    admin.post("/web/admin/offices", {"id": "Vieques", "name_es": "Oficina de Vieques",
                                      "name_en": "Vieques office", "municipalities": ""})
    assert "Oficina de Vieques" in text_of(admin.get("/web/admin/offices"))
    refused = admin.post("/web/admin/offices", {"id": " vieques ", "name_es": "Otra"}, expect=409)
    assert "La oficina ya existe" in text_of(refused.get_data(as_text=True))
    admin.post("/web/admin/offices/Vieques", {"name_es": "Oficina Isla Nena", "name_en": "Isla Nena office",
                                              "municipalities": ""})
    assert "Oficina Isla Nena" in text_of(admin.get("/web/admin/offices"))
    assert "Vieques" in select_options(admin.get("/web/admin/users"), "u-office")
    admin.post("/web/admin/offices/Vieques/active", {"active": "0"})
    assert "Vieques" not in select_options(admin.get("/web/admin/users"), "u-office")
    refused = admin.post("/web/admin/users", {"username": "rosa", "password": "larga-y-segura",
                                              "roles": ["test_clerk"], "office": "Vieques"}, expect=422)
    assert "está desactivada" in text_of(refused.get_data(as_text=True))
    admin.post("/web/admin/offices/Vieques/active", {"active": "1"})
    assert "Vieques" in select_options(admin.get("/web/admin/users"), "u-office")
    web("clerk").get("/web/admin/offices", expect=403)


def test_a_town_is_served_by_one_active_office(web):
    admin = web("admin")
    refused = admin.post("/web/admin/offices", {"id": "Cidra", "name_es": "Oficina de Cidra",
                                                "municipalities": "Cidra\nComerío"}, expect=422)
    text = text_of(refused.get_data(as_text=True))
    assert "Cada municipio lo sirve una sola oficina activa" in text and "Cidra (Oficina Regional de Caguas)" in text


def test_materials_aid_assigns_a_case_by_the_town_the_list_gives_an_office(web, engine, api):
    """The list, not the shipped file, decides MAT-08: Cidra moved from Caguas to a new office."""
    admin = web("admin")
    caguas = [m for m in engine.read(offices.directory)["offices"] if m["id"] == "Caguas"][0]["municipalities"]
    admin.post("/web/admin/offices/Caguas", {"name_es": "Oficina Regional de Caguas",
                                             "municipalities": "\n".join(m for m in caguas if m != "Cidra")})
    admin.post("/web/admin/offices", {"id": "Cidra", "name_es": "Oficina de Cidra", "municipalities": "Cidra"})
    served = {o["id"]: o["municipalities"] for o in api.get("/api/v1/registries/regional_offices", "clerk")}
    assert served["Cidra"] == ["Cidra"] and "Cidra" not in served["Caguas"]
    engine.execute(account_commands.create_user, SYSTEM, "cidra_staff", "larga-y-segura", ["regional_office"],
                   office="cidra")
    assert office_of(engine, "cidra_staff") == "Cidra"


def test_the_office_pages_read_in_english_too(web):
    admin = web("admin")
    admin.get("/web/lang/en", expect=302)
    assert "Caguas Regional Office" in admin.get("/web/admin/offices")
