"""The case diagram as a person reads it: the lanes named by their roles' labels and the data
objects by their variables' labels, in the page's language.

A diagram names its lanes by role id (`review_board`: the engine routes tasks by it) and its data
objects by variable name (`requests`); both are data for the engine and codes for a person. The
diagram's XML stays the version's own everywhere else (the modeler, the API); only the copy the
case page draws is relabelled here, so the words come from the label data, not from the diagram.
"""
from __future__ import annotations

from lxml import etree

from api.web import procedure_labels
from api.web.labels import pick
from engine.definitions.xml_safety import parse_xml

BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL"
DATA_REFERENCES = ("dataObjectReference", "dataStoreReference", "dataObject")


def relabelled(xml: str, process_key: str | None, roles: dict[str, str]) -> str:
    """`xml` with each lane named by its role's label (`roles`: {role id: label}) and each data
    object by its variable's label; names with no label stay as the diagram wrote them."""
    root = parse_xml(xml.encode("utf-8"), "diagram.bpmn")
    variables = procedure_labels.section("variables", process_key)
    for lane in root.iter(f"{{{BPMN}}}lane"):
        name = (lane.get("name") or "").strip()
        if name in roles:
            lane.set("name", roles[name])
    for kind in DATA_REFERENCES:
        for element in root.iter(f"{{{BPMN}}}{kind}"):
            name = (element.get("name") or "").strip()
            label = pick(variables.get(name)) or pick(variables.get(element.get("dataObjectRef") or ""))
            if label:
                element.set("name", label)
    return etree.tostring(root, encoding="unicode")
