"""The Regional Offices and the towns each serves (MAT-08) as shipped: the seed of the managed
office list (engine/registries/offices.py), which is what materials aid reads.

`processes/materials_aid/regional_offices.json` is read once and again whenever it changes; offices
it names that the list lacks are added at start-up, and an admin corrects them afterwards in the
list (Administración › Oficinas). The `id` of an office is the `office` of its staff accounts.
"""
from __future__ import annotations

import json
from pathlib import Path

from engine.config.paths import processes_dir

FILE = Path("materials_aid") / "regional_offices.json"
_BUNDLED = Path(__file__).resolve().parents[2] / "processes" / FILE
_cache: dict[Path, tuple[float, dict]] = {}


def _path() -> Path:
    configured = processes_dir() / FILE
    return configured if configured.is_file() else _BUNDLED


def directory() -> dict:
    """{"offices": [{"id", "name", "municipalities": [...]}, ...]}"""
    path = _path()
    stamp = path.stat().st_mtime
    cached = _cache.get(path)
    if cached is None or cached[0] != stamp:
        _cache[path] = (stamp, json.loads(path.read_text(encoding="utf-8")))
    return _cache[path][1]


def offices() -> list[dict]:
    return [{"id": o["id"], "name": o["name"], "name_en": o.get("name_en") or o["name"],
             "municipalities": list(o["municipalities"])}
            for o in directory()["offices"]]
