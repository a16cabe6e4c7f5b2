"""Find what a Spanish page shows untranslated: internal codes, English words, ids, variable paths.

    from tests.support.spanish_check import untranslated
    problems = untranslated(html, allow=["maria.rivera", "Pedro Santiago"])
    assert not problems, problems

`untranslated(html, allow=())` takes the HTML of a page rendered in Spanish and returns a list of
strings, one per problem found (empty: the page is clean), each naming the kind, the token and the
text around it, e.g. `"code 'DENIED' in '… Etapa: DENIED · Iniciado …'"`. It reads what a person
sees or hears: text nodes and the `title`, `aria-label`, `alt` and `placeholder` attributes. It
skips `<script>`, `<style>`, `<template>`, `<textarea>` (a value being edited), `<pre>` (the raw JSON a page offers under "Todas las
variables (JSON)"), `<code>` (a code shown *beside* its label so a clerk can quote it) and any
element marked as another language (`lang="en"`: a role's English label on the roles page).

It reports:
- `code`: UPPER_SNAKE values (`DENIAL_FINAL`) and the one-word codes of the procedures' label data
  (`DENIED`, `EVALUATION`, …);
- `id`: snake_case identifiers (`registry_clerk`, `merge_evaluation`, `income_share_pct`);
- `path`: dotted variable or parameter paths (`eligibility.income_share_pct`, `farmer.reviewDays`);
- `english`: words that only the English side uses — the English catalogue's msgstrs, the `en`
  labels of `processes/*/labels.json` and `roles.json` — minus every word the Spanish side uses.

What legitimately stays is not reported: case numbers (`FAR-2024-000001`), rule ids (`FAR-04`,
`AMB-18`, `TC-1`: citations), numbers, amounts, dates, and the strings in `allow` (user names,
proper nouns, figures typed by the test), wherever they stand as whole words. (A demo user named
like its role, `registry_clerk`, therefore also hides that id shown as a lane: name test users
otherwise where it matters.)
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "api" / "web" / "translations" / "en" / "LC_MESSAGES" / "messages.po"
PROCESSES = REPO / "processes"

# <textarea>: what it holds is the value being edited (a list parameter as JSON), like an input's value.
SKIPPED = {"script", "style", "template", "pre", "code", "textarea"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
READ_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]+")
UPPER_SNAKE = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])")
SNAKE = re.compile(r"(?<![\w.@/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-])")
DOTTED = re.compile(r"(?<![\w.@/-])[a-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?![\w@/(-])")
# Case numbers (FAR-2024-000001) and rule ids (FAR-04, AMB-18, TC-1): they stay as written.
FILE_NAME = re.compile(r"[\w.-]+\.(?:pdf|png|jpe?g|tiff?|odt|docx|zip)\b", re.IGNORECASE)
CITATION = re.compile(r"(?<![\w-])[A-Z]{2,6}-[A-Za-z0-9]*\d[A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?![\w-])")
# Words both languages write, or that name a language or a format: never reported as English.
SHARED = {"english", "español", "json", "csv", "bpmn", "pdf", "id", "ok", "tramite", "trámite", "email",
          "e", "a", "o", "y", "u", "x", "final", "general", "total", "normal", "error", "local", "portal",
          "social", "plan", "no", "sin", "mayor", "supervisor", "material", "regional", "central", "municipal",
          "original", "legal", "manual", "federal", "personal", "similar", "visual", "actual",
          # Spanish month abbreviations in dates ("2 may 2024")
          "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"}


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)[sd]", " ", text))}


def _po_pairs(path: Path) -> list[tuple[str, str]]:
    pairs, current, key = [], {"msgid": "", "msgstr": ""}, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        if line.startswith("msgid_plural"):
            key = "msgid"
            current[key] += " " + json.loads(line.split(" ", 1)[1])
        elif line.startswith(("msgid ", "msgstr ", "msgstr[")):
            word = line.split(" ", 1)[0]
            key = "msgid" if word == "msgid" else "msgstr"
            if word == "msgid" and current["msgid"]:
                pairs.append((current["msgid"], current["msgstr"]))
                current = {"msgid": "", "msgstr": ""}
            current[key] += (" " if key == "msgstr" and current[key] else "") + json.loads(line.split(" ", 1)[1])
        elif line.startswith('"') and key:
            current[key] += json.loads(line)
    if current["msgid"]:
        pairs.append((current["msgid"], current["msgstr"]))
    return pairs


def _label_pairs() -> tuple[list[tuple[str, str]], set[str]]:
    """(es, en) of every label of the procedures' data and the roles; and the one-word codes."""
    pairs, codes = [], set()

    def walk(node, key=None):
        if isinstance(node, dict):
            if isinstance(node.get("es"), str) and isinstance(node.get("en"), str):
                pairs.append((node["es"], node["en"]))
                if key and re.fullmatch(r"[A-Z][A-Z0-9]+", key):
                    codes.add(key)
            for child_key, child in node.items():
                walk(child, child_key)
        elif isinstance(node, list):
            for child in node:
                walk(child)
    for path in sorted(PROCESSES.glob("*/labels.json")) + sorted(PROCESSES.glob("labels.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    roles = PROCESSES / "roles.json"
    if roles.is_file():
        for role in json.loads(roles.read_text(encoding="utf-8")):
            pairs.append((role["label_es"], role["label_en"]))
            pairs.append((role["label_es"], role["id"]))
    return pairs, codes


@lru_cache(maxsize=1)
def vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """(English-only words, one-word codes), from the catalogue and the label data."""
    pairs = _po_pairs(CATALOGUE) if CATALOGUE.is_file() else []
    labels, codes = _label_pairs()
    pairs += labels
    spanish = set().union(*(_words(es) for es, _en in pairs)) if pairs else set()
    english = set().union(*(_words(en) for _es, en in pairs)) if pairs else set()
    return frozenset(english - spanish - SHARED), frozenset(codes)


def _foreign(attrs) -> bool:
    lang = dict(attrs).get("lang")
    return bool(lang) and not lang.lower().startswith("es")


class _Reader(HTMLParser):
    """The text a person reads, as (text, whole text of its element?) pieces."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.foreign: list[bool] = []  # beside `stack`: the element is marked as another language
        self.skipping = 0
        self.pieces: list[str] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and not self.skipping:
                self.attributes.append(value)
        if tag in VOID:
            return
        self.stack.append(tag)
        self.foreign.append(tag not in SKIPPED and _foreign(attrs))
        if tag in SKIPPED or self.foreign[-1]:
            self.skipping += 1
        self.pieces.append("\x00")  # an element boundary

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID or tag not in self.stack:
            return
        while self.stack:
            top = self.stack.pop()
            foreign = self.foreign.pop() if self.foreign else False
            if top in SKIPPED or foreign:
                self.skipping -= 1
            if top == tag:
                break
        self.pieces.append("\x00")

    def handle_data(self, data):
        if not self.skipping:
            self.pieces.append(data)


def _context(text: str, start: int, end: int) -> str:
    return re.sub(r"\s+", " ", "…" + text[max(0, start - 40):end + 40] + "…")


def _scan(text: str, english: frozenset[str], codes: frozenset[str]) -> list[str]:
    found = []
    original = text
    text = CITATION.sub(lambda m: " " * len(m.group()), text)
    for kind, pattern in (("code", UPPER_SNAKE), ("path", DOTTED), ("id", SNAKE)):
        for match in pattern.finditer(text):
            found.append(f"{kind} {match.group()!r} in {_context(original, match.start(), match.end())!r}")
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    for match in WORD.finditer(text):
        word = match.group()
        if len(word) == 1:  # a letter: a term of a formula (E + N días), an initial
            continue
        if word in codes:
            found.append(f"code {word!r} in {_context(original, match.start(), match.end())!r}")
        elif word.lower() in english:
            found.append(f"english {word!r} in {_context(original, match.start(), match.end())!r}")
    return found


def readable_text(html: str) -> list[str]:
    """The page's readable pieces: each element's own text runs, then the read attributes."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    runs = [unescape(run) for run in "".join(reader.pieces).split("\x00")]
    return [run for run in runs if run.strip()] + reader.attributes


def untranslated(html: str, allow: Iterable[str] = ()) -> list[str]:
    """Everything untranslated the Spanish page `html` shows (see the module's docstring)."""
    english, codes = vocabulary()
    allowed = sorted({a.strip() for a in allow if a and a.strip()}, key=len, reverse=True)
    hide = re.compile("|".join(rf"(?<![\w.-]){re.escape(a)}(?![\w-])" for a in allowed)) if allowed else None
    problems: list[str] = []
    for piece in readable_text(html):
        # A file's name (a document in the expediente) is data, as a case number is.
        piece = FILE_NAME.sub(lambda m: " " * len(m.group()), piece)
        if hide is not None:
            piece = hide.sub(lambda m: " " * len(m.group()), piece)
        for problem in _scan(piece, english, codes):
            if problem not in problems:
                problems.append(problem)
    return problems
