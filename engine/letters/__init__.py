"""Letters: every written notice a procedure's rules require, generated as a PDF/A-3b letter.

kinds.py + kinds/*.json   the letter kinds as data (step that gives each, rules, words es/en, remedy term)
sources.py                who each kind goes to and what it tells them, from the case's data
assemble.py               a step's view of the case → `Letter` values (remedy's last day by the calendar)
render.py                 a `Letter` → PDF bytes (Jinja templates/ → WeasyPrint, PDF/A-3b)
issue.py                  the hook a command calls before saving a case: letters stored and linked
samples.py                the sample cases the process owner's preview draws from
"""
