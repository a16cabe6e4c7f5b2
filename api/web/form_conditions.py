"""`if/then/else` in the task forms: which fields an answer makes required.

The form is drawn with every field; a field that only some answers require (days granted when an
extension is granted) is marked required when the answer at hand requires it, on the server when
the page is drawn and in the browser (static/app.js) as the user answers. The `if`s a browser can
check are those made of `const`/`enum` properties and `required`; the engine validates every
post against the whole schema anyway, so a condition left out here only loses the early hint.
"""
from __future__ import annotations

from api.web.schema_walk import MISSING, resolve, token


def conditions(schema: dict, root: dict) -> list[dict]:
    """The object's `if/then/else` (its own and those in `allOf`) that a browser can check: an `if`
    made of `const`/`enum` properties and `required`. Others are left to the server, which
    validates every post anyway."""
    out = []
    for part in [schema, *(resolve(p, root) for p in schema.get("allOf") or [])]:
        test = resolve(part.get("if"), root) if isinstance(part.get("if"), dict) else None
        if not test:
            continue
        allowed = {}
        for name, sub in (test.get("properties") or {}).items():
            sub = resolve(sub, root)
            if "const" in sub:
                allowed[name] = [token(sub["const"])]
            elif isinstance(sub.get("enum"), list):
                allowed[name] = [token(v) for v in sub["enum"]]
            else:
                allowed = None
                break
        if allowed is None or set(test) - {"properties", "required", "type"}:
            continue
        branches = {k: list((resolve(part.get(k), root) or {}).get("required") or []) for k in ("then", "else")}
        if branches["then"] or branches["else"]:
            out.append({"when": allowed, "present": list(test.get("required") or []), **branches})
    return out


def holds(condition: dict, value: dict) -> bool:
    """JSON Schema's reading of the `if`: an absent property passes unless `required` names it."""
    for name in condition["present"]:
        if value.get(name, MISSING) in (MISSING, None, ""):
            return False
    for name, allowed in condition["when"].items():
        got = value.get(name, MISSING)
        if got is not MISSING and token(got) not in allowed:
            return False
    return True


def apply(out, schema: dict, root: dict, value: dict) -> None:
    """Mark an object's fields that a condition may make required, and those it does make required
    for the answer at hand (so the page is right without JavaScript too)."""
    out.conditions = conditions(schema, root)
    by_name = {child.path.rsplit(".", 1)[-1]: child for child in out.children}
    for condition in out.conditions:
        for name in condition["then"] + condition["else"]:
            if name in by_name and not by_name[name].required:
                by_name[name].conditional = True
    for condition in out.conditions:
        active = condition["then"] if holds(condition, value) else condition["else"]
        for name in active:
            if name in by_name:
                by_name[name].required = True
