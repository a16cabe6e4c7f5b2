"""Writes engine/rules/rule_catalogue.json from the rules catalogue (RULES.md): each rule's text and source.

The case page shows a reason's rule text and article on expand; the engine must not read the
shared contracts folder at run time, so the catalogue is copied into the repository as data.
Run again when RULES.md changes:
    python3 scripts/rules_catalogue.py /work/shared/procedures/RULES.md engine/rules/rule_catalogue.json
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

RULE_LINE = re.compile(r"^\s*- \*\*(?P<id>(?:SUR|FAR|MAT|BID)-\d+[a-z]?)\*\*\s*(?:—\s*)?(?P<rest>.*)$")
TABLE_ROW = re.compile(r"^\| (?:\*\*)?(?P<id>(?:TC|AMB)-\d+[a-z]?)(?:\*\*)? \|(?P<cells>.*)\|\s*$")
QUOTE = re.compile(r"«(?P<text>[^»]*)»\s*\((?P<file>\d{3})_[0-9a-f]+\.txt\)")
SOURCE_ROW = re.compile(r"^\| (?P<short>\d{3}) \| `[^`]+` \| (?P<content>.+) \|\s*$")


def parse(text: str) -> dict:
    sources = {m["short"]: m["content"].strip() for m in map(SOURCE_ROW.match, text.splitlines()) if m}
    rules: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        if match := RULE_LINE.match(line):
            rest = match["rest"]
            quotes = [{"text": q["text"].strip(), "source": q["file"]} for q in QUOTE.finditer(rest)]
            statement = rest.split("«", 1)[0].rstrip(" —-")
            current = rules[match["id"]] = {"statement": _plain(statement), "quotes": quotes,
                                            "sources": list(dict.fromkeys(q["source"] for q in quotes))}
            continue
        if current is not None and line.startswith("  ") and line.strip():
            # A rule that lists its items on the lines below (MAT-09's documents): their wording is its own.
            quotes = [{"text": q["text"].strip(), "source": q["file"]} for q in QUOTE.finditer(line)]
            current["quotes"] += quotes
            current["sources"] = list(dict.fromkeys([*current["sources"], *(q["source"] for q in quotes)]))
            continue
        current = None
        if match := TABLE_ROW.match(line):
            cells = [c.strip() for c in match["cells"].split("|")]
            if match["id"].startswith("AMB"):
                procedure, issue, default = cells[0], cells[1], cells[2]
                statement = f"{issue} Default: {default}"
            else:
                statement = f"{cells[0]}: {cells[1]}"
            rules[match["id"]] = {"statement": _plain(statement), "quotes": [], "sources": []}
    _parents(rules)
    _lettered_items(rules)
    return {"sources": sources, "rules": dict(sorted(rules.items()))}


def _parents(rules: dict) -> None:
    # SUR-03 is cited as a whole although the catalogue lists only its items a–d.
    for rule_id in list(rules):
        parent = rule_id.rstrip("abcdefghij")
        if parent != rule_id and parent not in rules:
            items = [rules[r] for r in sorted(rules) if r.rstrip("abcdefghij") == parent and r != parent]
            rules[parent] = {"statement": " ".join(i["statement"] for i in items),
                             "quotes": [q for i in items for q in i["quotes"]],
                             "sources": list(dict.fromkeys(s for i in items for s in i["sources"]))}


def _lettered_items(rules: dict) -> None:
    # BID-35 lists causes (a)–(c) in one line, one quote each; the rules cite them as BID-35a…c.
    for rule_id, entry in list(rules.items()):
        items = re.findall(r"\(([a-h])\) ([^;(]+)", entry["statement"])
        if len(items) > 1 and len(items) == len(entry["quotes"]):
            for (letter, item), quote in zip(items, entry["quotes"]):
                rules.setdefault(f"{rule_id}{letter}", {"statement": item.strip(" ."), "quotes": [quote],
                                                        "sources": [quote["source"]]})


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("**", "").replace("`", "")).strip()


def main(argv: list[str]) -> None:
    source, target = Path(argv[1]), Path(argv[2])
    target.write_text(json.dumps(parse(source.read_text(encoding="utf-8")), ensure_ascii=False, indent=1) + "\n",
                      encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv)
