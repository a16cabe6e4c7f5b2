"""The demo seed of the materials aid programme: fixtures, two Regional Offices' staff and cases in
several stages, idempotent."""
from api.demo import DEMO_PASSWORD, DEMO_STEPS
from api.demo.materials_aid import materials_aid_demo


def test_the_demo_seeds_two_offices_cases_in_several_stages_and_is_idempotent(mat, api, engine):
    assert materials_aid_demo in DEMO_STEPS
    api.put("/api/v1/parameters/materials.maxAidAmount", "admin", {"value": "6000.00"})
    lines = materials_aid_demo(engine)
    stages = {line.split()[0]: line.split()[1:] for line in lines if line.startswith("MAT-")}
    assert sorted(v[0] for v in stages.values()) == ["Caguas"] * 3 + ["Humacao"] * 3
    # The report names the stages in Spanish, from the procedure's label data (the office is the
    # first word after the case number, the stage the rest of the line).
    assert {" ".join(v[1:]) for v in stages.values()} == {
        "Documentos solicitados", "Revisión de la Oficina Central", "Materiales en uso", "Cotizaciones",
        "En evaluación de elegibilidad", "Notificación por enviar"}
    again = materials_aid_demo(engine)
    assert not [line for line in again if line.startswith("MAT-")]
    assert [line for line in again if DEMO_PASSWORD in line] == [line for line in lines if DEMO_PASSWORD in line]
    # An admin's value is kept; the stores were there already.
    values = {p["name"]: p["value"] for p in api.get("/api/v1/parameters", "admin")}
    assert values["materials.maxAidAmount"] == "6000.00"
    assert len(api.get("/api/v1/registries/stores", "admin")) == 5

    token = api.client.post("/api/v1/auth/token", json={"username": "caguas_oficina", "password": DEMO_PASSWORD})
    headers = {"Authorization": f"Bearer {token.get_json()['token']}"}
    mine = api.client.get("/api/v1/instances?process=materials_aid", headers=headers).get_json()
    assert sorted(c["office"] for c in mine) == ["Caguas"] * 3
    queue = api.get("/api/v1/tasks?element_id=central_review", "central")
    assert len(queue) == 1 and queue[0]["case_number"] in stages
