"""Admin pages: users, roles, offices, registries, legal parameters and the manual clock."""
from __future__ import annotations

from tests.web.conftest import text_of


def test_an_admin_creates_a_user_who_can_then_log_in(web):
    admin = web("admin")
    refused = admin.post("/web/admin/users", {"username": "maria", "password": "corta", "roles": ["test_clerk"]},
                         expect=422)
    assert "La contraseña debe tener al menos 8 caracteres." in text_of(refused.get_data(as_text=True))
    admin.post("/web/admin/users", {"username": "maria", "full_name": "María Pérez", "password": "larga-y-segura",
                                    "roles": ["test_clerk", "supervisor"], "office": "Caguas"})
    page = text_of(admin.get("/web/admin/users"))
    assert "maria María Pérez" in page and "Caguas" in page
    web().login("maria", "larga-y-segura")


def test_an_admin_adds_a_role(web):
    admin = web("admin")
    admin.post("/web/admin/roles", {"id": "inspector", "label_es": "Inspector", "label_en": "Inspector"})
    assert "inspector" in admin.get("/web/admin/roles")
    refused = admin.post("/web/admin/roles", {"id": "inspector", "label_es": "X", "label_en": "X"}, expect=409)
    assert "ROLE_EXISTS" in refused.get_data(as_text=True)


def test_the_offices_page_counts_each_office_s_users(web, engine):
    admin = web("admin")
    admin.post("/web/admin/users", {"username": "pedro", "password": "larga-y-segura", "roles": ["test_clerk"],
                                    "office": "Ponce"})
    assert "Oficina Regional de Ponce Ponce Adjuntas" in text_of(admin.get("/web/admin/offices"))
    assert "Villalba, Yauco 1 0 Sí" in text_of(admin.get("/web/admin/offices"))


def test_registries_link_what_exists_and_say_what_is_coming(web):
    html = web("admin").get("/web/admin/registries")
    assert 'data-registry="farmers"' in html and "/api/v1/registries/farmers" in html
    assert "El registro está vacío." in html or "F-" in html


def test_parameters_show_their_amb_ids_and_are_validated_on_save(web):
    admin = web("admin")
    page = text_of(admin.get("/web/admin/parameters"))
    assert "farmer.minIncomeSharePct" in page and "AMB-01" in page
    refused = admin.post("/web/admin/parameters", {"name": "farmer.minIncomeSharePct", "value": "mucho"}, expect=422)
    assert "Se espera un número, como 20 o 12.5; escribió «mucho»." in refused.get_data(as_text=True) and 'value="mucho"' in refused.get_data(as_text=True)
    # A valid value is shown for confirmation first and saved only when confirmed.
    confirm = text_of(admin.post("/web/admin/parameters", {"name": "farmer.minIncomeSharePct", "value": "60"},
                                    expect=200).get_data(as_text=True))
    assert "Confirmar el cambio" in confirm and "Los 0 casos en curso conservan el valor" in confirm
    assert "Historial de cambios 0" in text_of(admin.get("/web/admin/parameters"))
    admin.post("/web/admin/parameters", {"name": "farmer.minIncomeSharePct", "value": "60", "confirm": "1"})
    page = text_of(admin.get("/web/admin/parameters"))
    # Named by its label (the id beside it in the log, as code), the values in words.
    assert "Parámetro «Porcentaje mínimo de ingreso» actualizado" in page
    assert "Historial de cambios 1" in page and "admin Porcentaje mínimo de ingreso farmer.minIncomeSharePct 50 60" in page


def test_an_unknown_parameter_is_refused_in_spanish_and_nothing_changes(web):
    admin = web("admin")
    refused = admin.post("/web/admin/parameters", {"name": "farmer.noSuchThing", "value": "3"}, expect=404)
    page = text_of(refused.get_data(as_text=True))
    assert "No hay ningún parámetro legal con ese nombre" in page and "Historial de cambios 0" in page


def test_a_list_parameter_shows_its_values_in_words(web):
    page = text_of(web("admin").get("/web/admin/parameters"))
    assert "por omisión: Cheque certificado, Giro postal, Cheque de gerente" in page


def test_a_parameter_out_of_its_range_is_refused_beside_its_field_and_not_saved(web):
    """Issue 16: `farmer.reviewDeadlineDays = -3` was saved."""
    admin = web("admin")
    for value, message in (("-3", "Debe ser al menos 1; escribió -3."),
                           ("20.5", "Debe ser un número entero; 20.5 tiene decimales.")):
        for confirm in ("", "1"):
            refused = admin.post("/web/admin/parameters", {"name": "farmer.reviewDeadlineDays", "value": value,
                                                           "confirm": confirm}, expect=422).get_data(as_text=True)
            assert 'id="e-farmer.reviewDeadlineDays"' in refused and message in refused
    page = text_of(admin.get("/web/admin/parameters"))
    assert "Historial de cambios 0" in page and "mínimo 1; máximo 365; entero" in page


def test_the_manual_clock_moves_forward_and_fires_the_deadlines_on_the_way(web, web_case):
    admin = web("admin")
    assert "1 abr 2024, 12:00" in text_of(admin.get("/web/admin/clock"))
    admin.post("/web/admin/clock", {"days": "30"})
    page = text_of(admin.get("/web/admin/clock"))
    assert "1 may 2024, 12:00" in page and "se dispararon 1 plazos" in page
    admin.post("/web/admin/clock", {"instant": "2024-04-02T10:00"})
    assert "time never moves backwards" in text_of(admin.get("/web/admin/clock"))
    assert "TIMED_OUT" in text_of(web("boss").get(f"/web/cases/{web_case['id']}"))


def test_the_language_switch_turns_the_pages_to_english_and_back(web, web_case):
    boss = web("boss")
    assert "Tablero de supervisión" in boss.get("/web/dashboard")
    boss.client.get("/web/lang/en?next=/web/dashboard")
    page = boss.get("/web/dashboard")
    assert "Supervision dashboard" in page and 'lang="en"' in page and "Tablero" not in text_of(page)
    boss.client.get("/web/lang/es")
    assert "Tablero de supervisión" in boss.get("/web/dashboard")


def test_the_language_switch_never_redirects_off_site(web):
    response = web("clerk").client.get("/web/lang/en?next=https://evil.example/")
    assert response.headers["Location"].endswith("/web/")
