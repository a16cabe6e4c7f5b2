"""The demo's report in one language: Spanish, or English with `tramite seed-demo --english`
(or `TRAMITE_DEMO_LANG=en`). Stages are named by the procedures' label data, roles by roles.json."""
from __future__ import annotations

import os

from api.web import procedure_labels

ENV = "TRAMITE_DEMO_LANG"


def language() -> str:
    return "en" if os.environ.get(ENV, "").strip().lower().startswith("en") else "es"


def say(es: str, en: str) -> str:
    return en if language() == "en" else es


def stage(code: str | None, process_key: str) -> str:
    """A stage (or outcome) code as the procedure's label data names it in the report's language."""
    if not code:
        return "—"
    for section in ("stages", "outcomes", "values"):
        entry = procedure_labels.section(section, process_key).get(code)
        if isinstance(entry, dict) and entry.get(language()):
            return entry[language()]
    return code


def role(labels: dict[str, tuple[str, str]], role_id: str) -> str:
    """{id: (es, en)} → the role's label in the report's language."""
    es, en = labels.get(role_id, (role_id, role_id))
    return say(es, en)
