"""Every diagram of the public corpus either is refused at deploy with a 400 whose `errors` name an
element, or starts and runs without a 5xx, a hang, or a case left `active` with nothing open,
nothing waiting and no error — and ends as SpiffWorkflow alone ends it given the same steps
(state, elements completed per step, open tasks, data).

Each file is deployed as published; when the only refusals are Tramite's own requirements (a form
per user task, lanes named after roles, an executable process), it is deployed again with those
added (corpus.adapted) and run: every open task completed with `{}`, the clock moved past every
deadline, until the case ends or only waits for a message (at most ROUNDS steps).
"""
from __future__ import annotations

import pytest

from tests.conformance import corpus
from tests.conformance.corpus_known import HANG, KNOWN
from tests.conformance.outcome import Refused
from tests.conformance.library_player import LibraryPlayer
from tests.conformance.play import compare, refusal_names_an_element
from tests.conformance.scenario import Scenario
from tests.conformance.tramite_player import ACTOR, SUPERVISOR, TramitePlayer, assert_not_stuck

ROUNDS = 12
_AS_PUBLISHED = Scenario("corpus", "a public diagram", lambda d: None)
OUR_REQUIREMENTS = ("USER_TASK_WITHOUT_FORM", "LANE_NOT_A_ROLE", "USER_TASK_WITHOUT_LANE", "PROCESS_NOT_FOUND")


def _params():
    entries = corpus.sweep_entries()
    if not entries:
        return [pytest.param(None, id="corpus-missing")]
    params = []
    for entry in entries:
        known = KNOWN.get(entry["path"])
        marks = []
        if known and known[1] == HANG:
            marks.append(pytest.mark.xfail(run=False, reason=f"issue 14 {known[0]}: hangs (not run)"))
        elif known:
            marks.append(pytest.mark.xfail(strict=True, reason=f"issue 14 {known[0]}: {known[1]}"))
        params.append(pytest.param(entry, id=corpus.test_id(entry), marks=marks))
    return params


def _deploy(player, key, files):
    """(deployed?, errors); a refusal must name an element."""
    try:
        player.deploy(key, files)
        return True, {}
    except Refused as refusal:
        assert refusal_names_an_element(refusal.errors), f"refused without naming an element: {refusal.errors}"
        return False, refusal.errors


def _ours_only(errors: dict) -> bool:
    messages = [m for ms in errors.values() for m in ms]
    return bool(messages) and all(m.startswith(OUR_REQUIREMENTS) for m in messages)


def _start(player: TramitePlayer, library: LibraryPlayer):
    """As a clerk; a diagram whose start event has no lane is started by a supervisor (README, Roles)."""
    try:
        player.start({})
    except AssertionError as refusal:
        if "→ 403" not in str(refusal):
            raise
        player.case = player._call("POST", f"/api/v1/processes/{player.key}/instances", SUPERVISOR,
                                   {"variables": {}}, expect=(201,)).get_json()
        player._step()
    library.start({"case_number": player.case["case_number"]})


def _complete(player: TramitePlayer, task: dict) -> int:
    for user in (ACTOR, "admin"):
        answer = player.api.call("POST", f"/api/v1/tasks/{task['id']}/complete", user, None, json={"data": {}})
        assert answer.status_code < 500, answer.get_data(as_text=True)[:500]
        if answer.status_code != 403:
            return answer.status_code
    raise AssertionError(f"nobody may complete {task['element_id']} (lane {task['lane']!r}), admin included")


def _run(player: TramitePlayer, library: LibraryPlayer):
    """The same generic steps on both sides: the open task with the smallest element id (the first of
    its kind) completed with {}, else the clock moved past the last deadline."""
    _start(player, library)
    for _ in range(ROUNDS):
        case = player._read()
        if case["status"] != "active":
            break
        if case["open_tasks"]:
            tasks = sorted(case["open_tasks"], key=lambda t: (t["element_id"], t["id"]))
            if _complete(player, tasks[0]) != 200:
                break  # a clean refusal (a rule, a form): the case stays as it was
            player._step()
            library.complete(tasks[0]["element_id"], {})
        elif case["deadlines"]:
            duration = _past(player, case)
            player.wait(duration)
            library.wait(duration)
        else:
            break
    got = player.finish()
    assert_not_stuck(got)
    compare(_AS_PUBLISHED, library.finish(), got)


def _past(player, case) -> str:
    from datetime import datetime
    latest = max(datetime.fromisoformat(d["due_at"]) for d in case["deadlines"])
    seconds = max(1, int((latest - player.clock()).total_seconds()) + 1)
    return f"PT{seconds}S"


def _with_called(api, files: dict) -> dict:
    """The upload plus the deployed processes it calls (Tramite links a call activity to the latest
    deployed version of a process the upload lacks): the library gets the same diagrams."""
    files = dict(files)
    ids, called = corpus.process_ids_and_calls(files)
    if called <= ids:
        return files
    latest = {p["key"]: p["latest_version"] for p in api.get("/api/v1/processes?per_page=500", "boss")}
    for _ in range(5):
        ids, called = corpus.process_ids_and_calls(files)
        missing = sorted(c for c in called - ids if c in latest)
        if not missing:
            break
        for key in missing:
            xml = api.call("GET", f"/api/v1/processes/{key}/versions/{latest[key]}/bpmn", "boss", 200)
            files[f"called-{key}.bpmn"] = xml.get_data()
    return files


@pytest.mark.parametrize("entry", _params())
def test_corpus_diagram_is_refused_clearly_or_runs(conformance_api, entry):
    assert entry is not None, f"the corpus is missing: expected {corpus.CORPUS}/MANIFEST.json beside the clone"
    key = entry["key"]
    files = corpus.files_of(entry)
    player = TramitePlayer(conformance_api)
    deployed, errors = _deploy(player, key, files)
    uploaded = files
    if not deployed and _ours_only(errors):
        uploaded = corpus.adapted(files, key)
        deployed, errors = _deploy(player, key, uploaded)
    if not deployed:
        return
    library = LibraryPlayer(_with_called(conformance_api, uploaded), key, player.clock())
    try:
        _run(player, library)
    finally:
        player.stop()
