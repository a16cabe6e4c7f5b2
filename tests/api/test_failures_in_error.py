"""A step the library cannot run puts the case in `error` naming the element, never a 500 and
never an `active` case with the error lost; retry re-runs the step once the cause is fixed."""
from tests.support import bpmn as b

# calendar.holidays is read live and starts empty: 10 // len(...) fails until an admin adds two.
NEEDS_HOLIDAYS = "10 // len(param('calendar.holidays'))"
TWO_HOLIDAYS = ["2024-07-04", "2024-12-25"]


def multi_instance(id, collection, item, sequential=False, output=None, output_item=None):
    out = f"<bpmn:loopDataOutputRef>{output}</bpmn:loopDataOutputRef>" if output else ""
    out_item = f'<bpmn:outputDataItem id="{output_item}" name="{output_item}"/>' if output_item else ""
    return (f'<bpmn:userTask id="{id}" name="{id}"><bpmn:multiInstanceLoopCharacteristics '
            f'isSequential="{"true" if sequential else "false"}">'
            f"<bpmn:loopDataInputRef>{collection}</bpmn:loopDataInputRef>{out}"
            f'<bpmn:inputDataItem id="{item}" name="{item}"/>{out_item}'
            f"</bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>")


def timer(id, kind, expression):
    return (f'<bpmn:intermediateCatchEvent id="{id}"><bpmn:timerEventDefinition><bpmn:{kind}>'
            f'{expression}</bpmn:{kind}></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>')


def deploy_chain(api, key, nodes, ids, forms=()):
    xml = b.diagram(key, lanes={"test_clerk": list(ids)}, nodes=nodes, flows=b.chain(*ids))
    files = {f"{key}.bpmn": xml, **{f"{f}.schema.json": b.form({}, {"period": {"type": "string"}, "result": {
        "type": "integer"}}) for f in forms}}
    api.deploy(key, files)


def start(api, key, variables=None, expect=201):
    return api.post(f"/api/v1/processes/{key}/instances", "clerk", {"variables": variables or {}}, expect=expect)


def complete(api, case, element_id, data=None):
    task = api.open_task(case, element_id)
    return api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": data or {}})["instance"]


def retry(api, case):
    return api.post(f"/api/v1/instances/{case['id']}/retry", "boss")


def test_a_parallel_multi_instance_without_its_collection_is_an_error_at_start_not_a_500(api):
    deploy_chain(api, "mi_start", [b.start(), multi_instance("review", "items", "item"), b.end()],
                 ["start", "review", "end"], forms=["review"])
    case = start(api, "mi_start")
    assert case["status"] == "error"
    assert case["error"]["element_id"] == "review" and "items" in case["error"]["message"]
    assert retry(api, case)["status"] == "error"  # nothing was fixed: still in error, no 500
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    assert [e["element_id"] for e in history if e["type"] == "error"] == ["review", "review"]


def test_a_multi_instance_whose_collection_is_missing_after_a_task_is_an_error_on_completion(api):
    for sequential in (False, True):
        key = f"mi_after_{int(sequential)}"
        deploy_chain(api, key, [b.start(), b.user("intake"), multi_instance("review", "items", "item", sequential),
                                b.end()], ["start", "intake", "review", "end"], forms=["intake", "review"])
        case = complete(api, start(api, key), "intake")
        assert case["status"] == "error", sequential
        assert case["error"]["element_id"] == "review"
        assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "error"


def test_a_timer_value_that_is_not_iso_8601_is_an_error_naming_the_timer(api):
    deploy_chain(api, "bad_timer", [b.start(), b.user("intake"), timer("wait", "timeDuration", "period"),
                                    b.user("after"), b.end()], ["start", "intake", "wait", "after", "end"],
                 forms=["intake", "after"])
    case = complete(api, start(api, "bad_timer"), "intake", {"period": "7 days"})
    assert case["status"] == "error"
    assert case["error"]["element_id"] == "wait"
    assert case["error"]["message"].startswith("TIMER_VALUE_INVALID") and "P7D" in case["error"]["message"]


