"""Deploy refusals of what Tramite cannot run as BPMN says, each naming the element at fault.

Every function yields (where, "CODE: message") pairs; validation.py collects them into the 400.
README §Supported constructs lists what runs and what is refused here.
"""
from __future__ import annotations

from engine.config import deploy_limits as limits
from engine.definitions import timer_check

# Tasks a person completes. A userTask has a form; a manualTask or a plain task is a confirmation
# with no fields (it may have a form too). Each needs a lane: its role is who may complete it.
HUMAN_TASKS = {"userTask", "manualTask", "task"}
PYTHON_FORMATS = {"", "python", "python3", "text/python", "text/x-python", "application/x-python"}


def human_task_lanes(elements: dict):
    for element in elements.values():
        if element["type"] in HUMAN_TASKS and not element["lane"]:
            yield element["id"], ("HUMAN_TASK_WITHOUT_LANE: put the task (or the sub-process holding it) "
                                  "in a lane named after the role that completes it")


def scripts(elements: dict):
    for element in elements.values():
        if element["type"] != "scriptTask":
            continue
        fmt = (element.get("script_format") or "").strip().lower()
        if fmt not in PYTHON_FORMATS:
            yield element["id"], (f"SCRIPT_NOT_PYTHON: scriptFormat {element['script_format']!r}; "
                                  "scripts run as Python (leave scriptFormat out or write python)")
        if element.get("script_empty"):
            yield element["id"], "SCRIPT_EMPTY: the script task has no script"


def timers(elements: dict):
    for element in elements.values():
        if not element.get("timer"):
            continue
        expressions = element.get("timer_expressions", [])
        if not expressions:
            yield element["id"], "TIMER_INVALID: the timer has no timeDate, timeDuration or timeCycle"
        for expression in expressions:
            detail = timer_check.problem(expression["kind"], expression["source"])
            if detail:
                yield element["id"], f"TIMER_INVALID ({expression['kind']}): {detail}"


def unsupported(info: dict):
    """Constructs the engine refuses rather than runs wrong (or not at all)."""
    for element in info["elements"].values():
        events = element.get("events", [])
        if element["type"] == "serviceTask":
            yield element["id"], ("SERVICE_TASK_UNSUPPORTED: Tramite calls no external services; use a "
                                  "script task with a whitelisted helper, or a user task")
        if element.get("throws") and "compensateEventDefinition" in events:
            yield element["id"], ("COMPENSATION_UNSUPPORTED: a compensation throw would be a silent no-op "
                                  "here; model the undo steps as ordinary flow")
        if "linkEventDefinition" in events:
            # SpiffWorkflow 3.2 parses a link event as a plain event: the flow after the catch never runs.
            yield element["id"], ("LINK_EVENT_UNSUPPORTED: the flow after a link catch would never run; "
                                  "draw the sequence flow instead")
        if "signalEventDefinition" in events and not element.get("signal"):
            yield element["id"], "SIGNAL_WITHOUT_NAME: give the signal (or the event) a name"
        if element["type"].endswith("Gateway") and not info["outgoing"].get(element["id"]):
            # The token that reaches it stays there: a case active with nothing open, nothing waiting.
            yield element["id"], "GATEWAY_WITHOUT_OUTGOING: a gateway needs at least one outgoing sequence flow"
    for store in info["data_stores"]:
        yield store["id"], (f"DATA_STORE_UNSUPPORTED: data store {store['name'] or store['id']!r} has no "
                            "implementation here; keep the data in case variables or a data object")


def caps(files: dict[str, str], info: dict, key: str):
    for name, content in files.items():
        if len(content.encode("utf-8")) > limits.MAX_FILE_BYTES:
            yield name, f"FILE_TOO_LARGE: over {limits.MAX_FILE_BYTES // (1024 * 1024)} MB"
    count = len(info["elements"]) + info["flows"]
    if count > limits.MAX_ELEMENTS:
        yield key, (f"TOO_MANY_ELEMENTS: the upload has {count} flow elements and sequence flows; "
                    f"the limit is {limits.MAX_ELEMENTS} (split it into called processes)")
    for source, branches in info["outgoing"].items():
        if branches > limits.MAX_BRANCHES:
            yield source, (f"TOO_MANY_BRANCHES: {branches} outgoing sequence flows; the limit is "
                           f"{limits.MAX_BRANCHES} (use a multi-instance activity over a list)")
