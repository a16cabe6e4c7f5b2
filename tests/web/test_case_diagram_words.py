"""The case page's diagram names its lanes by their roles' labels and its data objects by their
variables' labels (issue 16: lanes drawn as `review_board`, data objects as `requests`), while the
version's own XML (the modeler's, the API's) keeps the ids the engine routes by."""
from __future__ import annotations

import json
import re
from pathlib import Path

from lxml import etree

from tests.support.spanish_check import untranslated
from tests.web.test_spanish_pages import _login, _page, demo_site  # noqa: F401  (the fixture)

BPMN = "{http://www.omg.org/spec/BPMN/20100524/MODEL}"
ROLES = {r["id"]: r for r in json.loads((Path(__file__).resolve().parents[2] / "processes" / "roles.json").read_text())}


def _named(xml: str, kind: str) -> list[str]:
    return [e.get("name") or "" for e in etree.fromstring(xml.encode()).iter(BPMN + kind)]


def test_every_case_diagram_draws_lanes_and_data_objects_in_words(demo_site):  # noqa: F811
    app, names = demo_site
    boss = _login(app, "boss", "secreto-123")
    listing = _page(boss, "/web/cases?per_page=100")
    keys_seen, problems = set(), {}
    for case_id in sorted({int(i) for i in re.findall(r'/web/cases/(\d+)"', listing)}):
        xml = _page(boss, f"/web/cases/{case_id}/diagram.xml")
        lanes, data = _named(xml, "lane"), _named(xml, "dataObjectReference")
        keys_seen.add(re.search(r'<bpmn:process id="([^"]+)"', xml).group(1))
        assert lanes and not set(lanes) & set(ROLES), (case_id, lanes)
        assert set(lanes) <= {r["label_es"] for r in ROLES.values()}, (case_id, lanes)
        shown = " · ".join(lanes + data)
        found = untranslated(f"<html lang='es'><body><p>{shown}</p></body></html>", allow=names)
        if found:
            problems[case_id] = found
    assert not problems, problems
    assert len(keys_seen) >= 4  # every procedure's diagram was read


def test_the_diagram_words_follow_the_page_language_and_the_version_xml_keeps_the_ids(demo_site):  # noqa: F811
    app, _names = demo_site
    boss = _login(app, "boss", "secreto-123")
    listing = _page(boss, "/web/cases?per_page=100&q=SUR-")
    case_id = re.search(r'/web/cases/(\d+)"', listing).group(1)
    spanish = _page(boss, f"/web/cases/{case_id}/diagram.xml")
    assert "Custodio de la propiedad" in _named(spanish, "lane")
    assert "Solicitudes" in _named(spanish, "dataObjectReference")
    boss.get("/web/lang/en")
    english = _page(boss, f"/web/cases/{case_id}/diagram.xml")
    assert "Property custodian" in _named(english, "lane")
    assert "Requests" in _named(english, "dataObjectReference")
    version = etree.fromstring(english.encode()).find(f"{BPMN}process").get("id")
    assert version == "surplus_disposition"
