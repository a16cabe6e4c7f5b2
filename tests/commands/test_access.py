"""Every command that changes users, roles, tokens, parameters, registries, the clock or the
deployed processes checks its own access: called directly, past any route or page, by someone
without the role it needs, it is refused (403) and changes nothing."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from engine.commands import accounts, clock, deploy, notifications, offices, parameters, registries, setup, timers
from engine.commands import timer_lot
from engine.errors import Forbidden
from engine.identity.actor import SYSTEM, Actor
from engine.registries.notifications import SmtpSettings
from engine.queries import accounts as account_queries, dashboard
from tests.conftest import PASSWORD, USERS
from tests.support.diagrams import rules_flow


def who(username: str) -> Actor:
    return Actor(username, frozenset(USERS[username]))


NOT_ADMINS = ("clerk", "boss", "owner")
SANCTION = {"kind": "ban", "from_": date(2024, 3, 1), "months": 12, "reason": "colusión"}

# (command, arguments): each an admin's alone.
ADMIN_COMMANDS = {
    "add_role": (accounts.add_role, ("test_auditor", "Auditor", "Auditor")),
    "create_user": (accounts.create_user, ("newcomer", PASSWORD, ["test_clerk"])),
    "update_user": (accounts.update_user, ("clerk",), {"full_name": "Otro nombre"}),
    "set_active": (accounts.set_active, ("clerk", False)),
    "reset_password": (accounts.reset_password, ("reviewer",)),
    "create_office": (offices.create, ("Vieques", "Oficina de Vieques")),
    "update_office": (offices.update, ("Vieques",), {"active": False}),
    "set_parameter": (parameters.set_parameter, ("bid.banMaxMonths", 24)),
    "preview_parameter": (parameters.preview_parameter, ("bid.banMaxMonths", 24)),
    "create_farmer": (registries.create_farmer, (), {"id": "F-900", "name": "Ana", "producer_type": "agricultor"}),
    "correct_farmer": (registries.correct_farmer, ("F-900", {"name": "Ana Rosa"})),
    "create_bidder": (registries.create_bidder, (), {"id": "LIC-1", "name": "Sol", "sanction": SANCTION}),
    "correct_bidder": (registries.correct_bidder, ("LIC-1",), {"lift_sanctions": True}),
    "rename_bidder": (registries.rename_bidder, ("LIC-1", "Sol, Inc.")),
    "add_bidder_sanction": (registries.add_bidder_sanction, ("LIC-1", SANCTION)),
    "lift_bidder_sanctions": (registries.lift_bidder_sanctions, ("LIC-1",)),
    "create_beneficiary": (registries.create_beneficiary, (), {"id": "REC-1", "name": "Luis"}),
    "correct_beneficiary": (registries.correct_beneficiary, ("REC-1", {"name": "Luis Ortiz"})),
    "create_store": (registries.create_store, (), {"id": "RL-1", "name": "Ferretería"}),
    "correct_store": (registries.correct_store, ("RL-1", {"registered": False})),
}


def _call(engine, actor, entry):
    command, args, *kwargs = entry
    return engine.execute(command, actor, *args, **(kwargs[0] if kwargs else {}))


@pytest.mark.parametrize("name", ADMIN_COMMANDS)
@pytest.mark.parametrize("username", NOT_ADMINS)
def test_an_admin_command_refuses_everyone_else(engine, name, username):
    with pytest.raises(Forbidden, match="only an admin may"):
        _call(engine, who(username), ADMIN_COMMANDS[name])


def test_the_same_commands_run_for_an_admin_and_refused_ones_changed_nothing(engine):
    with pytest.raises(Forbidden):
        _call(engine, who("boss"), ADMIN_COMMANDS["create_user"])
    assert "newcomer" not in {u["username"] for u in engine.read(account_queries.list_users, SYSTEM)}
    for name in ADMIN_COMMANDS:  # in table order: each entry is made before it is corrected
        _call(engine, who("admin"), ADMIN_COMMANDS[name])
    assert "newcomer" in {u["username"] for u in engine.read(account_queries.list_users, SYSTEM)}


@pytest.mark.parametrize("query, args", [(account_queries.list_users, ()),
                                         (account_queries.get_user, ("clerk",)),
                                         (account_queries.password_is, ("clerk", PASSWORD))])
def test_reading_accounts_is_an_admin_s(engine, query, args):
    with pytest.raises(Forbidden):
        engine.read(query, who("boss"), *args)
    engine.read(query, who("admin"), *args)


def test_the_dashboard_is_for_those_who_see_every_case(engine):
    with pytest.raises(Forbidden):
        engine.read(dashboard.overview, who("clerk"), engine.now())
    assert "stages" in engine.read(dashboard.overview, who("boss"), engine.now())


def test_a_token_is_revoked_by_its_holder_or_an_admin_only(engine):
    token = accounts.log_in(engine, "clerk", PASSWORD, "test")["token"]
    with pytest.raises(Forbidden):
        engine.execute(accounts.revoke_token, who("reviewer"), token)
    engine.execute(accounts.revoke_token, who("clerk"), token)
    other = accounts.log_in(engine, "clerk", PASSWORD, "test")["token"]
    engine.execute(accounts.revoke_token, who("admin"), other)


@pytest.mark.parametrize("username", ("clerk", "boss", "owner"))
def test_only_an_admin_moves_the_clock_and_no_timer_fires_for_a_refused_move(engine, username):
    before = engine.now()
    with pytest.raises(Forbidden, match="move the clock"):
        clock.move_clock(engine, who(username), before + timedelta(days=3))
    with pytest.raises(Forbidden):
        engine.execute(clock.set_clock, who(username), engine.clock, before + timedelta(days=3))
    assert engine.now() == before
    clock.move_clock(engine, who("admin"), before + timedelta(days=3))
    assert engine.now() == before + timedelta(days=3)


@pytest.mark.parametrize("command, args", [
    (deploy.deploy, ("test_rules", rules_flow())),
    (deploy.deploy_uploads, ("test_rules", [(n, c.encode()) for n, c in rules_flow().items()])),
    (deploy.deploy_edit, ("test_rules", None, "<definitions/>", {})),
])
@pytest.mark.parametrize("username", ("clerk", "boss"))
def test_only_a_process_owner_deploys(engine, command, args, username):
    with pytest.raises(Forbidden, match="only a process owner may deploy"):
        engine.execute(command, who(username), *args)


def test_a_process_owner_deploys_and_edits_a_version(engine):
    files = [(n, c.encode()) for n, c in rules_flow().items()]
    answer, created = engine.execute(deploy.deploy_uploads, who("owner"), "test_rules", files)
    assert created and answer["version"] == 1
    xml = next(c for n, c in rules_flow().items() if n.endswith(".bpmn"))
    again, created = engine.execute(deploy.deploy_edit, who("owner"), "test_rules", None, xml, {})
    assert not created and again == answer


@pytest.mark.parametrize("command, args", [
    (timers.lease_due_timers, ("a-worker",)), (timers.next_due_timer, (None,)), (timers.fire_timer, (1,)),
    (timers.record_failure, (1, "boom")), (timer_lot.fire_timers, ([1],)), (notifications.deliver_outbox, (SmtpSettings(host="localhost"),)),
    (setup.seed_catalogues, ()),
])
def test_the_engine_s_own_commands_refuse_every_person_even_an_admin(engine, command, args):
    args = tuple(engine.now() if a is None else a for a in args)
    with pytest.raises(Forbidden, match="only the engine may"):
        engine.execute(command, who("admin"), *args)
    engine.execute(command, SYSTEM, *args)  # nothing due, nothing pending: each does nothing
