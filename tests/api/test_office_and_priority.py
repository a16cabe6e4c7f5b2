"""Office scoping (a user with an office sees and acts only on that office's cases) and inbox priority."""
from tests.conftest import PASSWORD
from tests.support.diagrams import scoped_flow


def start(api, office, urgent=False, as_user="clerk"):
    return api.post("/api/v1/processes/test_scoped/instances", as_user,
                    {"variables": {"requested_office": office, "urgent": urgent}}, expect=201)


def test_staff_of_one_office_do_not_see_or_act_on_another_office_cases(api):
    api.deploy("test_scoped", scoped_flow())
    for name, office in (("caguas", "Caguas"), ("humacao", "Humacao")):
        api.post("/api/v1/users", "admin", {"username": name, "password": PASSWORD,
                                             "roles": ["test_clerk"], "office": office}, expect=201)
    ours, theirs = start(api, "Caguas"), start(api, "Humacao")
    assert ours["office"] == "Caguas" and theirs["office"] == "Humacao"

    assert [t["instance_id"] for t in api.get("/api/v1/tasks", "caguas")] == [ours["id"]]
    assert [c["id"] for c in api.get("/api/v1/instances", "caguas")] == [ours["id"]]
    api.get(f"/api/v1/instances/{theirs['id']}", "caguas", expect=403)
    foreign = api.open_task(theirs, "handle")
    api.get(f"/api/v1/tasks/{foreign['id']}", "caguas", expect=403)
    api.post(f"/api/v1/tasks/{foreign['id']}/claim", "caguas", expect=403)
    api.post(f"/api/v1/tasks/{foreign['id']}/complete", "caguas", {"data": {}}, expect=403)
    api.post(f"/api/v1/tasks/{foreign['id']}/complete", "humacao", {"data": {}})

    # Staff without an office and supervisors see every office.
    assert {t["instance_id"] for t in api.get("/api/v1/tasks", "clerk")} == {ours["id"]}
    assert len(api.get("/api/v1/instances", "boss")) == 2


def test_priority_cases_come_first_in_the_inbox(api):
    api.deploy("test_scoped", scoped_flow())
    first, second = start(api, "Caguas"), start(api, "Caguas")
    urgent = start(api, "Caguas", urgent=True)
    inbox = [t["instance_id"] for t in api.get("/api/v1/tasks?scope=available", "clerk")]
    assert inbox == [urgent["id"], first["id"], second["id"]]
