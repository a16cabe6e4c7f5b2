"""What each procedure tells the applicant: its name, a plain sentence per stage, what is pending from
the applicant there, and which messages are the applicant's. Read from `processes/<p>/applicant.json`
(keyed by process key), so no view or command names a procedure's messages."""
from __future__ import annotations

import json
from functools import lru_cache

from engine.config.paths import processes_dir


@lru_cache(maxsize=4)
def _all(root: str) -> dict:
    merged: dict = {}
    for path in sorted(processes_dir().glob("*/applicant.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def of(process_key: str) -> dict:
    """The applicant data of a process (empty when its procedure offers the applicant nothing)."""
    return _all(str(processes_dir())).get(process_key, {})


def applicant_messages(process_key: str) -> dict:
    return of(process_key).get("messages", {})


def is_applicant_message(process_key: str, name: str) -> bool:
    return name in applicant_messages(process_key)