def test_a_failing_timer_expression_keeps_the_case_in_error_and_retry_arms_it_after_the_fix(api):
    expression = f"'P%dD' % ({NEEDS_HOLIDAYS})"
    deploy_chain(api, "timer_fix", [b.start(), b.user("intake"), timer("wait", "timeDuration", expression),
                                    b.user("after"), b.end()], ["start", "intake", "wait", "after", "end"],
                 forms=["intake", "after"])
    case = complete(api, start(api, "timer_fix"), "intake")
    assert case["status"] == "error" and case["error"]["element_id"] == "wait"
    assert "ZeroDivisionError" in case["error"]["message"]
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "error"  # not cleared on save
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": TWO_HOLIDAYS})
    fixed = retry(api, case)
    assert fixed["status"] == "active" and fixed["error"] is None
    assert [d["element_id"] for d in fixed["deadlines"]] == ["wait"]
    assert fixed["deadlines"][0]["due_at"].startswith("2024-04-06T16:00")  # 5 days after the retry
    api.move_clock("2024-04-07T12:00:00-04:00")
    after = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert [t["element_id"] for t in after["open_tasks"]] == ["after"]


def test_a_failing_loop_condition_puts_the_loop_in_error_and_retry_ends_the_loop_after_the_fix(api):
    loop = ('<bpmn:userTask id="work" name="work"><bpmn:standardLoopCharacteristics><bpmn:loopCondition>'
            f"{NEEDS_HOLIDAYS} &gt; 100</bpmn:loopCondition></bpmn:standardLoopCharacteristics></bpmn:userTask>")
    deploy_chain(api, "loop_fix", [b.start(), loop, b.user("after"), b.end()], ["start", "work", "after", "end"],
                 forms=["work", "after"])
    case = complete(api, start(api, "loop_fix"), "work")
    assert case["status"] == "error" and case["error"]["element_id"] == "work"
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": TWO_HOLIDAYS})
    fixed = retry(api, case)
    assert fixed["status"] == "active", fixed["error"]
    assert [t["element_id"] for t in fixed["open_tasks"]] == ["after"]


def test_a_missing_data_output_is_an_error_naming_the_task_and_retry_reruns_it(api):
    code = "if len(param('calendar.holidays')) > 0:\n    result = 1"
    task = ('<bpmn:scriptTask id="compute" name="compute"><bpmn:ioSpecification id="io">'
            '<bpmn:dataOutput id="result" name="result"/><bpmn:inputSet id="in"/>'
            '<bpmn:outputSet id="out"><bpmn:dataOutputRefs>result</bpmn:dataOutputRefs></bpmn:outputSet>'
            f"</bpmn:ioSpecification><bpmn:script>{code}</bpmn:script></bpmn:scriptTask>")
    deploy_chain(api, "output_fix", [b.start(), b.user("intake"), task, b.user("after"), b.end()],
                 ["start", "intake", "compute", "after", "end"], forms=["intake", "after"])
    case = complete(api, start(api, "output_fix"), "intake")
    assert case["status"] == "error" and case["error"]["element_id"] == "compute"
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "error"
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": TWO_HOLIDAYS})
    fixed = retry(api, case)
    assert fixed["status"] == "active", fixed["error"]
    assert fixed["variables"]["result"] == 1
    assert [t["element_id"] for t in fixed["open_tasks"]] == ["after"]


