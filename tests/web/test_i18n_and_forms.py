"""The English catalogue is complete, and the form renderer reads back what it draws."""
from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from werkzeug.datastructures import MultiDict

from api.web import formkit, i18n
from tests.web.diagrams import EVALUATE, EVALUATE_UI, START, START_UI

WEB = Path(__file__).resolve().parents[2] / "api" / "web"


def test_every_spanish_label_has_an_english_translation():
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None}
    found = {message for _file, _line, message, _comments, _context in extract_from_dir(
        str(WEB), method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2")], keywords=keywords)}
    with (WEB / "translations" / "en" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalogue = {m.id: m.string for m in read_po(handle) if m.id}
    missing = sorted(str(m) for m in found if not catalogue.get(m if isinstance(m, str) else m[0]) and
                     not catalogue.get(m))
    assert not missing, f"add English for these to messages.po (pybabel update, see api/web/babel.cfg): {missing}"


def walk(field):
    yield field
    for child in field.children:
        yield from walk(child)


def test_the_start_form_draws_every_kind_of_field():
    tree = formkit.build(START, START_UI)
    kinds = {f.path: f.kind for f in walk(tree)}
    assert kinds["applicant"] == "object" and kinds["applicant.name"] == "text"
    assert kinds["amount"] == "money" and kinds["filed_on"] == "date" and kinds["kind"] == "select"
    assert kinds["notes"] == "textarea" and kinds["urgent"] == "checkbox" and kinds["lines"] == "array"
    assert [f.path for f in walk(tree)][:3] == ["", "applicant", "applicant.name"]
    lines = next(f for f in walk(tree) if f.path == "lines")
    assert len(lines.children) == 1, "minItems: 1 draws one empty row to start with"
    assert [c.kind for c in lines.template.children] == ["text", "integer", "money"]
    assert lines.template.children[0].path == "lines.__I0__.description"


def test_what_the_form_posts_comes_back_as_the_schema_s_json():
    form = MultiDict([("applicant.name", " Ana "), ("applicant.municipality", ""), ("amount", "$1,200.5"),
                      ("kind", "renewal"), ("urgent", "true"), ("filed_on", "2024-04-01"),
                      ("lines.4.__row", "1"), ("lines.4.description", "Zinc"), ("lines.4.quantity", "3"),
                      ("lines.4.price", "45"), ("lines.9.__row", "1")])
    assert formkit.parse(START, START_UI, form) == {
        "applicant": {"name": "Ana"}, "amount": "1200.5", "kind": "renewal", "urgent": True,
        "filed_on": "2024-04-01", "lines": [{"description": "Zinc", "quantity": 3, "price": "45"}, {}]}


def test_choices_and_lists_of_choices_read_back_as_their_values():
    form = MultiDict([("recommendation", "deny"), ("findings", "a\r\nb"), ("checks", "income"), ("checks", "address")])
    assert formkit.parse(EVALUATE, EVALUATE_UI, form) == {
        "recommendation": "deny", "findings": "a\nb", "checks": ["income", "address"]}


def test_a_value_that_does_not_convert_is_passed_on_as_typed():
    form = MultiDict([("lines.0.__row", "1"), ("lines.0.quantity", "tres"), ("amount", "mil")])
    data = formkit.parse(START, START_UI, form)
    assert data["lines"] == [{"quantity": "tres"}] and data["amount"] == "mil"
    tree = formkit.build(START, START_UI, data, {"lines.0.quantity": ["bad"]})
    quantity = next(f for f in walk(tree) if f.path == "lines.0.quantity")
    assert quantity.value == "tres" and quantity.errors == ["bad"]


def test_nullable_and_radio_booleans_and_enum_labels():
    schema = {"type": "object", "required": ["ok"], "properties": {
        "ok": {"type": ["boolean", "null"]}, "size": {"oneOf": [{"const": 1, "title": "Uno"}, {"const": 2, "title": "Dos"}]}}}
    ui = {"ok": {"ui:widget": "radio"}}
    tree = formkit.build(schema, ui)
    ok, size = tree.children
    assert ok.kind == "bool_radio" and ok.nullable and size.options == [("1", "Uno"), ("2", "Dos")]
    assert formkit.parse(schema, ui, MultiDict([("ok", ""), ("size", "2")])) == {"ok": None, "size": 2}
    assert formkit.parse(schema, ui, MultiDict([("ok", "false")])) == {"ok": False}


def test_errors_on_fields_that_are_not_drawn_are_kept_for_the_summary():
    tree = formkit.build(EVALUATE, EVALUATE_UI, {}, {"findings": ["x"], "registry_id": ["y"]})
    assert formkit.unplaced_errors(tree, {"findings": ["x"], "registry_id": ["y"]}) == {"registry_id": ["y"]}
    assert [f.id for f in formkit.fields_with_errors(tree)] == ["f-findings"]


def test_every_error_code_of_the_rules_catalogue_has_a_spanish_text():
    import re as regex

    from api.web.rule_texts import SPANISH
    from engine.rules.reasons.catalogue import CODES
    worded = set(SPANISH) | {code for code, entry in CODES.items() if entry.get("es")}
    rules = (Path("/work/shared/procedures/RULES.md") if Path("/work/shared/procedures/RULES.md").exists()
             else None)
    if rules is None:
        return
    text = rules.read_text(encoding="utf-8")
    index = text[text.index("## 5."):text.index("## 6.")]
    table = index[index.index("| Code"):]
    codes = {c for c in regex.findall(r"`([A-Z][A-Z0-9_]+)`", table) if c not in ("INCOMPLETE_CLOSED",)}
    assert not sorted(codes - worded)


def test_if_then_else_marks_the_dependent_field_required_for_the_answer_at_hand():
    import json

    schema = json.loads((WEB.parents[1] / "forms" / "materials_aid" / "decide_extension.schema.json").read_text())
    days = lambda tree: next(f for f in tree.children if f.path == "days_granted")  # noqa: E731
    assert days(formkit.build(schema, {})).conditional and not days(formkit.build(schema, {})).required
    assert days(formkit.build(schema, {}, {"granted": True})).required
    assert not days(formkit.build(schema, {}, {"granted": False})).required
    assert formkit.build(schema, {}).conditions == [
        {"when": {"granted": ["true"]}, "present": ["granted"], "then": ["days_granted"], "else": []}]


def test_the_day_filter_shows_the_puerto_rico_day(app):
    # 02:00 UTC on 1 March is 22:00 on 29 February in San Juan: the page shows the legal day.
    with app.test_request_context():
        shown = i18n.day(date(2024, 2, 29))
        assert i18n.day("2024-03-01T02:00:00+00:00") == shown
        assert i18n.day(datetime(2024, 3, 1, 2, 0, tzinfo=timezone.utc)) == shown
        assert i18n.day("2024-02-29") == shown != i18n.day(date(2024, 3, 1))
        assert i18n.day("pendiente") == "pendiente" and i18n.day(None) == i18n.day("") == ""
