"""Corpus files today's code gets wrong: manifest path → (issue 14 item, what happens).

Found by running test_corpus.py on the code of this branch; each is an xfail(strict=True), so a
fix that makes one pass fails the suite until its line here is removed. HANG entries are not
run at all (each would hold a test worker for the hang guard's 20 s).

Empty since the fixes of issue 14 (pruning, stepping and budget, cycle timers, runtime failures as a
case in error, the deploy refusals, the signals API, multi-instance item views, the script clock):
every corpus diagram is now refused at deploy naming its element, or runs as SpiffWorkflow alone
runs it. A new entry needs a precise reason."""

HANG = "HANG"

KNOWN: dict[str, tuple[str, str]] = {}
