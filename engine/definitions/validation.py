"""Deploy-time checks: every refusal names the element (or file) at fault."""
from __future__ import annotations

from engine.definitions import call_graph, constructs, form_files, forms, process_scope
from engine.errors import BadRequest
from engine.definitions.parsing import build_specs, describe

ALLOWED_SUFFIXES = (".bpmn", ".dmn", *form_files.SUFFIXES, ".json")
# The refusal names the form convention as the owner would type it.
_UNSUPPORTED = (f"UNSUPPORTED_FILE: only .bpmn, .dmn and "
                f"{form_files.task_names('<task_id>')[0]}/{form_files.UI}")


def validate(files: dict[str, str], key: str, *, roles: set[str], builtin_roles, script_problems,
             deployed_files) -> dict:
    """Check an upload; returns the version summary or raises BadRequest with per-element errors.

    `roles` are the known roles, `builtin_roles` the powers over the engine no lane may name;
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
    size_caps = list(constructs.caps(files, {"elements": {}, "flows": 0, "outgoing": {}}, key))
    if size_caps:
        raise BadRequest(f"cannot deploy {key}: a file is too large", dict((w, [m]) for w, m in size_caps))
    info = describe(files)
    processes, elements = info["processes"], info["elements"]
    if key not in processes:
        fail(key, f"PROCESS_NOT_FOUND: no process with id {key!r} in the upload")
        raise BadRequest(f"cannot deploy {key}", errors)
    if not processes[key]["executable"]:
        fail(key, f"PROCESS_NOT_EXECUTABLE: the process has isExecutable={processes[key]['is_executable']!r}; "
                  "set it to \"true\" or leave the attribute out")
        raise BadRequest(f"cannot deploy {key}", errors)
    for where, message in [*constructs.caps({}, info, key), *constructs.human_task_lanes(elements),
                           *constructs.scripts(elements), *constructs.timers(elements),
                           *constructs.unsupported(info)]:
        fail(where, message)

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
    for script in info["scripts"]:
        for problem in script_problems(script["source"], script["mode"]):
            code, _, detail = problem.partition(": ")
            fail(script["element_id"], f"{code} ({script['kind']}): {detail}")

    children, child_files = _called(elements, processes, deployed_files, fail, info["top_flows"])
    process_scope.refuse_out_of_scope(key, info, builtin_roles, script_problems, fail)
    if errors:
        raise BadRequest(f"cannot deploy {key}: {len(errors)} element(s) at fault", errors)

    build_specs({n: c for n, c in {**child_files, **files}.items() if n.endswith((".bpmn", ".dmn"))}, key)
    return _summary(key, info, children)


def _called(elements: dict, processes: dict, deployed_files, fail, flows: dict) -> tuple[dict, dict]:
    """The deployed processes the upload calls, pinned by id, and every file their chains need;
    refuses a call to nothing and a chain that comes back to its caller (CALL_CYCLE)."""
    children, chain_files = {}, {}
    edges = call_graph.calls_of(elements)
    flows, known = dict(flows), dict(elements)
    pending = [(e["id"], e["called_element"]) for e in elements.values()
               if e["type"] == "callActivity" and e.get("called_element") and e["called_element"] not in processes]
    seen = set(processes)
    while pending:
        caller, called = pending.pop()
        if called in seen:
            continue
        deployed = deployed_files(called)
        if deployed is None:
            if caller in elements:  # a deployed chain's own missing child was refused when deployed
                fail(caller, f"CALLED_PROCESS_NOT_FOUND: {called!r} is neither uploaded nor deployed")
            continue
        seen.add(called)
        if caller in elements:
            children[called] = deployed[0]
        chain_files.update({f"{called}/{n}": c for n, c in deployed[1].items()})
        chain = describe({n: c for n, c in deployed[1].items() if n.endswith(".bpmn")})
        flows.update(chain["top_flows"])
        known.update(chain["elements"])
        for process, calls in call_graph.calls_of(chain["elements"]).items():
            edges.setdefault(process, []).extend(calls)
            pending.extend((called, target) for _call, target in calls)
    for call_id, chain in call_graph.cycles(processes, edges).items():
        if not call_graph.can_stop(chain, edges, flows, known):
            fail(call_id, f"CALL_CYCLE: {' → '.join(chain)}: no process of the chain can end without "
                          "calling the next again, so the calls never stop")
    return children, chain_files


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
        "signals": info["signals"],
        "starter_lane": next((e["lane"] for e in starts if e["lane"]), None),
        "user_tasks": sorted(e["id"] for e in elements if e["type"] == "userTask"),
        "children": children,
    }
