"""MAT-08 reads the managed office list (issue 16, item 8): an admin who moves a town to another
office changes where its applications are filed and which staff see them, without a release; a
deactivated office serves nobody."""
from engine.commands import offices as office_commands
from engine.identity.actor import Actor
from engine.registries import offices
from tests.conftest import PASSWORD

ADMIN = Actor("admin", frozenset({"admin"}))


def towns_of(engine, office_id):
    return [o for o in engine.read(offices.listing) if o["id"] == office_id][0]["municipalities"]


def test_a_town_moved_to_a_new_office_is_filed_there(mat, api, engine):
    caguas = towns_of(engine, "Caguas")
    engine.execute(office_commands.update, ADMIN, "Caguas", municipalities=[t for t in caguas if t != "Cidra"])
    engine.execute(office_commands.create, ADMIN, "Cidra", "Oficina de Cidra", "Cidra office", ["Cidra"])
    api.post("/api/v1/users", "admin", {"username": "cidra", "password": PASSWORD, "roles": ["regional_office"],
                                         "office": " CIDRA"}, expect=201)
    refused = mat.apply(applicant={"municipality": "Cidra"}, expect=422)  # the Caguas clerk
    assert refused["errors"]["rule"] == ["WRONG_REGIONAL_OFFICE"] and "Oficina de Cidra" in refused["message"]
    case = mat.apply(user="cidra", applicant={"municipality": "cidra"})
    assert case["office"] == "Cidra"
    assert [t["instance_id"] for t in api.get("/api/v1/tasks", "cidra")] == [case["id"]]
    assert api.get("/api/v1/tasks", "caguas") == []


def test_a_deactivated_office_serves_no_town(mat, engine):
    engine.execute(office_commands.update, ADMIN, "Humacao", active=False)
    refused = mat.apply(user="humacao", applicant={"municipality": "Yabucoa"}, expect=422)
    assert refused["errors"]["rule"] == ["MUNICIPALITY_UNKNOWN"]
    engine.execute(office_commands.update, ADMIN, "Humacao", active=True)
    assert mat.apply(user="humacao", applicant={"municipality": "Yabucoa"})["office"] == "Humacao"
