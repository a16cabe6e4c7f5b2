"""Under the manual clock a script's datetime.now(), date.today() and utcnow() read the engine clock,
the same instant as the helpers now() and today() and the timers."""
from datetime import datetime

from tests.api.test_script_errors import run_to_script

MOVED = "2024-05-01T12:00:00-04:00"


def test_datetime_now_in_a_script_reads_the_engine_clock(api):
    api.move_clock(MOVED)
    code = ("utc = datetime.utcnow().isoformat()\nlocal = datetime.now().isoformat()\n"
            "day = date.today().isoformat()\nsame = datetime.today() == datetime.now()\n"
            "helper = now().isoformat()\nhelper_day = today().isoformat()\n"
            "built = datetime(2024, 1, 2).isoformat()\nparsed = datetime.fromisoformat('2024-01-02T03:04:05')\n")
    case = run_to_script(api, code)
    assert case["status"] == "active", case["error"]
    seen = case["variables"]
    instant = datetime.fromisoformat(MOVED)
    assert seen["utc"] == "2024-05-01T16:00:00"
    assert seen["local"] == instant.astimezone().replace(tzinfo=None).isoformat()  # the host's zone, as in Python
    assert seen["day"] == instant.astimezone().date().isoformat()
    assert seen["same"] is True
    assert datetime.fromisoformat(seen["helper"]) == instant
    assert seen["helper_day"] == "2024-05-01"
    assert seen["built"] == "2024-01-02T00:00:00" and seen["parsed"] == "2024-01-02T03:04:05"
