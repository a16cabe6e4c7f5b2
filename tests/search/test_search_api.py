"""GET /api/v1/instances?q= and the web case list's search box: each search key of each procedure,
accents and case ignored, and a clerk's list holding exactly the cases they may see."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.procedures.bid_adjudication.conftest import offer
from tests.procedures.farmer_registry.conftest import application as farmer_application
from tests.procedures.surplus_disposition.conftest import item, requester


CASE_LINK = re.compile(r'href="/web/cases/\d+">([A-Z]{3}-\d{4}-\d{6})</a>')


@pytest.fixture
def found(api, web):
    """search(q, user, **filters) -> the case numbers the API finds, checked equal to the web list's."""
    sessions = {}

    def search(q, user="boss", **filters):
        query = urlencode({"q": q, **filters})
        numbers = [c["case_number"] for c in api.get(f"/api/v1/instances?{query}", user)]
        if user not in sessions:
            sessions[user] = web(user)
        page = sessions[user].get(f"/web/cases?{query}")
        assert CASE_LINK.findall(page) == numbers, (q, user)
        return numbers
    return search


def test_a_farmer_case_is_found_by_name_with_or_without_accents_municipality_registry_and_number(far, api, found):
    maria = far.admitted(name="María Ortiz Nieves")
    other = far.apply(name="Ana Torres")
    membership = far.membership_of(maria)
    registry_id = maria["variables"]["registry_id"]
    for q in ("María", "maria", "MARIA ortiz", "nieves"):
        assert set(found(q)) == {maria["case_number"], membership["case_number"]}, q
    assert set(found(registry_id)) == {maria["case_number"], membership["case_number"]}
    assert found(registry_id.lower(), process="farmer_registry_membership") == [membership["case_number"]]
    assert other["case_number"] in found("cidra") and maria["case_number"] in found("Cidra")
    assert found(other["case_number"]) == [other["case_number"]]
    assert found("Zoraida") == []
    listed = {c["case_number"]: c for c in api.get("/api/v1/instances", "boss")}
    assert listed[maria["case_number"]]["applicant_name"] == "María Ortiz Nieves"
    assert listed[maria["case_number"]]["reference"] == registry_id
    assert listed[maria["case_number"]]["municipality"] == "Cidra"
    # The membership case names no applicant of its own: it shows its admission's.
    assert listed[membership["case_number"]]["applicant_name"] == "María Ortiz Nieves"


def test_a_materials_case_is_found_by_name_id_municipality_beneficiary_number_and_number(mat, api, found, web):
    case = mat.delivered()
    mat.day("2024-07-10")
    case = mat.message(case, "completion_notified", {})
    mat.day("2024-08-05")
    case = mat.follow_up(mat.case(case["id"]))
    beneficiary = mat.case(case)["variables"]["beneficiary_id"]
    assert beneficiary
    other = mat.apply(applicant={"id": "REC-0002", "name": "José Ramos", "municipality": "Gurabo"})
    for q in ("maría rivera", "MARIA", "rec-0001", "Cidra", beneficiary, case["case_number"].lower()):
        assert found(q) == [case["case_number"]], q
    for q in ("jose", "José", "REC-0002", "gurabo"):
        assert found(q) == [other["case_number"]], q
    # A clerk of the Regional Office of Caguas (Cidra, Gurabo) lists and finds them; Humacao's neither.
    yabucoa = mat.apply(applicant={"id": "REC-0003", "name": "María Colón", "municipality": "Yabucoa"},
                        user="humacao")
    assert found("maria", "caguas") == [case["case_number"]]
    assert found("", "caguas") == [other["case_number"], case["case_number"]]
    assert found("maria", "humacao") == [yabucoa["case_number"]]
    assert found("", "humacao") == [yabucoa["case_number"]]
    assert found("maria") == [yabucoa["case_number"], case["case_number"]]
    assert "<option>Caguas</option>" not in web("humacao").get("/web/cases")  # nor another office's name


def test_a_bid_is_found_by_number_matter_and_its_bidders(bids, api, found):
    case = bids.open(number="2025-017", matter="Sillas ergonómicas")
    case = bids.record(case, [offer("O1", "40000.00", bidder="B-12"), offer("O2", "41000.00", bidder="B-40")])
    other = bids.open(number="2025-018", matter="Papel")
    for q in ("2025-017", "ergonomicas", "ERGONÓMICAS", "b-12", "Licitador B-40", case["case_number"]):
        assert found(q) == [case["case_number"]], q
    assert found("2025-018") == [other["case_number"]]
    assert found("b-12", "secretary") == [case["case_number"]]


def test_a_surplus_item_is_found_by_inventory_number_description_and_its_requesters(surplus, producers, api, found):
    case = surplus.start(item("A-4001", "9000.00", utility="agricola", description="Tractor Massey Fergusón"))
    surplus.request(case, requester("MUN-AIBONITO", "municipio", name="Municipio de Aibonito"))
    surplus.request(case, requester("F-17", "productor", name="Productor F-17", registry_id="F-17"))
    other = surplus.start(item("A-4002", "100.00"))
    for q in ("a-4001", "ferguson", "FERGUSÓN", "aibonito", "mun-aibonito", "F-17", case["case_number"]):
        assert found(q) == [case["case_number"]], q
    assert found("A-4002") == [other["case_number"]]


def test_a_registry_clerk_lists_and_searches_their_procedures_cases_only(far, mat, api, found):
    farmer = far.apply(name="María Ortiz")
    materials = mat.apply()  # María Rivera, materials aid: not a lane of the registry clerk
    listed = [c["case_number"] for c in api.get("/api/v1/instances", "far_clerk")]
    assert farmer["case_number"] in listed and materials["case_number"] not in listed
    assert found("maria", "far_clerk") == [farmer["case_number"]]
    assert set(found("maria")) == {farmer["case_number"], materials["case_number"]}


def test_a_search_of_only_wildcards_matches_them_literally(far, api, found):
    far.apply(name="Ana Torres")
    assert found("%") == [] and found("a%s") == []
