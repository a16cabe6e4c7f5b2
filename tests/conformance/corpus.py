"""The public corpus in `<repo>/../shared/conformance-corpus/` (never copied into the project): its
manifest, the files one sweep entry uploads, and the same diagram with what Tramite asks of any
deployable diagram added (a lane named after a role around every element, a form for every user
task, the process marked executable), so the runtime is exercised and not only the refusals."""
from __future__ import annotations

import json
from pathlib import Path

from lxml import etree

from tests.conformance.builder import CLERK, form

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "conformance-corpus"
BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL"
_Q = f"{{{BPMN}}}"
# Children of <process> the schema puts before its lane sets and flow elements.
_HEAD = {"documentation", "extensionElements", "auditing", "monitoring", "categoryValueRef", "supports",
         "ioSpecification", "property", "laneSet"}
_NOT_NODES = {"sequenceFlow", "laneSet", "lane", "dataObject", "dataObjectReference", "dataStoreReference",
              "association", "textAnnotation", "group", "documentation", "extensionElements", "ioSpecification",
              "property", "dataInputAssociation", "dataOutputAssociation"}
_NODE_TAGS = {"startEvent", "endEvent", "userTask", "task", "manualTask", "scriptTask", "serviceTask",
              "businessRuleTask", "sendTask", "receiveTask", "exclusiveGateway", "parallelGateway",
              "inclusiveGateway", "eventBasedGateway", "complexGateway", "callActivity", "subProcess",
              "transaction", "adHocSubProcess", "intermediateCatchEvent", "intermediateThrowEvent",
              "boundaryEvent"}


def manifest() -> dict | None:
    path = CORPUS / "MANIFEST.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def sweep_entries() -> list[dict]:
    """Every diagram of the manifest: the sweep's (with their process key) and the library's unit-test
    scenario files (keyed by their first executable process); .dmn files only travel as bundles."""
    data = manifest()
    entries = []
    for entry in (data["files"] if data else []):
        if entry["path"].endswith(".dmn") or not {"sweep", "scenario"} & set(entry["use"]):
            continue
        entries.append(entry if entry.get("key") else {**entry, "key": _first_executable(entry)})
    return entries


def _first_executable(entry: dict) -> str:
    root = etree.parse(str(_stored(entry))).getroot()
    processes = list(root.iter(f"{_Q}process"))
    chosen = next((p for p in processes if p.get("isExecutable") == "true"), processes[0] if processes else None)
    return chosen.get("id") if chosen is not None else "conformance_no_process"


def _stored(entry: dict) -> Path:
    return CORPUS / entry["stored_as"].removeprefix("corpus/")


def _upload_name(path: str) -> str:
    name = Path(path).name
    return name if name.endswith((".bpmn", ".dmn")) else name.rsplit(".bpmn", 1)[0] + ".bpmn"


def files_of(entry: dict) -> dict[str, bytes]:
    """The entry's file and the files it is uploaded with (the library's tests load them together)."""
    by_path = {(f["repo"], f["path"]): f for f in manifest()["files"]}
    found = {_upload_name(entry["path"]): _stored(entry).read_bytes()}
    for other in entry.get("bundle", []):
        bundled = by_path[(entry["repo"], other)]
        found[_upload_name(other)] = _stored(bundled).read_bytes()
    return found


def adapted(files: dict[str, bytes], key: str) -> dict[str, bytes]:
    """Every process in one `test_clerk` lane, a permissive form per user task, `key` executable."""
    out, user_tasks = {}, set()
    for name, content in files.items():
        if not name.endswith(".bpmn"):
            out[name] = content
            continue
        root = etree.fromstring(content)
        for proc in root.iter(f"{_Q}process"):
            if proc.get("id") == key:
                proc.set("isExecutable", "true")
            for lane_set in list(proc.iter(f"{_Q}laneSet")):
                lane_set.getparent().remove(lane_set)
            nodes = [n for n in proc.iter() if isinstance(n.tag, str) and n.tag.startswith(_Q)
                     and n.tag[len(_Q):] in _NODE_TAGS and n.get("id")]
            user_tasks.update(n.get("id") for n in nodes if n.tag == f"{_Q}userTask")
            lane_set = etree.Element(f"{_Q}laneSet", id=f"Conformance_LaneSet_{proc.get('id')}")
            lane = etree.SubElement(lane_set, f"{_Q}lane", id=f"Conformance_Lane_{proc.get('id')}", name=CLERK)
            for node in nodes:
                etree.SubElement(lane, f"{_Q}flowNodeRef").text = node.get("id")
            position = 0
            for i, child in enumerate(proc):
                if isinstance(child.tag, str) and etree.QName(child).localname in _HEAD:
                    position = i + 1
            proc.insert(position, lane_set)
        out[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    for task in sorted(user_tasks):
        out.setdefault(f"{task}.schema.json", form({}).encode("utf-8"))
    return out


def process_ids_and_calls(files: dict[str, bytes]) -> tuple[set, set]:
    ids, called = set(), set()
    for name, content in files.items():
        if name.endswith(".bpmn"):
            root = etree.fromstring(content if isinstance(content, bytes) else content.encode("utf-8"))
            ids.update(p.get("id") for p in root.iter(f"{_Q}process"))
            called.update(c.get("calledElement") for c in root.iter(f"{_Q}callActivity") if c.get("calledElement"))
    return ids, called


def test_id(entry: dict) -> str:
    where = "/".join(entry["path"].split("/")[-2:])
    return f"{entry['repo'].split('/')[0]}:{where}:{entry['sha256'][:6]}"
