"""Validation messages say what is expected (issue 16, item 10): an amount in words, a negative
amount, a number below its minimum."""
from __future__ import annotations

import pytest

from tests.procedures.farmer_registry.conftest import ADMISSION, FARMER_USERS, MEMBERSHIP, farmer_files
from tests.support.scenario import create_staff
from tests.web.conftest import text_of
from api.web import form_messages


@pytest.fixture
def farmer_clerk(api, engine, web):
    create_staff(engine, FARMER_USERS)
    for key in (MEMBERSHIP, ADMISSION):
        api.deploy(key, farmer_files())
    return web("far_clerk")


def test_an_amount_in_words_and_a_negative_amount_say_what_to_write(farmer_clerk):
    response = farmer_clerk.post(f"/web/start/{ADMISSION}", {
        "applicant.name": "Ana Torres", "applicant.producer_type": "agricultor",
        "gross_annual_income": "cuarenta mil", "activity_income": "-500", "sworn_declaration": "on"}, expect=422)
    page = text_of(response.get_data(as_text=True))
    assert "El formato no es válido" not in page
    assert "Escriba la cantidad en números, con hasta dos decimales (por ejemplo 40000.00); «cuarenta mil» no es una cantidad." in page
    assert "La cantidad no puede ser negativa: escriba 0 o más, en números (por ejemplo 500.00)." in page


@pytest.mark.parametrize(("message", "expected"), [
    ("-500 is less than the minimum of 0", "Debe ser 0 o más; escribió -500."),
    ("0 is less than or equal to the minimum of 0", "Debe ser mayor que 0; escribió 0."),
    ("120 is greater than the maximum of 100", "Debe ser 100 o menos; escribió 120."),
    ("'tres' is not of type 'integer'", "Escriba un número en cifras (por ejemplo 1500); «tres» no lo es."),
    ("'15/03/2026' does not match '^\\\\d{4}-\\\\d{2}-\\\\d{2}$'",
     "Escriba la fecha como AAAA-MM-DD (por ejemplo 2026-03-15); «15/03/2026» no lo es."),
    ("'X-1' does not match '^[A-Z]{3}$'", "«X-1» no tiene el formato que pide este campo."),
    ("'nombre' is a required property", "Este campo es obligatorio."),
])
def test_each_message_names_the_bound_or_the_shape(app, message, expected):
    with app.test_request_context("/web/"):
        assert form_messages.explain(message) == expected
