"""The diagram's instructions above a task's form (issue 16, item 4): Markdown with the case's
variables, and hostile text inert."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape

from tests.support import bpmn as b


def _with_instructions(text: str) -> dict[str, str]:
    task = (f'<bpmn:userTask id="review" name="Revisar"><bpmn:extensionElements>'
            f'<spiffworkflow:instructionsForEndUser>{escape(text)}</spiffworkflow:instructionsForEndUser>'
            f'</bpmn:extensionElements></bpmn:userTask>')
    xml = b.diagram("instructed", lanes={"test_clerk": ["start", "review", "end"]},
                    nodes=[b.start(), task, b.end()], flows=b.chain("start", "review", "end"))
    return {"instructed.bpmn": xml, "review.schema.json": b.form({"ok": {"type": "boolean"}})}


def _instructions_of(api, web, text: str, variables: dict) -> tuple[str, dict]:
    api.deploy("instructed", _with_instructions(text))
    case = api.post("/api/v1/processes/instructed/instances", "clerk", {"variables": variables}, expect=201)
    task = api.open_task(case, "review")
    page = web("clerk").get(f"/web/tasks/{task['id']}")
    found = re.search(r'<div class="instructions-text">(.*?)</div>\s*</section>', page, re.S)
    assert found, "no instructions on the task page"
    return found.group(1), api.get(f"/api/v1/tasks/{task['id']}", "clerk")


def test_instructions_show_above_the_form_as_markdown_with_the_cases_variables(api, web):
    text = "Revise la solicitud de **{{ applicant.name }}** ({{ municipality }}{{ nothing.here }}).\n\n- uno\n- dos"
    html, detail = _instructions_of(api, web, text, {"applicant": {"name": "Ana Torres"}, "municipality": "Cidra"})
    assert "<strong>Ana Torres</strong>" in html and "(Cidra)" in html  # a missing variable is empty
    assert "<li>uno</li>" in html
    assert detail["instructions"] == text
    page = web("clerk").get(f"/web/tasks/{detail['id']}")
    assert page.index('class="card task-instructions"') < page.index('class="task-form"')


def test_hostile_instructions_are_inert(api, web):
    text = ("<script>alert(1)</script> [clic](javascript:alert(2)) <img src=x onerror=alert(3)>\n\n"
            "{{ ''.__class__.__mro__ }} {{ cycler.__init__.__globals__ }} {{ note }}")
    html, _ = _instructions_of(api, web, text, {"note": "<b onclick=alert(4)>hola</b> [x](javascript:alert(5))"})
    assert "<script" not in html and "<img" not in html and "<b" not in html
    assert "javascript:" not in re.sub(r"\s+", " ", " ".join(re.findall(r'href="([^"]*)"', html)))
    assert not re.search(r"<a [^>]*href=\"javascript", html)
    # Nothing of Python is reached: no object's repr, the refused template shown as written.
    assert "&lt;class" not in html and "function" not in html and "{{" in html
    assert "&lt;script&gt;" in html  # shown as text, not run


def test_a_template_that_could_run_long_is_shown_as_written(api, web):
    text = "{% for a in range(100000) %}{% for b in range(100000) %}x{% endfor %}{% endfor %} listo {{ n }}"
    html, _ = _instructions_of(api, web, text, {"n": 1})
    assert "listo" in html and "xx" not in html


def test_variables_with_markdown_or_html_stay_text(api, web):
    html, _ = _instructions_of(api, web, "Nota: {{ note }} {{ note.upper }}", {"note": "<script>alert(1)</script>"})
    assert "<script" not in html and "&lt;script&gt;" in html and "built-in" not in html


def test_instructions_may_quote_an_earlier_tasks_answer(api, web):
    second = ('<bpmn:userTask id="second" name="Segunda"><bpmn:extensionElements><spiffworkflow:instructionsForEndUser>'
              'El primero dijo: *{{ answers.first.comment }}*</spiffworkflow:instructionsForEndUser>'
              '</bpmn:extensionElements></bpmn:userTask>')
    xml = b.diagram("quoting", lanes={"test_clerk": ["start", "first", "second", "end"]},
                    nodes=[b.start(), b.user("first", "Primera"), second, b.end()],
                    flows=b.chain("start", "first", "second", "end"))
    comment = b.form({"comment": {"type": "string"}})
    api.deploy("quoting", {"quoting.bpmn": xml, "first.schema.json": comment, "second.schema.json": comment})
    case = api.post("/api/v1/processes/quoting/instances", "clerk", {"variables": {}}, expect=201)
    first = api.open_task(case, "first")
    case = api.post(f"/api/v1/tasks/{first['id']}/complete", "clerk", {"data": {"comment": "todo en orden"}})["instance"]
    page = web("clerk").get(f"/web/tasks/{api.open_task(case, 'second')['id']}")
    assert "El primero dijo: <em>todo en orden</em>" in page
