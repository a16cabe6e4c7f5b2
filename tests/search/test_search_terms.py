"""PostgreSQL keeps each case's search text cut into terms (migration 0034: its words and pairs of
neighbouring words, engine/queries/search_terms.py): the term tables hold exactly the terms of every
case's current text through its start, a save that renames the applicant, the retention purge and a
TRUNCATE; and a search through them finds, page by page and in its total, exactly the cases the plain
LIKE over every row finds, for needles of one, two and more words, wildcards, accents and words longer
than a term may be."""
from __future__ import annotations

import random
import threading

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from engine.commands import retention as job
from engine.commands.cases import start_case
from engine.config import retention
from engine.identity.actor import SYSTEM, Actor
from engine.persistence import term_prune as term_store
from engine.queries import case_search, cases, search_terms
from tests.search.test_search_table import DENIED, _flow, _start
from tests.search.test_search_totals import ACTORS, FILTERS

LONG_WORD = "x" * 150 + "largo" + "y" * 150  # over 0034's TERM_MAX: kept as the empty term, rechecked
NAMES = ["Ana Núñez", "Eva a|b | c", "Colón| 5", "María del Carmen Núñez Colón", "Colón 100% Ortiz",
         "Luis_Ortiz Cruz", f"Pedro {LONG_WORD}", "Núñez Núñez Núñez"]
NEEDLES = ["nunez", "núñez colon", "del carmen nunez", "carmen nunez colon", "ez co", "colon 100%", "100%",
           "%", "_", "s_o", "e", "o", "zz", "largo", "pedro", "pedro xxx", f"pedro {LONG_WORD}", "yyy | cid",
           "nunez nunez", "| cidra", "|", "cidra", "5 | c", "00 |", "colon|", "|x", "solicitante nunez 00", "nunez 01",
           "humacao clerk", "clerk 1", "olicit"]


@pytest.fixture(autouse=True)
def postgresql_only(engine):
    if engine.db.is_sqlite:
        pytest.skip("the term tables are PostgreSQL's (0034); this test runs in the PostgreSQL phase")


def terms_of(search_text: str) -> set[str]:
    """Its words and pairs of neighbouring words, but not the values' separator nor a pair across it."""
    words = search_text.split(" ")
    every = {w for w in words if w != "|"} | {f"{a} {b}" for a, b in zip(words, words[1:]) if "|" not in (a, b)}
    return {search_terms.LONG if len(t) > 200 else t for t in every}


COPIED = "started_at, process_key, definition_id, office, started_by"


def assert_terms_in_step(engine) -> dict[int, set[str]]:
    """Each case's term rows are its text's terms, each with the case's copied columns."""
    with engine.db.reading() as session:
        held: dict[int, set] = {}
        for instance_id, term, *copied in session.execute(text(
                f"SELECT instance_id, term, {COPIED} FROM case_search_term")):
            held.setdefault(instance_id, set()).add((term, *copied))
        wanted = {i: {(t, *copied) for t in terms_of(search_text)} for i, search_text, *copied in session.execute(
            text(f"SELECT instance_id, search_text, {COPIED} FROM case_search WHERE search_text IS NOT NULL"))}
        distinct = set(session.execute(text("SELECT term FROM search_term")).scalars())
    assert held == wanted
    terms = {i: {row[0] for row in rows} for i, rows in held.items()}
    assert set().union(*terms.values()) - {search_terms.LONG} <= distinct
    return terms


def _lists(engine, monkeypatch, *, through_terms: bool) -> dict:
    """Every actor's pages (ids) and totals of every needle and filter, through the arms or the plain OR."""
    with monkeypatch.context() as m:
        if not through_terms:
            m.setattr(case_search, "indexed", lambda session: False)
        out = {}
        for actor in ACTORS:
            for q in NEEDLES:
                for f in FILTERS:
                    for page in (1, 2, 3):
                        items, total = engine.read(cases.list_instances, actor, engine.now, page=page, per_page=2,
                                                   q=q, **f)
                        out[(actor.username, q, str(f), page)] = ([i["id"] for i in items], total)
        return out


def test_the_terms_find_what_the_like_finds_page_by_page(engine, api, searched, monkeypatch):
    api.deploy("test_rules", _flow())
    clerk = Actor("caguas_clerk", frozenset({"test_clerk"}), "Caguas")
    for name in NAMES:
        engine.execute(start_case, clerk, "test_rules", {"applicant": {"name": name, "municipality": "Cidra"}})
    held = assert_terms_in_step(engine)
    assert any(search_terms.LONG in terms for terms in held.values())
    with engine.db.reading() as session:  # the needles of one and two words go through the terms
        assert all(search_terms.TextArm(session, q).usable for q in ("nunez", "nunez colon", "largo"))
    through, plain = (_lists(engine, monkeypatch, through_terms=t) for t in (True, False))
    assert {k: (v, plain[k]) for k, v in through.items() if v != plain[k]} == {}
    monkeypatch.setattr(search_terms, "TERMS", 1)  # a needle matching more terms: its trigram arm
    with engine.db.reading() as session:
        assert not search_terms.TextArm(session, "e").usable and search_terms.TextArm(session, "largo").usable
    assert _lists(engine, monkeypatch, through_terms=True) == plain
    found = {k: v for k, v in plain.items() if v[1]}
    assert len(found) > len(plain) / 3 and len({v[1] for v in found.values()}) > 5  # they compare something
    assert plain[("boss", "largo", "{}", 1)][1] == 1 and plain[("boss", "nunez nunez", "{}", 1)][1] == 1


