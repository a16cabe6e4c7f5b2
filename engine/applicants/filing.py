"""What the status page asks for each of the applicant's messages, and the payload it makes of the
answers (API.md "Applicant access": the same payload the staff route takes, so the same schema
and rules judge it).

Each message of `processes/<p>/applicant.json` lists its `fields` (labelled in both languages) and
may fix values the page itself stands for (`fixed`: a filing on the page is in writing). A field of
kind `documents` offers the documents the message's schema knows (`types`: payload value →
document type of the procedure's catalogue, whose labels it shows); the document the applicant
uploads with the message counts as handed in. The engine stays the only validator: an answer that
does not convert is passed on as typed, so the refusal names the field."""
from __future__ import annotations

from engine.applicants import procedure_data
from engine.expediente import catalogue

KINDS = ("documents", "text", "long_text", "integer", "money", "checkbox")


def _spec(process_key: str, name: str) -> dict:
    return procedure_data.applicant_messages(process_key).get(name, {})


def _label(field: dict, lang: str) -> str:
    return field.get(f"label_{lang}") or field.get("label_es") or field["name"]


def _options(process_key: str, field: dict, lang: str) -> list[dict]:
    options = []
    for value, type_id in field.get("types", {}).items():
        kind = catalogue.document_type(process_key, type_id) or {}
        options.append({"value": value, "type": type_id,
                        "label": kind.get(f"label_{lang}") or kind.get("label_es") or value})
    return options


def form_of(process_key: str, name: str, lang: str = "es") -> dict:
    """{"fields": [{"name","kind","label","help","options"?}], "note"}: what the page draws."""
    spec = _spec(process_key, name)
    fields = []
    for field in spec.get("fields", []):
        drawn = {"name": field["name"], "kind": field["kind"], "label": _label(field, lang),
                 "help": field.get(f"help_{lang}", ""), "required": bool(field.get("required"))}
        if field["kind"] == "documents":
            drawn["options"] = _options(process_key, field, lang)
        fields.append(drawn)
    return {"fields": fields, "note": spec.get(f"note_{lang}", "")}


def _number(raw: str, integer: bool):
    text = raw.strip().replace(",", "")
    if not text:
        return None
    if integer and text.isdigit():
        return int(text)
    return text  # as typed: the schema says what is wrong with it


def payload_of(process_key: str, name: str, answers: dict[str, list[str]], uploaded_type: str | None = None) -> dict:
    """The message's payload from the page's answers ({field name: [values]}, as a form posts them)."""
    spec = _spec(process_key, name)
    payload = dict(spec.get("fixed", {}))
    for field in spec.get("fields", []):
        key, kind, values = field["name"], field["kind"], answers.get(field["name"], [])
        first = values[0] if values else ""
        if kind == "documents":
            types = field.get("types", {})
            chosen = [v for v in values if v in types]
            chosen += [value for value, type_id in types.items() if type_id == uploaded_type]
            if chosen:
                payload[key] = [{"type": v} for v in dict.fromkeys(chosen)]
        elif kind == "checkbox":
            payload[key] = bool(values) and first not in ("", "0", "false")
        elif kind in ("integer", "money"):
            number = _number(first, kind == "integer")
            if number is not None:
                payload[key] = number
        elif first.strip():
            payload[key] = first.strip()
    return payload
