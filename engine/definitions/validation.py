"""Deploy-time checks: every refusal names the element (or file) at fault."""
from __future__ import annotations

from engine.definitions import form_files, forms, process_scope
from engine.errors import BadRequest
from engine.definitions.parsing import build_specs, describe

ALLOWED_SUFFIXES = (".bpmn", ".dmn", *form_files.SUFFIXES, ".json")
# The refusal names the form convention as the owner would type it.
_UNSUPPORTED = (f"UNSUPPORTED_FILE: only .bpmn, .dmn and "
                f"{form_files.task_names('<task_id>')[0]}/{form_files.UI}")


def validate(files: dict[str, str], key: str, *, roles: set[str], script_problems,
             deployed_files) -> dict:
    """Check an upload; returns the version summary or raises BadRequest with per-element errors.

    `script_problems(source, mode)` lists what the sandbox refuses in one script or expression (the
    deploying engine's whitelist decides); `deployed_files(key)` gives the latest deployed version
    of a called process: (id, files) or None.
    """
    errors: dict[str, list[str]] = {}

    def fail(where, message):
        errors.setdefault(where, []).append(message)

    for name in files:
        if not name.endswith(ALLOWED_SUFFIXES):
            fail(name, _UNSUPPORTED)
    info = describe(files)
    processes, elements = info["processes"], info["elements"]
    if key not in processes or not processes[key]["executable"]:
        fail(key, f"PROCESS_NOT_FOUND: no executable process with id {key!r} in the upload")
        raise BadRequest(f"cannot deploy {key}", errors)

    for proc in processes.values():
        for lane in proc["lanes"]:
            if lane["name"] not in roles:
                fail(lane["id"], f"LANE_NOT_A_ROLE: lane name {lane['name']!r} is not a known role")
    for name, content in files.items():
        # A UI schema is layout hints, not JSON Schema: it need only be JSON.
        problem = forms.check_json(content) if form_files.is_ui_file(name) else \
            forms.check_schema(content) if name.endswith(".json") else None
        if problem:
            fail(name, f"INVALID_FORM: {problem}")
    for element in elements.values():
        if element["type"] == "userTask":
            if not form_files.has_task_form(files, element["id"]):
                fail(element["id"], f"USER_TASK_WITHOUT_FORM: upload {form_files.task_names(element['id'])[0]}")
            if not element["lane"]:
                fail(element["id"], "USER_TASK_WITHOUT_LANE: put the task in a lane named after a role")
    for script in info["scripts"]:
        for problem in script_problems(script["source"], script["mode"]):
            code, _, detail = problem.partition(": ")
            fail(script["element_id"], f"{code} ({script['kind']}): {detail}")

    children, child_files = {}, {}
    for element in elements.values():
        called = element.get("called_element")
        if element["type"] != "callActivity" or not called or called in processes:
            continue
        deployed = deployed_files(called)
        if deployed is None:
            fail(element["id"], f"CALLED_PROCESS_NOT_FOUND: {called!r} is neither uploaded nor deployed")
        else:
            children[called] = deployed[0]
            child_files.update({f"{called}/{n}": c for n, c in deployed[1].items()})
    process_scope.refuse_out_of_scope(key, info, script_problems, fail)
    if errors:
        raise BadRequest(f"cannot deploy {key}: {len(errors)} element(s) at fault", errors)

    build_specs({n: c for n, c in {**child_files, **files}.items() if n.endswith((".bpmn", ".dmn"))}, key)
    return _summary(key, info, children)


def _summary(key: str, info: dict, children: dict) -> dict:
    proc = info["processes"][key]
    elements = [e for e in info["elements"].values()]
    starts = [e for e in elements if e["process"] == key and e["type"] == "startEvent" and not e.get("message")]
    return {
        "process": {"id": key, "name": proc["name"], "file": proc["file"]},
        "processes": sorted(info["processes"]),
        "elements": elements,
        "messages": info["messages"],
        "lanes": sorted({lane["name"] for p in info["processes"].values() for lane in p["lanes"]}),
        "starter_lane": next((e["lane"] for e in starts if e["lane"]), None),
        "user_tasks": sorted(e["id"] for e in elements if e["type"] == "userTask"),
        "children": children,
    }