def test_a_service_task_in_a_version_deployed_earlier_is_an_error_not_a_500(api, engine):
    # Deploy refuses service tasks; a version stored before that refusal must still not 500.
    from sqlalchemy import text
    deploy_chain(api, "old_service", [b.start(), b.user("intake"), b.script("svc", "x = 1"), b.end()],
                 ["start", "intake", "svc", "end"], forms=["intake"])
    service = ('<bpmn:serviceTask id="svc" name="svc"><bpmn:extensionElements>'
               '<spiffworkflow:serviceTaskOperator id="http/GetRequest"><spiffworkflow:parameters/>'
               '</spiffworkflow:serviceTaskOperator></bpmn:extensionElements></bpmn:serviceTask>')
    with engine.db.transaction() as session:
        files = session.execute(text("SELECT files FROM process_definition WHERE key = 'old_service'")).scalar_one()
        files = files if isinstance(files, dict) else __import__("json").loads(files)
        files["old_service.bpmn"] = files["old_service.bpmn"].replace(b.script("svc", "x = 1"), service)
        session.execute(text("UPDATE process_definition SET files = :f WHERE key = 'old_service'"),
                        {"f": __import__("json").dumps(files)})
    engine.versions._entries.clear()
    case = complete(api, start(api, "old_service"), "intake")
    assert case["status"] == "error" and case["error"]["element_id"] == "svc"
    assert case["error"]["message"].startswith("SERVICE_TASK_UNSUPPORTED")
    assert retry(api, case)["status"] == "error"


def test_a_failed_pre_script_is_retried_by_opening_the_task_again_not_by_completing_it(api):
    review = ('<bpmn:userTask id="review" name="review"><bpmn:extensionElements><spiffworkflow:preScript>'
              f"share = {NEEDS_HOLIDAYS}</spiffworkflow:preScript></bpmn:extensionElements></bpmn:userTask>")
    deploy_chain(api, "pre_fix", [b.start(), b.user("intake"), review, b.user("after"), b.end()],
                 ["start", "intake", "review", "after", "end"], forms=["intake", "review", "after"])
    case = complete(api, start(api, "pre_fix"), "intake")
    assert case["status"] == "error" and case["error"]["element_id"] == "review"
    api.put("/api/v1/parameters/calendar.holidays", "admin", {"value": TWO_HOLIDAYS})
    fixed = retry(api, case)
    assert fixed["status"] == "active", fixed["error"]
    assert [t["element_id"] for t in fixed["open_tasks"]] == ["review"]  # a person still has to do it
    assert fixed["variables"]["share"] == 5


def test_the_other_branches_of_a_split_go_on_beside_a_failed_timer(api):
    ids = ["start", "split", "wait", "check", "join", "end"]
    xml = b.diagram("split_timer", lanes={"test_clerk": ids},
                    nodes=[b.start(), b.parallel("split"), timer("wait", "timeDuration", "period"), b.user("check"),
                           b.parallel("join"), b.end()],
                    flows=[*b.chain("start", "split", "wait", "join", "end"), b.flow("f_check", "split", "check"),
                           b.flow("f_check_join", "check", "join")])
    api.deploy("split_timer", {"split_timer.bpmn": xml, "check.schema.json": b.form({})})
    case = start(api, "split_timer", {"period": "7 days"})
    assert case["status"] == "error" and case["error"]["element_id"] == "wait"
    assert [t["element_id"] for t in case["open_tasks"]] == ["check"]


def test_a_missing_data_input_is_an_error_naming_the_task(api):
    task = ('<bpmn:scriptTask id="compute" name="compute"><bpmn:ioSpecification id="io">'
            '<bpmn:dataInput id="amount" name="amount"/><bpmn:inputSet id="in"><bpmn:dataInputRefs>amount'
            '</bpmn:dataInputRefs></bpmn:inputSet><bpmn:outputSet id="out"/></bpmn:ioSpecification>'
            "<bpmn:script>total = amount * 2</bpmn:script></bpmn:scriptTask>")
    deploy_chain(api, "input_missing", [b.start(), b.user("intake"), task, b.user("after"), b.end()],
                 ["start", "intake", "compute", "after", "end"], forms=["intake", "after"])
    case = complete(api, start(api, "input_missing"), "intake")
    assert case["status"] == "error" and case["error"]["element_id"] == "compute"
    assert "Missing data input" in case["error"]["message"]
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "error"
    assert retry(api, case)["status"] == "error"