def test_the_terms_follow_a_renamed_applicant_the_purge_and_a_truncate(api, engine, tmp_path, monkeypatch):
    monkeypatch.setattr(retention, "periods", lambda: {"test_rules": 3})
    api.deploy("test_rules", _flow())
    ana, bea = (_start(api, name) for name in ("Ana Núñez", "Bea Torres Núñez"))
    assert_terms_in_step(engine)
    task = api.open_task(ana, "intake")
    api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk",
             {"data": {**DENIED, "applicant": {"name": "Ana Vega", "municipality": "Cidra"}}})
    held = assert_terms_in_step(engine)
    assert "ana vega" in held[ana["id"]] and "ana nunez" not in held[ana["id"]]
    numbers = lambda q: sorted(c["case_number"] for c in api.get(f"/api/v1/instances?q={q}", "boss"))  # noqa: E731
    assert numbers("ana nunez") == [] and numbers("ana vega") == [ana["case_number"]]
    assert numbers("nunez") == [bea["case_number"]]
    with engine.db.transaction() as session:  # an office move, as the offices' commands write it
        session.execute(text("UPDATE process_instance SET office = 'Humacao' WHERE id = :id"), {"id": bea["id"]})
    assert assert_terms_in_step(engine)[bea["id"]] and numbers("bea torres") == [bea["case_number"]]

    api.post(f"/api/v1/instances/{bea['id']}/cancel", "boss", {"reason": "desistió"})
    live = _start(api, "Cruz Vega")
    api.move_clock("2029-01-01T12:00:00-04:00")  # past the three years: the ended cases are removed
    assert sorted(job.run(engine, folder=tmp_path).archived) == sorted([ana["case_number"], bea["case_number"]])
    assert set(assert_terms_in_step(engine)) == {live["id"]}
    with engine.db.reading() as session:  # the removed cases' own terms go; one a live case holds stays
        distinct = set(session.execute(text("SELECT term FROM search_term")).scalars())
    assert {"vega", "cidra"} <= distinct and not {"ana vega", "bea torres", "torres nunez", "bea"} & distinct

    keep = _start(api, "Cruz Ortiz")
    assert set(assert_terms_in_step(engine)) == {live["id"], keep["id"]}
    with engine.db.transaction() as session:
        session.execute(text("TRUNCATE case_search"))
    with engine.db.reading() as session:
        assert session.execute(text("SELECT (SELECT count(*) FROM case_search_term) + "
                                    "(SELECT count(*) FROM search_term)")).scalar() == 0


def test_starts_adding_the_same_new_words_at_once_all_land(engine, api):
    """Two clerks start cases whose names bring the same words, new to the database, in other orders:
    the terms are inserted in order, so one start waits for the other's commit; none fails or hangs."""
    api.deploy("test_rules", _flow())
    words = [f"nuevo{i}" for i in range(12)]
    clerk = Actor("clerk", frozenset({"test_clerk"}))
    failures: list[BaseException] = []

    def starts(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(15):
                name = " ".join(rng.sample(words, 6))
                engine.execute(start_case, clerk, "test_rules", {"applicant": {"name": name, "municipality": "Cidra"}})
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=starts, args=(seed,)) for seed in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)  # a generous bound: proves "does not hang", times nothing
    assert not any(t.is_alive() for t in threads) and failures == []
    held = assert_terms_in_step(engine)
    assert len(held) == 45
    boss = Actor("boss", frozenset({"supervisor"}))
    for word in ("nuevo1", "nuevo11", "nuevo2 nuevo3"):  # "nuevo1" is also in "nuevo10" and "nuevo11"
        assert engine.read(cases.list_instances, boss, engine.now, q=word)[1] == sum(
            any(word in term for term in terms) for terms in held.values())


def test_the_prune_waits_for_a_start_that_found_the_term_there(engine, api):
    """A case takes a word another case alone held, in a transaction still open when that other case is
    removed: the retention job's prune waits for it (here: gives up at its lock timeout), and after
    its commit keeps the word, so the case is still found."""
    api.deploy("test_rules", _flow())
    leaving, staying = (_start(api, name) for name in ("Zeta Uno", "Otro Nombre"))
    url = make_url(engine.db.url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url) as other:  # a transaction that finds "zeta" in search_term, not yet committed
        other.execute("UPDATE process_instance SET search_text = 'zeta' WHERE id = %s", (staying["id"],))
        with engine.db.transaction() as session:
            session.execute(text("DELETE FROM case_search WHERE instance_id = :id"), {"id": leaving["id"]})

        def impatient(ctx, terms):
            ctx.conn.execute(text("SET LOCAL lock_timeout = '200ms'"))
            return term_store.prune(ctx, terms)
        with pytest.raises(Exception, match="lock timeout"):
            engine.execute(impatient, SYSTEM, ["zeta"])
        other.commit()
    assert engine.execute(term_store.prune, SYSTEM, ["zeta", "uno"]) == 1  # "uno": nobody holds it now
    boss = Actor("boss", frozenset({"supervisor"}))
    items, total = engine.read(cases.list_instances, boss, engine.now, q="zeta")
    assert total == 1 and [i["id"] for i in items] == [staying["id"]]
