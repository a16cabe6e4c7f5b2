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


def test_mine_or_available_merges_both_lists_in_inbox_order_across_pages(api):
    """The default inbox is two lists (claimed by me, open to my role) merged in one order."""
    api.deploy("test_scoped", scoped_flow())
    cases = [start(api, "Caguas", urgent=(i % 3 == 0)) for i in range(7)]
    for case in cases[1::2]:  # some claimed by me, the others left for the role
        api.post(f"/api/v1/tasks/{api.open_task(case, 'handle')['id']}/claim", "clerk")
    claimed_by_other = start(api, "Caguas")
    api.post(f"/api/v1/tasks/{api.open_task(claimed_by_other, 'handle')['id']}/claim", "both")
    everything = [t["instance_id"] for t in api.get("/api/v1/tasks?scope=all&per_page=50", "boss")]
    expected = [i for i in everything if i != claimed_by_other["id"]]
    pages = [api.call("GET", f"/api/v1/tasks?per_page=3&page={n}", "clerk", 200) for n in (1, 2, 3)]
    assert [t["instance_id"] for page in pages for t in page.get_json()] == expected
    assert {page.headers["X-Total-Count"] for page in pages} == {"7"}


def test_available_to_two_lanes_merges_both_lanes_in_inbox_order_across_pages(api):
    """A user of two lanes: "available" is one head per lane, merged in the inbox's one order."""
    from tests.support.diagrams import parallel_flow
    api.deploy("test_parallel", parallel_flow())
    cases = [api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)
             for _ in range(4)]
    # One task of one lane is claimed: it leaves "available" but the other lane's task of its case stays.
    api.post(f"/api/v1/tasks/{api.open_task(cases[1], 'check_a')['id']}/claim", "clerk")
    everything = api.get("/api/v1/tasks?scope=all&per_page=50", "boss")
    expected = [t["id"] for t in everything if t["assignee"] is None]
    assert {t["lane"] for t in everything} == {"test_clerk", "test_reviewer"} and len(expected) == 7
    pages = [api.call("GET", f"/api/v1/tasks?scope=available&per_page=3&page={n}", "both", 200) for n in (1, 2, 3)]
    assert [t["id"] for page in pages for t in page.get_json()] == expected
    assert {page.headers["X-Total-Count"] for page in pages} == {"7"}
    # The default inbox (mine or available) of the same user holds the same tasks.
    assert sorted(t["id"] for t in api.get("/api/v1/tasks?per_page=50", "both")) == sorted(expected)
