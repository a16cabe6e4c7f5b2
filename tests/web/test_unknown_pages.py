"""An address under /web that no page has answers the web's own 404 page, never the API's JSON."""
from tests.web.conftest import text_of


def test_an_unknown_page_is_the_404_page_in_spanish_for_a_signed_in_person(web):
    response = web("clerk").client.get("/web/casos/no-existe")
    assert response.status_code == 404
    assert response.content_type.startswith("text/html")
    assert "No se encontró la página." in text_of(response.get_data(as_text=True))


def test_an_unknown_page_sends_a_visitor_to_sign_in_first(web):
    response = web().client.get("/web/no-such-page")
    # The web pages ask who you are before saying what exists.
    assert response.status_code in (302, 404)
    assert response.content_type.startswith("text/html")


def test_the_real_pages_and_the_api_keep_their_answers(web):
    client = web("clerk").client
    assert client.get("/web/tasks").status_code == 200
    assert client.get("/web/static/app.css").status_code == 200
    api = client.get("/api/v1/no-such-route")
    assert api.status_code in (401, 404) and api.is_json  # the API asks for a token first
