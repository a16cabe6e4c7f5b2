"""The one place that knows how a version's form files are named.

Every form is a pair: a JSON Schema 2020-12 (`<owner>.schema.json`) and optional layout hints
(`<owner>.ui.json`). The owner is a user task (its element id), the start of a case (`start`), or
a message (`<name>.message`). Deploy checks, task pages, the start and message pages, version
diffs and the case's labels all find forms through these functions, so renaming a convention is
one edit here, not a hunt through the engine and the web.
"""
from __future__ import annotations

import json
from functools import cached_property

SCHEMA = ".schema.json"
UI = ".ui.json"
SUFFIXES = (SCHEMA, UI)
START = "start"
_MESSAGE = ".message"

TASK, START_KIND, MESSAGE = "task", "start", "message"


class Form:
    """A form as stored: its schema and its UI hints, each None when the version has no such file.

    Each file is found and parsed when first read: completing a task validates against the schema
    and never needs the layout hints, and this runs on every completion."""

    def __init__(self, files: dict[str, str], names: tuple[str, str]):
        self._files, self._names = files, names

    @cached_property
    def schema(self) -> dict | None:
        return find(self._files, self._names[0])

    @cached_property
    def ui(self) -> dict | None:
        return find(self._files, self._names[1])

    def __iter__(self):
        # `schema, ui = task_form(...)` where a page needs both.
        return iter((self.schema, self.ui))


def _names(owner: str) -> tuple[str, str]:
    return owner + SCHEMA, owner + UI


def task_names(element_id: str) -> tuple[str, str]:
    """(schema file, UI file) of a user task, matched by its element id."""
    return _names(element_id)


def start_names() -> tuple[str, str]:
    return _names(START)


def message_names(name: str) -> tuple[str, str]:
    return _names(name + _MESSAGE)


def _base(filename: str) -> str:
    # Uploads keep only the base name; a name with a folder still counts by its last part.
    return filename.rsplit("/", 1)[-1]


def find(files: dict[str, str], name: str) -> dict | None:
    """A form file of a stored version, whatever folder it was uploaded from."""
    for filename, content in files.items():
        if _base(filename) == name:
            return json.loads(content)
    return None


def _form(files: dict[str, str], names: tuple[str, str]) -> Form:
    return Form(files, names)


def task_form(files: dict[str, str], element_id: str) -> Form:
    return _form(files, task_names(element_id))


def start_form(files: dict[str, str]) -> Form:
    return _form(files, start_names())


def message_form(files: dict[str, str], name: str) -> Form:
    return _form(files, message_names(name))


def has_task_form(files, element_id: str) -> bool:
    """Whether the version holds the task's schema; by name only, so a broken file still counts
    (deploy reports it as INVALID_FORM, not as a missing form)."""
    wanted = task_names(element_id)[0]
    return any(_base(n) == wanted for n in files)


def is_form_file(name: str) -> bool:
    return name.endswith(SUFFIXES)


def is_schema_file(name: str) -> bool:
    return name.endswith(SCHEMA)


def is_ui_file(name: str) -> bool:
    return name.endswith(UI)


def ui_beside(schema_name: str) -> str:
    """The UI file that goes with a schema file (same folder, same owner)."""
    if not is_schema_file(schema_name):
        raise ValueError(f"{schema_name!r} is not a form schema file")
    return schema_name[: -len(SCHEMA)] + UI


def form_owner(name: str) -> tuple[str, str | None] | None:
    """(kind, id) of the form a file belongs to: ("task", element id), ("start", None) or
    ("message", message name); None when the file is no form file."""
    base = _base(name)
    suffix = next((s for s in SUFFIXES if base.endswith(s)), None)
    if suffix is None:
        return None
    owner = base[: -len(suffix)]
    if owner == START:
        return START_KIND, None
    if owner.endswith(_MESSAGE) and len(owner) > len(_MESSAGE):
        return MESSAGE, owner[: -len(_MESSAGE)]
    return TASK, owner
