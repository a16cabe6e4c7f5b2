"""Plays one scenario on both sides with the same inputs and compares what they did."""
from __future__ import annotations

from tests.conformance.library_player import LibraryPlayer
from tests.conformance.outcome import Diverged, Outcome, Refused, iso, parse_duration
from tests.conformance.scenario import Scenario
from tests.conformance.tramite_player import TramitePlayer, assert_not_stuck, no_hang

LIBRARY_SECONDS = 90   # the library alone on a 2,000-round loop takes seconds; a runaway is reported


def refusal_names_an_element(errors: dict) -> bool:
    """The refusal says where: each key of `errors` is an element id, or the uploaded file for what has
    no element (XML that does not parse, schema errors with their line) — never empty or "definition"."""
    keys = list(errors or {})
    return bool(keys) and all(k and k != "definition" for k in keys)


def _apply(player, step):
    kind, *args = step
    if kind == "complete":
        player.complete(*args)
    elif kind == "message":
        player.message(*args)
    elif kind == "wait":
        player.wait(*args)
    elif kind == "signal":
        player.signal(*args)
    else:
        raise ValueError(step)


def _resolved(variables: dict, start) -> dict:
    """'@+PT2H' stands for the instant two hours after the scenario's start (the clock is shared)."""
    return {k: (iso(start + parse_duration(v[2:])) if isinstance(v, str) and v.startswith("@+") else v)
            for k, v in variables.items()}


def play(api, scenario: Scenario) -> tuple[Outcome, Outcome]:
    files = scenario.files()
    tramite = TramitePlayer(api)
    try:
        tramite.deploy(scenario.key, files)
    except Refused as refusal:
        if scenario.refused is None:
            raise
        if not refusal_names_an_element(refusal.errors):
            raise Refused(f"refused without naming an element: {refusal.errors}") from None
        codes = " ".join(m for ms in refusal.errors.values() for m in ms)
        if scenario.refused not in codes:
            raise Refused(f"refused with {refusal.errors}, not {scenario.refused}") from None
        return None, None
    if scenario.refused is not None:
        raise Refused(f"deployed, but Tramite promises to refuse it with {scenario.refused}")
    start = tramite.clock()
    library = LibraryPlayer(files, scenario.key, start)
    variables = _resolved(scenario.variables, start)
    try:
        tramite.start(dict(variables))
        # Tramite hands every case its number as a start variable: the library gets the same input.
        with no_hang(LIBRARY_SECONDS):
            library.start({**variables, "case_number": tramite.case["case_number"]})
        for step in scenario.steps:
            library_error = None
            try:
                with no_hang(LIBRARY_SECONDS):
                    _apply(library, step)
            except LookupError as exc:
                library_error = exc
            try:
                _apply(tramite, step)
            except LookupError as exc:
                raise Diverged(f"step {step}: {exc} (library: {library_error or 'ok'})") from None
            if library_error:
                raise Diverged(f"step {step}: Tramite took it, the library could not: {library_error}")
        expected, got = library.finish(), tramite.finish()
    finally:
        tramite.stop()
    assert_not_stuck(got)
    compare(scenario, expected, got)
    return expected, got


def compare(scenario: Scenario, expected: Outcome, got: Outcome) -> None:
    if scenario.allow_error and got.state == "error" and got.error_element:
        return  # a budget stopped it, naming the element: allowed, never a wrong "completed"
    problems = []
    if expected.state != got.state:
        problems.append(f"state: library {expected.state}, Tramite {got.state}")
    if expected.error_element != got.error_element:
        problems.append(f"error element: library {expected.error_element!r}, Tramite {got.error_element!r}")
    if expected.steps != got.steps:
        problems.append(f"path: library {expected.steps}, Tramite {got.steps}")
    if expected.human_path != got.human_path:
        problems.append(f"tasks completed (history): library {expected.human_path}, Tramite {got.human_path}")
    if expected.open_tasks != got.open_tasks:
        problems.append(f"open tasks: library {expected.open_tasks}, Tramite {got.open_tasks}")
    # A finished library workflow keeps only what its end events copied into `workflow.data`, and a
    # task that failed may not have inherited its data yet; Tramite also shows the last finished
    # step's data. There, every value the library has must be shown, the same; a key the library
    # no longer holds is not a difference.
    shown = ({k: v for k, v in got.data.items() if k in expected.data}
             if expected.state in ("completed", "error") else got.data)
    if expected.data != shown:
        keys = sorted(set(expected.data) | set(shown))
        diff = {k: (expected.data.get(k, "<absent>"), shown.get(k, "<absent>")) for k in keys
                if expected.data.get(k, "<absent>") != shown.get(k, "<absent>")}
        problems.append(f"data (library, Tramite): {diff}")
    if problems:
        raise Diverged(f"{scenario.key}: " + "; ".join(problems))
