"""Form `pattern` and `patternProperties` matched in linear time (RE2), never by backtracking.

jsonschema matches `pattern` with Python's `re`, which backtracks: `^(a+)+$` against 28 `a`s and a
`!` froze a worker for seconds, doubling per character. RE2 guarantees time linear in the input,
so no pattern an owner deploys can make a submission expensive; patterns RE2 cannot run
(backreferences, lookaround) are refused at deploy, naming the field. A time limit on `re` (a
thread or a signal) would still let one request hold a worker for the whole limit.
"""
from __future__ import annotations

import functools

import re2
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

# Keywords whose values are data, not schemas: a `pattern` inside an enum member is no pattern.
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 would print every refused pattern on stderr
_OPTIONS.max_mem = 8 << 20  # a pattern whose automaton needs more is refused, not run


class PatternRefused(ValueError):
    pass


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str):
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternRefused(reason) from None


def _pattern(validator, pattern, instance, schema):
    if not validator.is_type(instance, "string"):
        return
    try:
        found = compiled(pattern).search(instance)
    except PatternRefused as exc:
        yield ValidationError(f"the form's pattern {pattern!r} cannot be used: {exc}")
        return
    if found is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator, pattern_properties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pattern_properties.items():
        try:
            matcher = compiled(pattern)
        except PatternRefused as exc:
            yield ValidationError(f"the form's pattern {pattern!r} cannot be used: {exc}")
            continue
        for name, value in instance.items():
            if matcher.search(name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def _additional_properties(validator, additional, instance, schema):
    # The stock keyword finds the properties no patternProperties cover with `re` too.
    if not validator.is_type(instance, "object"):
        return
    patterns = [compiled(p) for p in schema.get("patternProperties", {})]
    extras = [name for name in instance if name not in schema.get("properties", {})
              and not any(p.search(name) for p in patterns)]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        shown = ", ".join(repr(e) for e in sorted(extras))
        verb = "was" if len(extras) == 1 else "were"
        yield ValidationError(f"Additional properties are not allowed ({shown} {verb} unexpected)")


FormValidator = validators.extend(Draft202012Validator, {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
})


def pattern_problems(node, where: str = "") -> list[str]:
    """`field: reason` for every pattern of a schema RE2 refuses, the field named by its JSON path."""
    found: list[str] = []
    if not where and _uses(node, "patternProperties") and _uses(node, "unevaluatedProperties"):
        # jsonschema's unevaluatedProperties matches patternProperties with `re` in its own code.
        found.append("/ patternProperties: cannot be combined with unevaluatedProperties in a form")
    if isinstance(node, list):
        for i, item in enumerate(node):
            found += pattern_problems(item, f"{where}/{i}")
        return found
    if not isinstance(node, dict):
        return found
    patterns = [("pattern", node["pattern"])] if isinstance(node.get("pattern"), str) else []
    if isinstance(node.get("patternProperties"), dict):
        patterns += [("patternProperties", p) for p in node["patternProperties"]]
    for keyword, pattern in patterns:
        try:
            compiled(pattern)
        except PatternRefused as exc:
            found.append(f"{where or '/'} {keyword} {pattern!r}: {exc} (only patterns without "
                         "backreferences or lookaround are allowed)")
    for key, value in node.items():
        if key not in _DATA_KEYWORDS:
            found += pattern_problems(value, f"{where}/{key}")
    return found


def _uses(node, keyword: str) -> bool:
    if isinstance(node, dict):
        return keyword in node or any(_uses(v, keyword) for k, v in node.items() if k not in _DATA_KEYWORDS)
    return isinstance(node, list) and any(_uses(v, keyword) for v in node)
