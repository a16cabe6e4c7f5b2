"""Corpus files today's code gets wrong: manifest path → (issue 14 item, what happens).

Found by running test_corpus.py on the code of this branch; each is an xfail(strict=True), so a
fix that makes one pass fails the suite until its line here is removed. HANG entries are not
run at all (each would hold a test worker for the hang guard's 20 s)."""

HANG = "HANG"
DATA_STORE_KEY = ("#12", "a data store is refused under the key 'definition', not its element")
HANG_FOREVER = ("#1", HANG)  # a call activity calling itself through a chain: start never returns
NO_LANE = ("#5", "a task outside every lane deploys; then nobody, admin included, may complete it (403)")
SERVER_ERROR = ("#2", "answers 500 instead of a case in error or a 400 at deploy")
TWO_CLOCKS = ("#9", "under the manual clock datetime.now() in a script reads the machine's time")
TIMER_EXPRESSION = ("#4", "an unquoted timer expression (P7D, R6/P1D) deploys, then fails; the error is "
                                "swallowed and the case waits")
STUCK = ("#3/#4", "the case sits active with nothing open, nothing waiting and no error")

KNOWN: dict[str, tuple[str, str]] = {
    "ARIS 10.2025.07/C.9.1-roundtrip.bpmn": STUCK,
    "Enterprise Explorer 1.0.0/B.1.0-export.bpmn": DATA_STORE_KEY,
    "OMNITRACKER BPMN 12.3/C.9.1-roundtrip.bpmn": STUCK,
    "Open-BPMN 1.2.8_2/C.9.1-roundtrip.bpmn": TIMER_EXPRESSION,
    "Open-BPMN 1.2.8_2/C.9.1.bpmn": TIMER_EXPRESSION,
    "Reference/C.9.1.bpmn": TIMER_EXPRESSION,
    "SAP Signavio Process Manager 19.9.0/C.4.0-export.4.bpmn": DATA_STORE_KEY,
    "SAP Signavio Process Manager 19.9.0/C.4.0-roundtrip.4.bpmn": DATA_STORE_KEY,
    "SAP Signavio Process Manager 19.9.0/C.9.1-export.bpmn": TIMER_EXPRESSION,
    "SAP Signavio Process Manager 19.9.0/C.9.1-roundtrip.bpmn": TIMER_EXPRESSION,
    "Trisotech BPMN Visio Add in 5.0.1/B.1.0-roundtrip.bpmn": DATA_STORE_KEY,
    "Trisotech Workflow Modeler 12.6.3/C.9.1-roundtrip.bpmn": TIMER_EXPRESSION,
    "Work in Progress/Imports-BPMN/ModelD_1_1.0/modeld.1.bpmn": DATA_STORE_KEY,
    "Yaoqiang BPMN Editor 4.0/A.1.0-export.bpmn": NO_LANE,
    "bpmn.io (Camunda Modeler) 18.6.1/C.9.1-roundtrip.bpmn": TIMER_EXPRESSION,
    "test/spec/features/auto-place/BpmnAutoPlace.vertical.bpmn": NO_LANE,
    "test/spec/features/modeling/LabelLayouting.integration.bpmn": DATA_STORE_KEY,
    "test/spec/features/modeling/MoveElements.collaboration-association.bpmn": DATA_STORE_KEY,
    "test/spec/features/modeling/behavior/AttachEventBehavior.bpmn": NO_LANE,
    "test/spec/features/modeling/behavior/DataStoreBehavior.connect.bpmn": DATA_STORE_KEY,
    "test/spec/features/modeling/behavior/LabelBehavior.copyPaste.bpmn": NO_LANE,
    "test/spec/features/rules/BpmnRules.insert.bpmn": STUCK,
    "tests/SpiffWorkflow/bpmn/data/ParallelOrder.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/Test-Workflows/Parallel.camunda.bpmn20.xml": STUCK,
    "tests/SpiffWorkflow/bpmn/data/Test-Workflows/Timer-Intermediate.bpmn20.xml": STUCK,
    "tests/SpiffWorkflow/bpmn/data/boundary_event_split.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/call_activity_nested/call_activity_level_2b.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/call_activity_nested/call_activity_level_3.bpmn": HANG_FOREVER,
    "tests/SpiffWorkflow/bpmn/data/conditional_event.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/data_object.bpmn": STUCK,
    "tests/SpiffWorkflow/bpmn/data/data_object_gateway.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/data_store.bpmn": DATA_STORE_KEY,
    "tests/SpiffWorkflow/bpmn/data/data_store_read.bpmn": DATA_STORE_KEY,
    "tests/SpiffWorkflow/bpmn/data/diff/v1.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/diff/v2.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/diff/v3.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/diff/v4.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/diff/v5.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/event-subprocess.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/gateway_loop_input.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/io_spec_on_task.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/parallel_multiinstance_cardinality.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/parallel_multiinstance_loop_input.bpmn": SERVER_ERROR,
    "tests/SpiffWorkflow/bpmn/data/reset_with_boundary_event.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/script-start.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/sequential_multiinstance_cardinality.bpmn": NO_LANE,
    "tests/SpiffWorkflow/bpmn/data/sequential_multiinstance_loop_input.bpmn": STUCK,
    "tests/SpiffWorkflow/bpmn/data/standard_loop.bpmn": STUCK,
    "tests/SpiffWorkflow/bpmn/data/timer-date-start.bpmn": TWO_CLOCKS,
    "tests/SpiffWorkflow/camunda/data/parallel_multiinstance_cardinality.bpmn": STUCK,
    "tests/SpiffWorkflow/camunda/data/token_trial_nested_parallel.bpmn": STUCK,
    "tests/SpiffWorkflow/camunda/data/token_trial_parallel_matrix.bpmn": STUCK,
    "tests/SpiffWorkflow/spiff/data/data_object.bpmn": STUCK,
    "tests/SpiffWorkflow/spiff/data/error_event_payload.bpmn": NO_LANE,
    "tests/SpiffWorkflow/spiff/data/escalation_event_payload.bpmn": NO_LANE,
    "tests/SpiffWorkflow/spiff/data/receive_correlations.bpmn": NO_LANE,
    "tests/SpiffWorkflow/spiff/data/script_on_mi.bpmn": SERVER_ERROR,
    "tests/SpiffWorkflow/spiff/data/service_task.bpmn": SERVER_ERROR,
    "tests/SpiffWorkflow/spiff/data/service_task_retry_without_backoff.bpmn": SERVER_ERROR,
    "tests/SpiffWorkflow/spiff/data/service_task_variable.bpmn": SERVER_ERROR,
    "tests/SpiffWorkflow/spiff/data/signal_event_payload.bpmn": NO_LANE,
}
