"""A case, a task or a message read whole, as a person working on it sees it: the record with its
history, diagram activity, the messages it waits for, its notices and (for supervisors) who may
take each open task. Each is one read, under the visibility rules of the case or the task."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.definitions import form_files, repository
from engine.definitions.parsing import BPMN
from engine.definitions.xml_safety import parse_xml
from engine.identity import absences
from engine.identity.actor import Actor
from engine.kernel import access
from engine.queries import answers, dashboard, shapes
from engine.queries.cases import get_instance, get_task
from engine.persistence.tables import INSTANCE
from engine.registries import notifications


def message_names(files: dict[str, str]) -> tuple[dict[str, str], dict[str, list[tuple[str, str]]]]:
    """({message id: message name}, {waiting element id: [(message id, catcher's name)]}) of a
    version's diagrams: a receive task waits for its own message, an event-based gateway for the
    messages of the catch events after it (the case waits in the gateway, not in them).

    The summary keeps only message names; and versions deployed before it named a receive task's
    message keep that old summary (redeploying the same files makes no new version), so the
    receive tasks are read from the files too."""
    names, waits = {}, {}
    for filename, content in files.items():
        if filename.endswith(".bpmn"):
            root = parse_xml(content.encode("utf-8"), filename)
            for message in root.iter(f"{{{BPMN}}}message"):
                names[message.get("id")] = message.get("name") or message.get("id")
            for task in root.iter(f"{{{BPMN}}}receiveTask"):
                if task.get("messageRef"):
                    waits[task.get("id")] = [(task.get("messageRef"), task.get("name") or task.get("id"))]
            waits.update(_gateway_messages(root))
    return names, waits


def _gateway_messages(root) -> dict[str, list[tuple[str, str]]]:
    catchers = {}
    for event in root.iter(f"{{{BPMN}}}intermediateCatchEvent"):
        definition = event.find(f"{{{BPMN}}}messageEventDefinition")
        if definition is not None and definition.get("messageRef"):
            catchers[event.get("id")] = (definition.get("messageRef"), event.get("name") or event.get("id"))
    targets = {flow.get("id"): flow.get("targetRef") for flow in root.iter(f"{{{BPMN}}}sequenceFlow")}
    out = {}
    for gateway in root.iter(f"{{{BPMN}}}eventBasedGateway"):
        after = [targets.get(flow.text.strip()) for flow in gateway.findall(f"{{{BPMN}}}outgoing") if flow.text]
        found = [catchers[t] for t in after if t in catchers]
        if found:
            out[gateway.get("id")] = found
    return out


def waiting_messages(record, definition) -> list[dict]:
    """The messages the case waits for now, each with the element that catches it and its lane."""
    elements = {e["id"]: e for e in definition.summary.get("elements", [])}
    names, waits = message_names(definition.files)
    out = []
    for element_id in (record.workflow_meta or {}).get("tramite", {}).get("waiting_messages", []):
        element = elements.get(element_id) or {}
        refs = [(element["message"], element.get("name", element_id))] if element.get("message") else \
            waits.get(element_id, [])
        for ref, element_name in refs:
            name = names.get(ref, ref)
            if name:
                schema = form_files.message_form(definition.files, name).schema or {}
                out.append({"name": name, "element_id": element_id, "element_name": element_name,
                            "lane": element.get("lane"), "title": schema.get("title") or name})
    return out


def case_file(session: Session, versions, actor: Actor, instance_id: int, lang: str = "es") -> dict:
    """The case page's read; its deadlines explained in the page's language `lang`."""
    record = get_instance(session, actor, instance_id)
    case = shapes.case(session, record, lang)
    definition = repository.info(versions, session, record.definition_id)
    assignable = {}
    if access.sees_all_cases(actor):
        assignable = {t["lane"]: dashboard.users_holding(session, t["lane"]) for t in case["open_tasks"]}
    return {"case": case, "history": shapes.history(session, instance_id),
            "activity": shapes.activity(session, record), "definition": definition,
            "messages": waiting_messages(record, definition),
            "parent_id": record.parent_instance_id, "children": started_cases(session, instance_id),
            "assignable": assignable, "answers": answers.of_case(session.connection(), instance_id),
            "notifications": notifications.of_case(session.connection(), instance_id)}


def started_cases(session: Session, instance_id: int) -> list[dict]:
    """The cases this one started (a membership on admission, an auction for a surplus item), so
    that its page links them: their own pages decide who may open them."""
    rows = session.execute(select(INSTANCE.c.id, INSTANCE.c.case_number).where(
        INSTANCE.c.parent_instance_id == instance_id).order_by(INSTANCE.c.id))
    return [{"id": row.id, "case_number": row.case_number} for row in rows]


def case_definition(session: Session, versions, actor: Actor, instance_id: int):
    """The version the case runs (its diagram, its key), for one who may see the case."""
    record = get_instance(session, actor, instance_id)
    return repository.info(versions, session, record.definition_id)



def task_file(session: Session, versions, actor: Actor, task_id: int, now=None) -> dict:
    """The task with its form, its case's version and history; `editable` when `actor` may act on
    it now (the commands decide again): a substitute, while the assignee is absent at `now` (a
    datetime or a callable read only then), too."""
    task = get_task(session, versions, actor, task_id)
    definition_id = session.scalar(select(INSTANCE.c.definition_id).where(INSTANCE.c.id == task["instance_id"]))
    return {"task": task, "definition": repository.info(versions, session, definition_id),
            "history": shapes.history(session, task["instance_id"]),
            "editable": task["state"] == "open" and (
                access.may_act_on_task(actor, task["lane"], task["assignee"])
                or (now is not None and actor.holds(task["lane"]) and task["assignee"] is not None
                    and task["assignee"] in absences.stood_in_for(session, actor.username, now)))}


def message_page(session: Session, versions, actor: Actor, instance_id: int, name: str) -> dict:
    """Recording message `name` on a case: its form, and whether the case waits for it now."""
    record = get_instance(session, actor, instance_id)
    definition = repository.info(versions, session, record.definition_id)
    form = form_files.message_form(definition.files, name)
    return {"record": record, "definition": definition,
            "schema": form.schema or {"type": "object", "properties": {}}, "ui": form.ui or {},
            "expected": any(m["name"] == name for m in waiting_messages(record, definition))}
