"""Which variables of a case say who it is about, and the search columns made from them.

Each procedure declares, per process, the paths of its applicant's name, id and municipality and of
its reference numbers (registry, beneficiary, bid, inventory) in `engine/procedures/<p>/case_index.json`;
the case row carries them as columns (kept at every save, `engine/runtime/projections.py`) so the
case list shows and searches them without reading any case's variables.

A path is dotted (`applicant.name`); `[]` walks every item of a list (`offers[].bidder_id`).
`search_text` holds every declared value folded (lower case, accents removed), so "maria" finds
"María" with one `LIKE` on SQLite and PostgreSQL alike (a trigram index serves it there, 0016).
"""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SHOWN = ("applicant_name", "applicant_id", "municipality", "reference")
# Column widths (0016): a longer value is cut for showing; search_text keeps up to its own bound.
WIDTHS = {"applicant_name": 200, "applicant_id": 100, "municipality": 100, "reference": 100}
SEARCH_TEXT_MAX = 4000
COLUMNS = (*SHOWN, "search_text")


@dataclass(frozen=True)
class CaseIndex:
    applicant_name: tuple[str, ...] = ()
    applicant_id: tuple[str, ...] = ()
    municipality: tuple[str, ...] = ()
    reference: tuple[str, ...] = ()
    search_also: tuple[str, ...] = ()  # searched, never shown (bidders of a bid, requesters of an item)
    # A case started by another (a farmer's membership case) shows its parent's applicant when the
    # variables name none of their own.
    inherit_from_parent: bool = False

    @classmethod
    def from_dict(cls, data: dict) -> "CaseIndex":
        unknown = set(data) - {*SHOWN, "search_also", "inherit_from_parent"}
        if unknown:
            raise ValueError(f"case index: unknown keys {sorted(unknown)}")
        return cls(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()})


# A diagram deployed under a key no procedure declares: the contracts' common shape.
DEFAULT = CaseIndex(applicant_name=("applicant.name",), applicant_id=("applicant.id",),
                    municipality=("applicant.municipality",))


def load(path: Path) -> dict[str, CaseIndex]:
    """{process key: CaseIndex} from a procedure's `case_index.json`."""
    return {key: CaseIndex.from_dict(value) for key, value in json.loads(path.read_text("utf-8")).items()}


def fold(text: str) -> str:
    """Lower case without accents or runs of blanks: how both the column and the query compare."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def values_at(data, path: str) -> list[str]:
    """Every text or number found at `path` in `data` (booleans, dicts and empties are skipped)."""
    found = [data]
    for part in path.split("."):
        each = part.endswith("[]")
        name = part[:-2] if each else part
        step = []
        for item in found:
            value = item.get(name) if isinstance(item, dict) else None
            if each:
                step.extend(value if isinstance(value, list) else [])
            elif value is not None:
                step.append(value)
        found = step
    return [str(v).strip() for v in found
            if isinstance(v, (str, int, float)) and not isinstance(v, bool) and str(v).strip()]


def project(index: CaseIndex, variables: dict, inherited: dict | None = None) -> dict:
    """The case row's index columns from its variables; `inherited`: the parent's columns, used
    when the index says so and the variables name no applicant."""
    shown, searched = {}, []
    for column in SHOWN:
        values = [v for path in getattr(index, column) for v in values_at(variables, path)]
        searched.extend(values)
        shown[column] = values[0][:WIDTHS[column]] if values else None
    for path in index.search_also:
        searched.extend(values_at(variables, path))
    if index.inherit_from_parent and inherited and not shown["applicant_name"]:
        for column in ("applicant_name", "applicant_id", "municipality"):
            if not shown[column] and inherited.get(column):
                shown[column] = inherited[column]
                searched.append(inherited[column])
    unique = list(dict.fromkeys(fold(v) for v in searched if fold(v)))
    shown["search_text"] = " | ".join(unique)[:SEARCH_TEXT_MAX] or None
    return shown
