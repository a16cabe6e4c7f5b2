"""Known sandbox escapes played through deployed diagrams over HTTP. Each payload is either refused
at deploy (400 naming the element) or, when only running it can tell, leaves the case in `error`
at that element — and in neither case does anything outside the sandbox happen."""
from __future__ import annotations

import os
import uuid

import pytest

from tests.support import bpmn as b
from tests.support.diagrams import script_flow

# `MARKER` is replaced by a fresh path per test: an escape would create that file.
PAYLOADS = {
    "import": "import os\nos.system('touch MARKER')",
    "from-import": "from subprocess import run\nrun(['touch', 'MARKER'])",
    "dunder-import": "__import__('os').system('touch MARKER')",
    "open": "open('MARKER', 'w').write('escaped')",
    "eval": "eval(\"__import__('os').system('touch MARKER')\")",
    "exec": "exec(\"import os; os.system('touch MARKER')\")",
    "compile": "code = compile('1', 'x', 'exec')",
    "subclasses-walk": "x = ().__class__.__base__.__subclasses__()",
    "mro-walk": "x = [].__class__.__mro__[-1].__subclasses__()",
    "function-globals": "f = lambda: 0\ng = f.__globals__",
    "code-object": "def f():\n    return 1\nc = f.__code__",
    "rule-function-globals": "g = param.__globals__['__builtins__']",
    "bound-self": "s = [].append.__self__",
    "getattr": "c = getattr(1, '__cl' + 'ass__')",
    "type": "t = type(1)",
    "globals": "g = globals()",
    "vars": "v = vars()",
    "breakpoint": "breakpoint()",
    "generator-frame": "g = (i for i in [1])\nf = g.gi_frame.f_back.f_globals",
    "traceback-frame": "try:\n    1 / 0\nexcept Exception as e:\n    f = e.__traceback__.tb_frame.f_globals",
    "class-definition": "class Escape:\n    pass",
    "format-attribute-walk": "s = '{0.__class__.__mro__}'.format(1)",
    "format-map-built-at-run-time": "spec = '{0.__cl' + 'ass__}'\ns = spec.format(1)",
    "fstring-dunder": "s = f'{x.__class__}'",
    "fullwidth-eval": "x = \uff45\uff56\uff41\uff4c('1 + 1')",  # NFKC-normalised to eval
    "builtins-dict": "b = __builtins__",
    "endless-loop": "while True:\n    pass",
    "memory-bomb-string": "s = 'a' * 10 ** 10",
    "memory-bomb-power": "n = 10 ** 10 ** 10",
    "recursion": "def f(n):\n    return f(n + 1)\nf(0)",
    # Forbidden builtins reached without a plain call, which the deploy check cannot see: only
    # the run-time sandbox stops these.
    "aliased-open": "[open][0]('MARKER', 'w')",
    "aliased-getattr": "[getattr][0](1, '__cl' + 'ass__')",
    "aliased-type": "t = [type][0](1)",
    "aliased-eval-in-dict": "{'f': eval}['f']('1 + 1')",
    "format-method-alias": "f = '{0.__class__}'.format",
    "parameter-path-traversal": "v = param('../../../../etc/passwd')",
}


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / f"escaped-{uuid.uuid4().hex}"
    yield str(path)
    assert not os.path.exists(path), "a script reached the file system"


def play(api, code: str):
    """Deploy a diagram running `code`; (deploy response, case after the script ran or None)."""
    files = script_flow(code, key="test_escape")
    import io
    data = {"files": [(io.BytesIO(c.encode()), n) for n, c in files.items()]}
    deployed = api.call("POST", "/api/v1/processes/test_escape/versions", "owner",
                        data=data, content_type="multipart/form-data")
    assert deployed.status_code in (201, 400), deployed.get_data(as_text=True)[:500]
    if deployed.status_code == 400:
        return deployed.get_json(), None
    case = api.post("/api/v1/processes/test_escape/instances", "clerk", {"variables": {"x": 2}}, expect=201)
    intake = api.open_task(case, "intake")
    done = api.call("POST", f"/api/v1/tasks/{intake['id']}/complete", "clerk", json={"data": {}})
    assert done.status_code == 200, done.get_data(as_text=True)[:500]
    return None, done.get_json()["instance"]


def test_the_suite_has_at_least_fifteen_payloads():
    assert len(PAYLOADS) >= 15


def test_a_harmless_script_runs_through_the_same_path(api, marker):
    _, case = play(api, "y = x * 2")
    assert case["status"] == "active" and case["variables"]["y"] == 4


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_escape_payload_is_refused(api, marker, name):
    refused, case = play(api, PAYLOADS[name].replace("MARKER", marker))
    if refused is not None:
        assert refused["code"] == 400
        assert "run" in refused["errors"], refused  # the script task's element id
    else:
        assert case["status"] == "error", case
        assert case["error"]["element_id"] == "run"
        assert case["open_tasks"] == []
        # A supervisor sees it among the failed cases, and retrying does not get it through.
        assert [c["id"] for c in api.get("/api/v1/instances?status=error", "boss")] == [case["id"]]
        assert api.post(f"/api/v1/instances/{case['id']}/retry", "boss")["status"] == "error"


@pytest.mark.parametrize("condition", [
    "__import__('os').system('touch MARKER')",
    "x.__class__.__base__.__subclasses__()",
    "open('MARKER', 'w')",
])
def test_escapes_in_gateway_conditions_are_refused_at_deploy(api, marker, condition):
    xml = b.diagram(
        "test_escape", lanes={"test_clerk": ["start", "route", "yes", "no"]},
        nodes=[b.start(), b.xor("route", default="f_no"), b.end("yes"), b.end("no")],
        flows=[b.flow("f_start", "start", "route"),
               b.flow("f_yes", "route", "yes", condition.replace("MARKER", marker)), b.flow("f_no", "route", "no")])
    refused = api.deploy("test_escape", {"escape.bpmn": xml}, expect=400)
    assert "f_yes" in refused["errors"], refused


def test_an_escape_in_a_timer_expression_never_runs(api, marker):
    xml = b.diagram(
        "test_escape", lanes={"test_clerk": ["start", "wait", "end"]},
        nodes=[b.start(), b.timer_catch("wait", f"__import__('os').system('touch {marker}')"), b.end()],
        flows=b.chain("start", "wait", "end"))
    import io
    data = {"files": [(io.BytesIO(xml.encode()), "escape.bpmn")]}
    deployed = api.call("POST", "/api/v1/processes/test_escape/versions", "owner",
                        data=data, content_type="multipart/form-data")
    if deployed.status_code == 400:
        assert "wait" in deployed.get_json()["errors"]
        return
    assert deployed.status_code == 201
    case = api.post("/api/v1/processes/test_escape/instances", "clerk", {"variables": {}}, expect=201)
    assert case["status"] == "error" and case["error"]["element_id"] == "wait"
