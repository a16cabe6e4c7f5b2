"""The demo seed of surplus disposition: items listed with requests held, seeded once, walking the
cascade when the clock moves."""
from api import demo
from api.demo.surplus_disposition import surplus_disposition_demo


def test_the_demo_lists_items_and_they_walk_the_cascade_as_time_moves(surplus, producers, engine, api):
    assert surplus_disposition_demo in demo.DEMO_STEPS
    lines = surplus_disposition_demo(engine)
    assert any("P-1001" in line for line in lines) and any("A-4100" in line for line in lines)
    assert surplus_disposition_demo(engine) == []  # once
    listed = api.get("/api/v1/instances?process=surplus_disposition&per_page=50", "boss")
    cases = {c["variables"]["item"]["inventory_number"]: c for c in (surplus.case(row["id"]) for row in listed)}
    assert len(cases["A-4100"]["variables"]["requests"]) == 2
    surplus.at("2024-04-17 09:00")
    assert [t["element_id"] for t in surplus.case(cases["P-1001"])["open_tasks"]] == ["select_transferee"]
    assert [t["element_id"] for t in surplus.case(cases["V-1001"])["open_tasks"]] == ["set_vehicle_order"]
    assert [t["element_id"] for t in surplus.case(cases["P-3010"])["open_tasks"]] == ["set_price"]
    surplus.at("2024-05-14 09:00")
    assert sorted(t["element_id"] for t in surplus.case(cases["A-4100"])["open_tasks"]) == \
        ["draw_lottery", "set_price", "set_price"]
    surplus.at("2024-05-21 09:00")
    assert surplus.case(cases["P-8001"])["outcome"] == "SENT_TO_PUBLIC_AUCTION"
